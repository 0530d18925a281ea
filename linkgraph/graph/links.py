"""The link graph: candidates, group and ALS nodes joined by typed links.

`link_graph` turns a `Grid` into an undirected `networkx.Graph`. Every link
comes from a set X (DESIGN.md §1): two candidates of one set are *weakly*
linked (not both ON); when they are the only two live members of some set they
are *strongly* linked (not both OFF either). Group nodes and ALS nodes extend
the same reasoning:

- **group** (`Group`): digit d in the 2+ live cells of the intersection of two
  houses (a box and a line in classic grids). Inside each house holding all
  its cells it behaves like one candidate of that house's set ``H#d``.
- **ALS** (`Als`): n unsolved cells of one house holding n+1 digits
  (see `linkgraph.graph.als`).

Edge attributes: ``kind`` (``strong`` | ``weak``), ``family`` (``cell`` |
``house`` | ``group`` | ``als``) and ``via`` (the set X as text, ``r2#1`` or
``r2c8``; for ALS links the ALS, ``r2468c4{12378}``). Node attribute ``kind``
is ``candidate``, ``group`` or ``als``. A graph holds one edge per pair of
nodes; when a pair shares several sets, the strong one wins, then the set
with the lowest index (cells, then houses in geometry order).

What the ALS edges mean (`linkgraph.graph.implication` turns them into literal
edges):

- ALS strong edge ``cand(x) = cand(y)`` (family ``als``): digits x and y each
  have exactly one cell in the ALS, in different cells, so they cannot both
  be OFF (the ALS would keep n-1 digits for n cells). Unlike a set X strong
  link it is *not* also weak: both may be ON.
- ALS weak edge ``A - o`` (family ``als``, between the `Als` node and an
  outside candidate ``o`` of digit y): ``o`` sees every cell of the ALS
  holding y. When a digit x != y with one cell in the ALS is OFF, the ALS is
  locked, y must stand in it, and ``o`` is OFF.

The graph attribute ``G.graph`` holds ``grid``, ``families`` and
``als_max_size``.
"""

from __future__ import annotations

import functools
import gc
import statistics
from collections.abc import Callable, Collection
from functools import lru_cache
from operator import itemgetter
from typing import ParamSpec, TypeVar

import networkx as nx
import numpy as np

from linkgraph.graph.als import DEFAULT_ALS_MAX_SIZE, als_cells, cell_bits, peer_bits
from linkgraph.errors import OptionError, check_choice
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, as_grid
from linkgraph.model import Als, Candidate, Family, Group, LinkKind, NodeKind, sort_key

__all__ = [
    "DEFAULT_ALS_MAX_SIZE",
    "FAMILIES",
    "check_link_options",
    "degree_summary",
    "link_counts",
    "link_graph",
    "strong_components",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")

#: Every link family, in the order edges are preferred.
FAMILIES: tuple[str, ...] = tuple(f.value for f in Family)

_STRONG = LinkKind.STRONG.value
_WEAK = LinkKind.WEAK.value


def check_link_options(families: Collection[str] = FAMILIES, als_max_size: int = DEFAULT_ALS_MAX_SIZE) -> tuple[str, ...]:
    """The families as a tuple, if they and `als_max_size` are options `link_graph` takes; else OptionError.

    The one check of the link options, for `link_graph` and for the callers that
    check their options before any work (a batch run, the command line).

    >>> lg.graph.links.check_link_options("cell,house".split(","), 4)
    ('cell', 'house')
    >>> lg.graph.links.check_link_options(["cel"])
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: families: unknown value 'cel', expected one of cell, house, group, als; did you mean 'cell'?
    """
    if isinstance(families, str):
        families = (families,)
    families = tuple(families)
    check_choice("families", families, FAMILIES)
    if isinstance(als_max_size, bool) or not isinstance(als_max_size, int) or als_max_size < 1:
        raise OptionError(f"als_max_size: expected a whole number of cells >= 1, found {als_max_size!r}")
    return families


def without_collection(build: Callable[_P, _R]) -> Callable[_P, _R]:
    """`build` with Python's cyclic garbage collector paused while it runs.

    For the graph builders (`link_graph`, `linkgraph.graph.implication.implication_graph`):
    they allocate some ten thousand dicts, none of them garbage or in a cycle, and the
    collector would scan the young ones every 700 allocations to free nothing (about
    0.4 ms of the 5 ms a top1465 position's link and implication graphs take).

    Parameters
    ----------
    build : callable
        The function to wrap.

    Returns
    -------
    callable
        `build` with the same signature. Reference counting frees as usual while it runs;
        afterwards the collector is as it was found (if something else had disabled it, it
        stays disabled and is not touched).

    Examples
    --------
    >>> import gc
    >>> @lg.graph.links.without_collection
    ... def collecting() -> bool:
    ...     return gc.isenabled()
    >>> collecting(), gc.isenabled()
    (False, True)
    """

    @functools.wraps(build)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not gc.isenabled():
            return build(*args, **kwargs)
        gc.disable()
        try:
            return build(*args, **kwargs)
        finally:
            gc.enable()

    return run


@without_collection
def link_graph(
    grid: Grid | str,
    *,
    families: Collection[str] = FAMILIES,
    als_max_size: int = DEFAULT_ALS_MAX_SIZE,
) -> nx.Graph:
    """The typed link graph of `grid`.

    Parameters
    ----------
    grid : Grid or str
        The candidate state (or a puzzle string, `linkgraph.grid.as_grid`).
    families : collection of str, optional
        Which links to build: ``"cell"``, ``"house"``, ``"group"``, ``"als"``.
        Group and ALS nodes are made only with their family.
    als_max_size : int, optional
        Largest ALS, in cells (default `DEFAULT_ALS_MAX_SIZE`, 4: see
        `linkgraph.graph.als`).

    Returns
    -------
    networkx.Graph
        Nodes: the live candidates of unsolved cells (and of solved cells that
        still share a set with a live candidate), group and ALS nodes. Node
        attribute ``kind``; edge attributes ``kind``, ``family``, ``via``.

    Raises
    ------
    OptionError
        For an unknown family or an ALS size below 1.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> G = lg.link_graph(grid)
    >>> a, b = lg.Candidate.parse("r2c6#2"), lg.Candidate.parse("r6c6#2")
    >>> G.edges[a, b]
    {'kind': 'strong', 'family': 'house', 'via': 'c6#2'}
    >>> G.nodes[lg.Als.parse("r2468c4{12378}")]["kind"]
    'als'
    """
    families = check_link_options(families, als_max_size)
    grid = as_grid(grid)
    geo = grid.geometry
    tables = _tables(geo)
    # the graph's node and adjacency dicts, filled here as networkx's add_nodes_from and
    # add_edges_from would fill them (same insertion order), then handed to an empty graph
    node: dict = {}
    adj: dict = {}
    nbrs = _candidate_links(grid, families, tables, node, adj)
    # per digit: the cells holding it as bits (for the group and ALS links)
    live_bits = cell_bits(grid.cands) if Family.GROUP in families or Family.ALS in families else []
    if Family.GROUP in families:
        _group_links(grid, tables, node, adj, nbrs, live_bits)
    if Family.ALS in families:
        _als_links(grid, als_max_size, tables, node, adj, nbrs, live_bits)
    G = nx.Graph(grid=grid, families=families, als_max_size=als_max_size)
    # networkx resets its cached views when these are set (its documented way to swap them)
    G._node = node
    G._adj = adj
    return G


class _Tables:
    """Per-geometry constants of the link graph: the candidate nodes, the sets' text, the
    intersections with the houses holding them, house and peer bitmasks."""

    def __init__(self, geo: Geometry) -> None:
        n = geo.size
        self.cands: tuple[Candidate, ...] = tuple(geo.candidate(k) for k in range(geo.number_of_candidates))
        self.vias: tuple[str, ...] = tuple(str(geo.setx(s)) for s in range(geo.number_of_sets))
        self.pairs = np.triu_indices(n, 1)
        seen: dict[tuple[int, ...], tuple[int, ...]] = {}
        for _, cells in geo.intersections:
            if cells not in seen:
                common = set(geo.cell_houses[cells[0]]).intersection(*(geo.cell_houses[c] for c in cells))
                seen[cells] = tuple(sorted(common))
        self.intersections = sorted(seen.items())
        width = max((len(cells) for cells, _ in self.intersections), default=1)
        # the intersections' cells, padded with number_of_cells (a row of no digit)
        self.icells = np.full((len(self.intersections), width), geo.number_of_cells, dtype=np.intp)
        for i, (cells, _) in enumerate(self.intersections):
            self.icells[i, : len(cells)] = cells
        # per set s: the attributes of a weak (2s) and a strong (2s + 1) link through it
        self.edge_attrs = [
            {"kind": kind, "family": Family.CELL.value if s < geo.number_of_cells else Family.HOUSE.value,
             "via": via}
            for s, via in enumerate(self.vias) for kind in (_WEAK, _STRONG)
        ]
        # (intersection, which of its cells as bits, digit) -> _group_entry
        self.groups: dict[tuple[int, int, int], tuple] = {}
        self.als_sets: dict[tuple[int, ...], tuple] = {}  # cells (an als_cells row) -> _als_entry
        self.digit_sets: dict[int, tuple] = {}  # digit mask -> _digit_set
        self.peer_and: dict[int, int] = {}  # cell bits -> _common_peers

        self.house_bits = [sum(1 << int(c) for c in cells) for cells in geo.house_cells]
        self.house_text = [str(h) for h in geo.houses]
        self.cell_houses = [frozenset(hs) for hs in geo.cell_houses]
        self.peers = peer_bits(geo)
        self.cells = tuple(geo.cell(c) for c in range(geo.number_of_cells))

    def bound(self) -> None:
        """Empty the memos past `_MEMO` entries (a 16x16 grid has some 120,000 ALS cell sets)."""
        for memo in (self.groups, self.als_sets, self.digit_sets, self.peer_and):
            if len(memo) > _MEMO:
                memo.clear()


#: Most entries a memo of `_Tables` keeps.
_MEMO = 50_000


@lru_cache(maxsize=16)
def _tables(geo: Geometry) -> _Tables:
    return _Tables(geo)


def _add_edges(node: dict, adj: dict, edges) -> None:
    """`networkx.Graph.add_edges_from` on the dicts: new ends get an empty attribute dict,
    an edge already there is updated in place."""
    for u, v, d in edges:
        if u not in node:
            node[u] = {}
            adj[u] = {}
        if v not in node:
            node[v] = {}
            adj[v] = {}
        dd = adj[u].get(v)
        if dd is None:
            dd = dict(d)
        else:
            dd.update(d)
        adj[u][v] = dd
        adj[v][u] = dd


def _candidate_links(grid: Grid, families: tuple[str, ...], tables: _Tables, node: dict, adj: dict) -> list:
    """The candidate nodes and every link between two candidates (one per pair: the strong
    set first, then the set with the lowest index); returns each candidate index's adjacency
    dict (None for a candidate not in the graph)."""
    geo = grid.geometry
    n, ncells, ncands = geo.size, geo.number_of_cells, geo.number_of_candidates
    allc = tables.cands
    kind = NodeKind.CANDIDATE.value
    unsolved_live = np.flatnonzero(grid.live & np.repeat(grid.counts > 1, n)).tolist()
    use_cell, use_house = Family.CELL in families, Family.HOUSE in families
    nbrs: list = [None] * ncands
    if not (use_cell or use_house):
        for k in unsolved_live:
            c = allc[k]
            node[c] = {"kind": kind}
            nbrs[k] = adj[c] = {}
        return nbrs
    members = geo.set_members
    lm = grid.live[members]
    I, J = tables.pairs
    both = lm[:, I] & lm[:, J]
    if not use_cell:
        both[:ncells] = False
    if not use_house:
        both[ncells:] = False
    s_idx, p_idx = np.nonzero(both)
    a = members[s_idx, I[p_idx]].astype(np.int64)
    b = members[s_idx, J[p_idx]].astype(np.int64)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    strong = (lm.sum(axis=1) == 2)[s_idx]
    key = lo * ncands + hi
    order = np.lexsort((s_idx, ~strong, key))
    ks = key[order]
    first = np.ones(len(ks), dtype=bool)
    first[1:] = ks[1:] != ks[:-1]
    sel = order[first]  # by key: for each candidate, its neighbours come in ascending order
    lo, hi, s_sel, st_sel = lo[sel], hi[sel], s_idx[sel], strong[sel]
    # nodes: the unsolved live candidates, then new first ends, then new second ends
    in_graph = np.zeros(ncands, dtype=bool)
    in_graph[unsolved_live] = True
    order_nodes = list(unsolved_live)
    for ends in (lo, hi):
        extra = ends[~in_graph[ends]]
        if len(extra):
            extra = extra[np.sort(np.unique(extra, return_index=True)[1])]  # first appearance order
            in_graph[extra] = True
            order_nodes.extend(extra.tolist())
    for k in order_nodes:
        c = allc[k]
        node[c] = {"kind": kind}
        nbrs[k] = adj[c] = {}
    edge_attrs = tables.edge_attrs  # per set s: a weak (2s) and a strong (2s + 1) link's attributes
    for u, v, code in zip(lo.tolist(), hi.tolist(), (s_sel * 2 + st_sel).tolist()):
        nbrs[u][allc[v]] = nbrs[v][allc[u]] = edge_attrs[code].copy()
    return nbrs


def _group_links(grid: Grid, tables: _Tables, node: dict, adj: dict, nbrs: list, live_bits: list[int]) -> None:
    """Group nodes that have a strong link, and every link of those groups, added as
    add_nodes_from and add_edges_from would add them (by `sort_key`, edges by the keys of
    their two ends). `nbrs`: the candidates' adjacency dicts by index; `live_bits`: per digit,
    the cells holding it as bits."""
    geo = grid.geometry
    n, ncells = geo.size, geo.number_of_cells
    allc, house_bits = tables.cands, tables.house_bits
    # candidate groups: (bits, digit) -> (Group, houses, sort key), in intersection then digit order;
    # in_house: (house, digit) -> the bits of the candidate groups lying in that house
    padded = np.zeros((ncells + 1, n), dtype=bool)
    padded[:ncells] = grid.cands
    sub = padded[tables.icells]  # (intersections, width, digits)
    where, digits = np.nonzero(sub.sum(axis=1) >= 2)
    found: dict[tuple[int, int], tuple] = {}  # (bits, digit) -> (Group, houses, its sort_key)
    in_house: dict[tuple[int, int], list[int]] = {}
    intersections, known = tables.intersections, tables.groups
    patterns = sub[where, :, digits] @ (1 << np.arange(sub.shape[1]))  # which cells hold the digit
    for i, d0, pattern in zip(where.tolist(), digits.tolist(), patterns.tolist()):
        digit = d0 + 1
        entry = known.get((i, pattern, digit))
        if entry is None:
            cells = tuple(c for j, c in enumerate(intersections[i][0]) if pattern >> j & 1)
            entry = known[(i, pattern, digit)] = _group_entry(tables, cells, digit)
        bits = entry[0]
        if (bits, digit) in found:
            continue
        found[(bits, digit)] = entry[1:]
        for h in entry[2]:
            in_house.setdefault((h, digit), []).append(bits)
    # the groups with a strong link (the others are left out): in some house the group's
    # digit has, besides the group, one other cell or exactly another candidate group
    keep = []
    for (bits, digit), (_, houses, _) in found.items():
        for h in houses:
            others = live_bits[digit - 1] & house_bits[h]
            if others & bits:
                others &= ~bits
                if others and (others & (others - 1) == 0 or (others, digit) in found):
                    keep.append((bits, digit))
                    break
    keep.sort(key=lambda key: found[key][2])  # by sort_key
    place = {key: i for i, key in enumerate(keep)}
    groups = [found[key][0] for key in keep]
    kind = NodeKind.GROUP.value
    for g in groups:  # new nodes: the graph holds only candidates so far
        node[g] = {"kind": kind}
        adj[g] = {}
    group_adj = [adj[g] for g in groups]
    # each kept group's links, house by house, as (strong, house) by the sort keys of their
    # two ends as one int: candidate k (by index, the candidates' order) with group i is
    # k * count + i; groups i < j come after, at top + i * count + j. A pair's first strong
    # link wins, else its first weak one (groups in sort order, each house by house).
    count = len(keep)
    top = geo.number_of_candidates * count
    edges: dict[int, tuple[bool, int]] = {}
    for i, (bits, digit) in enumerate(keep):
        at = digit - 1
        for h in found[(bits, digit)][1]:
            others = live_bits[at] & house_bits[h]
            if not others & bits:
                continue
            others &= ~bits
            if not others:
                continue
            if others & (others - 1) == 0:  # one other cell: a strong link to its candidate
                pair = ((others.bit_length() - 1) * n + at) * count + i
                prev = edges.get(pair)
                if prev is None or not prev[0]:
                    edges[pair] = (True, h)
            else:
                j = place.get((others, digit))
                if j is not None:  # exactly another kept group: a strong link to it
                    pair = top + (i * count + j if i < j else j * count + i)
                    prev = edges.get(pair)
                    if prev is None or not prev[0]:
                        edges[pair] = (True, h)
            rest = others
            while rest:  # a weak link to every other candidate
                low = rest & -rest
                rest ^= low
                pair = ((low.bit_length() - 1) * n + at) * count + i
                if pair not in edges:
                    edges[pair] = (False, h)
            for obits in in_house[(h, digit)]:  # and to every kept group apart from this one
                if not obits & bits:
                    j = place.get((obits, digit))
                    if j is not None:
                        pair = top + (i * count + j if i < j else j * count + i)
                        if pair not in edges:
                            edges[pair] = (False, h)
    family, house_text = Family.GROUP.value, tables.house_text
    for pair in sorted(edges):
        st, h = edges[pair]
        if pair < top:
            k, i = divmod(pair, count)
            d = {"kind": _STRONG if st else _WEAK, "family": family, "via": f"{house_text[h]}#{k % n + 1}"}
            inner = nbrs[k]
            if inner is None:  # a candidate not in the graph yet: a new node without attributes
                c = allc[k]
                if c not in node:
                    node[c] = {}
                    adj[c] = {}
                inner = nbrs[k] = adj[c]
            inner[groups[i]] = group_adj[i][allc[k]] = d
        else:
            i, j = divmod(pair - top, count)
            d = {"kind": _STRONG if st else _WEAK, "family": family, "via": f"{house_text[h]}#{keep[i][1]}"}
            group_adj[i][groups[j]] = group_adj[j][groups[i]] = d


def _group_entry(tables: _Tables, cells: tuple[int, ...], digit: int) -> tuple:
    """(cell bits, Group, houses holding every cell, the group's `sort_key`) of a candidate group."""
    bits = 0
    for c in cells:
        bits |= 1 << c
    houses = tables.cell_houses[cells[0]].intersection(*(tables.cell_houses[c] for c in cells[1:]))
    group = Group(tuple(tables.cells[c] for c in cells), digit)
    return bits, group, tuple(sorted(houses)), sort_key(group)


def _als_links(grid: Grid, als_max_size: int, tables: _Tables, node: dict, adj: dict, nbrs: list,
               live_bits: list[int]) -> None:
    """ALS nodes and their links (see the module docstring), as networkx's add_node and
    add_edge would add them; the ALSs of `als_cells`, by first house then cells
    (`linkgraph.graph.als.als_records`' order). `nbrs`: the candidates' adjacency dicts by
    index, as `_candidate_links` returns them; `live_bits` as for `_group_links`."""
    geo = grid.geometry
    n, ncells = geo.size, geo.number_of_cells
    masks = (grid.cands.astype(np.int64) @ (1 << np.arange(n, dtype=np.int64))).tolist()
    peers, allc, known = tables.peers, tables.cands, tables.als_sets
    tables.bound()
    found = []
    for row in map(tuple, als_cells(grid, max_size=als_max_size).tolist()):
        entry = known.get(row)
        if entry is None:
            entry = known[row] = _als_entry(tables, tuple(c for c in row if c < ncells))
        found.append(entry)
    found.sort(key=itemgetter(0, 1))  # by house, then cells
    fam = Family.ALS.value
    als_kind, cand_kind = NodeKind.ALS.value, NodeKind.CANDIDATE.value
    digit_sets, peer_and = tables.digit_sets, tables.peer_and
    for house, cells, cell_nodes, text, inside, house_text in found:
        mask = 0
        for c in cells:
            mask |= masks[c]
        digits = digit_sets.get(mask)
        if digits is None:
            digits = digit_sets[mask] = _digit_set(mask, n)
        digits, digits_text = digits
        als = Als(cell_nodes, digits)
        via = text + digits_text  # str(als)
        holders = [live_bits[y - 1] & inside for y in digits]  # per digit: the ALS cells holding it
        single: dict = {}  # digit -> its candidate, for a digit in one cell of the ALS
        where: dict = {}  # digit -> that cell
        for y, held in zip(digits, holders):
            if held & (held - 1) == 0:
                c = where[y] = held.bit_length() - 1
                single[y] = allc[c * n + y - 1]
        attrs = {"kind": als_kind, "house": house_text, "single": single}
        if als in node:
            node[als].update(attrs)
        else:
            node[als] = attrs
            adj[als] = {}
        if len(cells) < 2:
            continue  # a bivalue cell: its links are the cell's own strong link
        ds = list(single)  # ascending, as the digits
        for i, x in enumerate(ds):
            cx = where[x]
            for y in ds[i + 1:]:
                if cx != where[y]:
                    u, v = single[x], single[y]
                    if u not in adj or v not in adj[u]:
                        _add_edges(node, adj, ((u, v, {"kind": _STRONG, "family": fam, "via": via}),))
        if not single:
            continue
        mine = adj[als]
        lone = len(single) == 1
        for y, held in zip(digits, holders):
            if lone and y in single:
                continue  # no digit x != y with one cell in the ALS
            common = peer_and.get(held)
            if common is None:
                common = peer_and[held] = _common_peers(peers, held)
            seen = live_bits[y - 1] & ~inside & common
            while seen:  # each o once: a new edge of this new ALS node
                low = seen & -seen
                seen ^= low
                k = (low.bit_length() - 1) * n + y - 1
                o = allc[k]
                inner = nbrs[k]
                if inner is None:
                    if o not in node:
                        node[o] = {"kind": cand_kind}
                        adj[o] = {}
                    inner = nbrs[k] = adj[o]
                mine[o] = inner[als] = {"kind": _WEAK, "family": fam, "via": via}


def _als_entry(tables: _Tables, cells: tuple[int, ...]) -> tuple:
    """(first house holding every cell, the cells, the Cell values, their text as
    `Als.cells_text` writes it, cell bits, the house's text) of an ALS's cells."""
    houses = tables.cell_houses[cells[0]].intersection(*(tables.cell_houses[c] for c in cells[1:]))
    cell_nodes = tuple(tables.cells[c] for c in cells)
    bits = 0
    for c in cells:
        bits |= 1 << c
    house = min(houses)
    return house, cells, cell_nodes, Als(cell_nodes, (1,)).cells_text, bits, tables.house_text[house]


def _common_peers(peers: list[int], cells: int) -> int:
    """The cells (bits) that see every cell of the bitmask `cells`."""
    common = -1
    while cells:
        low = cells & -cells
        cells ^= low
        common &= peers[low.bit_length() - 1]
    return common


def _digit_set(mask: int, n: int) -> tuple[tuple[int, ...], str]:
    """The digits of a mask and their text as `str(Als)` ends: ``{12378}``, or ``{7,8,12}``
    once a digit has two characters."""
    digits = tuple(d + 1 for d in range(n) if mask >> d & 1)
    sep = "," if any(d >= 10 for d in digits) else ""
    return digits, "{" + sep.join(map(str, digits)) + "}"


# ---- metrics -----------------------------------------------------------------


def _unsolved_candidates(G: nx.Graph) -> list[Candidate]:
    per_cell: dict = {}
    for node, kind in G.nodes(data="kind"):
        if kind == NodeKind.CANDIDATE:
            per_cell[node.cell] = per_cell.get(node.cell, 0) + 1
    return [node for node, kind in G.nodes(data="kind") if kind == NodeKind.CANDIDATE and per_cell[node.cell] > 1]


def link_counts(G: nx.Graph) -> dict:
    """The link counts of a link graph, as ``linkgraph links --format json`` prints them.

    Returns
    -------
    dict
        ``candidates`` (live candidates of unsolved cells), ``strong`` (candidate
        pairs that are the only two live members of a set X), ``weak``
        (candidate pairs sharing a set X, strong ones included), ``groups``,
        ``als`` (node counts), ``edges`` (``{"kind/family": count}`` over all
        edges of `G`) and ``density`` (`networkx.density` of the subgraph of
        unsolved candidates). The pair counts read the ``cell`` and ``house``
        edges, so they need a graph built with both families.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> counts = lg.link_counts(lg.link_graph(grid))
    >>> counts["candidates"], counts["strong"], counts["weak"]
    (42, 61, 82)
    """
    cands = set(_unsolved_candidates(G))
    strong = weak = 0
    edges: dict[str, int] = {}
    for u, v, d in G.edges(data=True):
        key = f"{d['kind']}/{d['family']}"
        edges[key] = edges.get(key, 0) + 1
        if d["family"] in (Family.CELL, Family.HOUSE) and u in cands and v in cands:
            weak += 1
            strong += d["kind"] == _STRONG
    kinds = [k for _, k in G.nodes(data="kind")]
    return {
        "candidates": len(cands),
        "strong": strong,
        "weak": weak,
        "groups": kinds.count(NodeKind.GROUP),
        "als": kinds.count(NodeKind.ALS),
        "edges": dict(sorted(edges.items())),
        "density": round(nx.density(G.subgraph(cands)), 6) if cands else 0.0,
    }


def degree_summary(G: nx.Graph, *, kind: str | None = None) -> dict:
    """Min, max, mean and median degree over the candidate nodes of unsolved cells.

    With `kind` (``strong`` or ``weak``) only edges of that kind count.

    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> lg.graph.links.degree_summary(lg.link_graph(grid, families=["cell", "house"]), kind="strong")["max"]
    4
    """
    if kind is not None:
        check_choice("kind", [kind], [k.value for k in LinkKind])
    cands = _unsolved_candidates(G)
    degs = []
    for node in cands:
        if kind is None:
            degs.append(G.degree(node))
        else:
            degs.append(sum(1 for _, _, k in G.edges(node, data="kind") if k == kind))
    if not degs:
        return {"nodes": 0, "min": 0, "max": 0, "mean": 0.0, "median": 0.0}
    return {
        "nodes": len(degs),
        "min": min(degs),
        "max": max(degs),
        "mean": round(statistics.fmean(degs), 3),
        "median": float(statistics.median(degs)),
    }


def strong_components(G: nx.Graph) -> list[list]:
    """Connected components of the strong-link subgraph (nodes with a strong link), largest first.

    Each component is a sorted list of nodes.

    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> comps = lg.graph.links.strong_components(lg.link_graph(grid, families=["cell", "house"]))
    >>> [len(c) for c in comps]
    [33, 7]
    """
    S = nx.Graph()
    S.add_edges_from((u, v) for u, v, k in G.edges(data="kind") if k == _STRONG)
    comps = [sorted(c, key=sort_key) for c in nx.connected_components(S)]
    comps.sort(key=lambda c: (-len(c), sort_key(c[0])))
    return comps
