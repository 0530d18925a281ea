"""An independent replay of net proof graphs, written apart from the propagation code.

It reads only the grid (live candidates) and the proof graph, and checks every
node's in-edges against the rules stated in linkgraph/propagate.py's docstring,
using its own notion of sets (rows, columns, boxes, cells of a classic grid).
"""

from __future__ import annotations

from collections import defaultdict

import networkx as nx

import linkgraph as lg


class ProofFailure(AssertionError):
    pass


def _members(grid: lg.Grid, sx: lg.SetX) -> set[lg.Candidate]:
    """Live candidates of set X `sx`, computed from scratch (classic 9x9 houses)."""
    n = grid.size
    out = set()
    if sx.cell is not None:
        for d in range(1, n + 1):
            c = lg.Candidate(sx.cell, d)
            if grid.has(c):
                out.add(c)
        return out
    h = sx.house
    for r in range(n):
        for col in range(n):
            inside = (
                (h.kind == "row" and r == h.index)
                or (h.kind == "col" and col == h.index)
                or (h.kind == "box" and (r // 3) * 3 + col // 3 == h.index)
            )
            if inside:
                c = lg.Candidate(lg.Cell(r, col), sx.digit)
                if grid.has(c):
                    out.add(c)
    return out


def _cands(node) -> set[lg.Candidate]:
    if isinstance(node, lg.Candidate):
        return {node}
    if isinstance(node, lg.Group):
        return set(node.candidates)
    raise ProofFailure(f"unexpected node {node!r}")


def _in_set(grid, node, sx) -> bool:
    n = grid.size
    for c in _cands(node):
        if sx.cell is not None:
            if c.cell != sx.cell:
                return False
            continue
        h = sx.house
        if c.digit != sx.digit:
            return False
        r, col = c.cell.row, c.cell.col
        ok = (h.kind == "row" and r == h.index) or (h.kind == "col" and col == h.index) or (
            h.kind == "box" and (r // 3) * 3 + col // 3 == h.index)
        if not ok:
            return False
    return n == 9


def check_graph(grid: lg.Grid, P: nx.DiGraph, *, premises=None, per_branch: bool = True) -> None:
    """Raise ProofFailure unless every non-premise node of P is justified by its in-edges."""
    if not nx.is_directed_acyclic_graph(P):
        raise ProofFailure("proof has a cycle")
    if per_branch and "branches" in P.graph:
        for name in P.graph["branches"]:
            edges = [(u, v) for u, v, d in P.edges(data=True) if name in d["branches"]]
            sub = P.edge_subgraph(edges).copy() if edges else nx.DiGraph()
            prem = lg.Literal.parse(name)
            if prem not in sub:
                sub.add_node(prem, **P.nodes[prem])
            for n in sub:
                sub.nodes[n]["role"] = P.nodes[n]["role"]
            concl = [n for n, d in P.nodes(data=True) if d["role"] == "conclusion"]
            for c in concl:
                if c not in sub:
                    raise ProofFailure(f"branch {name} does not reach {c}")
            _check_nodes(grid, sub, {prem})
        return
    prem = {n for n, d in P.nodes(data=True) if d["role"] == "premise"}
    if premises is not None and not prem <= set(premises):
        raise ProofFailure(f"premise nodes {prem} not among {premises}")
    _check_nodes(grid, P, prem)


def _check_nodes(grid, P, premises) -> None:
    for v in P.nodes:
        if v in premises:
            if P.in_degree(v):
                raise ProofFailure(f"premise {v} has in-edges")
            continue
        ins = list(P.in_edges(v, data=True))
        kinds = {d["kind"] for _, _, d in ins}
        if not ins:
            reasons = P.nodes[v].get("reasons")
            if reasons:
                continue  # an inference with no in-edge (pattern already in the grid)
            if v.on:
                _check_strong(grid, P, v, [])
                continue
            raise ProofFailure(f"{v}: no reason")
        if len(kinds) != 1:
            raise ProofFailure(f"{v}: mixed edge kinds {kinds}")
        kind = kinds.pop()
        if kind == "weak":
            for u, _, d in ins:
                if not (u.on and not v.on):
                    raise ProofFailure(f"weak {u} -> {v}: needs ON -> OFF")
                sx = lg.SetX.parse(d["via"])
                if not (_in_set(grid, u.cand, sx) and _in_set(grid, v.cand, sx)):
                    raise ProofFailure(f"weak {u} -> {v}: not both in {sx}")
        elif kind == "strong":
            _check_strong(grid, P, v, ins)
        elif kind == "pattern":
            _check_pattern(grid, v, ins)
        elif kind == "net":
            _check_net(grid, v, ins)
        else:
            raise ProofFailure(f"{v}: unknown edge kind {kind}")


def _check_strong(grid, P, v, ins) -> None:
    if not v.on:
        raise ProofFailure(f"strong edge into OFF literal {v}")
    vias = {d["via"] for _, _, d in ins}
    if len(vias) > 1:
        raise ProofFailure(f"{v}: strong in-edges from several sets {vias}")
    sources = {u for u, _, _ in ins}
    if any(u.on for u in sources):
        raise ProofFailure(f"{v}: strong in-edge from an ON literal")
    if not vias:
        # no in-edge: v must be the only live member of one of its sets
        c = next(iter(_cands(v.cand)))
        sets = [lg.SetX(cell=c.cell)] + [lg.SetX(house=lg.House(k, i), digit=c.digit) for k, i in (
            ("row", c.cell.row), ("col", c.cell.col), ("box", (c.cell.row // 3) * 3 + c.cell.col // 3))]
        if not any(_members(grid, sx) == _cands(v.cand) for sx in sets):
            raise ProofFailure(f"{v}: ON with no reason")
        return
    sx = lg.SetX.parse(vias.pop())
    if not _in_set(grid, v.cand, sx):
        raise ProofFailure(f"{v}: not in {sx}")
    others = _members(grid, sx) - _cands(v.cand)
    if {u.cand for u in sources} != others:
        raise ProofFailure(f"{v}: strong via {sx} needs OFF of {sorted(map(str, others))}, has {sorted(map(str, sources))}")


def _check_pattern(grid, v, ins) -> None:
    if v.on:
        raise ProofFailure(f"pattern edge into ON literal {v}")
    vias = {d["via"] for _, _, d in ins}
    if len(vias) != 1:
        raise ProofFailure(f"{v}: pattern edges with several vias {vias}")
    base_text, cover_text = vias.pop().split("|")
    bases = [_members(grid, lg.SetX.parse(t)) for t in base_text.split()]
    covers = [_members(grid, lg.SetX.parse(t)) for t in cover_text.split()]
    if len(covers) > len(bases):
        raise ProofFailure(f"{v}: more covers than bases")
    union_b = set()
    for b in bases:
        if b & union_b:
            raise ProofFailure(f"{v}: bases overlap")
        union_b |= b
    union_c = set().union(*covers)
    if v.cand not in union_c or v.cand in union_b:
        raise ProofFailure(f"{v}: not a cover-only candidate")
    needed = union_b - union_c
    sources = {u.cand for u, _, _ in ins if not u.on}
    if needed != sources:
        raise ProofFailure(f"{v}: pattern needs OFF of {sorted(map(str, needed))}")


def _check_net(grid, v, ins) -> None:
    if v.on:
        raise ProofFailure(f"net edge into ON literal {v}")
    sub = ins[0][2]["proof"]
    outer = {u for u, _, _ in ins}
    allowed = outer | {~v}
    check_contradiction(grid, sub, premises=allowed)


def check_contradiction(grid, P, *, premises=None) -> None:
    """Check the graph and that its contradiction nodes really contradict."""
    check_graph(grid, P, premises=premises, per_branch=False)
    nodes = [n for n, d in P.nodes(data=True) if d["role"] == "contradiction"]
    kind = P.graph.get("contradiction")
    if kind == "both":
        cands = defaultdict(set)
        for n in nodes:
            cands[n.cand].add(n.on)
        if not any(len(s) == 2 for s in cands.values()):
            raise ProofFailure("no literal both ON and OFF")
    elif kind == "empty":
        sx = lg.SetX.parse(P.graph["contradiction_via"])
        if {n.cand for n in nodes if not n.on} != _members(grid, sx):
            raise ProofFailure(f"set {sx} not emptied")
    elif kind == "two-on":
        sx = lg.SetX.parse(P.graph["contradiction_via"])
        on = [n for n in nodes if n.on and _in_set(grid, n.cand, sx)]
        if len(on) < 2:
            raise ProofFailure(f"no two ON in {sx}")
    else:
        raise ProofFailure(f"unknown contradiction {kind!r}")
