"""Corpus runs: one job over every line of a puzzle file, locally or on Dask.

A *job* turns one `PuzzleLine` into one flat record (a dict of plain values).
`run_batch` runs a job over a file on all local cores (a
`concurrent.futures.ProcessPoolExecutor`) or, given a scheduler address, on a
Dask distributed cluster, and writes one row per input line, in input order,
to CSV or JSON Lines. The output is flushed row by row, so an interrupted run
keeps what it finished and ``resume=True`` carries on after the last row.

Rows are deterministic: the same input gives the same bytes whatever the
number of workers or the executor, except the ``time_s`` column (left out with
``times=False``). A line that is not a puzzle, a puzzle without exactly one
solution (unless the ``check`` option is off), a job that raises, and a job
that runs past the time limit each give a row whose ``error`` column says what
happened (a long bad line is cut short in the ``puzzle`` column); the run never
stops on them.

Everything is checked before any work and any output: the job and its options
(`linkgraph.research.jobs.check_options`), the counts and time limit, the input
file, the output path, the scheduler (connected to first). A results file is
written whole or not at all, and a stopped run resumes from its journal
(`linkgraph.research.output.RowsOutput`).

Every row starts with ``line`` (the 1-based input line number), ``puzzle``,
``name``, ``rating`` (the file's extra columns) and ``error``, then the job's
own columns (`job_columns`), then ``time_s``.

The writers (CSV, JSON Lines, Parquet), resume and progress are in
`linkgraph.research.output`; the per-puzzle deadline and the ordered window over
the workers in `linkgraph.research.runner`; this module runs the jobs.

The job functions live in `linkgraph.research.jobs` and import the engine lazily, so a
batch runs with whatever engine modules exist. A job may also be named
``package.module:function``; such a function takes ``(line, options)`` and
carries a ``columns`` attribute (a list, or a callable of the options).
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from linkgraph.errors import OptionError, check_choice
from linkgraph.io import PuzzleLine, check_input, check_output, is_special, read_puzzles
from linkgraph.limits import check_count, check_seconds
from linkgraph.research.jobs import check_options
from linkgraph.research.output import (  # noqa: F401 - FORMATS and read_rows are re-exported
    FORMATS, Progress, RowsOutput, RowWriter, count_puzzles, file_sha256, format_of, import_pyarrow, read_rows,
)
from linkgraph.research.runner import Deadline, JobTimeout, hidden_interrupt, local_map, ordered

__all__ = ["BASE_COLUMNS", "BatchSummary", "CONNECT_TIMEOUT", "JOBS", "BatchInterrupted", "connect", "iter_batch",
           "job_columns", "run_batch", "run_job"]

#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT = 10.0
#: Puzzle texts longer than this are cut short in a row's ``puzzle`` column (a bad line may be megabytes).
PUZZLE_WIDTH = 100

#: Columns every row starts with.
BASE_COLUMNS: tuple[str, ...] = ("line", "puzzle", "name", "rating", "error")
#: Job names and the function behind each (``module:function``, imported lazily).
JOBS: Mapping[str, str] = {
    "solve": "linkgraph.research.jobs:solve_job",
    "links": "linkgraph.research.jobs:links_job",
    "chains": "linkgraph.research.jobs:chains_job",
    "nets": "linkgraph.research.jobs:nets_job",
    "metrics": "linkgraph.research.jobs:metrics_job",
    "oracle": "linkgraph.research.jobs:oracle_job",
    "rate": "linkgraph.research.jobs:rate_job",
}


def _resolve(job: str) -> Callable[..., dict]:
    """The job function behind a job name or ``module:function`` spec."""
    spec = JOBS.get(job, job)
    if ":" not in spec:
        check_choice("--job", [job], list(JOBS))
    module, _, name = spec.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise OptionError(f"--job: cannot load {spec!r}: {exc}") from None


def job_columns(job: str, options: Mapping[str, Any] | None = None) -> list[str]:
    """The columns a job adds after `BASE_COLUMNS`.

    >>> lg.research.batch.job_columns("oracle")
    ['solutions', 'givens', 'solution']
    """
    fn = _resolve(job)
    cols = getattr(fn, "columns", None)
    if cols is None:
        raise OptionError(f"--job: {job!r} has no 'columns' attribute")
    cols = list(cols(dict(options or {})) if callable(cols) else cols)
    clash = [c for c in cols if c in BASE_COLUMNS or c == "time_s"]
    if clash:
        raise OptionError(f"--job: {job!r} columns {', '.join(clash)} clash with the batch's own columns")
    return cols


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _base(line: PuzzleLine) -> dict:
    puzzle = line.puzzle
    if len(puzzle) > PUZZLE_WIDTH + 25:
        puzzle = f"{puzzle[:PUZZLE_WIDTH]}... ({len(puzzle)} characters)"
    return {"line": line.number, "puzzle": puzzle, "name": line.name, "rating": line.rating, "error": None}


# ---- running one line and one chunk ----------------------------------------


def run_job(job: str, line: PuzzleLine, options: Mapping[str, Any] | None = None, *,
            timeout: float | None = None, times: bool = True) -> dict:
    """Run `job` on one line and return its full row (never raises for a bad puzzle).

    >>> line = lg.io.parse_line(lg.samples.GNPX_FORCECHAIN, 1)
    >>> row = lg.research.batch.run_job("oracle", line, times=False)
    >>> row["line"], row["error"], row["solutions"]
    (1, None, 1)
    >>> lg.research.batch.run_job("oracle", lg.io.parse_line("12x", 7), times=False)["error"]
    'PuzzleFormatError: line 7: expected 81 cells ..., found 3'
    """
    fn = _resolve(job)
    return _run_line(fn, line, dict(options or {}), timeout, times)


def _run_line(fn: Callable[..., dict], line: PuzzleLine, options: dict, timeout: float | None, times: bool) -> dict:
    row = _base(line)
    t0 = time.perf_counter()
    try:
        try:
            with Deadline(timeout):
                record = fn(line, options)
        except JobTimeout:
            row["error"] = f"Timeout: line {line.number}: no result within {timeout:g} s"
        except Exception as exc:  # noqa: BLE001 - every fault becomes a row
            stop = hidden_interrupt(exc)
            if stop is not None:  # Ctrl-C or SIGTERM landing in a compiled call: stop the run
                raise stop from None
            msg = _one_line(exc)
            row["error"] = f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__
        else:
            row.update(record)
    except JobTimeout:  # the alarm fired between the job's end and the deadline's exit
        row["error"] = f"Timeout: line {line.number}: no result within {timeout:g} s"
    if times:
        row["time_s"] = round(time.perf_counter() - t0, 6)
    return row


def _run_chunk(job: str, options: dict, timeout: float | None, times: bool, lines: list[tuple]) -> list[dict]:
    """Rows for a chunk of lines (given as tuples, to travel light); runs in a worker."""
    fn = _resolve(job)
    return [_run_line(fn, PuzzleLine(*t), options, timeout, times) for t in lines]


def _as_tuple(line: PuzzleLine) -> tuple:
    return (line.number, line.puzzle, line.name, line.rating, line.error)


# ---- executors ---------------------------------------------------------------


def _chunks(lines: Iterable[PuzzleLine], size: int) -> Iterator[list[tuple]]:
    chunk: list[tuple] = []
    for line in lines:
        chunk.append(_as_tuple(line))
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def connect(scheduler: Any) -> tuple[Any, bool]:
    """A ``distributed.Client`` for a scheduler address (or the client given) and whether it is ours to close.

    Raises
    ------
    OptionError
        When dask.distributed is not installed, or the scheduler cannot be reached
        within `CONNECT_TIMEOUT` seconds (a bad address, nothing listening).
    """
    try:
        from distributed import Client
    except ImportError:
        raise OptionError("--scheduler needs dask.distributed: pip install 'linkgraph[dask]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT), True
    except (OSError, ValueError, TypeError) as exc:
        raise OptionError(f"--scheduler {scheduler}: cannot reach a Dask scheduler there ({_one_line(exc)})") from None


def _dask(job, options, chunks, timeout, times, scheduler, workers) -> Iterator[list[dict]]:
    client, own = connect(scheduler)
    try:
        nworkers = workers or max(1, sum(client.nthreads().values()))

        def wait_any(futs):
            from distributed import wait as dwait

            return set(dwait(list(futs), return_when="FIRST_COMPLETED").done)

        yield from ordered(lambda c: client.submit(_run_chunk, job, options, timeout, times, c, pure=False),
                           chunks, window=4 * nworkers, wait_any=wait_any)
    finally:
        if own:
            client.close()


# ---- runs ---------------------------------------------------------------------


@dataclass
class BatchSummary:
    """What a batch run did: rows written, rows kept by resume, errors by kind, seconds."""

    rows: int = 0
    skipped: int = 0
    errors: int = 0
    timeouts: int = 0
    seconds: float = 0.0
    columns: list[str] = field(default_factory=list)
    #: Error rows of this run by kind: the error's name (``Timeout``, ``PuzzleFormatError``, ...).
    error_kinds: Counter = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        """Rows per second of this run."""
        return self.rows / self.seconds if self.seconds else 0.0

    @property
    def ok(self) -> bool:
        """Whether the run did what it was asked: a row succeeded, or every line was done before (resume)."""
        return self.rows > self.errors or (self.rows == 0 and self.skipped > 0)

    def count(self, row: dict) -> None:
        """Count one row of this run."""
        self.rows += 1
        if row["error"]:
            self.errors += 1
            kind = str(row["error"]).split(":", 1)[0]
            self.error_kinds[kind] += 1
            self.timeouts += kind == "Timeout"

    def line(self) -> str:
        """The summary line ``linkgraph batch`` ends with (without the output name)."""
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.error_kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        note = f", {self.skipped} kept from before" if self.skipped else ""
        return (f"{self.rows} rows ({self.errors} errors, {self.timeouts} time-outs{note}) in {self.seconds:.1f} s, "
                f"{self.rate:.1f} puzzles/s" + (f"; errors by kind: {kinds}" if kinds else ""))


class BatchInterrupted(KeyboardInterrupt):
    """A batch run stopped by Ctrl-C (or SIGTERM made one); `summary` counts the rows written before.

    Those rows are in the output's journal (``<out>.partial``), and a run with
    ``resume=True`` carries on after them; the output itself is as it was.
    """

    def __init__(self, summary: BatchSummary, journal: Path | None):
        super().__init__(f"stopped after {summary.rows} rows")
        self.summary = summary
        self.journal = journal


def _check_run(job: str, options: dict, *, timeout: float | None, chunksize: int, workers: int | None) -> None:
    """OptionError (or UnknownTechniqueError) for anything a run could not use, before any work."""
    job_columns(job, options)  # a bad job name
    check_options(job, options)
    check_seconds("--timeout", timeout)
    check_count("--chunksize", chunksize, minimum=1, none=False)
    check_count("--workers", workers, minimum=1)


def iter_batch(lines: Iterable[PuzzleLine], job: str, *, options: Mapping[str, Any] | None = None,
               workers: int | None = None, timeout: float | None = None, scheduler: Any = None,
               times: bool = True, chunksize: int = 8) -> Iterator[dict]:
    """Yield one row per line, in input order, running `job` in parallel.

    `workers` defaults to all cores (``os.cpu_count()``); ``workers=1`` runs in
    this process. `scheduler` is a Dask scheduler address or a
    ``distributed.Client``. Every option is checked at the call.

    >>> lines = lg.io.read_puzzles(lg.io.corpus_path("euler96"), limit=3)
    >>> [(r["line"], r["solutions"]) for r in lg.research.batch.iter_batch(lines, "oracle", workers=1)]
    [(1, 1), (2, 1), (3, 1)]
    """
    options = dict(options or {})
    _check_run(job, options, timeout=timeout, chunksize=chunksize, workers=workers)
    return _iter_batch(lines, job, options, workers, timeout, scheduler, times, chunksize)


def _iter_batch(lines, job, options, workers, timeout, scheduler, times, chunksize) -> Iterator[dict]:
    chunks = _chunks(lines, chunksize)
    if scheduler is not None:
        source = _dask(job, options, chunks, timeout, times, scheduler, workers)
    else:
        workers = workers or os.cpu_count() or 1
        source = local_map(partial(_run_chunk, job, options, timeout, times), chunks, workers=workers)
    for rows in source:
        yield from rows


def run_batch(path: str | os.PathLike, job: str, *, out: str | os.PathLike | None = None,
              fmt: str | None = None, options: Mapping[str, Any] | None = None, workers: int | None = None,
              timeout: float | None = None, resume: bool = False, limit: int | None = None,
              scheduler: Any = None, times: bool = True, progress: bool | None = None,
              chunksize: int = 8, stdout=None) -> BatchSummary:
    """Run `job` over the puzzle file `path` and write its rows to `out` (stdout if None).

    The format follows `out`'s suffix (``.csv``, ``.jsonl`` or ``.parquet``)
    unless `fmt` says. Every option, the input and the output path are checked
    (and a scheduler connected to) before any work; `out` is then written whole
    or not at all: rows go to ``<out>.partial`` as they come and onto `out` when
    the run is complete, with ``<out>.meta.json`` naming the input's sha256, the
    job and its options (`linkgraph.research.output.RowsOutput`). With `resume`,
    the rows of a stopped run's journal, or of a finished `out` whose sidecar
    matches, are kept and their lines skipped; another input, job or options is
    refused.

    Returns
    -------
    BatchSummary

    Raises
    ------
    OptionError, UnknownTechniqueError, PuzzleFormatError
        For a bad option, input or output, before any output is touched.
    BatchInterrupted
        On Ctrl-C (or SIGTERM under `linkgraph.research.runner.interrupt_on_sigterm`);
        the rows done are in the journal.

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> s = lg.research.batch.run_batch(lg.io.corpus_path("euler96"), "oracle", limit=2, workers=1,
    ...                        times=False, stdout=buf)
    >>> print(buf.getvalue().splitlines()[0])
    line,puzzle,name,rating,error,solutions,givens,solution
    >>> s.rows, s.errors
    (2, 0)
    """
    fmt = format_of(out, fmt)
    options = dict(options or {})
    _check_run(job, options, timeout=timeout, chunksize=chunksize, workers=workers)
    columns = list(BASE_COLUMNS) + job_columns(job, options) + (["time_s"] if times else [])
    check_count("--limit", limit, minimum=1)
    path = check_input(path)
    if fmt == "parquet":
        if out is None:
            raise OptionError("--format parquet needs --out FILE.parquet")
        import_pyarrow()
    if resume and out is None:
        raise OptionError("--resume needs --out FILE")
    output = None
    direct = None  # a device or a pipe (/dev/null): the rows go straight there, like stdout
    if out is not None:
        out = check_output(out, option="--out")
        if is_special(out):
            if resume:
                raise OptionError(f"--resume: {out} is not a regular file: there is nothing to resume")
            if fmt == "parquet":
                raise OptionError(f"--out {out}: Parquet needs a regular file")
            direct = out
        else:
            stamp = {"input": str(path), "sha256": file_sha256(path), "job": job,
                     "options": {k: options[k] for k in sorted(options)}, "columns": columns, "format": fmt}
            output = RowsOutput(out, fmt, columns, stamp, resume=resume)
    if scheduler is not None:
        scheduler, own = connect(scheduler)  # an unreachable scheduler fails here, before any output
    summary = BatchSummary(columns=columns)
    last_kept = output.last if output is not None else 0
    lines = read_puzzles(path, limit=limit)

    def remaining(it):
        for line in it:
            if line.number > last_kept:
                yield line
            else:
                summary.skipped += 1

    show = progress if progress is not None else sys.stderr.isatty()
    progress_line = Progress(count_puzzles(path, limit=limit), sys.stderr) if show else None
    t0 = time.monotonic()
    stream = open(direct, "w", encoding="utf-8", newline="") if direct is not None else None
    writer = RowWriter(stream or stdout or sys.stdout, fmt, columns, header=True) if output is None else None
    pending: list[dict] = []
    last = 0
    try:
        last_written = 0.0
        for row in _iter_batch(remaining(lines), job, options, workers, timeout, scheduler, times, chunksize):
            pending.append(row)
            summary.count(row)
            last = row["line"]
            now = time.monotonic()
            if len(pending) >= 64 or now - last_written > 0.5:
                (output or writer).write(pending)
                pending = []
                last_written = now
            if progress_line is not None:
                progress_line.update(summary.rows + summary.skipped, summary.rows)
        (output or writer).write(pending)
        pending = []
        if output is not None:
            output.finish(last)
        if progress_line is not None:
            progress_line.close(summary.rows + summary.skipped, summary.rows)
    except KeyboardInterrupt:
        if pending:  # keep the rows that are finished
            (output or writer).write(pending)
        summary.seconds = time.monotonic() - t0
        journal = output.journal if output is not None and output.journal.exists() else None
        raise BatchInterrupted(summary, journal) from None
    finally:
        if output is not None:
            output.close()
        if stream is not None:
            stream.close()
        if scheduler is not None and own:
            scheduler.close()
    summary.seconds = time.monotonic() - t0
    return summary
