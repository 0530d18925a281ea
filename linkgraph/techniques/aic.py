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
strong and weak adjacency matrices (numpy), then each chain is read back
from the levels. Chains come shortest first. Proofs are chains (see
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

import numpy as np

from linkgraph.grid import Grid
from linkgraph.model import Group
from linkgraph.steps import Step
from linkgraph.techniques.chainproof import chain_step

__all__ = ["aics", "x_chains", "xy_chains"]

MAX_NODES = 24


@dataclass
class _Net:
    """The nodes (candidate indices or member lists) and their link matrices."""

    nodes: list  # Candidate or Group values
    members: list[list[int]]  # candidate indices per node
    strong: np.ndarray  # (N, N) bool
    weak: np.ndarray  # (N, N) bool, includes strong
    sees_all: np.ndarray  # (N, C) bool: candidate sees every member of the node (and is none)
    off: np.ndarray | None = None  # BFS levels, filled by the search
    on: np.ndarray | None = None


def _candidate_net(grid: Grid, mode: str, digit: int | None = None) -> _Net:
    g = grid.geometry
    n = g.size
    live = grid.live
    counts = grid.counts
    idx = np.flatnonzero(live)
    if digit is not None:
        idx = idx[idx % n == digit]
    if mode == "xy":
        idx = idx[counts[idx // n] == 2]
    nodes = [g.candidate(k) for k in idx]
    members = [[int(k)] for k in idx]
    inc = g.incidence[idx]  # (N, S)
    live_per_set = live[g.set_members].sum(axis=1)
    pair_sets = live_per_set == 2
    cell_set = np.arange(g.number_of_sets) < g.number_of_cells
    if mode == "x":
        strong_sets, weak_sets = pair_sets & ~cell_set, ~cell_set
    elif mode == "xy":
        strong_sets, weak_sets = pair_sets & cell_set, ~cell_set
    else:
        strong_sets, weak_sets = pair_sets, np.ones_like(pair_sets)
    f = inc.astype(np.float32)
    strong = (f[:, strong_sets] @ f[:, strong_sets].T) > 0
    weak = (f[:, weak_sets] @ f[:, weak_sets].T) > 0
    np.fill_diagonal(strong, False)
    np.fill_diagonal(weak, False)
    weak |= strong
    sees_all = g.sees[idx] & live[None, :]
    return _Net(nodes, members, strong, weak, sees_all)


def _grouped_net(grid: Grid) -> _Net:
    """Candidates plus group nodes (2+ places of a digit in one box-line intersection)."""
    g = grid.geometry
    n = g.size
    live = grid.live
    idx = [int(k) for k in np.flatnonzero(live)]
    nodes: list = [g.candidate(k) for k in idx]
    members = [[k] for k in idx]
    boxes = [h for h, house in enumerate(g.houses) if house.kind == "box"]
    lines = [h for h, house in enumerate(g.houses) if house.kind in ("row", "col")]
    for b in boxes:
        box_cells = set(int(c) for c in g.house_cells[b])
        for h in lines:
            cells = sorted(box_cells.intersection(int(c) for c in g.house_cells[h]))
            if len(cells) < 2:
                continue
            for d in range(n):
                mem = [c * n + d for c in cells if live[c * n + d]]
                if len(mem) >= 2:
                    nodes.append(Group(tuple(g.cell(k // n) for k in mem), d + 1))
                    members.append(mem)
    N, C = len(nodes), g.number_of_candidates
    M = np.zeros((N, C), dtype=bool)
    for i, mem in enumerate(members):
        M[i, mem] = True
    Mf = M.astype(np.float32)
    size = M.sum(axis=1).astype(np.float32)
    inc = g.incidence.astype(np.float32)
    # node i lies inside set s when all its members are members of s
    inside = (Mf @ inc) >= size[:, None] - 0.5  # (N, S)
    overlap = (Mf @ Mf.T) > 0
    weak = ((inside.astype(np.float32) @ inside.T.astype(np.float32)) > 0) & ~overlap
    # strong: a set whose live members are exactly the two nodes' members
    live_per_set = live[g.set_members].sum(axis=1).astype(np.float32)
    strong = np.zeros((N, N), dtype=bool)
    for s in np.flatnonzero(inside.any(axis=0)):
        holders = np.flatnonzero(inside[:, s])
        if len(holders) < 2:
            continue
        tot = size[holders][:, None] + size[holders][None, :]
        ok = (tot == live_per_set[s]) & ~overlap[np.ix_(holders, holders)]
        if ok.any():
            strong[np.ix_(holders, holders)] |= ok
    weak |= strong
    sees = g.sees.astype(np.float32)
    sees_all = ((Mf @ sees) >= size[:, None] - 0.5) & live[None, :] & ~M
    return _Net(nodes, members, strong, weak, sees_all)


def _levels(net: _Net) -> tuple[np.ndarray, np.ndarray]:
    """BFS levels from every start OFF: (off_level, on_level), -1 where unreached."""
    N = len(net.nodes)
    off = np.full((N, N), -1, dtype=np.int16)
    on = np.full((N, N), -1, dtype=np.int16)
    np.fill_diagonal(off, 0)
    frontier = np.eye(N, dtype=np.float32)
    S = net.strong.astype(np.float32)
    W = net.weak.astype(np.float32)
    level = 0
    while frontier.any() and level < MAX_NODES:
        level += 1
        if level % 2:  # OFF -> ON through strong links
            new = ((frontier @ S) > 0) & (on < 0)
            on[new] = level
        else:  # ON -> OFF through weak links
            new = ((frontier @ W) > 0) & (off < 0)
            off[new] = level
        frontier = new.astype(np.float32)
    return off, on


def _path(net: _Net, off: np.ndarray, on: np.ndarray, a: int, b: int) -> list[int]:
    """Read the chain a ... b back from the levels (b reached ON)."""
    k = int(on[a, b])
    path = [b]
    cur = b
    while k > 0:
        if k % 2:  # cur ON at k: a strong predecessor OFF at k - 1
            prev = np.flatnonzero((off[a] == k - 1) & net.strong[:, cur])
        else:
            prev = np.flatnonzero((on[a] == k - 1) & net.weak[:, cur])
        cur = int(prev[0])
        path.append(cur)
        k -= 1
    return path[::-1]


def _found(net: _Net) -> list[tuple]:
    """(length, -eliminations, a, b, targets, net) for every chain with a result."""
    N = len(net.nodes)
    if N == 0:
        return []
    off, on = _levels(net)
    net.off, net.on = off, on
    found = []
    for a in range(N):
        ends = np.flatnonzero(on[a] > 0)
        if not len(ends):
            continue
        if on[a, a] > 0 and len(net.members[a]) == 1:
            found.append((int(on[a, a]) + 1, 0, a, a, (), net))
        ends = ends[ends > a]  # a chain read backwards gives the same result
        if not len(ends):
            continue
        T = net.sees_all[ends] & net.sees_all[a]
        for j in np.flatnonzero(T.any(axis=1)):
            b = int(ends[j])
            found.append((int(on[a, b]) + 1, -int(T[j].sum()), a, b, tuple(np.flatnonzero(T[j])), net))
    return found


def _chains(grid: Grid, nets: list[_Net], technique: str) -> Iterator[Step]:
    found = [item for net in nets for item in _found(net)]
    found.sort(key=lambda item: item[:2])
    seen: set[frozenset] = set()
    for length, _, a, b, targets, net in found:
        path = _path(net, net.off, net.on, a, b)
        chain_members = {k for i in path for k in net.members[i]}
        targets = [int(t) for t in targets if t not in chain_members]
        key = frozenset(targets) if a != b else frozenset([-1 - net.members[a][0]])
        if (a != b and not targets) or key in seen:
            continue
        seen.add(key)
        nodes = [net.nodes[i] for i in path]
        if a == b:
            yield chain_step(technique, grid, nodes, placements=net.members[a], length=length)
        else:
            yield chain_step(technique, grid, nodes, eliminations=targets, length=length)


def x_chains(grid: Grid) -> Iterator[Step]:
    """Yield X-chains: AICs on one digit, shortest first.

    Examples
    --------
    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = next(lg.techniques.aic.x_chains(grid))
    >>> step.technique, step.proof.graph["kind"]
    ('x-chain', 'chain')
    """
    nets = [_candidate_net(grid, "x", d) for d in range(grid.size)]
    return _chains(grid, nets, "x-chain")


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
        return _chains(grid, [_grouped_net(grid)], "grouped-aic")
    return _chains(grid, [_candidate_net(grid, "aic")], "aic")
