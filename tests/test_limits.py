"""Resource limits: files stream in bounded memory; one puzzle's work has a bound that is reported.

- `linkgraph.io.read_puzzles` reads line by line: the traced peak stays far below
  the file size (20,000 lines by default, 100,000 and a million behind ``-m slow``).
- The bounds on one puzzle's work, as documented: ``solve(max_steps=)`` /
  ``linkgraph solve --max-steps`` and ``solve(time_limit=)`` / ``--time-limit`` (the
  path stops and says so), ``linkgraph verify --timeout`` (a failed row, the sweep
  goes on),
  ``solver.solve_with_nets(max_steps=)``, and the per-puzzle time limit of a batch
  (``--timeout``: a ``Timeout: line N`` row, the run carries on). The chain and net
  searches themselves have no time bound of their own: on a 9x9 grid their work is
  bounded by the candidates (one propagation per premise).
- A time-out stays a time-out wherever it lands: inside compiled code's Python
  callbacks (numba wraps it in a SystemError; the deadline unwraps it, and the
  soundness sweep does not count it as a crash), and a block leaves no timer,
  handler or pending exception behind, in the main thread and in other threads.
"""

from __future__ import annotations

import signal
import threading
import tracemalloc
from pathlib import Path

import pytest

import linkgraph as lg
from linkgraph.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = (ROOT / "linkgraph/data/puzzles/top95.txt").read_text().splitlines()[:5]


def _big_file(path: Path, lines: int) -> Path:
    """`lines` puzzle lines: five puzzles repeated, with a comment and a bad line now and then."""
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(lines):
            if i % 10_000 == 1:
                fh.write("# a comment\n")
            fh.write(PUZZLES[i % 5][:80] + "\n" if i % 10_000 == 7 else PUZZLES[i % 5] + "\n")
    return path


def _stream(path: Path) -> tuple[int, int, int]:
    """(puzzle lines read, bad lines, traced peak bytes) of one pass over the file."""
    count = bad = 0
    tracemalloc.start()
    try:
        for line in lg.io.read_puzzles(path):
            count += 1
            bad += len(line.puzzle) != 81
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return count, bad, peak


def test_read_puzzles_streams_20k_lines_in_bounded_memory(tmp_path):
    # tracemalloc slows reading about 6x: 20,000 lines here, 100,000 and a million below
    path = _big_file(tmp_path / "big.txt", 20_000)
    size = path.stat().st_size
    count, bad, peak = _stream(path)
    assert count == 20_000 and bad == 2
    assert peak < 256 * 1024 and peak < size / 5, (peak, size)


@pytest.mark.slow
def test_read_puzzles_streams_100k_lines_in_bounded_memory(tmp_path):
    path = _big_file(tmp_path / "big.txt", 100_000)
    size = path.stat().st_size
    count, bad, peak = _stream(path)
    assert count == 100_000 and bad == 10
    assert peak < 256 * 1024 and peak < size / 20, (peak, size)


@pytest.mark.slow
def test_read_puzzles_streams_a_million_lines_in_bounded_memory(tmp_path):
    path = _big_file(tmp_path / "huge.txt", 1_000_000)
    size = path.stat().st_size  # about 82 MB
    count, bad, peak = _stream(path)
    assert count == 1_000_000 and bad == 100
    assert peak < 256 * 1024 and peak < size / 200, (peak, size)


def test_a_huge_single_line_is_a_bad_line_not_a_crash(tmp_path):
    path = tmp_path / "huge_line.txt"
    path.write_text(PUZZLES[0] + "\n" + "7" * 2_000_000 + "\n" + PUZZLES[1] + "\n")
    lines = list(lg.io.read_puzzles(path))
    assert [line.number for line in lines] == [1, 2, 3]
    with pytest.raises(lg.PuzzleFormatError, match="line 2: expected 81 cells .*found 2000000"):
        lines[1].grid()
    assert lines[2].grid() == lg.Grid.parse(PUZZLES[1])


def test_start_and_limit_stop_early(tmp_path):
    path = _big_file(tmp_path / "big.txt", 1000)
    lines = list(lg.io.read_puzzles(path, start=10, limit=3))
    # line 2 is a comment, so puzzle line 11 is file line 12
    assert [line.number for line in lines] == [12, 13, 14]


# ---- bounds on one puzzle's work -----------------------------------------------------


def test_solve_max_steps_bounds_the_path():
    grid = lg.Grid.parse(lg.samples.EULER_01)
    result = lg.solve(grid, ladder="basic", max_steps=3)
    assert len(result.steps) == 3 and not result.solved
    assert lg.solve(grid, ladder="basic", max_steps=0).steps == ()


def test_cli_solve_reports_the_step_bound(capsys):
    code = main(["solve", "--max-steps", "3", lg.samples.EULER_01])
    out, err = capsys.readouterr()
    assert code == 1 and err == ""
    open_cells = 81 - sum(ch != "." for ch in lg.samples.EULER_01) - 3  # three singles placed
    assert [ln for ln in out.splitlines() if ln.startswith("stopped")] == [
        f"stopped at --max-steps 3 with {open_cells} open cells; 3 steps; rating 1.5"
    ]
    main(["solve", lg.samples.EULER_01])
    assert "stopped" not in capsys.readouterr().out  # a full path says "solved"


HARDEST = (ROOT / "linkgraph/data/puzzles/hardest_1905_sample.txt").read_text().splitlines()[0]


def test_solve_time_limit_bounds_the_path():
    # a hardest-list puzzle takes about a second of nets even on a fast idle machine; a fifth of
    # a second allows a few steps or none (the step under way when the time is up is dropped)
    grid = lg.Grid.parse(HARDEST)
    result = lg.solve(grid, time_limit=0.2)
    assert result.stopped == "time-limit" and not result.solved
    assert result.final == lg.solve(grid, max_steps=len(result.steps)).final  # the path's first steps
    solution = lg.oracle.solve_unique(grid)
    for step in result.steps:  # the steps taken are the path's: sound
        assert all(solution[grid.geometry.cell_index(c.cell)] == c.digit for c in step.placements)
        assert all(solution[grid.geometry.cell_index(c.cell)] != c.digit for c in step.eliminations)
    assert lg.solve(lg.Grid.parse(lg.samples.EULER_01), ladder="basic", max_steps=3).stopped == "max-steps"
    assert lg.solve(lg.Grid.parse(lg.samples.EULER_01), ladder="basic", time_limit=60).stopped is None
    with pytest.raises(lg.OptionError, match="time_limit"):
        lg.solve(grid, time_limit=0)


def test_cli_solve_reports_the_time_limit(capsys):
    code = main(["solve", "--time-limit", "0.2", HARDEST])
    out, err = capsys.readouterr()
    assert code == 1 and err == ""
    assert [ln for ln in out.splitlines() if ln.startswith("stopped at --time-limit 0.2 s (")]
    assert main(["solve", "--time-limit", "-1", HARDEST]) == 2
    assert "--time-limit" in capsys.readouterr().err


def test_solve_with_nets_max_steps_bounds_the_net_steps():
    grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    final, steps, solved = lg.solver.solve_with_nets(grid, max_steps=1)
    assert len(steps) == 1 and not solved


def test_batch_timeout_is_a_row_and_the_run_goes_on(tmp_path):
    # the nets job on hard puzzles takes far longer than a millisecond; a bad line and
    # the lines after each time-out still get their rows
    path = tmp_path / "hard.txt"
    famous = (ROOT / "linkgraph/data/puzzles/famous.txt").read_text().splitlines()[:2]
    path.write_text("\n".join([famous[0], "not a puzzle", famous[1]]) + "\n")
    out = tmp_path / "rows.jsonl"
    summary = lg.research.batch.run_batch(path, "nets", out=out, workers=1, timeout=0.001, times=False)
    rows = lg.research.batch.read_rows(out)
    assert [r["line"] for r in rows] == [1, 2, 3]
    assert rows[0]["error"] == "Timeout: line 1: no result within 0.001 s"
    assert rows[1]["error"].startswith("PuzzleFormatError: line 2")
    assert rows[2]["error"] == "Timeout: line 3: no result within 0.001 s"
    assert summary.timeouts == 2 and summary.errors == 3


def test_cli_batch_reports_time_outs(capsys, tmp_path):
    path = tmp_path / "hard.txt"
    path.write_text((ROOT / "linkgraph/data/puzzles/famous.txt").read_text().splitlines()[0] + "\n")
    code = main(["batch", str(path), "--job", "nets", "--workers", "1", "--timeout", "0.001",
                 "--out", str(tmp_path / "rows.csv")])
    err = capsys.readouterr().err
    assert code == 1 and "1 rows (1 errors, 1 time-outs)" in err  # no row succeeded
    assert "errors by kind: Timeout 1" in err


def test_chain_and_net_searches_have_a_size_bound(capsys):
    # an empty 16x16 grid has 4096 live candidates: beyond the documented bound
    from linkgraph import geometry as geo
    from linkgraph.cli.main import main
    from linkgraph.errors import MAX_SEARCH_CANDIDATES

    empty = lg.Grid.empty(geo.classic(16))
    assert int(empty.live.sum()) > MAX_SEARCH_CANDIDATES
    with pytest.raises(lg.SearchLimitError, match="4096 live candidates"):
        lg.chains.chain_search(empty)
    with pytest.raises(lg.SearchLimitError, match="4096 live candidates"):
        next(lg.forcing_nets(empty))
    # the ladder's chain and net rungs step aside instead of raising
    for name in ("forcing-chain-cell", "forcing-net-contradiction", "forcing-net-nested"):
        assert list(lg.techniques.TECHNIQUES[name].find(empty)) == []
    assert main(["nets", "." * 256]) == 2  # several solutions
    assert "several solutions" in capsys.readouterr().err
    assert main(["nets", "--no-check", "." * 256]) == 2
    err = capsys.readouterr().err
    assert "SearchLimitError" in err and "bound of 2000" in err


# ---- a time-out wherever it lands -------------------------------------------------------------


def _boxing_kernel():
    """A compiled function whose result is boxed by a Python callback (numba's unpickling of the
    array type): a time-out often lands there and comes back wrapped in a SystemError."""
    numba = pytest.importorskip("numba")
    np = pytest.importorskip("numpy")

    @numba.njit(cache=False)
    def kernel(n):
        return np.zeros(n, np.int64), np.ones(3)

    kernel(2)
    return kernel


def _time_outs(kernel, blocks: int) -> dict[str, int]:
    """How each of `blocks` half-millisecond deadlines over a loop of `kernel` calls ended."""
    ends: dict[str, int] = {}
    for _ in range(blocks):
        try:
            with lg.limits.Deadline(0.0005):
                while True:
                    kernel(2)
        except BaseException as exc:  # noqa: BLE001 - counted by kind
            ends[type(exc).__name__] = ends.get(type(exc).__name__, 0) + 1
    return ends


def test_a_time_out_inside_compiled_code_is_a_time_out_and_leaves_no_timer():
    kernel = _boxing_kernel()
    handler = signal.getsignal(signal.SIGALRM)
    assert _time_outs(kernel, 400) == {"JobTimeout": 400}  # before the fix about half were SystemError
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left to kill the process
    assert signal.getsignal(signal.SIGALRM) is handler


def test_a_time_out_inside_compiled_code_in_a_thread():
    kernel = _boxing_kernel()
    seen: dict = {}

    def work():
        seen["ends"] = _time_outs(kernel, 300)
        try:  # no injected time-out arrives after the last block
            for _ in range(200_000):
                pass
            seen["after"] = "clean"
        except BaseException as exc:  # noqa: BLE001
            seen["after"] = type(exc).__name__

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(60)
    assert not thread.is_alive()
    assert seen == {"ends": {"JobTimeout": 300}, "after": "clean"}


class _Mine(lg.limits.TimeLimitExceeded):
    pass


def test_a_wrapped_time_out_leaves_the_block_as_itself():
    def wrapped(kind):
        try:
            raise kind
        except kind as exc:
            raise SystemError("<function f> returned a result with an exception set") from exc

    with pytest.raises(_Mine):
        with lg.limits.Deadline(60, _Mine):
            wrapped(_Mine)
    with pytest.raises(lg.limits.JobTimeout):  # also through a block without a limit (an inner one)
        with lg.limits.Deadline(None):
            wrapped(lg.limits.JobTimeout)
    with pytest.raises(SystemError):  # a SystemError of its own stays one
        with lg.limits.Deadline(60):
            raise SystemError("a fault")
    assert lg.limits.hidden_time_out(KeyError("k")) is None


def test_verify_counts_a_wrapped_time_out_as_a_time_out_not_a_crash(monkeypatch):
    from linkgraph.research import soundness

    def late(*args, **kwargs):
        try:
            raise lg.limits.JobTimeout
        except lg.limits.JobTimeout as exc:
            raise SystemError("CPUDispatcher(<function k>) returned a result with an exception set") from exc

    monkeypatch.setattr(soundness, "_check_steps", late)
    report = soundness.check_line(lg.io.parse_line(lg.samples.GNPX_FORCECHAIN, 3), timeout=60)
    assert (report.timeouts, report.crashed) == (1, 0)
    assert [f["kind"] for f in report.failures] == ["timeout"]


def test_solve_time_limits_landing_anywhere_stop_the_path():
    # the limits fall in different places of the nets' compiled kernels and their Python around them
    grid = lg.Grid.parse(HARDEST)
    for limit in (0.03, 0.07, 0.11, 0.16, 0.23, 0.31):
        result = lg.solve(grid, time_limit=limit)
        assert result.stopped == "time-limit" and not result.solved, limit
