"""Proof graphs written straight into networkx's dicts, against the edge-by-edge build.

`linkgraph.nets.proof.BranchProof.explain` fills a graph's node, successor and
predecessor dicts itself, reads the common reasons (strong sets, weak links)
off the reason rows, and names literals and edge texts once per structure.
`explain_oracle` is the form it replaced: every reason through
`BranchProof.reason`, every node and edge through ``add_node`` / ``add_edge``.
The two must give equal graphs in every detail networkx keeps: graph
attributes, nodes in order with their attributes, edges in order with theirs
(a sub-net's proof graph compared the same way, built by the oracle too), and
each node's predecessors in order (the notation's shortest paths read them).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import linkgraph as lg
from linkgraph.io import corpus_path
from linkgraph.model import Literal, Role, sort_key
from linkgraph.nets.proof import BranchProof, _SubNet
from linkgraph.nets.propagate import Structure, propagate_singles
from linkgraph.research.race import read_sample
from linkgraph.solver import prepare


def subnet_oracle(sub: BranchProof) -> nx.DiGraph:
    """`_SubNet.graph` over `explain_oracle`."""
    P = explain_oracle(sub)
    for n, d in P.nodes(data=True):
        if d["role"] == Role.CONTRADICTION and sub.round(sub.st.index(n.cand), n.on) == 0:
            d["role"] = Role.PREMISE
    P.graph["premises"] = [str(n) for n, d in P.nodes(data=True) if d["role"] == Role.PREMISE]
    return nx.freeze(P)


def explain_oracle(bp: BranchProof, targets=None) -> nx.DiGraph:
    """The proof graph as `BranchProof.explain` built it before it wrote networkx's dicts."""
    P = nx.DiGraph(kind="net", depth=bp.depth, level=bp.level)
    contra: list = []
    if targets is None:
        kind, j, contra, _ = bp.best_contradiction()
        P.graph["contradiction"] = kind
        P.graph["contradiction_via"] = bp.st.set_text(j) if j >= 0 else ""
        targets = contra
    nodes = bp.support(targets)
    keyed = [key for key in nodes if key[0] != "empty"]
    names = {key: bp._node(key) for key in sorted(keyed, key=bp._key_order)}
    for key in sorted(names, key=lambda x: sort_key(names[x])):
        node = names[key]
        if key in contra:
            role = Role.CONTRADICTION
        elif key in targets:
            role = Role.CONCLUSION
        elif key[0] != "group" and bp.round(*key) == 0:
            role = Role.PREMISE
        else:
            role = Role.INNER
        P.add_node(node, role=role)
        if key[0] != "group":
            P.nodes[node]["round"] = bp.round(*key)
    for key, node in names.items():
        for parent, attrs in bp._parents(key):
            if isinstance(attrs.get("proof"), _SubNet):
                attrs = {**attrs, "proof": subnet_oracle(attrs["proof"].sub)}
            if parent[0] == "empty":
                P.nodes[node].setdefault("reasons", []).append(attrs or {"via": parent[1]})
                continue
            P.add_edge(names[parent], node, **attrs)
    groups = {node for key, node in names.items() if key[0] == "group"}
    for node in nx.topological_sort(P) if groups else ():
        if node in groups:
            P.nodes[node]["round"] = 1 + max((P.nodes[u]["round"] for u in P.predecessors(node)), default=-1)
    P.graph["premises"] = [str(n) for n, d in P.nodes(data=True) if d["role"] == Role.PREMISE]
    return P


def _same_value(a, b) -> None:
    if isinstance(a, nx.Graph) or isinstance(b, nx.Graph):
        assert_same_graph(a, b)
    else:
        assert a == b


def assert_same_graph(A: nx.DiGraph, B: nx.DiGraph) -> None:
    """A and B equal in everything networkx keeps, orders included."""
    assert type(A) is type(B)
    assert list(A.graph) == list(B.graph)
    for key in A.graph:
        _same_value(A.graph[key], B.graph[key])
    assert list(A.nodes(data=True)) == list(B.nodes(data=True))
    assert [type(n.cand) for n in A] == [type(n.cand) for n in B]
    assert list(A.edges) == list(B.edges)
    for (u, v, da), (_, _, db) in zip(A.edges(data=True), B.edges(data=True)):
        assert list(da) == list(db), (u, v)
        for key in da:
            _same_value(da[key], db[key])
        assert da is A.pred[v][u]  # one attribute dict per edge, shared by both directions
    assert [list(A.pred[n]) for n in A] == [list(B.pred[n]) for n in B]


def _branches(puzzle, depth, level):
    st = Structure(prepare(lg.Grid.parse(puzzle)), depth=depth)
    ks = np.tile(np.arange(st.size), 2)
    ons = np.repeat([True, False], st.size)
    prop = propagate_singles(st, ks, ons, depth=depth, level=level)
    out = []
    for b in range(len(ks)):
        ron, roff = prop.rounds(b)
        out.append(BranchProof(st, ron, roff, prop.failed[b], depth=depth, level=level))
    return out


@pytest.mark.parametrize("puzzle, depth, level, limit", [
    (lg.samples.GNPX_FORCECHAIN, 0, 0, 200),
    (lg.samples.GNPX_FORCECHAIN, 1, 0, 200),
    (lg.samples.GNPX_FORCECHAIN, 2, 0, 200),
    ("hardest 1", 2, 0, 60),
    (lg.samples.GOLDEN_NUGGET, 0, 1, 2),
    (lg.samples.EASTER_MONSTER, 0, 1, 2),
])
def test_explain_matches_the_edge_by_edge_build(puzzle, depth, level, limit):
    """Contradiction nets of failed branches and nets of chosen literals of live ones."""
    if puzzle.startswith("hardest"):
        puzzle = read_sample(corpus_path("hardest_1905_sample"), 20)[int(puzzle.split()[1])]
    bps = _branches(puzzle, depth, level)
    failed = [bp for bp in bps if bp.failed >= 0][:limit]
    live = [bp for bp in bps if bp.failed < 0][:limit]
    kinds = {"strong": 0, "weak": 0, "group": 0, "pattern": 0, "net": 0}
    for bp in failed:
        new, old = bp.explain(), explain_oracle(bp)
        assert_same_graph(new, old)
        for _, _, d in new.edges(data=True):
            kinds[d["family"] if d["family"] in ("group", "net") else d["kind"]] += 1
    for bp in live:
        # the literals of its last round (the longest reasons)
        last = max(bp.ron.max(), bp.roff.max())
        keys = [(k, True) for k in np.flatnonzero(bp.ron == last).tolist()]
        keys += [(k, False) for k in np.flatnonzero(bp.roff == last).tolist()]
        for key in keys[:3]:
            new = bp.explain([key])
            assert_same_graph(new, explain_oracle(bp, [key]))
            for _, _, d in new.edges(data=True):
                kinds[d["family"] if d["family"] in ("group", "net") else d["kind"]] += 1
    assert failed and kinds["strong"] and kinds["weak"]
    if depth >= 1:
        assert kinds["group"]
    if depth == 2:
        assert kinds["pattern"]
    if level >= 1:
        assert kinds["net"]


def test_solve_steps_proofs_match_the_edge_by_edge_build(monkeypatch):
    """Every proof graph a solve's net steps build (contradiction, verity, nested and their
    sub-nets; depths 0-2) equals the oracle's, and each step passes the checker."""
    new_explain = BranchProof.explain
    seen = {"calls": 0, "nested": 0}

    def both(bp, targets=None):
        new = new_explain(bp, targets)
        assert_same_graph(new, explain_oracle(bp, targets))
        seen["calls"] += 1
        seen["nested"] += bp.level >= 1
        return new

    monkeypatch.setattr(BranchProof, "explain", both)
    puzzle = read_sample(corpus_path("hardest_1905_sample"), 20)[1]
    result = lg.solve(lg.Grid.parse(puzzle))
    assert result.solved
    techniques = {s.technique for s in result.steps}
    assert {"forcing-net-nested", "forcing-net-verity", "forcing-net-plus-plus"} <= techniques
    assert seen["calls"] > 20 and seen["nested"] >= 3
    grid = prepare(lg.Grid.parse(puzzle))
    for step in result.steps:
        lg.check.check_step(grid, step)
        grid = grid.apply(step)


def test_names_are_shared_per_geometry():
    """Two proofs of one geometry (different structures) name a literal with the same
    object; equal either way."""
    bps = [bp for bp in _branches(lg.samples.GNPX_FORCECHAIN, 0, 0) if bp.failed >= 0]
    others = [bp for bp in _branches(lg.samples.GNPX_FORCECHAIN, 2, 0) if bp.failed >= 0]
    assert bps[0].st is not others[1].st and bps[0].st.geometry is others[1].st.geometry
    a, b = bps[0].explain(), others[1].explain()
    common = set(a) & set(b)
    assert common
    objects = {id(n) for n in a}
    assert all(id(n) in objects for n in b if n in common)
    assert all(isinstance(n, Literal) for n in a)


def group_reason_oracle(bp: BranchProof, k: int, t: int):
    """`BranchProof._group_reason` as it was: a fresh group and texts at every call."""
    gr = bp.st._groups
    if gr is None:
        return None
    best = None
    roff, outside = bp._rounds_off, bp.st.group_outside
    for p in bp.st.groups_targeting[k]:
        r = [roff[m] for m in outside[p]]
        if all(0 <= x < t for x in r):
            score = (len(r), max(r, default=-1), p)
            if best is None or score < best[0]:
                best = (score, p)
    if best is None:
        return None
    p = best[1]
    a, b = gr["pairs"][p]
    st = bp.st
    cands = [st.candidate(m) for m in gr["inter"][p]]
    group = lg.Group(tuple(c.cell for c in cands), cands[0].digit)
    gkey = ("group", group, a, tuple(int(m) for m in gr["outA"][p]))
    return [(gkey, {"kind": "weak", "family": "group", "via": st.set_text(b)})]


def pattern_reason_oracle(bp: BranchProof, k: int, t: int):
    """`BranchProof._pattern_reason` as it was (a set of touched covers per pattern)."""
    pt = bp.st._patterns
    if pt is None:
        return None
    st = bp.st
    member_sets = st.member_sets
    pats = pt["pats"]
    roff = bp._rounds_off
    for p in st.patterns_targeting(k):
        ms, cs = st.pattern_places(p)
        seen: set[int] = set()
        for m, c in zip(ms, cs):
            if c not in seen and not 0 <= roff[m] < t:
                seen.add(c)
                if len(seen) > pats.size(p):
                    break
        else:
            touched = sorted(seen)
            if not any(k in member_sets[c] for c in touched):
                continue
            family, combo, covers = pats[p]
            ins = [m for m, c in zip(ms, cs) if c not in touched]
            via = " ".join(st.set_text(b) for b, _ in combo) + "|" + " ".join(st.set_text(c) for c in touched)
            attrs = {"kind": "pattern", "family": family, "via": via}
            return [((m, False), dict(attrs)) for m in ins] or [(("empty", via, family), attrs)]
    return None


@pytest.mark.parametrize("puzzle, depth", [
    (lg.samples.GNPX_FORCECHAIN, 1),
    (lg.samples.GNPX_FORCECHAIN, 2),
    ("hardest 1", 1),
    ("hardest 1", 2),
    ("hardest 4", 2),
])
def test_group_and_pattern_reasons_match_the_former_loops(puzzle, depth):
    """Every OFF literal without a weak parent, of every branch (failed or not), asked at its
    own round and at every earlier one (where fewer places are OFF, so more patterns and
    groups fail): the same reason, or none, as the former loops."""
    if puzzle.startswith("hardest"):
        puzzle = read_sample(corpus_path("hardest_1905_sample"), 20)[int(puzzle.split()[1])]
    found = {"group": 0, "pattern": 0, "none": 0}
    for bp in _branches(puzzle, depth, 0):
        for k in np.flatnonzero((bp.roff > 0) & (bp._weak_row < 0)).tolist():
            for t in range(1, int(bp.roff[k]) + 1):
                group = bp._group_reason(k, t)
                assert group == group_reason_oracle(bp, k, t)
                pattern = bp._pattern_reason(k, t)
                assert pattern == pattern_reason_oracle(bp, k, t)
                found["group" if group else "pattern" if pattern else "none"] += 1
    assert found["group"] > 20 and found["none"] > 20
    if depth == 2:
        assert found["pattern"] > 20
