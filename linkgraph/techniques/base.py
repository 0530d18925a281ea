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
from functools import lru_cache

import networkx as nx
import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, cached
from linkgraph.model import Candidate, Literal, Role
from linkgraph.steps import Step, make_step

__all__ = [
    "SharedSearch", "bit_column", "house_places", "length_bonus", "makes_progress", "packed", "packed_columns", "pattern_step",
    "sees_packed", "unpacked",
]


def packed(rows: np.ndarray, *, pad: bool) -> np.ndarray:
    """Bool `rows` packed into uint64 words (bit j of a row: column j), plus a last row of all `pad`.

    >>> w = packed(np.array([[True, False, True]]), pad=True)
    >>> w.shape, unpacked(w, 3).tolist()
    ((2, 1), [[True, False, True], [True, True, True]])
    """
    n, m = rows.shape
    out = np.zeros((n + 1, (m + 63) // 64 * 8), dtype=np.uint8)
    out[:n, : (m + 7) // 8] = np.packbits(rows, axis=1)
    if pad:
        out[n] = 255
    return out.view(np.uint64)


_BYTE = np.array([128, 64, 32, 16, 8, 4, 2, 1], dtype=np.uint8)[None, :, None]


def packed_columns(a: np.ndarray, *, pad: bool) -> np.ndarray:
    """``packed(a.T, pad=pad)``, faster for a wide `a` (no transposed copy of `a`).

    >>> a = np.array([[True, False], [False, False], [True, True]])
    >>> bool((packed_columns(a, pad=True) == packed(a.T, pad=True)).all())
    True
    """
    n, m = a.shape
    nb = (n + 63) // 64 * 8
    b = np.zeros((nb * 8, m), dtype=np.uint8)
    b[:n] = a
    out = np.zeros((m + 1, nb), dtype=np.uint8)
    out[:m] = (b.reshape(nb, 8, m) * _BYTE).sum(axis=1, dtype=np.uint8).T
    if pad:
        out[m] = 255
    return out.view(np.uint64)


def unpacked(words: np.ndarray, m: int) -> np.ndarray:
    """The first `m` bits of each row of `words` (made by `packed`), as bool."""
    return np.unpackbits(words.view(np.uint8), axis=1, count=m).view(bool)


def bit_column(words: np.ndarray, j: int) -> np.ndarray:
    """Bit `j` of each row of `words` (made by `packed`), as bool: column j of the bool rows."""
    return (words.view(np.uint8)[:, j // 8] >> (7 - j % 8)) & 1 == 1


@lru_cache(maxsize=8)
def sees_packed(g: Geometry) -> np.ndarray:
    """The rows of `Geometry.sees`, `packed` with an all-ones last row (read-only)."""
    out = packed(g.sees, pad=True)
    out.setflags(write=False)
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
