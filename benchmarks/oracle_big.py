"""The uniqueness check on big grids: nodes and seconds of `linkgraph.oracle` on a fixed set.

The instances are made here, the same on every run (their own seeded RNG): a full
grid of the pattern ``(r*b + r//b + c) % n`` with its digits relabelled, `givens`
cells of it kept, and one kept given changed to a digit that repeats no given of
its row, column or box. Such a puzzle has no solution or several (rarely one), and
nothing on its face says which: the worst case of the check that every command
runs first.

Usage (from the repository root)::

    .venv/bin/python benchmarks/oracle_big.py                 # the default set, 3 M nodes a puzzle
    .venv/bin/python benchmarks/oracle_big.py --no-locks      # without the box-line rule
    .venv/bin/python benchmarks/oracle_big.py --python        # the Python search it replaced (tests/)
    .venv/bin/python benchmarks/oracle_big.py --size 16 --givens 140 --count 10

Each line: size, givens, instance, solutions found (up to 2; '?' when the nodes or the
time ran out), nodes, process seconds. The last line sums them. Times are process time of
this one process; the machine may be shared, so compare runs made together.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import linkgraph as lg
from linkgraph import oracle
from linkgraph.geometry import classic


def instance(n: int, givens: int, seed: int) -> str:
    """The puzzle string of instance `seed` (see the module docstring)."""
    rng = random.Random(f"{n}-{givens}-{seed}")
    b = int(round(n ** 0.5))
    symbols = classic(n).symbols
    perm = list(range(n))
    rng.shuffle(perm)
    full = [perm[(r * b + r // b + c) % n] for r in range(n) for c in range(n)]
    cells = rng.sample(range(n * n), givens)
    s = ["."] * (n * n)
    for i in cells:
        s[i] = symbols[full[i]]
    i = cells[0]
    r, c = divmod(i, n)
    br, bc = r // b * b, c // b * b
    used = {s[r * n + x] for x in range(n)} | {s[x * n + c] for x in range(n)}
    used |= {s[(br + y) * n + bc + x] for y in range(b) for x in range(b)}
    options = [ch for ch in symbols if ch not in used]
    if options:
        s[i] = rng.choice(options)
    return "".join(s)


class _Alarm(Exception):
    pass


def python_search(grid: lg.Grid, seconds: float) -> oracle.SearchStats:
    """tests/oracle_python.py's search of `grid`, stopped by SIGALRM after `seconds` (nodes: 0, not counted)."""
    import signal
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests import oracle_python

    def ring(*_):
        raise _Alarm

    signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    t0 = time.process_time()
    try:
        found = oracle_python.solutions(grid, limit=2)
        done = True
    except _Alarm:
        found, done = [], False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return oracle.SearchStats(tuple(found), 0, time.process_time() - t0, done)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--size", type=int, nargs="*", default=[25], help="grid sizes (default 25)")
    p.add_argument("--givens", type=int, nargs="*", default=[200, 300, 400], help="givens per puzzle")
    p.add_argument("--count", type=int, default=6, help="instances per size and givens (default 6)")
    p.add_argument("--time-limit", type=float, default=600.0, help="wall seconds a puzzle (default 600)")
    p.add_argument("--max-nodes", type=int, default=3_000_000,
                   help="nodes a puzzle (default 3,000,000: a cap that does not depend on the machine's load)")
    p.add_argument("--no-locks", action="store_true", help="search without the box-line rule")
    p.add_argument("--python", action="store_true",
                   help="time the pure Python search of tests/oracle_python.py instead (no node counts)")
    args = p.parse_args(argv)
    oracle._LOCKS = not args.no_locks
    oracle.count_solutions(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))  # load the compiled search
    total_nodes, total_s, open_ = 0, 0.0, 0
    for n in args.size:
        for givens in args.givens:
            for seed in range(args.count):
                grid = lg.Grid.parse(instance(n, givens, seed))
                t0 = time.process_time()
                st = python_search(grid, args.time_limit) if args.python else \
                    oracle.search(grid, limit=2, time_limit=args.time_limit, max_nodes=args.max_nodes)
                dt = time.process_time() - t0
                answer = str(len(st.solutions)) if st.complete else "?"
                open_ += not st.complete
                total_nodes += st.nodes
                total_s += dt
                print(f"{n}x{n} {givens:4d} #{seed} {answer} {st.nodes:10,d} nodes {dt:8.2f} s", flush=True)
    print(f"total {total_nodes:,} nodes {total_s:.2f} s, {open_} unanswered", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
