"""Batch output: the row writers, resume, progress, and reading rows back.

Part of `linkgraph.research.batch`, which runs the jobs and hands its rows here. Rows go
to CSV (a header, then one line per row; None as an empty cell, booleans as 0
and 1) or JSON Lines (one object per row, keys in column order), flushed row by
row so an interrupted run keeps what it finished. Parquet output is spooled to
JSON Lines and converted when the run ends (needs pyarrow). Resuming cuts a
partial last line off the file and carries on after the last finished input
line, after checking the file has this run's columns. `read_rows` reads any of
the three formats back.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> from linkgraph.research.output import read_rows
>>> tmp = tempfile.TemporaryDirectory()
>>> out = Path(tmp.name) / "rows.jsonl"
>>> s = lg.research.batch.run_batch(lg.io.corpus_path("euler96"), "oracle", out=out, limit=2, workers=1, times=False)
>>> [(r["line"], r["solutions"]) for r in read_rows(out)]
[(1, 1), (2, 1)]
>>> s = lg.research.batch.run_batch(lg.io.corpus_path("euler96"), "oracle", out=out, limit=3, workers=1, times=False,
...                        resume=True)
>>> s.skipped, s.rows, [r["line"] for r in read_rows(out)]
(2, 1, [1, 2, 3])
>>> tmp.cleanup()
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from pathlib import Path
from typing import Any

from linkgraph.errors import OptionError, check_choice
from linkgraph.io import read_puzzles

__all__ = ["FORMATS", "read_rows"]

#: Output formats (`linkgraph.research.batch.run_batch`'s ``fmt``).
FORMATS = ("csv", "jsonl", "parquet")


def _format_of(out: str | os.PathLike | None, fmt: str | None) -> str:
    if fmt:
        check_choice("--format", [fmt], FORMATS)
        return fmt
    if out is not None and str(out).endswith((".jsonl", ".json", ".ndjson")):
        return "jsonl"
    if out is not None and str(out).endswith(".parquet"):
        return "parquet"
    return "csv"


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise OptionError("--out .parquet needs pyarrow: pip install 'linkgraph[parquet]'") from None
    return pa, pq


def _to_parquet(spool: Path, final: Path, columns: list[str]) -> None:
    """Convert the finished JSON Lines spool to a Parquet file (column types inferred per column)."""
    pa, pq = _pyarrow()
    rows = [json.loads(ln) for ln in spool.read_text(encoding="utf-8").splitlines() if ln.strip()]
    table = pa.table({c: pa.array([r.get(c) for r in rows]) for c in columns})
    tmp = final.with_name(final.name + ".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, final)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    return value


class _Writer:
    """Writes rows to a text stream, one physical line per row, flushing each."""

    def __init__(self, fh, fmt: str, columns: list[str], *, header: bool):
        self.fh, self.fmt, self.columns = fh, fmt, columns
        if fmt == "csv":
            self._csv = csv.writer(fh, lineterminator="\n")
            if header:
                self._csv.writerow(columns)
                fh.flush()

    def write(self, rows: list[dict]) -> None:
        for row in rows:
            if self.fmt == "csv":
                self._csv.writerow([_cell(row.get(c)) for c in self.columns])
            else:
                self.fh.write(json.dumps({c: row.get(c) for c in self.columns}, ensure_ascii=False) + "\n")
        self.fh.flush()


def _resume_point(path: Path, fmt: str, columns: list[str]) -> int:
    """Cut a partial last line off `path`; return the last finished input line number (0 if none)."""
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with open(path, "r+b") as fh:
            fh.truncate(end)
        data = data[:end]
    lines = data.decode("utf-8").splitlines()
    if fmt == "csv":
        if not lines:
            return -1  # no header yet
        header = next(csv.reader([lines[0]]))
        if header != columns:
            raise OptionError(f"--resume: {path} has columns {','.join(header)}, this run writes {','.join(columns)}")
        body = lines[1:]
        return int(next(csv.reader([body[-1]]))[0]) if body else 0
    if not lines:
        return 0
    last = json.loads(lines[-1])
    if list(last) != columns:
        raise OptionError(f"--resume: {path} has keys {','.join(last)}, this run writes {','.join(columns)}")
    return int(last["line"])


class Progress:
    """The progress line of a long run: done (of total), this run's rate, time left.

    On a terminal the line is rewritten in place, at most twice a second;
    elsewhere (stderr sent to a file) a new line is written every `every`
    seconds, so a log of a run of hours stays short. `close` writes the last one.
    """

    def __init__(self, total: int | None, stream, *, every: float = 30.0):
        self.total, self.stream = total, stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.every = 0.5 if self.tty else every
        self.t0 = time.monotonic()
        self.shown = self.t0

    def update(self, done: int, new: int) -> None:
        """Show `done` puzzles (`new` of them by this run) when the line is due."""
        if time.monotonic() - self.shown >= self.every:
            self._write(done, new)

    def close(self, done: int, new: int) -> None:
        self._write(done, new)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

    def _write(self, done: int, new: int) -> None:
        self.shown = time.monotonic()
        elapsed = self.shown - self.t0
        rate = new / elapsed if elapsed > 0 else 0.0
        text = f"{done}" + (f"/{self.total}" if self.total else "") + f"  {rate:.1f}/s"
        if self.total and rate > 0:
            eta = (self.total - done) / rate
            text += f"  ETA {int(eta // 3600)}:{int(eta % 3600 // 60):02d}:{int(eta % 60):02d}"
        self.stream.write(f"\r{text}   " if self.tty else text + "\n")
        self.stream.flush()


def _count_lines(path: Path, start: int, limit: int | None) -> int:
    n = sum(1 for _ in read_puzzles(path)) - start
    n = max(0, n)
    return min(n, limit) if limit is not None else n


def read_rows(path: str | os.PathLike) -> list[dict]:
    """Rows of a batch output file as dicts: strings from CSV, values from JSON Lines and Parquet."""
    path = Path(path)
    if str(path).endswith(".parquet"):
        return _pyarrow()[1].read_table(path).to_pylist()
    text = path.read_text(encoding="utf-8")
    if str(path).endswith((".jsonl", ".json", ".ndjson")):
        return [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    return list(csv.DictReader(io.StringIO(text)))
