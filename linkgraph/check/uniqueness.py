"""The proof checker's rule for uniqueness patterns (unique rectangles, BUG+1).

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
    G, g, cands = step.proof.graph, grid.geometry, grid.cands

    def fail(message: str):
        raise ProofError(f"{step.technique}: {message}")
    n = g.size

    def cell(text: object) -> int:
        try:
            return g.cell_index(Cell.parse(str(text), size=n))
        except (NotationError, ValueError):
            fail(f"{text!r} is not a cell of this grid")

    def digits(i: int) -> set[int]:
        return {int(d) + 1 for d in np.flatnonzero(cands[i])}

    def houses(*cells: int) -> set[int]:
        return set.intersection(*(set(g.cell_houses[i]) for i in cells))

    if G.get("pattern") == "bug+1":
        _check_bug(grid, step, cell(G.get("cell")), G.get("digit"))
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
            try:
                h = g.house_index(House.parse(str(G.get("house"))))
            except (NotationError, ValueError):
                fail(f"house {G.get('house')!r} is not a house of this grid")
            if h not in shared:
                fail(f"the roof cells do not share house {G.get('house')}")
            inside = [int(i) for i in g.house_cells[h]]
            if kind == 3:
                subset = [cell(t) for t in G.get("subset", ())]
                D = set(G.get("digits", ()))
                extras = (digits(roof[0]) | digits(roof[1])) - pair
                if not subset or len(set(subset)) != len(subset) or any(q not in inside or q in roof for q in subset):
                    fail(f"subset {G.get('subset')} is not other cells of {G.get('house')}")
                if not extras <= D or any(not digits(q) <= D for q in subset) or len(D) != len(subset) + 1:
                    fail(f"roof extras and subset {G.get('subset')} are not {len(subset) + 1} digits {sorted(D)}")
                allowed = {(i, d) for i in inside if i not in subset and i not in roof for d in D}
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
