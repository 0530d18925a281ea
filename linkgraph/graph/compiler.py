"""Compile the implication digraph of a grid straight from its candidates, for batched search.

The forcing-chain search (`linkgraph.chains.search`) runs over a `LiteralGraph`
(`linkgraph.graph.compiled`): nodes (candidates, then group nodes) numbered in
`linkgraph.model.sort_key` order, node ``i`` with literals ``2*i`` (ON) and
``2*i + 1`` (OFF), and the edges as flat int arrays with codes for their
``kind``, ``family`` and ``via``. Two builders give the same structure:

- `compile_grid` builds it straight from the candidate state with numpy (the
  fast path: the links of DESIGN.md §1 for set X, group and ALS nodes, from
  per-geometry tables cached here);
- `compile_digraph` (in `linkgraph.graph.compiled`, re-exported here) compiles
  any implication `networkx.DiGraph` over `Literal` values (for example
  ``implication_graph(link_graph(grid))``).

Edges follow the proof-graph conventions of `linkgraph.steps` and the rules
of `linkgraph.graph.implication` (kind follows the source literal): weak ``+a -> -b``
(a and b share set ``via``), strong ``-a -> +b`` (a and b are the only live
members of ``via``), ALS ``-a -> +b`` / ``-a -> -c`` (strong) with ``via`` the
ALS (``a`` its only cell holding a's digit; ``b``, in another cell, the only
one holding b's digit; ``c`` sees every ALS cell holding c's digit). When several links join
the same two literals the first of family cell, house, group, als is kept
(then the lowest set or smallest ALS), so the structure never depends on set
order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from linkgraph.bitops import pack, popcount_table, unpack
from linkgraph.errors import check_choice
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.graph.als import als_cells
from linkgraph.graph.compiled import (  # the structure, re-exported: FAMILIES, LiteralGraph, compile_digraph
    F_ALS, F_CELL, F_GROUP, F_HOUSE, FAMILIES, KINDS, STRONG, WEAK, LiteralGraph, compile_digraph,
)
from linkgraph.model import Group

__all__ = ["FAMILIES", "LiteralGraph", "compile_digraph", "compile_grid"]


# ---- geometry tables (cached per geometry) ----------------------------------
@lru_cache(maxsize=16)
def _intersections(g: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`Geometry.box_lines` (boxes, regions, windows with rows, columns, diagonals) as arrays:
    (cells (I, w) padded -1, line house, box house)."""
    found = g.box_lines()
    w = max((len(c) for _, _, c in found), default=1)
    cells = np.full((len(found), w), -1, dtype=np.int64)
    for i, (_, _, c) in enumerate(found):
        cells[i, : len(c)] = c
    return cells, np.array([h for _, h, _ in found], dtype=np.int64), np.array([b for b, _, _ in found], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class _GroupTables:
    """Per-geometry tables for group nodes (see `_group_tables`)."""

    icand0: np.ndarray  # (I, w) candidate index of digit 1 in each intersection cell; padding: a dead slot
    bit: np.ndarray  # (w,) 1 << j
    sub_cells: np.ndarray  # (I, 2**w, w) cells of each subset of an intersection, ascending, -1 after
    rank: np.ndarray  # (I, 2**w) place of each subset in (cells, intersection) order
    house: np.ndarray  # (I, 2) line and box house of each intersection
    out0: np.ndarray  # (I, 2, m) candidate of digit 1 in each cell of the line / box outside the intersection
    pairs: np.ndarray  # (Q, 3) ordered pairs of intersections in one house: i1, i2, which house of i1
    shared0: np.ndarray  # (Q, s) digit-1 candidates of the cells two paired intersections share


@lru_cache(maxsize=16)
def _group_tables(g: Geometry) -> _GroupTables:
    n = g.size
    dead = g.number_of_candidates  # digit-1 slot of a dead padding cell (n slots past the candidates)
    icells, lh, bh = _intersections(g)
    I, w = icells.shape
    icand0 = np.where(icells >= 0, icells * n, dead)
    subsets = []
    for i in range(I):
        for m in range(1 << w):
            subsets.append((tuple(int(icells[i, j]) for j in range(w) if m >> j & 1 and icells[i, j] >= 0), i, m))
    sub_cells = np.full((I, 1 << w, w), -1, dtype=np.int64)
    rank = np.zeros((I, 1 << w), dtype=np.int64)
    for r, (cells, i, m) in enumerate(sorted(subsets)):
        sub_cells[i, m, : len(cells)] = cells
        rank[i, m] = r
    house = np.stack([lh, bh], axis=1) if I else np.zeros((0, 2), dtype=np.int64)
    outs = [[sorted(set(g.house_cells[h].tolist()) - set(icells[i].tolist())) for h in house[i]] for i in range(I)]
    m = max((len(o) for row in outs for o in row), default=1)
    out0 = np.full((I, 2, m), dead, dtype=np.int64)
    for i, row in enumerate(outs):
        for k, o in enumerate(row):
            out0[i, k, : len(o)] = np.array(o, dtype=np.int64) * n
    pairs, shared = [], []
    for i1 in range(I):
        for i2 in range(I):
            if i1 == i2:
                continue
            for k in range(2):
                if house[i1, k] == house[i2, 0] or house[i1, k] == house[i2, 1]:
                    pairs.append((i1, i2, k))
                    shared.append(sorted(set(icells[i1].tolist()) & set(icells[i2].tolist()) - {-1}))
    s = max((len(x) for x in shared), default=0) or 1
    shared0 = np.full((len(pairs), s), dead, dtype=np.int64)
    for q, x in enumerate(shared):
        shared0[q, : len(x)] = np.array(x, dtype=np.int64) * n
    tabs = _GroupTables(icand0, 1 << np.arange(w, dtype=np.int64), sub_cells, rank, house, out0,
                        np.array(pairs, dtype=np.int64).reshape(-1, 3), shared0)
    for x in vars(tabs).values():
        x.setflags(write=False)
    return tabs


@lru_cache(maxsize=16)
def _set_texts(g: Geometry) -> tuple[str, ...]:
    return tuple(str(g.setx(s)) for s in range(g.number_of_sets))


class _Groups(Sequence):
    """The group nodes of a compiled graph, made into `Group` values on first access."""

    def __init__(self, g: Geometry, cells: np.ndarray, digits: np.ndarray):
        self._g, self._cells, self._digits = g, cells, digits
        self._made: dict[int, Group] = {}
        self._where: dict[Group, int] | None = None

    def __len__(self) -> int:
        return len(self._digits)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = range(len(self))[i]
        grp = self._made.get(i)
        if grp is None:
            g = self._g
            grp = self._made[i] = Group(tuple(g.cell(c) for c in self._cells[i].tolist() if c >= 0), int(self._digits[i]) + 1)
        return grp

    def index(self, value, *args) -> int:
        if self._where is None:
            self._where = {grp: i for i, grp in enumerate(self)}
        if value not in self._where:
            raise ValueError(f"{value!r} is not a group node")
        return self._where[value]


_FAMW = 1_000_000  # priority of an edge: family * _FAMW + via (lower wins a tie between links)


# ---- building from a grid -----------------------------------------------------
def compile_grid(
    grid: Grid,
    *,
    families=FAMILIES,
    als_max_size: int = 4,
) -> LiteralGraph:
    """Compile the implication digraph of `grid` straight from its candidates.

    Parameters
    ----------
    grid : Grid
        The candidate state.
    families : collection of str, optional
        Link families to include: ``"cell"``, ``"house"``, ``"group"``, ``"als"``.
    als_max_size : int, optional
        Largest ALS (in cells) used for ALS links; ALS of 2 cells and up are used.

    Returns
    -------
    LiteralGraph

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> LG = lg.graph.compiler.compile_grid(grid, families=["cell", "house"])
    >>> D = LG.to_networkx()
    >>> D.edges[lg.Literal.parse("+r2c8#1"), lg.Literal.parse("-r2c4#1")]["via"]
    'r2#1'
    """
    from linkgraph.errors import check_search_size

    check_search_size("forcing-chain search", int(grid.live.sum()))
    check_choice("families", families, FAMILIES)
    fams = set(families)
    g = grid.geometry
    ncells = g.number_of_cells
    live = grid.live
    sm = g.set_members  # (S, n)
    lsm = live[sm]
    cnt = lsm.sum(axis=1)
    keep_set = cnt >= 2
    is_cell = np.arange(len(sm)) < ncells
    if "cell" not in fams:
        keep_set &= ~is_cell
    if "house" not in fams:
        keep_set &= is_cell
    # candidate nodes: live candidates in a set with another live member
    K = g.number_of_candidates
    flag = np.zeros(K + g.size, dtype=bool)  # a dead cell's slots at the end (table padding)
    flag[sm[cnt >= 2].ravel()] = True
    flag[:K] &= live
    cands = np.flatnonzero(flag)
    nc = len(cands)
    cand_node = np.full(K + g.size, -1, dtype=np.int64)
    cand_node[cands] = np.arange(nc)
    groups: list = []
    blocks: list[tuple] = []  # (src, dst, prio) literal arrays, in any order
    if "group" in fams:
        groups, gblocks = _group_links(grid, flag, cand_node, nc)
        blocks += gblocks
    # set X links: every ordered pair of live members of a kept set (weak), strong when the set has two;
    # the live members set by set, each paired with every member of its set but itself
    ent = np.flatnonzero(lsm)
    es = ent // g.size
    ok = keep_set.take(es)
    ent, es = ent[ok], es[ok]
    size = cnt.take(es)
    mine = np.repeat(np.arange(len(ent)), size)
    other = np.searchsorted(es, es).take(mine) + (np.arange(len(mine)) - np.repeat(np.cumsum(size) - size, size))
    ok = other != mine
    mine, other = mine[ok], other[ok]
    member = cand_node.take(sm.ravel().take(ent))
    a, b, via = member.take(mine), member.take(other), es.take(mine)
    prio = np.where(via < ncells, F_CELL * _FAMW, F_HOUSE * _FAMW) + via
    blocks.append((2 * a, 2 * b + 1, prio))
    two = cnt[via] == 2
    blocks.append((2 * a[two] + 1, 2 * b[two], prio[two]))
    als_cells = np.zeros((0, 1), dtype=np.int64)
    if "als" in fams and als_max_size >= 2:
        als_cells, ablocks = _als_links(grid, cand_node, als_max_size, g.number_of_sets)
        blocks += ablocks
    L = 2 * (nc + len(groups))
    src, dst, prio = (np.concatenate(x) for x in zip(*blocks))
    ok = src != dst
    src, dst, prio = src[ok], dst[ok], prio[ok]
    # order by (src, dst), keeping the lowest priority of each pair: one int64 key, sorted
    lb, pb_ = max(L - 1, 1).bit_length(), int(prio.max(initial=0)).bit_length()
    if 2 * lb + pb_ < 63:
        key = (((src << lb) | dst) << pb_) | prio
        key.sort()
        sd = key >> pb_
        first = np.ones(len(key), dtype=bool)
        np.not_equal(sd[1:], sd[:-1], out=first[1:])
        key = key[first]
        sd = sd[first]
        src, dst, prio = sd >> lb, sd & ((1 << lb) - 1), key & ((1 << pb_) - 1)
    else:
        idx = np.lexsort((prio, dst, src))
        src, dst, prio = src[idx], dst[idx], prio[idx]
        first = np.r_[True, (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])] if len(src) else np.zeros(0, dtype=bool)
        src, dst, prio = src[first], dst[first], prio[first]
    fam = prio // _FAMW
    vias: list = list(_set_texts(g))
    vias += [None] * len(als_cells)
    return LiteralGraph(
        grid=grid,
        node_cands=cands,
        groups=groups,
        src=src.astype(np.int32),
        dst=dst.astype(np.int32),
        kind=(src & 1).astype(np.uint8),  # weak links leave an ON literal, strong ones an OFF literal
        family=fam.astype(np.uint8),
        via=(prio - fam * _FAMW).astype(np.int32),
        vias=vias,
        cand_node=cand_node[:K],
        als_cells=als_cells,
    )


def _group_links(grid: Grid, flag: np.ndarray, cand_node: np.ndarray, nc: int) -> tuple[list[Group], list[tuple]]:
    """Group nodes (digit d in 2+ cells of a box-line intersection) and their link blocks.

    For each group and each of its two sets (line and box, digit d), the set's
    live members outside the intersection are its weak partners (strong when
    there is one); two groups of one set are linked when they share no
    candidate (strong when the other is all that is left).
    """
    g = grid.geometry
    n = g.size
    ncells = g.number_of_cells
    T = _group_tables(g)
    I = len(T.icand0)
    if not I:
        return [], []
    live = flag  # live candidates with a node, plus a dead slot (a group's members always have nodes)
    dig = np.arange(n)
    has = live[T.icand0[:, :, None] + dig]  # (I, w, n)
    mask = (has * T.bit[None, :, None]).sum(axis=1)  # (I, n): the cells of the intersection holding the digit, as bits
    size = popcount_table(T.bit.size)[mask]
    gi, gd = np.nonzero(size >= 2)
    if not len(gi):
        return [], []
    gm = mask[gi, gd]
    order = np.argsort(gd * T.rank.size + T.rank[gi, gm], kind="stable")  # sort_key order: digit, then cells
    gi, gd, gm = gi[order], gd[order], gm[order]
    G = len(gi)
    gsize = size[gi, gd]
    groups = _Groups(g, T.sub_cells[gi, gm], gd)
    node = nc + np.arange(G)
    gid = np.full((I, n), -1, dtype=np.int64)
    gid[gi, gd] = np.arange(G)
    blocks = []
    # group and candidate: the set's live members outside the intersection
    oc = T.out0[gi] + gd[:, None, None]  # (G, 2, m)
    others = live[oc]
    ocnt = others.sum(axis=2)  # (G, 2)
    r, k, j = np.nonzero(others)
    o = cand_node[oc[r, k, j]]
    a = node[r]
    via = ncells + T.house[gi[r], k] * n + gd[r]
    prio = F_GROUP * _FAMW + via
    cat = np.concatenate
    blocks.append((cat((2 * a, 2 * o)), cat((2 * o + 1, 2 * a + 1)), cat((prio, prio))))
    one = ocnt[r, k] == 1
    a1, o1, p1 = a[one], o[one], prio[one]
    blocks.append((cat((2 * a1 + 1, 2 * o1 + 1)), cat((2 * o1, 2 * a1)), cat((p1, p1))))
    # two groups of one set, sharing no candidate
    pi1, pi2, pk = T.pairs.T
    isg = gid >= 0
    q, d = np.nonzero(isg[pi1] & isg[pi2])
    if len(q):
        keep = ~live[T.shared0[q] + d[:, None]].any(axis=1)
        q, d = q[keep], d[keep]
        ga, gb = gid[pi1[q], d], gid[pi2[q], d]
        k1 = pk[q]
        vs = ncells + T.house[pi1[q], k1] * n + d
        ps = F_GROUP * _FAMW + vs
        na, nb = node[ga], node[gb]
        blocks.append((2 * na, 2 * nb + 1, ps))
        eq = ocnt[ga, k1] == gsize[gb]
        blocks.append((2 * na[eq] + 1, 2 * nb[eq], ps[eq]))
    return groups, blocks


def _als_links(grid: Grid, cand_node: np.ndarray, max_size: int, base: int) -> tuple[np.ndarray, list[tuple]]:
    """ALS links: -a -> +b (b's digit has one place left) and -a -> -c (c sees all of its digit).

    Returns the ALS cells ``(A, w)`` padded with -1 (ALS ``a`` has via code
    ``base + a``) and the link blocks.
    """
    g = grid.geometry
    n = g.size
    ncells = g.number_of_cells
    k = g.house_cells.shape[1]
    w = min(max_size, k - 1)
    if w < 2:
        return np.zeros((0, 1), dtype=np.int64), []
    cands = grid.cands
    found = als_cells(grid, max_size=w, min_size=2)  # by size, then cells: the order of ALS via codes
    if not len(found):
        return np.zeros((0, 1), dtype=np.int64), []
    cells = np.ascontiguousarray(found.T)  # (w, A), padded with ncells
    A = len(found)
    P = np.concatenate((cands, np.zeros((1, n), dtype=bool))).take(cells, axis=0)  # (w, A, n)
    cnt = P.sum(axis=0)  # (A, n)
    pos = (P * cells[:, :, None]).sum(axis=0)  # (A, n): the cell of a single digit (used only there)
    single = cnt == 1
    prio = F_ALS * _FAMW + base + np.arange(A)
    blocks = []
    # -a -> +b: x and y single in different cells
    sa, sx = np.nonzero(single)
    place = pos[sa, sx]
    r, y = np.nonzero(single.take(sa, axis=0) & (pos.take(sa, axis=0) != place[:, None]))
    blocks.append((2 * cand_node[place.take(r) * n + sx.take(r)] + 1, 2 * cand_node[pos[sa.take(r), y] * n + y],
                   prio.take(sa.take(r))))
    # -a -> -c: c holds digit y outside the ALS and sees every ALS cell holding y
    ay = np.flatnonzero(cnt)  # a * n + y
    if len(ay):
        ea, ey = ay // n, ay % n
        peers = g.peer_words  # (cells + 1, words); the padding row: all ones
        holder = np.where(P.reshape(w, -1).take(ay, axis=1), cells.take(ea, axis=1), ncells)  # (w, rows)
        seen = peers.take(holder[0], axis=0)
        for j in range(1, w):
            seen &= peers.take(holder[j], axis=0)
        seen &= pack(grid.cands.T).take(ey, axis=0)
        flat = np.flatnonzero(unpack(seen, ncells))
        r = flat // ncells
        ec = flat - r * ncells
        ea, ey = ea.take(r), ey.take(r)
        # every other single digit x of the ALS: -x -> -c
        other = single.take(ea, axis=0)
        other.ravel()[np.arange(0, len(ea) * n, n) + ey] = False
        flat = np.flatnonzero(other)
        r = flat // n
        ax = ea.take(r) * n + (flat - r * n)  # a * n + x
        blocks.append((2 * cand_node[pos.ravel().take(ax) * n + ax % n] + 1,
                       2 * cand_node[ec.take(r) * n + ey.take(r)] + 1, prio.take(ax // n)))
    return np.where(cells < ncells, cells, -1).T, blocks

