"""The implication digraph over literals, its compiled integer form, and path queries.

`implication_graph` turns a link graph into a `networkx.DiGraph` whose nodes
are `Literal` values (``+r2c8#1`` ON, ``-r2c8#1`` OFF) and whose edges are
single inferences:

==============================  =================================================  ======
link in G                       edges in D                                         kind
==============================  =================================================  ======
weak A - B                      +A -> -B, +B -> -A                                 weak
strong A = B (a set X)          the two weak edges, and -A -> +B, -B -> +A         strong
ALS strong cand(x) = cand(y)    -cand(x) -> +cand(y), -cand(y) -> +cand(x)         strong
ALS weak ``Als - o``            -cand(x) -> -o for each digit x != o's digit       strong
                                with one cell in the ALS
==============================  =================================================  ======

Group nodes take part like candidates (``+r2c46#2`` means 2 is in one of the
cells). Edge attributes are ``kind``, ``family`` and ``via`` copied from the
link; ALS edges carry the ALS as ``via`` (``r2468c4{12378}``).

**Kind follows the source literal**: every edge leaving an ON literal is
``weak`` and every edge leaving an OFF literal is ``strong``. That is how GNPX
writes links (``[W r2c8/+1 -> r2c4/-1]``, ``[S r2c4/-1 -> r3c5/+1]``) and it
holds for the ALS edges too: both start from an OFF literal and use the
ALS's "at least n of n+1 digits" side, so both are ``strong``, including the
ALS-XZ style edge ``-cand(x) -> -o`` that ends OFF (steps.py: with ``v`` OFF,
``v`` sees every ALS cell holding its digit). An ALS whose digit x lies in
several of its cells gives no edge from x: making x OFF there takes several
OFF literals at once, a net's join, not one chain link.

When two links give the same ordered pair of literals, the first one kept is
the link graph's (set X links, then ALS links in ALS order).

`compile_implications` packs D into integer arrays (CSR) for the batched
searches of `linkgraph.chains.search` and `linkgraph.nets.search`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from linkgraph.graph.links import without_collection
from linkgraph.model import Als, Candidate, Family, LinkKind, Literal, NodeKind, sort_key

__all__ = [
    "FAMILY_CODES",
    "KIND_CODES",
    "CompiledImplications",
    "compile_implications",
    "implication_graph",
    "implication_path",
    "implications",
    "path_links",
]

_STRONG = LinkKind.STRONG.value
_WEAK = LinkKind.WEAK.value
_ALS = Family.ALS.value

#: Edge kind codes of `CompiledImplications.kind`.
KIND_CODES: tuple[str, ...] = (_WEAK, _STRONG)
#: Edge family codes of `CompiledImplications.family`.
FAMILY_CODES: tuple[str, ...] = tuple(f.value for f in Family)


@without_collection
def implication_graph(G: nx.Graph) -> nx.DiGraph:
    """The literal digraph of link graph `G` (see the module docstring for the rules).

    Parameters
    ----------
    G : networkx.Graph
        A link graph from `linkgraph.link_graph`.

    Returns
    -------
    networkx.DiGraph
        Nodes: ``+X`` and ``-X`` for every candidate and group node X of `G`
        (ALS nodes only appear through their edges' ``via``). Edge attributes
        ``kind``, ``family``, ``via``. ``D.graph`` keeps ``G.graph``.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> D = lg.implication_graph(lg.link_graph(grid))
    >>> D.edges[lg.Literal.parse("-r2c4#1"), lg.Literal.parse("+r4c4#3")]
    {'kind': 'strong', 'family': 'als', 'via': 'r2468c4{12378}'}
    >>> D.edges[lg.Literal.parse("+r2c8#1"), lg.Literal.parse("-r2c4#1")]
    {'kind': 'weak', 'family': 'house', 'via': 'r2#1'}
    """
    # literal 2i is +node_i, 2i + 1 is -node_i (the graph's node order, ALS nodes left out);
    # succ[a] / pred[b] are the digraph's adjacency dicts of literal a / b, filled in the
    # order add_edges_from would fill them, each edge with its own attribute dict
    index: dict = {}
    place: dict = {}  # node -> (its rank in G's node order, its literal index or -1)
    literals: list[Literal] = []
    memo = _LITERALS
    if len(memo) >= 100_000:
        memo.clear()
    for rank, (node, attrs) in enumerate(G._node.items()):  # G.nodes(data="kind")
        if attrs.get("kind") != NodeKind.ALS:
            i = index[node] = len(literals)
            place[node] = (rank, i)
            pair = memo.get(node)
            if pair is None:
                pair = memo[node] = (Literal(node, on=True), Literal(node, on=False))
            literals.extend(pair)
        else:
            place[node] = (rank, -1)
    succ: list[dict] = [{} for _ in literals]
    pred: list[dict] = [{} for _ in literals]
    als_edges: list[tuple] = []
    # G.edges(data=True) without its views: each pair once, from the end that comes first
    for rank, (u, nbrs) in enumerate(G._adj.items()):
        iu = index.get(u)
        for v, d in nbrs.items():
            rv, iv = place[v]
            if rv < rank:
                continue
            if d["family"] == _ALS:
                als_edges.append((u, v, d))
                continue
            if iu is None or iv < 0:
                raise KeyError(u if iu is None else v)  # a set X link at an ALS node
            on_u, off_u, on_v, off_v = literals[iu], literals[iu + 1], literals[iv], literals[iv + 1]
            if d["kind"] == _WEAK:
                e = d.copy()
                succ[iu][off_v] = pred[iv + 1][on_u] = e  # +u -> -v
                e = d.copy()
                succ[iv][off_u] = pred[iu + 1][on_v] = e  # +v -> -u
            else:
                e = {"kind": _WEAK, "family": d["family"], "via": d["via"]}
                succ[iu][off_v] = pred[iv + 1][on_u] = e
                e = e.copy()
                succ[iv][off_u] = pred[iu + 1][on_v] = e
                e = d.copy()
                succ[iu + 1][on_v] = pred[iv][off_u] = e  # -u -> +v
                e = d.copy()
                succ[iv + 1][on_u] = pred[iu][off_v] = e  # -v -> +u
    # by (sort_key(u), sort_key(v)): each node's key computed once, then ranked as an int
    ends = {node: None for u, v, _ in als_edges for node in (u, v)}
    ranked = sorted(ends, key=sort_key)
    order = {node: r for r, node in enumerate(ranked)}
    width = len(ranked)
    als_edges.sort(key=lambda e: order[e[0]] * width + order[e[1]])
    singles: dict = {}
    for u, v, d in als_edges:  # a pair already linked keeps its first edge
        if type(u) is Als or type(v) is Als:
            als, o = (u, v) if type(u) is Als else (v, u)
            single = singles.get(als)
            if single is None:
                single = singles[als] = sorted(G._node[als]["single"].items())
            attrs = {"kind": _STRONG, "family": _ALS, "via": d["via"]}
            io = index[o] + 1
            off_o = literals[io]
            for x, c in single:
                if x != o.digit:
                    ic = index[c] + 1
                    if off_o not in succ[ic]:  # -cand(x) -> -o
                        succ[ic][off_o] = pred[io][literals[ic]] = attrs.copy()
        else:
            iu, iv = index[u], index[v]
            if literals[iv] not in succ[iu + 1]:
                succ[iu + 1][literals[iv]] = pred[iv][literals[iu + 1]] = d.copy()
            if literals[iu] not in succ[iv + 1]:
                succ[iv + 1][literals[iu]] = pred[iu][literals[iv + 1]] = d.copy()
    D = nx.DiGraph(**G.graph)
    # networkx resets its cached views when these are set (its documented way to swap them)
    D._node = {lit: {} for lit in literals}
    D._adj = dict(zip(literals, succ))  # also sets D._succ
    D._pred = dict(zip(literals, pred))
    return D




#: ON and OFF literals of the nodes met lately, (+node, -node) by node: frozen values, shared
#: by every digraph (cleared when it holds 100,000).
_LITERALS: dict = {}


# ---- compiled form -------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CompiledImplications:
    """A literal digraph as integer arrays, for fast batched search.

    Literal ``i`` is ``literals[i]``; literals are sorted by `linkgraph.model.sort_key`
    (candidates before groups, ``+X`` just before ``-X``). The out-edges of
    literal ``i`` are ``e in range(indptr[i], indptr[i + 1])`` with target
    ``indices[e]`` (ascending), kind ``KIND_CODES[kind[e]]`` (0 weak, 1 strong),
    family ``FAMILY_CODES[family[e]]`` and via ``vias[via[e]]``.

    Attributes
    ----------
    literals : tuple of Literal
    index : dict
        Literal -> int.
    indptr, indices : numpy.ndarray
        CSR arrays (int32).
    kind, family : numpy.ndarray
        int8 per edge.
    via : numpy.ndarray
        int32 per edge, an index into `vias`.
    vias : tuple of str
    negation : numpy.ndarray
        int32: index of ``~literals[i]``.
    on : numpy.ndarray
        bool: ``literals[i].on``.
    cand : numpy.ndarray
        int32: the geometry candidate index of a candidate literal, -1 for a group.
    """

    literals: tuple[Literal, ...]
    index: dict[Literal, int] = field(repr=False)
    indptr: np.ndarray = field(repr=False)
    indices: np.ndarray = field(repr=False)
    kind: np.ndarray = field(repr=False)
    family: np.ndarray = field(repr=False)
    via: np.ndarray = field(repr=False)
    vias: tuple[str, ...] = field(repr=False)
    negation: np.ndarray = field(repr=False)
    on: np.ndarray = field(repr=False)
    cand: np.ndarray = field(repr=False)

    @property
    def number_of_literals(self) -> int:
        return len(self.literals)

    @property
    def number_of_edges(self) -> int:
        return int(self.indptr[-1])

    def successors(self, i: int) -> np.ndarray:
        """Target indices of literal `i`'s out-edges."""
        return self.indices[self.indptr[i] : self.indptr[i + 1]]

    def edge(self, i: int, j: int) -> dict:
        """The attributes of edge ``i -> j`` as in D: kind, family, via. KeyError if absent."""
        lo, hi = int(self.indptr[i]), int(self.indptr[i + 1])
        k = lo + int(np.searchsorted(self.indices[lo:hi], j))
        if k >= hi or self.indices[k] != j:
            raise KeyError((self.literals[i], self.literals[j]))
        return {
            "kind": KIND_CODES[self.kind[k]],
            "family": FAMILY_CODES[self.family[k]],
            "via": self.vias[self.via[k]],
        }

    def adjacency(self) -> np.ndarray:
        """Dense ``(L, L)`` bool adjacency matrix."""
        L = len(self.literals)
        A = np.zeros((L, L), dtype=bool)
        A[np.repeat(np.arange(L), np.diff(self.indptr)), self.indices] = True
        return A


def compile_implications(D: nx.DiGraph) -> CompiledImplications:
    """Pack literal digraph `D` into a `CompiledImplications` (CSR arrays).

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> C = lg.compile_implications(lg.implication_graph(lg.link_graph(grid)))
    >>> i = C.index[lg.Literal.parse("-r2c4#1")]
    >>> j = C.index[lg.Literal.parse("+r4c4#3")]
    >>> C.edge(i, j)["via"], C.number_of_literals == 2 * 42 + 2 * 3
    ('r2468c4{12378}', True)
    """
    lits = sorted(D.nodes, key=sort_key)
    index = {lit: i for i, lit in enumerate(lits)}
    geo = D.graph["grid"].geometry if "grid" in D.graph else None
    kind_code = {k: i for i, k in enumerate(KIND_CODES)}
    fam_code = {f: i for i, f in enumerate(FAMILY_CODES)}
    via_code: dict[str, int] = {}
    src, dst, kinds, fams, vias = [], [], [], [], []
    for a, b, d in D.edges(data=True):
        src.append(index[a])
        dst.append(index[b])
        kinds.append(kind_code[d["kind"]])
        fams.append(fam_code[d["family"]])
        vias.append(via_code.setdefault(d["via"], len(via_code)))
    src_a = np.array(src, dtype=np.int64)
    dst_a = np.array(dst, dtype=np.int64)
    order = np.lexsort((dst_a, src_a))
    L = len(lits)
    indptr = np.zeros(L + 1, dtype=np.int32)
    np.cumsum(np.bincount(src_a, minlength=L), out=indptr[1:])
    cand = np.full(L, -1, dtype=np.int32)
    for i, lit in enumerate(lits):
        if isinstance(lit.cand, Candidate) and geo is not None:
            cand[i] = geo.index(lit.cand)
    return CompiledImplications(
        literals=tuple(lits),
        index=index,
        indptr=indptr,
        indices=dst_a[order].astype(np.int32),
        kind=np.array(kinds, dtype=np.int8)[order],
        family=np.array(fams, dtype=np.int8)[order],
        via=np.array(vias, dtype=np.int32)[order],
        vias=tuple(via_code),
        negation=np.array([index[~lit] for lit in lits], dtype=np.int32),
        on=np.array([lit.on for lit in lits], dtype=bool),
        cand=cand,
    )


# ---- queries -----------------------------------------------------------------


def _bfs(D: nx.DiGraph, start: Literal, goal: Literal | None = None) -> dict[Literal, Literal | None]:
    """Parent pointers of a breadth-first search, successors in sort_key order."""
    parent: dict[Literal, Literal | None] = {start: None}
    queue = deque([start])
    while queue:
        lit = queue.popleft()
        for nxt in sorted(D.successors(lit), key=sort_key):
            if nxt not in parent:
                parent[nxt] = lit
                if nxt == goal:
                    return parent
                queue.append(nxt)
    return parent


def _chain(parent: dict, end: Literal) -> list[Literal]:
    out = [end]
    while parent[out[-1]] is not None:
        out.append(parent[out[-1]])
    return out[::-1]


def _check_literal(D: nx.DiGraph, lit: Literal, what: str) -> None:
    from linkgraph.errors import NotationError

    if not isinstance(lit, Literal):
        raise NotationError(f"{what}: expected a Literal, found {type(lit).__name__}")
    if lit not in D:
        raise NotationError(f"{what}: {lit} is not a literal of this graph (not a live candidate?)")


def implications(D: nx.DiGraph, lit: Literal) -> dict[Literal, tuple[int, list[Literal]]]:
    """Every literal that `lit` implies, with its distance and one shortest chain.

    Parameters
    ----------
    D : networkx.DiGraph
        An implication graph.
    lit : Literal
        The premise.

    Returns
    -------
    dict
        ``{literal: (links, chain)}`` for every literal reachable from `lit`
        (not `lit` itself), where ``chain`` is the list of literals from `lit`
        to it, ``links == len(chain) - 1``. Ties go to the chain whose literals
        come first in `sort_key` order, breadth first.

    Raises
    ------
    NotationError
        When `lit` is not a node of `D`.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> D = lg.implication_graph(lg.link_graph(grid))
    >>> found = lg.implications(D, lg.Literal.parse("+r2c8#2"))
    >>> links, chain = found[lg.Literal.parse("+r6c6#2")]
    >>> links, [str(x) for x in chain]
    (2, ['+r2c8#2', '-r2c6#2', '+r6c6#2'])
    """
    _check_literal(D, lit, "implications")
    parent = _bfs(D, lit)
    out = {}
    for node in parent:
        if node != lit:
            chain = _chain(parent, node)
            out[node] = (len(chain) - 1, chain)
    return out


def implication_path(D: nx.DiGraph, a: Literal, b: Literal) -> list[Literal] | None:
    """The shortest implication chain from `a` to `b` (list of literals), or None.

    Shortest by number of links; ties are broken breadth first with successors
    in `sort_key` order, so the answer is deterministic.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> D = lg.implication_graph(lg.link_graph(grid))
    >>> path = lg.implication_path(D, lg.Literal.parse("+r2c8#1"), lg.Literal.parse("+r6c6#2"))
    >>> len(path) - 1 <= 8
    True
    """
    _check_literal(D, a, "implication_path")
    _check_literal(D, b, "implication_path")
    if a == b:
        return [a]
    parent = _bfs(D, a, goal=b)
    return _chain(parent, b) if b in parent else None


def path_links(D: nx.DiGraph, path: Iterable[Literal]) -> list[dict]:
    """The links of a chain as plain dicts: ``{"from", "to", "kind", "family", "via"}``.

    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> D = lg.implication_graph(lg.link_graph(grid))
    >>> path = [lg.Literal.parse("+r2c8#2"), lg.Literal.parse("-r2c6#2")]
    >>> lg.path_links(D, path)
    [{'from': '+r2c8#2', 'to': '-r2c6#2', 'kind': 'weak', 'family': 'house', 'via': 'r2#2'}]
    """
    path = list(path)
    out = []
    for u, v in zip(path, path[1:]):
        d = D.edges[u, v]
        out.append({"from": str(u), "to": str(v), "kind": d["kind"], "family": d["family"], "via": d["via"]})
    return out
