"""``linkgraph batch FILE --job JOB``: run a job over every line of a puzzle file.

One row per input line, in input order, to ``--out`` (CSV, JSON Lines or Parquet by
suffix; stdout if omitted). Local processes on all cores by default; with
``--scheduler ADDRESS`` the same jobs run on a Dask distributed cluster and
give the same rows. Errors and time-outs are rows with an ``error`` column;
a puzzle without exactly one solution is an error row unless ``--no-check``.

Every option is checked before any work. ``--out`` is written whole or not at
all: rows go to ``OUT.partial`` as they come and onto OUT when the run ends,
with ``OUT.meta.json`` naming the input's sha256, the job and its options.
``--resume`` carries on a stopped run (Ctrl-C, SIGTERM, ``kill -9``) from
``OUT.partial``, or extends a finished OUT; it refuses an output written for
another input, job or options. The run ends with a summary line on stderr
(rows, errors by kind) and exits 1 when no row succeeded.
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.research.batch import JOBS, BatchInterrupted, run_batch
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
    p.add_argument("--no-check", dest="check", action="store_false",
                   help="run the job on puzzles without exactly one solution too (by default they are error rows)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    options = {k: getattr(args, k) for k in ("ladder", "position", "families", "als_max_size", "depth")
               if getattr(args, k) is not None}
    if not args.check:
        options["check"] = False
    if args.job in ("oracle",):
        options.pop("check", None)  # the oracle job counts solutions: there is nothing to check
    # SIGTERM stops the run like Ctrl-C: finished rows stay in OUT.partial, --resume carries on.
    try:
        with interrupt_on_sigterm():
            summary = run_batch(
                args.file, args.job, out=args.out, fmt=args.format, options=options, workers=args.workers,
                timeout=args.timeout, resume=args.resume, limit=args.limit, scheduler=args.scheduler,
                times=args.times, progress=args.progress, chunksize=args.chunksize,
            )
    except BatchInterrupted as stop:
        where = f"; {stop.journal} holds them, --resume carries on" if stop.journal else ""
        lead = "\n" if sys.stderr.isatty() else ""  # end the progress line, shown on a terminal
        print(f"{lead}linkgraph batch: stopped after {stop.summary.rows} rows{where}", file=sys.stderr)
        return 130
    target = f" -> {args.out}" if args.out is not None else ""
    print(f"linkgraph batch: {summary.line()}{target}", file=sys.stderr)
    if not summary.ok:
        print("linkgraph batch: no row succeeded", file=sys.stderr)
        return 1
    return 0
