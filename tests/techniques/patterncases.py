"""Shared checks for the pattern-technique tests (helper "patterns").

- `read_cases(family)`: the lines of ``tests/cases/<family>.tsv`` as
  (technique, grid text, expected) triples; expected is ``none`` or
  ``-r1c5#7 +r2c3#4`` style conclusions, the union over every step found.
- `conclusions(steps)`: that union as a sorted list of text.
- `check_sound(steps, solution)`: placements are solution digits, eliminations
  are not, every step proves something, and `linkgraph.check.checker.check_step`
  accepts its proof.
- `transpose(grid)`: the mirrored grid, for the symmetry check.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import linkgraph as lg

CASES = Path(__file__).resolve().parents[1] / "cases"


def read_cases(family: str) -> list[tuple[str, str, str]]:
    out = []
    for raw in (CASES / f"{family}.tsv").read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        tech, grid, expected = raw.split("\t")
        out.append((tech, grid, expected.strip()))
    return out


def conclusions(steps) -> list[str]:
    out = set()
    for step in steps:
        out |= {f"+{c}" for c in step.placements}
        out |= {f"-{c}" for c in step.eliminations}
    return sorted(out)


def expected_list(expected: str) -> list[str]:
    return [] if expected == "none" else sorted(expected.split())


def check_sound(steps, solution: np.ndarray, grid: lg.Grid) -> int:
    """Count the steps after checking each against the solution and the proof checker."""
    from linkgraph.check.checker import check_step

    g = grid.geometry
    count = 0
    for step in steps:
        assert step.placements or step.eliminations, step
        for c in step.eliminations:
            assert grid.has(c), f"{step}: {c} is not live"
            assert solution[g.cell_index(c.cell)] != c.digit, f"unsound {step}"
        for c in step.placements:
            assert solution[g.cell_index(c.cell)] == c.digit, f"unsound {step}"
        check_step(grid, step)
        count += 1
    return count


def check_case(find, tech: str, text: str, expected: str) -> tuple[lg.Grid, list]:
    """A hand-checked case: `find` on the grid gives exactly `expected`, all named
    `tech`, and on the transposed grid exactly the transposed conclusions.
    Returns the grid and its steps for further checks."""
    grid = lg.Grid.parse(text)
    steps = list(find(grid))
    assert conclusions(steps) == expected_list(expected)
    assert all(s.technique == tech for s in steps)
    mirrored = conclusions(find(transpose(grid)))
    assert mirrored == sorted(transpose_text(t) for t in expected_list(expected))
    return grid, steps


def transpose(grid: lg.Grid) -> lg.Grid:
    n = grid.size
    cands = grid.cands.reshape(n, n, n).transpose(1, 0, 2).reshape(n * n, n)
    return lg.Grid(grid.geometry, cands)


def transpose_text(text: str) -> str:
    c = lg.Candidate.parse(text[1:])
    return text[0] + str(lg.Candidate(lg.Cell(c.cell.col, c.cell.row), c.digit))


def prepared(corpus_pairs):
    """Apply the basic ladder to each (grid, solution) pair; keep the unsolved ones."""
    from linkgraph.solver import prepare

    out = []
    for grid, sol in corpus_pairs:
        grid = prepare(grid)
        if not grid.is_solved():
            out.append((grid, sol))
    return out
