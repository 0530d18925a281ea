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
four cells a WXYZ-wing, five a VWXYZ-wing, six a UVWXYZ-wing (the last two
are opt-in rungs, and rungs of ``--ladder se``). Their proofs are patterns:
``base`` the cells' sets, ``cover`` one house set per digit (for a restricted digit a house holding all
its places, for ``z`` a house holding the eliminated candidates), and ``z`` the
unrestricted digit (None for a locked subset). The ``z`` places outside the
``z`` cover are fins, seen by every elimination; a wing whose eliminations lie
in different houses gives one step per house.

A *W-wing* is two cells with the same two digits ``{x, y}`` that do not see
each other, joined by a strong link on ``x`` (each end of it sees one cell):
``c1#y = c1#x - p#x = q#x - c2#x = c2#y``, so ``y`` leaves every cell that
sees both. Its proof is a chain.

The searches work on bit masks of cells and digits. Bent subsets are found
with numpy, per pair of houses and (on grids of up to 9 digits) per set of N
digits: only the pair's cells inside the digit set are combined, the digits of
every combination ORed at once (long pools are grown cell by cell instead).
The free digits and the eliminations are then screened for all subsets at
once, and only the few that pass are worked out. The XY- and XYZ-wing rungs
share one search per grid (a small cache: a grid is immutable and hashable).

References
----------
SudokuWiki "XY-Wing", "XYZ-Wing", "WXYZ-Wing", "W-Wing"; HoDoKu "Wings".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

import numpy as np

from linkgraph.bitops import bitcount
from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.bitops import bits
from linkgraph.grid import cached
from linkgraph.techniques.base import SharedSearch, pattern_step
from linkgraph.techniques.chainproof import chain_step
from linkgraph.techniques.singledigit import cell_table, conjugates, digit_masks

__all__ = ["bent_subsets", "uvwxyz_wings", "vwxyz_wings", "w_wings", "wxyz_wings", "xy_wings", "xyz_wings"]

#: The wing named by its number of cells, beyond three (three: XY- or XYZ-wing).
_BIG_WINGS = {4: "wxyz-wing", 5: "vwxyz-wing", 6: "uvwxyz-wing"}


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


@lru_cache(maxsize=8)
def _pair_parts(g) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The house pairs as their first and second house and their shared cells (padded with the
    number of cells, one past the last)."""
    first, second, shared = [], [], []
    for a in range(len(g.houses)):
        for b in range(a + 1, len(g.houses)):
            common = sorted(set(g.house_cells[a].tolist()) & set(g.house_cells[b].tolist()))
            if common:
                first.append(a)
                second.append(b)
                shared.append(common)
    width = max((len(c) for c in shared), default=1)
    table = np.full((len(shared), width), g.number_of_cells, dtype=np.intp)
    for p, common in enumerate(shared):
        table[p, : len(common)] = common
    return np.array(first, dtype=np.intp), np.array(second, dtype=np.intp), table


@lru_cache(maxsize=16)
def _digit_sets(n: int, size: int) -> np.ndarray:
    """Bit masks of every `size` of `n` digit indices."""
    return np.array([sum(1 << d for d in c) for c in combinations(range(n), size)], dtype=np.int64)


_NONE = (np.zeros(0, dtype=np.intp), np.zeros((0, 0), dtype=np.intp))


def _pools(grid: Grid, size: int, mask_arr: np.ndarray, by_digits: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(pairs, usable): a house pair per row and which of its cells (`_pair_tables` order) may
    join a bent subset of `size` cells, each with 2 to `size` digits.

    By digits (the default up to 9 digits): a row per (digit set, pair), the
    pair's cells holding 2+ of those `size` digits and no other, counted for
    every digit set and pair at once; only the rows with `size` such cells, one
    only in the first house and one only in the second, are kept, so a pool
    holds a few cells instead of about ten. Otherwise a row per pair.
    """
    g = grid.geometry
    counts = bitcount(mask_arr)
    cells, _ = _pair_tables(g)
    if not (g.size <= 9 if by_digits is None else by_digits):  # 16x16: 1,820 digit sets of 4
        ok = np.append((counts >= 2) & (counts <= size), False)  # index -1: padding
        return np.arange(len(cells)), ok[cells]
    digit_sets = _digit_sets(g.size, size)
    # (cells, digit sets), cells first: the sums below run along the first axis
    inside = ((mask_arr[:, None] & ~digit_sets) == 0) & (counts >= 2)[:, None]
    inside = inside[:, inside.sum(axis=0) >= size]
    inside = np.append(inside, np.zeros((1, inside.shape[1]), dtype=bool), axis=0).view(np.uint8)  # last: padding
    first, second, shared = _pair_parts(g)
    in_house = inside[g.house_cells.T].sum(axis=0, dtype=np.uint8)  # (houses, digit sets)
    in_shared = inside[shared.T].sum(axis=0, dtype=np.uint8)  # (pairs, digit sets)
    only_a = in_house[first] - in_shared
    only_b = in_house[second] - in_shared
    pi, si = np.nonzero((only_a > 0) & (only_b > 0) & (only_a + only_b + in_shared >= size))
    return pi, inside[cells[pi], si[:, None]].view(bool)


def _bent_found(grid: Grid, size: int, mask_arr: np.ndarray, masks: list[int], by_digits: bool | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """(pairs, cells) of every `size` cells holding `size` digits between them, with a cell only in
    the first and one only in the second of two houses that share cells: the house pair and the
    cells (ascending), once in every pair that holds them, in no particular order.

    The pools of `_pools` are combined with numpy, all pools of one length at
    once (the short ones padded to `size` + 1 cells): the digits and sides of
    every combination of positions ORed together. Pools of more than 18 cells
    are grown instead.
    """
    g = grid.geometry
    pair, usable = _pools(grid, size, mask_arr, by_digits)
    cells, side = _pair_tables(g)
    # pools packed to the left, in cell order; digits in the low 32 bits of `both`, sides above,
    # and every digit in the places past a pool's end
    r, c = np.nonzero(usable)
    lengths = np.bincount(r, minlength=len(usable))
    at = np.arange(len(r)) - (np.cumsum(lengths) - lengths)[r]
    pools = np.full((len(usable), max(lengths.max(initial=0), size + 1)), -1, dtype=np.intp)
    pools[r, at] = cells[pair[r], c]
    both = np.full(pools.shape, 0xFFFFFFFF, dtype=np.int64)
    both[r, at] = mask_arr[pools[r, at]] | side[pair[r], c] << 32
    widths = np.maximum(lengths, size + 1)
    found_pairs, found_cells = [], []
    for width in np.unique(widths[lengths >= size]).tolist():
        rows = np.flatnonzero((widths == width) & (lengths >= size))
        if width > 18:
            for row in rows.tolist():
                _, only_a, only_b = _house_pairs(g)[pair[row]]
                combos = _small_unions(pools[row, : lengths[row]].tolist(), masks, size, only_a, only_b)
                found_pairs.append(np.full(len(combos), pair[row], dtype=np.intp))
                found_cells.append(np.array(combos, dtype=np.intp).reshape(-1, size))
            continue
        table = _index_table(width, size)
        union = both[rows[:, None], table[:, 0]]  # (rows, combinations)
        for j in range(1, size):
            union |= both[rows[:, None], table[:, j]]
        gi, ci = np.nonzero((bitcount(union & 0xFFFFFFFF) == size) & (union >> 32 == 3))
        found_pairs.append(pair[rows[gi]])
        found_cells.append(pools[rows[gi][:, None], table[ci]])
    if not found_pairs:
        return _NONE
    return np.concatenate(found_pairs), np.concatenate(found_cells)


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


@lru_cache(maxsize=8)
def _apart_pairs(size: int) -> tuple[np.ndarray, np.ndarray]:
    """The two positions of every pair of positions in a subset of `size` cells."""
    i, j = np.array(list(combinations(range(size), 2)), dtype=np.intp).T
    return i, j


def _bent_subsets(grid: Grid, size: int):
    """The items of `bent_subsets`: every `size` cells of `_bent_found` with at most one free digit
    and something to eliminate, screened for all at once; in house pair order (the first pair
    that holds the cells), each pair's subsets in `combinations` order, each once."""
    g = grid.geometry
    n = g.size
    masks = _masks(grid)
    mask_arr = np.array(masks, dtype=np.int64)
    pair, K = _bent_found(grid, size, mask_arr, masks)
    if not len(K):
        return
    # a digit is free (unrestricted) when two of its places in the subset do not see each other
    M = mask_arr[K]  # (subsets, size) digits of each cell
    i, j = _apart_pairs(size)
    free = np.bitwise_or.reduce(np.where(g.peers[K[:, i], K[:, j]], 0, M[:, i] & M[:, j]), axis=1)
    keep = np.flatnonzero(bitcount(free) <= 1)
    if not len(keep):
        return
    pair, K, M, free = pair[keep], K[keep], M[keep], free[keep]
    # the eliminations: live places of the free digit (of every digit when none is free) that
    # see all the digit's places in the subset; one row per subset and digit
    union = np.bitwise_or.reduce(M, axis=1)
    row, digit = np.nonzero((np.where(free != 0, free, union)[:, None] >> np.arange(n)) & 1)
    places = (M[row] >> digit[:, None]) & 1 == 1  # (rows, size)
    hit = (~places[:, :, None] | g.peers[K[row]]).all(axis=1) & grid.cands.T[digit]  # (rows, cells)
    found = np.flatnonzero(hit.any(axis=1))
    if not len(found):
        return
    keep = np.unique(row[found])
    house_sets = cell_table(g).house_sets
    for k in keep[_first_found(g, pair[keep], K[keep])].tolist():
        combo = tuple(K[k].tolist())
        if house_sets[combo[0]].intersection(*(house_sets[c] for c in combo[1:])):
            continue  # inside one house: a naked subset, not bent
        targets = sorted(t * n + int(digit[i]) for i in found[row[found] == k] for t in np.flatnonzero(hit[i]).tolist())
        free_k = int(free[k])
        yield combo, free_k.bit_length() - 1, targets, bits(int(union[k]) & ~free_k)


def _first_found(g, pair: np.ndarray, combo: np.ndarray) -> np.ndarray:
    """The rows of `combo` in search order: each set of cells once, at the first pair (in pair
    order) that holds it; sets in cell order within a pair."""
    key = np.zeros(len(combo), dtype=np.int64)
    for j in range(combo.shape[1]):
        key = key * g.number_of_cells + combo[:, j]
    order = np.lexsort((key, pair))
    _, first = np.unique(key[order], return_index=True)
    return order[np.sort(first)]


def _wing_name(counts, combo: tuple[int, ...]) -> str:
    if len(combo) > 3:
        return _BIG_WINGS[len(combo)]
    return "xy-wing" if all(counts[c] == 2 for c in combo) else "xyz-wing"


def _wings(grid: Grid, wanted: str, size: int, pivot: bool = False) -> Iterator[Step]:
    g = grid.geometry
    n = g.size
    counts = grid.counts.tolist()
    for combo, z, elims, restricted in bent_subsets(grid, size=size):
        if _wing_name(counts, combo) != wanted:
            continue
        if pivot and not any(all(g.peers[p, q] for q in combo if q != p) for p in combo):
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


def vwxyz_wings(grid: Grid, *, pivot: bool = False) -> Iterator[Step]:
    """Yield VWXYZ-wings: bent naked quintuples; with `pivot`, only those with a cell that
    sees all the others (Sukaku Explainer's wings, for ``--ladder se``).

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.wings.vwxyz_wings(grid)), list)
    True
    """
    return _wings(grid, "vwxyz-wing", 5, pivot)


def uvwxyz_wings(grid: Grid, *, pivot: bool = False) -> Iterator[Step]:
    """Yield UVWXYZ-wings: bent naked sextuples; with `pivot`, only those with a cell that
    sees all the others (Sukaku Explainer's wings, for ``--ladder se``).

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> isinstance(list(lg.techniques.wings.uvwxyz_wings(grid)), list)
    True
    """
    return _wings(grid, "uvwxyz-wing", 6, pivot)


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
    peer_mask = cell_table(g).peer_mask
    digit_cells = digit_masks(grid)
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
                for pair in conjugates(grid, x):
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
