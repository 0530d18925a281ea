"""make_step fills each proof node's round: its distance from the premises (hand-made graphs)."""

from __future__ import annotations

import networkx as nx

import linkgraph as lg

L = lg.Literal.parse


def test_rounds_are_distances_from_the_premises():
    a, b, c, d, e = (L(t) for t in ("+r1c1#1", "-r1c2#1", "-r2c1#1", "+r2c2#1", "-r3c3#2"))
    P = nx.DiGraph()
    P.add_node(a, round=0)
    P.add_node(b, round=0)
    P.add_edges_from([(a, c), (c, d), (b, d), (d, e), (a, e)])
    step = lg.make_step("x", eliminations=[e.cand], proof=P)
    rounds = dict(step.proof.nodes(data="round"))
    # c after a; d after c (2) and b (1): 2; e after d (2) and a (0): 3
    assert rounds == {a: 0, b: 0, c: 1, d: 2, e: 3}
    assert nx.is_frozen(step.proof)


def test_given_rounds_are_kept_and_a_cycle_gets_none():
    a, b, c = (L(t) for t in ("+r1c1#1", "-r1c2#1", "-r2c1#1"))
    P = nx.DiGraph()
    P.add_node(a, round=0)
    P.add_node(b, round=5)  # kept as given, and read by its successor
    P.add_edges_from([(a, b), (b, c)])
    assert dict(lg.make_step("x", proof=P).proof.nodes(data="round")) == {a: 0, b: 5, c: 6}
    Q = nx.DiGraph([(a, b), (b, c), (c, a)])
    assert dict(lg.make_step("x", proof=Q).proof.nodes(data="round")) == {a: None, b: None, c: None}


def test_a_proof_without_edges_is_all_premises():
    a, b = L("+r1c1#1"), L("-r1c2#1")
    P = nx.DiGraph()
    P.add_nodes_from([a, b])
    assert dict(lg.make_step("x", proof=P).proof.nodes(data="round")) == {a: 0, b: 0}


def test_a_proof_without_edges_keeps_given_rounds():
    a, b = L("+r1c1#1"), L("-r1c2#1")
    P = nx.DiGraph()
    P.add_node(a, round=3)
    P.add_node(b, role="conclusion")
    rounds = lg.make_step("x", proof=P).proof.nodes
    assert dict(rounds(data="round")) == {a: 3, b: 0} and list(rounds[b]) == ["role", "round"]
