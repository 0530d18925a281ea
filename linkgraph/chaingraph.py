"""LiteralGraph: the implication digraph compiled to integer arrays for batched search.

The forcing-chain search (`linkgraph.chains`) runs over this form, not over
networkx objects: nodes (candidates, then group nodes) are numbered in
`linkgraph.model.sort_key` order, node ``i`` has literals ``2*i`` (ON) and
``2*i + 1`` (OFF), and the edges are flat int arrays with codes for their
``kind``, ``family`` and ``via``. Two builders give the same structure:

- `compile_grid` builds it straight from the candidate state with numpy (the
  fast path: the links of DESIGN.md §1 for set X, group and ALS nodes);
- `compile_digraph` compiles any implication `networkx.DiGraph` over
  `Literal` values (for example ``implication_graph(link_graph(grid))``).

Edges follow the proof-graph conventions of `linkgraph.steps` and the rules
of `linkgraph.implication` (kind follows the source literal): weak ``+a -> -b``
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
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, permutations

import networkx as nx
import numpy as np

from linkgraph.errors import check_choice
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Family, Group, LinkKind, Literal, sort_key

__all__ = ["FAMILIES", "LiteralGraph", "compile_digraph", "compile_grid"]

FAMILIES = ("cell", "house", "group", "als")
KINDS = (LinkKind.WEAK, LinkKind.STRONG)
_FAMILY = tuple(Family(f) for f in FAMILIES)
WEAK, STRONG = 0, 1
F_CELL, F_HOUSE, F_GROUP, F_ALS = 0, 1, 2, 3


@dataclass(eq=False)
class LiteralGraph:
    """An implication digraph over literals as integer arrays (see the module docstring).

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> LG = lg.chaingraph.compile_grid(grid)
    >>> str(LG.literal(LG.literal_index(lg.Literal.parse("-r2c4#1"))))
    '-r2c4#1'
    """

    grid: Grid
    node_cands: np.ndarray  # (candidate nodes,) candidate index of each candidate node
    groups: list  # the group nodes, after the candidate nodes
    src: np.ndarray  # (E,) int32, edges sorted by (src, dst)
    dst: np.ndarray
    kind: np.ndarray  # (E,) uint8: 0 weak, 1 strong
    family: np.ndarray  # (E,) uint8: index into FAMILIES
    via: np.ndarray  # (E,) int32: index into vias
    vias: list  # str or a callable giving the str
    cand_node: np.ndarray  # (candidates,) node index of each candidate, -1 if none
    als_cells: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), dtype=np.int64))
    _lits: list = field(default_factory=list, repr=False)

    @property
    def number_of_nodes(self) -> int:
        return len(self.node_cands) + len(self.groups)

    @property
    def number_of_literals(self) -> int:
        return 2 * self.number_of_nodes

    @property
    def nodes(self) -> list:
        """Every node (Candidate, then Group), in sort_key order."""
        return [self.node(i) for i in range(self.number_of_nodes)]

    def node(self, i: int):
        """The node with index `i`."""
        nc = len(self.node_cands)
        return self.grid.geometry.candidate(self.node_cands[i]) if i < nc else self.groups[i - nc]

    def literal(self, i: int) -> Literal:
        """The `Literal` with index `i`."""
        if not self._lits:
            self._lits = [None] * self.number_of_literals
        lit = self._lits[i]
        if lit is None:
            lit = self._lits[i] = Literal(self.node(i >> 1), on=not i & 1)
        return lit

    def literal_index(self, lit: Literal) -> int:
        """Index of `lit` (KeyError if its node is not in the graph)."""
        if isinstance(lit.cand, Candidate):
            k = self.cand_node[self.grid.geometry.index(lit.cand)]
            if k < 0:
                raise KeyError(str(lit))
            return 2 * int(k) + (not lit.on)
        return 2 * (len(self.node_cands) + self.groups.index(lit.cand)) + (not lit.on)

    def via_text(self, v: int) -> str:
        """Text of the set X or ALS behind via code `v`."""
        text = self.vias[v]
        if text is None:
            g = self.grid.geometry
            base = len(self.vias) - len(self.als_cells)
            cells = [g.cell(c) for c in self.als_cells[v - base].tolist() if c >= 0]
            digits = sorted({d for c in cells for d in self.grid.digits(c)})
            text = self.vias[v] = str(Als(tuple(cells), tuple(digits)))
        return text

    def edge_attrs(self, e: int) -> dict:
        """The networkx edge attributes of edge `e`."""
        return {
            "kind": KINDS[self.kind[e]],
            "family": _FAMILY[self.family[e]],
            "via": self.via_text(int(self.via[e])),
        }

    def to_networkx(self) -> nx.DiGraph:
        """The same graph as a `networkx.DiGraph` over `Literal` values."""
        D = nx.DiGraph()
        D.add_nodes_from(self.literal(i) for i in range(self.number_of_literals))
        for e in range(len(self.src)):
            D.add_edge(self.literal(int(self.src[e])), self.literal(int(self.dst[e])), **self.edge_attrs(e))
        return D


# ---- geometry tables (cached per geometry) ----------------------------------
@lru_cache(maxsize=16)
def _intersections(g: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Box-line intersections of >= 2 cells: (cells (I, w) padded -1, line house, box house)."""
    lines = [h for h, house in enumerate(g.houses) if house.kind in ("row", "col", "diag")]
    boxes = [h for h, house in enumerate(g.houses) if house.kind in ("box", "region", "window")]
    rows, lh, bh = [], [], []
    for b in boxes:
        bcells = set(g.house_cells[b].tolist())
        for h in lines:
            common = sorted(bcells.intersection(g.house_cells[h].tolist()))
            if 2 <= len(common) < g.size:
                rows.append(common)
                lh.append(h)
                bh.append(b)
    w = max((len(r) for r in rows), default=1)
    cells = np.full((len(rows), w), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        cells[i, : len(r)] = r
    return cells, np.array(lh, dtype=np.int64), np.array(bh, dtype=np.int64)


@lru_cache(maxsize=16)
def _set_pairs(g: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every ordered pair of distinct members of every set X: (first, second, set), flat."""
    sm = g.set_members.astype(np.int64)
    I, J = _perms(sm.shape[1])
    S = len(sm)
    out = (sm[:, I].ravel(), sm[:, J].ravel(), np.repeat(np.arange(S, dtype=np.int64), len(I)))
    for x in out:
        x.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def _set_texts(g: Geometry) -> tuple[str, ...]:
    return tuple(str(g.setx(s)) for s in range(g.number_of_sets))


@lru_cache(maxsize=64)
def _combos(k: int, m: int) -> np.ndarray:
    return np.array(list(combinations(range(k), m)), dtype=np.int64).reshape(-1, m)


@lru_cache(maxsize=16)
def _perms(m: int) -> tuple[np.ndarray, np.ndarray]:
    p = np.array(list(permutations(range(m), 2)), dtype=np.int64)
    return p[:, 0], p[:, 1]


@lru_cache(maxsize=8)
def _popcounts(bits: int) -> np.ndarray:
    x = np.arange(1 << bits)
    c = np.zeros_like(x)
    for b in range(bits):
        c += (x >> b) & 1
    return c


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


class _Edges:
    """Accumulates edge blocks: (src, dst, kind, family, via, priority)."""

    def __init__(self) -> None:
        self.blocks: list[tuple] = []

    def add(self, src, dst, kind: int, fam, via, prio) -> None:
        src = np.asarray(src, dtype=np.int64).ravel()
        m = src.size
        if not m:
            return
        dst = np.asarray(dst, dtype=np.int64).ravel()

        def full(x):
            x = np.asarray(x, dtype=np.int64)
            return np.full(m, x) if x.ndim == 0 else np.broadcast_to(x, (x.size * m // x.size,)).ravel() if x.size == m else np.resize(x, m)

        self.blocks.append((src, dst, np.full(m, kind, np.int64), full(fam), full(via), full(prio)))

    def arrays(self) -> list[np.ndarray]:
        if not self.blocks:
            return [np.zeros(0, np.int64) for _ in range(6)]
        return [np.concatenate(col) for col in zip(*self.blocks)]


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
    >>> LG = lg.chaingraph.compile_grid(grid, families=["cell", "house"])
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
    flag = np.zeros(g.number_of_candidates, dtype=bool)
    flag[sm[cnt >= 2].ravel()] = True
    flag &= live
    cands = np.flatnonzero(flag)
    cand_node = np.full(g.number_of_candidates, -1, dtype=np.int64)
    cand_node[cands] = np.arange(len(cands))
    E = _Edges()
    groups: list = []
    # set X links: every ordered pair of live members of a kept set (weak), strong when the set has two
    pa, pb, ps = _set_pairs(g)
    sel = np.flatnonzero(keep_set[ps] & live[pa] & live[pb])
    a, b, via = cand_node[pa[sel]], cand_node[pb[sel]], ps[sel]
    fam = np.where(via < ncells, F_CELL, F_HOUSE)
    prio = fam * 1_000_000 + via
    E.add(2 * a, 2 * b + 1, WEAK, fam, via, prio)
    two = cnt[via] == 2
    E.add(2 * a[two] + 1, 2 * b[two], STRONG, fam[two], via[two], prio[two])
    if "group" in fams:
        groups = _group_links(grid, cand_node, len(cands), E)
    als_cells = np.zeros((0, 1), dtype=np.int64)
    if "als" in fams and als_max_size >= 2:
        als_cells = _als_links(grid, cand_node, als_max_size, E, g.number_of_sets)
    src, dst, kind, fam, via, prio = E.arrays()
    ok = src != dst
    src, dst, kind, fam, via, prio = src[ok], dst[ok], kind[ok], fam[ok], via[ok], prio[ok]
    # order by (src, dst, prio), stable; one int64 key when it fits (lexsort is slower)
    span_d, span_p = int(dst.max(initial=0)) + 1, int(prio.max(initial=0)) + 1
    if int(src.max(initial=0)) * span_d * span_p + span_d * span_p < 1 << 62:
        idx = np.argsort((src * span_d + dst) * span_p + prio, kind="stable")
    else:
        idx = np.lexsort((prio, dst, src))
    src, dst = src[idx], dst[idx]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    idx = idx[first]
    vias: list = list(_set_texts(g))
    vias += [None] * len(als_cells)
    return LiteralGraph(
        grid=grid,
        node_cands=cands,
        groups=groups,
        src=src[first].astype(np.int32),
        dst=dst[first].astype(np.int32),
        kind=kind[idx].astype(np.uint8),
        family=fam[idx].astype(np.uint8),
        via=via[idx].astype(np.int32),
        vias=vias,
        cand_node=cand_node,
        als_cells=als_cells,
    )


def _group_links(grid: Grid, cand_node: np.ndarray, nc: int, E: _Edges) -> list[Group]:
    """Group nodes (digit d in 2+ cells of a box-line intersection) and their links.

    Every (group, set) incidence is a row: the set's live members outside the
    group are its weak partners (strong when there is one), and two groups of
    one set are linked when they are disjoint (strong when the other is all
    that is left).
    """
    g = grid.geometry
    n = g.size
    ncells = g.number_of_cells
    icells, lh, bh = _intersections(g)
    if not len(icells):
        return []
    valid = icells >= 0
    has = grid.cands[np.where(valid, icells, 0)] & valid[:, :, None]  # (I, w, n)
    gi, gd = np.nonzero(has.sum(axis=1) >= 2)
    if not len(gi):
        return []
    w = icells.shape[1]
    big = ncells + 1
    cells = np.sort(np.where(has[gi, :, gd], icells[gi], big), axis=1)
    cells = np.where(cells == big, -1, cells)  # (G, w) cells of each group, ascending, -1 after
    # sort_key order of groups: digit, then cells (a shorter list first on a common prefix)
    order = np.lexsort(tuple(cells[:, j] for j in range(w - 1, -1, -1)) + (gd,))
    cells, gd, gi = cells[order], gd[order], gi[order]
    G = len(gd)
    groups = _Groups(g, cells, gd)
    gk = np.where(cells >= 0, cells * n + gd[:, None], -1)  # (G, w) candidates of each group
    size = (cells >= 0).sum(axis=1)
    node = nc + np.arange(G)
    inc_g = np.r_[np.arange(G), np.arange(G)]
    inc_s = np.r_[ncells + lh[gi] * n + gd, ncells + bh[gi] * n + gd]
    mem = g.set_members[inc_s]  # (2G, n)
    ingroup = (mem[:, :, None] == gk[inc_g][:, None, :]).any(axis=2)
    others = grid.live[mem] & ~ingroup
    cnt = others.sum(axis=1)
    r, c = np.nonzero(others)
    o = cand_node[mem[r, c]]
    a, via = node[inc_g[r]], inc_s[r]
    prio = F_GROUP * 1_000_000 + via
    E.add(np.r_[2 * a, 2 * o], np.r_[2 * o + 1, 2 * a + 1], WEAK, F_GROUP, np.r_[via, via], np.r_[prio, prio])
    one = cnt[r] == 1
    a1, o1, v1 = a[one], o[one], via[one]
    p1 = F_GROUP * 1_000_000 + v1
    E.add(np.r_[2 * a1 + 1, 2 * o1 + 1], np.r_[2 * o1, 2 * a1], STRONG, F_GROUP, np.r_[v1, v1], np.r_[p1, p1])
    # two groups of one set
    x, y = np.nonzero((inc_s[:, None] == inc_s[None, :]) & (inc_g[:, None] != inc_g[None, :]))
    if len(x):
        ka, kb = gk[inc_g[x]], gk[inc_g[y]]
        overlap = ((ka[:, :, None] == kb[:, None, :]) & (ka[:, :, None] >= 0)).any(axis=(1, 2))
        x, y = x[~overlap], y[~overlap]
        na, nb, vs = node[inc_g[x]], node[inc_g[y]], inc_s[x]
        E.add(2 * na, 2 * nb + 1, WEAK, F_GROUP, vs, F_GROUP * 1_000_000 + vs)
        eq = cnt[x] == size[inc_g[y]]
        E.add(2 * na[eq] + 1, 2 * nb[eq], STRONG, F_GROUP, vs[eq], F_GROUP * 1_000_000 + vs[eq])
    return groups


def _als_links(grid: Grid, cand_node: np.ndarray, max_size: int, E: _Edges, base: int) -> np.ndarray:
    """ALS links: -a -> +b (b's digit has one place left) and -a -> -c (c sees all of its digit).

    Returns the ALS cells ``(A, w)`` padded with -1; ALS ``a`` has via code ``base + a``.
    """
    g = grid.geometry
    n = g.size
    counts = grid.counts
    bits = grid.cands.astype(np.int64) @ (1 << np.arange(n, dtype=np.int64))
    bits = np.where(counts >= 2, bits, (1 << (n + 1)) - 1)  # solved cells never join an ALS
    pop = _popcounts(n + 1)
    hc = g.house_cells.astype(np.int64)  # (H, k)
    hb = bits[hc]
    k = hc.shape[1]
    w = min(max_size, k - 1)
    found = []
    for m in range(2, w + 1):
        T = _combos(k, m)
        u = hb[:, T[:, 0]]  # (H, combos): union of the digits of each m cells
        for j in range(1, m):
            u = u | hb[:, T[:, j]]
        hh, cc = np.nonzero(pop[u] == m + 1)
        if len(hh):
            rows = np.full((len(hh), w), ncells_sentinel := g.number_of_cells, dtype=np.int64)
            rows[:, :m] = np.sort(hc[hh[:, None], T[cc]], axis=1)
            found.append(rows)
    if not found:
        return np.zeros((0, 1), dtype=np.int64)
    allrows = np.concatenate(found)
    if w * 12 <= 62 and ncells_sentinel < 1 << 12:
        key = np.zeros(len(allrows), dtype=np.int64)  # rows as one int to drop repeats
        for j in range(w):
            key = (key << 12) | allrows[:, j]
        allrows = allrows[np.unique(key, return_index=True)[1]]
    else:
        allrows = np.unique(allrows, axis=0)
    size = (allrows < ncells_sentinel).sum(axis=1)
    keyorder = np.lexsort(tuple(allrows[:, j] for j in range(w - 1, -1, -1)) + (size,))
    allrows = allrows[keyorder]
    cells = np.where(allrows < ncells_sentinel, allrows, -1)
    valid = cells >= 0
    P = grid.cands[np.where(valid, cells, 0)] & valid[:, :, None]  # (A, w, n)
    cnt = P.sum(axis=1)  # (A, n)
    pos = np.take_along_axis(cells, P.argmax(axis=1), axis=1)  # (A, n): the cell of a single digit
    single = cnt == 1
    A = len(cells)
    prio = F_ALS * 1_000_000 + base + np.arange(A)
    # -a -> +b
    aa, x, y = np.nonzero(single[:, :, None] & single[:, None, :] & (pos[:, :, None] != pos[:, None, :]))
    s_node = cand_node[pos[aa, x] * n + x]
    d_node = cand_node[pos[aa, y] * n + y]
    E.add(2 * s_node + 1, 2 * d_node, STRONG, F_ALS, base + aa, prio[aa])
    # -a -> -c: c holds digit y outside the ALS and sees every ALS cell holding y
    peers = _peers_ext(g)
    holder = np.where(P, cells[:, :, None], g.number_of_cells)  # (A, w, n)
    seen_all = peers[holder].all(axis=1)  # (A, n, cells)
    seen_all &= grid.cands.T[None, :, :]
    seen_all &= (cnt >= 1)[:, :, None]
    ea, ey, ec = np.nonzero(seen_all)
    if len(ea):
        srcmask = single[ea] & (np.arange(n)[None, :] != ey[:, None])  # (m, n)
        r, x2 = np.nonzero(srcmask)
        a2 = ea[r]
        s_node = cand_node[pos[a2, x2] * n + x2]
        d_node = cand_node[ec[r] * n + ey[r]]
        E.add(2 * s_node + 1, 2 * d_node + 1, STRONG, F_ALS, base + a2, prio[a2])
    return cells


@lru_cache(maxsize=16)
def _peers_ext(g: Geometry) -> np.ndarray:
    """Peers with one extra all-True row (index ``cells``) for padding."""
    return np.vstack([g.peers, np.ones((1, g.number_of_cells), dtype=bool)])


# ---- compiling a networkx digraph ----------------------------------------------
def compile_digraph(D: nx.DiGraph, grid: Grid) -> LiteralGraph:
    """Compile an implication digraph over `Literal` values (edge attributes kind/family/via).

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> D = lg.chaingraph.compile_grid(grid).to_networkx()
    >>> LG = lg.chaingraph.compile_digraph(D, grid)
    >>> LG.number_of_literals == D.number_of_nodes()
    True
    """
    g = grid.geometry
    node_set = {lit.cand for lit in D.nodes}
    nodes = sorted(node_set, key=sort_key)
    index = {node: i for i, node in enumerate(nodes)}
    cand_node = np.full(g.number_of_candidates, -1, dtype=np.int64)
    for node, i in index.items():
        if isinstance(node, Candidate):
            cand_node[g.index(node)] = i
    vias: list = []
    via_code: dict[str, int] = {}
    rows = []
    for u, v, data in D.edges(data=True):
        text = str(data.get("via", ""))
        if text not in via_code:
            via_code[text] = len(vias)
            vias.append(text)
        fam = FAMILIES.index(str(data.get("family", "house")))
        kind = STRONG if str(data.get("kind")) == "strong" else WEAK
        rows.append((2 * index[u.cand] + (not u.on), 2 * index[v.cand] + (not v.on), kind, fam, via_code[text]))
    rows.sort()
    arr = np.array(rows, dtype=np.int64).reshape(-1, 5)
    return LiteralGraph(
        grid=grid,
        node_cands=np.array([g.index(c) for c in nodes if isinstance(c, Candidate)], dtype=np.int64),
        groups=[c for c in nodes if not isinstance(c, Candidate)],
        src=arr[:, 0].astype(np.int32),
        dst=arr[:, 1].astype(np.int32),
        kind=arr[:, 2].astype(np.uint8),
        family=arr[:, 3].astype(np.uint8),
        via=arr[:, 4].astype(np.int32),
        vias=vias,
        cand_node=cand_node,
    )
