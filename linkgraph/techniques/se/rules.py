"""SE's basic rules, each a generator of hints in SE's own search order.

The order of the rules is `DIRECT_RULES` then `INDIRECT_RULES` (`linkgraph.techniques.se.solver`
runs them); inside a rule, hints come out in the order SE finds them: regions block, column,
row (singles, subsets) or the crossing pairs block/column, block/row, column/block, row/block
(intersections), value and cell tuples in increasing bit-mask order (SE's ``Permutations``),
cells row by row. Ratings are SE's: hidden single 1.2 in a block and 1.5 in a line (1.0 for
the last empty cell of a region), direct pointing 1.7, direct claiming 1.9, direct hidden
pair 2.0, naked single 2.3, direct hidden triplet 2.5, pointing 2.6, claiming 2.8, naked
pair 3.0, X-Wing 3.2, hidden pair 3.4, naked triplet 3.6, swordfish 3.8, hidden triplet
4.0, XY-Wing 4.2, XYZ-Wing 4.4, naked quad 5.0, jellyfish 5.2, hidden quad 5.4, aligned pair
exclusion 6.2, aligned triplet exclusion 7.5.

Examples
--------
>>> from linkgraph.techniques.se.board import Board
>>> from linkgraph.techniques.se import rules
>>> board = Board.from_grid(lg.Grid.parse(lg.samples.EULER_01))
>>> hint = next(rules.hidden_singles(board))
>>> hint.name, hint.difficulty, hint.cell, hint.value
('Hidden Single', 1.2, 10, 6)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

from linkgraph.techniques.se.board import (
    BLOCK, CELL_REGIONS, COLUMN, HOUSE_CELLS, PEERS, REGION_CELLS, ROW, Board, bits, cell_name, popcount,
    region_name, set_text,
)
from linkgraph.techniques.se.hints import Hint, PatternHint

__all__ = ["DIRECT_RULES", "INDIRECT_RULES", "NESTED_BASIC_RULES", "aligned_exclusions", "colex", "fish",
           "hidden_sets", "hidden_singles", "lockings", "naked_sets", "naked_singles", "xy_wings"]


def colex(k: int, n: int) -> list[tuple[int, ...]]:
    """The k-subsets of range(n) in increasing bit-mask order (SE's ``Permutations``)."""
    return sorted(combinations(range(n), k), key=lambda t: sum(1 << i for i in t))


_COLEX9 = {k: colex(k, 9) for k in (2, 3, 4)}

#: Region numbers by type, in SE's order within the type.
_BLOCKS, _ROWS, _COLUMNS = range(0, 9), range(9, 18), range(18, 27)
_TYPE_REGIONS = {BLOCK: _BLOCKS, ROW: _ROWS, COLUMN: _COLUMNS}


def _cell_text(c: int) -> str:
    return cell_name(c)


def hidden_singles(board: Board) -> Iterator[Hint]:
    """Last empty cell of a region (1.0), then hidden singles (block 1.2, line 1.5); regions in
    the order blocks, columns, rows, digits 1-9."""
    for alone_only in (True, False):
        for regions in (_BLOCKS, _COLUMNS, _ROWS):
            for region in regions:
                empty = board.empty_count(region)
                for value in range(1, 10):
                    if board.count[region * 10 + value] == 1:
                        cell = board.positions(region, value)[0]
                        alone = empty == 1
                        if alone == alone_only:
                            rating = 1.0 if alone else (1.2 if region < 9 else 1.5)
                            yield PatternHint("Hidden Single", "full-house" if alone else "hidden-single", rating, {},
                                              cell, value, bases=[set_text(region, value)])


def naked_singles(board: Board) -> Iterator[Hint]:
    """A cell with one candidate (2.3), cells row by row."""
    for c in range(81):
        if board.values[c] == 0 and popcount(board.cands[c]) == 1:
            yield PatternHint("Naked Single", "naked-single", 2.3, {}, c, bits(board.cands[c])[0],
                              bases=[_cell_text(c)])


def _crosses(r1: int, r2: int) -> bool:
    return bool(set(REGION_CELLS[r1]) & set(REGION_CELLS[r2]))


_LOCK_PAIRS = ((_BLOCKS, _COLUMNS), (_BLOCKS, _ROWS), (_COLUMNS, _BLOCKS), (_ROWS, _BLOCKS))


def lockings(board: Board, *, direct: bool = False, changed=None) -> Iterator[Hint]:
    """Pointing (2.6) and claiming (2.8); with `direct`, only those that leave a hidden single
    in another region of the first kind (direct pointing 1.7, direct claiming 1.9).

    `changed` (nested use): the ``region * 10 + digit`` keys that lost places; a hint whose
    base region lost none relies on nothing removed, and is not produced."""
    for type1, type2 in _LOCK_PAIRS:
        for r1 in type1:
            if changed is not None and not any(r1 * 10 + v in changed for v in range(1, 10)):
                continue
            set1 = set(REGION_CELLS[r1])
            for r2 in type2:
                if not _crosses(r1, r2):
                    continue
                set2 = set(REGION_CELLS[r2])
                for value in range(1, 10):
                    if changed is not None and r1 * 10 + value not in changed:
                        continue
                    pos = board.positions(r1, value)
                    if len(pos) > 1 and all(c in set2 for c in pos):
                        bit = 1 << value
                        removable = {c: bit for c in REGION_CELLS[r2] if c not in set1 and board.cands[c] & bit}
                        if direct:
                            for r3 in type1:
                                if r3 == r1 or not _crosses(r3, r2):
                                    continue
                                pos3 = board.positions(r3, value)
                                if len(pos3) > 1:
                                    rest = [c for c in pos3 if c not in set2]
                                    if len(rest) == 1:
                                        pointing = r1 < 9
                                        yield PatternHint(
                                            "Direct Pointing" if pointing else "Direct Claiming",
                                            "direct-pointing" if pointing else "direct-claiming",
                                            1.7 if pointing else 1.9, removable, rest[0], value,
                                            bases=[set_text(r1, value)], covers=[set_text(r2, value)])
                        elif removable:
                            pointing = r1 < 9
                            yield PatternHint("Pointing" if pointing else "Claiming",
                                              "locked-pointing" if pointing else "locked-claiming",
                                              2.6 if pointing else 2.8, removable,
                                              bases=[set_text(r1, value)], covers=[set_text(r2, value)],
                                              kind="locking", data=(value, (r1,), (r2,)))


_HIDDEN_RATING = {2: 3.4, 3: 4.0, 4: 5.4}
_DIRECT_HIDDEN_RATING = {2: 2.0, 3: 2.5, 4: 4.3}
_SET_NAMES = {2: "Pair", 3: "Triplet", 4: "Quad"}


def hidden_sets(board: Board, degree: int, *, direct: bool = False, changed=None) -> Iterator[Hint]:
    """Hidden pairs, triplets, quads (3.4, 4.0, 5.4), regions blocks, columns, rows; with
    `direct`, only those leaving a hidden single in the region (2.0, 2.5). `changed`: see
    `lockings` (a hidden set none of whose digits lost a place in its region is skipped)."""
    for regions in (_BLOCKS, _COLUMNS, _ROWS):
        for region in regions:
            if changed is not None and not any(region * 10 + v in changed for v in range(1, 10)):
                continue
            empty = board.empty_count(region)
            if not (empty > degree * 2 or (direct and empty > degree)):
                continue
            cells = REGION_CELLS[region]
            masks = []
            for value in range(1, 10):
                bit = 1 << value
                masks.append(sum(1 << i for i, c in enumerate(cells) if board.cands[c] & bit))
            for tup in _COLEX9[degree]:
                union = 0
                ok = True
                for i in tup:
                    m = masks[i]
                    if popcount(m << 1) <= 1:  # popcount table is indexed by digit masks
                        ok = False
                        break
                    union |= m
                if not ok or bin(union).count("1") != degree:
                    continue
                if changed is not None and not any(region * 10 + i + 1 in changed for i in tup):
                    continue
                values = [i + 1 for i in tup]
                vmask = sum(1 << v for v in values)
                set_cells = [cells[i] for i in range(9) if union >> i & 1]
                removable = {c: board.cands[c] & ~vmask for c in set_cells if board.cands[c] & ~vmask}
                bases = [set_text(region, v) for v in values]
                covers = [_cell_text(c) for c in set_cells]
                if direct:
                    for value in range(1, 10):
                        if vmask >> value & 1:
                            continue
                        pos = masks[value - 1]
                        if bin(pos).count("1") > 1:
                            rest = pos & ~union
                            if bin(rest).count("1") == 1:
                                cell = cells[rest.bit_length() - 1]
                                yield PatternHint(f"Direct Hidden {_SET_NAMES[degree]}", f"direct-hidden-{_SET_NAMES[degree].lower()}",
                                                  _DIRECT_HIDDEN_RATING[degree], removable, cell, value,
                                                  bases=bases, covers=covers)
                                break
                elif removable:
                    yield PatternHint(f"Hidden {_SET_NAMES[degree]}", f"hidden-{_SET_NAMES[degree].lower()}",
                                      _HIDDEN_RATING[degree], removable, bases=bases, covers=covers,
                                      kind="hidden", data=(region, tuple(values)))


_NAKED_RATING = {2: 3.0, 3: 3.6, 4: 5.0}


def naked_sets(board: Board, degree: int, *, changed_cells=None) -> Iterator[Hint]:
    """Naked pairs, triplets, quads (3.0, 3.6, 5.0), regions blocks, columns, rows.
    `changed_cells` (nested use): the cells that lost candidates; a naked set of none of them
    relies on nothing removed, and is not produced."""
    for regions in (_BLOCKS, _COLUMNS, _ROWS):
        for region in regions:
            if board.empty_count(region) < degree * 2:
                continue
            cells = REGION_CELLS[region]
            if changed_cells is not None and not any(c in changed_cells for c in cells):
                continue
            for tup in _COLEX9[degree]:
                if changed_cells is not None and not any(cells[i] in changed_cells for i in tup):
                    continue
                union = 0
                ok = True
                for i in tup:
                    m = board.cands[cells[i]]
                    if popcount(m) <= 1:
                        ok = False
                        break
                    union |= m
                if not ok or popcount(union) != degree:
                    continue
                mine = {cells[i] for i in tup}
                removable = {c: board.cands[c] & union for c in cells if c not in mine and board.cands[c] & union}
                if removable:
                    values = bits(union)
                    yield PatternHint(f"Naked {_SET_NAMES[degree]}", f"naked-{_SET_NAMES[degree].lower()}",
                                      _NAKED_RATING[degree], removable,
                                      bases=[_cell_text(cells[i]) for i in tup],
                                      covers=[set_text(region, v) for v in values],
                                      kind="naked", data=(tuple(cells[i] for i in tup), values))


_FISH_RATING = {2: 3.2, 3: 3.8, 4: 5.2}
_FISH_NAMES = {2: ("X-Wing", "x-wing"), 3: ("Swordfish", "swordfish"), 4: ("Jellyfish", "jellyfish")}


def fish(board: Board, degree: int, *, changed=None) -> Iterator[Hint]:
    """X-Wing, swordfish, jellyfish (3.2, 3.8, 5.2): columns as bases first, then rows.
    `changed`: see `lockings` (a fish none of whose base lines lost a place is skipped)."""
    placed = [0] * 10
    for v in board.values:
        placed[v] += 1
    for bases, covers in ((_COLUMNS, _ROWS), (_ROWS, _COLUMNS)):
        for tup in _COLEX9[degree]:
            for value in range(1, 10):
                if placed[value] + degree * 2 > 9:
                    continue
                if changed is not None and not any(bases[i] * 10 + value in changed for i in tup):
                    continue
                bit = 1 << value
                union = 0
                ok = True
                for i in tup:
                    m = 0
                    for j, c in enumerate(REGION_CELLS[bases[i]]):
                        if board.cands[c] & bit:
                            m |= 1 << j
                    if bin(m).count("1") <= 1:
                        ok = False
                        break
                    union |= m
                if not ok or bin(union).count("1") != degree:
                    continue
                cover_idx = [j for j in range(9) if union >> j & 1]
                base_set = set(tup)
                removable = {}
                for j in cover_idx:
                    for i, c in enumerate(REGION_CELLS[covers[j]]):
                        if i not in base_set and board.cands[c] & bit:
                            removable[c] = bit
                if removable:
                    name, tech = _FISH_NAMES[degree]
                    yield PatternHint(name, tech, _FISH_RATING[degree], removable,
                                      bases=[set_text(bases[i], value) for i in tup],
                                      covers=[set_text(covers[j], value) for j in cover_idx],
                                      kind="locking",
                                      data=(value, tuple(bases[i] for i in tup), tuple(covers[j] for j in cover_idx)))


def xy_wings(board: Board, *, xyz: bool = False) -> Iterator[Hint]:
    """XY-Wing (4.2) or XYZ-Wing (4.4): pivot cells row by row, wings in house-cell order."""
    target = 3 if xyz else 2
    cands = board.cands
    for xy in range(81):
        xyv = cands[xy]
        if popcount(xyv) != target:
            continue
        for xz in HOUSE_CELLS[xy]:
            xzv = cands[xz]
            if popcount(xzv) != 2 or popcount(xyv & ~xzv) != 1:
                continue
            for yz in HOUSE_CELLS[xy]:
                yzv = cands[yz]
                if popcount(yzv) != 2:
                    continue
                union, inter = xyv | xzv | yzv, xyv & xzv & yzv
                if popcount(union) != 3 or popcount(inter) != (1 if xyz else 0):
                    continue
                z = bits(xzv & yzv)[0]
                victims = [c for c in HOUSE_CELLS[xz] if c in PEERS[yz] and (not xyz or c in PEERS[xy])
                           and c not in (xy, xz, yz)]
                removable = {c: 1 << z for c in victims if cands[c] >> z & 1}
                if removable:
                    yield Hint("XYZ-Wing" if xyz else "XY-Wing", "xyz-wing" if xyz else "xy-wing",
                               4.4 if xyz else 4.2, removable)


def _excluders(board: Board, degree: int):
    """SE's base cells for aligned exclusion and, for each, its excluding cells (peers with 2
    to `degree` candidates); None when a peer is a naked single."""
    cands = board.cands
    base: list[int] = []
    excl: dict[int, list[int]] = {}
    for c in range(81):
        if popcount(cands[c]) >= 2:
            single = False
            ex = []
            for e in HOUSE_CELLS[c]:
                k = popcount(cands[e])
                if k == 1:
                    single = True
                elif 2 <= k <= degree:
                    ex.append(e)
            if not single and ex:
                base.append(c)
                excl[c] = ex
    return base, excl


def aligned_exclusions(board: Board, degree: int) -> Iterator[Hint]:
    """Aligned pair (6.2) and triplet (7.5) exclusion, as SE searches them: pairs of base
    cells in increasing bit-mask order, then (triplets) the third cell among the two cells'
    excluders; a combination of digits is excluded by two base cells seeing each other with
    one digit, or by a common excluder all of whose digits it holds."""
    cands = board.cands
    base, excl = _excluders(board, degree)
    if len(base) < degree:
        return
    base_set = set(base)
    name = "Aligned Pair Exclusion" if degree == 2 else "Aligned Triplet Exclusion"
    rating = 6.2 if degree == 2 else 7.5
    tech = "aligned-pair-exclusion" if degree == 2 else "aligned-triplet-exclusion"
    excl_sets = {c: set(v) for c, v in excl.items()}
    pairs = _colex_pairs(len(base))
    for i0, i1 in pairs:
        c0, c1 = base[i0], base[i1]
        both = excl_sets[c0] & excl_sets[c1]
        if degree == 2:
            if len(both) < 2:
                continue
            removable = _exclusion(cands, (c0, c1), both)
            if removable:
                yield Hint(name, tech, rating, removable)
            continue
        twin = dict.fromkeys(excl[c0])
        twin.update(dict.fromkeys(excl[c1]))
        for c2 in twin:
            if c2 not in base_set or c2 == c0 or c2 == c1:
                continue
            common = both & excl_sets[c2]
            if len(common) < 2:
                continue
            removable = _exclusion(cands, (c0, c1, c2), common)
            if removable:
                yield Hint(name, tech, rating, removable)


def _colex_pairs(n: int) -> list[tuple[int, int]]:
    got = _PAIRS.get(n)
    if got is None:
        got = _PAIRS[n] = colex(2, n)
    return got


_PAIRS: dict[int, list[tuple[int, int]]] = {}


def _exclusion(cands: list[int], cells: tuple[int, ...], common) -> dict[int, int]:
    """Digits of `cells` in no allowed combination (see `aligned_exclusions`): a combination
    is allowed unless two cells that see each other hold the same digit, or it holds every
    digit of a common excluder."""
    masks = [cands[e] for e in common]
    digit_lists = [bits(cands[c]) for c in cells]
    if len(cells) == 2:
        c0, c1 = cells
        see01 = c1 in PEERS[c0]
        a0 = a1 = 0
        for d0 in digit_lists[0]:
            b0 = 1 << d0
            for d1 in digit_lists[1]:
                if see01 and d0 == d1:
                    continue
                used = b0 | 1 << d1
                for m in masks:
                    if m & ~used == 0:
                        break
                else:
                    a0 |= b0
                    a1 |= 1 << d1
        allowed = (a0, a1)
    else:
        c0, c1, c2 = cells
        see01, see02, see12 = c1 in PEERS[c0], c2 in PEERS[c0], c2 in PEERS[c1]
        a0 = a1 = a2 = 0
        for d0 in digit_lists[0]:
            b0 = 1 << d0
            for d1 in digit_lists[1]:
                if see01 and d0 == d1:
                    continue
                u01 = b0 | 1 << d1
                for d2 in digit_lists[2]:
                    if (see02 and d2 == d0) or (see12 and d2 == d1):
                        continue
                    used = u01 | 1 << d2
                    for m in masks:
                        if m & ~used == 0:
                            break
                    else:
                        a0 |= b0
                        a1 |= 1 << d1
                        a2 |= 1 << d2
        allowed = (a0, a1, a2)
    out = {}
    for j, c in enumerate(cells):
        rest = cands[c] & ~allowed[j]
        if rest:
            out[c] = rest
    return out


Rule = Callable[[Board], Iterator[Hint]]


def _named(name: str, fn: Rule) -> Rule:
    fn.__name__ = name  # type: ignore[attr-defined]
    return fn


#: SE's direct rules, in order (``Solver.directHintProducers``).
DIRECT_RULES: tuple[tuple[str, Rule], ...] = (
    ("Hidden Single", hidden_singles),
    ("Direct Pointing", lambda b: lockings(b, direct=True)),
    ("Direct Hidden Pair", lambda b: hidden_sets(b, 2, direct=True)),
    ("Naked Single", naked_singles),
    ("Direct Hidden Triplet", lambda b: hidden_sets(b, 3, direct=True)),
)

#: SE's indirect rules up to aligned pair exclusion, in order (``indirectHintProducers``);
#: unique loops and the BUG are supplied by `linkgraph.techniques.se.solver`.
INDIRECT_RULES: tuple[tuple[str, Rule], ...] = (
    ("Pointing & Claiming", lockings),
    ("Naked Pair", lambda b: naked_sets(b, 2)),
    ("X-Wing", lambda b: fish(b, 2)),
    ("Hidden Pair", lambda b: hidden_sets(b, 2)),
    ("Naked Triplet", lambda b: naked_sets(b, 3)),
    ("Swordfish", lambda b: fish(b, 3)),
    ("Hidden Triplet", lambda b: hidden_sets(b, 3)),
    ("XY-Wing", xy_wings),
    ("XYZ-Wing", lambda b: xy_wings(b, xyz=True)),
    ("Unique Loop", None),  # type: ignore[arg-type]
    ("Naked Quad", lambda b: naked_sets(b, 4)),
    ("Jellyfish", lambda b: fish(b, 4)),
    ("Hidden Quad", lambda b: hidden_sets(b, 4)),
    ("Bivalue Universal Grave", None),  # type: ignore[arg-type]
    ("Aligned Pair Exclusion", lambda b: aligned_exclusions(b, 2)),
)

#: The rules a nested chain (level >= 1) runs on its reduced grid, in order.
NESTED_BASIC_RULES: tuple[Rule, ...] = (
    lockings, lambda b: hidden_sets(b, 2), lambda b: naked_sets(b, 2), lambda b: fish(b, 2),
)
