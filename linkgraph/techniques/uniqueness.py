"""Uniqueness techniques: unique rectangles (types 1-4) and BUG+1. Opt-in: they assume one solution.

A *deadly pattern* is a set of unsolved cells whose digits could be swapped
without touching the rest of the grid; a puzzle with one solution cannot end
in one. These techniques therefore prove nothing by set X logic alone: they
hold only for a puzzle known to have exactly one solution, and the ladder
leaves them out unless asked for (``Technique(..., default=False)``).

- **Unique rectangle**: four unsolved cells in two rows, two columns and two
  boxes, all holding digits ``a`` and ``b``, and no other house (a diagonal,
  a window, a jigsaw region) holding one corner or two opposite corners. If all four were ``{ab}`` the
  two ways of filling them would give two solutions. The *floor* cells hold
  exactly ``{ab}``; the *roof* cells hold more.

  - Type 1: three cells are ``{ab}``: the fourth is not ``a`` nor ``b``.
  - Type 2: two cells are ``{ab}``, the two roof cells ``{abx}`` with the same
    ``x``: one roof cell is ``x``, so every cell that sees both loses ``x``.
  - Type 3: the roof cells' extra digits act as one cell; with ``k`` other
    cells of a house they share they form a naked subset of ``k + 1`` digits
    in ``k + 1`` "cells", so the rest of the house loses those digits.
  - Type 4: one of ``a``, ``b`` (say ``a``) has only the two roof cells left in
    a house they share, so one of them is ``a``; the other must then not be
    ``b``: both roof cells lose ``b``.

- **BUG+1** (bivalue universal grave plus one): every unsolved cell has two
  candidates except one with three, and with one digit ``x`` of that cell
  removed every digit would have exactly two places in each house where it
  is unsolved. Such a "grave" has zero or at least two solutions, so the
  three-digit cell is ``x``.

Proofs are pattern proofs (``P.graph["kind"] == "pattern"``) with
``assumes="uniqueness"`` and the pattern in the graph attributes:
``pattern`` (``unique-rectangle`` or ``bug+1``), ``type`` (1-4), ``cells``,
``pair``, and per type ``extra`` (type 2), ``house``, ``subset`` and
``digits`` (type 3), ``house`` and ``digit`` (type 4); for BUG+1 ``cell`` and
``digit``. `linkgraph.check.checker.check_step` checks the pattern's shape and that
the conclusions are the ones its type gives (it cannot check the uniqueness
assumption itself).

References
----------
SudokuWiki "Unique Rectangles" and "BUG"; HoDoKu "Uniqueness" (types 1-4,
BUG+1); Sudoku Explainer ratings (UR 4.5-4.8, BUG+1 5.6).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from functools import lru_cache
from itertools import combinations

import networkx as nx
import numpy as np

from linkgraph.errors import OptionError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.bitops import bits

__all__ = ["bug_plus_one", "unique_rectangles"]

TYPES = (1, 2, 3, 4)
MAX_SUBSET = 3  # type 3: at most three real cells join the roof's extras (a naked quad)


def unique_rectangles(grid: Grid, *, types: Collection[int] = TYPES) -> Iterator[Step]:
    """Yield unique-rectangle steps of the given types (assumes a unique solution).

    Parameters
    ----------
    grid : Grid
        The candidate state to search (a grid with rows, columns and boxes).
    types : collection of int, optional
        Which types to look for, from 1, 2, 3, 4.

    Yields
    ------
    Step
        Technique ``"unique-rectangle-N"``; a pattern proof with
        ``assumes="uniqueness"``.

    Raises
    ------
    OptionError
        For a type outside 1-4.

    Examples
    --------
    r1c1, r1c4 and r2c1 hold only 1 and 2; r2c4 holds 1, 2, 5 and 7:

    >>> cells = {"r1c1": "12", "r1c4": "12", "r2c1": "12", "r2c4": "1257"}
    >>> cut = [f"{c}#{d}" for c, ds in cells.items() for d in range(1, 10) if str(d) not in ds]
    >>> grid = lg.Grid.empty().eliminate(lg.Candidate.parse(c) for c in cut)
    >>> step = next(lg.techniques.uniqueness.unique_rectangles(grid))
    >>> step.technique, sorted(map(str, step.eliminations))
    ('unique-rectangle-1', ['r2c4#1', 'r2c4#2'])
    """
    wanted = frozenset(types)
    bad = sorted(wanted - set(TYPES), key=str)
    if bad or not wanted:
        raise OptionError(f"types={sorted(types, key=str)}: expected some of 1, 2, 3, 4")
    return _unique_rectangles(grid, wanted)


@lru_cache(maxsize=8)
def _rectangles(g: Geometry) -> np.ndarray:
    """``(rects, 4)`` cell indices (r1c1, r1c2, r2c1, r2c2) of the rectangles spanning two boxes."""
    n = g.size
    if not any(h.kind == "box" for h in g.houses):
        return np.zeros((0, 4), dtype=np.int64)
    box = np.array([g.box_of(i) for i in range(n * n)])
    out = []
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            quad = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2]
            if len(set(box[quad].tolist())) == 2 and _swappable(g, quad):
                out.append(quad)
    return np.array(out, dtype=np.int64).reshape(-1, 4)


def _swappable(g: Geometry, quad: list[int]) -> bool:
    """True if swapping two digits around the rectangle keeps every house whole:
    each house holds none of its cells, both ends of one side, or all four
    (a diagonal or a window through one corner would break the swap)."""
    sides = ({quad[0], quad[1]}, {quad[2], quad[3]}, {quad[0], quad[2]}, {quad[1], quad[3]})
    corners = set(quad)
    for h in g.cell_houses[quad[0]] + g.cell_houses[quad[1]] + g.cell_houses[quad[2]] + g.cell_houses[quad[3]]:
        meet = corners.intersection(int(c) for c in g.house_cells[h])
        if len(meet) != 4 and meet not in sides:
            return False
    return True


def _masks(grid: Grid) -> np.ndarray:
    """Per cell, its live digits as a bit mask (bit d-1 for digit d)."""
    return grid.cands.astype(np.int64) @ (1 << np.arange(grid.size, dtype=np.int64))


def _unique_rectangles(grid: Grid, wanted: frozenset[int]) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    rects = _rectangles(g)
    if not len(rects):
        return
    mask = _masks(grid)
    quad = mask[rects]  # (rects, 4)
    common = np.bitwise_and.reduce(quad, axis=1)
    popcount = np.array([bin(m).count("1") for m in range(1 << n)])
    # floor candidates: bivalue cells whose two digits all four cells hold
    floorish = (popcount[quad] == 2) & ((quad & ~common[:, None]) == 0)
    need = 3 if wanted == {1} else 2
    masks = mask.tolist()
    seen: set[tuple] = set()
    for r in np.flatnonzero(floorish.sum(axis=1) >= need).tolist():
        cells = rects[r].tolist()
        for pair in sorted({masks[c] for c, f in zip(cells, floorish[r].tolist()) if f}):
            floor = [c for c in cells if masks[c] == pair]
            if len(floor) < need:
                continue
            roof = [c for c in cells if masks[c] != pair]
            for step in _rectangle_steps(grid, masks, cells, pair, floor, roof, wanted):
                key = (step.technique, step.eliminations)
                if key not in seen:
                    seen.add(key)
                    yield step


def _shared_houses(g: Geometry, a: int, b: int) -> list[int]:
    return sorted(set(g.cell_houses[a]) & set(g.cell_houses[b]))


def _rectangle_steps(
    grid: Grid, mask: list[int], cells: list[int], pair: int, floor: list[int], roof: list[int],
    wanted: frozenset[int],
) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    a, b = bits(pair)
    if len(floor) == 3 and 1 in wanted:
        (t,) = roof
        yield _ur_step(grid, 1, cells, pair, [t * n + a, t * n + b])
        return
    if len(floor) != 2:
        return
    houses = _shared_houses(g, *roof)
    if not houses:
        return  # diagonal roof: none of types 2-4
    extra = (mask[roof[0]] | mask[roof[1]]) & ~pair
    if 2 in wanted and mask[roof[0]] == mask[roof[1]] and bin(extra).count("1") == 1:
        x = bits(extra)[0]
        k0, k1 = roof[0] * n + x, roof[1] * n + x
        targets = np.flatnonzero(grid.live & g.sees[k0] & g.sees[k1])
        if len(targets):
            yield _ur_step(grid, 2, cells, pair, targets.tolist(), extra=x + 1)
    if 3 in wanted:
        yield from _type3(grid, mask, cells, pair, roof, extra, houses)
    if 4 in wanted:
        for h in houses:
            for u, v in ((a, b), (b, a)):
                places = [c for c in g.house_cells[h].tolist() if mask[c] >> u & 1]
                if sorted(places) == sorted(roof):
                    yield _ur_step(grid, 4, cells, pair, [roof[0] * n + v, roof[1] * n + v],
                                   house=str(g.houses[h]), digit=u + 1)


def _type3(
    grid: Grid, mask: list[int], cells: list[int], pair: int, roof: list[int], extra: int, houses: list[int],
) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    for h in houses:
        others = [c for c in g.house_cells[h].tolist() if c not in roof and bin(mask[c]).count("1") >= 2]
        pool = [c for c in others if bin(mask[c] | extra).count("1") <= MAX_SUBSET + 1]
        for k in range(1, min(len(pool), MAX_SUBSET) + 1):
            for subset in combinations(pool, k):
                digits = extra
                for c in subset:
                    digits |= mask[c]
                if bin(digits).count("1") != k + 1:
                    continue
                rest = [c for c in others if c not in subset]
                targets = [c * n + d for c in rest for d in bits(digits) if mask[c] >> d & 1]
                if targets:
                    yield _ur_step(
                        grid, 3, cells, pair, targets, house=str(g.houses[h]),
                        subset=[str(g.cell(c)) for c in subset], digits=[d + 1 for d in bits(digits)],
                    )


def _ur_step(grid: Grid, kind: int, cells: list[int], pair: int, targets: list[int], **extra: object) -> Step:
    g = grid.geometry
    elims = sorted(g.candidate(k) for k in targets)
    P = nx.DiGraph(
        kind="pattern", assumes="uniqueness", pattern="unique-rectangle", type=kind,
        cells=[str(g.cell(c)) for c in sorted(cells)], pair=[d + 1 for d in bits(pair)],
    )
    P.graph.update(extra)
    for cand in elims:
        P.add_node(Literal(cand, on=False), role=Role.CONCLUSION)
    a, b = P.graph["pair"]
    notation = f"UR type {kind} {a}{b} {' '.join(P.graph['cells'])} => " + ", ".join(
        f"{c.cell}<>{c.digit}" for c in elims
    )
    return make_step(f"unique-rectangle-{kind}", eliminations=elims, proof=P, notation=notation)


def bug_plus_one(grid: Grid) -> Iterator[Step]:
    """Yield the BUG+1 placement, if the grid is one (assumes a unique solution).

    Parameters
    ----------
    grid : Grid
        The candidate state to search.

    Yields
    ------
    Step
        Technique ``"bug+1"``: at most one step, placing the three-candidate
        cell's digit; a pattern proof with ``assumes="uniqueness"``.

    Examples
    --------
    >>> list(lg.techniques.uniqueness.bug_plus_one(lg.Grid.parse(lg.samples.EULER_01)))
    []
    """
    return _bug_plus_one(grid)


def _bug_plus_one(grid: Grid) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    counts = grid.counts
    open_cells = counts >= 2
    if not open_cells.any() or (counts > 3).any() or (counts[open_cells] == 3).sum() != 1:
        return
    t = int(np.flatnonzero(counts == 3)[0])
    live = grid.live.copy()
    live[~np.repeat(open_cells, n)] = False  # solved cells take no part
    house_sets = g.set_members[g.number_of_cells:]
    solved_digits = grid.live & ~np.repeat(open_cells, n)
    # candidates must be clean: no open candidate shares a house set with a solved one
    if (live[house_sets].any(axis=1) & solved_digits[house_sets].any(axis=1)).any():
        return
    for d in np.flatnonzero(grid.cands[t]).tolist():
        trial = live.copy()
        trial[t * n + d] = False
        per_set = trial[house_sets].sum(axis=1)
        if np.isin(per_set, (0, 2)).all():
            cand = g.candidate(t * n + d)
            P = nx.DiGraph(kind="pattern", assumes="uniqueness", pattern="bug+1", cell=str(cand.cell), digit=d + 1)
            P.add_node(Literal(cand, on=True), role=Role.CONCLUSION)
            yield make_step("bug+1", placements=[cand], proof=P, notation=f"BUG+1 => {cand.cell}={cand.digit}")
            return
