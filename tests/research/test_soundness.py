"""The soundness sweep: every step of the default ladder, checked twice, over the corpora.

Default run: a spread sample of each corpus shipped in ``linkgraph/data/puzzles``
(every k-th puzzle, `SAMPLE` of them), solved with the default ladder up to the
plain forcing nets (`QUICK_LADDER`: the depth-1/2 "plus" and the nested net rungs
cost seconds to minutes per hard puzzle, so they run in the slow sweep); each step is
checked against the corpus's own solution file (an independent source: placements
are solution digits, eliminations are not) and replayed by the proof checker
`linkgraph.check.checker.check_step` on the position it was found in.

The library behind the command, `linkgraph.research.soundness`: `check_line` flags a step
that contradicts the solution, a proof the checker rejects and a solve that raises (each
planted); `sweep` returns the report the command prints, refuses bad options before any
work, and an interrupted sweep keeps its finished puzzles in its report and log.

``-m slow``: ``linkgraph verify FILE`` over every corpus file of the shared folder
(``../shared/puzzles`` or ``$LINKGRAPH_CORPORA``; skipped when absent), the whole file
when it has at most `FULL_LINES` puzzles, else its first `FULL_LINES`
(``$LINKGRAPH_SWEEP_LIMIT`` overrides). The command must report no unsound step,
no rejected proof, no error and no bad line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.conftest import SHARED, assert_sound, load_corpus

import linkgraph as lg
from linkgraph.cli.main import main
from linkgraph.errors import ProofError
from linkgraph.check.checker import check_step
from linkgraph.research import soundness

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "linkgraph" / "data" / "puzzles"
SAMPLE = 5
FULL_LINES = 2000
#: The default ladder without the expensive net rungs (forcing-net-plus*, -nested*).
QUICK_LADDER = tuple(t.name for t in lg.techniques.LADDER
                     if t.default and "plus" not in t.name and "nested" not in t.name)


def _corpora(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.txt") if not p.name.endswith(".solutions.txt"))


def _sample(name: str) -> list[tuple[int, lg.Grid, object]]:
    """(1-based puzzle number, grid, solution) for SAMPLE puzzles spread over the corpus."""
    count = sum(1 for _ in lg.io.read_puzzles(SHIPPED / f"{name}.txt"))
    every = max(1, count // SAMPLE)
    pairs = load_corpus(name, limit=SAMPLE, every=every)
    return [(1 + i * every, grid, sol) for i, (grid, sol) in enumerate(pairs)]


@pytest.mark.parametrize("name", _corpora(SHIPPED))
def test_shipped_corpus_sample_is_sound_and_proven(name):
    checked = 0
    for number, grid, solution in _sample(name):
        result = lg.solve(grid, ladder=QUICK_LADDER)
        assert_sound(result.steps, solution, grid.geometry)
        position = grid
        for i, step in enumerate(result.steps, 1):
            try:
                check_step(position, step)
            except ProofError as exc:
                pytest.fail(f"{name} #{number} step {i}: {step}: {exc}")
            position = position.apply(step)
            checked += 1
        if result.solved:
            assert (position.values == solution).all(), f"{name} #{number}: solved to a wrong grid"
    assert checked > 0


def test_verify_command_over_a_sample_file(tmp_path, capsys):
    # the command itself, on a few puzzles of two corpora, JSON report
    lines = (SHIPPED / "top95.txt").read_text().splitlines()[3:5] + (SHIPPED / "euler96.txt").read_text().splitlines()[:1]
    path = tmp_path / "sample.txt"
    path.write_text("\n".join(lines) + "\n")
    code = main(["verify", str(path), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["puzzles"] == 3 and report["bad_lines"] == 0
    assert report["steps"] > 0 and report["eliminations"] > 0
    assert (report["unsound"], report["rejected"], report["crashed"]) == (0, 0, 0), report["failures"]
    assert code == 0 and report["ok"]


def test_verify_every_and_workers_give_the_same_report(tmp_path, capsys):
    # every 2nd line of five (lines 1, 3, 5: a bad line among them), in one and in two processes
    good = (SHIPPED / "euler96.txt").read_text().splitlines()
    lines = [good[0], good[1], "12345", good[2], good[3]]
    path = tmp_path / "sample.txt"
    path.write_text("\n".join(lines) + "\n")
    reports = []
    for workers in ("1", "2"):
        code = main(["verify", str(path), "--every", "2", "--workers", workers, "--format", "json"])
        report = json.loads(capsys.readouterr().out)
        report.pop("seconds")
        report.pop("check_seconds")
        reports.append(report)
        assert code == 1  # the bad line fails the sweep
    assert reports[0] == reports[1]
    report = reports[0]
    assert report["puzzles"] == 3 and report["bad_lines"] == 1 and report["solved"] == 2
    assert [f["line"] for f in report["failures"]] == [3]
    assert (report["unsound"], report["rejected"], report["crashed"]) == (0, 0, 0)


@pytest.mark.parametrize("option", ["--every", "--workers"])
def test_verify_rejects_a_bad_count(option, capsys):
    assert main(["verify", str(SHIPPED / "euler96.txt"), option, "0"]) == 2
    assert option in capsys.readouterr().err


def _rows(path: Path) -> list[dict]:
    """A verify log's puzzle rows, without their timings."""
    rows = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    for row in rows:
        row.pop("seconds")
    return rows


def _report(text: str) -> dict:
    report = json.loads(text)
    for key in ("seconds", "check_seconds", "resumed"):
        report.pop(key)
    return report


def test_verify_log_has_a_row_per_puzzle_that_adds_up_to_the_report(tmp_path, capsys):
    log = tmp_path / "sweep.jsonl"
    code = main(["verify", str(SHIPPED / "euler96.txt"), "--every", "7", "--ladder", "basic",
                 "--log", str(log), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["resumed"] == 0
    header, *rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert header["verify"]["every"] == 7 and header["verify"]["ladder"] == "basic"
    assert [row["line"] for row in rows] == list(range(1, 51, 7))  # every 7th of 50 one-puzzle lines
    for key in ("puzzles", "solved", "steps", "placements", "eliminations"):
        assert sum(row[key] for row in rows) == report[key], key
    assert all(row["seconds"] > 0 for row in rows)
    assert report["check_seconds"] == pytest.approx(sum(row["seconds"] for row in rows), abs=0.01)
    assert all(row["rating"] is None and row["solver_rating"] > 0 for row in rows)  # euler96 has no rating column


def test_verify_resume_after_sigterm_gives_the_uninterrupted_report(tmp_path, capsys):
    # a sweep stopped by SIGTERM keeps its finished rows; --resume reads them back and checks
    # only the rest: log and report equal those of a run that was never stopped
    argv = [str(SHIPPED / "euler96.txt"), "--ladder", "basic", "--format", "json"]
    whole = tmp_path / "whole.jsonl"
    assert main(["verify", *argv, "--log", str(whole)]) == 0
    expected = _report(capsys.readouterr().out)
    log = tmp_path / "stopped.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "linkgraph", "verify", *argv, "--log", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    journal = tmp_path / "stopped.jsonl.partial"
    deadline = time.monotonic() + 120
    while (not journal.exists() or journal.read_text().count("\n") < 3) and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert out == b"" and b"--resume carries on" in err  # no partial report
    assert not log.exists()  # the log appears whole, or not at all
    kept = len(_rows(journal))
    assert 2 <= kept < 50
    assert main(["verify", *argv, "--log", str(log), "--resume"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["resumed"] == kept
    assert _report(json.dumps(resumed)) == expected
    assert _rows(log) == _rows(whole)


def test_verify_progress_off_a_terminal_is_whole_lines(capsys):
    # stderr captured (not a terminal): whole lines, no carriage returns, the last one complete
    assert main(["verify", str(SHIPPED / "euler96.txt"), "--every", "10", "--ladder", "basic", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and err.endswith("\n")
    assert err.splitlines()[-1].startswith("5/5  ") and "/s" in err


# a time-out may land in a finaliser or a gc callback, where Python prints it and goes on ("Exception
# ignored"); the deadline raises it again 50 ms later (test_runner), so the job still stops: that print
# is expected here, not a failure
_TIMEOUT_NOISE = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@_TIMEOUT_NOISE
def test_verify_timeout_fails_a_row_and_goes_on(tmp_path, capsys):
    # Fata Morgana (famous list) needs many nested nets (over a second even on a fast idle machine);
    # euler96's first falls to singles (milliseconds)
    path = tmp_path / "two.txt"
    path.write_text((SHIPPED / "famous.txt").read_text().splitlines()[0].split("\t")[1] + "\n"
                    + (SHIPPED / "euler96.txt").read_text().splitlines()[0] + "\n")
    code = main(["verify", str(path), "--timeout", "0.3", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and not report["ok"]
    assert report["timeouts"] == 1 and report["puzzles"] == 2 and report["solved"] == 1
    assert [(f["line"], f["kind"]) for f in report["failures"]] == [(1, "timeout")]
    assert main(["verify", str(path), "--timeout", "0"]) == 2
    assert "--timeout" in capsys.readouterr().err


@_TIMEOUT_NOISE
def test_verify_timeout_while_checking_counts_no_solve_and_no_steps(tmp_path, capsys, monkeypatch):
    # the solve is done in milliseconds, then the proof check overruns: the row is a time-out only,
    # not a solved puzzle with half of its steps counted
    import linkgraph.check.checker

    def slow_check(grid, step):
        time.sleep(0.5)

    monkeypatch.setattr(linkgraph.check.checker, "check_step", slow_check)
    path = tmp_path / "one.txt"
    path.write_text((SHIPPED / "euler96.txt").read_text().splitlines()[0] + "\n")
    log = tmp_path / "sweep.jsonl"
    code = main(["verify", str(path), "--ladder", "basic", "--timeout", "0.2", "--log", str(log), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["timeouts"] == 1 and report["puzzles"] == 1
    assert report["solved"] == 0 and report["steps"] == 0 and report["techniques"] == {}
    row = json.loads(log.read_text().splitlines()[1])
    assert row["timeouts"] == 1 and row["solved"] == 0 and row["steps"] == 0


def test_verify_resume_refuses_a_log_of_another_sweep(tmp_path, capsys):
    log = tmp_path / "sweep.jsonl"
    euler = str(SHIPPED / "euler96.txt")
    assert main(["verify", euler, "--limit", "2", "--ladder", "basic", "--log", str(log)]) == 0
    before = log.read_bytes()
    capsys.readouterr()
    assert main(["verify", euler, "--limit", "3", "--ladder", "basic", "--log", str(log), "--resume"]) == 2
    assert "limit 2" in capsys.readouterr().err and log.read_bytes() == before
    log.write_text('{"line": 1}\n')
    assert main(["verify", euler, "--log", str(log), "--resume"]) == 2
    assert "not a linkgraph verify log" in capsys.readouterr().err
    assert main(["verify", euler, "--resume"]) == 2
    assert "--resume needs --log" in capsys.readouterr().err


# ---- the library: linkgraph.research.soundness ------------------------------------------


EULER = SHIPPED / "euler96.txt"


def _line(n: int = 1) -> lg.io.PuzzleLine:
    return next(lg.io.read_puzzles(EULER, start=n - 1, limit=1))


def test_check_line_flags_a_step_against_the_solution(monkeypatch):
    # a false "solution" with every digit moved on by one: the first step of the solve, a
    # placement of the true digit, contradicts it; the later steps are left unchecked
    true_solve = soundness.solve_unique
    monkeypatch.setattr(soundness, "solve_unique", lambda grid: true_solve(grid) % 9 + 1)
    one = soundness.check_line(_line(), ladder="basic")
    assert (one.puzzles, one.unsound, one.steps) == (1, 1, 1)
    assert [(f["line"], f["kind"], f["step"]) for f in one.failures] == [(1, "unsound", 1)]
    assert "places" in one.failures[0]["message"] and one.failed == 1


def test_check_line_counts_every_proof_the_checker_rejects(monkeypatch):
    def reject(grid, step):
        raise lg.ProofError(f"{step.technique}: rejected for the test")

    monkeypatch.setattr(lg.check.checker, "check_step", reject)
    one = soundness.check_line(_line(), ladder="basic")
    assert one.steps > 1 and one.rejected == one.steps == len(one.failures)  # every step checked, none skipped
    assert {f["kind"] for f in one.failures} == {"rejected"}
    assert [f["step"] for f in one.failures] == list(range(1, one.steps + 1))
    assert one.solved == 1 and one.unsound == 0


@pytest.mark.parametrize(("error", "kind"), [(RuntimeError("bug"), "crash"), (lg.OptionError("no"), "error")])
def test_check_line_turns_a_failing_solve_into_a_row(monkeypatch, error, kind):
    def fail(grid, ladder=None):
        raise error

    monkeypatch.setattr(lg.solver, "solve", fail)
    one = soundness.check_line(_line(3))
    assert (one.puzzles, one.crashed, one.solved, one.steps) == (1, 1, 0, 0)
    assert [(f["line"], f["kind"]) for f in one.failures] == [(3, kind)]
    assert one.failures[0]["message"] == f"{type(error).__name__}: {error}"


def test_check_line_of_a_puzzle_with_two_solutions_is_a_bad_line():
    two = lg.io.parse_line("." * 81, 4)
    one = soundness.check_line(two)
    assert (one.bad_lines, one.steps, one.failed) == (1, 0, 1)
    assert [(f["line"], f["kind"]) for f in one.failures] == [(4, "bad line")]
    assert one.failures[0]["message"].startswith("InvalidPuzzleError: ")


def test_sweep_equals_the_command(tmp_path, capsys):
    # the command prints the library's report; every 9th line of euler96 from the 4th: lines 4, 13, ... 49
    report = soundness.sweep(EULER, ladder="basic", start=3, every=9, progress=False)
    assert main(["verify", str(EULER), "--ladder", "basic", "--start", "3", "--every", "9", "--format", "json"]) == 0
    printed = _report(capsys.readouterr().out)
    assert _report(json.dumps(report.to_dict(10))) == printed
    assert report.puzzles == 6 and report.file == str(EULER) and report.ladder == "basic"


def test_sweep_takes_a_ladder_as_names_or_one_string():
    names = ("hidden-single", "naked-single", "full-house")
    by_names = soundness.sweep(EULER, ladder=names, limit=3, progress=False)
    by_text = soundness.sweep(EULER, ladder=",".join(names), limit=3, progress=False)
    assert by_names.ladder == by_text.ladder == "hidden-single,naked-single,full-house"
    assert by_names.techniques == by_text.techniques and set(by_names.techniques) <= set(names)


@pytest.mark.parametrize(("options", "message"), [
    ({"limit": 0}, "--limit"), ({"start": -1}, "--start"), ({"every": 0}, "--every"), ({"workers": 0}, "--workers"),
    ({"timeout": 0}, "--timeout"), ({"resume": True}, "--resume needs --log"),
])
def test_sweep_rejects_bad_options_before_any_work(tmp_path, options, message):
    log = tmp_path / "never.jsonl"
    with pytest.raises(lg.OptionError, match=message):
        soundness.sweep(EULER, **({"log": log} if "resume" not in options else {}), **options)
    assert not log.exists()
    with pytest.raises(lg.UnknownTechniqueError):
        soundness.sweep(EULER, ladder="x-wnig", log=log)
    with pytest.raises(lg.PuzzleFormatError):
        soundness.sweep(tmp_path / "missing.txt", log=log)
    assert not log.exists()


def test_an_interrupted_sweep_keeps_its_finished_puzzles_in_report_and_log(tmp_path, monkeypatch):
    # Ctrl-C while the 4th puzzle is checked: the report and the log hold the first three
    true_check = soundness.check_line

    def interrupted_at_4(line, **kw):
        if line.number == 4:
            raise KeyboardInterrupt
        return true_check(line, **kw)

    monkeypatch.setattr(soundness, "check_line", interrupted_at_4)
    log = tmp_path / "sweep.jsonl"
    log.write_text("an older log\n")
    journal = tmp_path / "sweep.jsonl.partial"
    with pytest.raises(soundness.SweepInterrupted) as stop:
        soundness.sweep(EULER, ladder="basic", log=log, progress=False)
    assert isinstance(stop.value, KeyboardInterrupt)
    assert stop.value.report.puzzles == 3 and stop.value.journal == journal
    assert log.read_text() == "an older log\n"  # the log is the old one until the sweep is complete
    assert [row["line"] for row in map(json.loads, journal.read_text().splitlines()[1:])] == [1, 2, 3]
    monkeypatch.setattr(soundness, "check_line", true_check)
    with pytest.raises(lg.OptionError, match="holds an interrupted run: add --resume"):
        soundness.sweep(EULER, ladder="basic", log=log, progress=False)  # never overwrites the journal
    resumed = soundness.sweep(EULER, ladder="basic", log=log, resume=True, limit=None, progress=False)
    assert resumed.resumed == 3 and resumed.puzzles == 50
    assert not journal.exists() and len(log.read_text().splitlines()) == 51


def test_report_rows_read_back_to_the_same_counts():
    one = soundness.check_line(_line(2), ladder="basic")
    back = soundness.SweepReport.from_row(json.loads(json.dumps(one.row(2))))
    for name in soundness.COUNTS:
        assert getattr(back, name) == getattr(one, name), name
    assert back.techniques == one.techniques and back.failures == one.failures
    whole = soundness.SweepReport(file="f", ladder="basic")
    whole.merge(one)
    whole.merge(back)
    assert whole.steps == 2 * one.steps and whole.puzzles == 2


# ---- the slow sweep over the shared corpora ---------------------------------------------


def _limit(path: Path) -> int | None:
    if os.environ.get("LINKGRAPH_SWEEP_LIMIT"):
        return int(os.environ["LINKGRAPH_SWEEP_LIMIT"])
    count = sum(1 for ln in open(path, encoding="utf-8", errors="replace") if ln.strip() and not ln.startswith("#"))
    return None if count <= FULL_LINES else FULL_LINES


@pytest.mark.slow
@pytest.mark.parametrize("name", _corpora(SHARED) or ["(no shared corpora)"])
def test_shared_corpus_verify_sweep(name, capsys):
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        pytest.skip(f"{SHARED} not found (set LINKGRAPH_CORPORA)")
    argv = ["verify", str(path), "--format", "json", "--show", "5"]
    limit = _limit(path)
    if limit is not None:
        argv += ["--limit", str(limit)]
    t0 = time.perf_counter()
    code = main(argv)
    report = json.loads(capsys.readouterr().out)
    seconds = time.perf_counter() - t0
    print(f"\n{name}: {report['puzzles']} puzzles, {report['steps']} steps, "
          f"{report['eliminations']} eliminations, {report['placements']} placements, {seconds:.1f} s")
    assert (report["unsound"], report["rejected"], report["crashed"], report["bad_lines"]) == (0, 0, 0, 0), \
        report["failures"]
    assert code == 0


@pytest.mark.slow
def test_nested_net_proofs_on_fata_morgana_pass_the_checker():
    name, text = (SHIPPED / "famous.txt").read_text().splitlines()[0].split("\t")
    assert name == "Fata Morgana"
    grid = lg.Grid.parse(text)
    solution = lg.oracle.solve_unique(grid)
    result = lg.solve(grid, max_steps=3)
    assert_sound(result.steps, solution, grid.geometry)
    position = grid
    for step in result.steps:
        check_step(position, step)
        position = position.apply(step)


def test_an_interrupt_inside_a_compiled_call_stops_the_sweep(monkeypatch):
    # SIGTERM's KeyboardInterrupt raised while numba dispatches comes out as a SystemError caused
    # by it: the sweep stops (as on Ctrl-C), the line is not counted as a crash
    def wrapped(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("CPUDispatcher(<function full_houses>) returned a result with an exception set") from exc

    monkeypatch.setattr(soundness, "_check_steps", wrapped)
    line = next(iter(lg.io.read_puzzles(lg.io.corpus_path("euler96"), limit=1)))
    with pytest.raises(KeyboardInterrupt):
        soundness.check_line(line, ladder="basic")
    monkeypatch.setattr(soundness, "_check_steps", lambda *a, **k: (_ for _ in ()).throw(SystemError("a real bug")))
    assert soundness.check_line(line, ladder="basic").crashed == 1  # any other SystemError is a crash row
