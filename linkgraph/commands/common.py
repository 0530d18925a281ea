"""What every command module shares: the `Report` value and the JSON text."""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from typing import Any

from linkgraph.errors import InvalidPuzzleError, OptionError, SearchLimitError
from linkgraph.grid import Grid

__all__ = ["CHECK_LIMIT", "Report", "check_option", "check_seconds_option", "check_unique", "checked", "comma_list",
           "json_text", "prepare_option", "prepared"]


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


#: Seconds the uniqueness check may take by default (``--check-limit``): a 9x9 grid takes
#: milliseconds, nearly every 16x16 and 25x25 puzzle well under a second; a big grid with no
#: solution or many can take the search minutes, and a person at a terminal should hear of it.
CHECK_LIMIT = 10.0


def check_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-check`` and ``--check-limit``: by default a puzzle must have exactly one
    solution, found within `CHECK_LIMIT` seconds."""
    parser.add_argument("--no-check", action="store_true",
                        help="analyse the grid even if it has no or several solutions")
    parser.add_argument("--check-limit", type=float, default=CHECK_LIMIT, metavar="S",
                        help=f"give up the uniqueness check after S seconds (exit 2; default {CHECK_LIMIT:g}, "
                             "0: no limit); it is instant on 9x9, but can take minutes on a big grid")


def check_seconds_option(args: argparse.Namespace) -> float | None:
    """The ``--check-limit`` of `args` in seconds, None for no limit (0, or no such option)."""
    value = getattr(args, "check_limit", None)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise OptionError(f"check_limit: expected a number of seconds >= 0 (0: no limit), found {value!r}")
    return float(value) or None


def check_unique(grid: Grid, limit: float | None = None) -> None:
    """Raise InvalidPuzzleError unless `grid` has exactly one solution (`linkgraph.oracle`),
    SearchLimitError when the search takes more than `limit` seconds (None: no limit).

    Examples
    --------
    >>> from linkgraph.commands.common import check_unique
    >>> check_unique(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), limit=10.0)
    >>> check_unique(lg.Grid.empty())
    Traceback (most recent call last):
    ...
    linkgraph.errors.InvalidPuzzleError: the puzzle has several solutions (use --no-check to analyse it anyway)
    """
    from linkgraph.oracle import search

    found = search(grid, limit=2, time_limit=limit)
    if not found.complete:
        n = grid.geometry.size
        raise SearchLimitError(
            f"the uniqueness check of this {n}x{n} grid found no answer within --check-limit {limit:g} s "
            f"({found.nodes:,} nodes searched); give it longer (--check-limit S, 0 for no limit) "
            "or skip it (--no-check)")
    if not found.solutions:
        raise InvalidPuzzleError("the puzzle has no solution (use --no-check to analyse it anyway)")
    if len(found.solutions) > 1:
        raise InvalidPuzzleError("the puzzle has several solutions (use --no-check to analyse it anyway)")


def checked(grid: Grid, args: argparse.Namespace) -> Grid:
    """`grid`, once it is known to have exactly one solution (unless ``--no-check``), within
    ``--check-limit`` seconds."""
    limit = check_seconds_option(args)
    if not getattr(args, "no_check", False):
        check_unique(grid, limit)
    return grid
