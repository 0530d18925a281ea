"""Batch output: the row writers, resume, progress, and reading rows back.

Part of `linkgraph.research.batch`, which runs the jobs and hands its rows here. Rows go
to CSV (a header, then one line per row; None as an empty cell, booleans as 0
and 1) or JSON Lines (one object per row, keys in column order), flushed row by
row so an interrupted run keeps what it finished. Parquet output is spooled to
JSON Lines and converted when the run ends (needs pyarrow), with a schema fixed by the
column names (`parquet_type`: an all-empty column keeps its type), streamed one row
group of `ROW_GROUP` rows at a time. Resuming cuts a
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

__all__ = ["FORMATS", "ROW_GROUP", "Progress", "RowWriter", "count_puzzles", "format_of", "import_pyarrow",
           "parquet_schema", "parquet_type", "read_rows", "resume_point", "spool_to_parquet"]

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


#: Parquet column types by name: strings, booleans, floats and whole numbers (the columns of
#: the built-in jobs); a column of another job is typed by its first value (string if always empty).
STRING_COLUMNS = frozenset({"puzzle", "name", "error", "solution", "hardest", "techniques", "ladder", "stopped"})
BOOL_COLUMNS = frozenset({"solved"})
FLOAT_COLUMNS = frozenset({"rating", "solver_rating", "se_rating", "time_s", "average_clustering",
                           "strong_per_candidate", "weak_per_candidate"})
FLOAT_SUFFIXES = ("_mean", "_std", "_density_strong", "_strong_per_candidate", "_average_clustering")
INT_COLUMNS = frozenset({"line", "steps", "links", "literals", "implications", "givens", "solutions", "placements",
                         "eliminations", "unsolved_cells", "live_candidates", "bivalue_cells", "bilocal_sets",
                         "chain_steps", "net_steps", "strong_components", "proof_min"})
INT_PREFIXES = ("steps_", "links_", "nodes_")
INT_SUFFIXES = ("_max", "_links", "_live_candidates", "_components", "_component_max")

#: Rows per Parquet row group: the spool is read and written this many rows at a time.
ROW_GROUP = 10_000


def parquet_type(column: str) -> str | None:
    """The Parquet (Arrow) type of a batch column: ``string``, ``bool``, ``double``, ``int64``,
    or None for a column no built-in job writes (`spool_to_parquet` types it by its values).

    The schema is fixed by the column names, so a column that is empty in every row
    keeps its type (instead of Arrow's ``null``) and every file of a job has one schema.

    >>> from linkgraph.research.output import parquet_type
    >>> [parquet_type(c) for c in ("line", "puzzle", "solved", "rating", "density_strong", "steps_x-wing", "mine")]
    ['int64', 'string', 'bool', 'double', 'double', 'int64', None]
    """
    if column in STRING_COLUMNS:
        return "string"
    if column in BOOL_COLUMNS:
        return "bool"
    if column in FLOAT_COLUMNS or column.startswith("density") or column.endswith(FLOAT_SUFFIXES):
        return "double"
    if column in INT_COLUMNS or column.startswith(INT_PREFIXES) or column.endswith(INT_SUFFIXES):
        return "int64"
    return None


def _value_type(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "double"
    return "string"


def parquet_schema(columns: list[str], types: dict[str, str] | None = None):
    """The Arrow schema of a batch file's columns: `parquet_type` of each, else `types`, else string."""
    pa, _ = import_pyarrow()
    kinds = {"string": pa.string(), "bool": pa.bool_(), "double": pa.float64(), "int64": pa.int64()}
    types = types or {}
    return pa.schema([pa.field(c, kinds[parquet_type(c) or types.get(c) or "string"]) for c in columns])


def _typed(value: Any, kind: str) -> Any:
    """`value` as the schema's type (None stays None; a value that does not fit becomes text or None)."""
    if value is None or value == "":
        return None
    if kind == "string":
        return value if isinstance(value, str) else json.dumps(value) if isinstance(value, (list, dict)) else str(value)
    if kind == "bool":
        return bool(value)
    try:
        return float(value) if kind == "double" else int(value)
    except (TypeError, ValueError):
        return None


def spool_to_parquet(spool: Path, final: Path, columns: list[str], *, row_group: int = ROW_GROUP) -> None:
    """Convert the finished JSON Lines spool to Parquet with the fixed schema, one row group
    of `row_group` rows at a time (memory bounded by a row group, not by the file)."""
    pa, pq = import_pyarrow()
    unknown = [c for c in columns if parquet_type(c) is None]
    found: dict[str, str] = {}
    if unknown:  # another job's columns: the type of the first value, one pass over the spool
        with open(spool, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    row = json.loads(line)
                    for c in unknown:
                        if c not in found and _value_type(row.get(c)):
                            found[c] = _value_type(row.get(c))
                    if len(found) == len(unknown):
                        break
    schema = parquet_schema(columns, found)
    kinds = [parquet_type(c) or found.get(c) or "string" for c in columns]
    tmp = final.with_name(final.name + ".tmp")
    with pq.ParquetWriter(tmp, schema) as writer, open(spool, encoding="utf-8") as fh:
        batch: list[dict] = []

        def flush() -> None:
            arrays = [pa.array([_typed(r.get(c), k) for r in batch], type=schema.field(c).type)
                      for c, k in zip(columns, kinds)]
            writer.write_table(pa.Table.from_arrays(arrays, schema=schema))
            batch.clear()

        for line in fh:
            if line.strip():
                batch.append(json.loads(line))
                if len(batch) >= row_group:
                    flush()
        if batch:
            flush()
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
