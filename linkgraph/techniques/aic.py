"""Alternating inference chains: X-chain, XY-chain, AIC (with group nodes), nice loops.

An AIC ``n0 = n1 - n2 = ... = nk`` alternates strong links (``=``: the two
nodes are the only live members of a set X, so one is ON) and weak links
(``-``: the nodes share a set X, so not both are ON). It proves that ``n0`` or
``nk`` is ON; every candidate that sees both ends is OFF. When the chain comes
back to its start (``-n0`` forces ``+n0``: a discontinuous nice loop with two
strong links at ``n0``) the start is placed. The other discontinuous loop (two
weak links at the start) is the AIC between its neighbours, and a continuous
nice loop gives the AIC of each of its weak links, so both are found as AICs.

- *X-chain*: one digit, links within houses.
- *XY-chain*: candidates of bivalue cells; strong links inside the cells, weak
  links between equal digits of different cells.
- *AIC*: any candidates and group nodes (a digit's places in one box-line
  intersection), any links.

The search runs from every start at once: breadth-first levels over the
strong and weak links, each node holding the set of starts that reach it as
packed bits, so one level costs one pass over the links. Chains come
shortest first (then most eliminations first); the search stops at the level
where the consumer stops, and each chain is read back from the levels and
built into a Step only when it is consumed. Proofs are chains (see
`linkgraph.techniques.chainproof`).

References
----------
SudokuWiki "X-Chains", "XY-Chains", "Alternating Inference Chains", "Nice
Loops"; seeds/sudoku-assistant-techniques.txt ("3D Medusa Analysis", strong
chains and weak links).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from linkgraph.grid import Grid
from linkgraph.model import Group
from linkgraph.steps import Step
from linkgraph.techniques.base import cached
from linkgraph.techniques.chainproof import chain_step
from linkgraph.techniques.singledigit import bitcount

__all__ = ["aics", "x_chains", "xy_chains"]

MAX_NODES = 24


@dataclass
class _Net:
    """The nodes (as member candidate indices) and their link matrices."""

    geometry: object
    members: list[list[int]]  # candidate indices per node
    strong: np.ndarray  # (N, N) bool
    weak: np.ndarray  # (N, N) bool, includes strong
    sees_all: np.ndarray  # (N, C) bool: candidate sees every member of the node (and is none)
    table: np.ndarray | None = None  # (N, width) member candidate indices, -1 pads (grouped net)

    @cached_property
    def preds(self) -> dict[bool, tuple[np.ndarray, np.ndarray]]:
        """Per link kind (True: strong): (targets v, sources u) of every link u -> v, by v then u."""
        return {True: _nonzero2(self.strong), False: _nonzero2(self.weak)}

    @cached_property
    def sees_packed(self) -> np.ndarray:
        """`sees_all` packed, one row of uint64 words per node."""
        N, C = self.sees_all.shape
        pad = np.zeros((N, (C + 63) // 64 * 64), dtype=bool)
        pad[:, :C] = self.sees_all
        return np.packbits(pad, axis=1, bitorder="little").view(np.uint64)

    def node(self, i: int):
        """The Candidate or Group of node `i` (built when a chain is read back)."""
        g = self.geometry
        mem = self.members[i]
        if len(mem) == 1:
            return g.candidate(mem[0])
        n = g.size
        return Group(tuple(g.cell(k // n) for k in mem), mem[0] % n + 1)


def _set_pairs(holders: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, a, b) for every pair a != b of entries of one row of `holders` (-1 = empty slot)."""
    width = holders.shape[1]
    if width < 2:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, empty
    i, j = _triu(width)
    a, b = holders[:, i], holders[:, j]
    ok = (a >= 0) & (b >= 0)
    rows = np.nonzero(ok)[0]
    return rows, a[ok], b[ok]


@lru_cache(maxsize=64)
def _triu(width: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(width, 1)


def _nonzero2(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`np.nonzero` of a C-contiguous 2-d array, through the faster flat form."""
    flat = np.flatnonzero(m)
    return flat // m.shape[1], flat % m.shape[1]


def _links(N: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    m = np.zeros((N, N), dtype=bool)
    m[a, b] = True
    m[b, a] = True
    return m


def _candidate_net(grid: Grid, mode: str, digit: int | None = None, *, digit_major: bool = False) -> _Net:
    """The candidate net of `mode` ("x", "xy" or "aic"); for "x" without `digit`, every digit's
    net side by side (no link joins two digits), ordered digit by digit when `digit_major`."""
    g = grid.geometry
    n = g.size
    live = grid.live
    counts = grid.counts
    idx = np.flatnonzero(live)
    if digit is not None:
        idx = idx[idx % n == digit]
    if mode == "xy":
        idx = idx[counts[idx // n] == 2]
    if digit_major:
        idx = idx[np.argsort(idx % n, kind="stable")]
    N = len(idx)
    members = [[k] for k in idx.tolist()]
    local = np.full(g.number_of_candidates, -1, dtype=np.intp)
    local[idx] = np.arange(N)
    holders = local[g.set_members]  # (S, n): node index of each set member, -1 if none
    live_per_set = live[g.set_members].sum(axis=1)
    pair_sets = live_per_set == 2
    cell_set = np.arange(g.number_of_sets) < g.number_of_cells
    if mode == "x":
        strong_sets, weak_sets = pair_sets & ~cell_set, ~cell_set
    elif mode == "xy":
        strong_sets, weak_sets = pair_sets & cell_set, ~cell_set
    else:
        strong_sets, weak_sets = pair_sets, np.ones_like(pair_sets)
    _, a, b = _set_pairs(holders[strong_sets])
    strong = _links(N, a, b)
    _, a, b = _set_pairs(holders[weak_sets])
    weak = _links(N, a, b)
    np.fill_diagonal(strong, False)
    np.fill_diagonal(weak, False)
    weak |= strong
    sees_all = g.sees[idx] & live[None, :]
    return _Net(g, members, strong, weak, sees_all)


@lru_cache(maxsize=8)
def _intersections(g) -> np.ndarray:
    """(intersections, width) cells of each box-line intersection with 2+ cells, boxes first, then
    lines, in house order; -1 pads the narrower ones."""
    boxes = [h for h, house in enumerate(g.houses) if house.kind == "box"]
    lines = [h for h, house in enumerate(g.houses) if house.kind in ("row", "col")]
    out = []
    for b in boxes:
        box_cells = set(int(c) for c in g.house_cells[b])
        for h in lines:
            cells = sorted(box_cells.intersection(int(c) for c in g.house_cells[h]))
            if len(cells) >= 2:
                out.append(cells)
    width = max((len(c) for c in out), default=2)
    table = np.full((len(out), width), -1, dtype=np.intp)
    for i, cells in enumerate(out):
        table[i, : len(cells)] = cells
    return table


def _grouped_net(grid: Grid) -> _Net:
    """Candidates plus group nodes (2+ places of a digit in one box-line intersection)."""
    g = grid.geometry
    n = g.size
    live = grid.live
    idx = np.flatnonzero(live)
    # group nodes, by intersection then digit: the live places of the digit in the intersection
    inter = _intersections(g)
    cand_table = np.where(inter[:, :, None] >= 0, inter[:, :, None] * n + np.arange(n), -1)  # (I, w, n)
    on = (cand_table >= 0) & live[np.maximum(cand_table, 0)]
    gi, gd = np.nonzero(on.sum(axis=1) >= 2)
    group_table = np.where(on[gi, :, gd], cand_table[gi, :, gd], -1)  # (groups, w), in cell order
    # members packed to the left, as lists
    order = np.argsort(group_table < 0, axis=1, kind="stable")
    group_table = np.take_along_axis(group_table, order, axis=1)
    members = [[k] for k in idx.tolist()]
    members += [[k for k in row if k >= 0] for row in group_table.tolist()]
    N, C = len(members), g.number_of_candidates
    width = max(1, group_table.shape[1])
    table = np.full((N, width), -1, dtype=np.intp)
    table[: len(idx), 0] = idx
    table[len(idx) :] = group_table
    valid = table >= 0
    size = valid.sum(axis=1)
    safe = np.where(valid, table, 0)
    inc = g.incidence
    sees = g.sees
    # node i lies inside set s when all its members are members of s; it sees candidate t when all do
    nc = len(idx)
    gsafe, gvalid = safe[nc:], ~valid[nc:, :, None]
    inside = np.concatenate([inc[idx], np.logical_and.reduce(inc[gsafe] | gvalid, axis=1)])  # (N, S)
    sees_all = np.concatenate([sees[idx], np.logical_and.reduce(sees[gsafe] | gvalid, axis=1)])  # (N, C)
    sees_all &= live[None, :]
    sees_all[np.nonzero(valid)[0], table[valid]] = False
    # holders of each set, padded
    s_idx, n_idx = _nonzero2(np.ascontiguousarray(inside.T))
    per_set = np.bincount(s_idx, minlength=g.number_of_sets)
    hw = int(per_set.max()) if len(per_set) else 0
    starts = np.concatenate(([0], np.cumsum(per_set)[:-1]))
    slot = np.arange(len(s_idx)) - starts[s_idx]
    holders = np.full((g.number_of_sets, max(hw, 1)), -1, dtype=np.intp)
    holders[s_idx, slot] = n_idx
    s, a, b = _set_pairs(holders)
    # two nodes that share a member (a candidate and its group, two groups) are not linked
    maybe = np.flatnonzero((a >= nc) | (b >= nc))  # two candidates never share a member
    ta, tb = table[a[maybe]], table[b[maybe]]
    overlap = np.zeros(len(a), dtype=bool)
    overlap[maybe] = ((ta[:, :, None] == tb[:, None, :]) & (ta[:, :, None] >= 0)).any(axis=(1, 2))
    s, a, b = s[~overlap], a[~overlap], b[~overlap]
    weak = _links(N, a, b)
    # strong: a set whose live members are exactly the two nodes' members
    live_per_set = live[g.set_members].sum(axis=1)
    full = size[a] + size[b] == live_per_set[s]
    strong = _links(N, a[full], b[full])
    weak |= strong
    return _Net(g, members, strong, weak, sees_all, table)


class _Search:
    """Breadth-first levels from every start OFF at once, one level per `advance`.

    The starts reached are bit sets (one bit per start, packed in uint64
    words): a node's new set is the OR of its predecessors' frontier sets, so a
    level costs one pass over the links whatever the number of starts.
    ``history[k]`` holds, per node, the starts that first reach it at level k
    (OFF at even levels, ON at odd ones); a chain is read back from it.
    The starts are the first `starts` nodes (all of them by default). A link
    matrix entry ``[v, u]`` lets the search go from ``u`` to ``v``. With
    `close_loops` a start reached ON is reported at that level but not carried
    further (``history`` leaves it out), so no chain read back from start ``a``
    passes through ``+a``.
    """

    def __init__(self, net: _Net, starts: int | None = None, preds: dict | None = None, *, close_loops: bool = False):
        N = len(net.members)
        self.net = net
        self.close_loops = close_loops
        self.N = N if starts is None else starts  # bits per node: one per start
        self.words = max(1, (self.N + 63) // 64)
        # per link kind (True: strong): (targets v, sources u) of every link u -> v, by v then u
        self.preds = preds if preds is not None else net.preds
        self.frontier = np.zeros((N, self.words), dtype=np.uint64)  # (N nodes, words): starts reaching v last
        first = np.arange(min(N, self.N))
        self.frontier[first, first >> 6] = np.left_shift(np.uint64(1), (first & 63).astype(np.uint64))
        self.seen = {False: self.frontier.copy(), True: np.zeros_like(self.frontier)}
        self.active = np.bitwise_or.reduce(self.frontier, axis=1) != 0  # the nodes with a start in `frontier`
        self.history = [self.frontier]
        self.level = 0
        self.alive = N > 0

    def _unpack(self, words: np.ndarray) -> np.ndarray:
        return np.unpackbits(words.view(np.uint8), axis=1, bitorder="little", count=self.N).view(bool)

    def advance(self, unpack: bool = True) -> np.ndarray | None:
        """Run the next level; the (node, start) bool array newly reached at an ON level (an empty
        tuple at an OFF level; packed, as in `history`, unless `unpack`), or None when the search is over."""
        if not self.alive or self.level >= MAX_NODES:
            self.alive = False
            return None
        self.level += 1
        on = bool(self.level % 2)  # OFF -> ON through strong links, ON -> OFF through weak links
        v, u = self.preds[on]
        # only the links out of nodes reached at the last level carry anything
        keep = np.flatnonzero(self.active[u])
        v, u = v.take(keep), u.take(keep)
        new = np.zeros_like(self.frontier)
        active = np.zeros(len(new), dtype=bool)
        if len(u):
            first = np.flatnonzero(np.concatenate(([True], v[1:] != v[:-1])))
            t = v.take(first)  # the targets, each with its new starts (not reached before at this parity)
            got = np.bitwise_or.reduceat(self.frontier.take(u, axis=0), first, axis=0)
            seen = self.seen[on]
            before = seen.take(t, axis=0)
            got &= ~before
            seen[t] = before | got
            new[t] = got
            active[t] = np.bitwise_or.reduce(got, axis=1) != 0
        if on and self.close_loops and len(u):
            # a start reached ON closes a loop (-a ... +a): reported, but not carried on, so no
            # chain passes through its own start's ON literal (its -a branch would be
            # contradictory, and its proof graph would need a cycle)
            reached = new
            new = new.copy()
            own = np.arange(min(len(new), self.N))
            new[own, own >> 6] &= ~np.left_shift(np.uint64(1), (own & 63).astype(np.uint64))
            active = np.bitwise_or.reduce(new, axis=1) != 0
        else:
            reached = new
        self.frontier = new
        self.active = active
        if not reached.any():
            self.alive = False
            return None
        self.history.append(new)
        if not on:
            return ()
        return self._unpack(reached) if unpack else reached

    def reached_at(self, level: int, a: int) -> np.ndarray:
        """The nodes first reached at `level` from start `a` (bool, per node)."""
        word = self.history[level][:, a >> 6]
        return (word >> np.uint64(a & 63)) & np.uint64(1) == 1


def _path(search: _Search, a: int, b: int, k: int) -> list[int]:
    """Read the chain a ... b back from the levels (b first reached ON at level k)."""
    net = search.net
    path = [b]
    cur = b
    while k > 0:
        # cur reached at k: a predecessor reached at k - 1 (strong link into an ON node, weak into OFF)
        links = net.strong if k % 2 else net.weak
        prev = np.flatnonzero(search.reached_at(k - 1, a) & links[:, cur])
        cur = int(prev[0])
        path.append(cur)
        k -= 1
    return path[::-1]


def _below(N: int) -> np.ndarray:
    """(N, N) bool: row > column (a view of a cached, larger triangle)."""
    return _triangle(-(-N // 256) * 256)[:N, :N]


@lru_cache(maxsize=4)
def _triangle(M: int) -> np.ndarray:
    return np.tri(M, M, -1, dtype=bool)


def _popcount(words: np.ndarray) -> np.ndarray:
    return bitcount(words).sum(axis=-1, dtype=np.int64)


def _level_items(net_i: int, search: _Search, reached: np.ndarray) -> list[tuple]:
    """The chains ending at one ON level, as ``(sort key, start, end)``; the key is
    (-eliminations, net, a, 0 for a loop else 1, b) with ends a <= b, and the chain is read
    from the end that reaches the other. Ends with nothing to eliminate are left out."""
    net = search.net
    items = []
    loops = np.flatnonzero(np.diagonal(reached))  # reached: (node, start)
    for a in loops.tolist():
        if len(net.members[a]) == 1:
            items.append(((0, net_i, a, 0, a), a, a))
    # ends a < b reached from either end: the chain -b ... +a is -a ... +b read backwards, but a
    # chain kept off its own start's ON literal may exist in one direction only
    b_idx, a_idx = _nonzero2((reached | reached.T) & _below(len(reached)))
    if len(a_idx):
        packed = search.net.sees_packed
        counts = _popcount(packed[a_idx] & packed[b_idx])
        hit = counts > 0
        a_idx, b_idx = a_idx[hit], b_idx[hit]
        forward = reached[b_idx, a_idx].tolist()
        for a, b, c, fwd in zip(a_idx.tolist(), b_idx.tolist(), counts[hit].tolist(), forward):
            items.append(((-c, net_i, a, 1, b), a, b) if fwd else ((-c, net_i, a, 1, b), b, a))
    items.sort(key=lambda item: item[0])
    return items


def _chains(grid: Grid, nets: list[_Net], technique: str) -> Iterator[Step]:
    """Chains of all nets, shortest first, then most eliminations first; steps built as consumed.

    The searches advance one level at a time together; after each ON level the
    chains of that length are ranked (more eliminations first, then net, start
    and end order) and read back only as the consumer asks for them.
    """
    searches = [_Search(net, close_loops=True) for net in nets]
    seen: set[frozenset] = set()
    level = 0
    while any(s.alive for s in searches):
        level += 1
        items = []
        for net_i, s in enumerate(searches):
            reached = s.advance()
            if reached is not None and len(reached):
                items += _level_items(net_i, s, reached)
        items.sort(key=lambda item: item[0])
        for key, a, b in items:
            net = nets[key[1]]
            path = _path(searches[key[1]], a, b, level)
            nodes = [net.node(i) for i in path]
            if a == b:
                done = frozenset([-1 - net.members[a][0]])
                if done not in seen:
                    seen.add(done)
                    yield chain_step(technique, grid, nodes, placements=net.members[a], length=level + 1)
                continue
            # every candidate seeing both ends, on the chain or not (see `chain_step`): which
            # of several equally short chains is read back must not change the eliminations
            targets = np.flatnonzero(net.sees_all[a] & net.sees_all[b]).tolist()
            done = frozenset(targets)
            if targets and done not in seen:
                seen.add(done)
                yield chain_step(technique, grid, nodes, eliminations=targets, length=level + 1)


def x_chains(grid: Grid) -> Iterator[Step]:
    """Yield X-chains: AICs on one digit, shortest first.

    Examples
    --------
    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = next(lg.techniques.aic.x_chains(grid))
    >>> step.technique, step.proof.graph["kind"]
    ('x-chain', 'chain')
    """
    # one net for all digits, digit by digit: the same chains in the same order as one net per digit
    return _chains(grid, [_candidate_net(grid, "x", digit_major=True)], "x-chain")


def xy_chains(grid: Grid) -> Iterator[Step]:
    """Yield XY-chains: AICs through bivalue cells, shortest first.

    Examples
    --------
    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> [s.technique for s in lg.techniques.aic.xy_chains(grid)][:1]
    ['xy-chain']
    """
    return _chains(grid, [_candidate_net(grid, "xy")], "xy-chain")


def aics(grid: Grid, *, groups: bool = True) -> Iterator[Step]:
    """Yield alternating inference chains over candidates (and group nodes), shortest first.

    Parameters
    ----------
    grid : Grid
        The candidate state to search.
    groups : bool, optional
        Also use group nodes (technique ``grouped-aic``); default True.

    Examples
    --------
    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = next(lg.techniques.aic.aics(grid, groups=False))
    >>> step.technique
    'aic'
    """
    if groups:
        # the net is kept for the ALS chains, the rung after the next, on the same grid
        return _chains(grid, [cached("grouped-net", grid, _grouped_net)], "grouped-aic")
    return _chains(grid, [_candidate_net(grid, "aic")], "aic")
