"""Screens: cheap necessary conditions for a rung to find something new since its last miss.

The solver keeps, along one solve path, the grid where each rung last found nothing that
makes progress. The grids after it only lose candidates, so a rung can find a step that
makes progress there only through what changed (`linkgraph.techniques.base.changes`: the
digits whose cells changed, and the cells that lost candidates). A *screen* looks at the
change and answers "could this rung find something now?": True lets the rung run and
decide, False skips it. A screen may answer True when the rung then finds nothing, never
False when the rung would find a step that makes progress; tests/techniques/test_screens.py
checks each one against its rung, and every solve path against the solve without screens.

Two kinds of rung have screens:

- rungs that read each digit apart (their steps on digit d depend on nothing but where d is
  live and which cells are solved with it, and eliminate only d): locked candidates, basic
  fish, the skyscraper, 2-string kite and turbot fish, empty rectangles, simple colouring.
  Their steps on an unchanged digit are the same as at the miss, so the screen runs the
  rung's own test on the changed digits alone, with Python int bit masks (bit c: cell c):
  a few hundred bit operations instead of the rung's numpy tables.
- naked subsets and the bent naked subsets (XY-, XYZ-, WXYZ-wings and up): a step needs
  `size` cells of 2 to `size` candidates whose digits number `size`, and its eliminations
  are read off those cells. A subset of unchanged cells was there at the miss with the
  same eliminations, dead then and dead now: a new step needs a changed cell that holds 2
  to `size` candidates (2 for the XY-wing, whose cells are all bivalue). Hidden subsets
  likewise need a digit of the subset that lost a place in the subset's house.
- the chains over strong and weak links (X-chains, XY-chains, AICs, grouped AICs): a chain
  that is new since the miss needs a strong link that is new, in a set X that lost a member
  (or, grouped, around a group node that lost one); see `chain_screen`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, cached
from linkgraph.techniques.base import Change, digit_view, house_places
from linkgraph.techniques.singledigit import box_frames, cell_table, conjugates, line_links

__all__ = ["Screen", "bivalue_screen", "chain_screen", "empty_rectangle_screen", "fish_screen", "four_chain_screen",
           "hidden_subset_screen", "locked_screen", "simple_coloring_screen", "subset_screen"]

#: A screen: (grid, what changed since the rung's last miss) -> may the rung find something?
Screen = Callable[[Grid, Change], bool]

_BLOCKS = ("box", "window", "region")


@dataclass(frozen=True)
class _Tables:
    """Bit-mask tables of a geometry: cells are bits of Python ints."""

    houses: tuple[int, ...]  # cell mask of each house
    locked: tuple[tuple[bool, int, int, int], ...]  # (pointing, base only, shared, cover only)
    lines: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (base, cover) houses: rows/cols, cols/rows
    frames: tuple[tuple[int, tuple[tuple[int, int, int, int, int, int], ...]], ...]  # box, crosses
    kinds: tuple[str, ...]
    #: cell mask of each box-line intersection (the grouped AICs' group nodes, box with row or column)
    groups: tuple[int, ...]
    #: per house, the intersections of `groups` that share a cell with it
    near: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=16)
def tables(g: Geometry) -> _Tables:
    """The bit-mask tables of geometry `g`, compiled once."""
    houses = tuple(sum(1 << int(c) for c in cells) for cells in g.house_cells)
    kinds = tuple(h.kind for h in g.houses)
    locked = []
    for (a, b), cells in g.intersections:  # both ways round, as the rung reads them
        shared = sum(1 << c for c in cells)
        for base, cover in ((a, b), (b, a)):
            locked.append((kinds[base] in _BLOCKS, houses[base] & ~shared, shared, houses[cover] & ~shared))
    rows = tuple(h for h, k in enumerate(kinds) if k == "row")
    cols = tuple(h for h, k in enumerate(kinds) if k == "col")
    # the box frames of the empty rectangle's rung (none without rows and columns)
    frames = (tuple((mask, tuple(crosses)) for _, mask, crosses in box_frames(g))
              if {"row", "col", "box"} <= set(kinds) else ())
    groups = tuple(sum(1 << c for c in cells) for _, _, cells in g.box_lines(boxes=("box",), lines=("row", "col")))
    near = tuple(tuple(m for m in groups if m & h) for h in houses)
    return _Tables(houses, tuple(locked), ((rows, cols), (cols, rows)), frames, kinds, groups, near)


def locked_screen(pointing: bool) -> Screen:
    """The screen of locked candidates, pointing (True) or claiming (False): on a changed digit,
    a house pair where the digit lies in the shared cells, not in the rest of the base house,
    and in the rest of the cover house (the rung's own test)."""

    def screen(grid: Grid, change: Change) -> bool:
        t = tables(grid.geometry)
        cols = digit_view(grid).cols
        for d in change.digits:
            col = cols[d - 1]
            for is_pointing, base_only, shared, cover_only in t.locked:
                if col & shared and is_pointing == pointing and not col & base_only and col & cover_only:
                    return True
        return False

    return screen


def fish_screen(size: int) -> Screen:
    """The screen of basic fish with `size` base lines: on a changed digit, `size` rows (or
    columns) holding it in 2 to `size` places, all within `size` columns (rows) that hold
    more of its places than the base lines do (something to eliminate)."""

    def screen(grid: Grid, change: Change) -> bool:
        t = tables(grid.geometry)
        places = _places(grid)
        for d in change.digits:
            row = places[d - 1]
            for base, cover in t.lines:
                usable = [row[h] for h in base if 2 <= row[h].bit_count() <= size]
                if len(usable) < size:
                    continue
                for combo in combinations(usable, size):
                    union = 0
                    inner = 0
                    for m in combo:
                        union |= m
                        inner += m.bit_count()
                    if union.bit_count() > size:
                        continue
                    outer = 0
                    j = 0
                    while union >> j:
                        if union >> j & 1:
                            outer += row[cover[j]].bit_count()
                        j += 1
                    if outer > inner:
                        return True
        return False

    return screen


def _places(grid: Grid) -> list[list[int]]:
    """Per digit index, per house, the digit's places as bits along the house's cells
    (`house_places`, transposed to Python ints)."""
    return house_places(grid).T.tolist()


def four_chain_screen(grid: Grid, change: Change) -> bool:
    """The screen of skyscrapers, 2-string kites and turbot fish: on a changed digit, two
    conjugate pairs on four cells, an end of one seeing an end of the other, and a live
    place off the four that sees both other ends (the rung's own test, kinds aside). The
    three rungs ask in turn about the same grid and digits: the answer is kept per grid."""
    return cached(("four-chain-screen", change.digits), grid, lambda grid: _four_chain(grid, change.digits))


def _four_chain(grid: Grid, digits) -> bool:
    peers = cell_table(grid.geometry).peer_mask
    cols = digit_view(grid).cols
    for d in digits:
        col = cols[d - 1]
        pairs = list(conjugates(grid, d - 1))
        for (a1, b1), (a2, b2) in combinations(pairs, 2):
            if a1 == a2 or a1 == b2 or b1 == a2 or b1 == b2:
                continue
            four = 1 << a1 | 1 << b1 | 1 << a2 | 1 << b2
            for x, y in ((a1, b1), (b1, a1)):
                for u, v in ((a2, b2), (b2, a2)):
                    if peers[y] >> u & 1 and peers[x] & peers[v] & col & ~four:
                        return True
    return False


def empty_rectangle_screen(grid: Grid, change: Change) -> bool:
    """The screen of empty rectangles, the rung's own test on a changed digit: a box whose
    places of the digit (two or more) lie on one row r and one column c of it, a near part
    on the line of a conjugate pair's end p (a column pair from row r, or a row pair from
    column c) and a far part, the pair outside the box, and a live place off the pattern
    that sees the pair's other end and every far place."""
    g = grid.geometry
    t = tables(g)
    if not t.frames:
        return False
    peers = cell_table(g).peer_mask
    cols = digit_view(grid).cols
    for d in change.digits:
        col = cols[d - 1]
        by_row, by_col = line_links(grid, d - 1)  # column pairs by the row of the end p, row pairs by its column
        if not by_row and not by_col:
            continue
        for box, crosses in t.frames:
            here = col & box
            if here.bit_count() < 2:
                continue
            for r, c, cross, row_part, col_part, corner in crosses:
                if here & ~cross:
                    continue
                in_row, in_col, at_corner = here & row_part, here & col_part, here & corner
                for near, far, links in ((in_row, in_col | at_corner, by_row.get(r, ())),
                                         (in_col, in_row | at_corner, by_col.get(c, ()))):
                    if not near or not far or not links:
                        continue
                    far_sees = col
                    m = far
                    while m:
                        low = m & -m
                        far_sees &= peers[low.bit_length() - 1]
                        m ^= low
                    if not far_sees:
                        continue
                    for p, q in links:
                        if not (box >> p & 1 or box >> q & 1) and far_sees & peers[q] & ~(here | 1 << p | 1 << q):
                            return True
    return False


def simple_coloring_screen(grid: Grid, change: Change) -> bool:
    """The screen of simple colouring: on a changed digit, a cluster of its conjugate pairs,
    two-coloured, with two places of one colour that see each other (a wrap) or a live place
    outside it that sees both colours (a trap)."""
    peers = cell_table(grid.geometry).peer_mask
    cols = digit_view(grid).cols
    for d in change.digits:
        col = cols[d - 1]
        adj: dict[int, list[int]] = {}
        for a, b in conjugates(grid, d - 1):
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        color: dict[int, int] = {}
        for start in adj:
            if start in color:
                continue
            color[start] = 0
            masks = [1 << start, 0]
            queue = [start]
            for k in queue:
                other = 1 - color[k]
                for m in adj[k]:
                    if m not in color:
                        color[m] = other
                        masks[other] |= 1 << m
                        queue.append(m)
            seen = [0, 0]
            for side in (0, 1):
                m = masks[side]
                while m:
                    low = m & -m
                    c = low.bit_length() - 1
                    if peers[c] & masks[side]:
                        return True  # a wrap
                    seen[side] |= peers[c]
                    m ^= low
            if seen[0] & seen[1] & col & ~(masks[0] | masks[1]):
                return True  # a trap
    return False


def subset_screen(size: int) -> Screen:
    """The screen of naked subsets of `size` cells and of the bent ones (the wings): a changed
    cell that holds 2 to `size` candidates."""

    def screen(grid: Grid, change: Change) -> bool:
        counts = _counts(grid)
        m = change.cells
        while m:
            low = m & -m
            if 2 <= counts[low.bit_length() - 1] <= size:
                return True
            m ^= low
        return False

    return screen


def bivalue_screen(grid: Grid, change: Change) -> bool:
    """The screen of XY-wings, three bivalue cells: a changed cell that holds two candidates."""
    counts = _counts(grid)
    m = change.cells
    while m:
        low = m & -m
        if counts[low.bit_length() - 1] == 2:
            return True
        m ^= low
    return False


def hidden_subset_screen(size: int) -> Screen:
    """The screen of hidden subsets of `size` digits: a digit that lost a place in a house
    where it now has 2 to `size` places. (A subset whose digits kept their places in its
    house was there at the miss, with the same cells and eliminations, dead then and now.)"""

    def screen(grid: Grid, change: Change) -> bool:
        houses = tables(grid.geometry).houses
        cols = digit_view(grid).cols
        for d, lost in change.lost:
            col = cols[d - 1]
            for m in houses:
                if lost & m and 2 <= (col & m).bit_count() <= size:
                    return True
        return False

    return screen


def _counts(grid: Grid) -> list[int]:
    return grid.cands.sum(axis=1).tolist()



def chain_screen(kind: str) -> Screen:
    """The screen of the chains over strong and weak links (`linkgraph.techniques.aic.search`):
    `kind` ``"x"`` (X-chains), ``"xy"`` (XY-chains), ``"aic"`` (AICs of candidates) or
    ``"grouped"`` (grouped AICs). It says True when the grid has a strong link the rung's net
    could lack at the miss:

    - ``"x"``: a house that lost a place of a digit and now holds it twice;
    - ``"xy"``: a cell that lost a candidate and now holds two (a new node pair);
    - ``"aic"``: either of the two (a cell, or a house and digit);
    - ``"grouped"``: a house that lost a place of a digit, or holds every live place of a group
      node that lost one, whose live places of the digit split into two nodes (two places, a
      place and a group, or two groups of the house), or a cell as for ``"aic"``.

    Why it is sound. The rung searches breadth-first from every start OFF, alternating strong
    links (to ON) and weak links (to OFF), each (node, parity) first reached once, up to a fixed
    number of levels; a pair of ends reached yields the candidates that see both ends (and a
    start reached ON yields its placement), whichever chain is read back, and a step only when
    that set was not yielded before. So the pairs it reports are those joined by a walk that
    alternates the links, and what it eliminates is fixed by the pair. Every node of such a walk
    has a strong link on it (the start leaves by one, an ON node is entered by one, an OFF node
    leaves by one). A strong link is two disjoint nodes inside one set X whose members are the
    set's live members. The later grid only lost candidates, so a node is *old* (the same
    members at the miss: a candidate, or a group whose intersection lost no place of its digit)
    unless it is a group that shrank; weak links between old nodes (inside a common set, no
    shared member) are the same at the miss. A strong link between old nodes in a set that lost
    no member was there at the miss. When the screen says False, no set X that lost a member,
    and no set holding a shrunken group, holds a strong link now, so every strong link joins old
    nodes in an unchanged set: every walk of the later net is a walk of the net at the miss, as
    short, and its pair eliminated a superset of its candidates there. Those were all dead (the
    rung found nothing that makes progress), so they are dead now. X-chains read houses only
    and XY-chains strong links in cells only (their nodes are the candidates of bivalue cells,
    old unless the cell lost a candidate), which gives their narrower tests.
    """
    cells, houses, grouped = kind in ("xy", "aic", "grouped"), kind in ("x", "aic", "grouped"), kind == "grouped"

    def screen(grid: Grid, change: Change) -> bool:
        if cells and bivalue_screen(grid, change):  # a changed cell that holds two candidates
            return True
        if not houses:
            return False
        t = tables(grid.geometry)
        cols = digit_view(grid).cols
        for d, lost in change.lost:
            col = cols[d - 1]
            suspects = [h for h, m in enumerate(t.houses) if m & lost]
            if grouped:
                for m in t.groups:
                    places = col & m
                    if m & lost and places.bit_count() >= 2:  # a shrunken group: the houses holding it
                        suspects += [h for h, hm in enumerate(t.houses) if not places & ~hm]
            for h in suspects:
                live = col & t.houses[h]
                count = live.bit_count()
                if count == 2:
                    return True
                if grouped and count > 2 and _splits(live, col, t.near[h]):
                    return True
        return False

    return screen


def _splits(live: int, col: int, near: tuple[int, ...]) -> bool:
    """Whether a house's live places `live` of a digit (live in `col`) are a group node inside the
    house and one place, or two such groups (`near`: the intersections that meet the house)."""
    inside = [p for p in (col & m for m in near) if p.bit_count() >= 2 and not p & ~live]
    for p in inside:
        rest = live & ~p
        if rest.bit_count() == 1 or rest in inside:
            return True
    return False
