"""Batch runs: rows in input order, error and time-out rows, resume, worker counts, Dask."""

from __future__ import annotations

import csv
import importlib.util
import json
import time

import pytest

import linkgraph as lg
from linkgraph.research import batch
from linkgraph.cli.main import main
from linkgraph.io import corpus_path, read_puzzles, read_solutions
from linkgraph.research.output import journal_path, sidecar_path

EULER = [p.puzzle for p in read_puzzles(corpus_path("euler96"), limit=12)]
EULER_SOLUTIONS = read_solutions(corpus_path("euler96", solutions=True))[:12]
REPEATED = "11" + EULER[0][2:]  # a repeated given in row 1


def stuck_job(line, options):
    """A test job: loops forever on lines named 'stuck', else counts the givens."""
    if line.name == "stuck":
        while True:
            time.sleep(0.005)
    grid = line.grid()
    return {"givens": int(grid.givens.sum())}


stuck_job.columns = ["givens"]
STUCK = f"{__name__}:stuck_job"


def slow_job(line, options):
    """A test job: counts the givens after a fifth of a second."""
    time.sleep(0.2)
    return {"givens": int(line.grid().givens.sum())}


slow_job.columns = ["givens"]
SLOW = f"{__name__}:slow_job"


@pytest.fixture
def mixed_file(tmp_path):
    """Twelve Euler puzzles with a malformed line, a repeated given and a stuck line mixed in."""
    lines = EULER[:3] + ["12.4x" * 3] + EULER[3:6] + [REPEATED] + EULER[6:8] + [f"stuck\t{EULER[8]}"] + EULER[9:]
    path = tmp_path / "mixed.txt"
    path.write_text("# a comment line\n" + "\n".join(lines) + "\n")
    return path


def _rows(path):
    return batch.read_rows(path)


def test_oracle_rows_in_order_with_error_rows(mixed_file, tmp_path):
    out = tmp_path / "out.csv"
    summary = batch.run_batch(mixed_file, "oracle", out=out, workers=2, times=False, chunksize=2)
    rows = _rows(out)
    assert summary.rows == len(rows) == 14
    # one row per input line, in input order (line numbers count the comment line)
    assert [int(r["line"]) for r in rows] == list(range(2, 16))
    bad = {int(r["line"]): r["error"] for r in rows if r["error"]}
    assert set(bad) == {5, 9}
    assert bad[5].startswith("PuzzleFormatError: line 5:")
    assert bad[9].startswith("InvalidPuzzleError: line 9:")
    # the good rows carry the true solutions, in order
    good = [r for r in rows if not r["error"]]
    assert [r["solution"] for r in good] == EULER_SOLUTIONS
    assert all(r["solutions"] == "1" for r in good)
    assert summary.errors == 2


def test_timeout_rows(mixed_file, tmp_path):
    out = tmp_path / "out.jsonl"
    summary = batch.run_batch(mixed_file, STUCK, out=out, workers=2, timeout=1, times=False, chunksize=3)
    rows = _rows(out)
    assert [r["line"] for r in rows] == list(range(2, 16))
    stuck = [r for r in rows if r["name"] == "stuck"]
    assert len(stuck) == 1 and stuck[0]["error"].startswith("Timeout: line 12:")
    # the rows after the stuck one are unaffected
    for r, p in zip([r for r in rows if not r["error"]], EULER[:8] + EULER[9:], strict=True):
        assert r["givens"] == sum(ch != "." for ch in p)
    assert summary.timeouts == 1 and summary.errors == 3


def test_timeout_in_process(mixed_file):
    lines = [ln for ln in read_puzzles(mixed_file) if ln.name == "stuck"]
    row = batch.run_job(STUCK, lines[0], timeout=0.5, times=True)
    assert row["error"].startswith("Timeout")
    assert row["time_s"] >= 0.5


@pytest.mark.parametrize("suffix", ["csv", "jsonl"])
def test_workers_give_identical_bytes(mixed_file, tmp_path, suffix):
    outs = []
    for workers, chunk in ((1, 8), (2, 1), (2, 5)):
        out = tmp_path / f"w{workers}-{chunk}.{suffix}"
        batch.run_batch(mixed_file, "oracle", out=out, workers=workers, times=False, chunksize=chunk)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == outs[2]


@pytest.mark.parametrize("suffix", ["csv", "jsonl"])
def test_resume_after_truncation_gives_identical_output(mixed_file, tmp_path, suffix):
    # a run killed at any byte leaves its journal torn there; --resume finishes the same bytes
    full = tmp_path / f"full.{suffix}"
    batch.run_batch(mixed_file, "oracle", out=full, workers=1, times=False)
    data = full.read_bytes()
    side = json.loads(sidecar_path(full).read_text())
    head = (json.dumps({"linkgraph batch": side["linkgraph batch"]}) + "\n").encode()
    for cut in (0, 10, len(data) // 3, data.index(b"\n", len(data) // 2) + 1, len(data) - 5, len(data)):
        part = tmp_path / f"part.{suffix}"
        part.unlink(missing_ok=True)
        journal_path(part).write_bytes(head + data[:cut])
        s = batch.run_batch(mixed_file, "oracle", out=part, workers=2, times=False, resume=True, chunksize=2)
        assert part.read_bytes() == data, cut
        assert not journal_path(part).exists()
        assert json.loads(sidecar_path(part).read_text()) == side
        assert s.rows + s.skipped == 14


def test_resume_refuses_other_columns(mixed_file, tmp_path):
    out = tmp_path / "out.csv"
    batch.run_batch(mixed_file, "oracle", out=out, workers=1, limit=3)  # with time_s
    with pytest.raises(lg.OptionError, match="columns"):
        batch.run_batch(mixed_file, "oracle", out=out, workers=1, times=False, resume=True)


def test_limit_and_times_column(mixed_file, tmp_path):
    out = tmp_path / "out.csv"
    batch.run_batch(mixed_file, "oracle", out=out, workers=1, limit=4)
    rows = _rows(out)
    assert len(rows) == 4 and all(float(r["time_s"]) >= 0 for r in rows)


def test_bad_options():
    with pytest.raises(lg.OptionError, match="did you mean 'oracle'"):
        batch.job_columns("oracel")
    with pytest.raises(lg.OptionError, match="timeout"):
        list(batch.iter_batch([], "oracle", timeout=0))


def test_cli_batch(mixed_file, tmp_path, capsys):
    out = tmp_path / "cli.csv"
    assert main(["batch", str(mixed_file), "--job", "oracle", "--out", str(out), "--no-times", "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert "14 rows (2 errors, 0 time-outs)" in err
    with open(out, newline="") as fh:
        header = next(csv.reader(fh))
    assert header == ["line", "puzzle", "name", "rating", "error", "solutions", "givens", "solution"]
    # stdout, JSON Lines
    assert main(["batch", str(mixed_file), "--job", "oracle", "--format", "jsonl", "--no-times",
                 "--workers", "1", "--limit", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(ln)["line"] for ln in lines] == [2, 3]
    assert main(["batch", str(mixed_file), "--job", "nope"]) == 2
    assert main(["batch", str(tmp_path / "missing.txt"), "--job", "oracle"]) == 2


def test_cli_batch_stopped_by_sigterm_keeps_whole_rows_and_resumes(tmp_path):
    # SIGTERM to the command (not its workers) stops it like Ctrl-C: exit 130, whole rows only,
    # and --resume finishes the same file as a run never stopped
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "euler.txt"
    path.write_text("\n".join(EULER) + "\n")
    argv = ["batch", str(path), "--job", SLOW, "--workers", "2", "--chunksize", "1", "--no-times"]
    whole = tmp_path / "whole.jsonl"
    assert main([*argv, "--out", str(whole)]) == 0
    out = tmp_path / "stopped.jsonl"
    journal = journal_path(out)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    proc = subprocess.Popen([sys.executable, "-m", "linkgraph", *argv, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 60
    while (not journal.exists() or journal.read_text().count("\n") < 2) and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"--resume carries on" in err, err
    assert not out.exists()  # the output appears whole, or not at all
    kept = journal.read_bytes().split(b"\n", 1)[1]  # the rows, after the stamp
    assert kept.endswith(b"\n") and whole.read_bytes().startswith(kept)
    assert 1 <= kept.count(b"\n") < len(EULER)
    assert main([*argv, "--out", str(out), "--resume"]) == 0
    assert out.read_bytes() == whole.read_bytes()


def test_progress_line(mixed_file, tmp_path, capsys):
    batch.run_batch(mixed_file, "oracle", out=tmp_path / "p.csv", workers=1, progress=True, times=False)
    err = capsys.readouterr().err
    assert "14/14" in err and "/s" in err


# ---- engine jobs (skip until the engine modules land) ----------------------------


def _needs(*modules):
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    return pytest.mark.skipif(bool(missing), reason=f"{', '.join(missing)} not built yet")


@_needs("linkgraph.graph.links", "linkgraph.solver")
def test_metrics_job_rows(tmp_path):
    out = tmp_path / "m.csv"
    batch.run_batch(corpus_path("top95"), "metrics", out=out, workers=2, limit=4, times=False)
    rows = _rows(out)
    assert [r["error"] for r in rows] == [""] * 4
    assert list(rows[0])[5:] == list(lg.research.metrics.POSITION_COLUMNS)


@_needs("linkgraph.solver", "linkgraph.techniques")
def test_solve_job_rows(tmp_path):
    out = tmp_path / "s.csv"
    batch.run_batch(corpus_path("euler96"), "solve", out=out, workers=1, limit=3, times=False,
                    options={"ladder": "basic"})
    rows = _rows(out)
    assert all(r["error"] == "" for r in rows)
    assert all(r["solved"] in ("0", "1") for r in rows)


# ---- Dask ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


def test_dask_equals_local(mixed_file, tmp_path, dask_client):
    local = tmp_path / "local.csv"
    remote = tmp_path / "dask.csv"
    batch.run_batch(mixed_file, "oracle", out=local, workers=2, times=False, chunksize=3)
    batch.run_batch(mixed_file, "oracle", out=remote, scheduler=dask_client.scheduler.address,
                    times=False, chunksize=3)
    assert remote.read_bytes() == local.read_bytes()


def test_dask_timeout_rows(mixed_file, tmp_path, dask_client):
    out = tmp_path / "dask.jsonl"
    batch.run_batch(mixed_file, STUCK, out=out, scheduler=dask_client, timeout=1, times=False, chunksize=4)
    rows = _rows(out)
    assert [r["line"] for r in rows] == list(range(2, 16))
    assert [r["line"] for r in rows if r["error"] and r["error"].startswith("Timeout")] == [12]


@_needs("linkgraph.graph.links", "linkgraph.solver")
def test_dask_metrics_equal_local(tmp_path, dask_client):
    local = tmp_path / "local.csv"
    remote = tmp_path / "dask.csv"
    batch.run_batch(corpus_path("top95"), "metrics", out=local, workers=1, limit=6, times=False)
    batch.run_batch(corpus_path("top95"), "metrics", out=remote, scheduler=dask_client, limit=6, times=False)
    assert remote.read_bytes() == local.read_bytes()


# ---- compare and plot ------------------------------------------------------------------


@_needs("linkgraph.graph.links", "linkgraph.solver", "linkgraph.techniques")
def test_cli_compare(tmp_path, capsys):
    out = tmp_path / "cmp.csv"
    assert main(["compare", str(corpus_path("euler96")), "--ladder", "basic", "--ladder", "hidden-single",
                 "--limit", "3", "--workers", "1", "--format", "json", "-o", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    basic, singles = data["ladders"]
    assert (basic["ladder"], singles["ladder"]) == ("basic", "hidden-single")
    assert basic["puzzles"] == singles["puzzles"] == 3
    # a ladder's solve rate never drops when techniques are added
    assert basic["solved"] >= singles["solved"]
    assert set(singles["techniques used"]) <= {"hidden-single"}
    rows = batch.read_rows(out)
    assert [r["ladder"] for r in rows] == ["basic"] * 3 + ["hidden-single"] * 3
    # the start position is the same for both ladders
    assert [r["start_live_candidates"] for r in rows[:3]] == [r["start_live_candidates"] for r in rows[3:]]
    assert main(["compare", str(corpus_path("euler96")), "--ladder", "x-wnig"]) == 2


def test_cli_plot(tmp_path, mixed_file, capsys):
    pytest.importorskip("matplotlib")
    res = tmp_path / "r.csv"
    batch.run_batch(mixed_file, "oracle", out=res, workers=1)
    png, svg = tmp_path / "p.png", tmp_path / "h.svg"
    assert main(["plot", str(res), "--x", "givens", "--y", "time_s", "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["plot", str(res), "--x", "givens", "--kind", "hist", "--by", "solutions", "-o", str(svg)]) == 0
    assert b"<svg" in svg.read_bytes()[:500]
    assert "12 points" in capsys.readouterr().err  # the two error rows are left out
    assert main(["plot", str(res), "--x", "nope", "--y", "givens", "-o", str(png)]) == 2
    assert main(["plot", str(res), "--x", "givens", "-o", str(png)]) == 2  # scatter without --y


def test_plot_without_matplotlib(tmp_path, mixed_file, monkeypatch, capsys):
    import builtins

    res = tmp_path / "r.csv"
    batch.run_batch(mixed_file, "oracle", out=res, workers=1, limit=2)
    real = builtins.__import__

    def fake(name, *a, **k):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    assert main(["plot", str(res), "--x", "givens", "--kind", "hist", "-o", str(tmp_path / "x.png")]) == 2
    assert "pip install linkgraph[plot]" in capsys.readouterr().err


def test_parquet_output_and_resume(mixed_file, tmp_path):
    pytest.importorskip("pyarrow")
    ref = tmp_path / "ref.jsonl"
    batch.run_batch(mixed_file, "oracle", out=ref, workers=1, times=False)
    want = batch.read_rows(ref)
    out = tmp_path / "out.parquet"
    batch.run_batch(mixed_file, "oracle", out=out, workers=2, times=False)
    assert batch.read_rows(out) == want
    assert not journal_path(out).exists()
    # an interrupted parquet run leaves its journal of JSON Lines; resume finishes it
    side = json.loads(sidecar_path(out).read_text())
    out.unlink()
    data = ref.read_bytes()
    head = (json.dumps({"linkgraph batch": side["linkgraph batch"]}) + "\n").encode()
    journal_path(out).write_bytes(head + data[: len(data) // 2])
    s = batch.run_batch(mixed_file, "oracle", out=out, workers=2, times=False, resume=True)
    assert s.skipped > 0 and batch.read_rows(out) == want


@_needs("linkgraph.graph.links", "linkgraph.solver", "linkgraph.chains.search", "linkgraph.nets.search", "linkgraph.graph.implication")
@pytest.mark.parametrize("job", ["links", "chains", "nets"])
def test_engine_jobs_match_direct_calls(job, tmp_path):
    from linkgraph.chains.steps import forcing_chains
    from linkgraph.graph.implication import implication_graph
    from linkgraph.graph.links import link_graph
    from linkgraph.nets.search import forcing_nets
    from linkgraph.solver import prepare

    puzzle = lg.samples.GNPX_FORCECHAIN
    path = tmp_path / "one.txt"
    path.write_text(puzzle + "\n")
    out = tmp_path / "o.jsonl"
    batch.run_batch(path, job, out=out, workers=1, times=False)
    (row,) = batch.read_rows(out)
    assert row["error"] is None and row["unsolved_cells"] == 20
    grid = prepare(lg.Grid.parse(puzzle))
    if job == "links":
        G = link_graph(grid)
        assert row["links"] == G.number_of_edges()
        assert row["implications"] == implication_graph(G).number_of_edges()
    else:
        steps = list(forcing_chains(grid) if job == "chains" else forcing_nets(grid, depth=0))
        assert row["steps"] == len(steps) > 0
        assert row["placements"] == len(set().union(*(s.placements for s in steps)))


def test_an_interrupt_inside_a_compiled_call_stops_the_batch():
    # a KeyboardInterrupt wrapped in numba's SystemError stops the run; other faults stay rows
    def job(line, options):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("returned a result with an exception set") from exc

    line = next(iter(read_puzzles(corpus_path("euler96"), limit=1)))
    with pytest.raises(KeyboardInterrupt):
        batch._run_line(job, line, {}, None, False)
    row = batch._run_line(lambda line, options: 1 / 0, line, {}, None, False)
    assert row["error"].startswith("ZeroDivisionError")
