"""A test run killed mid-way (no fixture teardown) leaves no explorer server behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import wait_until

ROOT = Path(__file__).resolve().parents[2]

# a stand-in for a pytest process: starts a server the tests' way, says its pid, then waits
PARENT = """
import sys, time
sys.path.insert(0, {root!r})
from tests.explorer.conftest import Server
srv = Server("--workers", "1")
print(srv.process.pid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers signal 0: read its state
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(sys.platform != "linux", reason="the guard is Linux's PR_SET_PDEATHSIG")
def test_a_killed_parent_takes_its_server_down():
    parent = subprocess.Popen([sys.executable, "-c", PARENT.format(root=str(ROOT))],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    line = ""
    try:
        line = parent.stdout.readline()
        assert line.strip().isdigit(), (line, parent.stderr.read() if parent.poll() is not None else "")
        server = int(line)
        assert _alive(server)
        parent.send_signal(signal.SIGKILL)  # no teardown runs in the parent
        parent.wait(timeout=10)
        assert wait_until(lambda: not _alive(server), timeout=30), f"server {server} outlived its killed parent"
    finally:
        if parent.poll() is None:
            parent.kill()
        if line.strip().isdigit() and _alive(int(line)):
            os.kill(int(line), signal.SIGKILL)
