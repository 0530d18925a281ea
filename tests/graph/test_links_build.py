"""The link graph and the implication digraph, built from arrays straight into networkx's
dicts, are the graphs the one-call-per-item construction built (`oracle_links`, kept
verbatim): same nodes, edges and attributes, in the same order, on positions of every
geometry, every family choice and two ALS bounds."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import linkgraph as lg
from linkgraph.graph.links import FAMILIES

from .oracle_links import old_implication_graph, old_link_graph
from .test_links import VARIANTS, sound_eliminations, variant_positions


def assert_same_graph(A: nx.Graph, B: nx.Graph) -> None:
    """Equal as networkx compares graphs, and equal in every order a caller can see."""
    assert type(A) is type(B)
    assert nx.utils.graphs_equal(A, B)
    assert list(A.nodes(data=True)) == list(B.nodes(data=True))
    assert list(A.edges(data=True)) == list(B.edges(data=True))
    for u in A:
        assert list(A.adj[u].items()) == list(B.adj[u].items()), u
        if A.is_directed():
            assert list(A.pred[u].items()) == list(B.pred[u].items()), u
    # each edge has its own attribute dict (u-v and v-u share it in an undirected graph)
    ids = [id(d) for _, _, d in A.edges(data=True)]
    assert len(ids) == len(set(ids))
    if not A.is_directed():
        assert all(A.adj[u][v] is A.adj[v][u] for u, v in A.edges)
    else:
        assert all(A.succ[u][v] is A.pred[v][u] for u, v in A.edges)


@pytest.fixture(scope="module")
def positions(corpus) -> list[lg.Grid]:
    rng = np.random.default_rng(20)
    out = []
    for grid, solution in corpus("top95", limit=4):
        out += [grid, lg.prepare(grid), sound_eliminations(lg.prepare(grid), solution, rng, 0.3)]
    for name in VARIANTS:
        out += [g for g, _ in variant_positions(name, 2)]
    return out


@pytest.mark.parametrize("families", [FAMILIES, ("cell",), ("house",), ("group",), ("als",),
                                      ("cell", "group"), ("house", "als"), ("cell", "house", "group")])
def test_same_graphs_as_the_one_call_per_item_build(positions, families):
    for grid in positions:
        for size in ((4, 2) if families == FAMILIES else (4,)):
            A = lg.link_graph(grid, families=families, als_max_size=size)
            B = old_link_graph(grid, families=families, als_max_size=size)
            assert_same_graph(A, B)
            assert_same_graph(lg.implication_graph(A), old_implication_graph(B))


def test_same_graphs_on_a_sixteen_by_sixteen_grid():
    """Cells and digits past 9: the comma forms of ALS and group text (``{7,8,12}``)."""
    geo = lg.geometry.classic(16)
    empty = lg.Grid.empty(geo)
    solution = lg.oracle.solutions(empty, limit=1)[0]
    grid = sound_eliminations(empty, solution, np.random.default_rng(16), 0.8)
    A, B = lg.link_graph(grid, als_max_size=2), old_link_graph(grid, als_max_size=2)
    assert any(("," in str(node)) for node in A if isinstance(node, lg.Als))
    assert_same_graph(A, B)
    assert_same_graph(lg.implication_graph(A), old_implication_graph(B))


def test_the_graphs_stay_ordinary_networkx_graphs():
    """Views, copies, subgraphs and edits work on the graphs built from the dicts, and an edit
    of one edge touches no other."""
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    G = lg.link_graph(grid)
    a, b = lg.Candidate.parse("r2c6#2"), lg.Candidate.parse("r6c6#2")
    assert G.edges[a, b] == {"kind": "strong", "family": "house", "via": "c6#2"}
    assert G.degree(a) == len(G.adj[a]) == len(list(G.neighbors(a)))
    assert nx.utils.graphs_equal(G.copy(), G)
    H = G.subgraph([a, b, *G.adj[a]])
    assert H.number_of_edges() >= 1
    G.edges[a, b]["colour"] = "red"
    assert sum("colour" in d for _, _, d in G.edges(data=True)) == 1
    G.remove_node(a)
    assert a not in G and not any(a in G.adj[v] for v in G)
    D = lg.implication_graph(lg.link_graph(grid))
    on, off = lg.Literal(b, on=True), lg.Literal(b, on=False)
    assert set(D.predecessors(off)) == {u for u, v in D.in_edges(off)}
    assert D.out_degree(on) == len(D.succ[on]) and D.in_degree(on) == len(D.pred[on])
    D.add_edge(on, off, kind="weak")
    assert D.has_edge(on, off) and on in D.pred[off]


def test_same_graphs_while_the_geometry_memos_are_emptied(positions, monkeypatch):
    """The per-geometry memos (group and ALS entries) are emptied past a bound: with a bound
    of 0 they are emptied on every graph, and the graphs stay the same."""
    monkeypatch.setattr("linkgraph.graph.links._MEMO", 0)
    for grid in positions[:4] + positions[-2:]:
        A, B = lg.link_graph(grid), old_link_graph(grid)
        assert_same_graph(A, B)
