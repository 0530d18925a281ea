"""Compile the implication digraph of a grid straight from its candidates, for batched search.

The forcing-chain search (`linkgraph.chains.search`) runs over a `LiteralGraph`
(`linkgraph.graph.compiled`): nodes (candidates, then group nodes) numbered in
`linkgraph.model.sort_key` order, node ``i`` with literals ``2*i`` (ON) and
``2*i + 1`` (OFF), and the edges as flat int arrays with codes for their
``kind``, ``family`` and ``via``. Two builders give the same structure:

- `compile_grid` builds it straight from the candidate state (the fast path:
  the links of DESIGN.md §1 for set X, group and ALS nodes, laid out by the
  compiled `linkgraph.graph.kernel.literal_edges` from per-geometry tables
  cached here);
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

from linkgraph.errors import check_choice
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, cached
from linkgraph.graph.als import als_cells
from linkgraph.graph.compiled import FAMILIES, LiteralGraph, compile_digraph  # the structure, re-exported
from linkgraph.model import Group

__all__ = ["FAMILIES", "LiteralGraph", "compile_digraph", "compile_grid", "grid_als_cells"]


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
    from linkgraph.graph.kernel import literal_edges

    check_search_size("forcing-chain search", int(grid.live.sum()))
    check_choice("families", families, FAMILIES)
    fams = set(families)
    g = grid.geometry
    ncells = g.number_of_cells
    T = _group_tables(g)
    found = _NO_ALS
    if "als" in fams and als_max_size >= 2:
        w = min(als_max_size, g.house_cells.shape[1] - 1)
        if w >= 2:
            rows = grid_als_cells(grid, w)  # by size, then cells: the order of ALS via codes
            found = rows[int((rows[:, 1] >= ncells).sum()) :]  # the one-cell sets come first: 2+ cells
            found.setflags(write=False)  # as _NO_ALS: one compiled form of the kernel (a view: the rows stay writeable)
    cands, cand_node, gsub, gd, src, dst, prio = literal_edges(
        grid.live, g.set_members, ncells, "cell" in fams, "house" in fams, "group" in fams and len(T.icand0) > 0,
        T.icand0, T.rank, T.house, T.out0, T.pairs, T.shared0, found, grid.cands, g.peer_words,
        g.number_of_sets, _FAMW)
    groups = _Groups(g, T.sub_cells.reshape(-1, T.sub_cells.shape[2])[gsub], gd) if len(gd) else []
    fam = prio // _FAMW
    vias: list = list(_set_texts(g))
    vias += [None] * len(found)
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
        cand_node=cand_node,
        als_cells=np.where(found < ncells, found, -1) if len(found) else np.zeros((0, 1), dtype=np.int64),
    )


def grid_als_cells(grid: Grid, max_size: int) -> np.ndarray:
    """The cells of every ALS of 1 to `max_size` cells in `grid` (`linkgraph.graph.als.als_cells`:
    one row each, smallest first, then by cells), kept per grid.

    The ALS rungs' table (`linkgraph.techniques.als.table`) and `compile_grid` look at the same
    grid one after the other in a solve's walk; they read one enumeration. The array is shared:
    nobody writes to it.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> rows = lg.graph.compiler.grid_als_cells(grid, 4)
    >>> rows is lg.graph.compiler.grid_als_cells(grid, 4)
    True
    >>> [str(grid.geometry.cell(c)) for c in rows[0].tolist() if c < 81]  # one cell: a bivalue cell
    ['r2c6']
    """
    return cached(("als-cells", max_size), grid, lambda grid: als_cells(grid, max_size=max_size))


_NO_ALS = np.zeros((0, 1), dtype=np.int64)
_NO_ALS.setflags(write=False)
