"""Helpers shared by the subcommands: reading PUZZLE, --format, --time-limit, output.

One reading for every source: a PUZZLE argument, a file and stdin give the same
grid, or the same message with only the place in front: the file's name or
``stdin``, and the line number for a puzzle read from one line of a file.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any

from linkgraph.commands.common import json_text
from linkgraph.errors import InvalidPuzzleError, PuzzleFormatError
from linkgraph.grid import Grid
from linkgraph.io import PUZZLE_LENGTHS, PuzzleLine, detect_format, parse_line, parse_puzzle
from linkgraph.samples import GNPX_FORCECHAIN

__all__ = ["add_format", "add_puzzle", "add_time_limit", "emit_json", "grid_from_text", "read_grid",
           "read_puzzle_text"]


def add_puzzle(parser: argparse.ArgumentParser, *, optional: bool = True) -> None:
    """Add the PUZZLE argument: 81-char string, candidate grid, file path or '-'."""
    parser.add_argument(
        "puzzle",
        metavar="PUZZLE",
        nargs="?" if optional else None,
        default=GNPX_FORCECHAIN if optional else None,
        help="puzzle string, candidate grid, file path, or '-' for stdin "
        "(default: the GNPX example puzzle)",
    )


def add_format(parser: argparse.ArgumentParser) -> None:
    """Add --format text|json."""
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")


def add_time_limit(parser: argparse.ArgumentParser) -> None:
    """Add --time-limit S: the whole command stops after S seconds (exit 1, saying so)."""
    parser.add_argument("--time-limit", type=float, default=None, metavar="S",
                        help="stop after S seconds, the search under way included (exit 1)")


def read_puzzle_text(arg: str) -> tuple[str, str]:
    """The text behind a PUZZLE argument and a label for messages (``PUZZLE``, ``stdin`` or the path)."""
    if arg == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        if isinstance(data, str):
            return data, "stdin"
        return _decode(data, "stdin"), "stdin"
    if os.path.isdir(arg):
        raise PuzzleFormatError(f"{arg}: is a folder, not a puzzle file")
    if os.path.isfile(arg):
        try:
            with open(arg, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            raise PuzzleFormatError(f"{arg}: cannot read ({exc.strerror or exc})") from None
        return _decode(data, arg), arg
    return arg, "PUZZLE"


def _decode(data: bytes, label: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(f"{label}: cannot read: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def grid_from_text(text: str, *, numbered: bool = False) -> Grid:
    """The one grid in `text`: a puzzle line (with name or rating columns), or one grid over several lines.

    A SudokuWiki link, a HoDoKu library line, and ``.sdk``, ``.sdx`` and ``.ss`` texts
    are read in their format (`linkgraph.io.parse_puzzle`). Blank lines and ``#``
    comments are skipped. With `numbered` (a file, stdin)
    the errors of a puzzle read from one line start with its line number (``line 3:``);
    the rest of a message is the same whatever the source. Several puzzle lines are refused:
    a command that reads one puzzle must not quietly take the first.

    Examples
    --------
    >>> from linkgraph.cli.common import grid_from_text
    >>> grid_from_text("# Euler 1\\n" + lg.samples.EULER_01 + "\\t2.3").number_of_unsolved
    46
    >>> grid_from_text(lg.samples.EULER_01 + "\\n" + lg.samples.EULER_01)
    Traceback (most recent call last):
    ...
    linkgraph.errors.PuzzleFormatError: 2 puzzles, one a line: this command reads one (batch and verify read files of puzzles)
    """
    lines = [(i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise PuzzleFormatError("no puzzle (empty, or only comments)")
    fmt = detect_format(text)
    if fmt in ("hodoku", "sudokuwiki", "sdx", "ss", "sdk"):  # another program's format (linkgraph.io)
        if fmt in ("hodoku", "sudokuwiki"):  # one puzzle a line
            if len(lines) > 1:
                raise PuzzleFormatError(f"{len(lines)} puzzles, one a line: this command reads one "
                                        "(batch and verify read files of puzzles)")
            text = lines[0][1]
        return parse_puzzle(text, format=fmt)
    if len(lines) == 1:
        number, only = lines[0]
        line = parse_line(only, number)
        if line.error is None and len(line.puzzle) in PUZZLE_LENGTHS:
            return _line_grid(line, numbered)
        return _numbered(lambda: Grid.parse(only), number if numbered else None)
    try:  # a grid over several lines: rows, or a candidate grid
        return Grid.parse("\n".join(ln for _, ln in lines))
    except (PuzzleFormatError, InvalidPuzzleError):
        attempts = [parse_line(ln, n) for n, ln in lines if _puzzle_line_like(ln)]
        if not attempts:
            raise
    if len(attempts) == 1:  # one puzzle line among notes
        return _line_grid(attempts[0], numbered)
    for line in attempts:  # a file of puzzles: the first bad one, or the count
        try:
            _line_grid(line, True)
        except (PuzzleFormatError, InvalidPuzzleError):
            raise
    raise PuzzleFormatError(f"{len(attempts)} puzzles, one a line: this command reads one "
                            "(batch and verify read files of puzzles)")


def _puzzle_line_like(text: str) -> bool:
    """A line of one to three fields, one long enough for a puzzle and made (mostly) of digits and dots.

    Not a row of a grid, a frame line of a candidate grid, or prose.
    """
    fields = [f.strip() for f in (text.split("\t") if "\t" in text else text.split()) if f.strip()]
    if not 1 <= len(fields) <= 3:
        return False
    longest = max(fields, key=len)
    return len(longest) >= 16 and sum(ch.isalnum() or ch == "." for ch in longest) >= 0.9 * len(longest)


def _line_grid(line: PuzzleLine, numbered: bool) -> Grid:
    """The grid of one puzzle line, its errors starting with ``line N:`` when `numbered`."""
    if line.error is not None:
        raise PuzzleFormatError(f"line {line.number}: {line.error}" if numbered else line.error)
    return _numbered(lambda: Grid.parse(line.puzzle), line.number if numbered else None)


def _numbered(parse, number: int | None) -> Grid:
    """``parse()``, its error message led by ``line N:`` when `number` is given."""
    try:
        return parse()
    except (PuzzleFormatError, InvalidPuzzleError) as exc:
        if number is None:
            raise
        raise type(exc)(f"line {number}: {exc}") from None


def read_grid(arg: str) -> Grid:
    """Read one grid from a PUZZLE argument: a puzzle or candidate grid as text, a file, or ``-`` (stdin).

    The three sources are read alike (`grid_from_text`); an error from a file or
    stdin names it (and the line) in front of the same message.
    """
    text, label = read_puzzle_text(arg)
    try:
        return grid_from_text(text, numbered=label != "PUZZLE")
    except (PuzzleFormatError, InvalidPuzzleError) as exc:
        if label != "PUZZLE":
            raise type(exc)(f"{label}: {exc}") from None
        if len(text) < 300 and ("/" in text or os.sep in text or re.search(r"\.[A-Za-z]\w{0,4}$", text)):
            raise PuzzleFormatError(f"{text}: no such file, and not a puzzle either ({exc})") from None
        raise


def emit_json(data: Any) -> None:
    """Print `data` as JSON on stdout (`linkgraph.commands.json_text`, as the explorer's API sends it)."""
    sys.stdout.write(json_text(data))
