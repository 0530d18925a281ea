"""``linkgraph compare FILE --ladder A --ladder B ...``: ladders side by side over one corpus.

Each ladder solves every puzzle of FILE (the ``solve`` batch job with path
metrics, on all cores); the report gives, per ladder, the solve rate, steps,
proof sizes, rating and time, and the link graph at three points of the path:
the puzzle, the position where the hardest step was found, and the end (for the
puzzles a ladder did not solve: a solved path ends on the solution, which has no
links, so those rows used to read all zero). With a rating column in FILE, each
ladder's Spearman rho with it is reported. A progress line on stderr, as batch shows.
``--out FILE.csv`` keeps the per-puzzle rows with a ``ladder`` column, ready
for ``linkgraph plot --by ladder``.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from typing import Any

from linkgraph.cli.common import emit_json
from linkgraph.errors import OptionError
from linkgraph.io import atomic_write, check_output, read_puzzles
from linkgraph.limits import check_count, check_seconds
from linkgraph.research.batch import connect, iter_batch
from linkgraph.research.jobs import CHECKPOINTS, PATH_METRICS, check_options
from linkgraph.research.output import Progress

#: (label, column, how) rows of the report; how is mean, max or sum over the puzzles.
SUMMARY: tuple[tuple[str, str, str], ...] = (
    ("steps (mean)", "steps", "mean"),
    ("eliminations (mean)", "eliminations", "mean"),
    ("rating (mean)", "solver_rating", "mean"),
    ("rating (max)", "solver_rating", "max"),
    ("chain steps (mean)", "chain_steps", "mean"),
    ("net steps (mean)", "net_steps", "mean"),
    ("proof size (mean of max)", "proof_size_max", "mean"),
    ("proof size (max)", "proof_size_max", "max"),
    ("unsolved cells left (mean)", "unsolved_cells", "mean"),
    ("time s (mean)", "time_s", "mean"),
    ("time s (total)", "time_s", "sum"),
    *((f"{c}{' (unsolved only)' if c == 'end' else ''}: {m} (mean)", f"{c}_{m}", "mean")
      for c in CHECKPOINTS for m in PATH_METRICS),
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="compare ladders over a puzzle file: solve rate, steps, proofs, links",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("file", metavar="FILE", help="puzzle file, one puzzle a line")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show the progress line even when stderr is not a terminal (then a line every 30 s)")
    p.add_argument("--ladder", action="append", required=True, metavar="SPEC",
                   help="a ladder spec (default, basic, all, or technique names); give two or more")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N puzzle lines")
    p.add_argument("--workers", type=int, help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address")
    p.add_argument("--timeout", type=float, metavar="S", help="time limit per puzzle and ladder")
    p.add_argument("--families", help="link families for the path metrics (default: cell,house,group)")
    p.add_argument("--out", "-o", metavar="FILE.csv", help="also write the per-puzzle rows here")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.set_defaults(run=run)


def _number(value: Any) -> float | None:
    if value is None or value == "" or isinstance(value, str):
        return None
    return float(value)


def summarize(rows: list[dict]) -> dict[str, Any]:
    """The per-ladder summary of its rows (rows with an error count as failures)."""
    ok = [r for r in rows if not r.get("error")]
    out: dict[str, Any] = {
        "puzzles": len(rows),
        "errors": len(rows) - len(ok),
        "solved": sum(1 for r in ok if r.get("solved")),
    }
    out["solve_rate"] = round(out["solved"] / len(rows), 4) if rows else 0.0
    for label, col, how in SUMMARY:
        vals = [v for v in (_number(r.get(col)) for r in ok) if v is not None]
        if not vals:
            out[label] = None
        elif how == "mean":
            out[label] = round(statistics.fmean(vals), 6)
        elif how == "max":
            out[label] = round(max(vals), 6)
        else:
            out[label] = round(sum(vals), 6)
    used: dict[str, int] = {}
    for r in ok:
        for k, v in r.items():
            if k.startswith("steps_") and v:
                used[k[6:]] = used.get(k[6:], 0) + int(v)
    out["techniques used"] = dict(sorted(used.items(), key=lambda kv: (-kv[1], kv[0])))
    return out


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def run(args: argparse.Namespace) -> int:
    if len(args.ladder) < 1:
        raise OptionError("--ladder: give at least one ladder")
    check_count("--limit", args.limit, minimum=1)
    check_count("--workers", args.workers, minimum=1)
    check_seconds("--timeout", args.timeout)
    if args.out:
        check_output(args.out, option="--out")
    option_sets = []
    for spec in args.ladder:  # every ladder and option checked before any work
        options: dict[str, Any] = {"ladder": spec, "path": True}
        if args.families:
            options["families"] = args.families
        check_options("solve", options)
        option_sets.append(options)
    lines = list(read_puzzles(args.file, limit=args.limit))
    client = None
    if args.scheduler is not None:
        client, _ = connect(args.scheduler)  # an unreachable scheduler fails here, before any work
    results: dict[str, list[dict]] = {}
    try:
        for spec, options in zip(args.ladder, option_sets, strict=True):
            show = args.progress if args.progress is not None else sys.stderr.isatty()
            line = Progress(len(lines), sys.stderr) if show else None
            if line is not None:
                print(f"ladder {spec}:", file=sys.stderr)
            rows = []
            for row in iter_batch(lines, "solve", options=options, workers=args.workers,
                                  scheduler=client, timeout=args.timeout):
                rows.append(row)
                if line is not None:
                    line.update(len(rows), len(rows))
            if line is not None:
                line.close(len(rows), len(rows))
            results[spec] = rows
    finally:
        if client is not None:
            client.close()
    summaries = {spec: summarize(rows) for spec, rows in results.items()}
    from linkgraph.research.figures import spearman

    for spec, rows in results.items():
        pairs = [(r.get("rating"), r.get("solver_rating")) for r in rows if not r.get("error") and r.get("solved")]
        pairs = [(float(a), float(b)) for a, b in pairs if a is not None and b is not None]
        rho = spearman([a for a, _ in pairs], [b for _, b in pairs]) if len(pairs) >= 3 else None
        summaries[spec]["spearman with the file's rating"] = None if rho is None or rho != rho else round(rho, 4)
    if args.out:
        _write_rows(args.out, results)
    if args.format == "json":
        emit_json({"file": str(args.file), "puzzles": len(lines),
                   "ladders": [{"ladder": spec, **s} for spec, s in summaries.items()]})
        return 0
    labels = ["puzzles", "errors", "solved", "solve_rate", "spearman with the file's rating",
              *(label for label, _, _ in SUMMARY)]
    width = max(len(x) for x in labels) + 2
    colw = max(12, *(len(s) + 2 for s in args.ladder))
    print(f"file: {args.file}  ({len(lines)} puzzles)")
    print(" " * width + "".join(f"{s:>{colw}}" for s in args.ladder))
    for label in labels:
        print(f"{label:<{width}}" + "".join(f"{_fmt(summaries[s][label]):>{colw}}" for s in args.ladder))
    for spec in args.ladder:
        used = summaries[spec]["techniques used"]
        print(f"techniques used by {spec}: " + (", ".join(f"{k} {v}" for k, v in used.items()) or "none"))
    return 0


def _write_rows(path: str, results: dict[str, list[dict]]) -> None:
    columns: list[str] = ["ladder"]
    for rows in results.values():
        for row in rows:
            for k in row:
                if k not in columns:
                    columns.append(k)
    with atomic_write(path, newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(columns)
        for spec, rows in results.items():
            for row in rows:
                full = {"ladder": spec, **row}
                w.writerow(["" if full.get(c) is None else full.get(c) for c in columns])
    print(f"linkgraph compare: rows -> {path}", file=sys.stderr)
