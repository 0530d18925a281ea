"""Proof graphs for the chain-like pattern techniques (X-chain, AIC, wings, coloring).

An alternating inference chain (AIC) ``n0 = n1 - n2 = ... = nk`` (``k`` odd,
``=`` a strong link, ``-`` a weak link) proves that ``n0`` or ``nk`` is true:
if ``n0`` is OFF, the strong link turns ``n1`` ON, the weak link turns ``n2``
OFF, and so on until ``nk`` is ON. A candidate that sees both ends is therefore
OFF, even a candidate of the chain itself. Its proof is the two-branch forcing
on ``n0``:

- premise ``+n0`` -> ``-t`` (weak, via a set X shared by ``n0`` and ``t``);
- premise ``-n0`` -> ``+n1`` -> ``-n2`` -> ... -> ``+nk`` -> ``-t``; when the
  chain itself passes through ``-t``, that is the branch's edge into ``-t``.

``Step.premises`` is ``(+n0, -n0)``: the two cases are exhaustive, so every
conclusion reached from both is proven. Nodes may be candidates or groups
(``Group``); each edge carries the set X it uses (``via``). The graph
attributes hold ``kind="chain"`` and the chain as text (``chain``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import networkx as nx
import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Candidate, Family, Group, LinkKind, Literal, Role
from linkgraph.steps import Step, make_step

__all__ = ["chain_step", "chain_text", "common_sets", "members", "seeing_all", "strong_via", "weak_via"]

Node = Candidate | Group


def members(g: Geometry, node: Node) -> list[int]:
    """Candidate indices of a node."""
    if isinstance(node, Group):
        return [g.index(c) for c in node.candidates]
    return [g.index(node)]


def common_sets(g: Geometry, idx: Iterable[int]) -> np.ndarray:
    """Indices of the sets X holding every candidate of `idx`."""
    idx = list(idx)
    return np.flatnonzero(g.incidence[idx].all(axis=0))


def seeing_all(grid: Grid, idx: Iterable[int]) -> np.ndarray:
    """Live candidate indices that see every candidate of `idx` (and are none of them)."""
    idx = list(idx)
    mask = grid.live & grid.geometry.sees[idx].all(axis=0)
    mask[idx] = False
    return np.flatnonzero(mask)


@lru_cache(maxsize=8)
def _set_lists(g: Geometry) -> tuple[tuple[frozenset, ...], tuple[tuple[int, ...], ...], tuple[str, ...]]:
    """Per geometry: each candidate's sets X, each set's members, each set's text."""
    return (tuple(frozenset(r.tolist()) for r in g.cand_sets), tuple(tuple(r) for r in g.set_members.tolist()),
            tuple(str(g.setx(s)) for s in range(g.number_of_sets)))


def _common(g: Geometry, idx: list[int]) -> frozenset:
    """The sets X holding every candidate of `idx` (as `common_sets`, unordered)."""
    cand_sets = _set_lists(g)[0]
    out = cand_sets[idx[0]]
    for k in idx[1:]:
        out = out & cand_sets[k]
    return out


def weak_via(g: Geometry, a: Node, b: Node) -> str:
    """Text of a set X shared by every member of `a` and `b` (house sets first)."""
    sets = _common(g, members(g, a) + members(g, b))
    if not sets:
        raise ValueError(f"{a} and {b} share no set X")
    house = [s for s in sets if s >= g.number_of_cells]
    return _set_lists(g)[2][min(house) if house else min(sets)]


def strong_via(g: Geometry, live: np.ndarray, a: Node, b: Node) -> str:
    """Text of a set X whose live members are exactly the members of `a` and `b`."""
    both = members(g, a) + members(g, b)
    inside = set(both)
    _, set_members, texts = _set_lists(g)
    for s in sorted(_common(g, both)):
        if all(k in inside for k in set_members[s] if live[k]):
            return texts[s]
    raise ValueError(f"{a} and {b} are not strongly linked")


def _family(g: Geometry, u: Node, v: Node, via: str) -> Family:
    if isinstance(u, Group) or isinstance(v, Group):
        return Family.GROUP
    return Family.HOUSE if "#" in via else Family.CELL


def chain_text(nodes: Sequence[Node]) -> str:
    """Eureka-like text of an AIC: ``r1c2#5=r1c7#5-r3c8#5=r3c1#5``."""
    out = str(nodes[0])
    for i, node in enumerate(nodes[1:]):
        out += ("=" if i % 2 == 0 else "-") + str(node)
    return out


def chain_step(
    technique: str,
    grid: Grid,
    nodes: Sequence[Node],
    *,
    eliminations: Iterable[int] = (),
    placements: Iterable[int] = (),
    **extra: object,
) -> Step:
    """Build the Step of an AIC ``nodes`` (strong link first, odd number of links).

    `eliminations` are candidate indices seeing both ends; `placements` (only
    when both ends are the same candidate, a discontinuous loop) place ``n0``.
    """
    g = grid.geometry
    live = grid.live
    elims = sorted(g.candidate(k) for k in eliminations)
    places = sorted(g.candidate(k) for k in placements)
    text = chain_text(nodes)
    P = nx.DiGraph(kind="chain", chain=text)
    P.graph.update(extra)
    start_on, start_off = Literal(nodes[0], on=True), Literal(nodes[0], on=False)
    P.add_node(start_on, role=Role.PREMISE)
    P.add_node(start_off, role=Role.PREMISE)
    prev = start_off
    for i, node in enumerate(nodes[1:]):
        strong = i % 2 == 0
        lit = Literal(node, on=strong)
        if lit not in P:
            P.add_node(lit, role=Role.INNER)
        if strong:
            via = strong_via(g, live, nodes[i], node)
            kind = LinkKind.STRONG
        else:
            via = weak_via(g, nodes[i], node)
            kind = LinkKind.WEAK
        P.add_edge(prev, lit, kind=kind, family=_family(g, nodes[i], node, via), via=via)
        prev = lit
    end_on = prev
    for cand in elims:
        t = Literal(cand, on=False)
        # a candidate on the chain may see both ends too: when the -n0 branch already turns it
        # OFF, only the +n0 branch needs an edge (another from +nk would close a cycle); when
        # the branch turns it ON, -t from +nk makes that branch contradictory, so n0 is ON
        inner = t in P
        P.add_node(t, role=Role.CONCLUSION)
        for src in (start_on,) if inner else (start_on, end_on):
            via = weak_via(g, src.cand, cand)
            P.add_edge(src, t, kind=LinkKind.WEAK, family=_family(g, src.cand, cand, via), via=via)
    premises = (start_on, start_off)
    if places:
        # -n0 ... -> +n0: the OFF case refutes itself, so n0 is ON.
        P.nodes[start_on]["role"] = Role.CONCLUSION
        premises = (start_off,)
    notation = text
    parts = [f"{c.cell}={c.digit}" for c in places] + [f"{c.cell}<>{c.digit}" for c in elims]
    if parts:
        notation += " => " + ", ".join(parts)
    return make_step(technique, placements=places, eliminations=elims, premises=premises, proof=P, notation=notation)
