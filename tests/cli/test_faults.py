"""One regression test per numbered fault of issue 19 ("Nothing lost, nothing hangs, no traceback").

Each test failed on main before the fix (fba0eae). A fault that used to hang runs in a
subprocess whose ``timeout`` is a guard against hanging the suite (generous, never a speed
assertion): on the old main it expires and the test fails instead of hanging.
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import linkgraph as lg
from linkgraph.cli.main import main
from linkgraph.io import corpus_path, read_puzzles

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "linkgraph" / "data" / "puzzles"
EULER = [p.puzzle for p in read_puzzles(corpus_path("euler96"), limit=6)]
P = lg.samples.EULER_01
NO_SOLUTION = "12345678." + "........9" + "." * 63  # r1c9 can hold neither 9 nor anything else
SEVERAL = "." * 81
NORVIG = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
GUARD = 120  # seconds a subprocess may take before we call it hung


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(code: int, err: str, *words: str, expect: int = 2) -> str:
    """The one message line of a failed command, holding `words`."""
    assert code == expect, (code, err)
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith(("usage:", " "))]
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], (word, err)
    return lines[0]


def _run(*argv: str, stdin: bytes | None = None, prelude: str = "") -> subprocess.CompletedProcess:
    """``linkgraph ARGV`` in a fresh interpreter (after `prelude`), guarded against hanging."""
    code = f"{prelude}\nfrom linkgraph.cli import main\nraise SystemExit(main({list(argv)!r}))"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, timeout=GUARD, env=env)


@pytest.fixture
def euler_file(tmp_path):
    path = tmp_path / "euler.txt"
    path.write_text("\n".join(EULER) + "\n")
    return path


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# ---- 1. a bad batch option wipes an existing results file ------------------------------------------


@pytest.mark.parametrize("bad", [["--timeout", "-1"], ["--chunksize", "0"]], ids=["timeout", "chunksize"])
def test_fault_1_bad_batch_option_leaves_the_results_file(capsys, euler_file, tmp_path, bad):
    keep = tmp_path / "keep.csv"
    keep.write_text("line,precious\n1,rows of yesterday\n")
    before = _files(tmp_path)
    code, out, err = _cli(capsys, "batch", euler_file, "--job", "links", *bad, "--out", keep)
    _one_line(code, err, bad[0])
    assert _files(tmp_path) == before


# ---- 2. --resume keeps the rows of another input ---------------------------------------------------


def test_fault_2_resume_refuses_rows_of_another_input(capsys, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(EULER[:3]) + "\n")
    b.write_text("\n".join(EULER[3:6]) + "\n")
    out = tmp_path / "rows.csv"
    assert main(["batch", str(a), "--job", "oracle", "--out", str(out), "--workers", "1", "--no-times"]) == 0
    capsys.readouterr()
    before = _files(tmp_path)
    code, _, err = _cli(capsys, "batch", b, "--job", "oracle", "--out", out, "--workers", "1", "--no-times", "--resume")
    _one_line(code, err, "--resume", "another input")
    assert _files(tmp_path) == before


# ---- 3. batch options checked per row, not up front ------------------------------------------------


@pytest.mark.parametrize("job, bad, word", [
    ("links", ["--families", "foo"], "--families"),
    ("links", ["--als-max-size", "-1"], "--als-max-size"),
    ("nets", ["--depth", "9"], "--depth"),
])
def test_fault_3_batch_options_are_checked_before_any_row(capsys, euler_file, tmp_path, job, bad, word):
    keep = tmp_path / "keep.csv"
    keep.write_text("old\n")
    code, out, err = _cli(capsys, "batch", euler_file, "--job", job, *bad, "--out", keep, "--workers", "1")
    _one_line(code, err, word)
    assert out == "" and keep.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["euler.txt", "keep.csv"]


# ---- 4. batch --job solve skips the solution check -------------------------------------------------


def test_fault_4_batch_solve_checks_the_solution_count(tmp_path):
    path = tmp_path / "three.txt"
    path.write_text("\n".join([EULER[0], NO_SOLUTION, SEVERAL]) + "\n")
    out = tmp_path / "rows.jsonl"
    # the time-out is a guard: before the fix the several-solution line ran until it
    s = lg.research.batch.run_batch(path, "solve", out=out, workers=1, times=False, timeout=60)
    rows = lg.research.batch.read_rows(out)
    assert rows[0]["error"] is None and rows[0]["solved"]
    assert rows[1]["error"] == "InvalidPuzzleError: line 2: the puzzle has no solution (the check is off with --no-check)"
    assert rows[2]["error"].startswith("InvalidPuzzleError: line 3: the puzzle has several solutions")
    assert s.errors == 2 and s.timeouts == 0


# ---- 5. verify --resume checks only the file's path ------------------------------------------------


def test_fault_5_verify_resume_refuses_a_file_whose_contents_changed(capsys, tmp_path):
    path = tmp_path / "sweep.txt"
    path.write_text("\n".join(EULER[:3]) + "\n")
    log = tmp_path / "sweep.jsonl"
    assert main(["verify", str(path), "--ladder", "basic", "--log", str(log)]) == 0
    capsys.readouterr()
    path.write_text("\n".join(EULER[3:6]) + "\n")  # same name, other puzzles
    before = _files(tmp_path)
    code, out, err = _cli(capsys, "verify", path, "--ladder", "basic", "--log", log, "--resume")
    _one_line(code, err, "--resume", "another input", "sha256")
    assert _files(tmp_path) == before


# ---- 6. the uniqueness check stalls on a puzzle built against backtracking -----------------------------


def test_fault_6_oracle_answers_norvigs_impossible_puzzle_in_few_nodes():
    # a node budget, not a clock: the old search took millions of nodes (175 s)
    st = lg.oracle.search(lg.Grid.parse(NORVIG), max_nodes=1000)
    assert st.complete and st.solutions == ()
    assert st.nodes < 50


def test_fault_6_cli_answers_no_solution(capsys):
    code, out, err = _cli(capsys, "solve", NORVIG)
    _one_line(code, err, "InvalidPuzzleError", "no solution")


def test_fault_6_time_limit_bounds_the_uniqueness_check():
    # an oracle that never answers: --time-limit still ends the command, saying where it stopped
    prelude = ("import time, linkgraph.oracle as o\n"
               "def never(*a, **k):\n    while True: time.sleep(0.01)\n"
               "o.count_solutions = never\no.solutions = never\no.search = never\n")
    proc = _run("solve", "--time-limit", "0.5", P, prelude=prelude)
    assert proc.returncode == 1, proc.stderr
    assert b"stopped at --time-limit 0.5 s in the uniqueness check" in proc.stderr
    assert b"Traceback" not in proc.stderr


# ---- 7. an empty grid under --no-check does not stop ---------------------------------------------------


@pytest.mark.parametrize("bound", [["--time-limit", "2"], ["--max-steps", "3"], ["--hint"]],
                         ids=["time-limit", "max-steps", "hint"])
def test_fault_7_empty_grid_under_no_check_ends(bound):
    proc = _run("solve", "--no-check", *bound, "." * 81)
    assert proc.returncode == 1, proc.stderr
    assert b"Traceback" not in proc.stderr
    if bound[0] == "--time-limit":
        # ends either way: at the limit, or (a quiet machine, the compiled nets) with the whole
        # ladder tried in under 2 s and no step found
        assert (b"stopped at --time-limit 2 s" in proc.stdout
                or b"stuck with 81 open cells; 0 steps" in proc.stdout), proc.stdout[:200]
    elif bound[0] == "--max-steps":
        assert b"stuck with 81 open cells; 0 steps" in proc.stdout
    else:
        assert proc.stderr == b"no step found\n"


# ---- 8. output paths that cannot be written ----------------------------------------------------------


def test_fault_8_unwritable_outputs_give_one_line(capsys, tmp_path, euler_file):
    results = tmp_path / "rows.csv"
    assert main(["batch", str(euler_file), "--job", "oracle", "--out", str(results), "--workers", "1"]) == 0
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    capsys.readouterr()
    before = _files(tmp_path)
    nodir = tmp_path / "nodir"
    cases = [
        (["render", P, "--chains", "cell", "-o", nodir / "x.svg"], "--output"),
        (["solve", P, "--render", a_file], "--render"),
        (["batch", euler_file, "--job", "oracle", "--out", nodir / "x.csv"], "--out"),
        (["verify", euler_file, "--log", nodir / "l.jsonl"], "--log"),
        (["plot", results, "--x", "givens", "--kind", "hist", "-o", nodir / "p.png"], "--out"),
        (["plot", results, "--x", "givens", "--kind", "hist", "-o", tmp_path / "p.txt"], "txt"),
    ]
    for argv, word in cases:
        code, out, err = _cli(capsys, *argv)
        _one_line(code, err, word)
    assert _files(tmp_path) == before and not nodir.exists()


# ---- 9. an unreachable Dask scheduler ------------------------------------------------------------------


def test_fault_9_unreachable_scheduler_is_one_line(capsys, tmp_path, euler_file, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(lg.research.batch, "CONNECT_TIMEOUT", 1.0, raising=False)
    out = tmp_path / "rows.csv"
    code, _, err = _cli(capsys, "batch", euler_file, "--job", "oracle", "--scheduler", "tcp://127.0.0.1:1",
                        "--out", out)
    _one_line(code, err, "--scheduler tcp://127.0.0.1:1", "cannot reach")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["euler.txt"]


# ---- 10. one fault, one message, from an argument, a file or stdin ------------------------------------------


def test_fault_10_malformed_candidate_grid_same_message_from_every_source(capsys, tmp_path, monkeypatch):
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    lines = grid.to_candidates(pretty=True).splitlines()
    lines[1] = lines[1].replace(" 3 ", " ", 1)  # a framed candidate grid with a cell missing
    text = "\n".join(lines) + "\n"
    path = tmp_path / "grid.txt"
    path.write_text(text)
    messages = []
    for source in (text, str(path), "-"):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
        code, _, err = _cli(capsys, "solve", source)
        messages.append(_one_line(code, err, "expected 81 cells, found 80"))
    what = [m.split("candidate grid: ", 1)[1] for m in messages]
    assert what[0] == what[1] == what[2]
    assert messages[1].startswith(f"linkgraph: PuzzleFormatError: {path}: ")
    assert messages[2].startswith("linkgraph: PuzzleFormatError: stdin: ")


# ---- 11. graph commands accept puzzles with no or several solutions -----------------------------------------


@pytest.mark.parametrize("argv", [
    ["links"], ["chains"], ["nets"], ["render", "--nets", "-o", "{tmp}/n.svg"], ["path", "{puzzle}", "--", "+r1c9#1", "-r1c9#1"],
], ids=["links", "chains", "nets", "render", "path"])
@pytest.mark.parametrize("puzzle, word", [(NO_SOLUTION, "no solution"), (SEVERAL, "several solutions")],
                         ids=["none", "several"])
def test_fault_11_graph_commands_check_the_solution_count(capsys, tmp_path, argv, puzzle, word):
    argv = [a.format(tmp=tmp_path, puzzle=puzzle) for a in argv]
    if argv[0] != "path":
        argv.append(puzzle)
    code, out, err = _cli(capsys, *argv)
    _one_line(code, err, "InvalidPuzzleError", word, "--no-check")
    assert out == "" and not (tmp_path / "n.svg").exists()


# ---- 12. the smaller inconsistencies ------------------------------------------------------------------------


def test_fault_12_path_to_itself_says_so(capsys):
    code, out, err = _cli(capsys, "path", "--prepare", "basic", lg.samples.GNPX_FORCECHAIN, "+r2c8#1", "+r2c8#1")
    assert code == 0 and out.strip() == "+r2c8#1: FROM and TO are the same literal (a chain of no links)"


def test_fault_12_row_10_is_out_of_range(capsys):
    code, _, err = _cli(capsys, "path", lg.samples.GNPX_FORCECHAIN, "+r10c8#1", "+r2c8#1")
    _one_line(code, err, "NotationError", "FROM", "row 10 is outside 1..9")


def test_fault_12_a_folder_is_no_missing_file(capsys, tmp_path):
    for argv in (["solve", tmp_path], ["batch", tmp_path], ["verify", tmp_path]):
        code, _, err = _cli(capsys, *argv)
        _one_line(code, err, f"{tmp_path}: is a folder")


def test_fault_12_a_long_path_is_read_as_a_file(capsys, tmp_path):
    folder = tmp_path / ("d" * 120) / ("e" * 120)
    folder.mkdir(parents=True)
    path = folder / ("p" * 80 + ".txt")
    path.write_text(P + "\n")
    assert len(str(path)) > 300
    code, out, err = _cli(capsys, "solve", path)
    assert code == 0 and out.splitlines()[-1].startswith("solved;"), err


def test_fault_12_nets_without_a_result_says_so(capsys):
    solved_but_one = lg.Grid.parse(P)
    code, out, err = _cli(capsys, "nets", lg.solve(solved_but_one).final.to_puzzle(solved=True))
    assert code == 1 and out == "" and err == "linkgraph nets: no forcing net found\n"
    code, out, err = _cli(capsys, "chains", lg.solve(solved_but_one).final.to_puzzle(solved=True))
    assert code == 1 and out == "" and err == "linkgraph chains: no forcing chain found\n"


def test_fault_12_solve_refuses_a_file_of_puzzles(capsys, tmp_path):
    path = tmp_path / "many.txt"
    path.write_text("\n".join(p.puzzle for p in read_puzzles(corpus_path("top1465"), limit=300)) + "\n")
    code, out, err = _cli(capsys, "solve", path)
    _one_line(code, err, "300 puzzles, one a line", "batch")
    assert out == ""


def test_fault_12_a_huge_bad_line_is_cut_short_in_its_row_and_plots(capsys, tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text(EULER[0] + "\n" + "1" * 2_000_000 + "\n" + EULER[1] + "\n")
    out = tmp_path / "rows.csv"
    assert main(["batch", str(path), "--job", "oracle", "--out", str(out), "--workers", "1"]) == 0
    rows = lg.research.batch.read_rows(out)
    assert rows[1]["error"].startswith("PuzzleFormatError: line 2")
    assert rows[1]["puzzle"] == "1" * 100 + "... (2000000 characters)"
    assert out.stat().st_size < 10_000
    pytest.importorskip("matplotlib")
    capsys.readouterr()
    assert main(["plot", str(out), "--x", "givens", "--kind", "hist", "-o", str(tmp_path / "g.png")]) == 0


def test_fault_12_a_batch_of_error_rows_says_so_and_fails(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("12x\n" + NO_SOLUTION + "\n")
    code, out, err = _cli(capsys, "batch", path, "--job", "solve", "--workers", "1", "--out", tmp_path / "rows.csv")
    assert code == 1
    assert ("2 rows (2 errors, 0 time-outs)" in err
            and "errors by kind: InvalidPuzzleError 1, PuzzleFormatError 1" in err), err
    assert "no row succeeded" in err


# ---- 13. the API ------------------------------------------------------------------------------------------------


def test_fault_13_api_takes_puzzle_strings_and_checks_its_options():
    result = lg.solve("1526.7.893...5...4...9.3..75.8...2.6.6.....9.9.3...4.14..5.6...6...3...573.4.1962")
    assert result.solved
    with pytest.raises(TypeError, match="expected a Grid or a puzzle string, found int"):
        lg.solve(42)
    with pytest.raises(lg.OptionError, match="max_steps"):
        lg.solve(P, max_steps=-1)
    assert lg.ProofError is lg.errors.ProofError and "ProofError" in lg.__all__


def test_fault_13_grids_are_read_only_for_real():
    grid = lg.Grid.parse(P)
    for array in (grid.cands, grid.givens, grid.placed):
        with pytest.raises(ValueError):
            array.setflags(write=True)
        with pytest.raises(ValueError):
            array[0] = True
    assert lg.Grid.parse(P) == grid  # nothing changed


def test_fault_13_every_public_entry_point_takes_a_puzzle_string():
    text = lg.samples.GNPX_FORCECHAIN
    grid = lg.Grid.parse(text)
    assert lg.prepare(text) == lg.prepare(grid)
    assert str(lg.hint(text)) == str(lg.hint(grid))
    assert lg.rated_hint(text)[1] == lg.rated_hint(grid)[1]
    assert lg.link_graph(text).number_of_edges() == lg.link_graph(grid).number_of_edges()
    assert [str(s) for s in lg.forcing_chains(text, variants=["cell"])] == \
        [str(s) for s in lg.forcing_chains(grid, variants=["cell"])]
    assert str(next(lg.forcing_nets(text))) == str(next(lg.forcing_nets(grid)))
    lit = [lg.Literal.parse("+r2c8#1")]
    assert lg.propagate(text, lit).contradiction == lg.propagate(grid, lit).contradiction
    assert lg.position_metrics(text) == lg.position_metrics(grid)
    assert lg.oracle.count_solutions(text) == 1
    step = lg.hint(grid)
    assert lg.check_step(text, step) is None
    for call in (lg.prepare, lg.hint, lg.link_graph, lg.forcing_nets, lg.position_metrics):
        with pytest.raises(TypeError, match="expected a Grid or a puzzle string, found list"):
            call([1, 2, 3])


# ---- found while writing the fuzz grammar: outputs that are devices or pipes ------------------------


def _drain(fifo: Path) -> tuple[threading.Thread, list[bytes]]:
    got: list[bytes] = []

    def read():
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread, got


@pytest.mark.parametrize("command", ["batch", "verify", "convert", "render"])
def test_an_output_that_is_a_pipe_is_written_in_place_never_replaced(capsys, tmp_path, euler_file, command):
    # `--out /dev/null` is an idiom; a rename onto it would replace the device by a file (as root).
    # A named pipe stands in for the device here: it must still be a pipe afterwards.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    thread, got = _drain(fifo)
    argv = {"batch": ["batch", euler_file, "--job", "oracle", "--workers", "1", "--no-times", "--out", fifo],
            "verify": ["verify", euler_file, "--ladder", "basic", "--log", fifo],
            "convert": ["convert", euler_file, fifo, "--to", "sdm"],
            "render": ["render", lg.samples.GNPX_FORCECHAIN, "--chains", "cell", "-o", fifo]}[command]
    code, _, err = _cli(capsys, *argv)
    if command == "render":  # a picture needs a suffix: refused before anything is opened
        _one_line(code, err, "--output suffix")
        with open(fifo, "wb"):  # let the reader go
            pass
    else:
        assert code == 0, err
    thread.join(timeout=GUARD)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["euler.txt", "pipe"]  # no journal, no sidecar
    if command == "batch":
        assert got[0].decode().splitlines()[0] == "line,puzzle,name,rating,error,solutions,givens,solution"
    if command in ("batch", "verify"):  # nothing to resume in a pipe: refused before it is opened
        code, _, err = _cli(capsys, *argv, "--resume")
        _one_line(code, err, "--resume", "not a regular file")


# ---- found by the fuzz test on main: a multi-line argument echoed by argparse, a time-out in a finaliser ----


def test_an_unrecognized_multiline_argument_is_one_message_line(capsys):
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)).to_candidates()  # nine lines
    code, out, err = _cli(capsys, "solve", P, grid)
    line = _one_line(code, err, "unrecognized arguments")
    assert "\\n" in line and out == ""


@pytest.mark.parametrize("command", ["batch", "verify", "convert"])
def test_a_name_no_file_can_have_is_one_message_line(capsys, tmp_path, command):
    # found by hypothesis in a CI run: 177 characters, 327 bytes in UTF-8 (the limit is 255)
    name = "0" * 27 + "\u013a" * 150
    more = [str(tmp_path / "out.sdm")] if command == "convert" else []
    code, out, err = _cli(capsys, command, name, *more)
    _one_line(code, err, "PuzzleFormatError", "not a puzzle file", "name too long")
    assert out == ""


def test_a_time_out_lost_in_a_finaliser_prints_no_traceback():
    # the alarm lands in __del__, where Python would print "Exception ignored in ... Traceback";
    # the deadline raises the time-out again and the run ends with its one line
    prelude = ("import time, linkgraph.limits as L\n"
               "class Slow:\n    def __del__(self):\n        time.sleep(0.3)\n"
               "try:\n    with L.Deadline(0.1):\n        Slow()\n        time.sleep(5)\n"
               "except L.JobTimeout:\n    print('stopped')\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", prelude], capture_output=True, timeout=GUARD, env=env)
    assert proc.stdout == b"stopped\n"
    assert b"Traceback" not in proc.stderr and b"Exception ignored" not in proc.stderr, proc.stderr
