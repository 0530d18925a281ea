"""Batch output: the row writers, resume, progress, and reading rows back.

Part of `linkgraph.research.batch`, which runs the jobs and hands its rows here. Rows go
to CSV (a header, then one line per row; None as an empty cell, booleans as 0
and 1) or JSON Lines (one object per row, keys in column order), flushed row by
row so an interrupted run keeps what it finished. Parquet output is spooled to
JSON Lines and converted when the run ends (needs pyarrow). Resuming cuts a
partial last line off the file and carries on after the last finished input
line, after checking the file has this run's columns. `read_rows` reads any of
the three formats back. The progress line (`Progress`, its total from
`count_puzzles`) serves the soundness sweep (`linkgraph.research.soundness`) too.

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
import math
import os
import time
from pathlib import Path
from typing import Any

from linkgraph.errors import OptionError, check_choice
from linkgraph.io import read_puzzles

__all__ = ["FORMATS", "Progress", "RowWriter", "count_puzzles", "format_of", "import_pyarrow", "read_rows",
           "resume_point", "spool_to_parquet"]

#: Output formats (`linkgraph.research.batch.run_batch`'s ``fmt``).
FORMATS = ("csv", "jsonl", "parquet")


def format_of(out: str | os.PathLike | None, fmt: str | None) -> str:
    """The output format: `fmt` if given (checked), else by `out`'s suffix, CSV by default.

    >>> from linkgraph.research.output import format_of
    >>> format_of("rows.jsonl", None), format_of("rows.parquet", None), format_of(None, None)
    ('jsonl', 'parquet', 'csv')
    """
    if fmt:
        check_choice("--format", [fmt], FORMATS)
        return fmt
    if out is not None and str(out).endswith((".jsonl", ".json", ".ndjson")):
        return "jsonl"
    if out is not None and str(out).endswith(".parquet"):
        return "parquet"
    return "csv"


def import_pyarrow():
    """The modules ``pyarrow`` and ``pyarrow.parquet``; OptionError saying how to install them if missing."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise OptionError("--out .parquet needs pyarrow: pip install 'linkgraph[parquet]'") from None
    return pa, pq


def spool_to_parquet(spool: Path, final: Path, columns: list[str]) -> None:
    """Convert the finished JSON Lines spool to a Parquet file (column types inferred per column)."""
    pa, pq = import_pyarrow()
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


class RowWriter:
    """Writes rows to a text stream as CSV or JSON Lines, one physical line per row, flushing each.

    >>> import io
    >>> from linkgraph.research.output import RowWriter
    >>> buf = io.StringIO()
    >>> RowWriter(buf, "csv", ["line", "error"], header=True).write([{"line": 1, "error": None}])
    >>> buf.getvalue()
    'line,error\\n1,\\n'
    """

    def __init__(self, fh, fmt: str, columns: list[str], *, header: bool):
        self.fh, self.fmt, self.columns = fh, fmt, columns
        if fmt == "csv":
            self._csv = csv.writer(fh, lineterminator="\n")
            if header:
                self._csv.writerow(columns)
                fh.flush()

    def write(self, rows: list[dict]) -> None:
        """Write `rows` (dicts with this writer's columns) and flush."""
        for row in rows:
            if self.fmt == "csv":
                self._csv.writerow([_cell(row.get(c)) for c in self.columns])
            else:
                self.fh.write(json.dumps({c: row.get(c) for c in self.columns}, ensure_ascii=False) + "\n")
        self.fh.flush()


def resume_point(path: Path, fmt: str, columns: list[str]) -> int:
    """Cut a partial last line off `path`; return the last finished input line number.

    0 if the file has no row yet, -1 if a CSV file has not even its header.
    OptionError if the file holds other columns than `columns`.
    """
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


def count_puzzles(path: str | os.PathLike, *, start: int = 0, every: int = 1, limit: int | None = None) -> int:
    """How many puzzle lines a run over `path` reads: past the first `start`, every `every`-th, at most `limit`.

    The total of a run's progress line; it reads the whole file.

    >>> from linkgraph.research.output import count_puzzles
    >>> path = lg.io.corpus_path("euler96")
    >>> count_puzzles(path), count_puzzles(path, start=45), count_puzzles(path, every=7)
    (50, 5, 8)
    """
    n = sum(1 for _ in read_puzzles(path, start=start))
    n = math.ceil(n / every)
    return min(n, limit) if limit is not None else n


def read_rows(path: str | os.PathLike) -> list[dict]:
    """Rows of a batch output file as dicts: strings from CSV, values from JSON Lines and Parquet."""
    path = Path(path)
    if str(path).endswith(".parquet"):
        return import_pyarrow()[1].read_table(path).to_pylist()
    text = path.read_text(encoding="utf-8")
    if str(path).endswith((".jsonl", ".json", ".ndjson")):
        return [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    return list(csv.DictReader(io.StringIO(text)))
