"""Finned and sashimi fish of size 2 to 4 (X-Wing, Swordfish, Jellyfish), both orientations.

For one digit take k base lines (rows, say) and k cover lines (columns). The
base places outside the cover are the *fins*; when they all lie in one box,
either a fin is true, or the fish is whole and the digit leaves the cover
columns outside the base rows. Both cases clear the cover cells that sit in
the fins' box outside the base rows. The seed text reads the same logic as a
grid-based almost-locked set (seeds/sudoku-assistant-techniques.txt,
"Grid-Based Almost-Locked Sets (Including Sashimi)").

A fish is *sashimi* when some base line keeps at most one place inside the
cover: without its fin it would not be a fish at all. Otherwise it is
*finned*. Proofs are patterns: ``base`` and ``cover`` sets X, ``fins`` (the
fin candidates) and ``fin_box``.

The search screens every (digit, base lines, fin box) at once with bit masks
in numpy arrays, then tries the covers of the few that remain. The finned and
sashimi rungs of one size ask about the same grid in turn, so one lazy search
per (grid, size) serves both (a small cache keyed on the grid, which is
immutable and hashable).

References
----------
SudokuWiki "Finned X-Wing", "Finned Swordfish", "Sashimi"; HoDoKu "Fish".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations

import numpy as np

from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import SharedSearch, cached, pattern_step
from linkgraph.techniques.singledigit import bitcount

__all__ = ["finned_fish", "FISH_NAMES"]

FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


def finned_fish(grid: Grid, *, size: int = 2, sashimi: bool | None = None) -> Iterator[Step]:
    """Yield finned (and sashimi) fish with `size` base lines, rows first, then columns.

    Parameters
    ----------
    grid : Grid
        The candidate state to search.
    size : int, optional
        2 (X-Wing), 3 (Swordfish) or 4 (Jellyfish).
    sashimi : bool or None, optional
        True: only sashimi fish; False: only finned (non-sashimi) fish; None: both.

    Yields
    ------
    Step
        Technique ``finned-x-wing``, ``sashimi-swordfish`` and the like.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.finned.finned_fish(grid, size=2)), list)
    True
    """
    if size not in FISH_NAMES:
        from linkgraph.errors import OptionError

        raise OptionError(f"size={size!r}: expected 2, 3 or 4")
    return _finned_fish(grid, size, sashimi)


def _lines(g, kind: str) -> list[int]:
    return [h for h, house in enumerate(g.houses) if house.kind == kind]


@dataclass(frozen=True)
class _Side:
    """One orientation (base rows and cover columns, or the reverse) of a geometry, as bit masks."""

    base_lines: list[int]
    cover_lines: list[int]
    pos: dict[int, int]  # cell -> index of its cover line (its place along a base line)
    line_cells: np.ndarray  # (base lines, n) cells of each base line
    weights: np.ndarray  # (base lines, n) int64: 1 << pos of each of those cells
    box_masks: np.ndarray  # (base lines, boxes) int64: positions of the line inside each box
    box_pos: list[dict[int, int]]  # per base line: box -> positions of the line inside the box
    stack_of: dict[int, int]  # box -> positions it meets on any base line
    box_cells: dict[int, list[tuple[int, int, int]]]  # box -> (cell, pos, base line or -1)


@lru_cache(maxsize=8)
def _sides(g) -> tuple[list[int], list[_Side]]:
    boxes = _lines(g, "box") + _lines(g, "region")  # a jigsaw region plays the box's part
    box_of = [g.box_of(c) for c in range(g.number_of_cells)]
    sides = []
    for base_kind, cover_kind in (("row", "col"), ("col", "row")):
        base_lines, cover_lines = _lines(g, base_kind), _lines(g, cover_kind)
        pos = {}
        for j, h in enumerate(cover_lines):
            for c in g.house_cells[h]:
                pos[int(c)] = j
        line_cells = np.array([[int(c) for c in g.house_cells[h]] for h in base_lines], dtype=np.intp)
        weights = np.array([[1 << pos[int(c)] for c in row] for row in line_cells], dtype=np.int64)
        box_pos: list[dict[int, int]] = []
        base_of = {}
        for i, h in enumerate(base_lines):
            masks: dict[int, int] = {}
            for c in g.house_cells[h]:
                masks[box_of[c]] = masks.get(box_of[c], 0) | 1 << pos[int(c)]
                base_of[int(c)] = h
            box_pos.append(masks)
        stack = {b: 0 for b in boxes}
        for masks in box_pos:
            for b, m in masks.items():
                stack[b] |= m
        box_cells = {b: [(int(c), pos[int(c)], base_of.get(int(c), -1)) for c in g.house_cells[b]] for b in boxes}
        box_masks = np.array([[masks.get(b, 0) for b in boxes] for masks in box_pos], dtype=np.int64)
        sides.append(_Side(base_lines, cover_lines, pos, line_cells, weights, box_masks, box_pos,
                           stack, box_cells))
    return boxes, sides


def _shared(grid: Grid, size: int) -> SharedSearch:
    """The finned and sashimi rungs of one size see the same grid in turn: search it once."""
    return cached(("finned", size), grid, lambda grid: SharedSearch(_records(grid, size)))


def _finned_fish(grid: Grid, size: int, sashimi: bool | None) -> Iterator[Step]:
    for record in _shared(grid, size):
        if sashimi is None or record[0] == sashimi:
            yield _fish_step(grid, size, *record)


@lru_cache(maxsize=32)
def _combination_table(lines: int, size: int) -> np.ndarray:
    """(combinations, size) line indices, in `itertools.combinations` order."""
    table = np.array(list(combinations(range(lines), size)), dtype=np.intp)
    return table.reshape(-1, size)


@lru_cache(maxsize=32)
def _rest_table(lines: int, size: int) -> np.ndarray:
    """(combinations, lines - size) the line indices left out of each combination of `_combination_table`."""
    table = _combination_table(lines, size)
    keep = np.ones((len(table), lines), dtype=bool)
    keep[np.arange(len(table))[:, None], table] = False
    return np.nonzero(keep)[1].reshape(len(table), lines - size)


def _or_rows(arr: np.ndarray, table: np.ndarray) -> np.ndarray:
    """For each row of `table`, the OR of those rows of `arr`."""
    if table.shape[1] == 0:
        return np.zeros((len(table), *arr.shape[1:]), dtype=arr.dtype)
    out = arr[table[:, 0]]
    for j in range(1, table.shape[1]):
        out |= arr[table[:, j]]
    return out


def _records(grid: Grid, size: int) -> Iterator[tuple]:
    """(is_sashimi, digit, base lines, cover mask, fin box, side, places, eliminations) of each
    finned or sashimi fish that eliminates something: rows first, then columns; by digit, base
    lines (in combination order), fin box.

    The (digit, base lines, box) triples that can hold a fish are screened for
    all digits at once with bit masks in numpy arrays: the base lines all have
    2+ places and no solved one, their places take more than `size` positions,
    at most `size` of them lie outside the box, and some lie inside it.
    """
    g = grid.geometry
    n = g.size
    boxes, sides = _sides(g)
    if not boxes:
        return
    cands = grid.cands
    solved = grid.counts == 1
    for side in sides:
        on = cands[side.line_cells]  # (lines, n cells, digits)
        blocked = (on & solved[side.line_cells][:, :, None]).any(axis=1)  # (lines, digits)
        usable = (on.sum(axis=1) >= 2) & ~blocked
        live_pos = (on * side.weights[:, :, None]).sum(axis=1)  # (lines, digits) every live place
        P = np.where(usable, live_pos, 0)  # places of the usable base lines
        table = _combination_table(len(side.base_lines), size)
        rest = _rest_table(len(side.base_lines), size)
        chunk = max(1, min(n, 2_000_000 // max(1, len(table) * len(boxes))))
        for d0 in range(0, n, chunk):
            Pd = P[:, d0 : d0 + chunk]  # (lines, D)
            ok_lines = usable[:, d0 : d0 + chunk][table].all(axis=1)  # (C, D)
            union = _or_rows(Pd, table)  # (C, D)
            fishy = ok_lines & (bitcount(union) > size)
            if not fishy.any():
                continue
            # places outside each box in the low 32 bits, inside it above: one OR for both
            split = Pd[:, None, :] & ~side.box_masks[:, :, None] | (Pd[:, None, :] & side.box_masks[:, :, None]) << 32
            both = _or_rows(split, table)  # (C, boxes, D)
            body = both & 0xFFFFFFFF
            meets = both >> 32 != 0
            hit = fishy[:, None, :] & meets & (bitcount(body) <= size)
            if not hit.any():
                continue
            # an elimination: a live place in the box, off the base lines, inside the cover (so in `union`)
            hit &= (_or_rows(live_pos[:, d0 : d0 + chunk][:, None, :] & side.box_masks[:, :, None], rest)
                    & union[:, None, :]) != 0
            for d, c, bi in np.argwhere(hit.transpose(2, 0, 1)).tolist():
                d += d0
                combo = tuple(side.base_lines[i] for i in table[c])
                places = {h: int(P[i, d]) for i, h in zip(table[c].tolist(), combo)}
                yield from _box_records(
                    grid, size, d, combo, places, int(union[c, d - d0]), int(body[c, bi, d - d0]), boxes[bi], side,
                )


def _box_records(grid, size, d, combo, places, union, body, b, side):
    n = grid.size
    box_cells = side.box_cells[b]
    stack = side.stack_of[b]
    free = [j for j in range(n) if stack >> j & 1 and not body >> j & 1]
    col = grid.cands[:, d]
    in_combo = set(combo)
    for extra in combinations(free, size - body.bit_count()):
        cover = body
        for j in extra:
            cover |= 1 << j
        # every cover line must hold a non-fin base place; some base place must be a fin
        if (cover & union) != cover or not any(places[h] & ~cover for h in combo):
            continue
        elims = [c * n + d for c, p, h in box_cells if col[c] and h not in in_combo and cover >> p & 1]
        if not elims:
            continue
        is_sashimi = any((places[h] & cover).bit_count() <= 1 for h in combo)
        yield is_sashimi, d, combo, cover, b, side, places, sorted(elims)


def _fish_step(grid, size, is_sashimi, d, combo, cover, b, side, places, elims):
    g = grid.geometry
    n = g.size
    pos = side.pos
    fins = [int(c) for h in combo for c in g.house_cells[h] if places[h] >> pos[int(c)] & 1 and not cover >> pos[int(c)] & 1]
    name = ("sashimi-" if is_sashimi else "finned-") + FISH_NAMES[size]
    cover_houses = [side.cover_lines[j] for j in range(n) if cover >> j & 1]
    return pattern_step(
        name, g,
        base=[g.number_of_cells + h * n + d for h in combo],
        cover=[g.number_of_cells + h * n + d for h in cover_houses],
        eliminations=elims,
        fins=[str(g.candidate(c * n + d)) for c in sorted(fins)],
        fin_box=str(g.houses[b]),
        digit=d + 1,
    )


def finder(size: int, sashimi: bool):
    """The find function of one ladder rung, e.g. ``finder(3, True)`` for sashimi swordfish."""
    return partial(finned_fish, size=size, sashimi=sashimi)
