"""``linkgraph bench FILE``: time the engine's jobs over a puzzle file.

Each job is timed per puzzle with ``time.perf_counter`` (wall time), or with
``--clock process`` with ``time.process_time`` (the process's CPU time, which other
programs busy on the same cores do not inflate); the report gives puzzles per second,
mean, median and 90th percentile milliseconds. Jobs that
search a position (links, chains, nets) first apply the basic ladder, outside
the timed part, as the issues define their benchmarks; positions the basic
ladder already solved have nothing to search and are left out (the report
counts them). Before any timing the compiled chain and net kernels are loaded
(`linkgraph.solver.warm_up`), as a process's first search would load them, and the
objects alive then (imports, numba's among them) are kept out of the collector's way
while the jobs run (`gc.freeze`): the jobs' own garbage collections are timed, not those
of the set-up (numba's many objects made each full collection during `links` cost about
10 ms more).

Jobs:

- ``oracle``: find up to two solutions (uniqueness check) by search;
- ``basic`` / ``solve``: the solve path with the basic / default ladder;
- ``links`` / ``links-noals``: link graph plus implication graph, with and
  without ALS nodes;
- ``chain-search``: one complete forcing-chain search (three variants, every
  premise, group and ALS links), its results ranked but no proofs built;
- ``chain-first``: the search plus the first step with its proof (what the
  solver pays per step);
- ``chains``: every forcing-chain step with its proof and notation;
- ``net-search``, ``net-first``, ``nets``: the same for depth-0 forcing nets
  (every candidate ON and OFF).

``--against larsdoku`` times whole solves side by side with another logic solver
instead (`linkgraph.research.race`): both solve the same puzzles in one run,
alternating puzzle by puzzle, timed in process time, each answer checked against the
unique solution. Without FILE it runs the two samples of the issue that set the goal:
40 evenly spaced top1465 puzzles and 20 evenly spaced lines of the shipped SE 11+
sample (hardest_1905_sample); ``--sample K`` takes K evenly spaced puzzles instead
(``--sample 0``: every puzzle), ``--repeat R`` times each puzzle R times per solver
and keeps the least. It prints the ratio table (linkgraph / the other solver).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from linkgraph.cli.common import emit_json
from linkgraph.errors import LinkgraphError, OptionError, check_choice
from linkgraph.grid import Grid
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.limits import check_count

JOBS = (
    "oracle", "basic", "solve", "links", "links-noals",
    "chain-search", "chain-first", "chains", "net-search", "net-first", "nets",
)

#: The clocks a bench can time its jobs by: ``wall`` (`time.perf_counter`) and ``process``
#: (`time.process_time`).
CLOCKS = ("wall", "process")


def _job(name: str) -> tuple[Callable[[Grid], Grid] | None, Callable[[Grid], object]]:
    """(untimed preparation, timed work) for a job name."""
    if name == "oracle":
        from linkgraph.oracle import solutions

        return None, lambda g: solutions(g, limit=2)
    if name == "basic":
        from linkgraph.solver import solve

        return None, lambda g: solve(g, ladder="basic")
    if name == "solve":
        from linkgraph.solver import solve

        return None, lambda g: solve(g, ladder="default")
    from linkgraph.solver import prepare

    if name == "links":
        from linkgraph.graph.implication import implication_graph
        from linkgraph.graph.links import link_graph

        return prepare, lambda g: implication_graph(link_graph(g))
    if name == "links-noals":
        from linkgraph.graph.implication import implication_graph
        from linkgraph.graph.links import link_graph

        return prepare, lambda g: implication_graph(link_graph(g, families=("cell", "house", "group")))
    if name == "chain-search":
        from linkgraph.chains.search import chain_search

        return prepare, lambda g: chain_search(g).results()
    if name == "chain-first":
        from linkgraph.chains.steps import forcing_chains

        return prepare, lambda g: next(forcing_chains(g), None)
    if name == "net-search":
        from linkgraph.nets.search import net_search

        return prepare, lambda g: net_search(g, start="both", depth=0)
    if name == "net-first":
        from linkgraph.nets.search import forcing_nets

        return prepare, lambda g: next(forcing_nets(g, start="both", depth=0), None)
    if name == "chains":
        from linkgraph.chains.steps import forcing_chains

        return prepare, lambda g: list(forcing_chains(g))
    if name == "nets":
        from linkgraph.nets.search import forcing_nets

        return prepare, lambda g: list(forcing_nets(g, start="both", depth=0))
    raise OptionError(f"--job: unknown job {name!r}")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="time jobs (oracle, basic, solve, links, chains, nets) over a puzzle file")
    p.add_argument("file", metavar="FILE", nargs="?", help="puzzle file (default: the top1465 corpus)")
    p.add_argument("--job", default="oracle,basic", help=f"comma list of jobs: {', '.join(JOBS)} (default: oracle,basic)")
    p.add_argument("--limit", type=int, default=None, help="time only the first N puzzles")
    p.add_argument("--against", metavar="SOLVER", default=None,
                   help="time whole solves side by side with another solver: larsdoku (the bench extra)")
    p.add_argument("--sample", type=int, default=None, metavar="K",
                   help="with --against: K evenly spaced puzzles of each file (0: all; default 40 of top1465 "
                        "and 20 of the hardest sample without FILE, all of FILE)")
    p.add_argument("--repeat", type=int, default=1, metavar="R",
                   help="with --against: solve each puzzle R times per solver and keep the least (default 1)")
    p.add_argument("--clock", choices=CLOCKS, default="wall",
                   help="time each job by the wall clock (default) or by the process's CPU time "
                        "(steadier on a busy machine; --against always uses CPU time)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show the progress line even when stderr is not a terminal (then a line every 30 s)")
    p.set_defaults(run=run)


def _summary(name: str, times: list[float], errors: int) -> dict:
    ms = sorted(t * 1000 for t in times)
    total = sum(times)
    return {
        "job": name,
        "puzzles": len(ms),
        "errors": errors,
        "puzzles_per_second": round(len(ms) / total, 2) if total else None,
        "mean_ms": round(statistics.fmean(ms), 3) if ms else None,
        "median_ms": round(statistics.median(ms), 3) if ms else None,
        "p90_ms": round(ms[min(len(ms) - 1, int(0.9 * len(ms)))], 3) if ms else None,
        "total_s": round(total, 3),
    }


def _against(args: argparse.Namespace) -> int:
    from linkgraph.research.output import Progress
    from linkgraph.research.race import evenly_spaced, race, read_sample, rival

    if args.repeat < 1:
        raise OptionError(f"--repeat: expected a positive number, found {args.repeat}")
    if args.sample is not None and args.sample < 0:
        raise OptionError(f"--sample: expected 0 (all) or a positive number, found {args.sample}")
    if args.file:
        files = [(args.file, None)]
    else:
        files = [(corpus_path("top1465"), 40), (corpus_path("hardest_1905_sample"), 20)]
    if args.sample is not None:
        files = [(f, args.sample or None) for f, _ in files]
    samples = []
    for path, count in files:  # every file read and checked before the rival loads
        every = read_sample(path, None)
        puzzles = evenly_spaced(every, count)
        whole = len(every)
        what = f"all {whole}" if len(puzzles) == whole else f"{len(puzzles)} evenly spaced of {whole}"
        samples.append((f"{Path(path).stem}, {what}", puzzles))
    other = rival(args.against)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    races = []
    for label, puzzles in samples:
        line = Progress(len(puzzles), sys.stderr) if show else None
        if line is not None:
            print(f"{label}:", file=sys.stderr)
        races.append(race(puzzles, other, label=label, repeat=args.repeat,
                          progress=None if line is None else lambda d, t, line=line: line.update(d, d)))
        if line is not None:
            line.close(len(puzzles), len(puzzles))
    if args.format == "json":
        emit_json({"against": other.name, "version": other.version, "races": [r.to_dict() for r in races]})
        return 0
    note = f"min of {args.repeat} runs, " if args.repeat > 1 else ""
    print(f"linkgraph against {other.name} {other.version}: process time per solve ({note}alternating "
          "puzzle by puzzle in one run)")
    print(f"| work | linkgraph | {other.name} | ratio |")
    print("|---|---:|---:|---:|")
    for r in races:
        summary = r.summary()
        for stat in ("mean", "median"):
            row = summary[stat]
            print(f"| {r.label}, {stat} solve | {row['linkgraph_ms']:,.0f} ms | {row[f'{other.name}_ms']:,.0f} ms "
                  f"| {row['ratio']:.2f} |")
    for r in races:
        solved = r.summary()["solved"]
        print(f"solved by logic ({r.label}): linkgraph {solved['linkgraph']}/{len(r.puzzles)}, "
              f"{other.name} {solved[other.name]}/{len(r.puzzles)}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.against is not None:
        return _against(args)
    from linkgraph.research.output import Progress

    jobs = [j.strip() for j in args.job.split(",") if j.strip()]
    check_choice("--job", jobs, JOBS)
    check_count("--limit", args.limit, minimum=1)
    path = args.file or corpus_path("top1465")
    lines = list(read_puzzles(path, limit=args.limit))
    grids = []
    for line in lines:
        try:
            grids.append(line.grid())
        except LinkgraphError as exc:
            print(f"linkgraph bench: skipped {exc}", file=sys.stderr)
    from linkgraph.solver import warm_up

    warm_up()  # untimed: numba's compiled kernels load on a process's first search
    clock = time.process_time if args.clock == "process" else time.perf_counter
    results = []
    gc.freeze()  # the set-up's objects (numba's many among them) stay out of the jobs' collections
    try:
        for name in jobs:
            prep, work = _job(name)
            inputs = [prep(g) for g in grids] if prep else grids
            skipped = 0
            if prep:
                open_inputs = [g for g in inputs if not g.is_solved()]
                skipped, inputs = len(inputs) - len(open_inputs), open_inputs
            times, errors = [], 0
            show = args.progress if args.progress is not None else sys.stderr.isatty()
            line = Progress(len(inputs), sys.stderr) if show else None
            if line is not None:
                print(f"{name}:", file=sys.stderr)
            for i, g in enumerate(inputs, 1):
                t0 = clock()
                try:
                    work(g)
                except LinkgraphError:
                    errors += 1
                times.append(clock() - t0)
                if line is not None:
                    line.update(i, i)
            if line is not None:
                line.close(len(inputs), len(inputs))
            results.append({**_summary(name, times, errors), "solved_by_basic": skipped})
    finally:
        gc.unfreeze()
    if args.format == "json":
        emit_json({"file": str(path), "clock": args.clock, "results": results})
    else:
        print(f"file: {path}" + (" (process time)" if args.clock == "process" else ""))
        print(f"{'job':<13} {'puzzles':>8} {'per s':>9} {'mean ms':>9} {'median ms':>10} {'p90 ms':>9}")
        for r in results:
            print(
                f"{r['job']:<13} {r['puzzles']:>8} {r['puzzles_per_second']!s:>9} {r['mean_ms']!s:>9} "
                f"{r['median_ms']!s:>10} {r['p90_ms']!s:>9}"
            )
        left = [f"{r['job']} {r['solved_by_basic']}" for r in results if r["solved_by_basic"]]
        if left:
            print("left out, solved by the basic ladder: " + ", ".join(left))
    return 0
