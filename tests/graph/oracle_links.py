"""The link graph and implication digraph construction as it stood before the array build
(issue 20, round 3), kept verbatim as the oracle the fast construction is compared with: one
networkx ``add_nodes_from`` / ``add_edges_from`` / ``add_edge`` call per item, as the
library documents them, so any difference in nodes, edges, attributes or their order shows."""

from __future__ import annotations

from collections.abc import Collection

import networkx as nx
import numpy as np

from linkgraph.graph.als import DEFAULT_ALS_MAX_SIZE, als_records, cell_bits, peer_bits
from linkgraph.graph.links import FAMILIES, check_link_options
from linkgraph.grid import Grid, as_grid
from linkgraph.model import Als, Candidate, Family, Group, LinkKind, Literal, NodeKind, sort_key

_STRONG = LinkKind.STRONG.value
_WEAK = LinkKind.WEAK.value
_ALS = Family.ALS.value


def old_link_graph(
    grid: Grid | str,
    *,
    families: Collection[str] = FAMILIES,
    als_max_size: int = DEFAULT_ALS_MAX_SIZE,
) -> nx.Graph:
    """The link graph as `linkgraph.graph.links.link_graph` built it before issue 20 round 3."""
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


def old_implication_graph(G: nx.Graph) -> nx.DiGraph:
    """The literal digraph as `linkgraph.graph.implication.implication_graph` built it before."""
    on: dict = {}
    off: dict = {}
    for node, kind in G.nodes(data="kind"):
        if kind != NodeKind.ALS:
            on[node] = Literal(node, on=True)
            off[node] = Literal(node, on=False)
    edges: dict[tuple[Literal, Literal], dict] = {}
    als_edges: list[tuple] = []
    for u, v, d in G.edges(data=True):
        if d["family"] == _ALS:
            als_edges.append((u, v, d))
            continue
        edges.setdefault((on[u], off[v]), _weak_attrs(d))
        edges.setdefault((on[v], off[u]), _weak_attrs(d))
        if d["kind"] == _STRONG:
            edges.setdefault((off[u], on[v]), d)
            edges.setdefault((off[v], on[u]), d)
    als_edges.sort(key=lambda e: (sort_key(e[0]), sort_key(e[1])))
    for u, v, d in als_edges:
        if isinstance(u, Als) or isinstance(v, Als):
            als, o = (u, v) if isinstance(u, Als) else (v, u)
            attrs = {"kind": _STRONG, "family": _ALS, "via": d["via"]}
            for x, c in sorted(G.nodes[als]["single"].items()):
                if x != o.digit:
                    edges.setdefault((off[c], off[o]), attrs)
        else:
            edges.setdefault((off[u], on[v]), d)
            edges.setdefault((off[v], on[u]), d)
    D = nx.DiGraph(**G.graph)
    D.add_nodes_from(lit for node in on for lit in (on[node], off[node]))
    D.add_edges_from((a, b, d) for (a, b), d in edges.items())
    return D


_WEAK_CACHE: dict[int, dict] = {}


def _weak_attrs(d: dict) -> dict:
    """The weak edge attributes of link `d` (the same dict for a weak link)."""
    if d["kind"] == _WEAK:
        return d
    return {"kind": _WEAK, "family": d["family"], "via": d["via"]}
