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
like ``batch --job solve``, after a first line naming the file, ladder and
sample), flushed each time, so ``examples/rating_study.py`` reads it too. ``--resume``
reads the log back, counts its puzzles into the report without checking them
again and carries on with the rest, so a sweep stopped by Ctrl-C, SIGTERM or a
lost machine loses at most the puzzles in flight. ``--progress`` shows the
progress line (puzzles done of the sample, rate, time left) even when stderr
is not a terminal, as a new line every 30 seconds. ``--timeout S`` bounds each puzzle: one not checked within
S seconds is a failed row (``timeout``) and the sweep goes on.
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from linkgraph.cli.common import emit_json
from linkgraph.errors import LinkgraphError, OptionError, ProofError
from linkgraph.io import read_puzzles

_COUNTS = ("puzzles", "solved", "bad_lines", "steps", "placements", "eliminations", "unsound", "rejected", "crashed",
           "timeouts")


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
    timeouts: int = 0
    seconds: float = 0.0
    resumed: int = 0  # puzzles read back from a log, not checked by this run
    check_seconds: float = 0.0  # each puzzle's own time (in its worker), resumed ones included
    techniques: Counter = field(default_factory=Counter)
    failures: list[dict] = field(default_factory=list)
    # one puzzle's report only: the file's rating column and the solve path's rating
    rating: float | None = None
    solver_rating: float | None = None

    @property
    def failed(self) -> int:
        return self.unsound + self.rejected + self.bad_lines + self.crashed + self.timeouts

    def fail(self, line: int, what: str, message: str, step: int | None = None, technique: str | None = None) -> None:
        self.failures.append(
            {"line": line, "kind": what, "step": step, "technique": technique, "message": message}
        )

    def merge(self, other: _Report) -> None:
        """Add the counts and failures of `other` (one puzzle's report) to this one."""
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.check_seconds += other.seconds
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
            "timeouts": self.timeouts,
            "seconds": round(self.seconds, 3),
            "check_seconds": round(self.check_seconds, 3),
            "resumed": self.resumed,
            "techniques": dict(sorted(self.techniques.items())),
            "failures": self.failures[:show],
            "ok": self.failed == 0,
        }

    def row(self, line: int) -> dict:
        """This one-puzzle report as a log row."""
        out = {"line": line}
        out.update((name, getattr(self, name)) for name in _COUNTS)
        out["seconds"] = round(self.seconds, 3)
        out["rating"] = self.rating
        out["solver_rating"] = self.solver_rating
        out["techniques"] = dict(sorted(self.techniques.items()))
        out["failures"] = self.failures
        return out

    @classmethod
    def from_row(cls, row: dict) -> _Report:
        """A one-puzzle report read back from a log row."""
        one = cls(file="", ladder="")
        for name in _COUNTS:
            setattr(one, name, int(row[name]))
        one.seconds = float(row["seconds"])
        one.techniques = Counter(row["techniques"])
        one.failures = list(row["failures"])
        return one


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
    from linkgraph.check.checker import check_step

    result = solve(grid, ladder=ladder)
    report.solved += bool(result.solved)
    report.solver_rating = result.rating
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


def _check_line(pl, ladder, timeout: float | None = None) -> _Report:
    """One puzzle line's report: a bad line, an error, a time-out, or its checked steps."""
    from linkgraph.research.runner import Deadline, JobTimeout

    def row() -> _Report:
        report = _Report(file="", ladder="", rating=pl.rating)
        report.puzzles = 1
        return report

    t0 = time.perf_counter()
    report = row()
    try:
        try:
            with Deadline(timeout):
                _check_grid(pl, ladder, report)
        except JobTimeout:  # the row counts the time-out only, never a half-checked solve
            report = row()
            report.timeouts = 1
            report.fail(pl.number, "timeout", f"not checked within {timeout:g} s (--timeout)")
    except JobTimeout:  # the alarm fired between the check's end and the deadline's exit
        pass
    report.seconds = time.perf_counter() - t0
    return report


def _check_grid(pl, ladder, report: _Report) -> None:
    from linkgraph.oracle import solve_unique

    try:
        grid = pl.grid()
        solution = solve_unique(grid)
    except LinkgraphError as exc:
        report.bad_lines += 1
        report.fail(pl.number, "bad line", f"{type(exc).__name__}: {exc}")
        return
    try:
        check_puzzle(grid, solution, ladder=ladder, report=report, line=pl.number)
    except LinkgraphError as exc:
        report.crashed += 1
        report.fail(pl.number, "error", f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a bug in a technique: report it as a row, keep sweeping
        report.crashed += 1
        report.fail(pl.number, "crash", f"{type(exc).__name__}: {exc}")


def _check_job(item):
    pl, ladder, timeout = item
    return pl.number, _check_line(pl, ladder, timeout)


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


def _read_log(path: Path, header: dict) -> list[dict] | None:
    """The rows of a verify log written for the same sweep as `header` (None: the log has no header yet).

    A torn last line (a run stopped while writing it) is cut off the file, but
    only once the rest has been read back and found to be this sweep's.
    """
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    lines = data[:end].decode("utf-8", errors="replace").splitlines()
    if not lines:
        rows = None
    else:
        try:
            first = json.loads(lines[0])["verify"]
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"--resume: {path} is not a linkgraph verify log (line 1)") from None
        for key, value in header["verify"].items():
            if first.get(key) != value:
                raise OptionError(f"--resume: {path} was written for {key} {first.get(key)!r}, "
                                  f"this run has {key} {value!r}")
        rows = []
        for k, text in enumerate(lines[1:], 2):
            try:
                row = json.loads(text)
                _Report.from_row(row)
                int(row["line"])
            except (ValueError, KeyError, TypeError):
                raise OptionError(f"--resume: {path} line {k} is not a verify row") from None
            rows.append(row)
    if end < len(data):
        with open(path, "r+b") as fh:
            fh.truncate(end)
    return rows


def _sample_size(path, start: int, every: int, limit: int | None) -> int:
    n = sum(1 for _ in read_puzzles(path, start=start))
    n = math.ceil(n / every)
    return min(n, limit) if limit is not None else n


def _interrupt(signum, frame):  # noqa: ARG001
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    from linkgraph.research.output import Progress
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
    if args.timeout is not None and not args.timeout > 0:
        raise OptionError(f"--timeout: expected a positive number of seconds, found {args.timeout}")
    if args.resume and not args.log:
        raise OptionError("--resume needs --log FILE")
    resolve_ladder(args.ladder)  # UnknownTechniqueError before any work
    report = _Report(file=str(args.file), ladder=args.ladder or "default")
    lines = read_puzzles(args.file, start=args.start)  # a missing file fails here, before the log is touched
    header = {"verify": {"file": str(Path(args.file).resolve()), "ladder": report.ladder, "start": args.start,
                         "every": args.every, "limit": args.limit}}
    log_path = Path(args.log) if args.log else None
    rows = _read_log(log_path, header) if args.resume and log_path.is_file() else None
    done = set()
    for row in rows or ():
        report.merge(_Report.from_row(row))
        done.add(int(row["line"]))
    report.resumed = len(rows or ())
    lines = (pl for i, pl in enumerate(lines) if i % args.every == 0)
    if args.limit is not None:
        lines = (pl for pl, _ in zip(lines, range(args.limit)))
    if done:
        lines = (pl for pl in lines if pl.number not in done)
    show = args.progress or sys.stderr.isatty()
    progress = Progress(_sample_size(args.file, args.start, args.every, args.limit), sys.stderr) if show else None
    log = None
    if log_path is not None:
        log = open(log_path, "a" if rows is not None else "w", encoding="utf-8")
        if rows is None:
            log.write(json.dumps(header) + "\n")
            log.flush()
    old = signal.signal(signal.SIGTERM, _interrupt) if threading.current_thread() is threading.main_thread() else None
    t0 = time.perf_counter()
    new = 0
    pool = None
    try:
        if args.workers == 1:
            reports = ((pl.number, _check_line(pl, args.ladder, args.timeout)) for pl in lines)
        else:
            from concurrent.futures import ProcessPoolExecutor

            pool = ProcessPoolExecutor(max_workers=args.workers)
            reports = _ordered(pool, ((pl, args.ladder, args.timeout) for pl in lines), 4 * args.workers)
        for number, one in reports:  # in file order, whatever the worker count
            report.merge(one)
            new += 1
            if log is not None:
                log.write(json.dumps(one.row(number), ensure_ascii=False) + "\n")
                log.flush()
            if progress is not None:
                progress.update(report.puzzles, new)
    except KeyboardInterrupt:
        where = f"; {args.log} holds {report.puzzles} of them, --resume carries on" if log is not None else ""
        lead = "\n" if progress is not None and progress.tty else ""
        print(f"{lead}linkgraph verify: stopped after {report.puzzles} puzzles{where}", file=sys.stderr)
        return 130
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if log is not None:
            log.close()
        if old is not None:
            signal.signal(signal.SIGTERM, old)
    if progress is not None:
        progress.close(report.puzzles, new)
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
