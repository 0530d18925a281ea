"""The example scripts run and compute what they claim."""

from __future__ import annotations

import doctest
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rating_study_doctests():
    module = load("rating_study")
    assert doctest.testmod(module).failed == 0


def test_spearman_by_hand():
    # x ranks 1..5; y = 2,1,4,3,5 -> d = (1,1,1,1,0), sum d^2 = 4, rho = 1 - 6*4/(5*24) = 0.8
    rs = load("rating_study")
    assert rs.spearman([1, 2, 3, 4, 5], [20, 10, 40, 30, 50]) == pytest.approx(0.8)


def test_rating_study_reads_a_verify_log(tmp_path, capsys):
    # four SE-rated diabolical puzzles checked by `linkgraph verify --log`; the log rates them
    from linkgraph.cli.main import main

    log = tmp_path / "sweep.jsonl"
    sample = ROOT / "linkgraph/data/puzzles/diabolical_sample.txt"
    assert main(["verify", str(sample), "--limit", "4", "--log", str(log)]) == 0
    capsys.readouterr()
    rows = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    se = [float(line.split("\t")[1]) for line in sample.read_text().splitlines()[:4]]
    assert [row["rating"] for row in rows] == se  # the file's own column, read back
    assert all(row["solved"] == 1 and row["solver_rating"] >= 3.0 for row in rows)
    assert load("rating_study").main([str(log)]) == 0
    assert "puzzles 4 (left out: 0 unsolved, 0 without an SE rating)" in capsys.readouterr().out


def test_rating_study_reads_batch_rows(tmp_path, capsys):
    rows = ["line,rating,solved,solver_rating", "1,7.2,1,6.0", "2,8.0,1,7.5", "3,9.0,1,9.1", "4,-,1,3.0", "5,9.5,0,8.8"]
    path = tmp_path / "r.csv"
    path.write_text("\n".join(rows) + "\n")
    assert load("rating_study").main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "puzzles 3 (left out: 1 unsolved, 1 without an SE rating)" in out
    assert "Spearman rho = 1.000" in out


def test_bench_uniqueness_doctests():
    # every form of Norvig's impossible puzzle is answered "no solution", Wikipedia's has one
    module = load("bench_uniqueness")
    assert doctest.testmod(module).failed == 0
