"""linkgraph against another solver: samples, alternation, checked answers, the bench command."""

from __future__ import annotations

import json

import pytest

from linkgraph.cli.main import main
from linkgraph.errors import OptionError
from linkgraph.io import corpus_path, read_puzzles, read_solutions
from linkgraph.research import race as racing

EULER = [p.puzzle for p in read_puzzles(corpus_path("euler96"), limit=4)]
ANSWERS = dict(zip(EULER, read_solutions(corpus_path("euler96", solutions=True))[:4]))


def test_evenly_spaced_by_hand():
    assert racing.evenly_spaced(range(1465), 40)[:3] == [0, 38, 75]  # round(i * 1464 / 39): 37.5 -> 38, 75.1 -> 75
    assert racing.evenly_spaced(range(1465), 40)[-1] == 1464
    assert racing.evenly_spaced("abcde", 2) == ["a", "e"]
    assert racing.evenly_spaced("abcde", 1) == ["a"]
    assert racing.evenly_spaced("abc", None) == ["a", "b", "c"]
    with pytest.raises(OptionError):
        racing.evenly_spaced("abc", 0)


def test_answers_are_checked_against_the_solution():
    """A rival that answers from the shipped solutions file solves; wrong, empty or crashing ones do not."""
    right = racing.Rival("right", "1", ANSWERS.get)
    wrong = racing.Rival("wrong", "1", lambda p: ANSWERS[p][::-1])
    none = racing.Rival("none", "1", lambda p: None)

    def crash(p):
        raise RuntimeError("boom")

    crashing = racing.Rival("crash", "1", crash)
    for rival, solved in ((right, True), (wrong, False), (none, False), (crashing, False)):
        r = racing.race(EULER[:2], rival, label="euler")
        assert r.theirs_solved == (solved, solved)
        assert r.ours_solved == (True, True)
        assert all(t >= 0 for t in r.ours + r.theirs)


def test_solvers_alternate_puzzle_by_puzzle(monkeypatch):
    calls = []
    real = racing.solve

    def ours(grid, **kw):
        calls.append("ours")
        return real(grid, **kw)

    def theirs(p):
        calls.append("theirs")
        return ANSWERS[p]

    monkeypatch.setattr(racing, "solve", ours)
    racing.race(EULER[:3], racing.Rival("t", "1", theirs), repeat=2)
    timed = calls[2:]  # after the untimed warm-up (ours, then theirs)
    assert calls[:2] == ["ours", "theirs"]
    # puzzle 0: ours first in run 0, theirs first in run 1; puzzle 1 starts the other way round
    assert timed[:4] == ["ours", "theirs", "theirs", "ours"]
    assert timed[4:8] == ["theirs", "ours", "ours", "theirs"]
    assert timed[8:12] == ["ours", "theirs", "theirs", "ours"]
    assert len(timed) == 12


def test_least_of_the_repeats_and_the_summary(monkeypatch):
    # run 0: ours first (0.5 s), then theirs (0.2 s); run 1: theirs first (0.1 s), then ours (0.9 s)
    clock = iter([0.0, 0.5, 0.5, 0.7, 1.0, 1.1, 2.0, 2.9])
    monkeypatch.setattr(racing.time, "process_time", lambda: next(clock))
    r = racing.race(EULER[:1], racing.Rival("t", "1", ANSWERS.get), repeat=2)
    assert r.ours == (pytest.approx(0.5),)
    assert r.theirs == (pytest.approx(0.1),)
    s = r.summary()
    assert s["mean"] == {"linkgraph_ms": 500.0, "t_ms": 100.0, "ratio": 5.0}
    assert s["solved"] == {"linkgraph": 1, "t": 1}


def test_bad_repeat_and_unknown_rival():
    with pytest.raises(OptionError, match="--repeat"):
        racing.race(EULER[:1], racing.Rival("t", "1", ANSWERS.get), repeat=0)
    with pytest.raises(OptionError, match="unknown solver 'nosuch'"):
        racing.rival("nosuch")


@pytest.fixture
def fake_rival(monkeypatch):
    monkeypatch.setitem(racing.RIVALS, "fake", lambda: racing.Rival("fake", "9.9", ANSWERS.get))


def test_bench_against_prints_the_ratio_table(fake_rival, tmp_path, capsys):
    path = tmp_path / "four.txt"
    path.write_text("\n".join(EULER) + "\n")
    assert main(["bench", str(path), "--against", "fake", "--sample", "2"]) == 0
    out = capsys.readouterr().out
    assert "linkgraph against fake 9.9" in out
    assert "| four, 2 evenly spaced of 4, mean solve |" in out
    assert "| four, 2 evenly spaced of 4, median solve |" in out
    assert "solved by logic (four, 2 evenly spaced of 4): linkgraph 2/2, fake 2/2" in out
    assert main(["bench", str(path), "--against", "fake", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (r,) = data["races"]
    assert r["puzzles"] == 4 and [row["puzzle"] for row in r["rows"]] == EULER
    assert r["solved"] == {"linkgraph": 4, "fake": 4}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--against", "nosuch"], "OptionError: --against: unknown solver 'nosuch'"),
        (["--against", "fake", "--repeat", "0"], "--repeat: expected a positive number"),
        (["--against", "fake", "--sample", "-1"], "--sample: expected 0 (all) or a positive number"),
    ],
)
def test_bench_against_bad_options(fake_rival, tmp_path, capsys, argv, message):
    path = tmp_path / "four.txt"
    path.write_text("\n".join(EULER) + "\n")
    assert main(["bench", str(path), *argv]) == 2
    err = capsys.readouterr()
    assert message in err.err and "Traceback" not in err.err and err.out == ""


def test_bench_against_a_bad_line_fails_before_timing(fake_rival, tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(EULER[0] + "\n12.4x\n")
    assert main(["bench", str(path), "--against", "fake"]) == 2
    err = capsys.readouterr()
    assert "line 2" in err.err and err.out == ""


def test_missing_larsdoku_says_how_to_install(monkeypatch, capsys):
    import builtins

    real_import = builtins.__import__

    def no_larsdoku(name, *args, **kw):
        if name == "larsdoku":
            raise ImportError("No module named 'larsdoku'")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_larsdoku)
    assert main(["bench", "--against", "larsdoku", "--sample", "1"]) == 2
    assert "pip install 'linkgraph[bench]'" in capsys.readouterr().err


def test_larsdoku_itself():
    """When the bench extra is installed: larsdoku solves a puzzle and its answer is checked."""
    pytest.importorskip("larsdoku")
    r = racing.race(EULER[:1], racing.rival("larsdoku"))
    assert r.theirs_solved == (True,) and r.ours_solved == (True,)


def test_bench_against_progress_line(fake_rival, tmp_path, capsys):
    path = tmp_path / "four.txt"
    path.write_text("\n".join(EULER) + "\n")
    assert main(["bench", str(path), "--against", "fake", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "four, all 4:" in err and "4/4" in err
