"""Load on the explorer's API: many concurrent ``/api/solve`` requests, every answer checked.

Start a server (``linkgraph serve --port 8000``), then::

    python examples/explorer_load.py http://127.0.0.1:8000/ --requests 40

sends 40 ``GET /api/solve`` requests at once (one thread each, released together) for
the first 40 puzzles of the shipped diabolical sample, checks that every answer is 200,
solved, and places exactly the digits of the file's solution, checks that the server
still answers afterwards, and prints the latency of the requests (wall-clock seconds
from send to the whole answer read: p50, p95, max) and the whole batch's time. The
load goes to the given URL only; use a loopback address.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "linkgraph" / "data" / "puzzles" / "diabolical_sample.txt"


def diabolical(count: int, *, start: int = 0) -> list[tuple[str, str]]:
    """(puzzle, solution) pairs: `count` lines of the shipped diabolical sample from `start`."""
    puzzles = [ln.split()[0] for ln in SAMPLE.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    solutions = [ln.strip() for ln in SAMPLE.with_name("diabolical_sample.solutions.txt").read_text().splitlines() if ln.strip()]
    return list(zip(puzzles, solutions, strict=True))[start : start + count]


def get(url: str, timeout: float = 120.0) -> tuple[int, bytes]:
    """HTTP status and body of a GET (errors included)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def check_solve(body: bytes, puzzle: str, solution: str) -> str | None:
    """None if `body` is a solved path whose final grid is `solution`, else what is wrong."""
    data = json.loads(body)
    if not data.get("solved"):
        return f"{puzzle}: not solved"
    if data["grid"] != solution:
        return f"{puzzle}: final grid {data['grid']} differs from the solution {solution}"
    placed = {p for s in data["steps"] for p in s["placements"]}
    for cand in placed:
        row, col, digit = int(cand[1]) - 1, int(cand[3]) - 1, int(cand[5])
        if solution[row * 9 + col] != str(digit):
            return f"{puzzle}: placement {cand} differs from the solution"
    return None


def run_load(base: str, pairs: list[tuple[str, str]], *, ladder: str = "default") -> dict:
    """Send one ``/api/solve`` request per pair at once; return latencies and problems."""
    barrier = threading.Barrier(len(pairs))
    results: list = [None] * len(pairs)

    def one(i: int, puzzle: str, solution: str) -> None:
        url = f"{base.rstrip('/')}/api/solve?" + urllib.parse.urlencode({"puzzle": puzzle, "ladder": ladder})
        barrier.wait()
        t0 = time.perf_counter()
        status, body = get(url)
        seconds = time.perf_counter() - t0
        problem = None if status == 200 else f"{puzzle}: HTTP {status}: {body[:200]!r}"
        if problem is None:
            problem = check_solve(body, puzzle, solution)
        results[i] = (seconds, problem)

    threads = [threading.Thread(target=one, args=(i, p, s)) for i, (p, s) in enumerate(pairs)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    latencies = sorted(r[0] for r in results)
    status, body = get(f"{base.rstrip('/')}/healthz", timeout=10)
    return {
        "requests": len(pairs),
        "problems": [r[1] for r in results if r[1]],
        "p50": statistics.median(latencies),
        "p95": latencies[max(0, round(0.95 * len(latencies)) - 1)],
        "max": latencies[-1],
        "wall": wall,
        "alive_after": status == 200 and json.loads(body).get("ok") is True,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the explorer's address, e.g. http://127.0.0.1:8000/")
    parser.add_argument("--requests", type=int, default=40, help="concurrent requests (default 40)")
    parser.add_argument("--start", type=int, default=0, help="first line of the sample to use (default 0)")
    parser.add_argument("--rounds", type=int, default=1, help="repeat the batch this many times (default 1)")
    args = parser.parse_args(argv)
    failed = False
    for r in range(args.rounds):
        out = run_load(args.url, diabolical(args.requests, start=args.start))
        print(f"round {r + 1}: {out['requests']} concurrent /api/solve requests: p50 {out['p50'] * 1000:.0f} ms, "
              f"p95 {out['p95'] * 1000:.0f} ms, max {out['max'] * 1000:.0f} ms, all answered in {out['wall']:.2f} s; "
              f"{len(out['problems'])} problems; server answering afterwards: {out['alive_after']}")
        for problem in out["problems"]:
            print("  ", problem)
        failed |= bool(out["problems"]) or not out["alive_after"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
