"""Grid: a read-only candidate state.

A `Grid` holds, for every cell, the digits that may still stand there, as a
read-only numpy bool array of shape ``(cells, size)``. A cell with one digit
left is *solved*; it is also *placed* once a given or a step has put its
digit there (`placed`): the singles techniques work on the cells not yet
placed, so a cell that lost all but one digit still gets its naked single or
full house stated. Every change (`place`, `eliminate`, `apply`) returns a new
grid.

Two text forms are read and written:

- a **puzzle string**: one character per cell, row by row; digits (then
  letters for sizes above 9) are givens, ``.`` or ``0`` an empty cell; white
  space and the frame characters ``| + -`` are ignored;
- a **candidate grid**: one token per cell in row order, each token the
  cell's candidate digits, as HoDoKu and SudokuWiki print it; the decoration
  characters ``| - + : * . '`` are ignored.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import numpy as np

from linkgraph.errors import InvalidPuzzleError, PuzzleFormatError
from linkgraph.geometry import BOX_SHAPES, SYMBOLS, Geometry, classic, frozen
from linkgraph.model import Candidate, Cell

if TYPE_CHECKING:
    from linkgraph.steps import Step

__all__ = ["DISPLAY", "Grid", "as_grid", "cached", "cached_only"]

_FRAME = str.maketrans("", "", "|+-")
_DECORATION = str.maketrans({ch: " " for ch in "|-+:*.'="})
_EMPTY = ".0"


def _size_for(count: int) -> int | None:
    n = math.isqrt(count)
    return n if n * n == count and n in BOX_SHAPES else None


class Grid:
    """A read-only candidate state over a `Geometry`.

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> grid.number_of_unsolved, sorted(grid.digits(lg.Cell(1, 3)))
    (39, [1, 2, 8])
    >>> str(grid.place([lg.Candidate.parse("r2c4#8")]).digits(lg.Cell(1, 3)))
    '(8,)'
    """

    __slots__ = ("geometry", "cands", "givens", "placed", "_hash")

    def __init__(
        self,
        geometry: Geometry,
        cands: np.ndarray,
        givens: np.ndarray | None = None,
        placed: np.ndarray | None = None,
    ):
        n = geometry.size
        cands = frozen(np.asarray(cands, dtype=bool).reshape(n * n, n))
        if givens is None:
            givens = np.zeros(n * n, dtype=bool)
        givens = frozen(np.asarray(givens, dtype=bool).reshape(n * n))
        if placed is None:
            # a lone digit whose peers are already clean counts as placed
            live = cands.reshape(-1)
            solo = live & np.repeat(cands.sum(axis=1) == 1, n)
            ks = np.flatnonzero(solo)
            clean = ~(geometry.sees[ks] & live).any(axis=1)
            placed = givens.copy()
            placed[ks[clean] // n] = True
        placed = frozen(np.asarray(placed, dtype=bool).reshape(n * n) & (cands.sum(axis=1) == 1))
        self.geometry = geometry
        self.cands = cands
        self.givens = givens
        self.placed = placed
        self._hash = None

    # ---- construction ---------------------------------------------------
    @classmethod
    def empty(cls, geometry: Geometry | None = None) -> Grid:
        """A grid with every candidate live."""
        g = geometry or classic()
        return cls(g, np.ones((g.number_of_cells, g.size), dtype=bool))

    @classmethod
    def from_values(cls, values: Iterable[int], geometry: Geometry | None = None) -> Grid:
        """A puzzle from one value per cell (0 for empty); givens eliminate from their peers.

        Raises InvalidPuzzleError on a repeated given.
        """
        vals = np.asarray(list(values), dtype=np.int64)
        g = geometry or classic(_size_for(len(vals)) or 9)
        if len(vals) != g.number_of_cells:
            raise PuzzleFormatError(f"expected {g.number_of_cells} cells, found {len(vals)}")
        if vals.min(initial=0) < 0 or vals.max(initial=0) > g.size:
            bad = int(np.flatnonzero((vals < 0) | (vals > g.size))[0])
            raise PuzzleFormatError(f"{g.cell(bad)}: value {vals[bad]} is outside 0..{g.size}")
        _check_repeats(g, vals, what="given")
        cands = np.ones((g.number_of_cells, g.size), dtype=bool)
        given = vals > 0
        cands[given] = False
        cands[np.flatnonzero(given), vals[given] - 1] = True
        for cell in np.flatnonzero(given):
            cands[g.peer_lists[cell], vals[cell] - 1] = False
        return cls(g, cands, given, given)

    @classmethod
    def parse(cls, text: str, *, geometry: Geometry | None = None) -> Grid:
        """Read a puzzle string or a candidate grid (see the module docstring).

        Raises PuzzleFormatError for text that is neither, InvalidPuzzleError for a
        grid that contradicts itself (a repeated given, a cell with no digit).

        >>> lg.Grid.parse("1526.7.89" * 1)
        Traceback (most recent call last):
        ...
        linkgraph.errors.PuzzleFormatError: expected 81 cells (or 16, 36, 64, 144, 256, 625), found 9
        """
        if not isinstance(text, str):
            raise PuzzleFormatError(f"expected puzzle text, found {type(text).__name__}")
        text = text.lstrip("\ufeff")
        compact = "".join(text.split()).translate(_FRAME)
        size = geometry.size if geometry else _size_for(len(compact))
        # a candidate grid (whitespace-separated tokens, or a framed grid with |), even when
        # its digits happen to number a square (256 digits: a compact 16x16 puzzle)
        tokens = text.translate(_DECORATION).split() if "|" in text else text.split()
        tsize = geometry.size if geometry else _size_for(len(tokens))
        if tsize and len(tokens) == tsize * tsize and any(len(t) > 1 for t in tokens):
            return cls._parse_candidates(tokens, geometry or classic(tsize))
        if size is None or len(compact) != size * size:
            tsize = geometry.size if geometry else _size_for(len(tokens))
            if tsize and len(tokens) == tsize * tsize:
                return cls._parse_candidates(tokens, geometry or classic(tsize))
            if len(text.split()) > 9 and any(len(t) > 1 for t in tokens):
                expected = geometry.number_of_cells if geometry else 81
                raise PuzzleFormatError(f"candidate grid: expected {expected} cells, found {len(tokens)}")
            expected = f"{geometry.number_of_cells} cells" if geometry else "81 cells (or 16, 36, 64, 144, 256, 625)"
            raise PuzzleFormatError(f"expected {expected}, found {len(compact)}")
        g = geometry or classic(size)
        symbols = g.symbols
        values = []
        for i, ch in enumerate(compact):
            if ch in _EMPTY:
                values.append(0)
            elif ch.upper() in symbols:
                values.append(symbols.index(ch.upper()) + 1)
            else:
                raise PuzzleFormatError(
                    f"{g.cell(i)} (character {i + 1}): unexpected {ch!r}, expected one of "
                    f"{symbols} or . or 0"
                )
        return cls.from_values(values, g)

    @classmethod
    def _parse_candidates(cls, tokens: list[str], g: Geometry) -> Grid:
        symbols = g.symbols
        cands = np.zeros((g.number_of_cells, g.size), dtype=bool)
        for i, token in enumerate(tokens):
            for ch in token:
                if ch.upper() not in symbols:
                    raise PuzzleFormatError(
                        f"candidate grid: {g.cell(i)} (token {i + 1} {_short(token)!r}): unexpected {ch!r}, "
                        f"expected digits {symbols}"
                    )
                cands[i, symbols.index(ch.upper())] = True
        grid = cls(g, cands)
        grid.validate()
        return grid

    # ---- reading ------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def live(self) -> np.ndarray:
        """Flat ``(candidates,)`` bool view: candidate k is live."""
        return self.cands.reshape(-1)

    @property
    def counts(self) -> np.ndarray:
        """Number of live digits per cell."""
        return self.cands.sum(axis=1)

    @property
    def values(self) -> np.ndarray:
        """One value per cell: the digit of a solved cell, 0 elsewhere."""
        solved = self.counts == 1
        return np.where(solved, self.cands.argmax(axis=1) + 1, 0)

    @property
    def number_of_unsolved(self) -> int:
        return int((self.counts > 1).sum())

    def is_solved(self) -> bool:
        """True when every cell has exactly one digit (not a check of the rules)."""
        return bool((self.counts == 1).all())

    def has(self, cand: Candidate) -> bool:
        """True if `cand` is live."""
        return bool(self.live[self.geometry.index(cand)])

    def digits(self, cell: Cell) -> tuple[int, ...]:
        """The live digits of `cell`, ascending."""
        i = self.geometry.cell_index(cell)
        return tuple(int(d) + 1 for d in np.flatnonzero(self.cands[i]))

    def candidates(self) -> list[Candidate]:
        """Every live candidate, in order."""
        return [self.geometry.candidate(k) for k in np.flatnonzero(self.live)]

    def contradiction(self) -> str | None:
        """A description of the first broken rule (an empty cell, a digit with no place in a
        house, a digit solved twice in a house), or None."""
        from linkgraph.kernel.grid import consistent

        g = self.geometry
        if consistent(self.cands, g.house_cells):  # the common case first, every rule at once
            return None
        counts = self.cands.sum(axis=1)
        empty = np.flatnonzero(counts == 0)
        if len(empty):
            return f"{g.cell(empty[0])}: no candidate left"
        live_per_set = self.live[g.set_members].sum(axis=1)
        for s in np.flatnonzero(live_per_set == 0):
            return f"{g.setx(s)}: no place left"
        vals = self.values
        return _first_repeat(g, vals, what="solved")

    def validate(self) -> None:
        """Raise InvalidPuzzleError if the grid contradicts itself."""
        problem = self.contradiction()
        if problem:
            raise InvalidPuzzleError(f"candidate grid contradicts itself: {problem}")

    # ---- changing (new grids) ------------------------------------------------
    def eliminate(self, cands: Iterable[Candidate]) -> Grid:
        """A new grid without `cands`."""
        return self._changed(cands, ())

    def place(self, cands: Iterable[Candidate]) -> Grid:
        """A new grid with each of `cands` placed: its cell keeps only its digit and the
        digit leaves the cell's peers."""
        return self._changed((), cands)

    def apply(self, step: Step) -> Grid:
        """A new grid with the step's eliminations made and placements placed.

        The grid ``eliminate(step.eliminations).place(step.placements)`` makes, in one copy.
        """
        return self._changed(step.eliminations, step.placements)

    def _changed(self, eliminations: Iterable[Candidate], placements: Iterable[Candidate]) -> Grid:
        """A new grid with `eliminations` removed, then each of `placements` placed, in one
        copy (`linkgraph.kernel.grid.applied`): the one way `eliminate`, `place` and `apply`
        change a grid."""
        from linkgraph.kernel.grid import applied

        g = self.geometry
        index = g.index
        eliminations = np.array([index(c) for c in eliminations], dtype=np.int64)
        placements = np.array([index(c) for c in placements], dtype=np.int64)
        new, placed = applied(self.cands, self.placed, eliminations, placements, g.peers)
        # the constructor's work done: bool arrays of the right shapes, placed cells with one digit
        grid = object.__new__(Grid)
        grid.geometry, grid.cands, grid.givens, grid.placed, grid._hash = g, frozen(new), self.givens, frozen(placed), None
        return grid

    def with_live(self, live: np.ndarray) -> Grid:
        """A new grid from a flat live-candidate array."""
        return Grid(self.geometry, live, self.givens, self.placed)

    # ---- formatting ---------------------------------------------------------
    def to_puzzle(self, *, empty: str = ".", solved: bool = False) -> str:
        """The puzzle string of the givens, other cells as `empty`.

        With `solved`, every solved cell shows its digit (the position, not the puzzle).
        A grid read without givens (a candidate grid) shows its solved cells either way.

        >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
        >>> grid.to_puzzle()[:9], grid.to_puzzle(solved=True)[:9]
        ('1526.7.89', '152647389')
        """
        symbols = self.geometry.symbols
        values = self.values
        if not solved and self.givens.any():
            values = np.where(self.givens, values, 0)
        return "".join(symbols[v - 1] if v else empty for v in values)

    def tokens(self) -> list[str]:
        """One candidate token per cell."""
        symbols = self.geometry.symbols
        return ["".join(symbols[d] for d in np.flatnonzero(row)) or "?" for row in self.cands]

    def to_candidates(self, *, pretty: bool = False) -> str:
        """The candidate grid: one token per cell, space separated, rows on lines;
        `pretty` draws columns aligned with box frames as HoDoKu does."""
        n = self.size
        toks = self.tokens()
        if not pretty:
            return "\n".join(" ".join(toks[r * n : (r + 1) * n]) for r in range(n))
        br, bc = BOX_SHAPES.get(n, (n, n)) if self.geometry.name.startswith("classic") else (n, n)
        widths = [max(len(toks[r * n + c]) for r in range(n)) for c in range(n)]
        lines = []
        rule = "+".join("-" * (sum(widths[c] + 1 for c in range(s, s + bc)) + 1) for s in range(0, n, bc))
        rule = "." + rule + "."
        for r in range(n):
            if r % br == 0:
                lines.append(rule if r == 0 else ":" + rule[1:-1] + ":")
            parts = []
            for s in range(0, n, bc):
                parts.append(" " + " ".join(toks[r * n + c].ljust(widths[c]) for c in range(s, s + bc)) + " ")
            lines.append("|" + "|".join(parts) + "|")
        lines.append("'" + rule[1:-1] + "'")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_puzzle(solved=True)

    def _repr_svg_(self) -> str | None:
        """The candidate board as SVG, for Jupyter, drawn by the function `DISPLAY` holds
        (`linkgraph.draw` fills it); None, so that Jupyter shows the text, without it."""
        draw = DISPLAY.get("image/svg+xml")
        return None if draw is None else draw(self)

    def __repr__(self) -> str:
        return f"<Grid {self.geometry.name}, {self.number_of_unsolved} unsolved: {self.to_puzzle(solved=True)}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Grid)
            and other.geometry is self.geometry
            and np.array_equal(other.cands, self.cands)
        )

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash((self.geometry.name, self.cands.tobytes())))
        return self._hash

    def __reduce__(self) -> tuple:
        # without the hash, which hangs on the process's hash seed (the geometry's name)
        return Grid, (self.geometry, self.cands, self.givens, self.placed)


def as_grid(grid: Grid | str, *, name: str = "grid") -> Grid:
    """`grid` itself, or the `Grid` a puzzle string or candidate grid reads as (`Grid.parse`).

    What every public function that takes a grid calls first, so a puzzle string
    works wherever a Grid does.

    Raises
    ------
    TypeError
        For anything but a Grid or a string, naming `name` and the type found.
    PuzzleFormatError, InvalidPuzzleError
        For a string that is no puzzle (see `Grid.parse`).

    Examples
    --------
    >>> lg.grid.as_grid(lg.samples.EULER_01).number_of_unsolved
    46
    >>> lg.grid.as_grid(42)
    Traceback (most recent call last):
    ...
    TypeError: grid: expected a Grid or a puzzle string, found int
    """
    if isinstance(grid, Grid):
        return grid
    if isinstance(grid, str):
        return Grid.parse(grid)
    raise TypeError(f"{name}: expected a Grid or a puzzle string, found {type(grid).__name__}")


def _short(text: str, width: int = 24) -> str:
    """`text`, cut to `width` characters with ``...`` (keeps error messages one short line)."""
    return text if len(text) <= width else text[: width - 3] + "..."


def _first_repeat(g: Geometry, vals: np.ndarray, *, what: str) -> str | None:
    ranked = np.sort(vals[g.house_cells], axis=1)
    if not ((ranked[:, 1:] == ranked[:, :-1]) & (ranked[:, 1:] > 0)).any():
        return None  # the common case, checked for every house at once
    for cells in g.house_cells:
        seen: dict[int, int] = {}
        for c in cells:
            v = int(vals[c])
            if v:
                if v in seen:
                    first, second = sorted((seen[v], int(c)))
                    return f"{g.cell(second)}: {what} {SYMBOLS[v - 1]} repeats {g.cell(first)}"
                seen[v] = int(c)
    return None


def _check_repeats(g: Geometry, vals: np.ndarray, *, what: str) -> None:
    problem = _first_repeat(g, vals, what=what)
    if problem:
        raise InvalidPuzzleError(problem)


#: How a Grid draws itself in Jupyter: ``{"image/svg+xml": function(grid) -> SVG text or None}``.
#: `linkgraph.draw` fills it when imported (the board picture); a hook, not an import, as
#: `linkgraph.steps.DISPLAY` is for a Step: drawing is a higher layer.
DISPLAY: dict[str, Callable[[Grid], str | None]] = {}

_CACHE: OrderedDict[tuple[object, Grid], object] = OrderedDict()
_CACHE_SIZE = 16


def cached(kind: object, grid: Grid, make):
    """Per-grid results shared by the rungs that look at the same grid in turn (a few kept)."""
    key = (kind, grid)
    hit = _CACHE.get(key)
    if hit is None or getattr(hit, "failed", False):
        hit = _CACHE[key] = make(grid)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return hit


def cached_only(kind: object, grid: Grid):
    """What `cached` keeps for (`kind`, `grid`), or None: nothing is made.

    >>> g = lg.Grid.parse(lg.samples.EULER_01)
    >>> lg.grid.cached_only("squares", g) is None, lg.grid.cached("squares", g, lambda g: 81)
    (True, 81)
    >>> lg.grid.cached_only("squares", g)
    81
    """
    hit = _CACHE.get((kind, grid))
    return None if hit is None or getattr(hit, "failed", False) else hit
