"""``linkgraph convert IN OUT``: a puzzle or a collection from one format into another.

IN is a file (or ``-`` for stdin) in any format `linkgraph.io` reads: one puzzle
(``.sdk``, ``.sdx``, ``.ss``, a candidate grid) or one puzzle a line (``.sdm``,
puzzle lines with name or rating columns, HoDoKu library lines, SudokuWiki links).
OUT is a file, or ``-`` for stdout; its format follows its suffix (``.sdk``,
``.sdm``, ``.sdx``, ``.ss``; ``.txt`` for puzzle lines) or ``--to``. The formats
that hold one puzzle (sdk, sdx, ss, candidates) take an input of one puzzle;
the others write one line per puzzle. The file is written whole and then renamed:
a bad input leaves no partial OUT. Exit 2 on a bad line, naming it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from linkgraph.errors import InvalidPuzzleError, OptionError, PuzzleFormatError
from linkgraph.io import (
    PUZZLE_FORMATS, SUFFIX_FORMATS, atomic_write, check_input, check_output, detect_format, format_puzzle, parse_line,
    parse_puzzle,
)

#: Formats that hold one puzzle per file; the rest hold one per line.
SINGLE = ("sdk", "sdx", "ss", "candidates")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "convert",
        help="convert puzzles between formats (sdk, sdm, sdx, ss, HoDoKu, SudokuWiki, lines)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument("input", metavar="IN", help="puzzle file, or '-' for stdin")
    p.add_argument("output", metavar="OUT", help="output file (format by suffix), or '-' for stdout")
    p.add_argument("--to", choices=PUZZLE_FORMATS, default=None,
                   help="output format (default: by OUT's suffix; 'puzzle' lines for '-')")
    p.add_argument("--from", dest="source", choices=PUZZLE_FORMATS, default=None,
                   help="input format (default: detected)")
    p.set_defaults(run=run)


def _out_format(args: argparse.Namespace) -> str:
    if args.to:
        return args.to
    if args.output == "-":
        return "puzzle"
    suffix = Path(args.output).suffix.lower()
    if suffix not in SUFFIX_FORMATS:
        raise OptionError(
            f"OUT {args.output}: unknown suffix {suffix or '(none)'!r}: use {', '.join(SUFFIX_FORMATS)} or --to FORMAT"
        )
    return SUFFIX_FORMATS[suffix]


def read_all(text: str, label: str, source: str | None):
    """The (grid, name) pairs of IN: one for a one-puzzle format, else one per line."""
    fmt = source or detect_format(text)
    if fmt in SINGLE:
        try:
            return [(parse_puzzle(text, format=fmt), None)]
        except (PuzzleFormatError, InvalidPuzzleError) as exc:
            raise type(exc)(f"{label}: {exc}") from None
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        line = parse_line(raw, number)
        try:
            if source is not None and line.error is None:
                grid = parse_puzzle(line.puzzle, format=source)
            else:
                grid = line.grid()
        except (PuzzleFormatError, InvalidPuzzleError) as exc:
            raise type(exc)(f"{label}: {exc}" if str(exc).startswith("line ") else f"{label}: line {number}: {exc}") from None
        out.append((grid, line.name))
    if not out:
        raise PuzzleFormatError(f"{label}: no puzzle (the file is empty or only comments)")
    return out


def run(args: argparse.Namespace) -> int:
    fmt = _out_format(args)
    if args.output != "-":
        check_output(args.output, option="OUT")  # before any work
    if args.input != "-":
        check_input(args.input)
    if args.input == "-":
        text, label = sys.stdin.read(), "stdin"
    else:
        label = args.input
        try:
            with open(args.input, encoding="utf-8-sig") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise PuzzleFormatError(f"{args.input}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise PuzzleFormatError(f"{args.input}: cannot read: {exc}") from None
    grids = read_all(text, label, args.source)
    if fmt in SINGLE and len(grids) > 1:
        raise OptionError(f"format {fmt} holds one puzzle, {label} has {len(grids)}: use .sdm, .txt or --to hodoku")
    body = "\n".join(format_puzzle(grid, fmt, name=name) for grid, name in grids) + "\n"
    if args.output == "-":
        sys.stdout.write(body)
        return 0
    out = Path(args.output)
    with atomic_write(out) as fh:  # the old file or the whole new one
        fh.write(body)
    print(f"linkgraph convert: {len(grids)} puzzle{'s' if len(grids) != 1 else ''} -> {out} ({fmt})", file=sys.stderr)
    return 0
