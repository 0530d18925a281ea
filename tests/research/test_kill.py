"""``kill -9`` of a batch run and of a soundness sweep midway, then ``--resume``: the same output as a run never stopped.

A run killed with SIGKILL gets no chance to clean up: the results file must still be the old
one (never half of the new one), the rows done must be in the journal beside it, and the resumed
run must finish the very bytes an uninterrupted run writes. The whole process group is killed,
workers included, as when a machine is lost. The waits are guards against a hang, never speed
assertions.
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

from linkgraph.cli.main import main
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.research.output import journal_path, sidecar_path

ROOT = Path(__file__).resolve().parents[2]
EULER = [p.puzzle for p in read_puzzles(corpus_path("euler96"), limit=12)]
SLOW = "tests.research.test_batch:slow_job"  # a fifth of a second a puzzle
GUARD = 120


def _spawn(argv: list[str]) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "linkgraph", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True, cwd=ROOT)


def _kill_when(proc: subprocess.Popen, journal: Path, lines: int) -> None:
    """SIGKILL the run's whole process group once `journal` holds `lines` lines."""
    deadline = time.monotonic() + GUARD
    while not (journal.exists() and journal.read_bytes().count(b"\n") >= lines):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run wrote nothing"
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=GUARD)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_killed_then_resumed_gives_the_uninterrupted_output(tmp_path, workers):
    path = tmp_path / "euler.txt"
    path.write_text("\n".join(EULER) + "\n")
    argv = ["batch", str(path), "--job", SLOW, "--workers", workers, "--chunksize", "1", "--no-times"]
    whole = tmp_path / "whole.csv"
    assert main([*argv, "--out", str(whole)]) == 0
    out = tmp_path / "rows.csv"
    out.write_text("line,an older run\n")  # a results file from before: never half overwritten
    proc = _spawn([*argv, "--out", str(out)])
    _kill_when(proc, journal_path(out), 4)  # the stamp, the header and two rows
    assert out.read_text() == "line,an older run\n"
    rows = journal_path(out).read_bytes().split(b"\n", 2)[2]
    assert whole.read_bytes().split(b"\n", 1)[1].startswith(rows.rsplit(b"\n", 1)[0])  # whole rows, in order
    assert main([*argv, "--out", str(out), "--resume"]) == 0
    assert out.read_bytes() == whole.read_bytes()
    assert not journal_path(out).exists()
    side, want = (json.loads(sidecar_path(p).read_text()) for p in (out, whole))
    assert side == want


def _report(text: str) -> dict:
    report = json.loads(text)
    for key in ("seconds", "check_seconds", "resumed", "file"):
        report.pop(key)
    return report


def _rows(path: Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    for row in rows:
        row.pop("seconds")
    return rows


def test_verify_killed_then_resumed_gives_the_uninterrupted_report_and_log(tmp_path, capsys):
    path = tmp_path / "euler.txt"
    path.write_text("\n".join(EULER) + "\n")
    argv = ["verify", str(path), "--ladder", "basic", "--format", "json"]
    whole = tmp_path / "whole.jsonl"
    assert main([*argv, "--log", str(whole)]) == 0
    expected = _report(capsys.readouterr().out)
    log = tmp_path / "sweep.jsonl"
    log.write_text('{"an older": "log"}\n')
    # slow each puzzle down in the child so that it is killed midway
    prelude = ("import time, linkgraph.research.soundness as s\n_real = s.check_line\n"
               "def _slow(line, **kw):\n    time.sleep(0.2)\n    return _real(line, **kw)\n"
               "s.check_line = _slow\nfrom linkgraph.cli import main\n"
               f"raise SystemExit(main({[*argv, '--log', str(log)]!r}))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", prelude], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True, cwd=ROOT)
    _kill_when(proc, journal_path(log), 4)  # the header and three puzzles
    assert log.read_text() == '{"an older": "log"}\n'
    kept = len(_rows(journal_path(log)))
    assert 3 <= kept < len(EULER)
    assert main([*argv, "--log", str(log), "--resume"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["resumed"] == kept
    assert _report(json.dumps(resumed)) == expected
    assert _rows(log) == _rows(whole)
    assert not journal_path(log).exists()
