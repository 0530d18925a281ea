"""LiteralGraph: an implication digraph over literals, as integer arrays for batched search.

The forcing-chain search (`linkgraph.chains.search`) runs over this form, not over
networkx objects: nodes (candidates, then group nodes) are numbered in
`linkgraph.model.sort_key` order, node ``i`` has literals ``2*i`` (ON) and
``2*i + 1`` (OFF), and the edges are flat int arrays, sorted by source then
destination, with codes for their ``kind`` (`WEAK`, `STRONG`), ``family``
(an index into `FAMILIES`) and ``via`` (an index into ``vias``).
`LiteralGraph.to_networkx` turns it back into a `networkx.DiGraph` over
`Literal` values, and `compile_digraph` compiles any such implication digraph
into it (for example ``implication_graph(link_graph(grid))``). The fast path
from a grid's candidates, `compile_grid`, and the rules its edges follow are
in `linkgraph.graph.compiler`, which re-exports these names.

Examples
--------
>>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
>>> LG = lg.graph.compiler.compile_grid(grid)
>>> LG.literal(0).on, LG.literal(1).on  # node 0 ON, node 0 OFF
(True, False)
>>> bool((LG.src[:-1] <= LG.src[1:]).all())  # edges by source
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Family, LinkKind, Literal, sort_key

__all__ = ["FAMILIES", "LiteralGraph", "compile_digraph"]

FAMILIES = ("cell", "house", "group", "als")
KINDS = (LinkKind.WEAK, LinkKind.STRONG)
_FAMILY = tuple(Family(f) for f in FAMILIES)
WEAK, STRONG = 0, 1
F_CELL, F_HOUSE, F_GROUP, F_ALS = 0, 1, 2, 3


@dataclass(eq=False)
class LiteralGraph:
    """An implication digraph over literals as integer arrays (see the module docstring).

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> LG = lg.graph.compiler.compile_grid(grid)
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


def compile_digraph(D: nx.DiGraph, grid: Grid) -> LiteralGraph:
    """Compile an implication digraph over `Literal` values (edge attributes kind/family/via).

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> D = lg.graph.compiler.compile_grid(grid).to_networkx()
    >>> LG = lg.graph.compiler.compile_digraph(D, grid)
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
