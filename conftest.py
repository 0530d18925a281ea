"""Doctest namespace: `lg`, `nx`, `np` are there in every doctest."""

import networkx as nx
import numpy as np
import pytest

import linkgraph as lg


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace):
    doctest_namespace.update(lg=lg, nx=nx, np=np)
