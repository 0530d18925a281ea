"""The solver: apply the easiest technique that makes progress, until solved or stuck.

`solve` returns the whole path as a `SolveResult`; `hint` gives only the next
step; `prepare` applies the basic ladder, the position every chain and net
search in the seed texts starts from. Each step carries a rating on the Sudoku
Explainer (SE) scale: the technique's rating, plus for chains and nets a
length bonus that grows by 0.1 each time the proof's size passes the next of
the thresholds 4, 6, 8, 12, 16, 24, 32, ... (alternately x1.5 and x4/3, the
progression Sudoku Explainer uses). The puzzle's rating is its hardest step.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from linkgraph.chains.search import chain_search
from linkgraph.grid import Grid, as_grid
from linkgraph.limits import Deadline, TimeLimitExceeded, check_count, check_seconds
from linkgraph.nets.propagate import check_depth_level
from linkgraph.nets.search import forcing_nets
from linkgraph.nets.structure import Structure
from linkgraph.oracle import count_solutions
from linkgraph.samples import GNPX_FORCECHAIN
from linkgraph.steps import Step
from linkgraph.techniques import TECHNIQUES, Technique, resolve_ladder
from linkgraph.techniques.aic.search import aics
from linkgraph.techniques.als.net import als_net
from linkgraph.techniques.als.table import als_table
from linkgraph.techniques.base import changes
from linkgraph.techniques.coloring.medusa import medusa_colors
from linkgraph.techniques.finned import finned_fish
from linkgraph.techniques.singles import full_houses, hidden_singles, naked_singles
from linkgraph.techniques.wings import xy_wings
from linkgraph.techniques.base import length_bonus, makes_progress  # re-exported: part of the solver's API

__all__ = ["SolveResult", "hint", "length_bonus", "makes_progress", "prepare", "rated_hint", "solve", "solve_with_nets",
           "step_rating", "warm_up"]

LadderSpec = str | Sequence[str] | Sequence[Technique] | None


@dataclass(frozen=True, slots=True)
class SolveResult:
    """A solve path: the start grid, the steps in order, and where they led."""

    grid: Grid
    steps: tuple[Step, ...]
    final: Grid
    solved: bool
    rating: float
    seconds: float = field(default=0.0, compare=False)
    #: Why the path ended early: ``"max-steps"``, ``"time-limit"``, or None (solved or stuck).
    stopped: str | None = field(default=None, compare=False)
    #: Each step's rating, as the rung that found it rates it (`step_rating` unless the
    #: ladder says otherwise: ``--ladder se`` rates as Sudoku Explainer).
    ratings: tuple[float, ...] = field(default=(), compare=False)

    def step_ratings(self) -> tuple[float, ...]:
        """The rating of each step (`ratings`, or `step_rating` for a result built without them)."""
        return self.ratings if len(self.ratings) == len(self.steps) else tuple(step_rating(s) for s in self.steps)

    def _repr_html_(self) -> str:
        """The step table, for Jupyter: number, rating, technique and notation of each step."""
        from html import escape

        state = "solved" if self.solved else f"stopped ({self.stopped})" if self.stopped else "stuck"
        head = (f"<p><b>{state}</b>: {len(self.steps)} steps, rating {self.rating:.1f}, "
                f"{self.seconds:.2f} s</p>")
        rows = "".join(
            f"<tr><td>{i}</td><td>{r:.1f}</td><td>{escape(s.technique)}</td><td><code>{escape(s.notation)}</code></td></tr>"
            for i, (s, r) in enumerate(zip(self.steps, self.step_ratings(), strict=True), 1)
        )
        return (f"{head}<table><thead><tr><th>#</th><th>rating</th><th>technique</th><th>step</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>")

    def to_dict(self) -> dict:
        """The JSON shape of ``linkgraph solve --format json``."""
        return {
            "solved": self.solved,
            "grid": self.final.to_puzzle(solved=True),
            "candidates": self.final.to_candidates(),
            "rating": self.rating,
            "stopped": self.stopped,
            "steps": [{**s.to_dict(), "rating": r} for s, r in zip(self.steps, self.step_ratings(), strict=True)],
        }


def _techniques(ladder: LadderSpec) -> tuple[Technique, ...]:
    if ladder is None or isinstance(ladder, str):
        return resolve_ladder(ladder)
    items = list(ladder)
    if items and all(isinstance(t, Technique) for t in items):
        return tuple(items)  # type: ignore[arg-type]
    return resolve_ladder([str(t) for t in items])


#: Between the steps of a solve, the young generations are collected once the collector's
#: count of new objects passes this (see `_collector_paused`).
YOUNG_LIMIT = 20_000


@contextlib.contextmanager
def _collector_paused():
    """Python's cyclic garbage collector paused for a solve's walk; yields the check to make
    between steps.

    A step allocates some ten thousand objects and leaves few cycles behind, but the
    collector, run every 700 allocations, would also scan the whole old generation (the
    compiled kernels' and the caches' objects, some 150,000) now and then: 4 % of a top1465
    solve, 12 % of a hardest one, for nothing freed. Paused, the cycles a step leaves
    (some 15,000 objects over a hardest solve) are freed between steps by a collection of
    the young generations alone, once `YOUNG_LIMIT` new objects have piled up, so a long walk
    holds no more than that. A collector found disabled is left alone; it is restored as found.
    """
    if not gc.isenabled():
        yield lambda: None
        return

    def between_steps() -> None:
        if gc.get_count()[0] > YOUNG_LIMIT:
            gc.collect(1)

    gc.disable()
    try:
        yield between_steps
    finally:
        gc.enable()


def _next_step(grid: Grid, techniques: Sequence[Technique], misses: dict | None = None) -> tuple[Step, float] | None:
    """The first step that makes progress, and its rating by the rung that found it.

    `misses` (kept by `solve` along one path) maps a rung's index to the grid where it last
    found nothing that makes progress. Since then a rung can have found something new only
    through what changed (`changes`); when its `Technique.screen` rules that out, the rung
    is skipped (and its miss moves to this grid, where it would find nothing either).
    """
    seen: dict[int, object] = {}  # id of a miss's grid -> the change from it to this grid
    for i, tech in enumerate(techniques):
        if misses is not None and tech.screen is not None and i in misses:
            before = misses[i]
            change = seen.get(id(before), seen)
            if change is seen:
                change = seen[id(before)] = changes(before, grid)
            if change is not None and not (change.cells and tech.screen(grid, change)):
                misses[i] = grid
                continue
        for step in tech.find(grid):
            if makes_progress(grid, step):
                if misses is not None:
                    misses.pop(i, None)
                return step, (tech.rate(grid, step) if tech.rate is not None else step_rating(step))
        if misses is not None and tech.screen is not None:
            misses[i] = grid
    return None


def hint(grid: Grid | str, *, ladder: LadderSpec = None) -> Step | None:
    """The next step of the solve path: the easiest technique's first finding, or None.

    `grid` may be a Grid or a puzzle string (`linkgraph.grid.as_grid`).

    Examples
    --------
    >>> str(lg.hint(lg.Grid.parse(lg.samples.EULER_01), ladder="basic")).split(":")[0]
    'hidden-single'
    """
    found = rated_hint(grid, ladder=ladder)
    return None if found is None else found[0]


def rated_hint(grid: Grid | str, *, ladder: LadderSpec = None) -> tuple[Step, float] | None:
    """`hint` and the step's rating as its ladder rates it (``--ladder se``: as SE does), or None.

    >>> step, rating = lg.rated_hint(lg.Grid.parse(lg.samples.EULER_01), ladder="basic")
    >>> step.technique, rating
    ('hidden-single', 1.5)
    """
    return _next_step(as_grid(grid), _techniques(ladder))


class _TimeUp(TimeLimitExceeded):
    """The solve path's own time limit is up (caught by `solve`, never seen outside)."""


def solve(
    grid: Grid | str,
    *,
    ladder: LadderSpec = None,
    max_steps: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[Step], None] | None = None,
) -> SolveResult:
    """Apply the easiest technique that makes progress until solved or stuck.

    Parameters
    ----------
    grid : Grid or str
        The position to solve (a puzzle or a candidate grid), or its text.
    ladder : str, sequence of str or of Technique, optional
        The techniques to use: ``"default"`` (None), ``"basic"``, ``"all"``, ``"se"`` or names;
        see `linkgraph.techniques.resolve_ladder`.
    max_steps : int, optional
        Stop after this many steps (0 or more).
    time_limit : float, optional
        Stop once this many seconds have passed, also inside a step: the step
        under way is dropped and the path found so far is returned, with
        ``stopped="time-limit"`` (`linkgraph.limits.Deadline`).
    progress : callable, optional
        Called with each step as it is found.

    Returns
    -------
    SolveResult
        The steps, the final grid, whether it is solved, and the rating.

    Raises
    ------
    OptionError
        For a negative `max_steps` or a `time_limit` that is not a positive number.
    TypeError
        For a `grid` that is neither a Grid nor a string.

    Examples
    --------
    >>> result = lg.solve(lg.Grid.parse(lg.samples.EULER_01), ladder="basic")
    >>> result.solved, len(result.steps) > 0
    (True, True)
    >>> lg.solve(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), ladder="basic").final.number_of_unsolved
    20
    """
    grid = as_grid(grid)
    max_steps = check_count("max_steps", max_steps)
    time_limit = check_seconds("time_limit", time_limit)
    techniques = _techniques(ladder)
    start = time.perf_counter()
    path: list[tuple[Step, float, Grid]] = []  # one append per step: a time-out never leaves half a step
    misses: dict[int, Grid] = {}  # rung index -> the grid of its last miss (see _next_step)
    stopped = None
    try:
        with Deadline(time_limit, _TimeUp), _collector_paused() as between_steps:
            current = grid
            while not _done(current):
                between_steps()
                if max_steps is not None and len(path) >= max_steps:
                    stopped = "max-steps"
                    break
                found = _next_step(current, techniques, misses)
                if found is None:
                    break
                step, rating = found
                current = current.apply(step)
                path.append((step, rating, current))
                if progress is not None:
                    progress(step)
                if current.contradiction():
                    break  # only possible on a grid that was already broken
    except _TimeUp:
        stopped = "time-limit"
    final = path[-1][2] if path else grid
    ratings = tuple(r for _, r, _ in path)
    return SolveResult(grid, tuple(s for s, _, _ in path), final, _done(final), max(ratings, default=0.0),
                       time.perf_counter() - start, stopped, ratings)


def _done(grid: Grid) -> bool:
    return bool(grid.placed.all())


def prepare(grid: Grid | str, *, ladder: LadderSpec = "basic") -> Grid:
    """The grid after applying `ladder` (the basic ladder by default) until stuck.

    The same fixpoint as ``solve(grid, ladder=ladder).final``, reached faster:
    each round applies *every* step the easiest productive technique finds at
    once (all hidden singles together, say), since no explanation is kept.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> " ".join(grid.tokens()[9:18])
    '3 9 7 128 5 28 6 12 4'
    """
    techniques = _techniques(ladder)
    current = as_grid(grid)
    while not _done(current):
        for tech in techniques:
            steps = [s for s in tech.find(current) if makes_progress(current, s)]
            if steps:
                break
        else:
            return current
        eliminations = {c for s in steps for c in s.eliminations}
        placements = {c for s in steps for c in s.placements}
        cells = [c.cell for c in placements]
        if len(set(cells)) < len(cells):
            return current  # two digits for one cell: a broken grid, left as found
        current = current.eliminate(eliminations).place(placements)
        if current.contradiction():
            break  # only possible on a grid that was already broken
    return current


def step_rating(step: Step) -> float:
    """The SE-style rating of one step: its technique's rating, plus a length bonus
    for chains and nets (by the number of literals in the proof).

    >>> lg.step_rating(lg.make_step("x-wing"))
    3.2
    """
    tech = TECHNIQUES.get(step.technique)
    base = tech.rating if tech is not None else float(step.proof.graph.get("rating", 0.0))
    if step.proof.graph.get("kind") in ("chain", "net"):
        base += length_bonus(step.proof.number_of_nodes())
    return round(base, 1)


def solve_with_nets(
    grid: Grid,
    *,
    max_level: int = 1,
    depth: int = 0,
    select: str = "first",
    max_steps: int = 500,
):
    """Alternate the basic ladder and forcing nets until solved or stuck.

    Each round applies the basic ladder (`prepare`), then the
    first net step found at depth `depth`, trying level 0 before each higher
    level up to `max_level`. Returns ``(final grid, net steps, solved)``.

    Examples
    --------
    >>> final, steps, solved = lg.solver.solve_with_nets(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> solved, len(steps) >= 1
    (True, True)
    """
    check_depth_level(depth, max_level)
    steps: list[Step] = []
    while len(steps) < max_steps:
        grid = prepare(grid)
        if grid.is_solved() or grid.contradiction():
            break
        step = None
        for lvl in range(max_level + 1):
            step = next(forcing_nets(grid, depth=depth, level=lvl, select=select), None)
            if step is not None:
                break
        if step is None:
            break
        steps.append(step)
        grid = grid.apply(step)
    return grid, steps, grid.is_solved() and grid.contradiction() is None


def warm_up(*, reverse: bool = False) -> None:
    """Load the compiled kernels of the chain and net searches (the cell and house test
    included), the ALS table's and the ALS net's builds, the finned-fish screen, the bent subsets, the singles and the colouring
    tables (numba's cached machine code, or its compilation on a first run) by searching a
    built-in position once (the nets with and without nesting, an AIC, finned fish,
    XY-wings, singles, the 3D Medusa colours and weak hinges, subsets, fish; the literal
    digraph's build and the grid's bookkeeping come with them) and listing its depth-2
    patterns, and the truth oracle's compiled search (`linkgraph.oracle`) by checking the
    puzzle's solution.

    The first search in a process pays for it (a few tenths of a second); a benchmark calls
    this before timing, as `linkgraph.research.race.race` does.

    Parameters
    ----------
    reverse : bool
        Run the same searches in the opposite order (after the position's basic ladder, which
        both orders need first). On a fresh clone, where numba compiles every kernel, two
        processes running one order each share the work: a process reaching a kernel the other
        has already compiled loads it from numba's cache (``setup.sh`` does this).

    >>> lg.solver.warm_up()
    >>> lg.solver.warm_up(reverse=True)
    """
    grid = prepare(Grid.parse(GNPX_FORCECHAIN))
    loads = [
        lambda: count_solutions(Grid.parse(GNPX_FORCECHAIN)),
        # the cell and house rungs' test, called here: this grid has a contradictory premise, so
        # the search's own scoring would not reach it
        lambda: chain_search(grid).sets_may_prove(True, True),
        lambda: next(forcing_nets(grid), None),
        lambda: next(forcing_nets(grid, level=1, chunk=32), None),
        lambda: Structure(grid, depth=2),
        lambda: next(aics(grid), None),
        lambda: als_table(grid),
        lambda: als_net(grid),
        lambda: next(finned_fish(grid, size=2), None),
        lambda: next(xy_wings(grid), None),
        *(lambda singles=singles: next(singles(grid), None) for singles in (full_houses, hidden_singles, naked_singles)),
        lambda: medusa_colors(grid),
        # hinges, the subsets' and fish's search
        *(lambda name=name: next(iter(TECHNIQUES[name].find(grid)), None)
          for name in ("medusa-weak-hinge", "naked-pair", "x-wing")),
    ]
    for load in reversed(loads) if reverse else loads:
        load()
