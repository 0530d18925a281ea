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

import statistics
from collections.abc import Collection

import networkx as nx
import numpy as np

from linkgraph.graph.als import DEFAULT_ALS_MAX_SIZE, als_records, cell_bits, peer_bits
from linkgraph.errors import OptionError, check_choice
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
    G = nx.Graph(grid=grid, families=families, als_max_size=als_max_size)
    geo = grid.geometry
    counts = grid.counts
    cand_nodes: dict[int, Candidate] = {}

    def cand(k: int) -> Candidate:
        node = cand_nodes.get(k)
        if node is None:
            node = cand_nodes[k] = geo.candidate(k)
        return node

    unsolved_live = np.flatnonzero(grid.live & np.repeat(counts > 1, geo.size))
    nodes = [cand(int(k)) for k in unsolved_live]
    edges = _candidate_edges(grid, families, cand)
    G.add_nodes_from(nodes, kind=NodeKind.CANDIDATE.value)
    G.add_nodes_from((u for u, v, _ in edges), kind=NodeKind.CANDIDATE.value)
    G.add_nodes_from((v for u, v, _ in edges), kind=NodeKind.CANDIDATE.value)
    G.add_edges_from(edges)
    if Family.GROUP in families:
        groups, group_edges = _group_links(grid, cand)
        G.add_nodes_from(groups, kind=NodeKind.GROUP.value)
        G.add_edges_from(group_edges)
    if Family.ALS in families:
        _add_als(G, grid, als_max_size, cand)
    return G


def _candidate_edges(grid: Grid, families: tuple[str, ...], cand) -> list[tuple]:
    """(u, v, attrs) for every linked candidate pair, best set first, sorted by index."""
    use_cell, use_house = Family.CELL in families, Family.HOUSE in families
    if not (use_cell or use_house):
        return []
    geo = grid.geometry
    n, ncells, ncands = geo.size, geo.number_of_cells, geo.number_of_candidates
    members = geo.set_members
    lm = grid.live[members]
    I, J = np.triu_indices(n, 1)
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
    sel = order[first]
    attrs: dict[tuple[int, bool], dict] = {}
    out = []
    for u, v, s, st in zip(lo[sel].tolist(), hi[sel].tolist(), s_idx[sel].tolist(), strong[sel].tolist()):
        d = attrs.get((s, st))
        if d is None:
            family = Family.CELL.value if s < ncells else Family.HOUSE.value
            d = attrs[(s, st)] = {"kind": _STRONG if st else _WEAK, "family": family, "via": str(geo.setx(s))}
        out.append((cand(u), cand(v), d))
    return out


def _intersections(grid: Grid) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(cells, houses holding them all) for each distinct intersection of two houses of 2+ cells
    (`Geometry.intersections`), by cells."""
    geo = grid.geometry
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for _, cells in geo.intersections:
        if cells not in seen:
            seen[cells] = tuple(sorted(set(geo.cell_houses[cells[0]]).intersection(*(geo.cell_houses[c] for c in cells))))
    return sorted(seen.items())


def _group_links(grid: Grid, cand) -> tuple[list[Group], list[tuple]]:
    """Group nodes that have a strong link, and every link of those groups."""
    geo = grid.geometry
    n = geo.size
    cands = grid.cands
    live_bits = cell_bits(cands)  # per digit: bitmask of cells holding it
    house_bits = [sum(1 << int(c) for c in cells) for cells in geo.house_cells]
    # candidate groups: (bits, digit) -> (Group, houses)
    found: dict[tuple[int, int], tuple[Group, tuple[int, ...]]] = {}
    for cells, _ in _intersections(grid):
        sub = cands[list(cells)]
        for d0 in np.flatnonzero(sub.sum(axis=0) >= 2).tolist():
            live_cells = [c for c, ok in zip(cells, sub[:, d0]) if ok]
            bits = sum(1 << c for c in live_cells)
            if (bits, d0 + 1) in found:
                continue
            common = set(geo.cell_houses[live_cells[0]])
            for c in live_cells[1:]:
                common &= set(geo.cell_houses[c])
            group = Group(tuple(geo.cell(c) for c in live_cells), d0 + 1)
            found[(bits, d0 + 1)] = (group, tuple(sorted(common)))
    # links per group, house by house: (other node key) -> (strong, house)
    links: dict[tuple[int, int], dict[tuple, tuple[bool, int]]] = {}
    for (bits, digit), (group, houses) in found.items():
        mine: dict[tuple, tuple[bool, int]] = {}
        for h in houses:
            others = live_bits[digit - 1] & house_bits[h]
            if not others & bits:
                continue
            others &= ~bits
            if not others:
                continue
            single = others & (others - 1) == 0
            if single or (others, digit) in found:
                key = ("c", others) if single else ("g", others)
                prev = mine.get(key)
                if prev is None or not prev[0]:
                    mine[key] = (True, h)
            rest = others
            while rest:
                low = rest & -rest
                rest ^= low
                mine.setdefault(("c", low), (False, h))
            for (obits, odigit) in found:
                if odigit == digit and obits & house_bits[h] == obits and not obits & bits:
                    mine.setdefault(("g", obits), (False, h))
        links[(bits, digit)] = mine
    keep = {key for key, mine in links.items() if any(st for st, _ in mine.values())}
    groups = sorted((found[key][0] for key in keep), key=sort_key)
    edges: dict[tuple, tuple] = {}
    for key in sorted(keep, key=lambda k: sort_key(found[k][0])):
        group = found[key][0]
        digit = key[1]
        for (what, obits), (st, h) in sorted(links[key].items(), key=lambda kv: (kv[0][0], kv[0][1])):
            if what == "c":
                c = obits.bit_length() - 1
                other = cand(c * n + digit - 1)
            else:
                if (obits, digit) not in keep:
                    continue
                other = found[(obits, digit)][0]
            pair = (group, other) if sort_key(group) <= sort_key(other) else (other, group)
            prev = edges.get(pair)
            if prev is not None and (prev[0] or not st):
                continue
            edges[pair] = (st, h)
    out = []
    for (u, v), (st, h) in edges.items():
        via = f"{geo.houses[h]}#{u.digit}"
        out.append((u, v, {"kind": _STRONG if st else _WEAK, "family": Family.GROUP.value, "via": via}))
    out.sort(key=lambda e: (sort_key(e[0]), sort_key(e[1])))
    return groups, out


def _add_als(G: nx.Graph, grid: Grid, als_max_size: int, cand) -> None:
    """Add ALS nodes and their links (see the module docstring)."""
    geo = grid.geometry
    n = geo.size
    cands = grid.cands
    live_bits = cell_bits(cands)
    peers = peer_bits(geo)
    fam = Family.ALS.value
    for als, house, cells in als_records(grid, max_size=als_max_size):
        via = str(als)
        holders = {d: [c for c in cells if cands[c, d - 1]] for d in als.digits}
        single = {d: cand(cs[0] * n + d - 1) for d, cs in holders.items() if len(cs) == 1}
        G.add_node(als, kind=NodeKind.ALS.value, house=str(geo.houses[house]), single=single)
        if len(cells) < 2:
            continue  # a bivalue cell: its links are the cell's own strong link
        strong = {"kind": _STRONG, "family": fam, "via": via}
        ds = sorted(single)
        for i, x in enumerate(ds):
            for y in ds[i + 1:]:
                u, v = single[x], single[y]
                if u.cell != v.cell and not G.has_edge(u, v):
                    G.add_edge(u, v, **strong)
        if not single:
            continue
        inside = sum(1 << c for c in cells)
        for y, ys in holders.items():
            if not any(x != y for x in single):
                continue
            seen = live_bits[y - 1] & ~inside
            for c in ys:
                seen &= peers[c]
            while seen:
                low = seen & -seen
                seen ^= low
                o = cand((low.bit_length() - 1) * n + y - 1)
                if o not in G:
                    G.add_node(o, kind=NodeKind.CANDIDATE.value)
                G.add_edge(als, o, kind=_WEAK, family=fam, via=via)


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
