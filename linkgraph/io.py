"""Files in and out: puzzle files (one puzzle a line, with an optional name or rating
column), and output files written whole or not at all.

The layouts are those of the shared corpora:

- ``<puzzle>``: 81 characters (or 16, 36, ... for other sizes), digits and ``.``/``0``;
- ``<puzzle><TAB><rating>``: a rating column (a number, or ``-`` for none);
- ``<name><TAB><puzzle>``: a name column;
- blank lines and lines starting with ``#`` are skipped.

Files are read lazily, line by line, so a file of a million lines streams in
bounded memory; a bad line becomes a `PuzzleLine` with an ``error`` and never
stops the rest of the file.

Every file linkgraph writes (pictures, batch rows, sweep logs, plots) goes
through `check_output` before any work, and is written by `atomic_path` or
`atomic_write`: into a temporary file in the same folder, renamed onto the
target when complete. A results file is then either the old one or the
complete new one, also after ``kill -9`` or a full disk.
"""

from __future__ import annotations

import math
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from linkgraph.errors import LinkgraphError, OptionError, PuzzleFormatError
from linkgraph.geometry import SYMBOLS
from linkgraph.grid import Grid

__all__ = ["PUZZLE_LENGTHS", "PuzzleLine", "atomic_path", "atomic_write", "check_input", "check_output", "corpus_path",
           "parse_line", "read_puzzles", "read_solutions"]

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
    if path.is_dir():
        raise PuzzleFormatError(f"{path}: is a folder, not a puzzle file")
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


# ---- output files: checked before any work, written whole or not at all ----------------------


def check_output(path: str | os.PathLike, *, option: str = "--out") -> Path:
    """`path` as a Path if a file can be written there; OptionError naming `option` and the fault.

    Checked before any work starts, so a bad path costs nothing and changes nothing.

    Examples
    --------
    >>> lg.io.check_output("no/such/folder/rows.csv", option="--out")
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: --out no/such/folder/rows.csv: no folder no/such/folder
    """
    path = Path(path)
    folder = path.parent
    if str(path) in ("", ".") or path.name in ("", ".", ".."):
        raise OptionError(f"{option} {str(path)!r}: expected a file name")
    if path.is_dir():
        raise OptionError(f"{option} {path}: is a folder, expected a file")
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"{option} {path}: {folder} is a file, not a folder")
    if not folder.is_dir():
        raise OptionError(f"{option} {path}: no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OptionError(f"{option} {path}: cannot write in {folder} (permission denied)")
    if path.exists() and not os.access(path, os.W_OK):
        raise OptionError(f"{option} {path}: cannot write (permission denied)")
    return path


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """A fresh temporary path beside `path` (same folder and suffix), renamed onto `path` if the block succeeds.

    The block writes the temporary file by any means (a program's ``-o``, a
    library's ``savefig``). When the block ends normally the file is flushed to
    disk and renamed onto `path` (``os.replace``, atomic), taking the old file's
    permissions; when it raises, the temporary file is removed and `path` is
    left as it was.

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
