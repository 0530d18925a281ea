"""``linkgraph batch FILE --job JOB``: run a job over every line of a puzzle file.

One row per input line, in input order, to ``--out`` (CSV, JSON Lines or Parquet by
suffix; stdout if omitted). Local processes on all cores by default; with
``--scheduler ADDRESS`` the same jobs run on a Dask distributed cluster and
give the same rows. Errors and time-outs are rows with an ``error`` column.
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.errors import OptionError
from linkgraph.research.batch import JOBS, run_batch
from linkgraph.research.runner import interrupt_on_sigterm


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("batch", help="run a job (solve, links, chains, nets, metrics) over a puzzle file",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("file", metavar="FILE", help="puzzle file, one puzzle a line")
    p.add_argument("--job", default="metrics",
                   help=f"job: {', '.join(JOBS)}, or module:function (default: metrics)")
    p.add_argument("--out", "-o", metavar="FILE", help="output file, .csv, .jsonl or .parquet (default: CSV on stdout)")
    p.add_argument("--format", choices=("csv", "jsonl", "parquet"), help="output format (default: from --out's suffix)")
    p.add_argument("--workers", type=int, help="local worker processes (default: all cores)")
    p.add_argument("--timeout", type=float, metavar="S", help="time limit per puzzle in seconds")
    p.add_argument("--resume", action="store_true", help="keep the rows already in --out and carry on after them")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N puzzle lines")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address (tcp://host:8786)")
    p.add_argument("--no-times", dest="times", action="store_false", help="leave out the time_s column")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show the progress line even when stderr is not a terminal (then a line every 30 s)")
    p.add_argument("--chunksize", type=int, default=8, help="puzzles per task (default: 8)")
    p.add_argument("--ladder", help="ladder spec for --job solve (default: default)")
    p.add_argument("--position", choices=("basic", "start"),
                   help="position to measure: after the basic ladder (default) or as given")
    p.add_argument("--families", help="link families for link graphs, comma list (cell,house,group,als)")
    p.add_argument("--als-max-size", type=int, help="largest ALS for link graphs")
    p.add_argument("--depth", type=int, help="forcing-net depth for --job nets")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.workers is not None and args.workers < 1:
        raise OptionError(f"--workers: expected a positive number, found {args.workers}")
    options = {k: getattr(args, k) for k in ("ladder", "position", "families", "als_max_size", "depth")
               if getattr(args, k) is not None}
    # SIGTERM stops the run like Ctrl-C: finished rows are written, --resume carries on.
    with interrupt_on_sigterm():
        summary = run_batch(
            args.file, args.job, out=args.out, fmt=args.format, options=options, workers=args.workers,
            timeout=args.timeout, resume=args.resume, limit=args.limit, scheduler=args.scheduler,
            times=args.times, progress=args.progress, chunksize=args.chunksize,
        )
    if args.out is not None:
        note = f", {summary.skipped} kept from before" if summary.skipped else ""
        print(
            f"linkgraph batch: {summary.rows} rows ({summary.errors} errors, {summary.timeouts} time-outs{note}) "
            f"in {summary.seconds:.1f} s, {summary.rate:.1f} puzzles/s -> {args.out}",
            file=sys.stderr,
        )
    return 0
