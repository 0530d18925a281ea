"""Geometry: the houses and sets X of a grid, built once as data.

Every later layer reads these arrays and never special-cases a variant:
classic grids of any box shape (4x4, 6x6 with 2x3 boxes, 8x8, 9x9, 12x12,
16x16, 25x25), Sudoku X (two diagonals), Windoku (four windows) and Jigsaw
(irregular regions from a region map).

Indices (all 0-based):

- cell ``i = row * size + col``;
- candidate ``k = cell * size + (digit - 1)``;
- set X ``s``: first one per cell (``s = cell``), then one per house and digit
  (``s = cells + house * size + digit - 1``). Every set has exactly ``size``
  members, so ``set_members`` is a plain ``(sets, size)`` array.

Only `Geometry` converts between indices and values (`index`, `candidate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from linkgraph.bitops import pack
from linkgraph.errors import NotationError, OptionError, PuzzleFormatError
from linkgraph.model import Candidate, Cell, House, Literal, SetX

__all__ = ["Geometry", "classic", "frozen", "jigsaw", "sudoku_x", "windoku"]

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BOX_SHAPES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5), 12: (3, 4), 15: (3, 5), 16: (4, 4), 20: (4, 5), 25: (5, 5)}


def frozen(a: np.ndarray) -> np.ndarray:
    """`a` over immutable bytes (a copy, unless it is so already): read-only for good.

    ``setflags(write=True)`` raises, unlike on an array merely flagged read-only.

    >>> a = lg.geometry.frozen(np.zeros(3, dtype=bool))
    >>> a.setflags(write=True)
    Traceback (most recent call last):
    ...
    ValueError: cannot set WRITEABLE flag to True of this array
    """
    a = np.asarray(a)
    root = a
    while isinstance(root, np.ndarray) and root.base is not None:
        root = root.base
    if isinstance(root, bytes):
        return a  # over immutable bytes already (a grid's givens passed on to the next grid)
    return np.frombuffer(a.tobytes(), dtype=a.dtype).reshape(a.shape)


@dataclass(frozen=True, eq=False)
class Geometry:
    """Houses, sets X and their incidence for one kind of grid.

    Build one with `classic`, `sudoku_x`, `windoku` or `jigsaw`.

    >>> g = lg.geometry.classic()
    >>> g.size, len(g.houses), g.number_of_sets
    (9, 27, 324)
    >>> str(g.candidate(g.index(lg.Candidate.parse("r2c8#1"))))
    'r2c8#1'
    """

    size: int
    name: str
    houses: tuple[House, ...]
    house_cells: np.ndarray = field(repr=False)  # (houses, size) cell indices

    def __reduce__(self) -> tuple:
        # by content, without the derived tables: loaded, it is this process's own geometry
        return _interned, (self.size, self.name, self.houses, self.house_cells)

    # ---- sizes -------------------------------------------------------
    @property
    def number_of_cells(self) -> int:
        return self.size * self.size

    @property
    def number_of_candidates(self) -> int:
        return self.size ** 3

    @property
    def number_of_sets(self) -> int:
        return self.number_of_cells + len(self.houses) * self.size

    @property
    def symbols(self) -> str:
        """Characters for digits 1..size in puzzle strings."""
        return SYMBOLS[: self.size]

    # ---- derived arrays ---------------------------------------------
    @cached_property
    def set_members(self) -> np.ndarray:
        """``(sets, size)`` candidate indices of each set X."""
        n = self.size
        cells = np.arange(self.number_of_cells)
        cell_sets = cells[:, None] * n + np.arange(n)[None, :]
        # house h, digit d: candidates house_cells[h, :] * n + d
        hd = self.house_cells[:, None, :] * n + np.arange(n)[None, :, None]
        return frozen(np.concatenate([cell_sets, hd.reshape(-1, n)]).astype(np.int32))

    @cached_property
    def incidence(self) -> np.ndarray:
        """``(candidates, sets)`` bool: candidate k is a member of set s."""
        inc = np.zeros((self.number_of_candidates, self.number_of_sets), dtype=bool)
        rows = self.set_members.ravel()
        cols = np.repeat(np.arange(self.number_of_sets), self.size)
        inc[rows, cols] = True
        return frozen(inc)

    @cached_property
    def cand_sets(self) -> tuple[np.ndarray, ...]:
        """For each candidate, the indices of the sets X it belongs to."""
        return tuple(frozen(np.flatnonzero(row).astype(np.int32)) for row in self.incidence)

    @cached_property
    def cell_houses(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of the houses that hold it."""
        out: list[list[int]] = [[] for _ in range(self.number_of_cells)]
        for h, cells in enumerate(self.house_cells):
            for c in cells:
                out[int(c)].append(h)
        return tuple(tuple(x) for x in out)

    @cached_property
    def peers(self) -> np.ndarray:
        """``(cells, cells)`` bool: two distinct cells share a house."""
        m = np.zeros((self.number_of_cells, self.number_of_cells), dtype=bool)
        for cells in self.house_cells:
            m[np.ix_(cells, cells)] = True
        np.fill_diagonal(m, False)
        return frozen(m)

    @cached_property
    def peer_words(self) -> np.ndarray:
        """`peers` packed (`linkgraph.bitops.pack`), one row of uint64 words per cell, with an
        all-ones last row for padding (index ``number_of_cells``)."""
        return frozen(pack(self.peers, pad=True))

    @cached_property
    def peer_lists(self) -> tuple[np.ndarray, ...]:
        """For each cell, its peer cell indices."""
        return tuple(frozen(np.flatnonzero(row).astype(np.int32)) for row in self.peers)

    @cached_property
    def sees(self) -> np.ndarray:
        """``(candidates, candidates)`` bool: two distinct candidates share a set X (a weak link)."""
        # every ordered pair of members of each set: (sets * size**2) writes, where a product of
        # the incidence matrix took about 5 s at 16x16 and 40 s at 25x25
        members = self.set_members
        m = np.zeros((self.number_of_candidates, self.number_of_candidates), dtype=bool)
        m[members[:, :, None], members[:, None, :]] = True
        np.fill_diagonal(m, False)
        return frozen(m)

    @cached_property
    def intersections(self) -> tuple[tuple[tuple[int, int], tuple[int, ...]], ...]:
        """Every two houses sharing 2 to ``size - 1`` cells, as ``((h1, h2), cells)``: house
        indices ``h1 < h2`` and the shared cells ascending, by ``(h1, h2)``.

        The one intersection table: a box and a line in classic grids; in the variants also a
        diagonal or a window with a box or a line, a window with a box (4 cells) and a region
        with a line. Group nodes live in these cells (`linkgraph.graph.links`); `box_lines`
        orients the box-line ones.

        >>> g = lg.geometry.classic()
        >>> len(g.intersections), [str(g.houses[h]) for h in g.intersections[0][0]], g.intersections[0][1]
        (54, ['r1', 'b1'], (0, 1, 2))
        """
        member = np.zeros((len(self.houses), self.number_of_cells), dtype=np.int32)
        member[np.repeat(np.arange(len(self.houses)), self.size), self.house_cells.ravel()] = 1
        overlap = np.triu(member @ member.T, 1)
        out = []
        for h1, h2 in zip(*np.nonzero((overlap >= 2) & (overlap < self.size))):
            out.append(((int(h1), int(h2)), tuple(np.flatnonzero(member[h1] & member[h2]).tolist())))
        return tuple(out)

    def box_lines(self, *, boxes: tuple[str, ...] = ("box", "region", "window"),
                  lines: tuple[str, ...] = ("row", "col", "diag")) -> list[tuple[int, int, tuple[int, ...]]]:
        """The `intersections` of a house of a kind in `boxes` with one of a kind in `lines`, as
        ``(box house, line house, cells)``, by box then line.

        >>> g = lg.geometry.sudoku_x()
        >>> [(str(g.houses[b]), str(g.houses[h]), cells) for b, h, cells in g.box_lines()][:7:6]
        [('b1', 'r1', (0, 1, 2)), ('b1', 'd1', (0, 10, 20))]
        """
        out = []
        for (h1, h2), cells in self.intersections:
            k1, k2 = self.houses[h1].kind, self.houses[h2].kind
            if k1 in boxes and k2 in lines:
                out.append((h1, h2, cells))
            elif k2 in boxes and k1 in lines:
                out.append((h2, h1, cells))
        return sorted(out)

    @cached_property
    def sees_words(self) -> np.ndarray:
        """`sees` packed (`linkgraph.bitops.pack`), one row of uint64 words per candidate, with an
        all-ones last row for padding (index ``number_of_candidates``)."""
        return frozen(pack(self.sees, pad=True))

    @cached_property
    def _house_lookup(self) -> dict[House, int]:
        return {h: i for i, h in enumerate(self.houses)}

    # ---- conversions -------------------------------------------------
    def cell_index(self, cell: Cell) -> int:
        """Index of `cell`; NotationError outside the grid."""
        if not (0 <= cell.row < self.size and 0 <= cell.col < self.size):
            raise NotationError(f"{cell}: outside the {self.size}x{self.size} grid")
        return cell.row * self.size + cell.col

    def cell(self, i: int) -> Cell:
        """The cell with index `i`."""
        return Cell(int(i) // self.size, int(i) % self.size)

    def index(self, cand: Candidate) -> int:
        """Index of candidate `cand`; NotationError outside the grid."""
        if not 1 <= cand.digit <= self.size:
            raise NotationError(f"{cand}: digit {cand.digit} is outside 1..{self.size}")
        return self.cell_index(cand.cell) * self.size + cand.digit - 1

    def candidate(self, k: int) -> Candidate:
        """The candidate with index `k` (made once per geometry and index, then shared: every
        step of a solve names its candidates, and a frozen value made anew costs more than
        the lookup)."""
        k = int(k)
        made = self._made_candidates
        if 0 <= k < len(made):
            cand = made[k]
            if cand is None:
                cand = made[k] = Candidate(self.cell(k // self.size), k % self.size + 1)
            return cand
        return Candidate(self.cell(k // self.size), k % self.size + 1)

    def literal(self, k: int, on: bool) -> Literal:
        """The literal of the candidate with index `k`, ON or OFF (made once, as `candidate`)."""
        k = int(k)
        made = self._made_literals[1 if on else 0]
        if not 0 <= k < len(made):
            return Literal(self.candidate(k), on=on)
        lit = made[k]
        if lit is None:
            lit = made[k] = Literal(self.candidate(k), on=on)
        return lit

    def set_text(self, s: int) -> str:
        """``str(setx(s))``, made once per geometry and set (the pattern proofs name their
        base and cover sets with it)."""
        s = int(s)
        made = self._made_set_texts
        text = made[s] if 0 <= s < len(made) else None
        if text is None:
            text = str(self.setx(s))
            if 0 <= s < len(made):
                made[s] = text
        return text

    @cached_property
    def _made_candidates(self) -> list[Candidate | None]:
        return [None] * self.number_of_candidates

    @cached_property
    def _made_literals(self) -> tuple[list[Literal | None], list[Literal | None]]:
        return [None] * self.number_of_candidates, [None] * self.number_of_candidates

    @cached_property
    def _made_set_texts(self) -> list[str | None]:
        return [None] * self.number_of_sets

    def house_index(self, house: House) -> int:
        """Index of `house`; NotationError if this geometry has no such house."""
        try:
            return self._house_lookup[house]
        except KeyError:
            raise NotationError(f"{house}: no such house in a {self.name} grid") from None

    def set_index(self, sx: SetX) -> int:
        """Index of set X `sx`."""
        if sx.cell is not None:
            return self.cell_index(sx.cell)
        assert sx.house is not None and sx.digit is not None
        if not 1 <= sx.digit <= self.size:
            raise NotationError(f"{sx}: digit {sx.digit} is outside 1..{self.size}")
        return self.number_of_cells + self.house_index(sx.house) * self.size + sx.digit - 1

    def setx(self, s: int) -> SetX:
        """The set X with index `s`."""
        s = int(s)
        if s < self.number_of_cells:
            return SetX(cell=self.cell(s))
        h, d = divmod(s - self.number_of_cells, self.size)
        return SetX(house=self.houses[h], digit=d + 1)

    def is_cell_set(self, s: int) -> bool:
        """True if set `s` is a cell's digits."""
        return int(s) < self.number_of_cells

    def set_house(self, s: int) -> int:
        """House index of house-digit set `s` (-1 for a cell set)."""
        s = int(s)
        return -1 if s < self.number_of_cells else (s - self.number_of_cells) // self.size

    def box_of(self, cell_index: int) -> int:
        """Index of the box or region holding a cell (-1 if the geometry has none)."""
        for h in self.cell_houses[cell_index]:
            if self.houses[h].kind in ("box", "region"):
                return h
        return -1


def _rows_cols(n: int) -> tuple[list[House], list[np.ndarray]]:
    houses, cells = [], []
    grid = np.arange(n * n).reshape(n, n)
    for r in range(n):
        houses.append(House("row", r))
        cells.append(grid[r, :])
    for c in range(n):
        houses.append(House("col", c))
        cells.append(grid[:, c])
    return houses, cells


def _boxes(n: int, box: tuple[int, int]) -> tuple[list[House], list[np.ndarray]]:
    br, bc = box
    if br * bc != n:
        raise OptionError(f"box shape {br}x{bc} does not tile a {n}x{n} grid")
    grid = np.arange(n * n).reshape(n, n)
    houses, cells = [], []
    for i in range(n):
        r0, c0 = (i // (n // bc)) * br, (i % (n // bc)) * bc
        houses.append(House("box", i))
        cells.append(grid[r0 : r0 + br, c0 : c0 + bc].ravel())
    return houses, cells


def _build(n: int, name: str, parts: list[tuple[list[House], list[np.ndarray]]]) -> Geometry:
    houses: list[House] = []
    cells: list[np.ndarray] = []
    for hs, cs in parts:
        houses += hs
        cells += cs
    return _interned(n, name, tuple(houses), np.array(cells, dtype=np.int32))


#: Every geometry the factories (or a pickle) made in this process, by its content.
_GEOMETRIES: dict[tuple, Geometry] = {}


def _interned(size: int, name: str, houses: tuple[House, ...], house_cells: np.ndarray) -> Geometry:
    """The one geometry of this process with these houses: a grid compares its geometry by
    identity, so a geometry read back from a pickle must be the very object the factories
    return (`Geometry.__reduce__`)."""
    house_cells = np.asarray(house_cells, dtype=np.int32)
    key = (size, name, houses, house_cells.shape, house_cells.tobytes())
    geo = _GEOMETRIES.get(key)
    if geo is None:
        geo = _GEOMETRIES[key] = Geometry(size, name, houses, frozen(house_cells))
    return geo


@lru_cache(maxsize=None)
def classic(size: int = 9, *, box: tuple[int, int] | None = None) -> Geometry:
    """A classic grid of `size` with rectangular boxes (default shape from the size).

    >>> g = lg.geometry.classic(6)
    >>> g.size, [len(g.house_cells[h]) for h in range(3)]
    (6, [6, 6, 6])
    """
    if box is None:
        if size not in BOX_SHAPES:
            raise OptionError(f"size {size}: no default box shape; pass box=(rows, cols)")
        box = BOX_SHAPES[size]
    name = "classic" if size == 9 else f"classic{size}"
    return _build(size, name, [_rows_cols(size), _boxes(size, box)])


@lru_cache(maxsize=None)
def sudoku_x(size: int = 9) -> Geometry:
    """Classic grid plus the two main diagonals (houses ``d1``, ``d2``)."""
    n = size
    grid = np.arange(n * n).reshape(n, n)
    diag = ([House("diag", 0), House("diag", 1)], [np.diag(grid).copy(), np.diag(grid[:, ::-1]).copy()])
    return _build(n, "sudoku-x", [_rows_cols(n), _boxes(n, BOX_SHAPES[n]), diag])


@lru_cache(maxsize=None)
def windoku() -> Geometry:
    """Classic 9x9 plus four 3x3 windows (houses ``w1`` ... ``w4``)."""
    grid = np.arange(81).reshape(9, 9)
    hs, cs = [], []
    for i, (r0, c0) in enumerate([(1, 1), (1, 5), (5, 1), (5, 5)]):
        hs.append(House("window", i))
        cs.append(grid[r0 : r0 + 3, c0 : c0 + 3].ravel())
    return _build(9, "windoku", [_rows_cols(9), _boxes(9, (3, 3)), (hs, cs)])


@lru_cache(maxsize=None)
def jigsaw(regions: str) -> Geometry:
    """Rows, columns and irregular regions from a region map.

    `regions` has one character per cell (row by row, whitespace ignored); equal
    characters form one region. Every region must hold exactly `size` cells.

    >>> g = lg.geometry.jigsaw("1122" "1122" "3344" "3344")
    >>> [str(h) for h in g.houses][-4:]
    ['j1', 'j2', 'j3', 'j4']
    """
    text = "".join(regions.split())
    n = math.isqrt(len(text))
    if n < 2 or n * n != len(text):
        raise PuzzleFormatError(f"region map: expected a square number of cells, found {len(text)}")
    labels = sorted(set(text), key=text.index)
    if len(labels) != n:
        raise PuzzleFormatError(f"region map: expected {n} regions, found {len(labels)}")
    hs, cs = [], []
    for i, label in enumerate(labels):
        cells = np.array([k for k, ch in enumerate(text) if ch == label])
        if len(cells) != n:
            raise PuzzleFormatError(f"region map: region {label!r} has {len(cells)} cells, expected {n}")
        hs.append(House("region", i))
        cs.append(cells)
    return _build(n, "jigsaw", [_rows_cols(n), (hs, cs)])
