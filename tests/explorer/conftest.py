"""A real explorer server for the tests: ``linkgraph serve --port 0`` on 127.0.0.1, stopped after."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


def _die_with_parent() -> None:
    """In the server's child, before it runs: ask Linux to send it SIGTERM when its parent
    dies, so a test run killed mid-way (no fixture teardown) leaves no server behind."""
    PR_SET_PDEATHSIG = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the teardown alone stops it
        pass


class Server:
    """A ``linkgraph serve`` process of the test's own, and its address."""

    def __init__(self, *args: str):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "linkgraph", "serve", "--host", "127.0.0.1", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        line = self.process.stdout.readline()  # "linkgraph explorer on http://127.0.0.1:PORT/ ..."
        if "http://" not in line:
            self.stop()
            raise RuntimeError(f"serve did not start: {line!r} {self.process.stderr.read()!r}")
        self.url = line.split(" on ", 1)[1].split()[0]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def get(self, path: str, timeout: float = 60.0, headers: dict | None = None):
        request = urllib.request.Request(self.url.rstrip("/") + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.headers, response.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers, exc.read().decode("utf-8")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # our own child, by its pid
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


@pytest.fixture(scope="session")
def server():
    srv = Server()  # the defaults: 2 workers, a 10 s request timeout
    yield srv
    srv.stop()


def wait_until(predicate, timeout: float = 20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False
