"""Forcing-net steps from the search's candidates: proof sizes, bounds, proof graphs, notation.

The search (`linkgraph.nets.search`) lists *candidates* ``(kind, lower bound, search
order, (k, on), branches)``: a conclusion, the literal ``(k, on)`` over local
candidate ``k``, and the branches (premises) that prove it. `build_step` reads a
candidate's proof size off the supports of its branches (one
`linkgraph.nets.proof.BranchProof` per branch, kept in a cache by
`_branch_proof`) and returns the maker of its Step, so that a proof graph and
its notation (`linkgraph.nets.notation.sudokuwiki`) are written only for a step
yielded: a contradiction is the failed branch's best contradiction net; a
verity or double joins one net per branch, each edge listing the branches
that use it. `size_bound` (no sub-net run) and `size_exceeds` (walks that stop past
a limit) let the selection (`linkgraph.nets.search._shortest`) build only what could
still be the shortest. `KINDS` is also the tie order of the kinds.

Examples
--------
>>> from linkgraph.nets.search import _candidates, _premises
>>> from linkgraph.nets.steps import size_bound, build_step, size_exceeds
>>> from linkgraph.nets.propagate import Structure, propagate_singles
>>> st = Structure(lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)))
>>> ks, ons = _premises(st, "on")
>>> prop = propagate_singles(st, ks, ons)
>>> cand = _candidates(prop, ks, ons, {"contradiction"})[0]
>>> size, tie, make = build_step(prop, cand, {}, 0)
>>> step = make()
>>> step.technique, step.proof.number_of_nodes() == size
('forcing-net-contradiction', True)
>>> size_bound(prop, cand, {}) <= size, size_exceeds(prop, cand, {}, size - 1), size_exceeds(prop, cand, {}, size)
(True, True, False)
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from linkgraph.model import Literal, Role, sort_key
from linkgraph.nets.notation import sudokuwiki
from linkgraph.nets.proof import BranchProof
from linkgraph.steps import Step, make_step

if TYPE_CHECKING:
    from linkgraph.nets.propagate import Propagation

__all__ = ["KINDS", "KIND_ORDER", "build_step", "size_bound", "size_exceeds"]

KINDS = ("contradiction", "verity", "double")
KIND_ORDER = {k: i for i, k in enumerate(KINDS)}


def _branch_proof(prop: Propagation, b: int, cache: dict) -> BranchProof:
    """The BranchProof of branch `b`, made once per `cache`. With nesting, asking for one
    failed branch makes those of every failed branch: their reason arrays are found in one
    pass, and their sub-nets run in one batch (`BranchProof.batch`)."""
    if b not in cache:
        if prop.level >= 1 and prop.failed[b] >= 0:
            bs = [x for x in np.flatnonzero(prop.failed >= 0).tolist() if x not in cache]
        else:
            bs = [b]
        prop.prefetch(bs)
        rows = [prop.rounds(x) for x in bs]
        proofs = [BranchProof(prop.structure, ron, roff, prop.failed[x], depth=prop.depth, level=prop.level)
                  for x, (ron, roff) in zip(bs, rows)]
        if len(bs) > 1:
            BranchProof._prime(proofs, np.array([r[0] for r in rows]), np.array([r[1] for r in rows]))
            batch = [weakref.ref(bp) for bp in proofs]
            for bp in proofs:
                bp.batch = batch
        cache.update(zip(bs, proofs))
    return cache[b]


def build_step(prop: Propagation, cand, cache: dict, level: int) -> tuple[int, tuple, Callable[[], Step]] | None:
    """(proof size, tie key, maker of the Step): the notation is written only for steps yielded.

    None for a verity or double whose conclusion some branch derives without its premise
    (it holds in the grid itself, e.g. a naked single, or with nesting a candidate whose
    sub-net fails from the grid alone): no net from the premises proves it, and the
    contradiction net of that candidate is found on its own."""
    kind, _, order, (k, on), branches = cand
    st = prop.structure
    conclusion = Literal(st.candidate(k), on=on)
    technique = "forcing-net-nested" if level >= 1 else f"forcing-net-{kind}"
    premises = tuple(prop.premises[b][0] for b in branches)
    # the size is read off the supports; the proof graph is built only for a step yielded
    if kind == "contradiction":
        bp = _branch_proof(prop, branches[0], cache)
        size = bp.node_count(bp.best_contradiction()[3])
    else:
        keys: set = set()
        for b in branches:
            bp = _branch_proof(prop, b, cache)
            sup = bp.support([(k, on)])
            if not bp.premise_keys(sup, targets=((k, on),)):
                return None
            keys |= sup
        size = BranchProof.node_count(keys)

    def proof() -> nx.DiGraph:
        if kind == "contradiction":
            P = _branch_proof(prop, branches[0], cache).explain()
        else:
            P = nx.DiGraph(kind="net")
            for b in branches:
                sub = _branch_proof(prop, b, cache).explain([(k, on)])
                name = str(prop.premises[b][0])
                for n, d in sub.nodes(data=True):
                    if n in P:
                        if d["role"] == Role.PREMISE or P.nodes[n]["role"] == Role.INNER:
                            P.nodes[n]["role"] = d["role"]
                    else:
                        P.add_node(n, **d)
                for u, v, d in sub.edges(data=True):
                    if P.has_edge(u, v):
                        e = P.edges[u, v]
                        e["branches"] = (*e["branches"], name)
                        # another branch's inference between the same two literals (a
                        # different set, pattern or sub-net): kept as an extra label
                        label = (d.get("kind"), d.get("via"))
                        if label != (e.get("kind"), e.get("via")) and all(
                            label != (a.get("kind"), a.get("via")) for a in e.get("also", ())
                        ):
                            e["also"] = (*e.get("also", ()), {**d, "branches": (name,)})
                    else:
                        P.add_edge(u, v, **d, branches=(name,))
            P.graph["branches"] = [str(p) for p in premises]
            P.graph["depth"], P.graph["level"] = prop.depth, prop.level
        P.graph["net"] = kind
        P.graph["premises"] = [str(p) for p in premises]
        P.graph["conclusion"] = str(conclusion)
        assert P.number_of_nodes() == size, "net size read off the supports differs from its proof"
        return P

    def make() -> Step:
        step = make_step(
            technique,
            placements=[conclusion.cand] if on else [],
            eliminations=[] if on else [conclusion.cand],
            premises=premises,
            proof=proof(),
            notation="",
        )
        lines = sudokuwiki(step).splitlines()[1:]
        verdict = f"{conclusion.cand.cell}={conclusion.cand.digit}" if on else f"{conclusion.cand.cell}<>{conclusion.cand.digit}"
        return make_step(technique, placements=step.placements, eliminations=step.eliminations,
                         premises=premises, proof=step.proof, notation=" ; ".join(lines) + f" => {verdict}")

    return size, (KIND_ORDER[kind], sort_key(conclusion), order), make


def size_bound(prop: Propagation, cand, cache: dict) -> int:
    """A lower bound on `build_step`'s size that runs no sub-net: the supports with every
    literal only a sub-net explains taken as a leaf (a subset of the real support)."""
    kind, _, _, (k, on), branches = cand
    if kind == "contradiction":
        return _branch_proof(prop, branches[0], cache).contradiction_bound()
    nodes: set = set()
    for b in branches:
        bp = _branch_proof(prop, b, cache)
        nodes |= bp.nodes(bp.shallow_support([(k, on)]))
    return len(nodes)


def size_exceeds(prop: Propagation, cand, cache: dict, limit: int) -> bool:
    """True if `build_step`'s size for `cand` would be more than `limit` (walks stop past it)."""
    kind, _, _, (k, on), branches = cand
    if kind == "contradiction":
        return _branch_proof(prop, branches[0], cache).contradiction_exceeds(limit)
    return any(_branch_proof(prop, b, cache).support([(k, on)], node_limit=limit) is None for b in branches)
