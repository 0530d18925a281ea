"""The soundness sweep behind ``linkgraph verify``: solve every puzzle of a file, check every step twice.

Each puzzle is solved with a technique ladder and each step is checked against
the puzzle's unique solution (a placement must be the solution digit, an
elimination must not be) and replayed by the independent proof checker
(`linkgraph.check.checker.check_step`) on the position it was found in. A line
that is not a puzzle, or a puzzle without a unique solution, is a failed row of
the report, never a crash; so is a technique that raises, and a puzzle not
checked within the time limit.

`sweep` runs over a file, or an evenly spread sample of it (every Nth puzzle
line), in one or more processes, and returns a `SweepReport`: the counts, the
techniques used and the failures, the same whatever the number of workers.
`check_line` checks one line.

A long sweep can keep a log: one JSON line per puzzle (its one-puzzle report as
`SweepReport.row`) after a first line naming the file, its sha256, the ladder,
the sample and the time limit, written and flushed as each puzzle is checked, in
file order. The log is written to ``LOG.partial`` and renamed onto ``LOG`` when
the sweep is complete, so ``LOG`` is either the old log or the complete new one.
With ``resume`` the sweep reads ``LOG.partial`` (or a finished ``LOG``) back,
refuses it if it was written for another file, contents, ladder or sample,
counts its puzzles into the report without checking them again and carries on
with the rest, so a sweep stopped by Ctrl-C, SIGTERM, ``kill -9`` or a lost
machine loses at most the puzzles in flight.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> tmp = tempfile.TemporaryDirectory()
>>> log = Path(tmp.name) / "sweep.jsonl"
>>> path = lg.io.corpus_path("euler96")
>>> report = lg.research.soundness.sweep(path, ladder="basic", limit=3, log=log, progress=False)
>>> report.puzzles, report.resumed, len(log.read_text().splitlines()), log.with_name("sweep.jsonl.partial").exists()
(3, 0, 4, False)
>>> again = lg.research.soundness.sweep(path, ladder="basic", limit=3, log=log, resume=True, progress=False)
>>> again.puzzles, again.resumed, again.steps == report.steps
(3, 3, True)
>>> tmp.cleanup()
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from pathlib import Path

from linkgraph import solver
from linkgraph.check import checker
from linkgraph.errors import LinkgraphError, OptionError, ProofError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.io import PuzzleLine, atomic_write, check_input, check_output, is_special, read_puzzles
from linkgraph.limits import check_count, check_seconds, hidden_time_out
from linkgraph.oracle import solve_unique
from linkgraph.research.output import (
    Progress, check_stamp, count_puzzles, cut_torn_tail, file_sha256, journal_path, promote_journal, refuse_journal,
)
from linkgraph.research.runner import Deadline, JobTimeout, hidden_interrupt, local_map
from linkgraph.steps import Step
from linkgraph.techniques import resolve_ladder

__all__ = ["COUNTS", "SweepInterrupted", "SweepReport", "check_line", "sweep"]

#: The counts of a report, summed over its puzzles (`SweepReport.merge`).
COUNTS = ("puzzles", "solved", "bad_lines", "steps", "placements", "eliminations", "unsound", "rejected", "crashed",
          "timeouts")


@dataclass
class SweepReport:
    """What a soundness sweep found, over a whole file or for one puzzle.

    Attributes
    ----------
    file, ladder : str
        The puzzle file and the ladder spec of the sweep (empty in a one-puzzle report).
    puzzles, solved, bad_lines : int
        Puzzle lines checked, puzzles solved, lines that are no proper puzzle.
    steps, placements, eliminations : int
        Steps checked and the candidates they placed and eliminated.
    unsound, rejected, crashed, timeouts : int
        The failures: steps that contradict the solution, proofs the checker
        rejects, solves that raised, puzzles not checked in time.
    seconds : float
        This run's wall time (a one-puzzle report: the puzzle's own time).
    resumed : int
        Puzzles read back from the log, not checked by this run.
    check_seconds : float
        The sum of the puzzles' own times (in their workers), resumed ones included.
    techniques : Counter
        Steps per technique name.
    failures : list of dict
        One per failure, in file order: ``line``, ``kind`` (``unsound``, ``rejected``,
        ``bad line``, ``error``, ``crash``, ``timeout``), ``step``, ``technique``, ``message``.
    rating, solver_rating : float or None
        A one-puzzle report only: the file's rating column and the solve path's rating.
    """

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
    resumed: int = 0
    check_seconds: float = 0.0
    techniques: Counter = field(default_factory=Counter)
    failures: list[dict] = field(default_factory=list)
    rating: float | None = None
    solver_rating: float | None = None

    @property
    def failed(self) -> int:
        """How many checks failed: unsound steps, rejected proofs, bad lines, errors and time-outs."""
        return self.unsound + self.rejected + self.bad_lines + self.crashed + self.timeouts

    def fail(self, line: int, what: str, message: str, step: int | None = None, technique: str | None = None) -> None:
        """Record a failure of kind `what` on puzzle line `line` (at step `step`, 1-based, if any)."""
        self.failures.append(
            {"line": line, "kind": what, "step": step, "technique": technique, "message": message}
        )

    def merge(self, other: SweepReport) -> None:
        """Add the counts and failures of `other` (one puzzle's report) to this one."""
        for name in COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.check_seconds += other.seconds
        self.techniques.update(other.techniques)
        self.failures.extend(other.failures)

    def to_dict(self, show: int) -> dict:
        """The report as JSON data (``linkgraph verify --format json``), with its first `show` failures."""
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
        out.update((name, getattr(self, name)) for name in COUNTS)
        out["seconds"] = round(self.seconds, 3)
        out["rating"] = self.rating
        out["solver_rating"] = self.solver_rating
        out["techniques"] = dict(sorted(self.techniques.items()))
        out["failures"] = self.failures
        return out

    @classmethod
    def from_row(cls, row: dict) -> SweepReport:
        """A one-puzzle report read back from a log row (KeyError, TypeError or ValueError if it is none)."""
        one = cls(file="", ladder="")
        for name in COUNTS:
            setattr(one, name, int(row[name]))
        one.seconds = float(row["seconds"])
        one.techniques = Counter(row["techniques"])
        one.failures = list(row["failures"])
        return one


class SweepInterrupted(KeyboardInterrupt):
    """A sweep stopped by Ctrl-C (or SIGTERM made one); `report` holds the puzzles finished before.

    Those puzzles are all in the log's journal `journal` (``LOG.partial``), if the
    sweep keeps a log, and a sweep with ``resume=True`` carries on after them.
    """

    def __init__(self, report: SweepReport, journal: Path | None = None):
        super().__init__(f"stopped after {report.puzzles} puzzles")
        self.report = report
        self.journal = journal


# ---- one puzzle ----------------------------------------------------------------------------


def _unsound(step: Step, solution, g: Geometry) -> str | None:
    """Why `step` contradicts the solution, or None."""
    for cand in sorted(step.placements):
        value = int(solution[g.cell_index(cand.cell)])
        if value != cand.digit:
            return f"places {cand} but the solution has {value} there"
    for cand in sorted(step.eliminations):
        if int(solution[g.cell_index(cand.cell)]) == cand.digit:
            return f"eliminates {cand}, the solution digit"
    return None


def _check_steps(grid: Grid, solution, *, ladder: str | None, report: SweepReport, line: int) -> None:
    """Solve `grid` and check each of its steps into `report`."""
    # solver and checker are looked up at each call, so a test can plant a faulty one
    result = solver.solve(grid, ladder=ladder)
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
            checker.check_step(current, step)
        except ProofError as exc:
            report.rejected += 1
            report.fail(line, "rejected", str(exc), i, step.technique)
        current = current.apply(step)


def _check_grid(pl: PuzzleLine, ladder: str | None, report: SweepReport) -> None:
    """Parse and solve the line's puzzle and check its steps into `report` (a bad line or a crash is a failure)."""
    try:
        grid = pl.grid()
        solution = solve_unique(grid)
    except LinkgraphError as exc:
        report.bad_lines += 1
        report.fail(pl.number, "bad line", f"{type(exc).__name__}: {exc}")
        return
    try:
        _check_steps(grid, solution, ladder=ladder, report=report, line=pl.number)
    except LinkgraphError as exc:
        report.crashed += 1
        report.fail(pl.number, "error", f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a bug in a technique: report it as a row, keep sweeping
        if hidden_time_out(exc) is not None:  # a time-out wrapped by compiled code: the deadline's, not a bug
            raise
        stop = hidden_interrupt(exc)
        if stop is not None:  # Ctrl-C or SIGTERM landing in a compiled call: stop the run, not a crash
            raise stop from None
        report.crashed += 1
        report.fail(pl.number, "crash", f"{type(exc).__name__}: {exc}")


def check_line(line: PuzzleLine, *, ladder: str | None = None, timeout: float | None = None) -> SweepReport:
    """Solve one puzzle line and check each of its steps against the solution and with the proof checker.

    Parameters
    ----------
    line : PuzzleLine
        A line of a puzzle file (`linkgraph.io.read_puzzles`, `linkgraph.io.parse_line`).
    ladder : str, optional
        The ladder spec to solve with: ``default`` (None), ``basic``, ``all``, ``se`` or
        technique names, comma-separated.
    timeout : float, optional
        Seconds the puzzle may take (no limit if None); past them the report counts
        the time-out only, never a half-checked solve.

    Returns
    -------
    SweepReport
        The one-puzzle report (``puzzles == 1``): a bad line, an error, a time-out, or
        the checked steps. It never raises for a bad puzzle or a failing technique.

    Examples
    --------
    >>> line = lg.io.parse_line(lg.samples.GNPX_FORCECHAIN, 1)
    >>> one = lg.research.soundness.check_line(line)
    >>> one.puzzles, one.solved, one.steps > 0, one.failed
    (1, 1, True, 0)
    >>> bad = lg.research.soundness.check_line(lg.io.parse_line("12x", 7))
    >>> bad.bad_lines, [(f["line"], f["kind"]) for f in bad.failures]
    (1, [(7, 'bad line')])
    """

    def fresh() -> SweepReport:
        report = SweepReport(file="", ladder="", rating=line.rating)
        report.puzzles = 1
        return report

    t0 = time.perf_counter()
    report = fresh()
    try:
        try:
            with Deadline(timeout):
                _check_grid(line, ladder, report)
        except JobTimeout:  # the row counts the time-out only, never a half-checked solve
            report = fresh()
            report.timeouts = 1
            report.fail(line.number, "timeout", f"not checked within {timeout:g} s (--timeout)")
    except JobTimeout:  # the alarm fired between the check's end and the deadline's exit
        pass
    report.seconds = time.perf_counter() - t0
    return report


def _numbered(line: PuzzleLine, *, ladder: str | None, timeout: float | None) -> tuple[int, SweepReport]:
    """The line number and `check_line`'s report; what a worker sends back."""
    return line.number, check_line(line, ladder=ladder, timeout=timeout)


# ---- the log -------------------------------------------------------------------------------


def _read_log(path: Path, header: dict) -> list[dict]:
    """The rows of a verify log (or its journal) written for the same sweep as `header`.

    A torn last line (a run stopped while writing it) is cut off the file, but
    only once the rest has been read back and found to be this sweep's.
    """
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    lines = data[:end].decode("utf-8", errors="replace").splitlines()
    if not lines:
        raise OptionError(f"--resume: {path} is empty, not a linkgraph verify log")
    try:
        first = json.loads(lines[0])["verify"]
        if not isinstance(first, dict):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise OptionError(f"--resume: {path} is not a linkgraph verify log (line 1)") from None
    check_stamp(first, header["verify"], str(path))
    rows = []
    for k, text in enumerate(lines[1:], 2):
        try:
            row = json.loads(text)
            SweepReport.from_row(row)
            int(row["line"])
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"--resume: {path} line {k} is not a verify row") from None
        rows.append(row)
    if end < len(data):
        cut_torn_tail(path)
    return rows


# ---- the sweep -----------------------------------------------------------------------------


def _sample(lines: Iterable[PuzzleLine], every: int, limit: int | None, done: set[int]) -> Iterator[PuzzleLine]:
    """Every `every`-th of `lines`, at most `limit` of them, less those whose numbers are `done`."""
    picked = (pl for i, pl in enumerate(lines) if i % every == 0)
    if limit is not None:
        picked = islice(picked, limit)
    return (pl for pl in picked if pl.number not in done)


def sweep(path: str | os.PathLike, *, ladder: str | Sequence[str] | None = None, start: int = 0, every: int = 1,
          limit: int | None = None, workers: int = 1, timeout: float | None = None,
          log: str | os.PathLike | None = None, resume: bool = False, progress: bool | None = None) -> SweepReport:
    """Solve the puzzles of the file `path` and check every step against the solution and with the proof checker.

    Parameters
    ----------
    path : str or path
        A puzzle file, one puzzle a line (`linkgraph.io.read_puzzles`).
    ladder : str or sequence of str, optional
        The ladder to solve with: ``default`` (None), ``basic``, ``all``, ``se`` or
        technique names (comma-separated, or a sequence).
    start : int, optional
        Puzzle lines to skip first.
    every : int, optional
        Check every `every`-th puzzle line of the rest only (an evenly spread sample).
    limit : int, optional
        Check at most this many puzzles of the sample.
    workers : int, optional
        Processes to check puzzles in (`linkgraph.research.runner.local_map`); the
        report is the same as with one.
    timeout : float, optional
        Seconds each puzzle may take; a puzzle past them is a failed row (``timeouts``).
    log : str or path, optional
        Write one JSON line per puzzle as it is checked, after a header line naming
        the file, its sha256, the ladder, the sample and the time limit: to
        ``LOG.partial`` as the sweep goes, renamed onto `log` when it is complete.
    resume : bool, optional
        Read the puzzles already in ``LOG.partial`` (or a finished `log`) back into
        the report and check only the rest (needs `log`; a log of another sweep, or
        of a file whose contents changed, is refused). Without it an existing
        ``LOG.partial`` is refused rather than overwritten.
    progress : bool, optional
        Show the progress line on stderr (`linkgraph.research.output.Progress`);
        by default only when stderr is a terminal.

    Returns
    -------
    SweepReport
        The counts, techniques and failures of the whole sample, read-back puzzles included.

    Raises
    ------
    OptionError
        For a bad count, a bad time limit, a log path that cannot be written, `resume`
        without `log`, a log of another sweep, or a journal left without `resume`.
    UnknownTechniqueError
        For an unknown name in `ladder`, before any work.
    PuzzleFormatError
        When `path` is no file, before the log is touched.
    SweepInterrupted
        On Ctrl-C (or SIGTERM under `linkgraph.research.runner.interrupt_on_sigterm`)
        while puzzles are being checked; its ``report`` holds those finished, all logged.

    Examples
    --------
    >>> report = lg.research.soundness.sweep(lg.io.corpus_path("euler96"), ladder="basic", every=10, progress=False)
    >>> report.puzzles, report.solved, report.unsound, report.rejected, report.failed
    (5, 5, 0, 0, 0)
    """
    check_count("--limit", limit, minimum=1)
    check_count("--start", start, minimum=0, none=False)
    check_count("--every", every, minimum=1, none=False)
    check_count("--workers", workers, minimum=1, none=False)
    check_seconds("--timeout", timeout)
    if resume and not log:
        raise OptionError("--resume needs --log FILE")
    if ladder is not None and not isinstance(ladder, str):
        ladder = ",".join(ladder)
    resolve_ladder(ladder)  # UnknownTechniqueError before any work
    report = SweepReport(file=str(path), ladder=ladder or "default")
    path = check_input(path)  # a missing file fails here, before the log is touched
    log_path = check_output(log, option="--log") if log else None
    rows: list[dict] = []
    journal = None
    direct = None  # a device or a pipe (/dev/null): the log goes straight there, nothing to resume
    if log_path is not None and is_special(log_path):
        if resume:
            raise OptionError(f"--resume: {log_path} is not a regular file: there is nothing to resume")
        direct, log_path = log_path, None
    if log_path is not None:
        header = {"verify": {"file": str(path.resolve()), "sha256": file_sha256(path), "ladder": report.ladder,
                             "start": start, "every": every, "limit": limit, "timeout": timeout}}
        journal = journal_path(log_path)
        if not resume:
            refuse_journal(log_path)
        elif journal.is_file():
            rows = _read_log(journal, header)
        elif log_path.is_file():
            rows = _read_log(log_path, header)
    lines = read_puzzles(path, start=start)
    done = set()
    for row in rows:
        report.merge(SweepReport.from_row(row))
        done.add(int(row["line"]))
    report.resumed = len(rows)
    show = progress if progress is not None else sys.stderr.isatty()
    progress_line = Progress(count_puzzles(path, start=start, every=every, limit=limit), sys.stderr) if show else None
    out = None
    if direct is not None:
        out = open(direct, "w", encoding="utf-8")
        out.write(json.dumps({"verify": {"file": str(path.resolve()), "ladder": report.ladder, "start": start,
                                         "every": every, "limit": limit, "timeout": timeout}}) + "\n")
    if journal is not None:
        if not journal.is_file():  # a fresh journal: the header, then the rows read back from a finished log
            with atomic_write(journal) as fh:
                fh.write(json.dumps(header) + "\n")
                for row in rows:
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        out = open(journal, "a", encoding="utf-8")
    t0 = time.perf_counter()
    new = 0
    check = partial(_numbered, ladder=ladder, timeout=timeout)
    try:
        # at most four puzzles a worker between the one checked last and the newest: an interrupt loses no more
        with closing(local_map(check, _sample(lines, every, limit, done), workers=workers,
                               count_waiting=True)) as reports:
            for number, one in reports:  # in file order, whatever the worker count
                report.merge(one)
                new += 1
                if out is not None:
                    out.write(json.dumps(one.row(number), ensure_ascii=False) + "\n")
                    out.flush()
                if progress_line is not None:
                    progress_line.update(report.puzzles, new)
    except KeyboardInterrupt:
        raise SweepInterrupted(report, journal) from None
    finally:
        if out is not None:
            out.close()
    if journal is not None:
        promote_journal(journal, log_path)  # the sweep is complete: the log is whole
    if progress_line is not None:
        progress_line.close(report.puzzles, new)
    report.seconds = time.perf_counter() - t0
    return report
