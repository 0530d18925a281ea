"""The truth oracle: count a grid's solutions by search and return the unique one.

A proper puzzle has exactly one solution; every placement linkgraph makes must
be a solution digit and no elimination may remove one. This module finds the
solutions by search over the geometry's sets X, independently of the reasoning
engine (it shares no code with the techniques: it reads only the geometry's
tables).

The search is an exact-cover search, compiled with numba. Every set X (a cell's
digits, a digit's places in a house) must hold exactly one true candidate. The
state is one flag per candidate (live or not), per set (covered or not) and the
number of live members of each set, with a trail to undo choices. Choosing a
candidate covers its sets and kills every other member of them. A set whose
count falls to 0 is a contradiction, one that falls to 1 is forced (a naked
single when the set is a cell, a hidden single when it is a house-digit), and
when nothing is forced the search branches on the open set with the fewest live
members, cell or house-digit alike, ties going to the set whose members would
kill the most live candidates. Both choices matter on puzzles built against
cell-only backtracking: Norvig's "impossible" puzzle (no solution) and its
transposed and relabelled forms take a handful of nodes, where a search that
branches on cells only, or breaks ties by position, takes thousands or millions.

The search runs in slices of a few thousand nodes and comes back to Python
between them, so it can be stopped: by ``time_limit`` (SearchLimitError, with the
grid's size and the nodes searched) and by a `linkgraph.limits.Deadline` around the
call, whose exception lands between two slices. On a 9x9 grid a search is a few
dozen nodes; on 16x16 and 25x25 grids with few givens or no solution it can take
millions, which is why the command line bounds it by default (``--check-limit``).

The pure Python search this replaced (Python ints as bitsets) is kept in
tests/oracle_python.py as the compiled search's own oracle. numba compiles
the search on first use and caches the machine code beside this file.

Examples
--------
>>> lg.oracle.count_solutions(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
1
>>> lg.oracle.count_solutions(lg.Grid.empty(), limit=3)
3
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from time import monotonic, process_time  # bound at import: a test that fakes time.process_time is not fed

import numpy as np
from numba import njit

from linkgraph.errors import InvalidPuzzleError, SearchLimitError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, as_grid
from linkgraph.limits import check_count, check_seconds

__all__ = ["SearchStats", "count_solutions", "search", "solutions", "solve_unique"]

# the slots of the search's `meta` array (the state kept between two slices)
_MODE, _DEPTH, _TRAIL, _FOUND, _NODES, _QLEN, _TLEN = range(7)
# the modes: propagate the state and branch; try the top frame's next member; done
_DESCEND, _NEXT, _DONE = 0, 1, 2
#: Look for box-line intersections at each node (benchmarks/oracle_big.py turns it off to compare).
_LOCKS = True


@lru_cache(maxsize=8)
def _tables(g: Geometry) -> tuple[np.ndarray, np.ndarray, int]:
    """The search's tables of a geometry (see `_layout`)."""
    return _layout(g.set_members, g.number_of_candidates)


def _layout(members: np.ndarray, candidates: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(members of each set X (sets, size), the sets of each candidate (candidates, r) padded
    with -1, the most candidates two sets share: the box-line rule's widest pattern)."""
    mem = np.ascontiguousarray(members, dtype=np.int32)
    per = np.bincount(mem.ravel(), minlength=candidates)
    cs = np.full((candidates, int(per.max())), -1, dtype=np.int32)
    fill = np.zeros(candidates, dtype=np.int64)
    for s in range(mem.shape[0]):
        for k in mem[s]:
            cs[k, fill[k]] = s
            fill[k] += 1
    r = cs.shape[1]
    a = np.concatenate([cs[:, i] for i in range(r) for j in range(r) if i != j])
    b = np.concatenate([cs[:, j] for i in range(r) for j in range(r) if i != j])
    keep = (a >= 0) & (b >= 0)
    shared = np.unique(a[keep].astype(np.int64) * mem.shape[0] + b[keep], return_counts=True)[1]
    mem.flags.writeable = False
    cs.flags.writeable = False
    return mem, cs, int(shared.max()) if len(shared) else 0


@njit(cache=True, nogil=True, inline="always")
def _kill(m, live, count, covered, cs, trail, meta, queue, dirty, touched, qlen):  # pragma: no cover (compiled)
    """Kill the live candidate `m`; queue its open sets left with one live member or none."""
    live[m] = 0
    t = meta[_TRAIL]
    trail[t] = m
    meta[_TRAIL] = t + 1
    for j in range(cs.shape[1]):
        s = cs[m, j]
        if s < 0:
            break
        count[s] -= 1
        if covered[s] == 0:
            if count[s] <= 1:
                queue[qlen] = s
                qlen += 1
            elif dirty[s] == 0:  # a set that lost a member: `_lock` looks at it again
                dirty[s] = 1
                touched[meta[_TLEN]] = s
                meta[_TLEN] += 1
    return qlen


@njit(cache=True, nogil=True)
def _choose(k, live, count, covered, chosen, mem, cs, trail, meta, queue, dirty, touched, qlen):  # pragma: no cover
    """Choose the live candidate `k`: cover its sets and kill their other members."""
    N = live.shape[0]
    S = mem.shape[0]
    chosen[k] = 1
    t = meta[_TRAIL]
    trail[t] = N + S + k
    t += 1
    for j in range(cs.shape[1]):
        s = cs[k, j]
        if s < 0:
            break
        covered[s] = 1
        trail[t] = N + s
        t += 1
    meta[_TRAIL] = t
    for j in range(cs.shape[1]):
        s = cs[k, j]
        if s < 0:
            break
        for i in range(mem.shape[1]):
            m = mem[s, i]
            if m != k and live[m]:
                qlen = _kill(m, live, count, covered, cs, trail, meta, queue, dirty, touched, qlen)
    return qlen


@njit(cache=True, nogil=True)
def _undo(mark, live, count, covered, chosen, cs, trail, meta):  # pragma: no cover
    """Undo the trail down to `mark`."""
    N = live.shape[0]
    S = covered.shape[0]
    t = meta[_TRAIL]
    while t > mark:
        t -= 1
        e = trail[t]
        if e < N:
            live[e] = 1
            for j in range(cs.shape[1]):
                s = cs[e, j]
                if s < 0:
                    break
                count[s] += 1
        elif e < N + S:
            covered[e - N] = 0
        else:
            chosen[e - N - S] = 0
    meta[_TRAIL] = t


@njit(cache=True, nogil=True)
def _propagate(live, count, covered, chosen, mem, cs, trail, meta, queue, dirty, touched, qlen):  # pragma: no cover
    """Choose every forced candidate of the queued sets; False on a contradiction."""
    head = 0
    while head < qlen:
        s = queue[head]
        head += 1
        if covered[s]:
            continue
        if count[s] == 0:
            return False
        for i in range(mem.shape[1]):  # the one live member
            m = mem[s, i]
            if live[m]:
                qlen = _choose(m, live, count, covered, chosen, mem, cs, trail, meta, queue, dirty, touched, qlen)
                break
    return True


@njit(cache=True, nogil=True, inline="always")
def _holds(k, s, cs):  # pragma: no cover (compiled)
    """True when candidate `k` is a member of set `s`."""
    for j in range(cs.shape[1]):
        if cs[k, j] == s:
            return True
    return False


@njit(cache=True, nogil=True)
def _lock(cap, live, count, covered, mem, cs, trail, meta, queue, dirty, touched):  # pragma: no cover
    """Kill, for each open set A whose live members all lie in another set B, the members of B
    outside A (box-line intersections, on any geometry); return the queue's length (the sets
    the kills left with one live member or none).

    Only the sets that lost a member since the last look (`touched`) are looked at: the
    state at a frame's mark has no such pattern left, and sets only lose members below it."""
    qlen = 0
    tlen = meta[_TLEN]
    for q in range(tlen):
        a = touched[q]
        dirty[a] = 0
    for q in range(tlen):
        a = touched[q]
        if covered[a] or count[a] > cap or count[a] < 2:
            continue
        first = -1
        for i in range(mem.shape[1]):
            if live[mem[a, i]]:
                first = mem[a, i]
                break
        for j in range(cs.shape[1]):
            b = cs[first, j]
            if b < 0:
                break
            if b == a or covered[b] or count[b] <= count[a]:
                continue
            inside = True
            for i in range(mem.shape[1]):
                m = mem[a, i]
                if live[m] and not _holds(m, b, cs):
                    inside = False
                    break
            if inside:
                for i in range(mem.shape[1]):
                    m = mem[b, i]
                    if live[m] and not _holds(m, a, cs):
                        qlen = _kill(m, live, count, covered, cs, trail, meta, queue, dirty, touched, qlen)
    more = meta[_TLEN] - tlen  # the sets touched by this pass's kills: looked at by the next pass
    for q in range(more):
        touched[q] = touched[tlen + q]
    meta[_TLEN] = more
    return qlen


@njit(cache=True, nogil=True)
def _pick(live, count, covered, mem, cs):  # pragma: no cover
    """The open set with the fewest live members, ties to the one whose members kill the most; -1 when all are covered."""
    S = mem.shape[0]
    fewest = 1 << 30
    for s in range(S):
        if covered[s] == 0 and count[s] < fewest:
            fewest = count[s]
    if fewest == 1 << 30:
        return -1
    best = -1
    most = -1
    for s in range(S):
        if covered[s] or count[s] != fewest:
            continue
        score = 0
        for i in range(mem.shape[1]):
            m = mem[s, i]
            if live[m]:
                for j in range(cs.shape[1]):
                    t = cs[m, j]
                    if t < 0:
                        break
                    score += count[t] - 1
        if score > most:
            best, most = s, score
    return best


@njit(cache=True, nogil=True)
def _run(budget, limit, cap, live, count, covered, chosen, mem, cs, trail, meta, queue, dirty, touched,
         f_set, f_mark, f_pos, f_tried, out):  # pragma: no cover
    """Run the search for up to `budget` nodes from the state in the arrays; True when it is done.

    A node is one propagation (a choice and its forced consequences). Solutions go to the
    rows of `out` (one chosen flag per candidate) until `limit` are found; when `out` is
    full first, it returns False with the search paused, for the caller to make room.
    """
    stop = meta[_NODES] + budget
    while meta[_NODES] < stop:
        mode = meta[_MODE]
        if mode == _DONE:
            return True
        if mode == _DESCEND:  # the state is set up and `queue` holds the sets to look at
            qlen = meta[_QLEN]
            meta[_NODES] += 1
            ok = _propagate(live, count, covered, chosen, mem, cs, trail, meta, queue, dirty, touched, qlen)
            while ok and cap > 1:
                before = meta[_TRAIL]
                qlen = _lock(cap, live, count, covered, mem, cs, trail, meta, queue, dirty, touched)
                if meta[_TRAIL] == before:
                    break
                ok = _propagate(live, count, covered, chosen, mem, cs, trail, meta, queue, dirty, touched, qlen)
            if ok:
                s = _pick(live, count, covered, mem, cs)
                if s < 0:
                    out[meta[_FOUND], :] = chosen
                    meta[_FOUND] += 1
                    if meta[_FOUND] >= limit:
                        meta[_MODE] = _DONE
                        return True
                    if meta[_FOUND] >= out.shape[0]:  # `out` is full: the caller makes room
                        meta[_MODE] = _NEXT
                        return False
                else:
                    d = meta[_DEPTH]
                    f_set[d] = s
                    f_mark[d] = meta[_TRAIL]
                    f_pos[d] = 0
                    f_tried[d] = -1
                    meta[_DEPTH] = d + 1
            meta[_MODE] = _NEXT
            continue
        # _NEXT: the top frame tries its next member, or is popped
        d = meta[_DEPTH] - 1
        if d < 0:
            meta[_MODE] = _DONE
            return True
        _undo(f_mark[d], live, count, covered, chosen, cs, trail, meta)
        for q in range(meta[_TLEN]):
            dirty[touched[q]] = 0
        meta[_TLEN] = 0
        qlen = 0
        if f_tried[d] >= 0:  # the member tried last is false from now on
            qlen = _kill(f_tried[d], live, count, covered, cs, trail, meta, queue, dirty, touched, qlen)
            f_tried[d] = -1
        s = f_set[d]
        k = -1
        while f_pos[d] < mem.shape[1]:
            m = mem[s, f_pos[d]]
            f_pos[d] += 1
            if live[m]:
                k = m
                break
        if k < 0:
            meta[_DEPTH] = d  # popped: its parent undoes everything above its own mark
            continue
        f_mark[d] = meta[_TRAIL]
        f_tried[d] = k
        qlen = _choose(k, live, count, covered, chosen, mem, cs, trail, meta, queue, dirty, touched, qlen)
        meta[_QLEN] = qlen
        meta[_MODE] = _DESCEND
    return meta[_MODE] == _DONE


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What one search did: the solutions it found and the nodes it searched.

    Attributes
    ----------
    solutions : tuple of numpy.ndarray
        Up to the search's limit, each one value (1..n) per cell.
    nodes : int
        Propagations run (one per choice, the root included).
    seconds : float
        Process time of the search.
    complete : bool
        True when the search ran to its end (all solutions up to the limit are found).
    """

    solutions: tuple[np.ndarray, ...]
    nodes: int
    seconds: float
    complete: bool


def search(grid: Grid, *, limit: int = 2, time_limit: float | None = None,
           max_nodes: int | None = None) -> SearchStats:
    """Search `grid` for up to `limit` solutions; stop early at `time_limit` seconds or `max_nodes` nodes.

    Unlike `solutions`, running out of time or nodes is no error: the result says
    ``complete=False`` and carries what was found.

    Parameters
    ----------
    grid : Grid
        A puzzle or a candidate grid (a position after eliminations).
    limit : int
        How many solutions to look for (0: none, no search).
    time_limit : float, optional
        Seconds of wall time the search may take (default: no bound).
    max_nodes : int, optional
        Nodes the search may take (default: no bound).

    Examples
    --------
    >>> st = lg.oracle.search(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> len(st.solutions), st.complete, st.nodes < 100
    (1, True, True)
    >>> lg.oracle.search(lg.Grid.empty(lg.geometry.classic(16)), limit=5, max_nodes=3).complete
    False
    """
    grid = as_grid(grid)
    limit = check_count("limit", limit, none=False)
    time_limit = check_seconds("time_limit", time_limit)
    max_nodes = check_count("max_nodes", max_nodes)
    g = grid.geometry
    mem, cs, cap = _tables(g)
    cap = cap if _LOCKS else 0
    N, S = g.number_of_candidates, mem.shape[0]
    live = np.ascontiguousarray(grid.live.ravel(), dtype=np.uint8).copy()
    count = np.zeros(S, dtype=np.int32)
    np.add.at(count, np.arange(S).repeat(mem.shape[1]), live[mem.ravel()].astype(np.int32))
    covered = np.zeros(S, dtype=np.uint8)
    chosen = np.zeros(N, dtype=np.uint8)
    trail = np.zeros(2 * N + S + 1, dtype=np.int32)
    queue = np.zeros(2 * S + 2, dtype=np.int32)
    frames = [np.zeros(S + 1, dtype=np.int32) for _ in range(4)]
    out = np.zeros((max(min(limit, 16), 1), N), dtype=np.uint8)  # grown as solutions come
    meta = np.zeros(7, dtype=np.int64)
    meta[_TLEN] = S
    dirty = np.ones(S, dtype=np.uint8)  # at the root every set is looked at
    touched = np.zeros(2 * S + 1, dtype=np.int32)  # the last look's sets and those touched since
    touched[:S] = np.arange(S)
    opening = np.flatnonzero(count <= 1).astype(np.int32)
    queue[: len(opening)] = opening
    meta[_QLEN] = len(opening)
    meta[_MODE] = _DESCEND if limit > 0 else _DONE
    start, wall = process_time(), monotonic()
    budget = 64
    done = meta[_MODE] == _DONE
    while not done:
        if max_nodes is not None and meta[_NODES] >= max_nodes:
            break
        step = budget if max_nodes is None else min(budget, max_nodes - int(meta[_NODES]))
        t0 = monotonic()
        done = _run(step, limit, cap, live, count, covered, chosen, mem, cs, trail, meta, queue, dirty, touched, *frames, out)
        if not done and meta[_FOUND] == len(out):
            out = np.concatenate([out, np.zeros_like(out)])
        if time_limit is not None and monotonic() - wall >= time_limit:
            break
        if monotonic() - t0 < 0.02 and budget < 1 << 22:  # slices of about 20-40 ms
            budget *= 2
    n = g.size
    sols = tuple(_values(row, n) for row in out[: int(meta[_FOUND])])
    return SearchStats(sols, int(meta[_NODES]), process_time() - start, bool(done))


def _values(flags: np.ndarray, n: int) -> np.ndarray:
    """One value (1..n) per cell from the chosen flags of a solution (candidate k = cell * n + digit)."""
    return (flags.reshape(-1, n).argmax(axis=1) + 1).astype(np.int64)


def solutions(grid: Grid, *, limit: int = 2, time_limit: float | None = None) -> list[np.ndarray]:
    """Up to `limit` solutions of `grid`, each an array of one value per cell.

    The search starts from the grid's live candidates, so it also answers for
    a position after eliminations.

    Parameters
    ----------
    grid : Grid
        A puzzle or a candidate grid.
    limit : int
        How many solutions to look for (2, the default, tells one from several).
    time_limit : float, optional
        Seconds of wall time the search may take; past it SearchLimitError (naming
        the grid's size and the nodes searched). Default None: no bound (a 9x9 grid
        takes milliseconds; a 25x25 grid with no solution can take minutes).

    Examples
    --------
    >>> sols = lg.oracle.solutions(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> len(sols), "".join(map(str, sols[0][:9]))
    (1, '152647389')
    >>> len(lg.oracle.solutions(lg.Grid.empty(), limit=2, time_limit=5.0))
    2
    """
    st = search(grid, limit=limit, time_limit=time_limit)
    if not st.complete:
        n = as_grid(grid).geometry.size
        raise SearchLimitError(f"oracle: no answer within time_limit {time_limit:g} s on a {n}x{n} grid "
                               f"({st.nodes:,} nodes searched)")
    return list(st.solutions)


def count_solutions(grid: Grid, *, limit: int = 2, time_limit: float | None = None) -> int:
    """Number of solutions, counted up to `limit` (so 2 means "two or more").

    `time_limit` bounds the search as in `solutions` (SearchLimitError past it).

    >>> lg.oracle.count_solutions(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), time_limit=5.0)
    1
    """
    return len(solutions(grid, limit=limit, time_limit=time_limit))


def solve_unique(grid: Grid, *, time_limit: float | None = None) -> np.ndarray:
    """The unique solution as one value per cell.

    Raises InvalidPuzzleError when the grid has no solution or more than one, and
    SearchLimitError when `time_limit` seconds run out first.
    """
    sols = solutions(grid, limit=2, time_limit=time_limit)
    if not sols:
        raise InvalidPuzzleError("the puzzle has no solution")
    if len(sols) > 1:
        raise InvalidPuzzleError("the puzzle has more than one solution")
    return sols[0]
