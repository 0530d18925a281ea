"""Jupyter rich display: a Grid shows its candidate board, a SolveResult its step table."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET

import pytest

import linkgraph as lg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.skipif(shutil.which("neato") is None, reason="Graphviz neato not installed")
def test_grid_shows_its_board():
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    root = ET.fromstring(grid._repr_svg_())
    words = [t.text for t in root.iter(f"{SVG}text")]
    assert "classic: 20 open cells" in words
    # r2c4 holds 1, 2 and 8 (README: the GNPX position); each shows as a small digit
    solved = sum(1 for w in words if w and w.isdigit() and len(w) == 1)
    assert solved >= 61 + 3  # the 61 solved cells, plus candidates


def test_grid_display_falls_back_to_text_without_a_drawer(monkeypatch):
    monkeypatch.setattr(lg.grid, "DISPLAY", {})
    assert lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)._repr_svg_() is None


def test_solve_result_step_table():
    result = lg.solve(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    html = result._repr_html_()
    assert html.startswith("<p><b>solved</b>: 47 steps, rating 3.4")
    assert len(re.findall(r"<tr><td>", html)) == len(result.steps) == 47
    assert "<td>hidden-single</td><td><code>r1c7=3</code>" in html
