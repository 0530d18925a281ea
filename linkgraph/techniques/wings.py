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

The searches work on bit masks of cells and digits. Bent subsets are screened
inside each pair of houses with numpy (the digits of every combination of the
pair's cells ORed at once; long pools are grown cell by cell instead), then
the digits that stay free are found for all subsets at once; the XY- and
XYZ-wing rungs share one search per grid (a small cache: a grid is immutable
and hashable).

References
----------
SudokuWiki "XY-Wing", "XYZ-Wing", "WXYZ-Wing", "W-Wing"; HoDoKu "Wings".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

import numpy as np

from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import SharedSearch, bits, cached, pattern_step
from linkgraph.techniques.chainproof import chain_step
from linkgraph.techniques.singledigit import _cells, _conjugates, _digit_masks, bitcount

__all__ = ["bent_subsets", "w_wings", "wxyz_wings", "xy_wings", "xyz_wings"]


def _masks(grid: Grid) -> list[int]:
    """Per cell, the bit mask of its live digit indices."""
    n = grid.size
    return (grid.cands.astype(np.int64) @ (np.int64(1) << np.arange(n, dtype=np.int64))).tolist()


def bent_subsets(grid: Grid, *, size: int = 3) -> Iterator[tuple[tuple[int, ...], int, list[int], list[int]]]:
    """Yield bent naked subsets of `size` cells that eliminate something.

    Each item is ``(cells, z, eliminations, restricted)``: cell indices, the
    unrestricted digit index (-1 when none), candidate indices eliminated and
    the restricted digit indices. The search runs once per (grid, size) and is
    kept for the other rungs that ask about the same grid (XY- and XYZ-wing).

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.wings.bent_subsets(grid)), list)
    True
    """
    return iter(cached(f"bent-{size}", grid, lambda grid: SharedSearch(_bent_subsets(grid, size))))


@lru_cache(maxsize=8)
def _house_pairs(g) -> list[tuple[list[int], int, int]]:
    """(cells of both, mask of the cells only in the first, only in the second) of every two houses
    that share cells, in house order."""
    H = len(g.houses)
    house_sets = [set(int(c) for c in g.house_cells[h]) for h in range(H)]
    out = []
    for a in range(H):
        for b in range(a + 1, H):
            if not house_sets[a] & house_sets[b]:
                continue
            only_a = sum(1 << c for c in house_sets[a] - house_sets[b])
            only_b = sum(1 << c for c in house_sets[b] - house_sets[a])
            out.append((sorted(house_sets[a] | house_sets[b]), only_a, only_b))
    return out


@lru_cache(maxsize=64)
def _index_table(length: int, size: int) -> np.ndarray:
    """(combinations, size) positions, in `itertools.combinations` order."""
    return np.array(list(combinations(range(length), size)), dtype=np.intp).reshape(-1, size)


@lru_cache(maxsize=8)
def _pair_tables(g) -> tuple[np.ndarray, np.ndarray]:
    """The house pairs as arrays: (pairs, width) cells, ascending, -1 padded; and each cell's side,
    bit 0 only in the first house, bit 1 only in the second."""
    pairs = _house_pairs(g)
    width = max((len(both) for both, _, _ in pairs), default=1)
    cells = np.full((len(pairs), width), -1, dtype=np.intp)
    side = np.zeros((len(pairs), width), dtype=np.int64)
    for p, (both, only_a, only_b) in enumerate(pairs):
        cells[p, : len(both)] = both
        side[p, : len(both)] = [(only_a >> c & 1) | (only_b >> c & 1) << 1 for c in both]
    return cells, side


def _bent_combos(grid: Grid, size: int) -> Iterator[tuple[int, ...]]:
    """Every `size` cells holding `size` digits between them, with a cell only in the first and one
    only in the second of two houses that share cells; house pairs in order, each pair's cells in
    `combinations` order, each set of cells once.

    Each pair's pool (its cells with 2 to `size` digits) is screened with numpy, all
    pools of one length at once: the digits and sides of every combination of
    positions ORed together. Pools of more than 18 cells are grown instead.
    """
    g = grid.geometry
    masks = _masks(grid)
    mask_arr = np.array(masks, dtype=np.int64)
    counts = bitcount(mask_arr)
    ok = np.append((counts >= 2) & (counts <= size), False)  # index -1: padding
    cells, side = _pair_tables(g)
    usable = ok[cells]
    lengths = usable.sum(axis=1)
    # pools packed to the left, in cell order
    order = np.argsort(~usable, axis=1, kind="stable")
    pools = np.take_along_axis(cells, order, axis=1)
    sides = np.take_along_axis(side, order, axis=1)
    found_pairs, found_cells = [], []
    for length in np.unique(lengths[lengths >= size]).tolist():
        rows = np.flatnonzero(lengths == length)
        if length > 18:
            for p in rows.tolist():
                both, only_a, only_b = _house_pairs(g)[p]
                pool = pools[p, :length].tolist()
                combos = _small_unions(pool, masks, size, only_a, only_b)
                found_pairs.append(np.full(len(combos), p, dtype=np.intp))
                found_cells.append(np.array(combos, dtype=np.intp).reshape(-1, size))
            continue
        table = _index_table(length, size)
        pool = pools[rows, :length]  # (pairs, length)
        # digits in the low 32 bits, sides above: one OR over the positions of each combination
        both = mask_arr[pool] | sides[rows, :length] << 32
        union = both[:, table[:, 0]]  # (pairs, combinations)
        for j in range(1, size):
            union |= both[:, table[:, j]]
        gi, ci = np.nonzero((bitcount(union & 0xFFFFFFFF) == size) & (union >> 32 == 3))
        found_pairs.append(rows[gi])
        found_cells.append(pool[gi[:, None], table[ci]])
    if not found_pairs:
        return
    pair = np.concatenate(found_pairs)
    combo = np.concatenate(found_cells)
    if not len(pair):
        return
    # the first pair (in pair order) that holds each set of cells; sets in cell order within a pair
    key = np.zeros(len(combo), dtype=np.int64)
    for j in range(size):
        key = key * g.number_of_cells + combo[:, j]
    order = np.lexsort((key, pair))
    _, first = np.unique(key[order], return_index=True)
    for i in order[np.sort(first)].tolist():
        yield tuple(combo[i].tolist())


def _small_unions(pool: list[int], masks: list[int], size: int, only_a: int, only_b: int) -> list[tuple[int, ...]]:
    """Combinations of `size` cells of `pool` (in `combinations` order) whose digits number exactly
    `size` and that hold a cell of `only_a` and one of `only_b` (cell masks); branches whose digits
    already number more, or that can no longer reach both masks, are cut."""
    out: list[tuple[int, ...]] = []
    L = len(pool)
    pm = [masks[c] for c in pool]
    side = [(only_a >> c & 1) | (only_b >> c & 1) << 1 for c in pool]  # bit 0: only_a, bit 1: only_b
    reach = [0] * (L + 1)  # the sides still on offer from position i on
    for i in range(L - 1, -1, -1):
        reach[i] = reach[i + 1] | side[i]

    def grow(start: int, chosen: tuple[int, ...], union: int, sides: int) -> None:
        left = size - len(chosen) - 1
        for i in range(start, L - left):
            u = union | pm[i]
            if u.bit_count() > size:
                continue
            s = sides | side[i]
            if left:
                if s | reach[i + 1] == 3:
                    grow(i + 1, (*chosen, pool[i]), u, s)
            elif s == 3 and u.bit_count() == size:
                out.append((*chosen, pool[i]))

    grow(0, (), 0, 0)
    return out


def _bent_subsets(grid: Grid, size: int):
    g = grid.geometry
    n = g.size
    combos = list(_bent_combos(grid, size))
    if not combos:
        return
    masks = _masks(grid)
    cells = _cells(g)
    peer_mask = cells.peer_mask
    house_sets = cells.house_sets
    digit_cells = _digit_masks(grid)
    # a digit is free (unrestricted) when two of its places in the subset do not see each other;
    # screened for every subset at once
    K = np.array(combos, dtype=np.intp)
    has = (np.array(masks, dtype=np.int64)[K][:, :, None] >> np.arange(n)) & 1 == 1  # (subsets, size, digits)
    apart = ~g.peers[K[:, :, None], K[:, None, :]] & ~np.eye(size, dtype=bool)  # (subsets, size, size)
    free_digits = (has[:, :, None, :] & has[:, None, :, :] & apart[:, :, :, None]).any(axis=(1, 2))
    for k in np.flatnonzero(free_digits.sum(axis=1) <= 1).tolist():
        combo = combos[k]
        if house_sets[combo[0]].intersection(*(house_sets[c] for c in combo[1:])):
            continue  # inside one house: a naked subset, not bent
        combo_mask = 0
        union = 0
        for c in combo:
            combo_mask |= 1 << c
            union |= masks[c]
        free = [d for d in bits(union) if free_digits[k, d]]
        restricted = [d for d in bits(union) if not free_digits[k, d]]
        targets: list[int] = []
        for d in free or restricted:
            hit = digit_cells[d] & ~combo_mask
            for c in combo:
                if masks[c] >> d & 1:
                    hit &= peer_mask[c]
            targets += [t * n + d for t in bits(hit)]
        if targets:
            yield combo, (free[0] if free else -1), sorted(set(targets)), restricted


def _wing_name(counts, combo: tuple[int, ...]) -> str:
    if len(combo) == 4:
        return "wxyz-wing"
    return "xy-wing" if all(counts[c] == 2 for c in combo) else "xyz-wing"


def _wings(grid: Grid, wanted: str, size: int) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    counts = grid.counts.tolist()
    for combo, z, elims, restricted in bent_subsets(grid, size=size):
        if _wing_name(counts, combo) != wanted:
            continue
        places = {d: [c for c in combo if grid.cands[c, d]] for d in {*restricted, z} if d >= 0}
        default = {}
        for d in restricted:
            common = set(g.cell_houses[places[d][0]]).intersection(*(g.cell_houses[c] for c in places[d]))
            if common:
                default[d] = min(common)
        if len(default) < len(restricted):
            # places that see each other pairwise through different houses (Sudoku X
            # diagonals): no cover set holds them, so the pattern proof cannot state it
            continue
        # one step per cover choice: each elimination lies in the cover set of its digit
        groups: dict[tuple[int, int], list[int]] = {}
        for d in sorted({t % n for t in elims}):
            left = [t for t in elims if t % n == d]
            while left:
                options = {
                    h for t in left for h in g.cell_houses[t // n]
                    if d == z or all(c in g.house_cells[h] for c in places[d])
                }
                if not options:
                    # seen through different houses (a diagonal, say): sound, but no
                    # single cover set holds it, so the pattern proof cannot state it
                    break
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
    peer_mask = _cells(g).peer_mask
    digit_cells = _digit_masks(grid)
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    alike: dict[int, list[int]] = {}
    for c in bivalue:
        alike.setdefault(masks[c], []).append(c)
    seen: set[tuple] = set()
    for c1 in bivalue:
        for c2 in alike[masks[c1]]:
            if c2 <= c1 or peer_mask[c1] >> c2 & 1:
                continue
            both = peer_mask[c1] & peer_mask[c2]
            for x in bits(masks[c1]):
                y = next(d for d in bits(masks[c1]) if d != x)
                hit = both & digit_cells[y]
                if not hit:
                    continue
                targets = [t * n + y for t in bits(hit)]
                for pair in _conjugates(grid, x):
                    for p, q in (pair, pair[::-1]):
                        if p in (c1, c2) or q in (c1, c2) or not (peer_mask[p] >> c1 & 1 and peer_mask[q] >> c2 & 1):
                            continue
                        key = (c1, c2, y)
                        if key in seen:
                            continue
                        seen.add(key)
                        idx = [c1 * n + y, c1 * n + x, p * n + x, q * n + x, c2 * n + x, c2 * n + y]
                        nodes = [g.candidate(k) for k in idx]
                        yield chain_step("w-wing", grid, nodes, eliminations=targets)
