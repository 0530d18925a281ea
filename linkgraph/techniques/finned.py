"""Finned and sashimi fish of size 2 to 4 (X-Wing, Swordfish, Jellyfish), both orientations.

For one digit take k base lines (rows, say) and k cover lines (columns). The
base places outside the cover are the *fins*; when they all lie in one box,
either a fin is true, or the fish is whole and the digit leaves the cover
columns outside the base rows. Both cases clear the cover cells that sit in
the fins' box outside the base rows. The seed text reads the same logic as a
grid-based almost-locked set (seeds/sudoku-assistant-techniques.txt,
"Grid-Based Almost-Locked Sets (Including Sashimi)").

A fish is *sashimi* when some base line keeps at most one place inside the
cover: without its fin it would not be a fish at all. Otherwise it is
*finned*. Proofs are patterns: ``base`` and ``cover`` sets X, ``fins`` (the
fin candidates) and ``fin_box``.

References
----------
SudokuWiki "Finned X-Wing", "Finned Swordfish", "Sashimi"; HoDoKu "Fish".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from itertools import combinations

from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import pattern_step

__all__ = ["finned_fish", "FISH_NAMES"]

FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


def finned_fish(grid: Grid, *, size: int = 2, sashimi: bool | None = None) -> Iterator[Step]:
    """Yield finned (and sashimi) fish with `size` base lines, rows first, then columns.

    Parameters
    ----------
    grid : Grid
        The candidate state to search.
    size : int, optional
        2 (X-Wing), 3 (Swordfish) or 4 (Jellyfish).
    sashimi : bool or None, optional
        True: only sashimi fish; False: only finned (non-sashimi) fish; None: both.

    Yields
    ------
    Step
        Technique ``finned-x-wing``, ``sashimi-swordfish`` and the like.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.finned.finned_fish(grid, size=2)), list)
    True
    """
    if size not in FISH_NAMES:
        from linkgraph.errors import OptionError

        raise OptionError(f"size={size!r}: expected 2, 3 or 4")
    return _finned_fish(grid, size, sashimi)


def _lines(g, kind: str) -> list[int]:
    return [h for h, house in enumerate(g.houses) if house.kind == kind]


def _finned_fish(grid: Grid, size: int, sashimi: bool | None) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    cands = grid.cands
    solved = grid.counts == 1
    boxes = _lines(g, "box")
    if not boxes:
        return
    box_of = [g.box_of(c) for c in range(g.number_of_cells)]
    for base_kind, cover_kind in (("row", "col"), ("col", "row")):
        base_lines, cover_lines = _lines(g, base_kind), _lines(g, cover_kind)
        # position of a cell along a base line = index of its cover line
        pos = {}
        for j, h in enumerate(cover_lines):
            for c in g.house_cells[h]:
                pos[int(c)] = j
        # box_pos[h][b]: positions of base line h inside box b
        box_pos = {h: {} for h in base_lines}
        for h in base_lines:
            for c in g.house_cells[h]:
                box_pos[h][box_of[c]] = box_pos[h].get(box_of[c], 0) | 1 << pos[int(c)]
        stack = {b: 0 for b in boxes}
        for h in base_lines:
            for b, m in box_pos[h].items():
                stack[b] |= m
        for d in range(n):
            places = {}
            for h in base_lines:
                cells = [int(c) for c in g.house_cells[h] if cands[c, d]]
                if len(cells) >= 2 and not any(solved[c] for c in cells):
                    places[h] = sum(1 << pos[c] for c in cells)
            for combo in combinations(sorted(places), size):
                union = 0
                for h in combo:
                    union |= places[h]
                if union.bit_count() <= size:
                    continue  # a basic fish (or none)
                for b in boxes:
                    inside = [places[h] & box_pos[h].get(b, 0) for h in combo]
                    if not any(inside):
                        continue
                    body = 0
                    for h, m in zip(combo, inside):
                        body |= places[h] & ~m
                    if body.bit_count() > size:
                        continue
                    free = [j for j in range(n) if stack[b] >> j & 1 and not body >> j & 1]
                    for extra in combinations(free, size - body.bit_count()):
                        cover = body
                        for j in extra:
                            cover |= 1 << j
                        fin_masks = [places[h] & ~cover for h in combo]
                        if not any(fin_masks):
                            continue
                        # every cover line must hold a non-fin base place
                        if (cover & union) != cover:
                            continue
                        yield from _fish_step(
                            grid, size, sashimi, d, combo, cover, places, b, cover_lines, pos,
                        )


def _fish_step(grid, size, sashimi, d, combo, cover, places, b, cover_lines, pos):
    g = grid.geometry
    n = g.size
    base_set = {int(c) for h in combo for c in g.house_cells[h]}
    elims = [
        int(c) * n + d for c in g.house_cells[b]
        if grid.cands[c, d] and int(c) not in base_set and cover >> pos[int(c)] & 1
    ]
    if not elims:
        return
    is_sashimi = any((places[h] & cover).bit_count() <= 1 for h in combo)
    if sashimi is not None and is_sashimi != sashimi:
        return
    fins = [int(c) for h in combo for c in g.house_cells[h] if places[h] >> pos[int(c)] & 1 and not cover >> pos[int(c)] & 1]
    name = ("sashimi-" if is_sashimi else "finned-") + FISH_NAMES[size]
    cover_houses = [cover_lines[j] for j in range(n) if cover >> j & 1]
    yield pattern_step(
        name, g,
        base=[g.number_of_cells + h * n + d for h in combo],
        cover=[g.number_of_cells + h * n + d for h in cover_houses],
        eliminations=sorted(elims),
        fins=[str(g.candidate(c * n + d)) for c in sorted(fins)],
        fin_box=str(g.houses[b]),
        digit=d + 1,
    )


def finder(size: int, sashimi: bool):
    """The find function of one ladder rung, e.g. ``finder(3, True)`` for sashimi swordfish."""
    return partial(finned_fish, size=size, sashimi=sashimi)
