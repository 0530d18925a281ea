"""The ``linkgraph`` command line: ``main(argv) -> int``.

Each subcommand lives in ``linkgraph/cli/<name>.py`` and exposes
``add_parser(subparsers)`` and ``run(args) -> int``; `COMMANDS` lists them in
help order (written once here, no self-registration). Results go to stdout,
diagnostics to stderr. Exit 0 on success, 1 when nothing was found (or the
time limit came first), 2 on bad input; errors print as one line,
``linkgraph: PuzzleFormatError: line 3: ...``, with no traceback. Every fault
a user can cause ends that way: bad puzzles and options, paths that cannot be
read or written, an unreachable scheduler, a missing optional package. Only a
bug prints a traceback.

An OptionError from the library names the option as Python spells it
(``max_steps: ...``); the command line shows the flag (``--max-steps: ...``).
A command with ``--time-limit S`` is stopped after S seconds wherever it is
(`linkgraph.limits.Deadline`); ``solve`` stops its path at S and prints it.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from linkgraph import __version__
from linkgraph.cli import (
    batch, bench, chains, compare, convert, links, nets, path, plot, rate, render, serve, solve, verify,
)
from linkgraph.errors import LinkgraphError, describe, option_flags
from linkgraph.limits import Deadline, TimeLimitExceeded, check_seconds

__all__ = ["COMMANDS", "main"]

#: The subcommand modules, in help order.
COMMANDS = (solve, links, path, chains, nets, render, serve, verify, rate, batch, compare, plot, bench, convert)


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors exit 2 with our one-line format."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        message = message.replace("\r", "\\r").replace("\n", "\\n")  # one line, whatever argument it quotes
        if len(message) > 300:
            message = message[:297] + "..."
        print(f"linkgraph: OptionError: {message}", file=sys.stderr)
        raise SystemExit(2)


class _CommandTimeout(TimeLimitExceeded):
    """A command's --time-limit is up."""


def build_parser() -> argparse.ArgumentParser:
    """The full argparse parser with every available subcommand."""
    parser = _Parser(prog="linkgraph", description="Sudoku reasoning as graphs: chains, nets, links.")
    parser.add_argument("--version", action="version", version=f"linkgraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS:
        module.add_parser(sub)
    for command in sub.choices.values():  # each option's flag, by the name the library gives it
        command.set_defaults(_flags=option_flags(command))
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
        limit = getattr(args, "time_limit", None)
        if limit is not None:
            check_seconds("time_limit", limit)
            limit += getattr(args, "time_grace", 0.0)  # solve stops its own path at the limit, then prints
        try:
            with Deadline(limit, _CommandTimeout):
                return int(args.run(args) or 0)
        except _CommandTimeout:
            print(f"linkgraph {args.command}: stopped at --time-limit {args.time_limit:g} s", file=sys.stderr)
            return 1
    except LinkgraphError as exc:
        print(f"linkgraph: {describe(exc, getattr(args, '_flags', None))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a disk full, a file that vanished: the system's fault, said in one line
        print(f"linkgraph: {type(exc).__name__}: {_os_message(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("linkgraph: interrupted", file=sys.stderr)
        return 130


def _os_message(exc: OSError) -> str:
    """``path: what`` for an OSError."""
    what = exc.strerror or str(exc)
    return f"{exc.filename}: {what}" if exc.filename else what
