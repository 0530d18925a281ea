"""Batch output helpers: the sample count behind a progress line, the format, the writer.

Rows, resume and Parquet are tested through `run_batch` in test_batch.py.
"""

from __future__ import annotations

import io
import json

import pytest

from linkgraph.research.output import RowWriter, count_puzzles, format_of

# nine puzzle lines among comments and blank lines (only the lines' count matters here)
PUZZLE = "." * 81


@pytest.fixture
def nine(tmp_path):
    path = tmp_path / "nine.txt"
    lines = ["# header", PUZZLE, PUZZLE, "", PUZZLE, "# note", PUZZLE, PUZZLE, PUZZLE, PUZZLE, "", PUZZLE, PUZZLE]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(("options", "expected"), [
    ({}, 9),
    ({"start": 4}, 5),
    ({"start": 12}, 0),
    ({"every": 2}, 5),          # puzzles 1, 3, 5, 7, 9
    ({"every": 3}, 3),          # 1, 4, 7
    ({"every": 10}, 1),
    ({"start": 1, "every": 4}, 2),  # of the last eight: 1st and 5th
    ({"limit": 4}, 4),
    ({"every": 2, "limit": 3}, 3),
    ({"every": 2, "limit": 30}, 5),
])
def test_count_puzzles_counts_the_sample(nine, options, expected):
    assert count_puzzles(nine, **options) == expected


@pytest.mark.parametrize(("out", "fmt", "expected"), [
    ("rows.csv", None, "csv"), ("rows.jsonl", None, "jsonl"), ("rows.ndjson", None, "jsonl"),
    ("rows.json", None, "jsonl"), ("rows.parquet", None, "parquet"), (None, None, "csv"), ("rows.txt", None, "csv"),
    ("rows.csv", "jsonl", "jsonl"),
])
def test_format_follows_the_suffix_unless_given(out, fmt, expected):
    assert format_of(out, fmt) == expected


def test_format_of_refuses_an_unknown_format():
    with pytest.raises(ValueError, match="xml"):
        format_of("rows.csv", "xml")


def test_row_writer_writes_one_line_per_row_in_column_order():
    rows = [{"error": None, "line": 3, "ok": True}, {"line": 4, "error": "bad", "ok": False}]
    csv_out = io.StringIO()
    RowWriter(csv_out, "csv", ["line", "ok", "error"], header=True).write(rows)
    assert csv_out.getvalue() == "line,ok,error\n3,1,\n4,0,bad\n"
    jsonl_out = io.StringIO()
    RowWriter(jsonl_out, "jsonl", ["line", "ok", "error"], header=True).write(rows)
    lines = jsonl_out.getvalue().splitlines()
    assert [list(json.loads(line)) for line in lines] == [["line", "ok", "error"]] * 2
    assert json.loads(lines[0]) == {"line": 3, "ok": True, "error": None}


def test_parquet_schema_is_fixed_and_streamed_by_row_groups(tmp_path):
    """Every column has its declared type even when empty in every row (the error column of a
    clean run, the end metrics of solved paths), and the file is written in row groups."""
    pq = pytest.importorskip("pyarrow.parquet")
    from linkgraph.research.output import spool_to_parquet

    columns = ["line", "puzzle", "error", "solved", "rating", "steps", "end_links", "end_density_strong"]
    spool = tmp_path / "rows.jsonl"
    rows = [{"line": i, "puzzle": "1" * 81, "error": None, "solved": True, "rating": 7.1 if i % 2 else None,
             "steps": 40 + i, "end_links": None, "end_density_strong": None} for i in range(1, 26)]
    spool.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "rows.parquet"
    spool_to_parquet(spool, out, columns, row_group=10)
    meta = pq.read_metadata(out)
    assert meta.num_rows == 25 and meta.num_row_groups == 3  # 10 + 10 + 5
    schema = pq.read_schema(out)
    assert {f.name: str(f.type) for f in schema} == {
        "line": "int64", "puzzle": "string", "error": "string", "solved": "bool", "rating": "double",
        "steps": "int64", "end_links": "int64", "end_density_strong": "double"}
    table = pq.read_table(out).to_pylist()
    assert [r["steps"] for r in table] == [40 + i for i in range(1, 26)]
    assert table[0]["rating"] == 7.1 and table[1]["rating"] is None and table[0]["end_links"] is None


def test_parquet_types_another_jobs_columns_by_value(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    from linkgraph.research.output import spool_to_parquet

    spool = tmp_path / "rows.jsonl"
    spool.write_text("".join(json.dumps(r) + "\n" for r in [
        {"line": 1, "my_text": None, "my_count": None, "my_empty": None},
        {"line": 2, "my_text": "abc", "my_count": 3, "my_empty": None}]))
    out = tmp_path / "rows.parquet"
    spool_to_parquet(spool, out, ["line", "my_text", "my_count", "my_empty"])
    assert {f.name: str(f.type) for f in pq.read_schema(out)} == {
        "line": "int64", "my_text": "string", "my_count": "int64", "my_empty": "string"}
    assert pq.read_table(out).to_pylist()[1] == {"line": 2, "my_text": "abc", "my_count": 3, "my_empty": None}
