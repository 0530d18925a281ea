"""The bent subsets' compiled search (`techniques.kernel.bent_subsets`) against the numpy search it
replaced, kept here as its oracle: the pools of each house pair (by digit set on grids of up to 9
digits, else the pair's cells), their combinations ORed at once, the free digits and eliminations
screened for all subsets at once."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest

from linkgraph.bitops import bitcount, bits
from linkgraph.techniques import wings
from linkgraph.techniques.singledigit import cell_table
from tests.narrowings import narrowings


@lru_cache(maxsize=64)
def _index_table(length: int, size: int) -> np.ndarray:
    """(combinations, size) positions, in `itertools.combinations` order."""
    return np.array(list(combinations(range(length), size)), dtype=np.intp).reshape(-1, size)


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


def _pools(grid, size: int, mask_arr: np.ndarray, by_digits: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
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
    cells, _ = wings._pair_tables(g)
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


def _bent_found(grid, size: int, mask_arr: np.ndarray, masks: list[int], by_digits: bool | None = None
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
    cells, side = wings._pair_tables(g)
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
                _, only_a, only_b = wings._house_pairs(g)[pair[row]]
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


def bent_subsets_numpy(grid, size):
    """The former `_bent_subsets` (numpy): the items of `bent_subsets`: every `size` cells of `_bent_found` with at most one free digit
    and something to eliminate, screened for all at once; in house pair order (the first pair
    that holds the cells), each pair's subsets in `combinations` order, each once."""
    g = grid.geometry
    n = g.size
    masks = wings._masks(grid)
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




POSITIONS = list(narrowings(seed=21, top95=8, rounds=9, start=True))


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_the_compiled_search_is_the_numpy_one(size):
    seen = 0
    for grid in POSITIONS:
        want = list(bent_subsets_numpy(grid, size))
        got = list(wings._bent_subsets(grid, size))
        assert got == want
        seen += len(want)
    assert seen > 0


@pytest.mark.parametrize("size", [3, 4])
def test_bent_search_by_digit_sets_finds_what_the_pair_pools_find(size):
    # the oracle's digit-set route (9x9 default) and pair-pool route (larger grids) are the same search
    for grid in POSITIONS[:60]:
        if grid.size > 9:
            continue
        masks = wings._masks(grid)
        mask_arr = np.array(masks, dtype=np.int64)
        found = {}
        for by_digits in (True, False):
            pairs, cells = _bent_found(grid, size, mask_arr, masks, by_digits=by_digits)
            found[by_digits] = sorted(zip(pairs.tolist(), map(tuple, cells.tolist())))
        assert found[True] == found[False]
