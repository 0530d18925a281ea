"""``linkgraph rate FILE|PUZZLE``: Sudoku Explainer's ER/EP/ED, one line per puzzle.

Each line is ``<puzzle> <ER>/<EP>/<ED> <seconds>s`` as serate rates it (SE 1.2.1's path:
`linkgraph.techniques.se`); ``--format jsonl`` writes one JSON object per puzzle instead
(``line``, ``puzzle``, ``er``, ``ep``, ``ed``, ``seconds``, ``solved``, ``steps``,
``hardest``, ``error``). Seconds are the process time of the worker that rated the
puzzle. Files run on all cores (``--workers``) or on a Dask cluster (``--scheduler``);
``--log F`` keeps a JSON Lines row per finished puzzle (with the ``max_level`` it was rated
at), and ``--resume`` reads those rows back instead of rating their puzzles again; a log of
another input, of a changed input or of another ``--max-level`` is refused (exit 2), never
mixed into the output.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from linkgraph.errors import OptionError, PuzzleFormatError
from linkgraph.io import PuzzleLine, check_output, parse_line, read_puzzles
from linkgraph.limits import check_seconds
from linkgraph.research.batch import iter_batch
from linkgraph.research.output import Progress, count_puzzles, cut_torn_tail
from linkgraph.research.runner import interrupt_on_sigterm

__all__ = ["add_parser", "run"]

_KEYS = ("line", "puzzle", "er", "ep", "ed", "seconds", "solved", "steps", "hardest", "error")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rate", help="Sudoku Explainer's rating ER/EP/ED of every puzzle (serate)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("input", metavar="FILE|PUZZLE", help="a puzzle file (one puzzle a line), an 81-character puzzle, or -")
    p.add_argument("--format", choices=("text", "jsonl"), default="text", help="output format (default: text)")
    p.add_argument("--workers", type=int, help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address (tcp://host:8786)")
    p.add_argument("--timeout", type=float, metavar="S", help="give up a puzzle after S seconds (an error row)")
    p.add_argument("--log", metavar="F", help="append a JSON Lines row per finished puzzle to F")
    p.add_argument("--resume", action="store_true", help="with --log: take the puzzles already in F from it")
    p.add_argument("--progress", action="store_true", default=None,
                   help="show the progress line even when stderr is not a terminal")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N puzzle lines")
    p.add_argument("--max-level", type=int, default=5, choices=range(0, 6), metavar="0-5",
                   help="deepest nesting level of dynamic chains tried (default 5, SE's)")
    p.set_defaults(run=run)


def _text(row: dict) -> str:
    if row.get("error"):
        return f"{row['puzzle']} error: {row['error']}"
    return f"{row['puzzle']} {row['er']:.1f}/{row['ep']:.1f}/{row['ed']:.1f} {row['seconds']:.2f}s"


def _row(raw: dict) -> dict:
    return {k: raw.get(k) for k in _KEYS}


def _lines(args) -> tuple[list[PuzzleLine] | None, Path | None]:
    if args.input == "-":
        text = sys.stdin.read()
        return [parse_line(t, i) for i, t in enumerate(text.splitlines(), 1) if t.strip() and not t.startswith("#")], None
    path = Path(args.input)
    if os.path.isfile(path):  # (False for a name no file can have)
        return None, path
    if len(args.input.strip()) >= 16 and not path.suffix:
        return [parse_line(args.input, 1)], None
    raise PuzzleFormatError(f"{args.input}: neither a file nor a puzzle")


def _logged(args) -> dict[int, dict]:
    """The rows of ``--log`` by line number, for ``--resume``; a torn last row is rated again.

    A row rated with another ``--max-level`` is refused: its rating would not be this run's.
    """
    path = Path(args.log)
    if not path.is_file():
        return {}
    data = path.read_bytes()
    texts = data[: data.rfind(b"\n") + 1].decode("utf-8", errors="replace").splitlines()
    # (a last line without its newline is the row being written when the last run stopped)
    done: dict[int, dict] = {}
    for number, text in enumerate(texts, 1):
        try:
            row = json.loads(text)
            line = int(row["line"])
            str(row["puzzle"])
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"--resume: {args.log} line {number}: not a row of linkgraph rate") from None
        level = row.get("max_level", args.max_level)
        if level != args.max_level:
            raise OptionError(f"--resume: {args.log} line {number}: rated with --max-level {level}, "
                              f"this run asks for {args.max_level}")
        done[line] = row
    return done


def _same_puzzle(row: dict, line: PuzzleLine) -> bool:
    """Whether a logged row is of `line`'s puzzle (long puzzles are logged cut short)."""
    logged = str(row.get("puzzle"))
    if logged == line.puzzle:
        return True
    head, sep, tail = logged.partition("... (")
    return bool(sep) and tail == f"{len(line.puzzle)} characters)" and line.puzzle.startswith(head)


def run(args: argparse.Namespace) -> int:
    if args.workers is not None and args.workers < 1:
        raise OptionError(f"--workers: expected a positive number, found {args.workers}")
    if args.resume and not args.log:
        raise OptionError("--resume needs --log F")
    if args.limit is not None and args.limit < 1:
        raise OptionError(f"--limit: expected a positive number, found {args.limit}")
    check_seconds("--timeout", args.timeout)  # nan and inf too
    if args.log:
        check_output(args.log, option="--log")  # before any work
    given, path = _lines(args)
    done = _logged(args) if args.resume else {}
    lines = given if given is not None else list(read_puzzles(path, limit=args.limit))
    if given is not None and args.limit:
        lines = lines[: args.limit]
    for line in lines:
        row = done.get(line.number)
        if row is not None and not _same_puzzle(row, line):
            raise OptionError(f"--resume: {args.log} holds line {line.number} of another puzzle "
                              f"({row.get('puzzle')!s:.20}..., here {line.puzzle:.20}...): "
                              "the log belongs to another input, or the input changed")
    todo = [ln for ln in lines if ln.number not in done]
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    progress = Progress(len(lines), sys.stderr) if show and len(lines) > 1 else None
    if args.log and Path(args.log).is_file():
        cut_torn_tail(Path(args.log))  # appended rows start on a line of their own
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    options = {"max_level": args.max_level}
    bad = 0
    out = sys.stdout
    try:
        with interrupt_on_sigterm():
            rows = iter_batch(todo, "rate", options=options, workers=args.workers or (1 if len(todo) < 2 else None),
                              timeout=args.timeout, scheduler=args.scheduler, times=False, chunksize=1)
            fresh = {}
            count = 0
            it = iter(rows)
            for line in lines:
                if line.number in done:
                    row = _row(done[line.number])
                else:
                    row = _row(next(it))
                    fresh[line.number] = row
                    if log is not None:
                        log.write(json.dumps({**row, "max_level": args.max_level}) + "\n")
                        log.flush()
                if row.get("error"):
                    bad += 1
                out.write((json.dumps(row) if args.format == "jsonl" else _text(row)) + "\n")
                out.flush()
                count += 1
                if progress is not None:
                    progress.update(count, len(fresh))
            if progress is not None:
                progress.close(count, len(fresh))
    finally:
        if log is not None:
            log.close()
    if bad:  # rows of the report, as in batch and verify: the run says so and exits 1 (2 is for bad input)
        print(f"linkgraph rate: {bad} of {count} puzzles not rated (error rows)", file=sys.stderr)
        return 1
    return 0
