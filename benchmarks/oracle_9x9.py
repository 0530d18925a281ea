"""The uniqueness check on 9x9 corpora: the compiled oracle against the Python search it replaced.

Usage (from the repository root)::

    .venv/bin/python benchmarks/oracle_9x9.py top1465 hardest_1905_sample --every 5

Per puzzle the two searches run in turn in this one process (the compiled one loaded
first, untimed), process time; prints the median, mean and max of each in ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import linkgraph as lg  # noqa: E402
from linkgraph import oracle  # noqa: E402
from tests import oracle_python  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("corpora", nargs="+")
    p.add_argument("--every", type=int, default=1, help="every N-th puzzle (default 1)")
    args = p.parse_args(argv)
    oracle.count_solutions(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    for name in args.corpora:
        lines = list(lg.io.read_puzzles(lg.io.corpus_path(name)))[:: args.every]
        fast, slow = [], []
        for i, line in enumerate(lines):
            grid = line.grid()
            order = (oracle.solutions, oracle_python.solutions) if i % 2 else (oracle_python.solutions, oracle.solutions)
            for search in order:
                t0 = time.process_time()
                found = search(grid, limit=2)
                dt = (time.process_time() - t0) * 1000
                assert len(found) == 1
                (fast if search is oracle.solutions else slow).append(dt)
        for label, xs in (("compiled", fast), ("python", slow)):
            print(f"{name} ({len(xs)} puzzles) {label:8s} median {statistics.median(xs):7.2f} ms  "
                  f"mean {statistics.mean(xs):7.2f} ms  max {max(xs):8.2f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
