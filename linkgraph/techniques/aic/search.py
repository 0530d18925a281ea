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
packed bits, so one level costs one pass over the links. Only the nodes with
a strong link are searched: a chain leaves its start, and every node it
reaches OFF, by a strong link, and reaches every other node by one. Chains come
shortest first (then most eliminations first); the search stops at the level
where the consumer stops, and each chain is read back from the levels and
built into a Step only when it is consumed. Proofs are chains (see
`linkgraph.techniques.chainproof`); the nets are built in
`linkgraph.techniques.aic.net`.

References
----------
SudokuWiki "X-Chains", "XY-Chains", "Alternating Inference Chains", "Nice
Loops"; seeds/sudoku-assistant-techniques.txt ("3D Medusa Analysis", strong
chains and weak links).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from linkgraph.bitops import bit_column, identity, nonzero2, popcount_rows, unpack
from linkgraph.bitops import unpack as unpack_bits
from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.grid import cached
from linkgraph.techniques.aic.net import Net, candidate_net, grouped_net, strong_part
from linkgraph.techniques.chainproof import chain_step

__all__ = ["aics", "x_chains", "xy_chains"]

MAX_NODES = 24


class Search:
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

    def __init__(self, net: Net, starts: int | None = None, preds: dict | None = None, *, close_loops: bool = False):
        N = len(net.members)
        self.net = net
        self.N = N if starts is None else starts  # bits per node: one per start
        self.words = max(1, (self.N + 63) // 64)
        # per link kind (True: strong): (targets v, sources u) of every link u -> v, by v then u
        self.preds = preds if preds is not None else net.preds
        # (N nodes, words): the starts reaching each node at the last level; first, each start itself
        own = identity(self.N)
        if self.N >= N:
            self.frontier = own[:N].copy()
        else:
            self.frontier = np.zeros((N, self.words), dtype=np.uint64)
            self.frontier[: self.N] = own
        # per parity (True: ON), the starts that have not reached the node yet
        self.unseen = {False: ~self.frontier, True: np.full_like(self.frontier, ~np.uint64(0))}
        self.carry = ~self.frontier if close_loops else None  # what an ON level carries on
        self.history = [self.frontier]
        self.level = 0
        self.alive = N > 0

    def advance(self, unpack: bool = True) -> np.ndarray | None:
        """Run the next level; the (node, start) bool array newly reached at an ON level (an empty
        tuple at an OFF level; packed, as in `history`, unless `unpack`), or None when the search
        is over. The level is one compiled pass over the links (`linkgraph.techniques.aic.kernel`)."""
        if not self.alive or self.level >= MAX_NODES:
            self.alive = False
            return None
        self.level += 1
        on = bool(self.level % 2)  # OFF -> ON through strong links, ON -> OFF through weak links
        v, u = self.preds[on]
        reached, found = _kernel().level(self.frontier, v, u, self.unseen[on])
        if not found:
            self.alive = False
            return None
        new = reached
        if on and self.carry is not None:
            # a start reached ON closes a loop (-a ... +a): reported, but not carried on, so no
            # chain passes through its own start's ON literal (its -a branch would be
            # contradictory, and its proof graph would need a cycle)
            new = reached & self.carry
        self.frontier = new
        self.history.append(new)
        if not on:
            return ()
        return unpack_bits(reached, self.N) if unpack else reached  # (the argument hides bitops.unpack)

    def reached_at(self, level: int, a: int) -> np.ndarray:
        """The nodes first reached at `level` from start `a` (bool, per node)."""
        return bit_column(self.history[level], a)


_KERNEL = None


def _kernel():
    """`linkgraph.techniques.aic.kernel`, imported on the first level searched (numba's import
    is paid by the commands that search a chain, not by every import of the ladder)."""
    global _KERNEL
    if _KERNEL is None:
        from linkgraph.techniques.aic import kernel  # noqa: PLC0415

        _KERNEL = kernel
    return _KERNEL


def _path(search: Search, a: int, b: int, k: int) -> list[int]:
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


def _level_items(net_i: int, search: Search, reached: np.ndarray) -> list[tuple]:
    """The chains ending at one ON level (`reached`: packed, per node the starts newly reaching it
    ON), as ``(sort key, start, end)``; the key is (-eliminations, net, a, 0 for a loop else 1, b)
    with ends a <= b, and the chain is read from the end that reaches the other. Ends with
    nothing to eliminate are left out."""
    net = search.net
    hit = reached & net.hits
    if not hit.any():
        return []
    rows, cols = nonzero2(hit != 0)
    i, bit = nonzero2(unpack(hit[rows, cols][:, None], 64))
    ends, starts = rows.take(i).tolist(), (cols.take(i) * 64 + bit).tolist()
    items = []
    # ends a < b reached from either end: the chain -b ... +a is -a ... +b read backwards, but a
    # chain kept off its own start's ON literal may exist in one direction only
    forward: dict[tuple[int, int], bool] = {}
    for b, a in zip(ends, starts):
        if a == b:
            items.append(((0, net_i, a, 0, a), a, a))
        elif a < b:
            forward[a, b] = True
        else:
            forward.setdefault((b, a), False)
    if forward:
        pairs = np.array(list(forward), dtype=np.intp)
        packed = net.sees_packed
        counts = popcount_rows(packed[pairs[:, 0]] & packed[pairs[:, 1]]).tolist()
        for (a, b), fwd, c in zip(forward, forward.values(), counts):
            items.append(((-c, net_i, a, 1, b), a, b) if fwd else ((-c, net_i, a, 1, b), b, a))
    items.sort(key=lambda item: item[0])
    return items


def _chains(grid: Grid, nets: list[Net], technique: str) -> Iterator[Step]:
    """Chains of all nets, shortest first, then most eliminations first; steps built as consumed.

    The searches advance one level at a time together; after each ON level the
    chains of that length are ranked (more eliminations first, then net, start
    and end order) and read back only as the consumer asks for them.
    """
    searches = [Search(net, close_loops=True) for net in nets]
    seen: set[frozenset] = set()
    level = 0
    while any(s.alive for s in searches):
        level += 1
        items = []
        for net_i, s in enumerate(searches):
            reached = s.advance(unpack=False)
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
    >>> step = next(lg.techniques.aic.search.x_chains(grid))
    >>> step.technique, step.proof.graph["kind"]
    ('x-chain', 'chain')
    """
    # one net for all digits, digit by digit: the same chains in the same order as one net per digit
    return _chains(grid, [candidate_net(grid, "x", digit_major=True, strong_only=True)], "x-chain")


def xy_chains(grid: Grid) -> Iterator[Step]:
    """Yield XY-chains: AICs through bivalue cells, shortest first.

    Examples
    --------
    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> [s.technique for s in lg.techniques.aic.search.xy_chains(grid)][:1]
    ['xy-chain']
    """
    return _chains(grid, [candidate_net(grid, "xy")], "xy-chain")


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
    >>> step = next(lg.techniques.aic.search.aics(grid, groups=False))
    >>> step.technique
    'aic'
    """
    if groups:
        # the net is kept for the ALS chains, the rung after the next, on the same grid
        return _chains(grid, [strong_part(cached("grouped-net", grid, grouped_net))], "grouped-aic")
    return _chains(grid, [candidate_net(grid, "aic", strong_only=True)], "aic")
