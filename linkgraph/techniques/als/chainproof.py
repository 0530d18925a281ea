"""Proofs and steps of ALS chains: a chain found by `linkgraph.techniques.als.chains`, drawn.

The search of `linkgraph.techniques.als.chains` finds a chain as a path of node indices in its
layered net (`linkgraph.techniques.als.net`); `als_chain_step` reads that path back as a `Step`: the chain's text
(ALS nodes as ``(x=z)r5c12{158}``), its proof graph (``kind="chain"``, in
the conventions given in that module's docstring, "Proofs") and its
conclusions: every candidate that sees both ends, or the placement of a
one-candidate start the chain leads back to. A chain that cannot be drawn as
a chain (it turns its start ON on the way, which the shorter loop says) or
that eliminates nothing gives None.

Examples
--------
>>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> step = next(lg.techniques.als.chains.als_chains(grid))  # an elimination: premises +n0, -n0
>>> [lit.on for lit in step.premises]
[True, False]
>>> step.proof.graph["length"] == len(step.proof.graph["chain"].split("-")) + len(step.proof.graph["als"])
True
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from linkgraph.bitops import unpack
from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Family, Group, LinkKind, Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.techniques.als.net import AlsNet
from linkgraph.techniques.chainproof import strong_via, weak_via

__all__: list[str] = []


def _family(a: object, b: object, via: str) -> Family:
    if isinstance(a, Group) or isinstance(b, Group):
        return Family.GROUP
    return Family.HOUSE if "#" in via else Family.CELL


class _Builder:
    """The proof graph of one chain; `add` returns False for a literal already drawn (the chain
    then goes on from it, without a second in-edge, which could close a cycle)."""

    def __init__(self, grid: Grid):
        self.grid = grid
        self.g = grid.geometry
        self.P = nx.DiGraph(kind="chain")

    def add(self, lit: Literal, role: Role = Role.INNER) -> bool:
        if lit in self.P:
            return False
        self.P.add_node(lit, role=role)
        return True

    def weak(self, u: Literal, v: Literal) -> None:
        via = weak_via(self.g, u.cand, v.cand)
        self.P.add_edge(u, v, kind=LinkKind.WEAK, family=_family(u.cand, v.cand, via), via=via)

    def via_als(self, sources: list[Literal], als: Als, v: Literal) -> None:
        for u in sources:
            self.P.add_edge(u, v, kind=LinkKind.STRONG, family=Family.ALS, via=str(als))


def _node(g, idx: list[int]) -> Candidate | Group:
    """The candidate or group node of candidate indices `idx` (one digit)."""
    if len(idx) == 1:
        return g.candidate(idx[0])
    n = g.size
    return Group(tuple(g.cell(k // n) for k in idx), idx[0] % n + 1)


def _cands(node: Candidate | Group) -> list[Candidate]:
    return list(node.candidates) if isinstance(node, Group) else [node]


def als_chain_step(grid: Grid, an: AlsNet, path: list[int], technique: str) -> Step | None:
    """Build the Step of the chain `path` (layered node indices), or None when it cannot be drawn
    as a chain (a repeated literal) or eliminates nothing."""
    g = grid.geometry
    live = grid.live
    b = _Builder(grid)
    kinds = [an.kind(i) for i in path]
    loop = an.twin[path[0]] == path[-1]
    tokens: list[str] = []
    used: list[str] = []
    # start
    kind, j = kinds[0]
    if kind == "node":
        n0 = an.base.node(j)
        tokens.append(str(n0))
    else:
        n0 = _node(g, an.net.members[path[0]])
    start_on, start_off = Literal(n0, on=True), Literal(n0, on=False)
    b.add(start_on, Role.PREMISE)
    b.add(start_off, Role.PREMISE)
    cur, mode, prev_node = [start_off], ("off" if kind == "node" else "entry"), n0
    for pos in range(1, len(path)):
        kind, j = kinds[pos]
        on = pos % 2 == 1
        link = "=" if on else "-"
        if kind == "node":
            node = an.base.node(j)
            tokens.append(link + str(node))
            if on:  # strong link from the OFF literals of the regular node before
                lit = Literal(node, on=True)
                closing = loop and pos == len(path) - 1
                if lit == start_on and not closing:
                    return None  # the chain places n0 on its way: the shorter loop says so
                if closing or b.add(lit):
                    via = strong_via(g, live, prev_node, node)
                    for u in cur:
                        b.P.add_edge(u, lit, kind=LinkKind.STRONG, family=_family(u.cand, node, via), via=via)
                cur, mode = [lit], "on"
            else:
                if mode == "on":
                    lits = [Literal(node, on=False)]
                else:  # after an ALS: its member candidates, each by ALS edges
                    lits = [Literal(c, on=False) for c in _cands(node)]
                for lit in lits:
                    if not b.add(lit):
                        continue  # derived before on this chain
                    if mode == "on":
                        b.weak(cur[0], lit)
                    else:
                        b.via_als(cur, mode, lit)
                cur, mode = lits, "off"
            prev_node = node
            continue
        als = an.als(j)
        if on:  # the exit digit: the ALS is locked by the entry literals in `cur`
            text = f"({an.digit[path[pos - 1] - an.M]}={an.digit[j]}){als}"
            if pos == 1:
                tokens.append(text)
            else:
                tokens[-1] = "-" + text
            used.append(str(als))
            mode = als
            continue
        # entering an ALS on its digit: every place OFF
        lits = [Literal(g.candidate(k), on=False) for k in an.net.members[path[pos]]]
        for lit in lits:
            if not b.add(lit):
                continue  # derived before on this chain (another ALS holding it, say)
            if mode == "on":
                b.weak(cur[0], lit)
            else:
                b.via_als(cur, mode, lit)
        tokens.append("-" + str(als))  # replaced by the (x=z) form at the exit
        cur, mode = lits, "entry"
    chain = "".join(tokens)
    P = b.P
    P.graph.update(chain=chain, length=len(path), als=used)
    if loop:
        cand = n0
        P.nodes[start_on]["role"] = Role.CONCLUSION
        notation = f"{chain} => {cand.cell}={cand.digit}"
        return make_step(technique, placements=[cand], premises=(start_off,), proof=P, notation=notation)
    targets = np.flatnonzero(unpack(an.start_sees[path[0]] & an.end_sees[path[-1]], g.number_of_candidates))
    elims = []
    for k in targets.tolist():
        cand = g.candidate(k)
        t = Literal(cand, on=False)
        try:
            via = weak_via(g, n0, cand)
        except ValueError:
            continue
        # a candidate on the chain is eliminated too: its -n0 branch already holds -t, or holds +t
        # and then -t (a contradiction, so n0 is ON, and t sees n0)
        inner = t in P
        if inner:
            P.nodes[t]["role"] = Role.CONCLUSION
        else:
            b.add(t, Role.CONCLUSION)
            if mode == "on":
                b.weak(cur[0], t)
            else:
                b.via_als(cur, mode, t)
        P.add_edge(start_on, t, kind=LinkKind.WEAK, family=_family(n0, cand, via), via=via)
        elims.append(cand)
    if not elims:
        return None
    notation = chain + " => " + ", ".join(f"{c.cell}<>{c.digit}" for c in sorted(elims))
    return make_step(technique, eliminations=elims, premises=(start_on, start_off), proof=P, notation=notation)
