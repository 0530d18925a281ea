"""SE 1.2.1's uniqueness producers: Unique Loops (types 1-4) and the BUG (types 1-4).

Both assume the puzzle has one solution. A **unique loop** is a closed walk of cells that
all hold two digits a and b, each cell sharing a house with the next, every house it enters
holding exactly two of its cells at an odd distance along the loop: were all its cells
reduced to {a, b}, a and b could be swapped around it, so some cell keeps another digit.
The loop's other digits ("extras") then give the four types: 1, one cell has extras (a
and b leave it); 2, every cell with extras has the same single extra x (x leaves the cells
that see them all); 3, two cells with extras act as one cell in a naked set of a house they
share, or a hidden set of that house is read with one of them left out; 4, one of a, b is
confined to the two cells in a house they share (the other leaves both).

A **BUG** (bivalue universal grave) is a position that, with some "BUG candidates" taken
out, has every open cell bivalue and every digit in 0 or 2 places of every house; such a
position has no single solution, so one BUG candidate is true. Type 1: one BUG cell (it
keeps only its BUG digits); 2: one BUG digit x (x leaves the cells that see every BUG
cell); 3: the BUG cells share a house and their BUG digits act as one cell of a naked set
there; 4: two BUG cells in one house share one other digit u, confined to them there (each
keeps only its BUG digits and u).

The searches follow SE's: loops are walked from every bivalue cell in SE's cell and region
orders (block, row, column), extras and types are read as SE reads them, set sizes are
tried as SE tries them, and hints are sorted as SE sorts them; ratings are SE's (unique
loop 4.5, +0.1 for 6 or 7 cells, +0.2 for 8 or 9, +0.5 from 10; type 3 +0.1 per cell of
its set beyond one; BUG 5.6, 5.7, 5.7 + 0.1 per digit of the naked set beyond one, 5.7).
Every hint carries a `Step` whose proof (``assumes="uniqueness"``, ``pattern`` ``"unique-loop"``
or ``"bug"``) `linkgraph.check.check_step` reads back from the grid.

Examples
--------
A unique rectangle of type 1: r1c1, r1c4, r2c1 hold only 1 and 2, r2c4 holds 1, 2 and 3.

>>> from linkgraph.techniques.se.board import Board
>>> grid = lg.Grid.parse(lg.samples.EULER_01)
>>> [h.name for h in unique_loop_hints(Board.from_grid(grid))]
[]
"""

from __future__ import annotations

from collections.abc import Iterator
import networkx as nx

from linkgraph.model import Literal, Role
from linkgraph.steps import make_step
from linkgraph.techniques.se.board import (
    CELL_REGIONS, HOUSE_CELLS, REGION_CELLS, Board, bits, candidate, cell_name, popcount, region_name,
)
from linkgraph.techniques.se.hints import Hint
from linkgraph.techniques.se.rules import colex

__all__ = ["StepHint", "bug_hints", "loop_rating", "unique_loop_hints"]


class StepHint(Hint):
    """A hint carrying the linkgraph `Step` (and proof) it was made from."""

    __slots__ = ("step", "kind")

    def __init__(self, name, technique, difficulty, removable, cell=None, value=0, *, step, kind=0):
        super().__init__(name, technique, difficulty, removable, cell, value)
        self.step = step
        self.kind = kind


def loop_rating(size: int) -> float:
    """SE's rating of a unique loop of `size` cells, before its type's additions.

    >>> [loop_rating(n) for n in (4, 6, 8, 10, 12)]
    [4.5, 4.6, 4.7, 5.0, 5.0]
    """
    return round(4.5 + (0.3 if size >= 10 else 0.0) + (0.2 if size >= 8 else 0.1 if size >= 6 else 0.0), 1)


def _mask(digits) -> int:
    m = 0
    for d in digits:
        m |= 1 << d
    return m


def _step(technique: str, removable: dict[int, int], notation: str, **graph: object) -> object:
    elims = sorted(candidate(c, d) for c, m in removable.items() for d in bits(m))
    P = nx.DiGraph(kind="pattern", assumes="uniqueness", **graph)
    for cand in elims:
        P.add_node(Literal(cand, on=False), role=Role.CONCLUSION)
    notation += " => " + ", ".join(f"{c.cell}<>{c.digit}" for c in elims)
    return make_step(technique, eliminations=elims, proof=P, notation=notation)


# ---- unique loops ---------------------------------------------------------------------
def _walk(cands: list[int], cell: int, v1: int, v2: int, loop: list[int], allowed: int,
          extra: int, last_type: int | None, out: list[list[int]]) -> None:
    """SE's loop walk from `cell`. Its quirk is kept: the extra digits gathered while trying
    the candidates for the next cell accumulate over those candidates, not only along the
    path."""
    loop.append(cell)
    pair = 1 << v1 | 1 << v2
    for rtype, region in enumerate(CELL_REGIONS[cell]):
        if rtype == last_type:
            continue
        for nxt in REGION_CELLS[region]:
            if nxt == loop[0] and len(loop) >= 4:
                out.append(list(loop))
            elif nxt not in loop:
                m = cands[nxt]
                if m & pair == pair:
                    extra |= m & ~pair
                    n = popcount(m)
                    if n == 2 or popcount(extra) == 1 or allowed > 0:
                        _walk(cands, nxt, v1, v2, loop, allowed - (n > 2), extra, rtype, out)
    loop.pop()


def _is_loop(loop: list[int]) -> bool:
    """Every region a cell of the loop lies in holds exactly two of its cells, one at an
    even and one at an odd position (SE's ``isValidLoop``)."""
    even: set[int] = set()
    odd: set[int] = set()
    for i, c in enumerate(loop):
        seen = odd if i % 2 else even
        for r in CELL_REGIONS[c]:
            if r in seen:
                return False
            seen.add(r)
    return even == odd


def _common_region(cells) -> Iterator[int]:
    """For each region type (block, row, column), the region of that type holding all `cells`."""
    for rtype in range(3):
        regions = {CELL_REGIONS[c][rtype] for c in cells}
        if len(regions) == 1:
            yield regions.pop()


def unique_loop_hints(board: Board) -> Iterator[Hint]:
    """SE's Unique Loop hints on `board`, in SE's order (rating, then type)."""
    cands = board.cands
    found: list[StepHint] = []
    keys: set = set()

    def add(hint: StepHint | None, key: tuple) -> None:
        if hint is not None and key not in keys and hint.is_worth():
            keys.add(key)
            found.append(hint)

    for start in range(81):
        if popcount(cands[start]) != 2:
            continue
        v1, v2 = bits(cands[start])
        pair = 1 << v1 | 1 << v2
        loops: list[list[int]] = []
        _walk(cands, start, v1, v2, [], 2, 0, None, loops)
        for loop in loops:
            if not _is_loop(loop):
                continue
            ids = frozenset(loop)
            extra_cells = [c for c in loop if popcount(cands[c]) > 2]
            if len(extra_cells) == 1:
                add(_loop_type1(loop, extra_cells[0], v1, v2), (1, len(loop), ids))
            elif len(extra_cells) > 2:
                add(_loop_type2(cands, loop, extra_cells, v1, v2), (2, len(loop), ids))
            elif len(extra_cells) == 2:
                c1, c2 = extra_cells
                rest = (cands[c1] | cands[c2]) & ~pair
                if popcount(rest) == 1:
                    add(_loop_type2(cands, loop, extra_cells, v1, v2), (2, len(loop), ids))
                elif popcount(rest) >= 2:
                    for hint, key in _loop_type3(board, loop, c1, c2, v1, v2):
                        add(hint, (3, len(loop), ids) + key)
                add(_loop_type4(cands, loop, c1, c2, v1, v2), (4, len(loop), ids))
    found.sort(key=lambda h: (h.difficulty, h.kind))
    yield from found


def _loop_hint(kind: int, loop: list[int], v1: int, v2: int, removable: dict[int, int],
               difficulty: float, **graph: object) -> StepHint:
    shape = "Rectangle" if len(loop) == 4 else "Loop"
    size = f" {len(loop)}" if len(loop) > 6 else ""
    name = f"Unique {shape}{size} type {kind}"
    cells = [cell_name(c) for c in loop]
    step = _step(f"se-unique-loop-{kind}", removable, f"{name} {v1}{v2} {' '.join(cells)}",
                 pattern="unique-loop", type=kind, cells=cells, pair=[v1, v2], **graph)
    return StepHint(name, f"unique-loop-{kind}", difficulty, removable, step=step, kind=kind)


def _loop_type1(loop, cell, v1, v2) -> StepHint:
    return _loop_hint(1, loop, v1, v2, {cell: 1 << v1 | 1 << v2}, loop_rating(len(loop)))


def _loop_type2(cands, loop, extra_cells, v1, v2) -> StepHint:
    x = bits(cands[extra_cells[0]] & ~(1 << v1 | 1 << v2))[0]
    common = dict.fromkeys(HOUSE_CELLS[extra_cells[0]])
    for c in extra_cells[1:]:
        seen = set(HOUSE_CELLS[c])
        common = {k: None for k in common if k in seen}
    removable = {c: 1 << x for c in common if c not in extra_cells and cands[c] >> x & 1}
    return _loop_hint(2, loop, v1, v2, removable, loop_rating(len(loop)), extra=x)


def _loop_type3(board, loop, c1, c2, v1, v2) -> Iterator[tuple[StepHint, tuple]]:
    cands = board.cands
    pair = 1 << v1 | 1 << v2
    extra = (cands[c1] | cands[c2]) & ~pair
    for degree in range(popcount(extra), 8):
        for region in _common_region((c1, c2)):
            inside = REGION_CELLS[region]
            empty = board.empty_count(region)
            i1, i2 = inside.index(c1), inside.index(c2)
            if degree * 2 <= empty:  # naked sets: c1 (standing for both) and degree - 1 cells
                for combo in colex(degree, 9):
                    if i1 not in combo or i2 in combo:
                        continue
                    others = [inside[i] for i in combo if i != i1]
                    naked = extra & cands[c1] & cands[c2]
                    union = extra
                    ok = popcount(extra) > 1
                    for c in others:
                        naked |= cands[c]
                        union |= cands[c]
                        ok = ok and popcount(cands[c]) > 1
                    if popcount(naked) != degree or not ok or popcount(union) != degree:
                        continue
                    removable = {}
                    for c in inside:
                        if c not in others and c != c1 and c != c2 and cands[c] & union:
                            removable[c] = cands[c] & union
                    digits = list(bits(union))
                    hint = _loop_hint(3, loop, v1, v2, removable, round(loop_rating(len(loop)) + (degree - 1) * 0.1, 1),
                                      set="naked", house=region_name(region),
                                      subset=[cell_name(c) for c in others], digits=digits)
                    yield hint, ("naked", region, tuple(digits), tuple(others))
            if degree * 2 < empty:  # hidden sets of a, b and degree - 2 other digits, c2 left out
                rest = [v for v in range(1, 10) if v not in (v1, v2) and not extra >> v & 1]
                if degree - 2 > len(rest):
                    continue
                for combo in colex(degree - 2, len(rest)):
                    values = [rest[i] for i in combo] + [v1, v2]
                    places = 0
                    ok = True
                    for v in values:
                        at = sum(1 << i for i, c in enumerate(inside) if cands[c] >> v & 1) & ~(1 << i2)
                        ok = ok and at != 0
                        places |= at
                    if not ok or popcount(places) != degree:
                        continue
                    hidden = _mask(values)
                    where = [inside[i] for i in range(9) if places >> i & 1 and i not in (i1, i2)]
                    removable = {c: cands[c] & ~hidden for c in where if cands[c] & ~hidden}
                    hint = _loop_hint(3, loop, v1, v2, removable, round(loop_rating(len(loop)) + (len(where) - 1) * 0.1, 1),
                                      set="hidden", house=region_name(region),
                                      subset=[cell_name(c) for c in where], digits=sorted(values),
                                      outside=cell_name(c2))
                    yield hint, ("hidden", region, tuple(sorted(values)), tuple(where))


def _loop_type4(cands, loop, c1, c2, v1, v2) -> StepHint | None:
    lock1 = lock2 = None
    for region in _common_region((c1, c2)):
        others = [c for c in REGION_CELLS[region] if c != c1 and c != c2]
        if not any(cands[c] >> v1 & 1 for c in others):
            lock1 = region
        if not any(cands[c] >> v2 & 1 for c in others):
            lock2 = region
    if lock1 is not None:
        region, lock, rem = lock1, v1, v2
    elif lock2 is not None:
        region, lock, rem = lock2, v2, v1
    else:
        return None
    return _loop_hint(4, loop, v1, v2, {c1: 1 << rem, c2: 1 << rem}, loop_rating(len(loop)),
                      house=region_name(region), digit=lock)


# ---- BUG --------------------------------------------------------------------------------
def bug_hints(board: Board) -> Iterator[Hint]:
    """SE's Bivalue Universal Grave hints on `board`, in the order SE adds them."""
    cands = board.cands
    temp = list(cands)
    bug_cells: list[int] = []
    bug_values: dict[int, int] = {}
    all_values = 0
    common: dict[int, None] | None = None
    for region, inside in enumerate(REGION_CELLS):
        for v in range(1, 10):
            if board.count[region * 10 + v] in (0, 2):
                continue
            wide = [c for c in inside if cands[c] >> v & 1 and popcount(cands[c]) >= 3]
            if len(wide) == 1:
                c = wide[0]
                if c not in bug_cells:
                    bug_cells.append(c)
                bug_values[c] = bug_values.get(c, 0) | 1 << v
                all_values |= 1 << v
                temp[c] &= ~(1 << v)
                if common is None:
                    common = dict.fromkeys(HOUSE_CELLS[c])
                else:
                    seen = set(HOUSE_CELLS[c])
                    common = {k: None for k in common if k in seen}
                for b in bug_cells:
                    common.pop(b, None)
                if len(bug_cells) > 1 and popcount(all_values) > 1 and not common:
                    return
            elif not wide:
                return
    if any(board.values[c] == 0 and popcount(temp[c]) != 2 for c in range(81)):
        return
    for inside in REGION_CELLS:
        for v in range(1, 10):
            if sum(1 for c in inside if temp[c] >> v & 1) not in (0, 2):
                return
    common_cells = list(common or ())
    if len(bug_cells) == 1:
        c = bug_cells[0]
        yield _bug_hint(1, bug_cells, bug_values, {c: cands[c] & ~all_values}, 5.6)
    elif popcount(all_values) == 1:
        x = bits(all_values)[0]
        removable = {c: 1 << x for c in common_cells if cands[c] >> x & 1}
        if common_cells and removable:
            yield _bug_hint(2, bug_cells, bug_values, removable, 5.7, digit=x)
        if len(bug_cells) == 2:
            yield from _bug_type4(cands, bug_cells, bug_values, all_values)
    elif common_cells:
        if len(bug_cells) == 2:
            yield from _bug_type4(cands, bug_cells, bug_values, all_values)
        yield from _bug_type3(cands, bug_cells, bug_values, all_values, common_cells)


def _bug_hint(kind: int, cells: list[int], values: dict[int, int], removable: dict[int, int],
              difficulty: float, **graph: object) -> StepHint:
    name = f"BUG type {kind}"
    bug = [str(candidate(c, d)) for c in cells for d in bits(values[c])]
    step = _step(f"se-bug-{kind}", removable, f"{name} {' '.join(bug)}", pattern="bug", type=kind,
                 bug=bug, **graph)
    return StepHint(name, f"bug-{kind}", difficulty, removable, step=step, kind=kind)


def _bug_type3(cands, bug_cells, bug_values, all_values, common_cells) -> Iterator[StepHint]:
    for region in _common_region(bug_cells):
        region_cells = [c for c in common_cells if region in CELL_REGIONS[c]]
        for degree in range(2, 7):
            if len(region_cells) < degree:
                continue
            for combo in colex(degree - 1, len(region_cells)):
                naked = [region_cells[i] for i in combo]
                union = 0
                for c in naked:
                    union |= cands[c]
                if popcount(union) != degree:
                    continue
                if any(popcount(cands[c]) <= 1 for c in naked) or popcount(all_values) <= 1:
                    continue
                digits = union | all_values
                if popcount(digits) != degree:
                    continue
                rest = [c for c in region_cells if c not in naked and c not in bug_cells]
                removable = {c: cands[c] & digits for c in rest if cands[c] & digits}
                if rest and removable:
                    yield _bug_hint(3, bug_cells, bug_values, removable, round(5.7 + (degree - 1) * 0.1, 1),
                                    house=region_name(region), subset=[cell_name(c) for c in naked],
                                    digits=list(bits(digits)))


def _bug_type4(cands, bug_cells, bug_values, all_values) -> Iterator[StepHint]:
    c1, c2 = bug_cells
    shared = cands[c1] & cands[c2] & ~all_values
    if popcount(shared) != 1:
        return
    u = bits(shared)[0]
    for region in _common_region(bug_cells):
        removable = {c: cands[c] & ~bug_values[c] & ~(1 << u) for c in (c1, c2)}
        yield _bug_hint(4, bug_cells, bug_values, removable, 5.7, house=region_name(region), digit=u)
