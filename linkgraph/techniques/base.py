"""Shared pieces of the pattern techniques: building a pattern Step from base and cover sets.

A *pattern* proof (``P.graph["kind"] == "pattern"``) states its logic as sets X:
the ``base`` sets are disjoint sets X whose live members all lie in the
``cover`` sets, which are disjoint too and as many as the base sets. Each base
set holds one truth and each cover set exactly one, so the base truths fill
every cover set, and every cover member outside the base is false. A single
is the case of one base set with one live member (no cover). Fins and other
specifics go into further graph attributes. The conclusions are the proof's
nodes, with role ``conclusion``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, cached
from linkgraph.model import Candidate, Role
from linkgraph.steps import Step, make_step, proof_graph

__all__ = ["Change", "DigitView", "SharedSearch", "changes", "digit_view", "house_places", "length_bonus", "makes_progress", "pattern_step"]


def pattern_step(
    technique: str,
    g: Geometry,
    *,
    base: Sequence[int],
    cover: Sequence[int] = (),
    placements: Iterable[int] = (),
    eliminations: Iterable[int] = (),
    **extra: object,
) -> Step:
    """A Step for a base/cover pattern; sets and candidates given as geometry indices.

    Every single and basic step of a solve is built here, so the proof's dicts are filled
    directly (the graph `add_node` would make: the conclusions ON then OFF, each in
    candidate order, with its ``role`` and its ``round`` 0, which `make_step` would give a
    proof without edges), from the names the geometry keeps (`Geometry.literal`,
    `Geometry.set_text`).
    """
    ons = sorted(int(k) for k in placements)  # candidate order is index order
    offs = sorted(int(k) for k in eliminations)
    P = proof_graph(kind="pattern", base=[g.set_text(s) for s in base], cover=[g.set_text(s) for s in cover])
    P.graph.update(extra)
    node, succ, pred = P._node, P._succ, P._pred
    literal = g.literal
    for ks, on in ((ons, True), (offs, False)):
        for k in ks:
            lit = literal(k, on)
            if lit not in node:
                succ[lit], pred[lit] = {}, {}
                node[lit] = {"role": Role.CONCLUSION, "round": 0}
    places = [g.candidate(k) for k in ons]
    elims = [g.candidate(k) for k in offs]
    return make_step(technique, placements=places, eliminations=elims, proof=P)


def cover_eliminations(g: Geometry, live, base: Sequence[int], cover: Sequence[int]) -> list[int]:
    """Live members of the cover sets that are not members of any base set."""
    inside = {int(k) for s in base for k in g.set_members[s]}
    out = {int(k) for s in cover for k in g.set_members[s] if live[k] and int(k) not in inside}
    return sorted(out)


def candidates_text(cands: Iterable[Candidate]) -> str:
    """Space-separated candidate names, sorted."""
    return " ".join(str(c) for c in sorted(cands))


class SharedSearch:
    """Items of one lazy search, produced once and replayed to every later consumer."""

    def __init__(self, source: Iterator):
        self.items: list = []
        self.source: Iterator | None = source
        self.failed = False  # the search was interrupted (say a job timeout): its items are partial

    def __iter__(self) -> Iterator:
        i = 0
        while True:
            if i < len(self.items):
                yield self.items[i]
                i += 1
                continue
            if self.source is None:
                return
            try:
                self.items.append(next(self.source))
            except StopIteration:
                self.source = None
                return
            except BaseException:
                self.source, self.failed = None, True
                raise


def house_places(grid: Grid) -> np.ndarray:
    """(houses, digits) int64, read-only: bit j set when the digit may stand in the house's j-th
    cell. Kept per grid (see `cached`) for the basic rungs, which look at the same grid in turn.

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> places = lg.techniques.base.house_places(grid)
    >>> places.shape, bool(places[0, 0] >> 1 & 1) == bool(grid.cands[1, 0])
    ((27, 9), True)
    """
    return cached("house-places", grid, _house_places)


def _house_places(grid: Grid) -> np.ndarray:
    from linkgraph.techniques import kernel  # noqa: PLC0415 (numba: loaded on first use)

    out = kernel.house_places(grid.cands, grid.geometry.house_cells)
    out.setflags(write=False)
    return out


def makes_progress(grid: Grid, step: Step) -> bool:
    """True if the step removes a live candidate or places into an open cell.

    >>> grid = lg.Grid.parse(lg.samples.EULER_01)
    >>> lg.techniques.base.makes_progress(grid, lg.hint(grid, ladder="basic"))
    True
    """
    g = grid.geometry
    if any(grid.has(c) for c in step.eliminations):
        return True
    return any(grid.has(c) and not grid.placed[g.cell_index(c.cell)] for c in step.placements)


class DigitView:
    """Each digit's view of a grid, as Python int bit masks (bit c: cell c): `cols[d]` the cells
    where digit index d is live, `solved[d]` the cells solved with it (their one candidate),
    and `placed` the placed cells."""

    __slots__ = ("cols", "solved", "placed")

    def __init__(self, grid: Grid):
        cands = grid.cands
        one = cands & (cands.sum(axis=1) == 1)[:, None]
        packed = np.packbits(np.concatenate([cands.T, one.T, grid.placed[None]]), axis=1, bitorder="little")
        # one int of every row's bytes, then cut into rows: one conversion instead of a row view
        # and a conversion per row
        width = 8 * packed.shape[1]
        whole = int.from_bytes(packed.tobytes(), "little")
        row = (1 << width) - 1
        ints = [whole >> (width * i) & row for i in range(len(packed))]
        n = grid.size
        self.cols, self.solved, self.placed = ints[:n], ints[n : 2 * n], ints[2 * n]


def digit_view(grid: Grid) -> DigitView:
    """The `DigitView` of `grid`, kept per grid (see `cached`) for the screens and the solver.

    >>> view = lg.techniques.base.digit_view(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> bin(view.solved[0])[-1], view.cols[0] & 1   # r1c1 is a given 1
    ('1', 1)
    """
    return cached("digit-view", grid, DigitView)


@dataclass(frozen=True, slots=True)
class Change:
    """What changed between two grids of one solve path (see `changes`): the digits whose view
    changed (as in the text form), the cells that lost candidates (a bit mask) and, per digit
    that lost candidates, the cells that lost it: ``(digit, cell mask)`` pairs."""

    digits: frozenset[int]
    cells: int
    lost: tuple[tuple[int, int], ...] = ()


def changes(before: Grid, after: Grid) -> Change | None:
    """What changed from `before` to a later grid `after` of the same solve path; None when
    `after` is not `before` narrowed.

    A digit's *view* is where it is live and which cells are solved with it (their one
    candidate); `Change.digits` are the digits whose view differs, `Change.cells` the cells
    whose candidates differ. The solver asks a rung's screen
    (`linkgraph.techniques.ladder.Technique.screen`) about them: a rung that found nothing
    that makes progress in `before` can find something in `after` only through them. For
    example a rung that reads each digit's view alone finds the same steps in both grids on
    an unchanged digit; their eliminations were dead in `before`, so they are dead in
    `after`, which only lost candidates. `after` is `before` narrowed when it has no live
    candidate `before` lacks and every cell placed in `before` is placed in it; otherwise
    (or on another geometry) the result is None, and every rung runs.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> change = lg.techniques.base.changes(grid, grid.eliminate([lg.Candidate.parse("r2c4#8")]))
    >>> sorted(change.digits), [str(grid.geometry.cell(c)) for c in lg.bitops.bits(change.cells)]
    ([8], ['r2c4'])
    >>> change.lost == ((8, 1 << 12),)  # r2c4 is cell 12
    True
    >>> lg.techniques.base.changes(grid.eliminate([lg.Candidate.parse("r2c4#8")]), grid) is None
    True

    r2c4 held 1, 2 and 8; with 1 and 8 gone it is solved with 2, so the view of 2 changes
    too (where 2 is live does not):

    >>> after = grid.eliminate([lg.Candidate.parse("r2c4#1"), lg.Candidate.parse("r2c4#8")])
    >>> sorted(lg.techniques.base.changes(grid, after).digits)
    [1, 2, 8]
    """
    if after.geometry is not before.geometry:
        return None
    a, b = digit_view(before), digit_view(after)
    if a.placed & ~b.placed:
        return None
    digits = []
    lost = []
    cells = 0
    for d, (ca, cb, sa, sb) in enumerate(zip(a.cols, b.cols, a.solved, b.solved)):
        if cb & ~ca:
            return None
        if ca != cb:
            lost.append((d + 1, ca ^ cb))
            cells |= ca ^ cb
        if ca != cb or sa != sb:
            digits.append(d + 1)
    return Change(frozenset(digits), cells, tuple(lost))


def length_bonus(size: int) -> float:
    """SE-style bonus: +0.1 for each threshold 4, 6, 8, 12, 16, 24, ... that `size` exceeds.

    >>> lg.techniques.base.length_bonus(4), lg.techniques.base.length_bonus(8), lg.techniques.base.length_bonus(9)
    (0.0, 0.2, 0.3)
    """
    bonus, ceiling, odd = 0.0, 4, False
    while size > ceiling:
        bonus += 0.1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return round(bonus, 1)
