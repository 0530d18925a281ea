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
by one compiled pass (`linkgraph.techniques.kernel.bent_subsets`): per pair of
houses, the cells with 2 to N digits are combined cell by cell, a branch cut
as soon as its digits number more than N or it can no longer hold a cell of
each house; the free digits and the eliminations are screened in the same
pass, and only the few subsets that pass are worked out here. The XY- and
XYZ-wing rungs share one search per grid (a small cache: a grid is immutable
and hashable).

References
----------
SudokuWiki "XY-Wing", "XYZ-Wing", "WXYZ-Wing", "W-Wing"; HoDoKu "Wings".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

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


def _bent_subsets(grid: Grid, size: int):
    """The items of `bent_subsets`: every `size` cells holding `size` digits, with a cell only in
    the first and one only in the second of two houses that share cells, at most one free digit
    and something to eliminate (`linkgraph.techniques.kernel.bent_subsets`, compiled); in house
    pair order (the first pair that holds the cells), each pair's subsets in `combinations`
    order, each once."""
    from linkgraph.techniques.kernel import bent_subsets as found  # noqa: PLC0415 (numba: loaded on first use)

    g = grid.geometry
    n = g.size
    masks = _masks(grid)
    cells, side = _pair_tables(g)
    _, K, free, union = found(np.array(masks, dtype=np.int64), grid.cands, g.peers, cells, side, size)
    if not len(K):
        return
    house_sets = cell_table(g).house_sets
    seen = set()
    for combo, free_k, union_k in zip(map(tuple, K.tolist()), free.tolist(), union.tolist()):
        if combo in seen:
            continue  # held by an earlier pair too
        seen.add(combo)
        if house_sets[combo[0]].intersection(*(house_sets[c] for c in combo[1:])):
            continue  # inside one house: a naked subset, not bent
        targets = []
        for d in bits(free_k or union_k):
            places = [c for c in combo if masks[c] >> d & 1]
            hit = g.peers[places].all(axis=0) & grid.cands[:, d]
            targets += [t * n + d for t in np.flatnonzero(hit).tolist()]
        yield combo, free_k.bit_length() - 1, sorted(targets), bits(union_k & ~free_k)


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
