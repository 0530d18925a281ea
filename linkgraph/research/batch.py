"""Corpus runs: one job over every line of a puzzle file, locally or on Dask.

A *job* turns one `PuzzleLine` into one flat record (a dict of plain values).
`run_batch` runs a job over a file on all local cores (a
`concurrent.futures.ProcessPoolExecutor`) or, given a scheduler address, on a
Dask distributed cluster, and writes one row per input line, in input order,
to CSV or JSON Lines. The output is flushed row by row, so an interrupted run
keeps what it finished and ``resume=True`` carries on after the last row.

Rows are deterministic: the same input gives the same bytes whatever the
number of workers or the executor, except the ``time_s`` column (left out with
``times=False``). A line that is not a puzzle, a job that raises, and a job
that runs past the time limit each give a row whose ``error`` column says what
happened; the run never stops on them.

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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from linkgraph.errors import OptionError, check_choice
from linkgraph.io import PuzzleLine, read_puzzles
from linkgraph.research.output import (  # noqa: F401 - FORMATS and read_rows are re-exported
    FORMATS, Progress, RowWriter, count_puzzles, format_of, import_pyarrow, read_rows, resume_point, spool_to_parquet,
)
from linkgraph.research.runner import Deadline, JobTimeout, local_map, ordered

__all__ = ["BASE_COLUMNS", "BatchSummary", "JOBS", "iter_batch", "job_columns", "run_batch", "run_job"]

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
    return {"line": line.number, "puzzle": line.puzzle, "name": line.name, "rating": line.rating, "error": None}


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


def _dask(job, options, chunks, timeout, times, scheduler, workers) -> Iterator[list[dict]]:
    try:
        from distributed import Client, wait as dwait
    except ImportError:
        raise OptionError("--scheduler needs dask.distributed: pip install 'linkgraph[dask]'") from None
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    try:
        nworkers = workers or max(1, sum(client.nthreads().values()))

        def wait_any(futs):
            return set(dwait(list(futs), return_when="FIRST_COMPLETED").done)

        yield from ordered(lambda c: client.submit(_run_chunk, job, options, timeout, times, c, pure=False),
                           chunks, window=4 * nworkers, wait_any=wait_any)
    finally:
        if own:
            client.close()


# ---- runs ---------------------------------------------------------------------


@dataclass
class BatchSummary:
    """What a batch run did: rows written, rows skipped by resume, errors, seconds."""

    rows: int = 0
    skipped: int = 0
    errors: int = 0
    timeouts: int = 0
    seconds: float = 0.0
    columns: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Rows per second of this run."""
        return self.rows / self.seconds if self.seconds else 0.0


def iter_batch(lines: Iterable[PuzzleLine], job: str, *, options: Mapping[str, Any] | None = None,
               workers: int | None = None, timeout: float | None = None, scheduler: Any = None,
               times: bool = True, chunksize: int = 8) -> Iterator[dict]:
    """Yield one row per line, in input order, running `job` in parallel.

    `workers` defaults to all cores (``os.cpu_count()``); ``workers=1`` runs in
    this process. `scheduler` is a Dask scheduler address or a
    ``distributed.Client``.

    >>> lines = lg.io.read_puzzles(lg.io.corpus_path("euler96"), limit=3)
    >>> [(r["line"], r["solutions"]) for r in lg.research.batch.iter_batch(lines, "oracle", workers=1)]
    [(1, 1), (2, 1), (3, 1)]
    """
    options = dict(options or {})
    job_columns(job, options)  # fail early on a bad job name
    if timeout is not None and timeout <= 0:
        raise OptionError(f"--timeout: expected a positive number of seconds, found {timeout}")
    if chunksize < 1:
        raise OptionError(f"chunksize: expected a positive number, found {chunksize}")
    chunks = _chunks(lines, chunksize)
    if scheduler is not None:
        source = _dask(job, options, chunks, timeout, times, scheduler, workers)
    else:
        workers = workers or os.cpu_count() or 1
        if workers < 1:
            raise OptionError(f"--workers: expected a positive number, found {workers}")
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
    unless `fmt` says. With `resume`, rows already in `out` are kept and their
    lines skipped; a partial last row (from an interrupted run) is cut off
    first. Parquet output (needs pyarrow) is spooled to ``<out>.part.jsonl``
    row by row, which `resume` carries on, and converted when the run ends.

    Returns
    -------
    BatchSummary

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
    columns = list(BASE_COLUMNS) + job_columns(job, options) + (["time_s"] if times else [])
    if limit is not None and limit < 1:
        raise OptionError(f"--limit: expected a positive number, found {limit}")
    path = Path(path)
    lines = read_puzzles(path, limit=limit)  # checks the file exists
    final = None
    if fmt == "parquet":
        if out is None:
            raise OptionError("--format parquet needs --out FILE.parquet")
        import_pyarrow()
        final, out, fmt = Path(out), Path(str(out) + ".part.jsonl"), "jsonl"
        if resume and final.is_file() and not out.is_file():
            return BatchSummary(skipped=import_pyarrow()[1].read_metadata(final).num_rows, columns=columns)
    last = 0
    header = True
    if resume:
        if out is None:
            raise OptionError("--resume needs --out FILE")
        out_path = Path(out)
        if out_path.is_file():
            last = resume_point(out_path, fmt, columns)
            header = last < 0
            last = max(last, 0)
    summary = BatchSummary(columns=columns)
    remaining: Iterable[PuzzleLine] = lines
    if last:
        def after(it):
            for line in it:
                if line.number > last:
                    yield line
                else:
                    summary.skipped += 1
        remaining = after(lines)
    show = progress if progress is not None else sys.stderr.isatty()
    progress_line = Progress(count_puzzles(path, limit=limit), sys.stderr) if show else None
    t0 = time.monotonic()
    if out is None:
        fh = stdout or sys.stdout
        close = False
    else:
        fh = open(out, "a" if resume else "w", encoding="utf-8", newline="")
        close = True
    writer = RowWriter(fh, fmt, columns, header=header)
    batch: list[dict] = []
    try:
        last_shown = 0.0
        for row in iter_batch(remaining, job, options=options, workers=workers, timeout=timeout,
                              scheduler=scheduler, times=times, chunksize=chunksize):
            batch.append(row)
            summary.rows += 1
            if row["error"]:
                summary.errors += 1
                summary.timeouts += row["error"].startswith("Timeout:")
            now = time.monotonic()
            if len(batch) >= 64 or now - last_shown > 0.5:
                writer.write(batch)
                batch = []
                last_shown = now
            if progress_line is not None:
                progress_line.update(summary.rows + summary.skipped, summary.rows)
        writer.write(batch)
        batch = []
        if progress_line is not None:
            progress_line.close(summary.rows + summary.skipped, summary.rows)
    finally:
        if batch:  # interrupted: keep the rows that are finished
            writer.write(batch)
        if close:
            fh.close()
    if final is not None:
        spool_to_parquet(Path(out), final, columns)
        Path(out).unlink()
    summary.seconds = time.monotonic() - t0
    return summary
