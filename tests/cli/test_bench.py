"""``linkgraph bench``: the clock it times jobs by (wall or the process's CPU time)."""

from __future__ import annotations

import json
import time

import pytest

from linkgraph.cli import bench
from linkgraph.cli.main import main

SAMPLE = "linkgraph/data/puzzles/diabolical_sample.txt"


@pytest.fixture
def sleeping_job(monkeypatch):
    """The ``oracle`` job replaced by 40 ms of sleep: wall time passes, almost no CPU time."""

    def job(name):
        return None, lambda grid: time.sleep(0.04)

    monkeypatch.setattr(bench, "_job", job)


@pytest.mark.parametrize("clock, low, high", [("wall", 40, 10_000), ("process", 0, 20)])
def test_the_clock_a_job_is_timed_by(sleeping_job, capsys, clock, low, high):
    assert main(["bench", SAMPLE, "--job", "oracle", "--limit", "3", "--clock", clock, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["clock"] == clock
    (row,) = report["results"]
    assert row["puzzles"] == 3
    assert low <= row["median_ms"] < high


def test_wall_is_the_default_and_process_is_named_in_the_text_report(sleeping_job, capsys):
    assert main(["bench", SAMPLE, "--job", "oracle", "--limit", "2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["clock"] == "wall"
    assert main(["bench", SAMPLE, "--job", "oracle", "--limit", "2", "--clock", "process"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("(process time)")


def test_an_unknown_clock_is_a_usage_error(capsys):
    assert main(["bench", SAMPLE, "--clock", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "--clock" in err and "'cpu'" in err and "Traceback" not in err
