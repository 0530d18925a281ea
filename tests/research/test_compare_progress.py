"""compare: Spearman with the file's rating (checked against scipy), end metrics only where a
ladder got stuck, and the progress line that batch shows; bench shows it too."""

from __future__ import annotations

import json

import pytest

from linkgraph.cli.main import main

SAMPLE = "linkgraph/data/puzzles/diabolical_sample.txt"


def test_compare_spearman_end_rows_and_progress(tmp_path, capsys):
    stats = pytest.importorskip("scipy.stats")
    out = tmp_path / "rows.csv"
    assert main(["compare", SAMPLE, "--ladder", "basic", "--ladder", "default", "--limit", "8", "--workers", "1",
                 "--progress", "--format", "json", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "8/8" in captured.err and "ladder default:" in captured.err
    report = {d["ladder"]: d for d in json.loads(captured.out)["ladders"]}
    import csv

    rows = [r for r in csv.DictReader(open(out)) if r["ladder"] == "default"]
    want = stats.spearmanr([float(r["rating"]) for r in rows], [float(r["solver_rating"]) for r in rows]).statistic
    assert report["default"]["spearman with the file's rating"] == pytest.approx(want, abs=1e-4)
    # the default ladder solves all 8: its end metrics are empty, not zero; basic gets stuck
    assert report["default"]["end (unsolved only): links (mean)"] is None
    assert report["basic"]["end (unsolved only): links (mean)"] > 0
    assert all(r["end_links"] == "" for r in rows)


def test_bench_progress_line(capsys):
    assert main(["bench", SAMPLE, "--job", "oracle", "--limit", "5", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "oracle:" in err and "5/5" in err
