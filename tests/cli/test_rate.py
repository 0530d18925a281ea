"""``linkgraph rate``: serate's output line, JSON Lines, bad input, logs and resume."""

from __future__ import annotations

import json

import linkgraph as lg
from linkgraph.cli.main import main

EASY = lg.samples.EULER_01
DIABOLICAL = ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54."


def test_one_puzzle_one_line(capsys):
    assert main(["rate", DIABOLICAL]) == 0
    out = capsys.readouterr().out.split()
    assert out[0] == DIABOLICAL
    er, ep, ed = (float(x) for x in out[1].split("/"))
    # the first steps are singles (1.2): ED and EP; the hardest is a forcing chain of 7.x
    assert ed == ep == 1.2 and 7.0 <= er < 8.0
    assert out[2].endswith("s") and float(out[2][:-1]) >= 0


def test_jsonl_rows_and_worker_pool(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(f"{EASY}\n# a comment\n{DIABOLICAL}\n")
    assert main(["rate", str(path), "--format", "jsonl", "--workers", "2"]) == 0
    rows = [json.loads(t) for t in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in rows] == [1, 3]
    assert set(rows[0]) >= {"line", "puzzle", "er", "ep", "ed", "seconds"}
    assert rows[1]["puzzle"] == DIABOLICAL and rows[1]["error"] is None


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    assert main(["rate", "not-a-puzzle"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("linkgraph: PuzzleFormatError:") and len(err.strip().splitlines()) == 1
    path = tmp_path / "p.txt"
    path.write_text(f"{EASY}\n12345\n")
    assert main(["rate", str(path), "--workers", "1"]) == 1  # a bad line is an error row, not bad input
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith(EASY) and "error: PuzzleFormatError" in lines[1]
    assert err == "linkgraph rate: 1 of 2 puzzles not rated (error rows)\n"
    assert main(["rate", str(path), "--resume"]) == 2  # --resume needs --log


def test_log_and_resume(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(f"{EASY}\n{DIABOLICAL}\n")
    log = tmp_path / "log.jsonl"
    assert main(["rate", str(path), "--workers", "1", "--log", str(log), "--limit", "1"]) == 0
    first = capsys.readouterr().out
    assert len(log.read_text().splitlines()) == 1
    assert main(["rate", str(path), "--workers", "1", "--log", str(log), "--resume"]) == 0
    both = capsys.readouterr().out.splitlines()
    assert both[0] == first.strip() and both[1].startswith(DIABOLICAL)
    assert len(log.read_text().splitlines()) == 2


def test_resume_refuses_a_log_of_another_input_or_level(tmp_path, capsys):
    # issue 19's faults 2 and 5 for rate: a log written for file A, resumed with file B
    # (or with A after it changed), must not lend A's ratings to B's lines
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(f"{EASY}\n")
    b.write_text(f"{DIABOLICAL}\n")
    log = tmp_path / "log.jsonl"
    assert main(["rate", str(a), "--workers", "1", "--log", str(log)]) == 0
    capsys.readouterr()
    before = log.read_bytes()
    assert main(["rate", str(b), "--workers", "1", "--log", str(log), "--resume"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "another puzzle" in err and len(err.strip().splitlines()) == 1
    assert log.read_bytes() == before
    # the same input rated at another nesting level: refused too
    assert main(["rate", str(a), "--workers", "1", "--log", str(log), "--resume", "--max-level", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--max-level 5" in err and log.read_bytes() == before


def test_resume_rates_a_torn_last_row_again(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(f"{EASY}\n{EASY}\n")
    log = tmp_path / "log.jsonl"
    assert main(["rate", str(path), "--workers", "1", "--log", str(log), "--limit", "1"]) == 0
    capsys.readouterr()
    with log.open("a") as fh:
        fh.write('{"line": 2, "puzz')  # the run was killed while writing line 2's row
    assert main(["rate", str(path), "--workers", "1", "--log", str(log), "--resume"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 2 and all(r.startswith(EASY) for r in rows)
    logged = [json.loads(t) for t in log.read_text().splitlines()]  # the torn row cut, line 2's appended
    assert [r["line"] for r in logged] == [1, 2] and logged[1]["max_level"] == 5
    # a torn row in the middle is not a log of this command
    log.write_text('{"line": 1, "puzz\n' + log.read_text().splitlines()[-1] + "\n")
    assert main(["rate", str(path), "--workers", "1", "--log", str(log), "--resume"]) == 2
    assert "line 1: not a row of linkgraph rate" in capsys.readouterr().err
