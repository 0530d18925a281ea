"""``linkgraph verify FILE``: the soundness sweep.

Solves every puzzle of a file with the technique ladder and checks every step
twice: against the puzzle's unique solution (a placement must be the solution
digit, an elimination must not be) and with the independent proof checker
(`linkgraph.check.checker.check_step`). Prints the counts and the first failures;
exits 1 when any step fails or any line cannot be checked (a bad line, a
puzzle without a unique solution), 0 otherwise. A bad line is a row of the
report, never a crash. ``--every N`` checks an evenly spread sample (every Nth
puzzle line); ``--workers N`` checks puzzles in N processes (the report is the
same as with one).

A long sweep can keep a log: ``--log FILE`` writes one JSON line per puzzle
as it is checked (its counts, techniques, failures and seconds, the file's
rating column and the solve path's rating as ``rating`` and ``solver_rating``
like ``batch --job solve``, after a first line naming the file, its sha256,
the ladder and the sample), flushed each time, to ``FILE.partial``, renamed onto
FILE when the sweep is complete; ``examples/rating_study.py`` reads it too.
``--resume`` reads the log back, counts its puzzles into the report without
checking them again and carries on with the rest, so a sweep stopped by Ctrl-C,
SIGTERM, ``kill -9`` or a lost machine loses at most the puzzles in flight; it
refuses a log of another file (or of the same file with other contents),
ladder or sample. ``--progress`` shows the
progress line (puzzles done of the sample, rate, time left) even when stderr
is not a terminal, as a new line every 30 seconds. ``--timeout S`` bounds each puzzle: one not checked within
S seconds is a failed row (``timeout``) and the sweep goes on.

The sweep itself is `linkgraph.research.soundness.sweep`; this module reads the
arguments and prints its report.
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import emit_json
from linkgraph.limits import check_count
from linkgraph.research.runner import interrupt_on_sigterm
from linkgraph.research.soundness import SweepInterrupted, SweepReport, sweep


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="solve every puzzle of a file and check every step (solution and proof)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument("file", metavar="FILE", help="puzzle file, one puzzle a line")
    p.add_argument("--ladder", default=None, help="technique ladder: default, basic, all, se or a comma list")
    p.add_argument("--limit", type=int, default=None, help="check only the first N puzzles")
    p.add_argument("--start", type=int, default=0, help="skip the first N puzzles")
    p.add_argument("--every", type=int, default=1, help="check every Nth puzzle only (an even sample)")
    p.add_argument("--workers", type=int, default=1, help="processes to check puzzles in (default 1)")
    p.add_argument("--timeout", type=float, metavar="S",
                   help="time limit per puzzle in seconds: a puzzle past it is a failed 'timeout' row")
    p.add_argument("--show", type=int, default=10, help="print at most N failures (default 10)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.add_argument("--log", metavar="LOG", help="write one JSON line per puzzle checked to LOG (JSON Lines)")
    p.add_argument("--resume", action="store_true",
                   help="read the puzzles already in --log back into the report and check only the rest")
    p.add_argument("--progress", action="store_true",
                   help="show the progress line even when stderr is not a terminal (then a line every 30 s)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_count("--show", args.show, minimum=0, none=False)
    try:
        with interrupt_on_sigterm():  # SIGTERM stops the sweep like Ctrl-C: the log keeps what is done
            report = sweep(args.file, ladder=args.ladder, start=args.start, every=args.every, limit=args.limit,
                           workers=args.workers, timeout=args.timeout, log=args.log, resume=args.resume,
                           progress=args.progress or None)
    except SweepInterrupted as stop:
        done = stop.report.puzzles
        where = f"; {stop.journal} holds {done} of them, --resume carries on" if stop.journal else ""
        lead = "\n" if sys.stderr.isatty() else ""  # end the progress line, shown on a terminal
        print(f"{lead}linkgraph verify: stopped after {done} puzzles{where}", file=sys.stderr)
        return 130
    if args.format == "json":
        emit_json(report.to_dict(args.show))
    else:
        _print_text(report, args.show)
    return 1 if report.failed else 0


def _print_text(report: SweepReport, show: int) -> None:
    r = report
    print(f"file: {r.file}  ladder: {r.ladder}")
    print(
        f"puzzles {r.puzzles} (solved {r.solved}, bad lines {r.bad_lines}), steps {r.steps}, "
        f"placements {r.placements}, eliminations {r.eliminations}, {r.seconds:.1f} s"
        + (f" ({r.resumed} puzzles read back from the log)" if r.resumed else "")
    )
    print(f"unsound steps {r.unsound}, rejected proofs {r.rejected}, errors {r.crashed}, time-outs {r.timeouts}")
    if r.techniques:
        width = max(map(len, r.techniques))
        for name, count in sorted(r.techniques.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {name:<{width}} {count:>8}")
    if r.failures:
        print(f"failures (first {min(show, len(r.failures))} of {len(r.failures)}):")
        for f in r.failures[:show]:
            where = f"line {f['line']}" + (f" step {f['step']}" if f["step"] else "")
            print(f"  {where}: {f['kind']}: {f['message']}")
    print("OK" if not r.failed else "FAILED")
