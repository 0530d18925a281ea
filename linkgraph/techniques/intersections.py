"""Locked candidates: a digit confined to the intersection of two houses.

Pointing: in a box (or window, or region) the digit's places all lie in one
line, so the rest of that line loses it. Claiming: in a line the places all
lie in one box, so the rest of the box loses it. Both are the same rule over
every pair of houses that meet in two or more cells, so variants get it free.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import house_places, pattern_step

__all__ = ["locked_candidates", "locked_pointing", "locked_claiming"]

_BLOCKS = ("box", "window", "region")


@lru_cache(maxsize=None)
def _pairs(g: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """House pairs (base, cover) meeting in 2+ cells (`Geometry.intersections`, both ways round,
    by base then cover), with cell masks of the intersection, base-only and cover-only parts."""
    n_cells = g.number_of_cells
    base, cover, inter, base_rest, cover_rest = [], [], [], [], []
    ordered = sorted([(a, b, cells) for (a, b), cells in g.intersections]
                     + [(b, a, cells) for (a, b), cells in g.intersections])
    for a, b, cells in ordered:
        m = np.zeros((3, n_cells), dtype=np.int32)
        m[1, g.house_cells[a]] = 1
        m[2, g.house_cells[b]] = 1
        m[:, list(cells)] = 0
        m[0, list(cells)] = 1
        base.append(a)
        cover.append(b)
        inter.append(m[0])
        base_rest.append(m[1])
        cover_rest.append(m[2])
    return (np.array(base), np.array(cover), np.array(inter), np.array(base_rest), np.array(cover_rest))


@lru_cache(maxsize=None)
def _pair_positions(g: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """For each pair of `_pairs`, the positions (bits along `g.house_cells`) of the shared cells
    in the base house and in the cover house."""
    base, cover, inter, _, _ = _pairs(g)
    out = np.zeros((2, len(base)), dtype=np.int64)
    for p in range(len(base)):
        for side, h in enumerate((base[p], cover[p])):
            for j, c in enumerate(g.house_cells[h].tolist()):
                if inter[p, c]:
                    out[side, p] |= 1 << j
    return out[0], out[1]


def _locked(grid: Grid, pointing: bool | None) -> Iterator[Step]:
    g = grid.geometry
    base, cover, inter, base_rest, cover_rest = _pairs(g)
    if not len(base):
        return
    # the digit has places in the shared cells, none in the rest of the base, some in the rest
    # of the cover (per pair and digit, on the positions of the digit in each house)
    places = house_places(grid)
    shared_a, shared_b = _pair_positions(g)
    in_base, in_cover = places[base], places[cover]
    hits = np.argwhere((in_base & shared_a[:, None] != 0) & (in_base & ~shared_a[:, None] == 0)
                       & (in_cover & ~shared_b[:, None] != 0))
    n = g.size
    for p, d in hits.tolist():
        a, b = int(base[p]), int(cover[p])
        is_pointing = g.houses[a].kind in _BLOCKS
        if pointing is not None and is_pointing != pointing:
            continue
        cells = np.flatnonzero(cover_rest[p])
        elims = [int(c) * n + int(d) for c in cells if grid.cands[c, d]]
        name = "locked-pointing" if is_pointing else "locked-claiming"
        sets_base = g.number_of_cells + a * n + int(d)
        sets_cover = g.number_of_cells + b * n + int(d)
        yield pattern_step(name, g, base=[sets_base], cover=[sets_cover], eliminations=elims)


def locked_pointing(grid: Grid) -> Iterator[Step]:
    """Yield locked candidates, type pointing: a block's digit confined to one line.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> all(s.proof.graph["kind"] == "pattern" for s in lg.techniques.intersections.locked_pointing(grid))
    True
    """
    return _locked(grid, True)


def locked_claiming(grid: Grid) -> Iterator[Step]:
    """Yield locked candidates, type claiming: a line's digit confined to one block."""
    return _locked(grid, False)


def locked_candidates(grid: Grid) -> Iterator[Step]:
    """Yield every locked-candidates step, pointing and claiming."""
    return _locked(grid, None)
