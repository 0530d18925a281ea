"""The truth oracle: count a grid's solutions by search and return the unique one.

A proper puzzle has exactly one solution; every placement linkgraph makes must
be a solution digit and no elimination may remove one. This module finds the
solutions by search over the geometry's sets X, independently of the reasoning
engine (it shares no code with the techniques).

The search is an exact-cover search. Every set X (a cell's digits, a digit's
places in a house) must hold exactly one true candidate. The state is two
Python ints used as bitsets over the candidates: those still live and those
chosen. Choosing a candidate kills every candidate that shares a set X with it
and covers its sets. After each choice the open sets are scanned: a set with no
live member is a contradiction, a set with one is forced (a naked single when
the set is a cell, a hidden single when it is a house-digit), and the search
branches on the open set with the fewest live members, cell or house-digit
alike, ties going to the set whose members would kill the most live
candidates. Both choices matter on puzzles built against cell-only
backtracking: Norvig's "impossible" puzzle (no solution) and its transposed and
relabelled forms take a handful of nodes, where a search that branches on
cells only, or breaks ties by position, takes thousands or millions.

Examples
--------
>>> lg.oracle.count_solutions(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
1
>>> lg.oracle.count_solutions(lg.Grid.empty(), limit=3)
3
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from linkgraph.errors import InvalidPuzzleError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, as_grid

__all__ = ["count_solutions", "solutions", "solve_unique"]


@lru_cache(maxsize=8)
def _tables(g: Geometry) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(members of each set X, candidates each candidate kills, sets each candidate covers), as bitsets."""
    members = [0] * g.number_of_sets
    covers = [0] * g.number_of_candidates
    for s, row in enumerate(g.set_members):
        for k in row:
            members[s] |= 1 << int(k)
            covers[int(k)] |= 1 << s
    kills = [0] * g.number_of_candidates
    for k in range(g.number_of_candidates):
        for s in g.cand_sets[k]:
            kills[k] |= members[int(s)]
    return tuple(members), tuple(kills), tuple(covers)


def _settle(live: int, chosen: int, open_sets: list[int], members, kills) -> tuple[int, int, list[int], int] | None:
    """Choose every forced candidate until none is left: (live, chosen, open sets, branch).

    None on a contradiction. The branch is the live members (a bitset) of the open set
    with the fewest, ties broken by the most live candidates its members would kill,
    or 0 when every set is covered (a solution).
    """
    while True:
        forced = 0
        fewest = 1 << 30
        ties: list[int] = []
        still_open = []
        for s in open_sets:
            m = live & members[s]
            if m & chosen:
                continue  # covered
            count = m.bit_count()
            still_open.append(s)
            if count <= 1:
                if count == 0:
                    return None
                forced |= m
            elif count <= fewest:
                if count < fewest:
                    fewest, ties = count, [m]
                else:
                    ties.append(m)
        open_sets = still_open
        if not forced:
            break
        while forced:
            bit = forced & -forced
            forced ^= bit
            if not live & bit:
                return None  # two forced candidates of one set
            chosen |= bit
            live &= ~kills[bit.bit_length() - 1] | bit
    branch, most = 0, -1
    for m in ties:
        killed = 0
        rest = m
        while rest:
            bit = rest & -rest
            rest ^= bit
            killed += (kills[bit.bit_length() - 1] & live).bit_count()
        if killed > most:
            branch, most = m, killed
    return live, chosen, open_sets, branch


def _search(live: int, chosen: int, open_sets: list[int], members, kills, limit: int, found: list[int]) -> None:
    settled = _settle(live, chosen, open_sets, members, kills)
    if settled is None:
        return
    live, chosen, open_sets, branch = settled
    if not branch:
        found.append(chosen)
        return
    while branch and len(found) < limit:
        bit = branch & -branch
        branch ^= bit
        _search((live & ~kills[bit.bit_length() - 1]) | bit, chosen | bit, open_sets, members, kills, limit, found)
        live &= ~bit  # the next branches know this candidate is false


def solutions(grid: Grid, *, limit: int = 2) -> list[np.ndarray]:
    """Up to `limit` solutions of `grid`, each an array of one value per cell.

    The search starts from the grid's live candidates, so it also answers for
    a position after eliminations.

    >>> sols = lg.oracle.solutions(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> len(sols), "".join(map(str, sols[0][:9]))
    (1, '152647389')
    """
    grid = as_grid(grid)
    g = grid.geometry
    members, kills, _ = _tables(g)
    live = int.from_bytes(np.packbits(grid.live, bitorder="little").tobytes(), "little")
    found: list[int] = []
    if limit > 0:
        _search(live, 0, list(range(g.number_of_sets)), members, kills, limit, found)
    n = g.size
    out = []
    for chosen in found:
        bits = np.unpackbits(np.frombuffer(chosen.to_bytes((g.number_of_candidates + 7) // 8, "little"), np.uint8),
                             bitorder="little")[: g.number_of_candidates].reshape(-1, n)
        out.append((bits.argmax(axis=1) + 1).astype(np.int64))
    return out


def count_solutions(grid: Grid, *, limit: int = 2) -> int:
    """Number of solutions, counted up to `limit` (so 2 means "two or more")."""
    return len(solutions(grid, limit=limit))


def solve_unique(grid: Grid) -> np.ndarray:
    """The unique solution as one value per cell.

    Raises InvalidPuzzleError when the grid has no solution or more than one.
    """
    sols = solutions(grid, limit=2)
    if not sols:
        raise InvalidPuzzleError("the puzzle has no solution")
    if len(sols) > 1:
        raise InvalidPuzzleError("the puzzle has more than one solution")
    return sols[0]
