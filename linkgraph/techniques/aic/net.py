"""The nets the AIC searches run on: nodes, their strong and weak links, and what each node sees.

A node is a candidate or a group (the 2+ live places of a digit in one box-line
intersection). Node ``i`` lies inside set X ``s`` when all its members are
members of ``s``, and sees candidate ``t`` when all its members do. Two nodes
inside one set are weakly linked unless they share a member (a candidate and
its group, two groups); strongly when, moreover, their members are all of the
set's live members. The nets differ in their nodes and in the sets that link
them (`candidate_net`: X-chains, XY-chains, AICs; `grouped_net`: grouped
AICs, and the base of the ALS chains in `linkgraph.techniques.als.chains`).

`Net`, `candidate_net`, `grouped_net` and `strong_part` are shared with
`linkgraph.techniques.aic.search` and the ALS chains (public names of the
package, not of linkgraph).

Everything is computed on rows of packed bits (`linkgraph.bitops`), one bit
per node, from tables kept per geometry (`_tables`): each candidate's sets and
the candidates it sees, each intersection's places, and the sets holding each
pattern of its places.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from linkgraph.bitops import identity, nonzero2, pack, pack_pairs, unpack
from linkgraph.grid import Grid
from linkgraph.model import Group

__all__: list[str] = []


class Members:
    """The member candidates of each node, as rows of a table ``(N, width)`` of candidate indices
    (-1 pads); a node's list is made when asked for (a chain read back), not for every node of
    every net (a grouped net has some 300 nodes, a chain a handful).

    >>> m = Members(np.array([[3, -1], [4, 13]]))
    >>> len(m), m[1], list(m)
    (2, [4, 13], [[3], [4, 13]])
    """

    __slots__ = ("table",)

    def __init__(self, table: np.ndarray):
        self.table = table

    def __len__(self) -> int:
        return len(self.table)

    def __getitem__(self, i: int) -> list[int]:
        return [k for k in self.table[i].tolist() if k >= 0]

    def __iter__(self):
        return (self[i] for i in range(len(self.table)))

    def take(self, keep: np.ndarray) -> Members:
        """The members of nodes `keep`, in that order."""
        return Members(self.table.take(keep, axis=0))


@dataclass
class Net:
    """The nodes (as member candidate indices) and their link matrices."""

    geometry: object
    members: Members | list[list[int]]  # candidate indices per node
    strong: np.ndarray  # (N, N) bool
    weak: np.ndarray  # (N, N) bool, includes strong
    sees_all: np.ndarray  # (N, C) bool: candidate sees every member of the node (and is none)
    table: np.ndarray | None = None  # (N, width) member candidate indices, -1 pads (grouped net)

    @cached_property
    def preds(self) -> dict[bool, tuple[np.ndarray, np.ndarray]]:
        """Per link kind (True: strong): (targets v, sources u) of every link u -> v, by v then u."""
        return {True: nonzero2(self.strong), False: nonzero2(self.weak)}

    @cached_property
    def sees_packed(self) -> np.ndarray:
        """`sees_all` packed, one row of uint64 words per node."""
        return pack(self.sees_all)

    @cached_property
    def sight(self) -> tuple[np.ndarray, np.ndarray]:
        """(node, candidate) of every True of `sees_all`, by node then candidate."""
        return nonzero2(self.sees_all)

    @cached_property
    def hits(self) -> np.ndarray:
        """(N, words) packed, one bit per node: bit a of row b is set when a != b and some
        candidate sees both nodes (a chain a ... b eliminates it), or a == b is one candidate
        (a chain from it back to it places it)."""
        N, C = self.sees_all.shape
        words = max(1, (N + 63) // 64)
        node, cand = self.sight
        out = np.zeros((N, words), dtype=np.uint64)
        if len(node):
            # per candidate, the nodes seeing it; a node's row ORs those of its sight
            seers = pack_pairs(cand, node, (C, N), words=words)
            first = np.flatnonzero(np.concatenate(([True], node[1:] != node[:-1])))
            out[node.take(first)] = np.bitwise_or.reduceat(seers.take(cand, axis=0), first, axis=0)
        # a node and itself: a pair only when it is one candidate (the candidates come first)
        own = identity(N)
        out &= ~own
        single = N if self.table is None or self.table.shape[1] < 2 else int(np.count_nonzero(self.table[:, 1] < 0))
        out[:single] |= own[:single]
        return out

    def node(self, i: int):
        """The Candidate or Group of node `i` (built when a chain is read back)."""
        g = self.geometry
        mem = self.members[i]
        if len(mem) == 1:
            return g.candidate(mem[0])
        n = g.size
        return Group(tuple(g.cell(k // n) for k in mem), mem[0] % n + 1)


@lru_cache(maxsize=8)
def _intersections(g) -> np.ndarray:
    """(intersections, width) cells of each box-line intersection (`Geometry.box_lines` of a box
    with a row or a column), by box then line; -1 pads the narrower ones.

    Only boxes and rows or columns, as grouped AICs are defined (HoDoKu, SudokuWiki): the
    intersections of a diagonal, a window or a jigsaw region give no group node here. Such a
    node would be sound (its links come from every set X holding its places, diagonals and
    windows included, see `_tables`) but it is left out: in Windoku a row-box and a row-window
    intersection can hold the same places (one node twice), and the variant rungs' results
    would change. The forcing chains' compiled graph (`linkgraph.graph.compiler`) does use them.
    """
    found = g.box_lines(boxes=("box",), lines=("row", "col"))
    width = max((len(c) for _, _, c in found), default=2)
    table = np.full((len(found), width), -1, dtype=np.intp)
    for i, (_, _, cells) in enumerate(found):
        table[i, : len(cells)] = cells
    return table


@dataclass(frozen=True)
class _Tables:
    """Per geometry (C candidates, S sets X; pads are C and S)."""

    sets: np.ndarray  # (C, k): the sets holding each candidate, ascending (its cell's set first)
    seen: np.ndarray  # (C, D): the candidates each candidate sees, ascending
    seen_digit: np.ndarray  # (C, D'): the candidates of its digit each candidate sees, ascending
    peers: np.ndarray  # (cells, cells + 1) bool: the geometry's `peers`, and a False padding column
    places: np.ndarray  # (w, I * n): per intersection, then digit, the digit's candidates in cell order
    group_sets: np.ndarray  # (I * n * 2**w, kg): the sets holding the places of each pattern (bit j: place j)


@lru_cache(maxsize=8)
def _tables(g) -> _Tables:
    n, C, S = g.size, g.number_of_candidates, g.number_of_sets
    inter = _intersections(g)
    I, w = inter.shape
    places = np.where(inter[:, None, :] >= 0, inter[:, None, :] * n + np.arange(n)[None, :, None], C)
    places = np.ascontiguousarray(places.reshape(-1, w).T)
    group_sets = []
    for i in range(I):
        for d in range(n):
            for p in range(2**w):
                cells = [int(inter[i, j]) for j in range(w) if p >> j & 1 and inter[i, j] >= 0]
                houses = set(g.cell_houses[cells[0]]).intersection(*(g.cell_houses[c] for c in cells[1:])) if cells else ()
                group_sets.append(sorted(g.number_of_cells + h * n + d for h in houses))
    same = np.arange(C)[:, None] % n == np.arange(C)[None, :] % n
    peers = np.zeros((g.number_of_cells, g.number_of_cells + 1), dtype=bool)
    peers[:, :-1] = g.peers
    out = _Tables(_padded([np.flatnonzero(r) for r in g.incidence], S), _padded([np.flatnonzero(r) for r in g.sees], C),
                  _padded([np.flatnonzero(r) for r in g.sees & same], C), peers, places, _padded(group_sets, S))
    for a in (out.sets, out.seen, out.seen_digit, out.peers, out.places, out.group_sets):
        a.setflags(write=False)
    return out


def _padded(rows: list, pad: int) -> np.ndarray:
    width = max(1, max((len(r) for r in rows), default=1))
    out = np.full((len(rows), width), pad, dtype=np.intp)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def _node_links(g, sets: np.ndarray, size: np.ndarray, live_per_set: np.ndarray, w: int) -> tuple:
    """(weak, strong) packed rows: per node, the nodes inside one of its `sets` ((N, k), S pads),
    and those whose size is the set's live count (at most n) less the node's own `size` (at
    most w). Nodes are not told apart from themselves or from nodes sharing members."""
    n, S = g.size, g.number_of_sets
    N, k = sets.shape
    words = max(1, (N + 63) // 64)
    ns = sets.ravel()
    na = np.arange(N * k) // k
    held = pack_pairs(ns, na, (S + 1, N), words=words)
    held[S] = 0
    held = held.take(ns, axis=0)
    first = np.arange(0, N * k, k)
    weak = np.bitwise_or.reduceat(held, first, axis=0)
    # the set's live count less this node's size, offset by w (from -w up)
    by_size = pack_pairs(size + w, np.arange(N), (n + w + 1, N), words=words)
    held &= by_size.take(live_per_set.take(ns) - size.take(na) + w, axis=0)
    return weak, np.bitwise_or.reduceat(held, first, axis=0)


def _sight(tb: _Tables, live: np.ndarray, idx: np.ndarray) -> tuple:
    """(node, candidate) pairs, by node then candidate: the live candidates each of the
    candidates `idx` sees."""
    base = tb.seen.take(idx, axis=0)  # (nc, D), C pads
    flat = np.flatnonzero(np.append(live, False).take(base))
    return flat // base.shape[1], base.ravel().take(flat)


def candidate_net(grid: Grid, mode: str, digit: int | None = None, *, digit_major: bool = False,
                  strong_only: bool = False) -> Net:
    """The candidate net of `mode` ("x", "xy" or "aic"); for "x" without `digit`, every digit's
    net side by side (no link joins two digits), ordered digit by digit when `digit_major`.

    X-chains link through houses only; XY-chains strongly through cells (their nodes are the
    candidates of bivalue cells) and weakly through houses; AICs through every set X. With
    `strong_only`, only the candidates with a strong link are nodes: the others are on no chain
    (a chain leaves its start, and every node it reaches OFF, by a strong link, and reaches every
    other node by one), and the nodes kept keep their order."""
    g = grid.geometry
    n, C, S = g.size, g.number_of_candidates, g.number_of_sets
    tb = _tables(g)
    live = grid.live
    idx = every = np.flatnonzero(live)
    live_per_set = np.bincount(tb.sets.take(every, axis=0).ravel(), minlength=S + 1)
    live_per_set[S] = 0
    if digit is not None:
        idx = idx[idx % n == digit]
    if mode == "xy":
        idx = idx[grid.counts[idx // n] == 2]  # (each has its strong link)
    elif strong_only:
        sets = tb.sets.take(idx, axis=0)
        idx = idx[(live_per_set.take(sets[:, 1:] if mode == "x" else sets) == 2).any(axis=1)]
    if digit_major:
        idx = idx[np.argsort(idx % n, kind="stable")]
    N = len(idx)
    members = Members(idx[:, None])
    sets = tb.sets.take(idx, axis=0)
    size = np.ones(N, dtype=np.intp)
    house = np.ascontiguousarray(sets[:, 1:])  # the cell's set comes first
    if mode == "x":
        weak, strong = _node_links(g, house, size, live_per_set, 1)
    elif mode == "xy":
        weak, _ = _node_links(g, house, size, live_per_set, 1)
        if digit is not None:
            _, strong = _node_links(g, np.ascontiguousarray(sets[:, :1]), size, live_per_set, 1)
            weak |= strong
    else:
        weak, strong = _node_links(g, sets, size, live_per_set, 1)
    if mode == "xy" and digit is None:
        # the two candidates of each bivalue cell, one after the other: the strong links
        weak = unpack(weak, N)
        strong = np.zeros((N, N), dtype=bool)
        pair = np.arange(0, N - 1, 2)
        strong[pair, pair + 1] = strong[pair + 1, pair] = True
        weak |= strong
    else:
        strong, weak = unpack(strong, N), unpack(weak, N)
        np.fill_diagonal(strong, False)
    np.fill_diagonal(weak, False)
    node, cand = _sight(tb, live, idx)
    sees_all = np.zeros((N, C), dtype=bool)
    sees_all[node, cand] = True
    net = Net(g, members, strong, weak, sees_all)
    net.sight = node, cand  # the cached property, filled in
    return net


def grouped_net(grid: Grid) -> Net:
    """Candidates, then group nodes (2+ places of a digit in one box-line intersection) by
    intersection and digit, each group's members in cell order.

    Built in one compiled call (`linkgraph.techniques.aic.kernel.grouped_parts`), which also
    gives the links' pairs (`Net.preds`), the sight's pairs (`Net.sight`) and `sees_all`
    packed (`Net.sees_packed`); the numpy build it replaced is kept in the tests as its
    oracle."""
    from linkgraph.techniques.aic.kernel import grouped_parts  # noqa: PLC0415 (numba: loaded on first use)

    g = grid.geometry
    tb = _tables(g)
    table, strong, weak, sv, su, wv, wu, node, cand, sees_all, packed = grouped_parts(
        grid.live, tb.sets, tb.seen, tb.seen_digit, tb.peers, tb.places, tb.group_sets, g.size, g.number_of_sets)
    net = Net(g, Members(table), strong, weak, sees_all, table)
    # the cached properties, filled in
    net.sight = node, cand
    net.preds = {True: (sv, su), False: (wv, wu)}
    net.sees_packed = packed
    return net


def strong_part(net: Net) -> Net:
    """The net of the nodes of `net` with a strong link, in their order (the other nodes are on
    no chain: see `candidate_net`).

    Built from the links' pairs (`Net.preds`, which `grouped_net` fills in off its packed
    rows) renumbered, rather than by cutting the (nodes, nodes) matrices down: the part's
    pairs come out by target, then source, as they go in, and are its `preds`."""
    N = len(net.members)
    links = net.preds
    has = np.zeros(N, dtype=bool)
    has[links[True][0]] = True
    keep = np.flatnonzero(has)
    K = len(keep)
    number = np.full(N, -1, dtype=np.intp)
    number[keep] = np.arange(K)
    preds, dense = {}, {}
    for kind, (v, u) in links.items():
        v, u = number.take(v), number.take(u)
        kept = (v >= 0) & (u >= 0)
        preds[kind] = v[kept], u[kept]
        dense[kind] = np.zeros((K, K), dtype=bool)
        dense[kind][preds[kind]] = True
    members = net.members
    sub = Net(net.geometry, members.take(keep) if isinstance(members, Members) else [members[i] for i in keep.tolist()],
              dense[True], dense[False], net.sees_all.take(keep, axis=0), None if net.table is None else net.table.take(keep, axis=0))
    sub.preds = preds  # the cached property, filled in
    node, cand = net.sight
    node = number.take(node)
    kept = node >= 0
    sub.sight = node[kept], cand[kept]  # the cached property, filled in
    return sub
