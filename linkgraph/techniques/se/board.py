"""SE's grid model: cells, regions and a mutable candidate state, in SE's orders.

Sudoku Explainer visits cells row by row (``index = 9 * row + col``), region types in the
order block, row, column, and the cells of a region in a fixed order (a block row by row).
Results that tie are broken by these orders, so every search here follows them. A
`Board` holds one bit mask of candidate digits per cell (bit ``d`` for digit ``d``) and
the count of places of every digit in every region, kept up to date as candidates go.

Examples
--------
>>> from linkgraph.techniques.se.board import Board, REGION_CELLS
>>> board = Board.from_grid(lg.Grid.parse(lg.samples.EULER_01))
>>> board.values[:3], bin(board.cands[0])  # r1c3 holds a 3; r1c1 may hold 4 or 5
([0, 0, 3], '0b110000')
>>> REGION_CELLS[0][:4], REGION_CELLS[9][:4], REGION_CELLS[18][:4]  # block 1, row 1, column 1
((0, 1, 2, 9), (0, 1, 2, 3), (0, 9, 18, 27))
"""

from __future__ import annotations

from linkgraph.grid import Grid
from linkgraph.model import Candidate, Cell

__all__ = [
    "BLOCK", "CELL_REGIONS", "COLUMN", "HOUSE_CELLS", "PEERS", "PEER_CAUSES", "REGION_CELLS", "ROW", "Board",
    "bits", "cell_name", "popcount", "region_name", "set_text",
]

#: Region types in SE's order (``Grid.getRegionTypes``): block, row, column.
BLOCK, ROW, COLUMN = 0, 1, 2

#: The 27 regions: 0-8 blocks, 9-17 rows, 18-26 columns; each a tuple of 9 cells in SE's order.
REGION_CELLS: tuple[tuple[int, ...], ...] = (
    tuple(tuple((b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)) for b in range(9))
    + tuple(tuple(r * 9 + i for i in range(9)) for r in range(9))
    + tuple(tuple(i * 9 + c for i in range(9)) for c in range(9))
)

#: For each cell, its (block, row, column) region numbers.
CELL_REGIONS: tuple[tuple[int, int, int], ...] = tuple(
    ((c // 27) * 3 + (c % 9) // 3, 9 + c // 9, 18 + c % 9) for c in range(81)
)


def _house_cells(cell: int) -> tuple[int, ...]:
    seen: dict[int, None] = {}
    for region in CELL_REGIONS[cell]:
        for other in REGION_CELLS[region]:
            if other != cell:
                seen.setdefault(other, None)
    return tuple(seen)


#: For each cell, the cells of its block, row and column (each once, in that order, itself left
#: out): SE's ``Cell.getHouseCells``.
HOUSE_CELLS: tuple[tuple[int, ...], ...] = tuple(_house_cells(c) for c in range(81))

#: For each cell, its house cells in `HOUSE_CELLS`' order, each with the region type it was
#: reached by plus one (1 block, 2 row, 3 column: SE's ``Potential.Cause`` of a peer turned off).
PEER_CAUSES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((o, 1 if CELL_REGIONS[o][0] == CELL_REGIONS[c][0] else 2 if o // 9 == c // 9 else 3) for o in HOUSE_CELLS[c])
    for c in range(81)
)

#: For each cell, its 20 peers as a set.
PEERS: tuple[frozenset[int], ...] = tuple(frozenset(h) for h in HOUSE_CELLS)

_POP = [bin(i).count("1") for i in range(1024)]


def popcount(mask: int) -> int:
    """Number of digits in a candidate mask."""
    return _POP[mask]


_BITS = [tuple(d for d in range(1, 10) if m >> d & 1) for m in range(1024)]


def bits(mask: int) -> tuple[int, ...]:
    """The digits of a candidate mask, ascending."""
    return _BITS[mask]


def region_name(region: int) -> str:
    """``b1`` ... ``r1`` ... ``c9``: a region in linkgraph's notation."""
    return "brc"[region // 9] + str(region % 9 + 1)


def set_text(region: int, digit: int) -> str:
    """The set X of `digit` in `region`: ``r2#5``."""
    return f"{region_name(region)}#{digit}"


def cell_name(cell: int) -> str:
    """``r1c1`` for cell 0."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


class Board:
    """A mutable candidate state: ``cands[cell]`` bit masks, ``values[cell]`` (0: empty), and
    ``count[region * 10 + digit]``, the places of `digit` left in `region`."""

    __slots__ = ("cands", "values", "count")

    def __init__(self, cands: list[int], values: list[int]):
        self.cands = cands
        self.values = values
        count = [0] * 270
        for region, cells in enumerate(REGION_CELLS):
            for c in cells:
                m = cands[c]
                for d in _BITS[m]:
                    count[region * 10 + d] += 1
        self.count = count

    @classmethod
    def from_grid(cls, grid: Grid) -> Board:
        """The board of a 9x9 `Grid` (placed cells carry their value and no candidates)."""
        live = grid.cands
        placed = grid.placed
        cands, values = [], []
        for c in range(81):
            row = live[c]
            if placed[c]:
                values.append(int(row.argmax()) + 1)
                cands.append(0)
            else:
                values.append(0)
                cands.append(sum(1 << (d + 1) for d in range(9) if row[d]))
        return cls(cands, values)

    def copy(self) -> Board:
        new = Board.__new__(Board)
        new.cands = list(self.cands)
        new.values = list(self.values)
        new.count = list(self.count)
        return new

    def state(self) -> tuple:
        """A hashable snapshot of values and candidates (SE's ``Grid.equals``)."""
        return (tuple(self.values), tuple(self.cands))

    def restore(self, cands: list[int]) -> None:
        """Put back the candidate masks `cands` (values are not touched), recounting places."""
        mine = self.cands
        if mine == cands:
            return
        count = self.count
        for c, old, new in zip(range(81), mine, cands):
            if old != new:
                mine[c] = new
                regions = CELL_REGIONS[c]
                for d in _BITS[old & ~new]:
                    for r in regions:
                        count[r * 10 + d] -= 1
                for d in _BITS[new & ~old]:
                    for r in regions:
                        count[r * 10 + d] += 1

    def load(self, cands: list[int], count: list[int]) -> None:
        """Put back candidate masks `cands` with their place counts `count` (as `restore`
        does, but trusting `count`; values are not touched)."""
        self.cands[:] = cands
        self.count[:] = count

    def remove(self, cell: int, digit: int) -> None:
        """Take `digit` out of `cell`'s candidates (nothing if absent)."""
        m = self.cands[cell]
        if m >> digit & 1:
            self.cands[cell] = m & ~(1 << digit)
            for r in CELL_REGIONS[cell]:
                self.count[r * 10 + digit] -= 1

    def place(self, cell: int, digit: int) -> None:
        """Set `cell` to `digit` and remove `digit` from its peers (SE's ``setValueAndCancel``)."""
        for d in _BITS[self.cands[cell]]:
            self.remove(cell, d)
        self.values[cell] = digit
        for other in HOUSE_CELLS[cell]:
            self.remove(other, digit)

    def positions(self, region: int, digit: int) -> list[int]:
        """The cells of `region` that hold `digit`, in region order."""
        bit = 1 << digit
        cands = self.cands
        return [c for c in REGION_CELLS[region] if cands[c] & bit]

    def empty_count(self, region: int) -> int:
        values = self.values
        return sum(1 for c in REGION_CELLS[region] if values[c] == 0)

    def is_solved(self) -> bool:
        return all(self.values)

    def to_grid(self) -> Grid:
        """This board as a linkgraph `Grid`."""
        live = []
        for c in range(81):
            if self.values[c]:
                live.extend(d == self.values[c] for d in range(1, 10))
            else:
                live.extend(bool(self.cands[c] >> d & 1) for d in range(1, 10))
        grid = Grid.parse("." * 81)
        placed = [v != 0 for v in self.values]
        return Grid(grid.geometry, live, None, placed)


def candidate(cell: int, digit: int) -> Candidate:
    """The linkgraph `Candidate` of `digit` in `cell`."""
    return Candidate(Cell(cell // 9, cell % 9), digit)
