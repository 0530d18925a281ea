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

from collections.abc import Iterable, Iterator, Sequence

import networkx as nx
import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, cached
from linkgraph.model import Candidate, Literal, Role
from linkgraph.steps import Step, make_step

__all__ = ["SharedSearch", "house_places", "length_bonus", "makes_progress", "pattern_step"]


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


class SharedSearch:
    """Items of one lazy search, produced once and replayed to every later consumer."""

    def __init__(self, source: Iterator):
        self.items: list = []
        self.source: Iterator | None = source
        self.failed = False  # the search was interrupted (say a job timeout): its items are partial

    def __iter__(self) -> Iterator:
        i = 0
        while True:
            if i < len(self.items):
                yield self.items[i]
                i += 1
                continue
            if self.source is None:
                return
            try:
                self.items.append(next(self.source))
            except StopIteration:
                self.source = None
                return
            except BaseException:
                self.source, self.failed = None, True
                raise


def house_places(grid: Grid) -> np.ndarray:
    """(houses, digits) int64, read-only: bit j set when the digit may stand in the house's j-th
    cell. Kept per grid (see `cached`) for the basic rungs, which look at the same grid in turn.

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> places = lg.techniques.base.house_places(grid)
    >>> places.shape, bool(places[0, 0] >> 1 & 1) == bool(grid.cands[1, 0])
    ((27, 9), True)
    """
    return cached("house-places", grid, _house_places)


def _house_places(grid: Grid) -> np.ndarray:
    g = grid.geometry
    weights = np.int64(1) << np.arange(g.size, dtype=np.int64)
    out = np.tensordot(weights, grid.cands[g.house_cells].astype(np.int64), axes=([0], [1]))
    out.setflags(write=False)
    return out


def makes_progress(grid: Grid, step: Step) -> bool:
    """True if the step removes a live candidate or places into an open cell.

    >>> grid = lg.Grid.parse(lg.samples.EULER_01)
    >>> lg.techniques.base.makes_progress(grid, lg.hint(grid, ladder="basic"))
    True
    """
    g = grid.geometry
    if any(grid.has(c) for c in step.eliminations):
        return True
    return any(grid.has(c) and not grid.placed[g.cell_index(c.cell)] for c in step.placements)


def length_bonus(size: int) -> float:
    """SE-style bonus: +0.1 for each threshold 4, 6, 8, 12, 16, 24, ... that `size` exceeds.

    >>> lg.techniques.base.length_bonus(4), lg.techniques.base.length_bonus(8), lg.techniques.base.length_bonus(9)
    (0.0, 0.2, 0.3)
    """
    bonus, ceiling, odd = 0.0, 4, False
    while size > ceiling:
        bonus += 0.1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return round(bonus, 1)
