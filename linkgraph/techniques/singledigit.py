"""Single-digit patterns: skyscraper, 2-string kite, turbot fish, empty rectangle.

Each is a short X-chain on one digit ``x = y - u = v``: two strong links
(conjugate pairs: the only two places of the digit in a house) joined by a
weak link (``y`` and ``u`` share a house). One of ``x`` and ``v`` holds the
digit, so every cell that sees both loses it.

- *Skyscraper*: both strong links in rows (or both in columns), joined through
  a column (a row).
- *2-string kite*: one strong link in a row, one in a column, joined through
  a box.
- *Turbot fish*: any other such chain (a strong link in a box).
- *Empty rectangle*: the digit's places in a box lie on one row and one
  column of the box (a strong link between two group nodes), joined to a
  conjugate pair outside the box.

Proofs are chains (see `linkgraph.techniques.chainproof`). The searches work
on cell bit masks (Python ints); the conjugate pairs of every digit, and the
strong-weak-strong chains the first three rungs sort by kind, are found once
per grid and kept in a small cache for the next rungs (a grid is immutable
and hashable).

References
----------
SudokuWiki "Single's Chains" and "Empty Rectangles"; HoDoKu "Single Digit
Patterns" (names and ratings only).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

import numpy as np

from linkgraph.grid import Grid
from linkgraph.model import Cell, Group
from linkgraph.steps import Step
from linkgraph.bitops import bits
from linkgraph.grid import cached
from linkgraph.techniques.base import SharedSearch, digit_view
from linkgraph.techniques.chainproof import chain_step, seeing_all

__all__ = [
    "CellTable", "box_frames", "cell_table", "conjugates", "digit_masks", "empty_rectangles", "line_links", "skyscrapers", "turbot_fish",
    "two_string_kites",
]


class CellTable:
    """Per-geometry cell bit masks: peers, house kinds shared by two cells, boxes."""

    def __init__(self, g):
        self.peer_mask = [sum(1 << int(c) for c in np.flatnonzero(row)) for row in g.peers]
        self.house_sets = [frozenset(hs) for hs in g.cell_houses]
        self.kinds = [house.kind for house in g.houses]
        self.house_mask = [sum(1 << int(c) for c in cells) for cells in g.house_cells]
        # (house, cell mask) -> the two cells in house order (ascending in every shipped geometry)
        self.ascending = all(bool((np.diff(cells) > 0).all()) for cells in g.house_cells)
        self.rank = [{int(c): j for j, c in enumerate(cells)} for cells in g.house_cells]
        self._shared: dict[tuple[int, int], frozenset[str]] = {}

    def shared_kinds(self, a: int, b: int) -> frozenset[str]:
        key = (a, b)
        out = self._shared.get(key)
        if out is None:
            out = self._shared[key] = frozenset(self.kinds[h] for h in self.house_sets[a] & self.house_sets[b])
        return out


@lru_cache(maxsize=8)
def cell_table(g) -> CellTable:
    """The `CellTable` of geometry `g`, built once."""
    return CellTable(g)


def digit_masks(grid: Grid) -> list[int]:
    """Per digit index, the bit mask of the cells where it is live."""
    return digit_view(grid).cols


def _conjugate_table(grid: Grid) -> list[dict[tuple[int, int], set[str]]]:
    """Per digit index, its conjugate pairs in house order (`conjugates`), from the digit's
    cell mask and each house's (Python int bit masks: a few operations per house)."""
    table = cell_table(grid.geometry)
    houses, kinds, rank, ascending = table.house_mask, table.kinds, table.rank, table.ascending
    out: list[dict[tuple[int, int], set[str]]] = []
    for col in digit_view(grid).cols:
        pairs: dict[tuple[int, int], set[str]] = {}
        for h, m in enumerate(houses):
            here = col & m
            if here.bit_count() == 2:
                low = here & -here
                a, b = low.bit_length() - 1, (here ^ low).bit_length() - 1
                if not ascending and rank[h][a] > rank[h][b]:
                    a, b = b, a
                pairs.setdefault((a, b), set()).add(kinds[h])
        out.append(pairs)
    return out


def conjugates(grid: Grid, d: int) -> dict[tuple[int, int], set[str]]:
    """Conjugate pairs of digit index `d`: (cell a, cell b) in house order -> house kinds.

    Computed for every digit at once and kept for the other rungs on the same grid.
    """
    return cached("conjugates", grid, _conjugate_table)[d]


def _shared_kinds(grid: Grid, a: int, b: int) -> set[str]:
    return set(cell_table(grid.geometry).shared_kinds(a, b))


def _classify(k1: set[str], k2: set[str], joint: set[str]) -> str:
    for line, other in (("row", "col"), ("col", "row")):
        if line in k1 and line in k2 and other in joint:
            return "skyscraper"
    if (("row" in k1 and "col" in k2) or ("col" in k1 and "row" in k2)) and "box" in joint:
        return "2-string-kite"
    return "turbot-fish"


def _four_records(grid: Grid) -> Iterator[tuple]:
    """(kind, digit, x, y, u, v, targets) of every strong-weak-strong chain with eliminations,
    by digit, pair of conjugate pairs, orientation; targets are cell indices, ascending."""
    g = grid.geometry
    cells = cell_table(g)
    peer_mask = cells.peer_mask
    masks = digit_masks(grid)
    for d in range(g.size):
        links = list(conjugates(grid, d).items())
        col = masks[d]
        for (p1, k1), (p2, k2) in combinations(links, 2):
            if p1[0] in p2 or p1[1] in p2:
                continue
            for x, y in (p1, p1[::-1]):
                for u, v in (p2, p2[::-1]):
                    if not peer_mask[y] >> u & 1:
                        continue
                    hit = peer_mask[x] & peer_mask[v] & col & ~(1 << x | 1 << y | 1 << u | 1 << v)
                    if not hit:
                        continue
                    kind = _classify(k1, k2, cells.shared_kinds(y, u))
                    yield kind, d, x, y, u, v, bits(hit)


def _four_chains(grid: Grid, wanted: str) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    seen: set[frozenset[int]] = set()
    for kind, d, x, y, u, v, cells in cached("four", grid, lambda grid: SharedSearch(_four_records(grid))):
        if kind != wanted:
            continue
        targets = [c * n + d for c in cells]
        key = frozenset(targets) | {-1 - x, -1 - v}
        if key in seen:
            continue
        seen.add(key)
        nodes = [g.candidate(c * n + d) for c in (x, y, u, v)]
        yield chain_step(wanted, grid, nodes, eliminations=targets, digit=d + 1)


def skyscrapers(grid: Grid) -> Iterator[Step]:
    """Yield skyscrapers: two parallel conjugate pairs with one end on a common line.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.singledigit.skyscrapers(grid)), list)
    True
    """
    return _four_chains(grid, "skyscraper")


def two_string_kites(grid: Grid) -> Iterator[Step]:
    """Yield 2-string kites: a row and a column conjugate pair joined in a box.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.singledigit.two_string_kites(grid)), list)
    True
    """
    return _four_chains(grid, "2-string-kite")


def turbot_fish(grid: Grid) -> Iterator[Step]:
    """Yield the other strong-weak-strong chains on one digit (turbot fish).

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.singledigit.turbot_fish(grid)), list)
    True
    """
    return _four_chains(grid, "turbot-fish")


def _node(g, cells: list[int], d: int):
    if len(cells) == 1:
        return g.candidate(cells[0] * g.size + d)
    return Group(tuple(g.cell(c) for c in cells), d + 1)


def empty_rectangles(grid: Grid) -> Iterator[Step]:
    """Yield empty rectangles: a box's places on one row and one column, plus a conjugate pair.

    Only for geometries with rows, columns and boxes.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.singledigit.empty_rectangles(grid)), list)
    True
    """
    return _empty_rectangles(grid)


def line_links(grid: Grid, d: int) -> tuple[dict[int, list[tuple[int, int]]], dict[int, list[tuple[int, int]]]]:
    """Digit index `d`'s strong links p=q in lines, in the order of the conjugate pairs, both
    ways round: the column links by p's row, and the row links by p's column (the empty
    rectangle's view of them)."""
    n = grid.geometry.size
    by_row: dict[int, list[tuple[int, int]]] = {}
    by_col: dict[int, list[tuple[int, int]]] = {}
    for pair, kinds in conjugates(grid, d).items():
        for p, q in (pair, pair[::-1]):
            if "col" in kinds:
                by_row.setdefault(p // n, []).append((p, q))
            if "row" in kinds:
                by_col.setdefault(p % n, []).append((p, q))
    return by_row, by_col


@lru_cache(maxsize=8)
def box_frames(g) -> list[tuple[int, int, list[tuple[int, int, int, int, int, int]]]]:
    """(box house, cell mask, crosses) of each box; a cross is (row, col, cells of the row and the
    column inside the box, of the row but not the column, of the column but not the row, the corner),
    as cell masks."""
    n = g.size
    out = []
    for b, house in enumerate(g.houses):
        if house.kind != "box":
            continue
        cells = [int(c) for c in g.house_cells[b]]
        crosses = []
        for r in sorted({c // n for c in cells}):
            for c in sorted({c % n for c in cells}):
                row = sum(1 << x for x in cells if x // n == r and x % n != c)
                col = sum(1 << x for x in cells if x % n == c and x // n != r)
                corner = sum(1 << x for x in cells if x == r * n + c)
                crosses.append((r, c, row | col | corner, row, col, corner))
        out.append((b, sum(1 << c for c in cells), crosses))
    return out


def _empty_rectangles(grid: Grid) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    peer_mask = cell_table(g).peer_mask
    masks = digit_masks(grid)
    seen: set[frozenset[int]] = set()
    for d in range(n):
        col = masks[d]
        by_row, by_col = line_links(grid, d)
        if not by_row and not by_col:
            continue
        for b, box_mask, crosses in box_frames(g):
            here = col & box_mask
            if here.bit_count() < 2:
                continue
            for r, c, cross, row_part, col_part, corner in crosses:
                if here & ~cross:
                    continue  # the places are not all on row r and column c of the box
                in_row, in_col, at_corner = here & row_part, here & col_part, here & corner
                # (near group, far group, strong links from the near group's line)
                for near, far, links in ((in_row, in_col | at_corner, by_row.get(r, ())),
                                         (in_col, in_row | at_corner, by_col.get(c, ()))):
                    if not near or not far or not links:
                        continue
                    far_cells = bits(far)
                    far_sees = col
                    for x in far_cells:
                        far_sees &= peer_mask[x]
                    if not far_sees:
                        continue
                    chain_mask = far | near
                    far_node = near_node = None
                    for p, q in links:
                        if box_mask >> p & 1 or box_mask >> q & 1:
                            continue
                        hit = far_sees & peer_mask[q] & ~(chain_mask | 1 << p | 1 << q)
                        if not hit:
                            continue
                        targets = [x * n + d for x in bits(hit)]
                        key = frozenset(targets)
                        if key in seen:
                            continue
                        seen.add(key)
                        if far_node is None:
                            far_node, near_node = _node(g, far_cells, d), _node(g, bits(near), d)
                        nodes = [g.candidate(q * n + d), g.candidate(p * n + d), near_node, far_node]
                        yield chain_step(
                            "empty-rectangle", grid, nodes, eliminations=targets,
                            digit=d + 1, box=str(g.houses[b]),
                        )
