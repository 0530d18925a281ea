"""Batch output: the row writers, resumable outputs, progress, and reading rows back.

Part of `linkgraph.research.batch`, which runs the jobs and hands its rows here. Rows go
to CSV (a header, then one line per row; None as an empty cell, booleans as 0
and 1) or JSON Lines (one object per row, keys in column order). Parquet output
(needs pyarrow) is converted from JSON Lines when the run ends, with a schema fixed by
the column names (`parquet_type`: an all-empty column keeps its type), streamed one
row group of `ROW_GROUP` rows at a time. `read_rows` reads any of the three formats back.

A results file is never half written. `RowsOutput` writes the rows, flushed as
they come, to a *journal* beside the output (``rows.csv.partial``) whose first
line is the run's *stamp*: the input's content hash (sha256), the job, its
options, the columns and the format. When the run is complete the rows are
written to a temporary file, renamed onto ``rows.csv``, and the stamp goes to a
sidecar (``rows.csv.meta.json``) with the row count and the output's own hash.
An interrupted run (Ctrl-C, SIGTERM, ``kill -9``, a lost machine) leaves the old
output as it was and its rows in the journal; ``--resume`` checks the stamp
(another input, job or options is refused), cuts a torn last line, and carries
on after the last finished input line. A run without ``--resume`` refuses to
overwrite a journal, which may hold hours of work. The soundness sweep's log
(`linkgraph.research.soundness`) uses the same journal and stamp checks.

The progress line (`Progress`, its total from `count_puzzles`) serves the
soundness sweep too.

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
import hashlib
import io
import json
import math
import os
import stat
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from linkgraph.errors import OptionError, check_choice
from linkgraph.io import atomic_path, atomic_write, read_puzzles

__all__ = ["FORMATS", "ROW_GROUP", "Progress", "RowWriter", "RowsOutput", "check_stamp", "count_puzzles",
           "cut_torn_tail", "file_sha256", "format_of", "import_pyarrow", "journal_path", "parquet_schema",
           "parquet_type", "promote_journal", "read_rows", "refuse_journal", "resume_point", "sidecar_path",
           "spool_to_parquet"]

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


def spool_to_parquet(spool: Path, final: Path, columns: list[str], *, row_group: int = ROW_GROUP,
                     skip: int = 0) -> None:
    """Convert the finished JSON Lines spool (less its first `skip` lines, a journal's stamp) to
    Parquet with the fixed schema, one row group of `row_group` rows at a time (memory bounded
    by a row group, not by the file), written whole or not at all (`linkgraph.io.atomic_path`)."""
    pa, pq = import_pyarrow()
    unknown = [c for c in columns if parquet_type(c) is None]
    found: dict[str, str] = {}
    if unknown:  # another job's columns: the type of the first value, one pass over the spool
        with open(spool, encoding="utf-8") as fh:
            for _ in range(skip):
                fh.readline()
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
    with atomic_path(final) as tmp, pq.ParquetWriter(tmp, schema) as writer, open(spool, encoding="utf-8") as fh:
        for _ in range(skip):
            fh.readline()
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


def resume_point(path: Path, fmt: str, columns: list[str], *, skip: int = 0) -> int:
    """Cut a partial last line off `path`; return the last finished input line number.

    The first `skip` lines (a journal's stamp) are not rows. 0 if the file has no
    row yet, -1 if a CSV file has not even its header. OptionError if the file
    holds other columns than `columns`.
    """
    data = cut_torn_tail(path)
    lines = data.decode("utf-8").splitlines()[skip:]
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


# ---- resumable outputs: a journal beside the output, renamed into place when complete ----------------


def journal_path(out: str | os.PathLike) -> Path:
    """Where a run writes `out` as it goes: ``<out>.partial``."""
    return Path(str(out) + ".partial")


def sidecar_path(out: str | os.PathLike) -> Path:
    """Where a finished batch output's stamp is kept: ``<out>.meta.json``."""
    return Path(str(out) + ".meta.json")


def file_sha256(path: str | os.PathLike) -> str:
    """The sha256 of a file's bytes, in hex (read a megabyte at a time).

    >>> import tempfile
    >>> from pathlib import Path
    >>> from linkgraph.research.output import file_sha256
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "abc").write_bytes(b"abc")
    ...     file_sha256(Path(tmp) / "abc")[:16]  # the FIPS 180-2 example
    'ba7816bf8f01cfea'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def refuse_journal(out: str | os.PathLike) -> None:
    """OptionError if an interrupted run's journal lies beside `out` (a run without ``--resume`` would lose it)."""
    journal = journal_path(out)
    if journal.exists():
        raise OptionError(f"{journal} holds an interrupted run: add --resume to carry on, "
                          f"or remove it to start over")


def cut_torn_tail(path: Path) -> bytes:
    """Cut a partial last line (a run killed while writing it) off the file; return what is left."""
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with open(path, "r+b") as fh:
            fh.truncate(end)
        data = data[:end]
    return data


def _brief(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 48 else text[:45] + "..."


def check_stamp(found: Mapping[str, Any], expected: Mapping[str, Any], where: str, *,
                ignore: Iterable[str] = ("input", "file")) -> None:
    """OptionError naming the first key of `expected` (but `ignore`) whose value `found` does not share.

    A stamp's ``sha256`` is the input's content hash: an input of the same name whose
    contents changed is another input.

    >>> from linkgraph.research.output import check_stamp
    >>> check_stamp({"job": "links", "sha256": "ab"}, {"job": "links", "sha256": "cd"}, "rows.csv")
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: --resume: rows.csv was written for another input (sha256 ab...), this run reads one with sha256 cd...
    """
    ignore = set(ignore)
    for key, value in expected.items():
        if key in ignore or found.get(key) == value:
            continue
        if key == "sha256":
            raise OptionError(f"--resume: {where} was written for another input (sha256 {str(found.get(key))[:16]}...), "
                              f"this run reads one with sha256 {str(value)[:16]}...")
        raise OptionError(f"--resume: {where} was written for {key} {_brief(found.get(key))}, "
                          f"this run has {key} {_brief(value)}")


def promote_journal(journal: Path, out: Path) -> None:
    """Rename a finished journal onto `out`, its data on disk first (and `out`'s permissions kept)."""
    with open(journal, "rb") as fh:
        os.fsync(fh.fileno())
    if out.exists():
        os.chmod(journal, stat.S_IMODE(os.stat(out).st_mode))
    os.replace(journal, out)


_STAMP = "linkgraph batch"


class RowsOutput:
    """A batch's rows bound for the file `out`, resumable and never half written.

    Rows go to the journal (`journal_path`) after a first line holding `stamp`, and
    onto `out` (through a temporary file) by `finish`, with the stamp, the row count,
    the last input line and `out`'s sha256 in the sidecar (`sidecar_path`). With
    `resume` the rows kept come from the journal, else from a finished `out` whose
    sidecar matches; `last` is the last input line they cover. Nothing is written
    until the first rows come (`write`) or the run finishes.

    Raises
    ------
    OptionError
        Without `resume`, when a journal lies beside `out`; with `resume`, when the
        journal or sidecar was written for another stamp, `out` has no sidecar, or
        `out` changed since its sidecar was written.
    """

    def __init__(self, out: Path, fmt: str, columns: list[str], stamp: dict, *, resume: bool):
        self.out, self.fmt, self.columns, self.stamp = Path(out), fmt, list(columns), dict(stamp)
        self.journal = journal_path(out)
        self.sidecar = sidecar_path(out)
        self.last = 0
        self.source: str | None = None  # where kept rows are: "journal", "out" or nowhere
        self.rows = 0  # rows in the journal or out, kept and new
        self._fh = None
        self._writer: RowWriter | None = None
        if not resume:
            refuse_journal(out)
        elif self.journal.is_file():
            self._resume_journal()
        elif self.out.is_file():
            self._resume_out()

    # ---- reading back
    def _resume_journal(self) -> None:
        data = cut_torn_tail(self.journal)
        first = data.split(b"\n", 1)[0]
        try:
            found = json.loads(first)[_STAMP]
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"--resume: {self.journal} is not a linkgraph batch journal (line 1)") from None
        check_stamp(found, self.stamp, str(self.journal))
        last = resume_point(self.journal, "jsonl" if self.fmt == "parquet" else self.fmt, self.columns, skip=1)
        self.last = max(last, 0)
        self.rows = self._count(data, skip=1)
        self.source = "journal"

    def _resume_out(self) -> None:
        try:
            side = json.loads(self.sidecar.read_text(encoding="utf-8"))
            found, rows, last, digest = side[_STAMP], int(side["rows"]), int(side["last_line"]), side["sha256"]
        except FileNotFoundError:
            raise OptionError(f"--resume: {self.out} has no {self.sidecar.name} beside it, so its input, job and "
                              f"options are unknown; run without --resume to write it anew") from None
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"--resume: {self.sidecar} is not a linkgraph batch sidecar") from None
        check_stamp(found, self.stamp, str(self.out))
        if file_sha256(self.out) != digest:
            raise OptionError(f"--resume: {self.out} changed since linkgraph wrote it (its sha256 is not the one in "
                              f"{self.sidecar.name}); run without --resume to write it anew")
        self.last, self.rows, self.source = last, rows, "out"

    def _count(self, data: bytes, *, skip: int) -> int:
        n = data.count(b"\n") - skip
        return max(n - 1, 0) if self.fmt == "csv" else n  # CSV: less the header

    # ---- writing
    def _body(self) -> bytes:
        """The finished out's rows as journal lines (Parquet: JSON Lines)."""
        if self.fmt != "parquet":
            return self.out.read_bytes()
        rows = import_pyarrow()[1].read_table(self.out).to_pylist()
        return "".join(json.dumps({c: r.get(c) for c in self.columns}, ensure_ascii=False) + "\n"
                       for r in rows).encode("utf-8")

    def _open(self) -> RowWriter:
        if self._writer is None:
            stamp_line = json.dumps({_STAMP: self.stamp}, ensure_ascii=False) + "\n"
            if self.source == "journal":
                body_empty = self.journal.stat().st_size == len(stamp_line.encode("utf-8"))
                header = self.fmt == "csv" and body_empty
            else:
                body = self._body() if self.source == "out" else b""
                with atomic_write(self.journal, "wb") as fh:  # a journal is whole from its first line
                    fh.write(stamp_line.encode("utf-8") + body)
                header = self.fmt == "csv" and not body
                self.source = "journal"
            self._fh = open(self.journal, "a", encoding="utf-8", newline="")
            self._writer = RowWriter(self._fh, "jsonl" if self.fmt == "parquet" else self.fmt, self.columns,
                                     header=header)
        return self._writer

    def write(self, rows: list[dict]) -> None:
        """Append `rows` to the journal and flush."""
        if rows:
            self._open().write(rows)
            self.rows += len(rows)

    def close(self) -> None:
        """Close the journal (an interrupted run: it stays for ``--resume``)."""
        if self._fh is not None:
            self._fh.close()
            self._fh, self._writer = None, None

    def finish(self, last: int) -> None:
        """The run is complete, up to input line `last`: put the rows onto `out` and the stamp in the sidecar."""
        if self.source == "out" and self._writer is None:
            return  # nothing new: out and its sidecar stand
        self._open()
        self.close()
        if self.fmt == "parquet":
            spool_to_parquet(self.journal, self.out, self.columns, skip=1)
        else:
            with open(self.journal, "rb") as src, atomic_write(self.out, "wb") as dst:
                src.readline()  # the stamp
                for block in iter(lambda: src.read(1 << 20), b""):
                    dst.write(block)
        side = {_STAMP: self.stamp, "rows": self.rows, "last_line": max(last, self.last),
                "sha256": file_sha256(self.out)}
        with atomic_write(self.sidecar) as fh:
            json.dump(side, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
        self.journal.unlink()


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
    """Rows of a batch output file as dicts: strings from CSV, values from JSON Lines and Parquet.

    OptionError naming the file and line for a file that is no such output (not
    UTF-8, a line that is no JSON object, a CSV field past the csv module's limit).
    """
    path = Path(path)
    if str(path).endswith(".parquet"):
        pq = import_pyarrow()[1]
        try:
            return pq.read_table(path).to_pylist()
        except (OSError, ValueError) as exc:
            raise OptionError(f"{path}: not a Parquet file ({exc})") from None
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise OptionError(f"{path}: not UTF-8 text (offset {exc.start})") from None
    if str(path).endswith((".jsonl", ".json", ".ndjson")):
        rows = []
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    row = json.loads(line)
                except ValueError:
                    row = None
                if not isinstance(row, dict):
                    raise OptionError(f"{path}: line {number}: not a JSON object")
                rows.append(row)
        return rows
    reader = csv.DictReader(io.StringIO(text))
    try:
        return list(reader)
    except csv.Error as exc:
        raise OptionError(f"{path}: line {reader.line_num}: {exc}") from None
