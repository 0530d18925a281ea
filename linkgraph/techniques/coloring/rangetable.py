"""The almost-locked ranges of a grid, as values and as a table for many premises at once.

A range (`linkgraph.techniques.coloring.ranges` has the technique, and re-exports
`Range` and `find_ranges`) is a box whose places for a digit, at least three
and not all on one line, would stand in one line's segment once the places
off that line are OFF: the digit's places on the line outside the box are
then OFF. `find_ranges` lists every (box, digit, line) that can form one as
a `Range`; `RangeTable` holds them as index arrays, to tell which ranges
each premise locks (`RangeTable.lock`; `RangeTable.lock_words` for many
premises packed as bits) and what they turn OFF.

Examples
--------
Digit 1 keeps three places in box 2, r1c4, r2c5 and r3c5. Assuming r4c5 is 1
turns r2c5 and r3c5 OFF (column 5), which leaves r1c4: the box is locked onto
row 1 and onto column 4 alike (r1c4 is all of both segments).

>>> from linkgraph.techniques.coloring.rangetable import RangeTable
>>> out = ["r1c5#1", "r1c6#1", "r2c4#1", "r2c6#1", "r3c4#1", "r3c6#1"]
>>> grid = lg.Grid.empty().eliminate({lg.Candidate.parse(c) for c in out})
>>> g, table = grid.geometry, RangeTable(grid)
>>> x = g.index(lg.Candidate.parse("r4c5#1"))
>>> on = np.zeros((1, g.number_of_candidates), dtype=bool)
>>> on[0, x] = True
>>> off = g.sees[[x]] & grid.live
>>> [f"{g.setx(table.box_sets[i])} => {g.setx(table.line_sets[i])}" for i in np.flatnonzero(table.lock(on, off)[0])]
['b2#1 => r1#1', 'b2#1 => c4#1']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid

__all__ = ["Range", "find_ranges"]

_BOX_KINDS = ("box", "region")


@dataclass(frozen=True, slots=True)
class Range:
    """One way a box can lock: box set X `box_set`, line set X `line_set` (integer indices).

    `inside` are the box's live places of the digit on the line, `outside`
    the others, `targets` the live places of the digit on the line outside the box.
    """

    box_set: int
    line_set: int
    inside: tuple[int, ...]
    outside: tuple[int, ...]
    targets: tuple[int, ...]


def find_ranges(grid: Grid) -> list[Range]:
    """Every (box, digit, line) that can form an almost-locked range in `grid`.

    A box qualifies for a digit with at least three live places that do not
    all lie on one line; a line qualifies when it holds at least one of those
    places and has live places of the digit outside the box.

    Parameters
    ----------
    grid : Grid
        The candidate state.

    Returns
    -------
    list of Range
        In set X order.

    Examples
    --------
    In an empty grid every box can lock each digit onto each of its six lines:

    >>> ranges = lg.techniques.coloring.ranges.find_ranges(lg.Grid.empty())
    >>> len(ranges), len(ranges[0].inside), len(ranges[0].outside), len(ranges[0].targets)
    (486, 3, 6, 6)
    """
    box_sets, line_sets, inside, outside, targets, _ = _range_arrays(grid)
    C = grid.geometry.number_of_candidates

    def places(row: list[int]) -> tuple[int, ...]:
        return tuple(k for k in row if k < C)

    return [Range(b, ln, places(i), places(o), places(t))
            for b, ln, i, o, t in zip(box_sets.tolist(), line_sets.tolist(), inside.tolist(), outside.tolist(),
                                      targets.tolist())]


def _range_arrays(grid: Grid) -> tuple[np.ndarray, ...]:
    """The ranges of `find_ranges` as arrays: box sets, line sets, then the
    inside, outside and target places, one row per range, as candidate
    indices padded with ``number_of_candidates`` (dead places are padding too);
    last the targets as a (ranges, candidates) bool table.

    Compiled (`linkgraph.techniques.coloring.kernel.range_table`); the numpy
    pipeline it replaced is its oracle in tests/techniques/coloring/test_kernel.py.
    """
    from linkgraph.techniques.coloring.kernel import range_table  # noqa: PLC0415 (numba: loaded on first use)

    box_h, line_h, box, inside, outside, targets, box_cells = _pairs(grid.geometry)
    return range_table(grid.live, box_h, line_h, box, inside, outside, targets, box_cells, grid.geometry.size)


@lru_cache(maxsize=8)
def _pairs(g: Geometry) -> tuple[np.ndarray, ...]:
    """Every (box, line) pair of houses that share cells, as arrays over the pairs.

    Returns the box's house index, the line's, the box's row in `box_cells`,
    and the cells (padded with ``number_of_cells``) of box and line together,
    of the box off the line, and of the line off the box, each in house
    order; then `box_cells`, each box's cells.
    """
    nc = g.number_of_cells
    boxes = [h for h, house in enumerate(g.houses) if house.kind in _BOX_KINDS]
    lines = [h for h, house in enumerate(g.houses) if house.kind not in _BOX_KINDS]
    cells = [[int(c) for c in g.house_cells[h]] for h in range(len(g.houses))]
    rows: list[tuple] = []
    for b, h in enumerate(boxes):
        in_box = set(cells[h])
        for h2 in lines:
            in_line = set(cells[h2])
            if in_box & in_line:
                rows.append((h, h2, b, [c for c in cells[h] if c in in_line], [c for c in cells[h] if c not in in_line],
                             [c for c in cells[h2] if c not in in_box]))

    def padded(lists: list[list[int]]) -> np.ndarray:
        out = np.full((len(lists), max((len(x) for x in lists), default=0)), nc, dtype=np.intp)
        for i, x in enumerate(lists):
            out[i, : len(x)] = x
        return out

    arrays = (np.array([r[0] for r in rows], dtype=np.intp), np.array([r[1] for r in rows], dtype=np.intp),
              np.array([r[2] for r in rows], dtype=np.intp), padded([r[3] for r in rows]),
              padded([r[4] for r in rows]), padded([r[5] for r in rows]), padded([cells[h] for h in boxes]))
    for a in arrays:
        a.setflags(write=False)
    return arrays


class RangeTable:
    """The ranges of a grid as index arrays, to lock them for many premises at once."""

    def __init__(self, grid: Grid):
        self.box_sets, self.line_sets, inside, outside, targets, self.targets = _range_arrays(grid)
        self.size = len(self.box_sets)
        self._rows = (inside, outside, targets)
        #: each range's targets as candidates, padded with ``number_of_candidates``
        self.target_places = targets

    @cached_property
    def _compact(self) -> tuple[np.ndarray, ...]:
        """The places of every range as columns of a compact table (column ``len(cols)`` pads):
        the columns, then the inside, outside and all places of each range."""
        C = self.targets.shape[1]
        inside, outside, _ = self._rows
        places = np.concatenate([inside, outside], axis=1)
        cols = np.unique(places[places < C])

        def compact(rows: np.ndarray) -> np.ndarray:
            return np.where(rows < C, np.searchsorted(cols, rows), len(cols))

        return cols, compact(inside), compact(outside), compact(places)

    def range(self, i: int) -> Range:
        """Range `i` (in `find_ranges` order) as a `Range`."""
        C = self.targets.shape[1]
        inside, outside, targets = (tuple(k for k in rows[i].tolist() if k < C) for rows in self._rows)
        return Range(int(self.box_sets[i]), int(self.line_sets[i]), inside, outside, targets)

    def lock(self, on: np.ndarray, off: np.ndarray) -> np.ndarray:
        """``(premises, ranges)`` bool: the ranges each premise row locks.

        `on` and `off` are ``(premises, candidates)`` bool: what a premise makes
        ON and OFF. A range locks when every place outside its line is OFF, a
        place on the line is not, and no place in the box is ON (then the box
        is already settled).
        """
        cols, inside, outside, places = self._compact
        W = on.shape[0]
        pad_true = np.ones((W, 1), dtype=bool)
        offc = np.concatenate([off[:, cols], pad_true], axis=1)
        onc = np.concatenate([on[:, cols], ~pad_true], axis=1)
        cleared = offc[:, outside].all(axis=2)
        left = (~offc)[:, inside].any(axis=2)
        settled = onc[:, places].any(axis=2)
        return cleared & left & ~settled

    def lock_words(self, on: np.ndarray, off: np.ndarray) -> np.ndarray:
        """`lock` with the premises packed as bits: ``(ranges, words)``, bit p of row i set when
        premise p locks range i.

        `on` and `off` are ``(candidates + 1, words)`` uint64 (`linkgraph.bitops.pack`):
        bit p of row k is set when premise p makes candidate k ON (OFF); the last row, for the
        padding, is all 0 in `on` and all 1 in `off`.
        """
        from linkgraph.techniques.coloring.kernel import lock_words  # noqa: PLC0415 (numba: loaded on first use)

        inside, outside, _ = self._rows
        return lock_words(on, off, inside, outside)

    def reach(self, locked_row: np.ndarray) -> np.ndarray:
        """Candidates the ranges locked in one premise row turn OFF."""
        return self.targets[locked_row].any(axis=0)
