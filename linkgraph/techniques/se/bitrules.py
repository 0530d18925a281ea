"""The rules a nested chain runs at each quiescence, on bit masks.

`linkgraph.techniques.se.rules` walks SE's loops literally; a nested chain (level >= 1)
runs intersections, hidden pairs, naked pairs and X-Wings at every quiescence of every
premise, which makes them the bulk of a level-1 search. These functions give the same hints
in the same order (`tests/techniques/se/test_fast.py` compares them on many grids) from
per-digit masks of the 81 cells, and only look where candidates went (the ``changed``
arguments, as in `rules`).

Examples
--------
>>> from linkgraph.techniques.se.board import Board
>>> from linkgraph.techniques.se import bitrules, rules
>>> board = Board.from_grid(lg.prepare(lg.Grid.parse(lg.samples.EULER_01)))
>>> [h.removable for h in bitrules.lockings(board)] == [h.removable for h in rules.lockings(board)]
True
"""

from __future__ import annotations

from collections.abc import Iterator

from linkgraph.techniques.se.board import REGION_CELLS, Board, bits, cell_name, set_text
from linkgraph.techniques.se.hints import Hint, PatternHint

__all__ = ["fish2", "hidden_pairs", "lockings", "naked_pairs"]

#: Each region's cells as an 81-bit mask.
REGION_MASK = tuple(sum(1 << c for c in cells) for cells in REGION_CELLS)

_BLOCKS, _ROWS, _COLUMNS = range(0, 9), range(9, 18), range(18, 27)
_LOCK_PAIRS = ((_BLOCKS, _COLUMNS), (_BLOCKS, _ROWS), (_COLUMNS, _BLOCKS), (_ROWS, _BLOCKS))
#: For each region, the regions of another type it crosses, by type (block, row, column).
_CROSSING = tuple(
    {t: tuple(r2 for r2 in rng if REGION_MASK[r1] & REGION_MASK[r2]) for t, rng in
     enumerate((_BLOCKS, _ROWS, _COLUMNS))} for r1 in range(27)
)


def _digit_masks(cands: list[int]) -> list[int]:
    """For each digit 1-9, the 81-bit mask of the cells holding it (index 0 unused)."""
    masks = [0] * 10
    for c in range(81):
        m = cands[c]
        if m:
            bit = 1 << c
            for d in bits(m):
                masks[d] |= bit
    return masks


def _cells_of(mask: int, region: int) -> list[int]:
    """The cells of `mask` in `region`, in the region's order."""
    return [c for c in REGION_CELLS[region] if mask >> c & 1]


def lockings(board: Board, *, changed=None) -> Iterator[Hint]:
    """`linkgraph.techniques.se.rules.lockings` (not direct)."""
    dm = _digit_masks(board.cands)
    for type1, type2 in _LOCK_PAIRS:
        t2 = 0 if type2 is _BLOCKS else (1 if type2 is _ROWS else 2)
        for r1 in type1:
            if changed is not None and not any(r1 * 10 + v in changed for v in range(1, 10)):
                continue
            m1 = REGION_MASK[r1]
            for r2 in _CROSSING[r1][t2]:
                m2 = REGION_MASK[r2]
                for value in range(1, 10):
                    if changed is not None and r1 * 10 + value not in changed:
                        continue
                    pos = dm[value] & m1
                    if pos & (pos - 1) and not pos & ~m2:
                        victims = dm[value] & m2 & ~m1
                        if victims:
                            bit = 1 << value
                            pointing = r1 < 9
                            yield PatternHint("Pointing" if pointing else "Claiming",
                                              "locked-pointing" if pointing else "locked-claiming",
                                              2.6 if pointing else 2.8, {c: bit for c in _cells_of(victims, r2)},
                                              bases=[set_text(r1, value)], covers=[set_text(r2, value)],
                                              kind="locking", data=(value, (r1,), (r2,)))


def hidden_pairs(board: Board, *, changed=None) -> Iterator[Hint]:
    """`linkgraph.techniques.se.rules.hidden_sets` of degree 2 (not direct)."""
    cands = board.cands
    values = board.values
    for regions in (_BLOCKS, _COLUMNS, _ROWS):
        for region in regions:
            if changed is not None and not any(region * 10 + v in changed for v in range(1, 10)):
                continue
            cells = REGION_CELLS[region]
            if sum(1 for c in cells if values[c] == 0) <= 4:
                continue
            # digits with exactly two places, by their places
            two = []
            for value in range(1, 10):
                bit = 1 << value
                m = 0
                n = 0
                for i, c in enumerate(cells):
                    if cands[c] & bit:
                        m |= 1 << i
                        n += 1
                        if n > 2:
                            break
                if n == 2:
                    two.append((value, m))
            if len(two) < 2:
                continue
            # pairs in SE's order: the higher digit ascending, then the lower one
            for j in range(1, len(two)):
                vj, mj = two[j]
                for i in range(j):
                    vi, mi = two[i]
                    if mi != mj:
                        continue
                    if changed is not None and region * 10 + vi not in changed and region * 10 + vj not in changed:
                        continue
                    vmask = 1 << vi | 1 << vj
                    set_cells = [cells[k] for k in range(9) if mi >> k & 1]
                    removable = {c: cands[c] & ~vmask for c in set_cells if cands[c] & ~vmask}
                    if removable:
                        yield PatternHint("Hidden Pair", "hidden-pair", 3.4, removable,
                                          bases=[set_text(region, vi), set_text(region, vj)],
                                          covers=[cell_name(c) for c in set_cells],
                                          kind="hidden", data=(region, (vi, vj)))


def naked_pairs(board: Board, *, changed_cells=None) -> Iterator[Hint]:
    """`linkgraph.techniques.se.rules.naked_sets` of degree 2."""
    cands = board.cands
    values = board.values
    for regions in (_BLOCKS, _COLUMNS, _ROWS):
        for region in regions:
            cells = REGION_CELLS[region]
            if changed_cells is not None and not any(c in changed_cells for c in cells):
                continue
            if sum(1 for c in cells if values[c] == 0) < 4:
                continue
            pairs = [(i, cands[c]) for i, c in enumerate(cells) if _two(cands[c])]
            if len(pairs) < 2:
                continue
            for j in range(1, len(pairs)):
                ij, mj = pairs[j]
                for k in range(j):
                    ik, mk = pairs[k]
                    if mk != mj:
                        continue
                    if changed_cells is not None and cells[ik] not in changed_cells and cells[ij] not in changed_cells:
                        continue
                    removable = {c: cands[c] & mj for i, c in enumerate(cells) if i != ik and i != ij and cands[c] & mj}
                    if removable:
                        ds = bits(mj)
                        yield PatternHint("Naked Pair", "naked-pair", 3.0, removable,
                                          bases=[cell_name(cells[ik]), cell_name(cells[ij])],
                                          covers=[set_text(region, v) for v in ds],
                                          kind="naked", data=((cells[ik], cells[ij]), ds))


def _two(m: int) -> bool:
    """Whether mask `m` has exactly two bits."""
    m &= m - 1
    return m != 0 and not m & (m - 1)


def fish2(board: Board, *, changed=None) -> Iterator[Hint]:
    """`linkgraph.techniques.se.rules.fish` of degree 2 (X-Wing)."""
    cands = board.cands
    placed = [0] * 10
    for v in board.values:
        placed[v] += 1
    dm = _digit_masks(cands)
    for bases, covers in ((_COLUMNS, _ROWS), (_ROWS, _COLUMNS)):
        # the lines holding each digit twice, with the two places as a 9-bit mask
        lines: dict[int, list[tuple[int, int]]] = {}
        for value in range(1, 10):
            if placed[value] + 4 > 9:
                continue
            got = []
            for i, r in enumerate(bases):
                m = dm[value] & REGION_MASK[r]
                if _two(m):
                    local = 0
                    for j, c in enumerate(REGION_CELLS[r]):
                        if m >> c & 1:
                            local |= 1 << j
                    got.append((i, local))
            if len(got) >= 2:
                lines[value] = got
        if not lines:
            continue
        found = []
        for value, got in lines.items():
            for b in range(1, len(got)):
                ib, mb = got[b]
                for a in range(b):
                    ia, ma = got[a]
                    if ma == mb:
                        found.append((1 << ia | 1 << ib, value, ia, ib, ma))
        # SE's order: base pairs in increasing bit-mask order, then the digit
        found.sort(key=lambda t: (t[0], t[1]))
        for _, value, ia, ib, union in found:
            if changed is not None and bases[ia] * 10 + value not in changed and bases[ib] * 10 + value not in changed:
                continue
            bit = 1 << value
            cover_idx = [j for j in range(9) if union >> j & 1]
            removable = {}
            for j in cover_idx:
                for i, c in enumerate(REGION_CELLS[covers[j]]):
                    if i != ia and i != ib and cands[c] & bit:
                        removable[c] = bit
            if removable:
                yield PatternHint("X-Wing", "x-wing", 3.2, removable,
                                  bases=[set_text(bases[ia], value), set_text(bases[ib], value)],
                                  covers=[set_text(covers[j], value) for j in cover_idx],
                                  kind="locking",
                                  data=(value, (bases[ia], bases[ib]), tuple(covers[j] for j in cover_idx)))
