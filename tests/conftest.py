"""Shared fixtures: corpora with their solutions, and the GNPX position."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.io import corpus_path, read_puzzles, read_solutions

SHARED = Path(os.environ.get("LINKGRAPH_CORPORA", Path(__file__).resolve().parents[2] / "shared" / "puzzles"))


def load_corpus(name: str, *, limit: int | None = None, every: int = 1) -> list[tuple[lg.Grid, np.ndarray]]:
    """(grid, solution values) pairs of a named corpus, every `every`-th puzzle, at most `limit`."""
    lines = list(read_puzzles(corpus_path(name)))
    sols = read_solutions(corpus_path(name, solutions=True))
    out = []
    for i in range(0, len(lines), every):
        grid = lines[i].grid()
        out.append((grid, np.array([int(ch) for ch in sols[i]])))
        if limit is not None and len(out) >= limit:
            break
    return out


@pytest.fixture(scope="session")
def corpus():
    """`corpus(name, limit=None, every=1)` -> list of (grid, solution) pairs."""
    return load_corpus


def shared_corpus(name: str) -> Path:
    """Path of a full shared corpus; skips the test when ../shared is absent."""
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        pytest.skip(f"{path} not found (set LINKGRAPH_CORPORA)")
    return path


def assert_sound(steps, solution: np.ndarray, geometry) -> None:
    """Every placement is the solution digit and no elimination removes it."""
    for step in steps:
        for cand in step.placements:
            want = int(solution[geometry.cell_index(cand.cell)])
            assert cand.digit == want, f"{step}: places {cand}, solution has {want}"
        for cand in step.eliminations:
            want = int(solution[geometry.cell_index(cand.cell)])
            assert cand.digit != want, f"{step}: eliminates the solution digit {cand}"


@pytest.fixture(scope="session")
def sound():
    """`sound(steps, solution, geometry)` asserts the steps agree with the solution."""
    return assert_sound


@pytest.fixture(scope="session")
def across_seeds():
    """`across_seeds(make)` -> (found, distinct, pickle bytes): the code `make` defines a list
    ``keys`` of hashable values; a process with hash seed 1 hashes them and pickles
    ``{key: its position}``, one with seed 2 makes the same keys and loads it. ``found`` counts
    the keys it finds at their position, ``distinct`` the keys of both sides as one set."""
    import subprocess
    import sys

    def run(make: str) -> tuple[int, int, bytes]:
        dump = make + ("import pickle, sys\n[hash(k) for k in keys]\n"
                       "sys.stdout.buffer.write(pickle.dumps({k: i for i, k in enumerate(keys)}))\n")
        load = make + ("import pickle, sys\nd = pickle.loads(sys.stdin.buffer.read())\n"
                       "print(sum(d.get(k) == i for i, k in enumerate(keys)), len(set(d) | set(keys)))\n")
        env = {**os.environ, "PYTHONHASHSEED": "1"}
        data = subprocess.run([sys.executable, "-c", dump], capture_output=True, env=env, check=True).stdout
        env["PYTHONHASHSEED"] = "2"
        out = subprocess.run([sys.executable, "-c", load], input=data, capture_output=True, env=env, check=True)
        found, distinct = map(int, out.stdout.split())
        return found, distinct, data

    return run


#: The test files that take longest (a minute or more of one worker each, `--durations`):
#: `./setup.sh test` hands files to the workers in collection order (`--dist loadfile
#: --no-loadscope-reorder`), so these go first and no long file starts last and runs alone.
LONG_FILES = (
    "tests/test_docs.py", "tests/chains/test_chains.py", "tests/techniques/test_serate.py",
    "tests/techniques/test_variant_positions.py", "tests/techniques/se/test_kernel.py",
    "tests/test_examples.py", "tests/explorer/test_api.py", "tests/explorer/test_browser.py",
)


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONG_FILES)}
    root = Path(config.rootpath)

    def key(item):
        try:
            name = Path(item.path).relative_to(root).as_posix()
        except ValueError:
            name = ""
        return rank.get(name, len(rank))

    items.sort(key=key)  # stable: the other files, and each file's tests, keep their order
