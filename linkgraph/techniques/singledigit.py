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

Proofs are chains (see `linkgraph.techniques.chainproof`).

References
----------
SudokuWiki "Single's Chains" and "Empty Rectangles"; HoDoKu "Single Digit
Patterns" (names and ratings only).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import numpy as np

from linkgraph.grid import Grid
from linkgraph.model import Cell, Group
from linkgraph.steps import Step
from linkgraph.techniques.chainproof import chain_step, seeing_all

__all__ = ["empty_rectangles", "skyscrapers", "turbot_fish", "two_string_kites"]


def _conjugates(grid: Grid, d: int) -> dict[tuple[int, int], set[str]]:
    """Conjugate pairs of digit index `d`: (cell a, cell b) with a < b -> house kinds."""
    g = grid.geometry
    col = grid.cands[:, d]
    out: dict[tuple[int, int], set[str]] = {}
    for h, cells in enumerate(g.house_cells):
        live = cells[col[cells]]
        if len(live) == 2:
            out.setdefault((int(live[0]), int(live[1])), set()).add(g.houses[h].kind)
    return out


def _shared_kinds(grid: Grid, a: int, b: int) -> set[str]:
    g = grid.geometry
    return {g.houses[h].kind for h in set(g.cell_houses[a]) & set(g.cell_houses[b])}


def _classify(k1: set[str], k2: set[str], joint: set[str]) -> str:
    for line, other in (("row", "col"), ("col", "row")):
        if line in k1 and line in k2 and other in joint:
            return "skyscraper"
    if (("row" in k1 and "col" in k2) or ("col" in k1 and "row" in k2)) and "box" in joint:
        return "2-string-kite"
    return "turbot-fish"


def _four_chains(grid: Grid, wanted: str) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    seen: set[frozenset[int]] = set()
    for d in range(n):
        pairs = _conjugates(grid, d)
        links = list(pairs.items())
        for (p1, k1), (p2, k2) in combinations(links, 2):
            if set(p1) & set(p2):
                continue
            for x, y in (p1, p1[::-1]):
                for u, v in (p2, p2[::-1]):
                    if not g.peers[y, u]:
                        continue
                    kind = _classify(k1, k2, _shared_kinds(grid, y, u))
                    if kind != wanted:
                        continue
                    chain_idx = [c * n + d for c in (x, y, u, v)]
                    targets = [t for t in seeing_all(grid, [chain_idx[0], chain_idx[3]]) if t % n == d]
                    targets = [t for t in targets if t not in chain_idx]
                    if not targets:
                        continue
                    key = frozenset(targets) | {-1 - x, -1 - v}
                    if key in seen:
                        continue
                    seen.add(key)
                    nodes = [g.candidate(k) for k in chain_idx]
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


def _empty_rectangles(grid: Grid) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    boxes = [h for h, house in enumerate(g.houses) if house.kind == "box"]
    seen: set[frozenset[int]] = set()
    for d in range(n):
        col = grid.cands[:, d]
        pairs = _conjugates(grid, d)
        for b in boxes:
            cells = [int(c) for c in g.house_cells[b] if col[c]]
            if len(cells) < 2:
                continue
            rows = sorted({c // n for c in g.house_cells[b]})
            cols = sorted({c % n for c in g.house_cells[b]})
            for r in rows:
                for c in cols:
                    if any(x // n != r and x % n != c for x in cells):
                        continue
                    in_row = [x for x in cells if x // n == r and x % n != c]
                    in_col = [x for x in cells if x % n == c and x // n != r]
                    corner = [x for x in cells if x == r * n + c]
                    # (near group, far group, line the near group lies on)
                    for near, far, line in ((in_row, in_col + corner, "row"), (in_col, in_row + corner, "col")):
                        if not near or not far:
                            continue
                        far_node, near_node = _node(g, sorted(far), d), _node(g, sorted(near), d)
                        for pair, kinds in pairs.items():
                            for p, q in (pair, pair[::-1]):
                                if p in g.house_cells[b] or q in g.house_cells[b]:
                                    continue
                                # p on the near group's line, strong link p=q across it
                                if line == "row" and not (p // n == r and "col" in kinds):
                                    continue
                                if line == "col" and not (p % n == c and "row" in kinds):
                                    continue
                                far_idx = [x * n + d for x in far]
                                chain_idx = {p * n + d, q * n + d, *far_idx, *(x * n + d for x in near)}
                                targets = [
                                    t for t in seeing_all(grid, [q * n + d, *far_idx])
                                    if t % n == d and t not in chain_idx
                                ]
                                if not targets:
                                    continue
                                key = frozenset(targets)
                                if key in seen:
                                    continue
                                seen.add(key)
                                nodes = [g.candidate(q * n + d), g.candidate(p * n + d), near_node, far_node]
                                yield chain_step(
                                    "empty-rectangle", grid, nodes, eliminations=targets,
                                    digit=d + 1, box=str(g.houses[b]),
                                )
