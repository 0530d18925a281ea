"""Shared pieces of the pattern techniques: building a pattern Step from base and cover sets.

A *pattern* proof (``P.graph["kind"] == "pattern"``) states its logic as sets X:
the ``base`` sets are disjoint sets X whose live members all lie in the
``cover`` sets, which are disjoint too and as many as the base sets. Each base
set holds one truth and each cover set exactly one, so the base truths fill
every cover set, and every cover member outside the base is false. A single
is the case of one base set with one live member (no cover). Fins and other
specifics go into further graph attributes. The conclusions are the proof's
nodes, with role ``conclusion``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx

from linkgraph.geometry import Geometry
from linkgraph.model import Candidate, Literal, Role
from linkgraph.steps import Step, make_step

__all__ = ["bits", "pattern_step"]


def bits(mask: int) -> list[int]:
    """Positions of the set bits of `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def pattern_step(
    technique: str,
    g: Geometry,
    *,
    base: Sequence[int],
    cover: Sequence[int] = (),
    placements: Iterable[int] = (),
    eliminations: Iterable[int] = (),
    **extra: object,
) -> Step:
    """A Step for a base/cover pattern; sets and candidates given as geometry indices."""
    places = sorted(g.candidate(k) for k in placements)
    elims = sorted(g.candidate(k) for k in eliminations)
    P = nx.DiGraph(kind="pattern", base=[str(g.setx(s)) for s in base], cover=[str(g.setx(s)) for s in cover])
    P.graph.update(extra)
    for cand in places:
        P.add_node(Literal(cand, on=True), role=Role.CONCLUSION)
    for cand in elims:
        P.add_node(Literal(cand, on=False), role=Role.CONCLUSION)
    return make_step(technique, placements=places, eliminations=elims, proof=P)


def cover_eliminations(g: Geometry, live, base: Sequence[int], cover: Sequence[int]) -> list[int]:
    """Live members of the cover sets that are not members of any base set."""
    inside = {int(k) for s in base for k in g.set_members[s]}
    out = {int(k) for s in cover for k in g.set_members[s] if live[k] and int(k) not in inside}
    return sorted(out)


def candidates_text(cands: Iterable[Candidate]) -> str:
    """Space-separated candidate names, sorted."""
    return " ".join(str(c) for c in sorted(cands))
