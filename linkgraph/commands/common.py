"""Helpers shared by the subcommands: reading PUZZLE, --format, --prepare, output."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from linkgraph.errors import PuzzleFormatError
from linkgraph.grid import Grid
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

    A file with several puzzle lines is read as its first puzzle line.
    """
    text, label = read_puzzle_text(arg)
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if label != "PUZZLE" and len(lines) > 1:
        first = lines[0].split("\t")
        candidate = max(first, key=len).strip()
        if len(candidate) in (16, 36, 64, 81, 144, 256, 625):
            text = candidate
    try:
        return Grid.parse(text)
    except PuzzleFormatError as exc:
        if label == "PUZZLE":
            raise
        raise PuzzleFormatError(f"{label}: {exc}") from None


def emit_json(data: Any) -> None:
    """Print `data` as JSON on stdout."""
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
