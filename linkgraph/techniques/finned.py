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

The search screens every (digit, base lines, fin box) of both orientations at
once with bit masks in numpy arrays, exactly, then tries the covers of the few
that pass. The finned and sashimi rungs of one size ask about the same grid in
turn, so one lazy search per (grid, size) serves both (a small cache keyed on
the grid, which is immutable and hashable).

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
from linkgraph.grid import cached
from linkgraph.techniques.base import SharedSearch, pattern_step

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
    stacks: np.ndarray  # (boxes,) int64: the same, in box order
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
        stacks = np.array([stack[b] for b in boxes], dtype=np.int64)
        sides.append(_Side(base_lines, cover_lines, pos, line_cells, weights, box_masks, box_pos,
                           stack, stacks, box_cells))
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


@lru_cache(maxsize=8)
def _stacked(g) -> tuple[np.ndarray, ...]:
    """Both sides' base lines, line cells, weights and box masks, (sides, base lines, ...), box
    stacks (sides, boxes), and whether every line's j-th cell has position j (so the line's
    places are its `house_places`)."""
    _, sides = _sides(g)
    lines = np.array([side.base_lines for side in sides], dtype=np.intp)
    arrays = [np.stack([getattr(side, name) for side in sides]) for name in ("line_cells", "weights", "box_masks", "stacks")]
    positional = bool((arrays[1] == 1 << np.arange(g.size, dtype=np.int64)).all())
    return lines, *arrays, positional


def _records(grid: Grid, size: int) -> Iterator[tuple]:
    """(is_sashimi, digit, base lines, cover mask, fin box, side, places, eliminations) of each
    finned or sashimi fish that eliminates something: rows first, then columns; by digit, base
    lines (in combination order), fin box.

    Every (side, digit, base lines) whose lines have 2+ places and no solved one,
    with places in more than `size` positions, is screened with every fin box
    by `linkgraph.techniques.kernel.finned_screen` (compiled bit masks);
    `_box_records` works out the few that pass, and the screen passes exactly
    those in which it finds a fish. The cover is the *body* (the base places
    outside the box) and k more positions of the box, all inside the union of
    the base places; it needs a base place outside it (a fin) and an
    elimination inside it. With A the positions it may add, some k of A will do
    exactly when A has k and an elimination lies in the body or, k >= 1, in A;
    a fin is left anyway, the union having more than `size` positions.
    """
    from linkgraph.techniques.kernel import finned_screen  # noqa: PLC0415 (numba: loaded on first use)

    g = grid.geometry
    boxes, sides = _sides(g)
    if not boxes:
        return
    _, line_cells, weights, box_masks, stacks, _ = _stacked(g)
    table = _combination_table(line_cells.shape[1], size)
    places, records = finned_screen(grid.cands, line_cells, weights, box_masks, stacks, table, size)
    for ss, dd, cc, b, body, union in records.tolist():
        lines = table[cc].tolist()
        combo = tuple(sides[ss].base_lines[i] for i in lines)
        line_places = places[ss, :, dd].tolist()
        yield from _box_records(
            grid, size, dd, combo, {h: line_places[i] for i, h in zip(lines, combo)}, union, body,
            boxes[b], sides[ss],
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
