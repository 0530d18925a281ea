"""Helpers shared by the subcommands: reading PUZZLE, --format, --prepare, output."""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any

from linkgraph.commands.common import json_text
from linkgraph.errors import InvalidPuzzleError, PuzzleFormatError
from linkgraph.grid import Grid
from linkgraph.io import PUZZLE_LENGTHS, detect_format, parse_line, parse_puzzle
from linkgraph.samples import GNPX_FORCECHAIN

__all__ = ["add_format", "add_puzzle", "emit_json", "read_grid", "read_puzzle_text"]


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


def read_puzzle_text(arg: str) -> tuple[str, str]:
    """The text behind a PUZZLE argument and a label for messages."""
    if arg == "-":
        return sys.stdin.read(), "stdin"
    if len(arg) < 300 and os.path.isfile(arg):
        try:
            with open(arg, encoding="utf-8-sig") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise PuzzleFormatError(f"{arg}: cannot read: {exc}") from None
        return text, arg
    return arg, "PUZZLE"


def read_grid(arg: str) -> Grid:
    """Read one grid from a PUZZLE argument; a file holds one puzzle or candidate grid.

    A SudokuWiki link, a HoDoKu library line, and ``.sdk``, ``.sdx`` and ``.ss``
    files are read in their format (`linkgraph.io.parse_puzzle`).

    In a file, blank lines and ``#`` comments are skipped; a file whose first
    line is a puzzle line (with name or rating columns, see `linkgraph.io`) is
    read as that line, and errors name the file and the line number.
    """
    text, label = read_puzzle_text(arg)
    fmt = detect_format(text)
    if fmt in ("hodoku", "sudokuwiki", "sdx", "ss", "sdk"):
        if fmt in ("hodoku", "sudokuwiki"):  # a file of such lines: the first one
            text = next(ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#"))
        try:
            return parse_puzzle(text, format=fmt)
        except (PuzzleFormatError, InvalidPuzzleError) as exc:
            raise type(exc)(f"{label}: {exc}") from None
    if label == "PUZZLE":
        try:
            return Grid.parse(text)
        except PuzzleFormatError as exc:
            if len(text) < 300 and ("/" in text or os.sep in text or re.search(r"\.[A-Za-z]\w{0,4}$", text)):
                raise PuzzleFormatError(f"{text}: no such file, and not a puzzle either ({exc})") from None
            raise
    lines = [(i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise PuzzleFormatError(f"{label}: no puzzle (the file is empty or only comments)")
    number, first = lines[0]
    line = parse_line(first, number)
    if line.error is None and len(line.puzzle) in PUZZLE_LENGTHS:
        whole = False
    else:  # a grid over several lines (rows, a candidate grid)?
        try:
            return Grid.parse("\n".join(ln for _, ln in lines))
        except (PuzzleFormatError, InvalidPuzzleError) as exc:
            whole = len(lines) > 1 and (len(first.split()) > 1 or len(line.puzzle) < 16)
            error = exc
    try:
        if whole:
            raise error
        return line.grid()  # messages start with "line N: "
    except (PuzzleFormatError, InvalidPuzzleError) as exc:
        raise type(exc)(f"{label}: {exc}") from None


def emit_json(data: Any) -> None:
    """Print `data` as JSON on stdout (`linkgraph.commands.json_text`, as the explorer's API sends it)."""
    sys.stdout.write(json_text(data))
