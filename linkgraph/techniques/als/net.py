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

from linkgraph.bitops import pack
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
    # `Net.sight` is `sees_all`'s nonzero pairs by node, then candidate: the grouped net
    # fills it in as it builds `sees_all`, so it is not searched for again here
    return _BaseParts(cells, table[:, 0] % n, base.preds[True], base.preds[False], base.sees_packed,
                      base.sight, single, node_of, int(one.sum()))


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


def als_net(grid: Grid, max_size: int = ALS_MAX_SIZE) -> AlsNet | None:
    """The grouped-AIC net in two copies joined through ALS nodes (see the module docstring);
    None when the grid has no ALS node. The arrays come from one compiled call
    (`linkgraph.techniques.als.kernel.als_net_parts`)."""
    from linkgraph.techniques.als.kernel import als_net_parts  # noqa: PLC0415 (numba: loaded on first use)

    g = grid.geometry
    table = als_table(grid, max_size=max_size)
    if not (table.selfsee & (table.selfsee - 1)).any():  # no set has two digits seen from outside
        return None
    base = cached("grouped-net", grid, grouped_net)
    bp = cached("als-chain-base", grid, _base_parts)
    M = len(base.members)
    house_of, house_cells = _house_rows(g)
    ai, ad, mem_tab, sv, su, wv, wu, start_sees, end_sees, hits, twin = als_net_parts(
        grid.cands, table.cells, table.selfsee, table.seeall, table.restricted_words, bp.cells[bp.nc :],
        bp.digit[bp.nc :], bp.node_of, bp.single, *bp.strong, *bp.weak, bp.sees, *bp.sight, house_of,
        house_cells, M)
    K = len(ai)
    if K == 0:
        return None
    N = 2 * M + K
    strong, weak = (sv, su), (wv, wu)
    net = Net(g, _Members(base.members, mem_tab), _Links(strong, N), _Links(weak, N), None)
    looped = np.flatnonzero(twin >= 0)
    return AlsNet(net, {True: strong, False: weak}, base, M, K, table, ai.tolist(), (ad + 1).tolist(),
                  start_sees, end_sees, twin, hits, (looped, twin[looped], looped >> 6, (looped & 63).astype(np.uint64)))
