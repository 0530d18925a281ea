"""``linkgraph verify FILE``: the soundness sweep.

Solves every puzzle of a file with the technique ladder and checks every step
twice: against the puzzle's unique solution (a placement must be the solution
digit, an elimination must not be) and with the independent proof checker
(`linkgraph.verify.check_step`). Prints the counts and the first failures;
exits 1 when any step fails or any line cannot be checked (a bad line, a
puzzle without a unique solution), 0 otherwise. A bad line is a row of the
report, never a crash. ``--every N`` checks an evenly spread sample (every Nth
puzzle line); ``--workers N`` checks puzzles in N processes (the report is the
same as with one).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from linkgraph.commands.common import emit_json
from linkgraph.errors import LinkgraphError, OptionError, ProofError
from linkgraph.io import read_puzzles


@dataclass
class _Report:
    file: str
    ladder: str
    puzzles: int = 0
    solved: int = 0
    bad_lines: int = 0
    steps: int = 0
    placements: int = 0
    eliminations: int = 0
    unsound: int = 0
    rejected: int = 0
    crashed: int = 0
    seconds: float = 0.0
    techniques: Counter = field(default_factory=Counter)
    failures: list[dict] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return self.unsound + self.rejected + self.bad_lines + self.crashed

    def fail(self, line: int, what: str, message: str, step: int | None = None, technique: str | None = None) -> None:
        self.failures.append(
            {"line": line, "kind": what, "step": step, "technique": technique, "message": message}
        )

    def merge(self, other: _Report) -> None:
        """Add the counts and failures of `other` (one puzzle's report) to this one."""
        for name in ("puzzles", "solved", "bad_lines", "steps", "placements", "eliminations",
                     "unsound", "rejected", "crashed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.techniques.update(other.techniques)
        self.failures.extend(other.failures)

    def to_dict(self, show: int) -> dict:
        return {
            "file": self.file,
            "ladder": self.ladder,
            "puzzles": self.puzzles,
            "solved": self.solved,
            "bad_lines": self.bad_lines,
            "steps": self.steps,
            "placements": self.placements,
            "eliminations": self.eliminations,
            "unsound": self.unsound,
            "rejected": self.rejected,
            "crashed": self.crashed,
            "seconds": round(self.seconds, 3),
            "techniques": dict(sorted(self.techniques.items())),
            "failures": self.failures[:show],
            "ok": self.failed == 0,
        }


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="solve every puzzle of a file and check every step (solution and proof)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument("file", metavar="FILE", help="puzzle file, one puzzle a line")
    p.add_argument("--ladder", default=None, help="technique ladder: default, basic, all or a comma list")
    p.add_argument("--limit", type=int, default=None, help="check only the first N puzzles")
    p.add_argument("--start", type=int, default=0, help="skip the first N puzzles")
    p.add_argument("--every", type=int, default=1, help="check every Nth puzzle only (an even sample)")
    p.add_argument("--workers", type=int, default=1, help="processes to check puzzles in (default 1)")
    p.add_argument("--show", type=int, default=10, help="print at most N failures (default 10)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.set_defaults(run=run)


def _unsound(step, solution, g) -> str | None:
    """Why `step` contradicts the solution, or None."""
    for cand in sorted(step.placements):
        value = int(solution[g.cell_index(cand.cell)])
        if value != cand.digit:
            return f"places {cand} but the solution has {value} there"
    for cand in sorted(step.eliminations):
        if int(solution[g.cell_index(cand.cell)]) == cand.digit:
            return f"eliminates {cand}, the solution digit"
    return None


def check_puzzle(grid, solution, *, ladder, report: _Report, line: int) -> None:
    """Solve `grid` and check each of its steps into `report`."""
    from linkgraph.solver import solve
    from linkgraph.verify import check_step

    result = solve(grid, ladder=ladder)
    report.solved += bool(result.solved)
    current = grid
    g = grid.geometry
    for i, step in enumerate(result.steps, 1):
        report.steps += 1
        report.placements += len(step.placements)
        report.eliminations += len(step.eliminations)
        report.techniques[step.technique] += 1
        problem = _unsound(step, solution, g)
        if problem:
            report.unsound += 1
            report.fail(line, "unsound", f"{step}: {problem}", i, step.technique)
            return  # later steps build on a wrong grid
        try:
            check_step(current, step)
        except ProofError as exc:
            report.rejected += 1
            report.fail(line, "rejected", str(exc), i, step.technique)
        current = current.apply(step)


def _check_line(pl, ladder) -> _Report:
    """One puzzle line's report: a bad line, an error, or its checked steps."""
    from linkgraph.oracle import solve_unique

    report = _Report(file="", ladder="")
    report.puzzles = 1
    try:
        grid = pl.grid()
        solution = solve_unique(grid)
    except LinkgraphError as exc:
        report.bad_lines += 1
        report.fail(pl.number, "bad line", f"{type(exc).__name__}: {exc}")
        return report
    try:
        check_puzzle(grid, solution, ladder=ladder, report=report, line=pl.number)
    except LinkgraphError as exc:
        report.crashed += 1
        report.fail(pl.number, "error", f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a bug in a technique: report it as a row, keep sweeping
        report.crashed += 1
        report.fail(pl.number, "crash", f"{type(exc).__name__}: {exc}")
    return report


def _check_job(item):
    pl, ladder = item
    return _check_line(pl, ladder)


def _ordered(pool, items, window: int):
    """`pool.map(_check_job, items)` with at most `window` puzzles in flight (bounded memory)."""
    from collections import deque

    pending: deque = deque()
    for item in items:
        pending.append(pool.submit(_check_job, item))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def run(args: argparse.Namespace) -> int:
    from linkgraph.techniques import resolve_ladder

    if args.limit is not None and args.limit < 1:
        raise OptionError(f"--limit: expected a positive number, found {args.limit}")
    if args.start < 0:
        raise OptionError(f"--start: expected 0 or more, found {args.start}")
    if args.show < 0:
        raise OptionError(f"--show: expected 0 or more, found {args.show}")
    if args.every < 1:
        raise OptionError(f"--every: expected a positive number, found {args.every}")
    if args.workers < 1:
        raise OptionError(f"--workers: expected a positive number, found {args.workers}")
    resolve_ladder(args.ladder)  # UnknownTechniqueError before any work
    report = _Report(file=str(args.file), ladder=args.ladder or "default")
    t0 = time.perf_counter()
    tty = sys.stderr.isatty()
    lines = read_puzzles(args.file, start=args.start)
    lines = (pl for i, pl in enumerate(lines) if i % args.every == 0)
    if args.limit is not None:
        lines = (pl for pl, _ in zip(lines, range(args.limit)))
    if args.workers == 1:
        reports = (_check_line(pl, args.ladder) for pl in lines)
        pool = None
    else:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=args.workers)
        reports = _ordered(pool, ((pl, args.ladder) for pl in lines), 4 * args.workers)
    try:
        for one in reports:  # in file order, whatever the worker count
            report.merge(one)
            if tty and report.puzzles % 20 == 0:
                print(f"\rverify: {report.puzzles} puzzles, {report.steps} steps", end="", file=sys.stderr)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    if tty:
        print("\r", end="", file=sys.stderr)
    report.seconds = time.perf_counter() - t0
    if args.format == "json":
        emit_json(report.to_dict(args.show))
    else:
        _print_text(report, args.show)
    return 1 if report.failed else 0


def _print_text(report: _Report, show: int) -> None:
    r = report
    print(f"file: {r.file}  ladder: {r.ladder}")
    print(
        f"puzzles {r.puzzles} (solved {r.solved}, bad lines {r.bad_lines}), steps {r.steps}, "
        f"placements {r.placements}, eliminations {r.eliminations}, {r.seconds:.1f} s"
    )
    print(f"unsound steps {r.unsound}, rejected proofs {r.rejected}, errors {r.crashed}")
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
