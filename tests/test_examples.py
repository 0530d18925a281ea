"""The example scripts run and compute what they claim."""

from __future__ import annotations

import doctest
import importlib.util
import json
import shutil
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
def test_rating_study_solves_a_file_itself(capsys):
    # --solve runs the batch job here; the SE ratings read back are the file's own column
    path = ROOT / "linkgraph/data/puzzles/diabolical_sample.txt"
    assert load("rating_study").main(["--solve", str(path), "--limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "solved 5 puzzles of diabolical_sample.txt with --ladder default" in out
    assert "puzzles 5 (left out: 0 unsolved, 0 without an SE rating)" in out
    se = sorted(float(line.split("\t")[1]) for line in path.read_text().splitlines()[:5])
    bands = {f"{int(r * 2) / 2:4.1f}" for r in se}
    assert all(f"\n{band}-" in out for band in bands)


def test_rating_study_wants_one_source(capsys):
    with pytest.raises(SystemExit) as stop:
        load("rating_study").main([])
    assert stop.value.code == 2


CONCEPTS = ROOT / "diagrams" / "concepts"
SVG = "{http://www.w3.org/2000/svg}"


def _svg_edges(svg: Path) -> dict[str, bool]:
    """Edge ('a--b', ends sorted) -> whether it is drawn dashed."""
    import xml.etree.ElementTree as ET

    out = {}
    for g in ET.parse(svg).getroot().iter(f"{SVG}g"):
        if g.get("class") == "edge":
            path = g.find(f"{SVG}path")
            ends = sorted(g.findtext(f"{SVG}title").replace("->", "--").split("--"))
            out["--".join(ends)] = bool(path is not None and path.get("stroke-dasharray"))
    return out


@pytest.mark.skipif(shutil.which("neato") is None, reason="Graphviz not installed")
def test_concept_diagrams_are_fresh_and_draw_row_2(tmp_path):
    pytest.importorskip("matplotlib")
    written = load("concept_diagrams").write_concepts(tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in CONCEPTS.iterdir())
    # row 2 of the GNPX position after the basic ladder, read off its candidate grid by hand:
    # r2c4 {1,2,8}, r2c6 {2,8}, r2c8 {1,2}. Strong: r2#1, r2#8 and the two bivalue cells;
    # weak: the three pairs of r2c4 and the three places of 2 in row 2.
    edges = _svg_edges(tmp_path / "links-row2.svg")
    strong = {"r2c4#1--r2c8#1", "r2c8#1--r2c8#2", "r2c6#2--r2c6#8", "r2c4#8--r2c6#8"}
    weak = {"r2c4#1--r2c4#2", "r2c4#1--r2c4#8", "r2c4#2--r2c4#8",
            "r2c4#2--r2c6#2", "r2c4#2--r2c8#2", "r2c6#2--r2c8#2"}
    assert {e for e, dashed in edges.items() if not dashed} == strong
    assert {e for e, dashed in edges.items() if dashed} == weak
    for name in ("links-row2.svg", "implication-path.svg", "net-plus.flow.svg", "net-nested.flow.svg"):
        assert _svg_edges(tmp_path / name) == _svg_edges(CONCEPTS / name), f"{name} is stale: run examples/concept_diagrams.py"


def test_se_agreement_counts_dedupes_and_explains(tmp_path, capsys):
    import linkgraph as lg

    easy = lg.samples.EULER_01  # only singles: SE rates it 1.2/1.2/1.2 (se.solver's doctest)
    others = ["1" * 81, "2" * 81]
    ref = tmp_path / "ref.tsv"
    # hand-made reference: the first line agrees, the second is 0.1 off in ER, the easy one
    # is said to be 1.5/1.2/1.2 (so ER disagrees and is explained)
    ref.write_text(f"# puzzle, ER, EP, ED\n{others[0]}\t10.0\t10.0\t9.0\n{others[1]}\t11.0\t1.2\t1.2\n"
                   f"{easy}\t1.5\t1.2\t1.2\n")
    rows = [
        {"line": 1, "puzzle": others[0], "er": 10.0, "ep": 10.0, "ed": 9.0, "seconds": 4.0},
        {"line": 2, "puzzle": others[1], "er": 11.1, "ep": 1.2, "ed": 1.2, "seconds": 8.0},
        {"line": 3, "puzzle": easy, "error": "Timeout: line 3: no result within 300 s"},
    ]
    first = tmp_path / "a.jsonl"
    first.write_text("".join(json.dumps(r) + "\n" for r in rows))
    second = tmp_path / "b.jsonl"  # the timed-out puzzle rated in a second log counts once, rated
    second.write_text(json.dumps({"line": 1, "puzzle": easy, "er": 1.2, "ep": 1.2, "ed": 1.2, "seconds": 0.5}) + "\n")
    module = load("se_agreement")
    assert module.main([str(first), str(ref)]) == 0
    out = capsys.readouterr().out
    assert "2 rated lines (1 with an error or not in the reference)" in out
    assert "ER: equal 1/2 (50.0 %), within 0.1 2/2 (100.0 %)" in out
    assert "1 timed out; with them counted at their limit: median at least 8.0 over 3" in out
    # with the second line agreeing, only the easy one is explained (rated again)
    ref.write_text(ref.read_text().replace("\t11.0\t", "\t11.1\t"))
    assert module.main([str(first), str(second), str(ref), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "3 rated lines (0 with an error" in out
    assert "ER: equal 2/3 (66.7 %), within 0.1 2/3 (66.7 %)" in out
    assert f"#2: {easy} ours 1.2/1.2/1.2 SE 1.5/1.2/1.2" in out
    assert f"#1: {others[1]}" not in out
    assert "    ER: ours step " in out and "Hidden Single 1.2" in out  # our hardest step, shown
