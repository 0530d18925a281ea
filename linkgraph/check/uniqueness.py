"""The proof checker's rule for uniqueness patterns (unique rectangles and loops, BUG).

`linkgraph.check.checker` calls `check_uniqueness` for steps of the opt-in
uniqueness family: their proof is no graph to replay but a pattern whose
shape is read from the grid here.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from linkgraph.errors import NotationError, ProofError
from linkgraph.grid import Grid
from linkgraph.model import Candidate, Cell, House
from linkgraph.steps import Step

__all__ = ["check_uniqueness"]


def check_uniqueness(grid: Grid, step: Step) -> None:
    """Check a uniqueness pattern (unique rectangle types 1-4, BUG+1): shape and conclusions.

    The uniqueness assumption itself is taken on trust; everything else is read
    from the grid here, sharing no code with `linkgraph.techniques.uniqueness`.
    Raises ProofError (``technique: what is wrong``) on the first problem.
    """
    G, g = step.proof.graph, grid.geometry

    def fail(message: str):
        raise ProofError(f"{step.technique}: {message}")
    n = g.size

    def cell(text: object) -> int:
        return _cell_of(grid, text, fail)

    def digits(i: int) -> set[int]:
        return _digits(grid, i)

    def houses(*cells: int) -> set[int]:
        return set.intersection(*(set(g.cell_houses[i]) for i in cells))

    if G.get("pattern") == "bug+1":
        _check_bug(grid, step, cell(G.get("cell")), G.get("digit"))
        return
    if G.get("pattern") == "unique-loop":
        _check_loop(grid, step, [cell(t) for t in G.get("cells", ())], fail)
        return
    if G.get("pattern") == "bug":
        _check_bug_types(grid, step, fail)
        return
    if G.get("pattern") != "unique-rectangle":
        fail(f"unknown uniqueness pattern {G.get('pattern')!r}")
    cells = [cell(t) for t in G.get("cells", ())]
    boxes = {g.box_of(i) for i in cells}
    if len(set(cells)) != 4 or len({i // n for i in cells}) != 2 or len({i % n for i in cells}) != 2 \
            or len(boxes) != 2 or -1 in boxes:
        fail(f"cells {G.get('cells')} are not four cells in two rows, two columns and two boxes")
    # swapping the pair must keep every house a permutation: each house meets the
    # rectangle in no cell, one side (two cells of a row or a column) or all four
    sides = [{a, b} for a, b in combinations(cells, 2) if a // n == b // n or a % n == b % n]
    for h, members in enumerate(g.house_cells):
        meet = set(cells) & {int(i) for i in members}
        if meet and len(meet) != 4 and meet not in sides:
            fail(f"house {g.houses[h]} meets the rectangle in {len(meet)} cells off its sides: no deadly pattern")
    pair = set(G.get("pair", ()))
    if len(pair) != 2:
        fail(f"pair {G.get('pair')} is not two digits")
    for i in cells:
        if grid.placed[i] or not pair <= digits(i):
            fail(f"{g.cell(i)} is not an open cell holding {sorted(pair)}")
    if step.placements:
        fail("a unique rectangle only eliminates")
    floor = [i for i in cells if digits(i) == pair]
    roof = [i for i in cells if i not in floor]
    kind = G.get("type")
    if kind == 1:
        if len(floor) != 3:
            fail(f"type 1 needs three cells holding exactly {sorted(pair)}")
        allowed = {(roof[0], d) for d in pair}
    elif kind in (2, 3, 4):
        if len(floor) != 2:
            fail(f"type {kind} needs two cells holding exactly {sorted(pair)}")
        shared = houses(*roof)
        if kind == 2:
            x = G.get("extra")
            if any(digits(i) != pair | {x} for i in roof):
                fail(f"type 2 roof cells must hold exactly {sorted(pair | {x})}")
            allowed = {(i, x) for i in range(n * n) if i not in roof and houses(i, *roof)}
        else:
            h = _house(grid, G.get("house"), fail)
            if h not in shared:
                fail(f"the roof cells do not share house {G.get('house')}")
            inside = [int(i) for i in g.house_cells[h]]
            if kind == 3:
                extras = (digits(roof[0]) | digits(roof[1])) - pair
                allowed = _naked_set(grid, G, inside, roof, extras, "roof extras", fail)
            else:
                u = G.get("digit")
                if u not in pair or {i for i in inside if u in digits(i)} != set(roof):
                    fail(f"digit {u} is not confined to the roof cells in {G.get('house')}")
                allowed = {(i, d) for i in roof for d in pair - {u}}
    else:
        fail(f"unknown unique rectangle type {kind!r}")
    for cand in sorted(step.eliminations):
        if (g.cell_index(cand.cell), cand.digit) not in allowed:
            fail(f"elimination {cand} does not follow from unique rectangle type {kind}")


def _check_bug(grid: Grid, step: Step, t: int, x: object) -> None:
    """BUG+1: every open cell bivalue but `t` (three digits), clean candidates, and with
    `x` out of `t` each digit in 0 or 2 open cells of every house; then `t` is `x`."""
    g, cands = grid.geometry, grid.cands.copy()

    def fail(message: str):
        raise ProofError(f"{step.technique}: {message}")

    n = g.size
    if step.eliminations or step.placements != {Candidate(g.cell(t), x)}:
        fail(f"BUG+1 places {g.cell(t)}={x} and nothing else")
    counts = cands.sum(axis=1)
    opened = counts >= 2
    if counts[t] != 3 or any(counts[i] != 2 for i in np.flatnonzero(opened) if i != t):
        fail(f"not a BUG+1: {g.cell(t)} must be the one open cell with three digits, the others two")
    per_house = cands[g.house_cells]  # (houses, cells of the house, digits)
    open_in = opened[g.house_cells][:, :, None]
    if ((per_house & open_in).any(axis=1) & (per_house & ~open_in).any(axis=1)).any():
        fail("not a BUG+1: an open cell still holds a digit solved in its house")
    cands[t, int(x) - 1] = False  # x is live: the conclusion was checked live above
    places = (cands[g.house_cells] & open_in).sum(axis=1)
    if not np.isin(places, (0, 2)).all():
        h, d = (int(v) for v in np.argwhere(~np.isin(places, (0, 2)))[0])
        fail(f"not a BUG+1: without {g.cell(t)}#{x}, digit {d + 1} has {places[h, d]} places in {g.houses[h]}")


def _digits(grid: Grid, i: int) -> set[int]:
    """The digits cell `i` still holds."""
    return {int(d) + 1 for d in np.flatnonzero(grid.cands[i])}


def _house(grid: Grid, text: object, fail) -> int:
    try:
        return grid.geometry.house_index(House.parse(str(text)))
    except (NotationError, ValueError):
        fail(f"house {text!r} is not a house of this grid")


def _digit_set(value: object, fail, what: str) -> set[int]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(d, int) for d in value):
        fail(f"{what} {value!r} is not a list of digits")
    return set(value)


def _check_loop(grid: Grid, step: Step, loop: list[int], fail) -> None:
    """A unique loop of any even length (SE's Unique Loops, types 1-4).

    The shape: distinct open cells, each holding both digits of the pair and sharing a
    house with the next (the last with the first), every house meeting the loop in no cell
    or in two cells at an odd distance along it; then the pair could be swapped around the
    loop, so some cell of the loop keeps another digit (a "rescue" candidate). Each type's
    conclusions are checked to follow from that disjunction.
    """
    G, g = step.proof.graph, grid.geometry
    n = g.size

    def digits(i: int) -> set[int]:
        return _digits(grid, i)

    pair = _digit_set(G.get("pair"), fail, "pair")
    if len(pair) != 2:
        fail(f"pair {G.get('pair')} is not two digits")
    if len(loop) < 4 or len(loop) % 2 or len(set(loop)) != len(loop):
        fail(f"cells {G.get('cells')} are not an even number (4 or more) of distinct cells")
    for i in loop:
        if grid.placed[i] or not pair <= digits(i):
            fail(f"{g.cell(i)} is not an open cell holding {sorted(pair)}")
    houses = [set(g.cell_houses[i]) for i in loop]
    for k in range(len(loop)):
        if not houses[k] & houses[(k + 1) % len(loop)]:
            fail(f"{g.cell(loop[k])} and {g.cell(loop[(k + 1) % len(loop)])} share no house")
    for h in set().union(*houses):
        at = [k for k in range(len(loop)) if h in houses[k]]
        if len(at) != 2 or (at[0] - at[1]) % 2 == 0:
            fail(f"house {g.houses[h]} meets the loop in {len(at)} cells, not two at an odd distance: no deadly pattern")
    if step.placements:
        fail("a unique loop only eliminates")
    rescue = [i for i in loop if digits(i) != pair]  # the cells that keep another digit
    kind = G.get("type")
    if kind == 1:
        if len(rescue) != 1:
            fail(f"type 1 needs one cell holding more than {sorted(pair)}, not {len(rescue)}")
        allowed = {(rescue[0], d) for d in pair}
    elif kind == 2:
        x = G.get("extra")
        if not rescue or any(digits(i) != pair | {x} for i in rescue):
            fail(f"type 2: the cells holding more than {sorted(pair)} must hold exactly {sorted(pair | {x})}")
        allowed = {(i, x) for i in range(n * n) if i not in rescue
                   and all(set(g.cell_houses[i]) & set(g.cell_houses[r]) for r in rescue)}
    elif kind in (3, 4):
        if len(rescue) != 2:
            fail(f"type {kind} needs two cells holding more than {sorted(pair)}, not {len(rescue)}")
        h = _house(grid, G.get("house"), fail)
        if h not in houses[loop.index(rescue[0])] or h not in houses[loop.index(rescue[1])]:
            fail(f"the two cells with more digits do not share house {G.get('house')}")
        inside = [int(i) for i in g.house_cells[h]]
        extras = (digits(rescue[0]) | digits(rescue[1])) - pair
        if kind == 4:
            u = G.get("digit")
            if u not in pair or {i for i in inside if not grid.placed[i] and u in digits(i)} != set(rescue):
                fail(f"digit {u} is not confined to {g.cell(rescue[0])} and {g.cell(rescue[1])} in {G.get('house')}")
            allowed = {(i, d) for i in rescue for d in pair - {u}}
        elif G.get("set") == "hidden":
            # c2 left out: D's places in the house other than c2 are c1 and the subset
            subset = _subset(grid, G, inside, rescue, fail)
            D = _digit_set(G.get("digits"), fail, "digits")
            c2 = _cell_of(grid, G.get("outside"), fail)
            if c2 not in rescue:
                fail(f"{G.get('outside')} is not one of the two cells with more digits")
            c1 = rescue[0] if rescue[1] == c2 else rescue[1]
            places = {i for i in inside if i != c2 and not grid.placed[i] and digits(i) & D}
            solved = {d for i in inside if grid.placed[i] for d in digits(i)}
            if not pair <= D or D & extras or D & solved or places != set(subset) | {c1} \
                    or len(D) != len(subset) + 1:
                fail(f"digits {sorted(D)} are not a hidden set of {g.cell(c1)} and subset {G.get('subset')}")
            allowed = {(i, d) for i in subset for d in digits(i) - D}
        else:
            allowed = _naked_set(grid, G, inside, rescue, extras, f"extras {sorted(extras)}", fail)
    else:
        fail(f"unknown unique loop type {kind!r}")
    for cand in sorted(step.eliminations):
        if (g.cell_index(cand.cell), cand.digit) not in allowed:
            fail(f"elimination {cand} does not follow from unique loop type {kind}")


def _cell_of(grid: Grid, text: object, fail) -> int:
    """The index of the cell named `text` (fail if it is not one)."""
    g = grid.geometry
    try:
        return g.cell_index(Cell.parse(str(text), size=g.size))
    except (NotationError, ValueError):
        fail(f"{text!r} is not a cell of this grid")


def _check_bug_types(grid: Grid, step: Step, fail) -> None:
    """SE's BUG types 1-4: with the BUG candidates out, every open cell holds two digits and
    every digit has 0 or 2 places in every house (and no open cell holds a digit solved in
    its house), so one BUG candidate is true; each type's conclusions follow from that."""
    G, g = step.proof.graph, grid.geometry
    cands = grid.cands.copy()
    n = g.size
    bug: dict[int, set[int]] = {}
    for text in G.get("bug", ()):
        try:
            cand = Candidate.parse(str(text))
            i = g.cell_index(cand.cell)
        except (NotationError, ValueError):
            fail(f"BUG candidate {text!r} is not a candidate of this grid")
        if grid.placed[i] or not cands[i, cand.digit - 1]:
            fail(f"BUG candidate {text} is not live in an open cell")
        bug.setdefault(i, set()).add(cand.digit)
    if not bug:
        fail("no BUG candidates")

    def digits(i: int) -> set[int]:
        return _digits(grid, i)

    if step.placements:
        fail("a BUG step here only eliminates")
    opened = ~np.asarray(grid.placed, dtype=bool)
    per_house = cands[g.house_cells]
    open_in = opened[g.house_cells][:, :, None]
    if ((per_house & open_in).any(axis=1) & (per_house & ~open_in).any(axis=1)).any():
        fail("not a BUG: an open cell still holds a digit solved in its house")
    for i, ds in bug.items():
        for d in ds:
            cands[i, d - 1] = False
    counts = cands.sum(axis=1)
    if any(counts[i] != 2 for i in np.flatnonzero(opened)):
        i = next(int(i) for i in np.flatnonzero(opened) if counts[i] != 2)
        fail(f"not a BUG: without the BUG candidates {g.cell(i)} holds {counts[i]} digits, not 2")
    places = (cands[g.house_cells] & open_in).sum(axis=1)
    if not np.isin(places, (0, 2)).all():
        h, d = (int(v) for v in np.argwhere(~np.isin(places, (0, 2)))[0])
        fail(f"not a BUG: without the BUG candidates digit {d + 1} has {places[h, d]} places in {g.houses[h]}")
    cells = sorted(bug)
    all_digits = set().union(*bug.values())
    kind = G.get("type")
    if kind == 1:
        if len(cells) != 1:
            fail(f"type 1 needs one BUG cell, not {len(cells)}")
        allowed = {(cells[0], d) for d in digits(cells[0]) - all_digits}
    elif kind == 2:
        if len(all_digits) != 1:
            fail(f"type 2 needs one BUG digit, not {sorted(all_digits)}")
        x = next(iter(all_digits))
        allowed = {(i, x) for i in range(n * n) if i not in bug
                   and all(set(g.cell_houses[i]) & set(g.cell_houses[b]) for b in cells)}
    elif kind in (3, 4):
        h = _house(grid, G.get("house"), fail)
        if any(h not in g.cell_houses[b] for b in cells):
            fail(f"the BUG cells do not share house {G.get('house')}")
        inside = [int(i) for i in g.house_cells[h]]
        if kind == 3:
            allowed = _naked_set(grid, G, inside, cells, all_digits, "BUG digits", fail)
        else:
            u = G.get("digit")
            if len(cells) != 2 or u in all_digits or \
                    {i for i in inside if opened[i] and grid.cands[i, int(u) - 1]} != set(cells):
                fail(f"type 4: digit {u} is not confined to the two BUG cells in {G.get('house')}")
            allowed = {(i, d) for i in cells for d in digits(i) - bug[i] - {u}}
    else:
        fail(f"unknown BUG type {kind!r}")
    for cand in sorted(step.eliminations):
        if (g.cell_index(cand.cell), cand.digit) not in allowed:
            fail(f"elimination {cand} does not follow from BUG type {kind}")


def _subset(grid: Grid, G: dict, inside: list[int], pseudo: list[int], fail) -> list[int]:
    """The proof's ``subset``: distinct cells of the house, none of them in `pseudo`."""
    subset = [_cell_of(grid, t, fail) for t in G.get("subset", ())]
    if not subset or len(set(subset)) != len(subset) or any(q not in inside or q in pseudo for q in subset):
        fail(f"subset {G.get('subset')} is not other cells of {G.get('house')}")
    return subset


def _naked_set(grid: Grid, G: dict, inside: list[int], pseudo: list[int], extras: set[int], what: str,
               fail) -> set[tuple[int, int]]:
    """A naked set of a house whose one member is a pseudo-cell: some cell of `pseudo` (all in
    the house) takes one of `extras`, and the ``subset`` cells hold only ``digits``, one digit
    more than they are cells. Those digits then leave the house's other cells: the (cell,
    digit) pairs allowed as eliminations."""
    subset = _subset(grid, G, inside, pseudo, fail)
    D = _digit_set(G.get("digits"), fail, "digits")
    held = [_digits(grid, q) for q in subset]
    if not extras <= D or any(not h <= D for h in held) or len(D) != len(subset) + 1:
        fail(f"{what} and subset {G.get('subset')} are not {len(subset) + 1} digits {sorted(D)}")
    return {(i, d) for i in inside if i not in subset and i not in pseudo for d in D}
