"""Wings: bent naked subsets (XY-, XYZ-, WXYZ-wing) and the W-wing.

A *bent naked subset* (seeds/sudoku-assistant-techniques.txt, "Bent Naked
Subsets") is N cells holding N digits between them, spread over two houses
that share cells, but not inside one house. Call a digit *restricted* when all
its places in the subset see each other: it can stand at most once there.

- Exactly one digit ``z`` not restricted: the other N-1 digits cannot fill N
  cells, so ``z`` stands in the subset, and ``z`` leaves every cell that sees
  all the subset's ``z`` places.
- No digit unrestricted: the subset is locked like a naked subset; each digit
  leaves every cell that sees all its places in the subset.

Three cells, all bivalue, make an XY-wing; three cells otherwise an XYZ-wing;
four cells a WXYZ-wing. Their proofs are patterns: ``base`` the cells' sets,
``cover`` one house set per digit (for a restricted digit a house holding all
its places, for ``z`` a house holding the eliminated candidates), and ``z`` the
unrestricted digit (None for a locked subset). The ``z`` places outside the
``z`` cover are fins, seen by every elimination; a wing whose eliminations lie
in different houses gives one step per house.

A *W-wing* is two cells with the same two digits ``{x, y}`` that do not see
each other, joined by a strong link on ``x`` (each end of it sees one cell):
``c1#y = c1#x - p#x = q#x - c2#x = c2#y``, so ``y`` leaves every cell that
sees both. Its proof is a chain.

References
----------
SudokuWiki "XY-Wing", "XYZ-Wing", "WXYZ-Wing", "W-Wing"; HoDoKu "Wings".
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import bits, pattern_step
from linkgraph.techniques.chainproof import chain_step, seeing_all
from linkgraph.techniques.singledigit import _conjugates

__all__ = ["bent_subsets", "w_wings", "wxyz_wings", "xy_wings", "xyz_wings"]


def _masks(grid: Grid) -> list[int]:
    out = []
    for row in grid.cands:
        m = 0
        for d in row.nonzero()[0]:
            m |= 1 << int(d)
        out.append(m)
    return out


def bent_subsets(grid: Grid, *, size: int = 3) -> Iterator[tuple[tuple[int, ...], int, list[int], list[int]]]:
    """Yield bent naked subsets of `size` cells that eliminate something.

    Each item is ``(cells, z, eliminations, restricted)``: cell indices, the
    unrestricted digit index (-1 when none), candidate indices eliminated and
    the restricted digit indices.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.wings.bent_subsets(grid)), list)
    True
    """
    return _bent_subsets(grid, size)


def _bent_subsets(grid: Grid, size: int):
    g = grid.geometry
    n = g.size
    masks = _masks(grid)
    counts = grid.counts
    peers = g.peers
    seen: set[tuple[int, ...]] = set()
    ok = [(2 <= counts[c] <= size) for c in range(g.number_of_cells)]
    H = len(g.houses)
    house_sets = [set(int(c) for c in g.house_cells[h]) for h in range(H)]
    for a in range(H):
        for b in range(a + 1, H):
            if not house_sets[a] & house_sets[b]:
                continue
            pool = sorted(c for c in house_sets[a] | house_sets[b] if ok[c])
            if len(pool) < size:
                continue
            only_a = house_sets[a] - house_sets[b]
            only_b = house_sets[b] - house_sets[a]
            for combo in _small_unions(pool, masks, size):
                if not (only_a.intersection(combo) and only_b.intersection(combo)):
                    continue
                if set(g.cell_houses[combo[0]]).intersection(*(g.cell_houses[c] for c in combo[1:])):
                    continue
                if combo in seen:
                    continue
                seen.add(combo)
                union = 0
                for c in combo:
                    union |= masks[c]
                free, restricted = [], []
                for d in bits(union):
                    places = [c for c in combo if masks[c] >> d & 1]
                    if all(peers[x, y] for x, y in combinations(places, 2)):
                        restricted.append(d)
                    else:
                        free.append(d)
                if len(free) > 1:
                    continue
                targets: list[int] = []
                for d in free or restricted:
                    places = [c * n + d for c in combo if masks[c] >> d & 1]
                    targets += [int(t) for t in seeing_all(grid, places) if t % n == d and t // n not in combo]
                if targets:
                    yield combo, (free[0] if free else -1), sorted(set(targets)), restricted


def _small_unions(pool: list[int], masks: list[int], size: int) -> Iterator[tuple[int, ...]]:
    """Combinations of `size` cells of `pool` whose digits number exactly `size` (pruned search)."""
    def grow(start: int, chosen: tuple[int, ...], union: int) -> Iterator[tuple[int, ...]]:
        if len(chosen) == size:
            if union.bit_count() == size:
                yield chosen
            return
        for i in range(start, len(pool) - (size - len(chosen)) + 1):
            u = union | masks[pool[i]]
            if u.bit_count() <= size:
                yield from grow(i + 1, (*chosen, pool[i]), u)

    return grow(0, (), 0)


def _wing_name(grid: Grid, combo: tuple[int, ...]) -> str:
    if len(combo) == 4:
        return "wxyz-wing"
    return "xy-wing" if all(grid.counts[c] == 2 for c in combo) else "xyz-wing"


def _wings(grid: Grid, wanted: str, size: int) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    for combo, z, elims, restricted in _bent_subsets(grid, size):
        if _wing_name(grid, combo) != wanted:
            continue
        places = {d: [c for c in combo if grid.cands[c, d]] for d in {*restricted, z} if d >= 0}
        default = {}
        for d in restricted:
            common = set(g.cell_houses[places[d][0]]).intersection(*(g.cell_houses[c] for c in places[d]))
            default[d] = min(common)
        # one step per cover choice: each elimination lies in the cover set of its digit
        groups: dict[tuple[int, int], list[int]] = {}
        for d in sorted({t % n for t in elims}):
            left = [t for t in elims if t % n == d]
            while left:
                options = {
                    h for t in left for h in g.cell_houses[t // n]
                    if d == z or all(c in g.house_cells[h] for c in places[d])
                }
                h = max(sorted(options), key=lambda h: (sum(t // n in g.house_cells[h] for t in left), h == default.get(d)))
                groups[d, h] = [t for t in left if t // n in g.house_cells[h]]
                left = [t for t in left if t not in groups[d, h]]
        for (d, h), targets in sorted(groups.items()):
            covers = dict(default)
            covers[d] = h
            cover = [g.number_of_cells + covers[k] * n + k for k in sorted(covers)]
            yield pattern_step(
                wanted, g, base=list(combo), cover=cover, eliminations=targets,
                z=(z + 1 if z >= 0 else None), cells=[str(g.cell(c)) for c in combo],
            )


def xy_wings(grid: Grid) -> Iterator[Step]:
    """Yield XY-wings: three bivalue cells as a bent naked triple.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.wings.xy_wings(grid)), list)
    True
    """
    return _wings(grid, "xy-wing", 3)


def xyz_wings(grid: Grid) -> Iterator[Step]:
    """Yield XYZ-wings: bent naked triples with a cell of three digits.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.wings.xyz_wings(grid)), list)
    True
    """
    return _wings(grid, "xyz-wing", 3)


def wxyz_wings(grid: Grid) -> Iterator[Step]:
    """Yield WXYZ-wings: bent naked quads.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.wings.wxyz_wings(grid)), list)
    True
    """
    return _wings(grid, "wxyz-wing", 4)


def w_wings(grid: Grid) -> Iterator[Step]:
    """Yield W-wings: two equal bivalue cells joined by a strong link.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.wings.w_wings(grid)), list)
    True
    """
    return _w_wings(grid)


def _w_wings(grid: Grid) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    masks = _masks(grid)
    bivalue = [c for c in range(g.number_of_cells) if grid.counts[c] == 2]
    conj = {d: _conjugates(grid, d) for d in range(n)}
    seen: set[tuple] = set()
    for c1, c2 in combinations(bivalue, 2):
        if masks[c1] != masks[c2] or g.peers[c1, c2]:
            continue
        for x in bits(masks[c1]):
            y = next(d for d in bits(masks[c1]) if d != x)
            targets = [int(t) for t in seeing_all(grid, [c1 * n + y, c2 * n + y]) if t % n == y]
            if not targets:
                continue
            for pair in conj[x]:
                for p, q in (pair, pair[::-1]):
                    if p in (c1, c2) or q in (c1, c2) or not (g.peers[p, c1] and g.peers[q, c2]):
                        continue
                    key = (c1, c2, y)
                    if key in seen:
                        continue
                    seen.add(key)
                    idx = [c1 * n + y, c1 * n + x, p * n + x, q * n + x, c2 * n + x, c2 * n + y]
                    nodes = [g.candidate(k) for k in idx]
                    yield chain_step("w-wing", grid, nodes, eliminations=targets)
