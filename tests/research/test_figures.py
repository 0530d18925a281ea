"""Figures: Spearman's rho against hand-computed values, bins on a discrete grid, the plot
command's options, and the committed study figures current with their data."""

from __future__ import annotations

import csv
import importlib.util
import math
import sys
from pathlib import Path

import pytest

import linkgraph as lg
from linkgraph.cli.main import main
from linkgraph.research.figures import fitted_bins, is_discrete, label, spearman

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "diagrams" / "figures"

matplotlib = pytest.importorskip("matplotlib")


def test_spearman_by_hand():
    # ranks x: 1 2 3 4 5, y: 2 1 4 3 5 -> d^2 = 1+1+1+1+0 = 4, rho = 1 - 6*4/(5*24) = 0.8
    assert spearman([1, 2, 3, 4, 5], [20, 10, 40, 30, 50]) == pytest.approx(0.8)
    assert math.isnan(spearman([1, 2], [1, 2])) and math.isnan(spearman([1, 1, 1], [1, 2, 3]))


def test_discrete_axes_and_bins():
    assert is_discrete([5.5, 7.1, 8.3]) == 0.1 and is_discrete([3, 10]) == 1.0 and is_discrete([0.25, 1]) is None
    edges = fitted_bins([7.1, 7.2, 7.2, 7.4])
    assert [round(e, 2) for e in edges] == [7.05, 7.15, 7.25, 7.35, 7.45]
    assert fitted_bins([0.13, 0.5]) == 30
    assert label("solver_rating").startswith("linkgraph rating")


def test_plot_command_dpi_title_and_errors(tmp_path, capsys):
    from PIL import Image

    rows = tmp_path / "rows.csv"
    rows.write_text("rating,solver_rating\n7.1,7.2\n5.5,5.6\n8.3,8.0\n7.1,7.1\n")
    out = tmp_path / "f.png"
    assert main(["plot", str(rows), "--x", "rating", "--y", "solver_rating", "--dpi", "80", "--title", "T", "-o", str(out)]) == 0
    assert Image.open(out).size == (7 * 80, 5 * 80)
    assert main(["plot", str(rows), "--x", "rating", "--kind", "hist", "-o", str(tmp_path / "h.svg")]) == 0
    assert main(["plot", str(rows), "--x", "rating", "--y", "nope", "-o", str(out)]) == 2
    assert main(["plot", str(rows), "--x", "rating", "--y", "solver_rating", "--dpi", "5", "-o", str(out)]) == 2
    assert "--dpi: expected a whole number from 20 to 1200, found 5" in capsys.readouterr().err


def _script():
    spec = importlib.util.spec_from_file_location("make_figures", ROOT / "examples" / "make_figures.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_figures"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_committed_figures_are_current(tmp_path):
    mod = _script()
    for path in mod.draw(tmp_path, FIGURES / "data"):
        committed = FIGURES / path.name
        assert committed.is_file(), f"{committed} missing: run examples/make_figures.py"
        assert path.read_bytes() == committed.read_bytes(), f"{path.name} is stale: run examples/make_figures.py"


def test_study_data_matches_the_solver():
    """A few rows of the committed rating study, solved again: the same rating."""
    rows = list(csv.DictReader(open(FIGURES / "data" / "rating-se.csv")))
    assert len(rows) == 1000
    lines = {p.number: p for p in lg.io.read_puzzles(ROOT / "linkgraph" / "data" / "puzzles" / "diabolical_sample.txt")}
    for row in rows[::250]:
        line = lines[int(row["line"])]
        assert float(row["rating"]) == line.rating
        assert lg.solve(line.grid(), ladder="se").rating == float(row["solver_rating"])
