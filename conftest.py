"""Doctest namespace: `lg`, `nx`, `np` are there in every doctest."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as linkgraph sets it, before numpy loads here
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import networkx as nx  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import linkgraph as lg  # noqa: E402


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace):
    doctest_namespace.update(lg=lg, nx=nx, np=np)
