"""What every command module shares: the `Report` value and the JSON text."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any

from linkgraph.errors import InvalidPuzzleError
from linkgraph.grid import Grid

__all__ = ["Report", "check_option", "check_unique", "checked", "comma_list", "json_text", "prepare_option",
           "prepared"]


@dataclass(frozen=True, slots=True)
class Report:
    """One command's result.

    Attributes
    ----------
    data : object
        What ``--format json`` prints (JSON-ready: dicts, lists, strings, numbers).
    status : int
        The exit status: 0 when something was found, 1 when nothing was.
    value : object
        The computed objects the text output prints (a SolveResult, steps, a path).
    note : str or None
        A diagnostic line for stderr (``no chain from +r2c8#1 to ...``).
    """

    data: Any
    status: int = 0
    value: Any = None
    note: str | None = None


def json_text(data: Any) -> str:
    """The JSON text a command prints for `data` (two-space indent, UTF-8, final newline).

    >>> from linkgraph.commands import json_text
    >>> print(json_text({"solved": True, "steps": []}), end="")
    {
      "solved": true,
      "steps": []
    }
    """
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def comma_list(text: str) -> list[str]:
    """The non-empty, stripped items of a comma list."""
    return [item.strip() for item in text.split(",") if item.strip()]


def prepare_option(parser: argparse.ArgumentParser, *, ladders: bool = False, default: str = "none") -> None:
    """Add ``--prepare``: any LADDER (`ladders`, for links and path) or none|basic (default `default`)."""
    if ladders:
        parser.add_argument(
            "--prepare",
            metavar="LADDER",
            default=None,
            help="first apply a technique ladder until stuck, e.g. 'basic' (default: use the position as given)",
        )
    else:
        why = ", so that no net is a mere single" if default == "basic" else ""
        parser.add_argument("--prepare", choices=("none", "basic"), default=default,
                            help=f"apply the basic ladder first{why} (default {default})")


def prepared(grid: Grid, args: argparse.Namespace) -> Grid:
    """`grid` after ``--prepare`` (none, basic or a ladder)."""
    if args.prepare and args.prepare != "none":
        from linkgraph.solver import prepare

        return prepare(grid, ladder=args.prepare)
    return grid


def check_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-check``: by default a puzzle must have exactly one solution."""
    parser.add_argument("--no-check", action="store_true",
                        help="analyse the grid even if it has no or several solutions")


def check_unique(grid: Grid) -> None:
    """Raise InvalidPuzzleError unless `grid` has exactly one solution (`linkgraph.oracle`)."""
    from linkgraph.oracle import count_solutions

    n = count_solutions(grid, limit=2)
    if n == 0:
        raise InvalidPuzzleError("the puzzle has no solution (use --no-check to analyse it anyway)")
    if n > 1:
        raise InvalidPuzzleError("the puzzle has several solutions (use --no-check to analyse it anyway)")


def checked(grid: Grid, args: argparse.Namespace) -> Grid:
    """`grid`, once it is known to have exactly one solution (unless ``--no-check``)."""
    if not getattr(args, "no_check", False):
        check_unique(grid)
    return grid
