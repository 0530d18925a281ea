"""The ``linkgraph`` command line: ``main(argv) -> int``.

Each subcommand lives in ``linkgraph/cli/<name>.py`` and exposes
``add_parser(subparsers)`` and ``run(args) -> int``; `COMMANDS` lists them in
help order (written once here, no self-registration). Results go to stdout,
diagnostics to stderr. Exit 0 on success, 1 when nothing was found, 2 on bad
input; errors print as ``linkgraph: PuzzleFormatError: line 3: ...`` with no
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from linkgraph.cli import (
    batch, bench, chains, compare, convert, links, nets, path, plot, rate, render, serve, solve, verify,
)
from linkgraph.errors import LinkgraphError, describe
from linkgraph import __version__

__all__ = ["COMMANDS", "main"]

#: The subcommand modules, in help order.
COMMANDS = (solve, links, path, chains, nets, render, serve, verify, rate, batch, compare, plot, bench, convert)


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors exit 2 with our one-line format."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"linkgraph: OptionError: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """The full argparse parser with every available subcommand."""
    parser = _Parser(prog="linkgraph", description="Sudoku reasoning as graphs: chains, nets, links.")
    parser.add_argument("--version", action="version", version=f"linkgraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: ``sys.argv[1:]``); return the exit status.

    With no subcommand at all, ``linkgraph`` solves the built-in GNPX example.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv:
        argv = ["solve"]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except LinkgraphError as exc:
        print(f"linkgraph: {describe(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("linkgraph: interrupted", file=sys.stderr)
        return 130
