"""The layered net the ALS chains run on (`linkgraph.techniques.als.chains`).

`als_net` lays out the grouped-AIC net (`linkgraph.techniques.aic.net.grouped_net`)
twice: a chain starts in the first copy, the first ALS it enters moves it to the
second, and it may only end in the second copy or on an ALS node. Each ALS of 2+
cells contributes one node per digit that some live candidate outside it can see
entirely (the places of that digit in the ALS); two nodes of one ALS are strongly
linked, and weak links join the copies through the ALS nodes (the chains module
docstring, "The net and the search", says which). The net also holds, packed
(`linkgraph.bitops`), what each start and each end turns OFF and which starts share
a target with each end, so the search reads eliminations off words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from linkgraph.bitops import nonzero2, pack, pack_pairs, unpack
from linkgraph.grid import Grid, cached
from linkgraph.model import Als
from linkgraph.techniques.aic.net import Net, grouped_net
from linkgraph.techniques.als.table import ALS_MAX_SIZE, AlsTable, als_table

__all__ = ["AlsNet", "als_net"]


@dataclass
class AlsNet:
    """The layered net: regular nodes ``[0, M)`` (copy one), ALS nodes ``[M, M + K)``,
    regular nodes ``[M + K, 2M + K)`` (copy two); the first ``M + K`` are the starts."""

    net: Net  # what the search runs on: its members, links as `_Links` (the search reads `preds`)
    preds: dict  # per link kind (True: strong): (targets v, sources u) of every link u -> v, by v then u
    base: Net  # the grouped-AIC net, one copy
    M: int
    K: int
    table: AlsTable
    sets: list[int]  # per ALS node: its set in `table`
    digit: list[int]  # per ALS node (the digit itself)
    start_sees: np.ndarray  # (M + K, words) packed: candidates a start's +literal turns OFF by a weak link
    end_sees: np.ndarray  # (N, words) packed: candidates an end turns OFF
    twin: np.ndarray  # (M + K,) per start of one candidate, that candidate's copy-two node; else -1
    hits: np.ndarray  # (N, start words) packed: per end, the starts with a candidate seeing both ends
    loops: tuple  # the starts with a twin, their twins, and the word and shift of each start's bit
    _als: dict[int, Als] = field(default_factory=dict)

    def als(self, j: int) -> Als:
        """The `Als` of ALS node `j` (made on first use)."""
        i = self.sets[j]
        if i not in self._als:  # as `AlsTable.als`, without the table's per-digit masks
            g = self.table.grid.geometry
            cells = [c for c in self.table.cells[i].tolist() if c < g.number_of_cells]
            digits = (np.flatnonzero(self.table.has[i]) + 1).tolist()
            self._als[i] = Als(tuple(g.cell(c) for c in cells), tuple(digits))
        return self._als[i]

    def kind(self, i: int) -> tuple[str, int]:
        """("node", base index) or ("als", ALS node index) of layered node `i`."""
        if i < self.M:
            return "node", i
        if i < self.M + self.K:
            return "als", i - self.M
        return "node", i - self.M - self.K


class _Members:
    """The member candidates of the layered nodes, as lists, made when asked for (a chain read back)."""

    def __init__(self, base: list[list[int]], als: np.ndarray):
        self.base, self.als = base, als  # als: (K, width) candidate indices, -1 pads
        self.M, self.K = len(base), len(als)

    def __len__(self) -> int:
        return 2 * self.M + self.K

    def __getitem__(self, i: int) -> list[int]:
        if i < self.M:
            return list(self.base[i])
        if i < self.M + self.K:
            return [k for k in self.als[i - self.M].tolist() if k >= 0]
        return list(self.base[i - self.M - self.K])


class _Links:
    """Links as sorted (v, u) arrays, read like a link matrix: ``links[v, u]`` (u -> v)."""

    def __init__(self, vu: tuple[np.ndarray, np.ndarray], N: int):
        self.key = vu[0] * N + vu[1]
        self.N = N

    def __getitem__(self, vu: tuple[int, int]) -> bool:
        k = vu[0] * self.N + vu[1]
        i = int(np.searchsorted(self.key, k))
        return i < len(self.key) and int(self.key[i]) == k


@dataclass
class _BaseParts:
    """What the ALS net takes from the grouped-AIC net of a grid, as arrays (kept per grid)."""

    cells: np.ndarray  # (M, width) the member cells of each node, -1 pads
    digit: np.ndarray  # (M,) the digit (index) of each node
    strong: tuple[np.ndarray, np.ndarray]  # (v, u) of its strong links, by v then u
    weak: tuple[np.ndarray, np.ndarray]
    sees: np.ndarray  # (M, words) packed `sees_all`
    sight: tuple[np.ndarray, np.ndarray]  # (node, candidate) of `sees_all`, by node
    single: np.ndarray  # (M,) the candidate of a one-candidate node; C for a group
    node_of: np.ndarray  # (C + 1,) the node of each candidate; -1 for none (and at C)
    nc: int  # the candidate nodes come first, then the groups


def _base_parts(grid: Grid) -> _BaseParts:
    base = cached("grouped-net", grid, grouped_net)
    g = grid.geometry
    n, C = g.size, g.number_of_candidates
    table = base.table
    cells = np.where(table >= 0, table // n, -1)
    one = (table >= 0).sum(axis=1) == 1
    single = np.where(one, table[:, 0], C)
    node_of = np.full(C + 1, -1, dtype=np.intp)
    node_of[single[one]] = np.flatnonzero(one)
    return _BaseParts(cells, table[:, 0] % n, base.preds[True], base.preds[False], base.sees_packed,
                      nonzero2(base.sees_all), single, node_of, int(one.sum()))


@lru_cache(maxsize=8)
def _house_rows(g) -> tuple[np.ndarray, np.ndarray]:
    """(cells + 1, houses) bool: the houses of each cell (a padding row of all True); and
    (houses, words) uint64: the cells of each house, packed."""
    inc = np.ones((g.number_of_cells + 1, len(g.house_cells)), dtype=bool)
    inc[:-1] = False
    for h, cells in enumerate(g.house_cells):
        inc[cells, h] = True
    words = pack(inc[:-1].T)
    inc.setflags(write=False)
    words.setflags(write=False)
    return inc, words


def _sorted_links(N: int, parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """(v, u) of the links of `parts` (each (v, u) arrays), by v then u."""
    v = np.concatenate([v for v, _ in parts]).astype(np.int64)
    u = np.concatenate([u for _, u in parts]).astype(np.int64)
    order = np.argsort(v * N + u, kind="stable")  # sorted runs
    return v.take(order), u.take(order)


def als_net(grid: Grid, max_size: int = ALS_MAX_SIZE) -> AlsNet | None:
    """The grouped-AIC net in two copies joined through ALS nodes (see the module docstring);
    None when the grid has no ALS node."""
    g = grid.geometry
    n, ncells, C = g.size, g.number_of_cells, g.number_of_candidates
    live = grid.live
    cands = grid.cands
    table = als_table(grid, max_size=max_size)
    sizes = (table.cells < ncells).sum(axis=1)
    # ALS nodes: per ALS of 2+ cells, each digit some live candidate outside sees entirely
    visible = (table.selfsee[:, None] >> np.arange(n)) & 1 == 1  # (sets, n)
    keep = (sizes >= 2) & (visible.sum(axis=1) >= 2)
    ai, ad = nonzero2(visible & keep[:, None])  # by set, then digit
    K = len(ai)
    if K == 0:
        return None
    base = cached("grouped-net", grid, grouped_net)
    bp = cached("als-chain-base", grid, _base_parts)
    M = len(base.members)
    N = 2 * M + K
    cell_tab = table.cells[ai]  # (K, w), ncells pads
    ext = np.zeros((ncells + 1, n), dtype=bool)
    ext[:ncells] = cands
    valid = ext[cell_tab, ad[:, None]]  # the ALS cells holding the node's digit
    mem_tab = np.where(valid, cell_tab * n + ad[:, None], -1)
    # the cells that see every place of the node's digit in its ALS (none of them a place)
    seeall = unpack(table.seeall[ad, ai], ncells)  # (K, cells)
    # ALS node a -> candidates of its digit seeing every member (live, outside its cells): what it turns OFF
    sees_cells = seeall & cands.T[ad]
    ea, ec = nonzero2(sees_cells)
    ec = ec * n + ad[ea]  # (ALS node, candidate) pairs, by node
    # regular node r -- ALS node a: r of a's digit, every member of r sees every member of a
    # (a candidate node: a candidate an ALS node turns OFF; a group node: all its members are)
    nc = bp.nc
    gcells = bp.cells[nc:]
    sees_t = np.ones((ncells + 1, K), dtype=bool)  # (cells + 1, K): row ncells pads
    sees_t[:ncells] = seeall.T
    from_group = bp.digit[nc:, None] == ad[None, :]  # (groups, K)
    for column in np.where(gcells < 0, ncells, gcells).T:
        from_group &= sees_t[column]
    ga, gr = nonzero2(np.ascontiguousarray(from_group.T))  # by node, then group
    la = np.concatenate([ea, ga])
    lr = np.concatenate([bp.node_of[ec], gr + nc])
    # ALS -- ALS on one digit d: a restricted common digit (cells apart, every place of one sees every place
    # of the other)
    node_id = np.full((len(table), n), -1, dtype=np.intp)
    node_id[ai, ad] = np.arange(K)
    held = np.flatnonzero(np.concatenate(([True], ai[1:] != ai[:-1])))
    p, q = nonzero2(table.restricted != 0)  # (a set without a node has no node_id below)
    masks = table.restricted[p, q]
    pi, d = nonzero2((masks[:, None] >> np.arange(n)) & 1 == 1)
    rv, ru = node_id[p[pi], d], node_id[q[pi], d]
    both = (rv >= 0) & (ru >= 0)
    rv, ru = rv[both], ru[both]
    # two digits of one ALS (its nodes are consecutive)
    count = np.diff(np.append(held, K))
    per = np.repeat(count, count)  # nodes of the node's ALS
    lo = np.repeat(held, count)  # its first node
    sv = np.repeat(np.arange(K), per)
    su = np.repeat(lo, per) + (np.arange(per.sum()) - np.repeat(np.cumsum(per) - per, per))
    other = sv != su
    sv, su = sv[other], su[other]
    # the layered links, [v, u] meaning u -> v
    bsv, bsu = bp.strong
    bwv, bwu = bp.weak
    B = M + K
    strong = _sorted_links(N, [(bsv, bsu), (bsv + B, bsu + B), (sv + M, su + M)])
    weak = _sorted_links(N, [(bwv, bwu), (bwv + B, bwu + B),
                             (la + M, lr),  # copy one -> ALS
                             (la + M, lr + B),  # copy two -> ALS
                             (lr + B, la + M),  # ALS -> copy two
                             (rv + M, ru + M)])  # ALS -> ALS
    # what a start's +literal turns OFF by one weak link: for an ALS start, the premise is the group of
    # its digit's places, so a candidate sharing one set X with all of them (incidence, not just sight):
    # the cells of a house holding them all on that digit, and a lone place's own cell
    house_of, house_cells = _house_rows(g)
    safe_cells = np.where(valid, cell_tab, ncells)
    common = house_of[safe_cells[:, 0]]  # (K, houses)
    for k in range(1, safe_cells.shape[1]):
        common = common & house_of[safe_cells[:, k]]
    ck, ch = nonzero2(common)
    in_house = np.zeros((K, house_cells.shape[1]), dtype=np.uint64)
    if len(ck):
        first = np.flatnonzero(np.concatenate(([True], ck[1:] != ck[:-1])))
        in_house[ck[first]] = np.bitwise_or.reduceat(house_cells[ch], first, axis=0)
    in_house = unpack(in_house, ncells)  # (K, cells)
    place = np.zeros((K, ncells + 1), dtype=bool)
    place[np.arange(K)[:, None], safe_cells] = True
    in_house &= ~place[:, :ncells] & cands.T[ad]  # live, not a place
    sa, sc = nonzero2(in_house)
    sc = sc * n + ad[sa]
    lone = np.flatnonzero(valid.sum(axis=1) == 1)
    lone_cands = safe_cells[lone].min(axis=1)[:, None] * n + np.arange(n)  # (lone, n): the place's cell
    li, ld = nonzero2(live[lone_cands] & (np.arange(n)[None, :] != ad[lone][:, None]))
    sa = np.concatenate([sa, lone[li]])
    sc = np.concatenate([sc, lone_cands[li, ld]])
    start_sees = np.concatenate([bp.sees, pack_pairs(sa, sc, (K, C))])
    # per end b, the starts a with a candidate seeing both: the OR over b's sight of the starts seeing it
    by_cand = pack_pairs(np.concatenate([bp.sight[1], sc]), np.concatenate([bp.sight[0], sa + M]), (C, M + K))  # (C, start words)
    ends = np.concatenate([ea + M, bp.sight[0] + B])
    seen = np.concatenate([ec, bp.sight[1]])
    hits = np.zeros((N, by_cand.shape[1]), dtype=np.uint64)
    if len(ends):
        first = np.flatnonzero(np.concatenate(([True], ends[1:] != ends[:-1])))
        hits[ends[first]] = np.bitwise_or.reduceat(by_cand.take(seen, axis=0), first, axis=0)
    end_sees = np.concatenate([np.zeros_like(bp.sees), pack_pairs(ea, ec, (K, C)), bp.sees])
    net = Net(g, _Members(base.members, mem_tab), _Links(strong, N), _Links(weak, N), None)
    # a start of one candidate k (a candidate, or an ALS node whose digit has one place k): reaching k ON
    # in copy two places it
    one = np.where(valid.sum(axis=1) == 1, mem_tab.max(axis=1), C)
    twin = bp.node_of[np.concatenate([bp.single, one])]
    twin = np.where(twin >= 0, twin + M + K, -1)
    looped = np.flatnonzero(twin >= 0)
    return AlsNet(net, {True: strong, False: weak}, base, M, K, table, ai.tolist(), (ad + 1).tolist(),
                   start_sees, end_sees, twin, hits, (looped, twin[looped], looped >> 6, (looped & 63).astype(np.uint64)))
