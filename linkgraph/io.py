"""Files in and out: puzzle files (one puzzle a line, with an optional name or rating
column), and output files written whole or not at all.

The layouts are those of the shared corpora:

- ``<puzzle>``: 81 characters (or 16, 36, ... for other sizes), digits and ``.``/``0``;
- ``<puzzle><TAB><rating>``: a rating column (a number, or ``-`` for none);
- ``<name><TAB><puzzle>``: a name column;
- blank lines and lines starting with ``#`` are skipped.

Files are read lazily, line by line, so a file of a million lines streams in
bounded memory; a bad line becomes a `PuzzleLine` with an ``error`` and never
stops the rest of the file. A line may also be a HoDoKu library line or a
SudokuWiki link (below).

One puzzle, in the formats other programs use (`parse_puzzle` reads each,
`detect_format` tells them apart, `format_puzzle` writes each):

- ``puzzle``: the 81-character string of the givens (``.`` for an empty cell);
- ``candidates``: a candidate grid, one token of digits per cell (HoDoKu, SudokuWiki);
- ``sdk`` (SadMan, SudoCue): nine lines of nine characters, ``.`` empty, after
  optional ``#`` lines of information (``#A`` author, ``#D`` description, ``#C``
  comment, ``#B`` date, ``#S`` source, ``#L`` level, ``#U`` URL);
- ``sdm`` (SudoCue): a collection, one 81-character puzzle a line;
- ``sdx`` (SudoCue progress): nine lines of nine blank-separated cells: a given as
  its digit, a digit the solver placed as ``u`` and the digit, an open cell as its
  candidate digits;
- ``ss`` (Simple Sudoku): the givens in a frame, ``|`` between boxes, ``|---+---+---|``
  between bands, ``*-----------*`` above and below; a position adds, as Simple Sudoku
  exports it, a second such grid with the solved cells and a third with the candidates
  (one token per cell);
- ``hodoku`` (HoDoKu library line): ``:<technique>:<candidates>:<grid>:<deleted>:<eliminations>:``
  where the grid is 81 characters with ``+`` before each placed (not given) digit,
  and the deleted candidates are blank-separated ``<digit><row><column>`` triples (``312``:
  digit 3 in r1c2) beyond those the givens and placed digits remove (so a candidate
  that a solved peer excludes cannot be kept); linkgraph writes technique ``0000``
  and candidates ``x`` (a position, not a step);
- ``sudokuwiki``: a SudokuWiki link, ``https://www.sudokuwiki.org/sudoku.htm?bd=...``,
  either the 81 givens or SudokuWiki's 162-character board: two base-32 digits a
  cell, the cell's candidates (or its digit) as a bit mask (digit d is bit d-1)
  shifted left once, the lowest bit 1 for a given (9x9 only).

Every file linkgraph writes (pictures, batch rows, sweep logs, plots) goes
through `check_output` before any work, and is written by `atomic_path` or
`atomic_write`: into a temporary file in the same folder, renamed onto the
target when complete. A results file is then either the old one or the
complete new one, also after ``kill -9`` or a full disk.

References
----------
SudoCue file formats (sdk, sdm, sdx, ss) by Ruud van der Werf; SudokuWiki's "Sudoku String
Definitions" (the 162-character board, 2023); HoDoKu's library format.
"""

from __future__ import annotations

import math
import os
import re
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO
from urllib.parse import parse_qs, urlsplit

import numpy as np

from linkgraph.errors import LinkgraphError, OptionError, PuzzleFormatError
from linkgraph.geometry import SYMBOLS, classic
from linkgraph.grid import Grid
from linkgraph.model import Candidate, Cell

__all__ = [
    "PUZZLE_FORMATS",
    "PUZZLE_LENGTHS",
    "SUDOKUWIKI_URL",
    "SUFFIX_FORMATS",
    "PuzzleLine",
    "atomic_path",
    "atomic_write",
    "check_input",
    "check_output",
    "corpus_path",
    "detect_format",
    "format_puzzle",
    "is_special",
    "parse_line",
    "parse_puzzle",
    "read_puzzles",
    "read_solutions",
]

#: The lengths of a puzzle string: the cell counts of the sizes the geometry knows.
PUZZLE_LENGTHS = (16, 36, 64, 81, 144, 256, 625)
_PACKAGED = Path(__file__).parent / "data" / "puzzles"


@dataclass(frozen=True, slots=True)
class PuzzleLine:
    """One line of a puzzle file.

    ``number`` counts lines from 1; ``puzzle`` is the puzzle text, ``name`` and
    ``rating`` the extra column if any; ``error`` says why the line is not a
    puzzle (then ``puzzle`` is the raw text).
    """

    number: int
    puzzle: str
    name: str | None = None
    rating: float | None = None
    error: str | None = None

    def grid(self) -> Grid:
        """The parsed grid; PuzzleFormatError or InvalidPuzzleError naming the line."""
        if self.error:
            raise PuzzleFormatError(f"line {self.number}: {self.error}")
        try:
            if self.puzzle.startswith(":") or "bd=" in self.puzzle:
                return parse_puzzle(self.puzzle)
            return Grid.parse(self.puzzle)
        except LinkgraphError as exc:
            raise type(exc)(f"line {self.number}: {exc}") from None


def parse_line(text: str, number: int) -> PuzzleLine:
    """Split one line into puzzle and extra column (see the module docstring)."""
    text = text.rstrip("\r\n").lstrip("\ufeff")
    if text.startswith(":") and text.count(":") >= 5:  # a HoDoKu library line
        return PuzzleLine(number, text.strip())
    fields = [f.strip() for f in text.split("\t")] if "\t" in text else text.split()
    links = [f for f in fields if "bd=" in f]
    if links:  # a SudokuWiki link, maybe with a name or rating column
        rating, name = _extra(*(f for f in fields if f != links[0] and f))
        return PuzzleLine(number, links[0], name=name, rating=rating)
    fields = [f for f in fields if f]
    if not fields:
        return PuzzleLine(number, text, error="empty line")
    if len(fields) == 1:
        return PuzzleLine(number, fields[0])
    puzzle_like = [i for i, f in enumerate(fields) if len(f) in PUZZLE_LENGTHS]
    if not puzzle_like:
        return PuzzleLine(number, text, error=f"no field of puzzle length (81 characters) in {len(fields)} fields")
    # a name may have a puzzle's length too: prefer a field made of the puzzle's symbols
    i = next((j for j in puzzle_like if _puzzle_chars(fields[j])), puzzle_like[0])
    others = [f for j, f in enumerate(fields) if j != i]
    rating, name = _extra(*others)
    return PuzzleLine(number, fields[i], name=name, rating=rating)


def _extra(*fields: str) -> tuple[float | None, str | None]:
    """(rating, name) from the fields beside the puzzle: a number is the rating, text the name."""
    rating = None
    name = None
    for other in fields:
        if other == "-":
            continue
        try:
            rating = float(other)
        except ValueError:
            name = other if name is None else f"{name} {other}"
    return rating, name


def _puzzle_chars(field: str) -> bool:
    """True if every character of `field` is a symbol of its grid size, ``.`` or ``0``."""
    size = math.isqrt(len(field))
    allowed = set(SYMBOLS[:size]) | set(".0")
    return all(ch.upper() in allowed for ch in field)


def read_puzzles(path: str | os.PathLike, *, limit: int | None = None, start: int = 0) -> Iterator[PuzzleLine]:
    """Yield the puzzle lines of a file lazily (blank and ``#`` lines skipped).

    A missing file raises PuzzleFormatError at the call, not at the first line.
    `start` skips that many puzzle lines first; `limit` stops after that many.

    >>> lines = list(lg.io.read_puzzles(lg.io.corpus_path("euler96"), limit=2))
    >>> [(p.number, p.puzzle[:9]) for p in lines]
    [(1, '..3.2.6..'), (2, '2...8.3..')]
    """
    path = check_input(path)  # at the call, before any output is written
    return _read_lines(path, limit, start)


def check_input(path: str | os.PathLike) -> Path:
    """`path` as a Path if it is a file that can be read; PuzzleFormatError naming what it is otherwise.

    >>> lg.io.check_input("no/such.txt")
    Traceback (most recent call last):
    ...
    linkgraph.errors.PuzzleFormatError: no/such.txt: no such file
    """
    path = Path(path)
    try:
        path.stat()
    except FileNotFoundError:
        pass  # said below
    except OSError as exc:  # a name too long for a file, a loop of links, ...
        name = str(path) if len(str(path)) <= 60 else f"{str(path)[:57]}..."
        raise PuzzleFormatError(f"{name}: not a puzzle file ({exc.strerror.lower()})") from None
    if path.is_dir():
        raise PuzzleFormatError(f"{path}: is a folder, not a puzzle file")
    if is_special(path):
        raise PuzzleFormatError(f"{path}: not a regular file (a device or a pipe)")
    if not path.is_file():
        raise PuzzleFormatError(f"{path}: no such file")
    if not os.access(path, os.R_OK):
        raise PuzzleFormatError(f"{path}: cannot read (permission denied)")
    return path


def _read_lines(path: Path, limit: int | None, start: int) -> Iterator[PuzzleLine]:
    count = 0
    seen = 0
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        for number, line in enumerate(fh, 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            seen += 1
            if seen <= start:
                continue
            if limit is not None and count >= limit:
                return
            count += 1
            yield parse_line(line, number)


def read_solutions(path: str | os.PathLike) -> list[str]:
    """The solution strings of a ``.solutions.txt`` file, one per puzzle line."""
    with open(path, encoding="utf-8") as fh:
        return [ln.strip() for ln in fh if ln.strip()]


def corpus_path(name: str, *, solutions: bool = False) -> Path:
    """Path of a named corpus (``top95``, ``euler96``...).

    Looks in ``$LINKGRAPH_CORPORA``, then ``../shared/puzzles`` beside the
    repository, then the copies shipped in ``linkgraph/data/puzzles``.
    Raises PuzzleFormatError when none has it.
    """
    fname = f"{name}.solutions.txt" if solutions else f"{name}.txt"
    roots = []
    if os.environ.get("LINKGRAPH_CORPORA"):
        roots.append(Path(os.environ["LINKGRAPH_CORPORA"]))
    roots.append(Path(__file__).resolve().parent.parent.parent / "shared" / "puzzles")
    roots.append(_PACKAGED)
    for root in roots:
        if (root / fname).is_file():
            return root / fname
    raise PuzzleFormatError(f"corpus {name!r}: {fname} not found in {', '.join(map(str, roots))}")


# ---- one puzzle in the formats of other programs ----------------------------------------

#: The formats `parse_puzzle` reads and `format_puzzle` writes (see the module docstring).
PUZZLE_FORMATS = ("puzzle", "candidates", "sdk", "sdm", "sdx", "ss", "hodoku", "sudokuwiki")

#: File suffixes that name a format.
SUFFIX_FORMATS = {".sdk": "sdk", ".sdm": "sdm", ".sdx": "sdx", ".ss": "ss", ".txt": "puzzle"}

SUDOKUWIKI_URL = "https://www.sudokuwiki.org/sudoku.htm?bd="
_B32 = "0123456789abcdefghijklmnopqrstuv"
_SS_FRAME = re.compile(r"^[\s*|+\-]*$")
_BARE_BOARD = re.compile(r"[0-9a-vA-V]{162}")  # a SudokuWiki board without its link


def detect_format(text: str) -> str:
    """The format of one puzzle's text (see `PUZZLE_FORMATS`).

    >>> lg.io.detect_format(":0000:x:" + lg.samples.GNPX_FORCECHAIN + ":::")
    'hodoku'
    >>> lg.io.detect_format(lg.io.SUDOKUWIKI_URL + lg.samples.GNPX_FORCECHAIN)
    'sudokuwiki'
    """
    body = text.lstrip("\ufeff").strip()
    if body.startswith(":") and body.count(":") >= 4:
        return "hodoku"
    if "bd=" in body or body.lower().startswith(("http://", "https://", "www.")) or _BARE_BOARD.fullmatch(body):
        return "sudokuwiki"
    lines = [ln.strip() for ln in body.splitlines() if ln.strip()]
    if any(ln.startswith("*-") for ln in lines):
        return "ss"
    cells = [ln for ln in lines if not ln.startswith("#")]
    if any(ln.startswith("#") for ln in lines) and len(cells) == 9 and all(len(ln) == 9 for ln in cells):
        return "sdk"
    tokens = " ".join(cells).split()
    if any(re.fullmatch(r"[uU]\d+", t) for t in tokens):
        return "sdx"
    if len(tokens) == 81 and any(len(t) > 1 for t in tokens):
        return "candidates"
    if len(cells) == 9 and all(len(ln) == 9 for ln in cells):
        return "sdk"
    return "puzzle"


def parse_puzzle(text: str, *, format: str | None = None) -> Grid:
    """Read one puzzle or position in any of `PUZZLE_FORMATS` (detected when `format` is None).

    Parameters
    ----------
    text : str
        The text of one puzzle (a whole ``.sdk``, ``.sdx`` or ``.ss`` file, one line
        of an ``.sdm`` or HoDoKu library file, a SudokuWiki link ...).
    format : str, optional
        One of `PUZZLE_FORMATS`; default: `detect_format`.

    Returns
    -------
    Grid
        Givens marked as givens; the digits a player or solver placed, and the
        candidates the format carries, as they are in the file.

    Raises
    ------
    PuzzleFormatError
        Text that is not a puzzle of that format (the message says where).
    InvalidPuzzleError
        A grid that contradicts itself.
    OptionError
        An unknown `format`.

    Examples
    --------
    >>> grid = lg.io.parse_puzzle(lg.io.SUDOKUWIKI_URL + lg.samples.GNPX_FORCECHAIN)
    >>> grid == lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    True
    """
    if format is None:
        format = detect_format(text)
    if format not in PUZZLE_FORMATS:
        raise OptionError(f"format: expected one of {', '.join(PUZZLE_FORMATS)}, found {format!r}")
    text = text.lstrip("\ufeff")
    if format == "hodoku":
        return _parse_hodoku(text.strip())
    if format == "sudokuwiki":
        return _parse_sudokuwiki(text.strip())
    if format == "sdx":
        return _parse_sdx(text)
    if format == "ss":
        return _parse_ss(text)
    if format in ("sdk", "sdm", "puzzle"):
        rows = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        return Grid.parse("".join(rows)) if format == "sdk" else Grid.parse("\n".join(rows))
    return Grid.parse(text)


def format_puzzle(grid: Grid, format: str = "puzzle", *, name: str | None = None) -> str:
    """Write `grid` in one of `PUZZLE_FORMATS`; the text ends without a newline.

    ``puzzle``, ``sdk``, ``sdm`` and ``ss`` hold the givens only; ``candidates``,
    ``sdx``, ``hodoku`` and ``sudokuwiki`` the whole position (SudokuWiki's
    162-character board; the 81 givens when nothing but the givens is known).
    `name` goes into ``sdk``'s ``#D`` line.

    Raises
    ------
    OptionError
        An unknown format, or a size the format cannot hold (all but ``puzzle``,
        ``candidates`` and ``sdm`` are 9x9).

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> print(lg.io.format_puzzle(grid, "ss").splitlines()[1])
    |152|6.7|.89|
    >>> lg.io.format_puzzle(grid, "hodoku") == f":0000:x:{lg.samples.GNPX_FORCECHAIN}:::"
    True
    """
    if format not in PUZZLE_FORMATS:
        raise OptionError(f"format: expected one of {', '.join(PUZZLE_FORMATS)}, found {format!r}")
    if format not in ("puzzle", "candidates", "sdm") and grid.size != 9:
        raise OptionError(f"format {format}: holds 9x9 grids only, found {grid.size}x{grid.size}")
    if format in ("puzzle", "sdm"):
        return grid.to_puzzle()
    if format == "candidates":
        return grid.to_candidates(pretty=True)
    puzzle = grid.to_puzzle()
    rows = [puzzle[r * 9 : r * 9 + 9] for r in range(9)]
    if format == "sdk":
        head = [f"#D{name}"] if name else []
        return "\n".join(head + rows)
    if format == "ss":
        return _format_ss(grid)
    if format == "sdx":
        return _format_sdx(grid)
    if format == "hodoku":
        return _format_hodoku(grid)
    return _format_sudokuwiki(grid)


def _givens_and_placed(grid: Grid, *, fresh: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(givens, placed-but-not-given) masks of the solved cells; with no givens known,
    every solved cell counts as a given. With `fresh`, a grid that is just its givens
    (the singles found at parse time included) has nothing placed."""
    solved = grid.counts == 1
    givens = grid.givens & solved if grid.givens.any() else solved
    if fresh and _with_marks(grid, np.where(givens, grid.values, 0), givens) == grid:
        return givens, np.zeros_like(givens)
    return givens, solved & ~givens & (grid.placed if fresh else solved)


def _with_marks(grid: Grid, values: np.ndarray, given: np.ndarray) -> Grid:
    """The grid of `values` (0 open) with `given` cells as givens, the others placed."""
    base = Grid.from_values(np.where(given, values, 0), grid.geometry if grid is not None else None)
    placed = [base.geometry.candidate(int(i) * base.size + int(values[i]) - 1) for i in np.flatnonzero(values * ~given)]
    return base.place(placed)


def _parse_hodoku(text: str) -> Grid:
    fields = text.split(":")
    if len(fields) < 5 or fields[0]:
        raise PuzzleFormatError("HoDoKu line: expected ':<technique>:<candidates>:<grid>:<deleted>:...'")
    body = fields[3].strip()
    values, given = [], []
    i = 0
    while i < len(body):
        plus = body[i] == "+"
        ch = body[i + 1] if plus and i + 1 < len(body) else body[i]
        i += 2 if plus else 1
        if ch in ".0":
            values.append(0)
        elif ch in "123456789":  # ASCII only: str.isdigit() also passes '²', which int() refuses
            values.append(int(ch))
        else:
            raise PuzzleFormatError(f"HoDoKu line: grid character {len(values) + 1}: unexpected {ch!r}")
        given.append(not plus and ch not in ".0")
    if len(values) != 81:
        raise PuzzleFormatError(f"HoDoKu line: expected 81 cells in the grid field, found {len(values)}")
    grid = _with_marks(None, np.array(values), np.array(given))
    deleted = []
    for token in fields[4].split():
        if len(token) != 3 or not all(x in "123456789" for x in token):
            raise PuzzleFormatError(f"HoDoKu line: deleted candidate {token!r}: expected <digit><row><column>, e.g. 312")
        d, r, c = (int(x) for x in token)
        deleted.append(Candidate(Cell(r - 1, c - 1), d))
    grid = grid.eliminate(deleted)
    grid.validate()
    return grid


def _format_hodoku(grid: Grid) -> str:
    givens, placed = _givens_and_placed(grid, fresh=True)
    values = grid.values
    cells = "".join(f"+{v}" if placed[i] else (str(v) if givens[i] else ".") for i, v in enumerate(values))
    base = _with_marks(grid, np.where(givens | placed, values, 0), givens)
    gone = base.cands & ~grid.cands
    deleted = [f"{d + 1}{i // 9 + 1}{i % 9 + 1}" for i, d in zip(*np.nonzero(gone))]
    return f":0000:x:{cells}:{' '.join(deleted)}::"


def _parse_sudokuwiki(text: str) -> Grid:
    query = urlsplit(text).query if "?" in text else text
    board = parse_qs(query).get("bd", [""])[0].strip() if "bd=" in query else ""
    if not board and _BARE_BOARD.fullmatch(text):
        board = text
    if not board:
        raise PuzzleFormatError("SudokuWiki link: no 'bd=' board in it")
    if len(board) == 81:
        return Grid.parse(board)
    if len(board) != 162:
        raise PuzzleFormatError(f"SudokuWiki link: expected a board of 81 or 162 characters, found {len(board)}")
    g = classic(9)
    cands = np.zeros((81, 9), dtype=bool)
    given = np.zeros(81, dtype=bool)
    for i in range(81):
        pair = board[2 * i : 2 * i + 2].lower()
        if any(ch not in _B32 for ch in pair):
            raise PuzzleFormatError(f"SudokuWiki link: {g.cell(i)} (characters {2 * i + 1}-{2 * i + 2}): {pair!r} is not base 32")
        n = _B32.index(pair[0]) * 32 + _B32.index(pair[1])
        mask = n >> 1
        if mask >= 512:
            raise PuzzleFormatError(f"SudokuWiki link: {g.cell(i)}: {pair!r} names digits above 9")
        cands[i] = [(mask >> d) & 1 for d in range(9)]
        given[i] = bool(n & 1)
    if (given & (cands.sum(axis=1) != 1)).any():
        bad = int(np.flatnonzero(given & (cands.sum(axis=1) != 1))[0])
        raise PuzzleFormatError(f"SudokuWiki link: {g.cell(bad)}: a given with {int(cands[bad].sum())} digits")
    grid = Grid(g, cands, given, cands.sum(axis=1) == 1)
    grid.validate()
    return grid


def _format_sudokuwiki(grid: Grid) -> str:
    givens, placed = _givens_and_placed(grid, fresh=True)
    if not placed.any():
        return SUDOKUWIKI_URL + grid.to_puzzle(empty="0")
    out = []
    for i, row in enumerate(grid.cands):
        n = (int(sum(1 << d for d in np.flatnonzero(row))) << 1) | int(givens[i])
        out.append(_B32[n // 32] + _B32[n % 32])
    return SUDOKUWIKI_URL + "".join(out)


def _parse_sdx(text: str) -> Grid:
    rows = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    tokens = [t for row in rows for t in row]
    if len(tokens) != 81:
        raise PuzzleFormatError(f"sdx: expected 81 cells in 9 lines, found {len(tokens)}")
    g = classic(9)
    cands = np.zeros((81, 9), dtype=bool)
    given = np.zeros(81, dtype=bool)
    for i, token in enumerate(tokens):
        user = token[:1] in "uU"
        digits = token[1:] if user else token
        if not digits or not all(d in "123456789" for d in digits) or (user and len(digits) != 1):
            raise PuzzleFormatError(f"sdx: {g.cell(i)} (cell {i + 1}): unexpected {token!r}, expected digits or u<digit>")
        cands[i, [int(d) - 1 for d in digits]] = True
        given[i] = not user and len(digits) == 1
    grid = Grid(g, cands, given, cands.sum(axis=1) == 1)
    grid.validate()
    return grid


def _format_sdx(grid: Grid) -> str:
    givens, placed = _givens_and_placed(grid)
    toks = grid.tokens()
    cells = [f"u{t}" if placed[i] else t for i, t in enumerate(toks)]
    return "\n".join(" ".join(cells[r * 9 : r * 9 + 9]) for r in range(9))


def _ss_blocks(text: str) -> list[list[str]]:
    """The grids of a Simple Sudoku file: the lines between ``*---*`` frames, band rules dropped."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("*") and line.endswith("*") and "-" in line:
            if current:
                blocks.append(current)
                current = None
            else:
                current = []
            continue
        if _SS_FRAME.match(line):
            continue  # |---+---+---|
        if current is None:
            current = []
        current.append(line.replace("|", " "))
    if current:
        blocks.append(current)
    return blocks


def _parse_ss(text: str) -> Grid:
    blocks = _ss_blocks(text)
    if not blocks or len(blocks) > 3:
        raise PuzzleFormatError(f"ss: expected 1 to 3 framed grids (givens, solved cells, candidates), found {len(blocks)}")
    grids = ["".join("".join(line.split()) for line in block) for block in blocks[:2]]
    for k, g in enumerate(grids):
        if len(g) != 81:
            raise PuzzleFormatError(f"ss: grid {k + 1}: expected 81 cells, found {len(g)}")
    givens = Grid.parse(grids[0])
    if len(blocks) == 1:
        return givens
    g0 = np.array([0 if ch in ".0" else int(ch) for ch in grids[0]])
    g1 = np.array([0 if ch in ".0" else int(ch) for ch in grids[1]])
    if ((g0 > 0) & (g1 != g0)).any():
        bad = int(np.flatnonzero((g0 > 0) & (g1 != g0))[0])
        raise PuzzleFormatError(f"ss: {givens.geometry.cell(bad)}: the solved cells' grid differs from the givens")
    grid = _with_marks(givens, g1, g0 > 0)
    if len(blocks) == 3:
        tokens = " ".join(blocks[2]).split()
        if len(tokens) != 81:
            raise PuzzleFormatError(f"ss: grid 3: expected 81 candidate tokens, found {len(tokens)}")
        pm = Grid.parse(" ".join(tokens))
        grid = Grid(grid.geometry, grid.cands & pm.cands, grid.givens, grid.placed)
        grid.validate()
    return grid


def _format_ss(grid: Grid) -> str:
    def framed(rows: list[list[str]]) -> list[str]:
        widths = [max(len(r[c]) for r in rows) for c in range(9)]
        if max(widths) == 1:  # a digit grid: |152|6.7|.89|
            out = ["*-----------*"]
            for r, row in enumerate(rows):
                if r in (3, 6):
                    out.append("|---+---+---|")
                out.append("|" + "|".join("".join(row[b * 3 : b * 3 + 3]) for b in range(3)) + "|")
            return [*out, "*-----------*"]
        parts = [" " + " ".join(row[c].ljust(widths[c]) for c in range(b * 3, b * 3 + 3)) + " " for b in range(3)
                 for row in rows[:1]]
        span = [len(p) for p in parts]
        rule = "|" + "+".join("-" * w for w in span) + "|"
        out = ["*" + "-" * (len(rule) - 2) + "*"]
        for r, row in enumerate(rows):
            if r in (3, 6):
                out.append(rule)
            cells = [" " + " ".join(row[c].ljust(widths[c]) for c in range(b * 3, b * 3 + 3)) + " " for b in range(3)]
            out.append("|" + "|".join(cells) + "|")
        return [*out, out[0]]

    givens, placed = _givens_and_placed(grid, fresh=True)
    values = grid.values
    first = [[str(values[r * 9 + c]) if givens[r * 9 + c] else "." for c in range(9)] for r in range(9)]
    base = _with_marks(grid, np.where(givens | placed, values, 0), givens)
    if base == grid and not placed.any():
        return "\n".join(framed(first))
    second = [[str(values[r * 9 + c]) if (givens | placed)[r * 9 + c] else "." for c in range(9)] for r in range(9)]
    toks = grid.tokens()
    third = [[toks[r * 9 + c] for c in range(9)] for r in range(9)]
    return "\n\n".join("\n".join(framed(g)) for g in (first, second, third))
# ---- output files: checked before any work, written whole or not at all ----------------------


def check_output(path: str | os.PathLike, *, option: str = "--out") -> Path:
    """`path` as a Path if a file can be written there; OptionError naming `option` and the fault.

    Checked before any work starts, so a bad path costs nothing and changes nothing.

    Examples
    --------
    >>> lg.io.check_output("no/such/folder/rows.csv", option="--out")
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: --out no/such/folder/rows.csv: no such folder no/such/folder
    """
    path = Path(path)
    folder = path.parent
    if str(path) in ("", ".") or path.name in ("", ".", ".."):
        raise OptionError(f"{option} {str(path)!r}: expected a file name")
    if path.is_dir():
        raise OptionError(f"{option} {path}: is a folder, expected a file")
    if is_special(path):  # /dev/null, a pipe: written in place (atomic_path)
        if not os.access(path, os.W_OK):
            raise OptionError(f"{option} {path}: cannot write (permission denied)")
        return path
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"{option} {path}: {folder} is a file, not a folder")
    if not folder.is_dir():
        raise OptionError(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OptionError(f"{option} {path}: cannot write in {folder} (permission denied)")
    if path.exists() and not os.access(path, os.W_OK):
        raise OptionError(f"{option} {path}: cannot write (permission denied)")
    return path


def is_special(path: str | os.PathLike) -> bool:
    """True for an existing path that is neither a regular file nor a folder: a device, a pipe.

    >>> lg.io.is_special("/dev/null"), lg.io.is_special(lg.io.corpus_path("euler96"))
    (True, False)
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """A fresh temporary path beside `path` (same folder and suffix), renamed onto `path` if the block succeeds.

    The block writes the temporary file by any means (a program's ``-o``, a
    library's ``savefig``). When the block ends normally the file is flushed to
    disk and renamed onto `path` (``os.replace``, atomic), taking the old file's
    permissions; when it raises, the temporary file is removed and `path` is
    left as it was. A `path` that is a device or a pipe (``/dev/null``,
    ``/dev/stdout``) is written in place: it is never replaced by a file.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> target = Path(tmp.name) / "out.txt"
    >>> with lg.io.atomic_path(target) as part:
    ...     _ = part.write_text("whole")
    >>> target.read_text()
    'whole'
    >>> try:
    ...     with lg.io.atomic_path(target) as part:
    ...         _ = part.write_text("half")
    ...         raise KeyboardInterrupt
    ... except KeyboardInterrupt:
    ...     pass
    >>> target.read_text(), sorted(p.name for p in Path(tmp.name).iterdir())
    ('whole', ['out.txt'])
    >>> tmp.cleanup()
    """
    path = Path(path)
    if is_special(path):  # /dev/null, /dev/stdout, a pipe: written in place, never replaced by a file
        yield path
        return
    while True:
        part = path.with_name(f".{path.name}.{secrets.token_hex(4)}{path.suffix}")
        try:
            os.close(os.open(part, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))  # umask applies
            break
        except FileExistsError:
            continue
    try:
        yield part
        _sync(part)
        if path.exists():
            os.chmod(part, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def _sync(path: Path) -> None:
    """Flush a file's data to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO]:
    """An open file whose text replaces `path` when the block succeeds (`atomic_path`), and never half of it.

    >>> import tempfile
    >>> from pathlib import Path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> with lg.io.atomic_write(Path(tmp.name) / "rows.csv") as fh:
    ...     _ = fh.write("line,error\\n")
    >>> (Path(tmp.name) / "rows.csv").read_text()
    'line,error\\n'
    >>> tmp.cleanup()
    """
    with atomic_path(path) as part:
        if "b" in mode:
            encoding = None
        with open(part, mode, encoding=encoding, newline=newline) as fh:
            yield fh
