"""Puzzle files: one puzzle a line, with an optional name or rating column.

The layouts are those of the shared corpora:

- ``<puzzle>``: 81 characters (or 16, 36, ... for other sizes), digits and ``.``/``0``;
- ``<puzzle><TAB><rating>``: a rating column (a number, or ``-`` for none);
- ``<name><TAB><puzzle>``: a name column;
- blank lines and lines starting with ``#`` are skipped.

Files are read lazily, line by line, so a file of a million lines streams in
bounded memory; a bad line becomes a `PuzzleLine` with an ``error`` and never
stops the rest of the file.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from linkgraph.errors import LinkgraphError, PuzzleFormatError
from linkgraph.geometry import SYMBOLS
from linkgraph.grid import Grid

__all__ = ["PUZZLE_LENGTHS", "PuzzleLine", "corpus_path", "parse_line", "read_puzzles", "read_solutions"]

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
            return Grid.parse(self.puzzle)
        except LinkgraphError as exc:
            raise type(exc)(f"line {self.number}: {exc}") from None


def parse_line(text: str, number: int) -> PuzzleLine:
    """Split one line into puzzle and extra column (see the module docstring)."""
    text = text.rstrip("\r\n").lstrip("\ufeff")
    fields = [f.strip() for f in text.split("\t")] if "\t" in text else text.split()
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
    rating = None
    name = None
    for other in others:
        if other == "-":
            continue
        try:
            rating = float(other)
        except ValueError:
            name = other if name is None else f"{name} {other}"
    return PuzzleLine(number, fields[i], name=name, rating=rating)


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
    path = Path(path)
    if not path.is_file():  # at the call, before any output is written
        raise PuzzleFormatError(f"{path}: no such file")
    return _read_lines(path, limit, start)


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
