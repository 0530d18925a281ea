"""The solve loop of SE 1.2.1 and serate's three ratings.

Each step runs SE's producers in order: the direct rules, the indirect rules up to aligned
pair exclusion, then Forcing Chains & Cycles, Aligned Triplet Exclusion, Nishio, Multiple
and Dynamic Forcing Chains, Dynamic Forcing Chains (+), and the nested levels 2 to 5. The
first producer that finds anything supplies the step (its first hint, in its own order);
then the search starts again from the singles. A puzzle's ER is the highest rating on the
path, EP the highest up to the first step that places a digit, ED the first step's.

Examples
--------
>>> from linkgraph.techniques.se.solver import rate
>>> r = rate(lg.Grid.parse(lg.samples.EULER_01))
>>> (r.er, r.ep, r.ed), r.solved
((1.2, 1.2, 1.2), True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from linkgraph.graph.links import without_collection
from linkgraph.grid import Grid
from linkgraph.techniques.se import rules
from linkgraph.techniques.se.board import Board
from linkgraph.techniques.se.chaining import Chaining
from linkgraph.techniques.se.fast import FastChaining, Shared, aligned_exclusions
from linkgraph.techniques.se.hints import Hint

__all__ = ["Producer", "RateResult", "first_hint", "producers", "rate", "se_rating_text"]


@dataclass(frozen=True)
class Producer:
    """One of SE's hint producers: a name and a function board -> hints in SE's order."""

    name: str
    find: Callable[[Board], Iterator[Hint]]
    chaining: bool = False


def _uniqueness(kind: str) -> Callable[[Board], Iterator[Hint]]:
    from linkgraph.techniques.se.unique import bug_hints, unique_loop_hints
    return unique_loop_hints if kind == "loop" else bug_hints


def _aligned(degree: int) -> Callable[[Board], Iterator[Hint]]:
    return lambda b: aligned_exclusions(b, degree)


def producers(*, max_level: int = 5, fast: bool = True) -> tuple[Producer, ...]:
    """SE's producers in order; the nested levels above `max_level` are left out. With `fast`
    the chaining producers share their work (`linkgraph.techniques.se.fast`; same hints),
    else they are SE's literal search (`linkgraph.techniques.se.chaining`)."""
    out = [Producer(n, f) for n, f in rules.DIRECT_RULES]
    for name, f in rules.INDIRECT_RULES:
        if f is None:
            f = _uniqueness("loop" if name == "Unique Loop" else "bug")
        elif fast and name == "Aligned Pair Exclusion":
            f = _aligned(2)
        out.append(Producer(name, f))
    if fast:
        shared = Shared()

        def make(**flags) -> Chaining:
            return FastChaining(shared=shared, **flags)
    else:
        make = Chaining
    chains = [
        make(),
        None,
        make(nishio=True, dynamic=True),
        make(multiple=True),
        make(multiple=True, dynamic=True),
        *(make(multiple=True, dynamic=True, level=n) for n in range(1, max_level + 1)),
    ]
    for ch in chains:
        if ch is None:
            out.append(Producer("Aligned Triplet Exclusion", _aligned(3) if fast else
                                lambda b: rules.aligned_exclusions(b, 3), True))
        else:
            out.append(Producer(ch.name, ch.hints, True))
    return tuple(out)


@without_collection
def first_hint(board: Board, prods) -> tuple[Producer, Hint] | None:
    """The hint SE applies next: the first worth hint of the first producer that has one.

    A chaining search makes millions of potentials that reference counting frees (a parent
    never points back to its child), so Python's cyclic collector stays off during a step
    (and `rate` keeps it off for the whole walk): its passes over them cost about 15 % of a
    level-2 search, and found 744 objects in a whole rating."""
    for prod in prods:
        for hint in prod.find(board):
            if hint.is_worth():
                hint.producer = prod.name
                return prod, hint
    return None


@dataclass
class RateResult:
    """serate's ratings of one puzzle and the path behind them."""

    er: float
    ep: float
    ed: float
    solved: bool
    hints: list = field(default_factory=list)
    seconds: float = 0.0
    stopped: str | None = None

    def text(self) -> str:
        return f"{se_rating_text(self.er)}/{se_rating_text(self.ep)}/{se_rating_text(self.ed)}"


def se_rating_text(value: float) -> str:
    """A rating as serate prints it (one decimal)."""
    return f"{value:.1f}"


@without_collection
def rate(grid: Grid, *, max_level: int = 5, deadline: float | None = None,
         progress: Callable[[Hint], None] | None = None, fast: bool = True) -> RateResult:
    """Walk SE's path from `grid` and return ER/EP/ED (serate's ``getDifficulty``).

    A puzzle SE cannot solve rates 20.0 (serate's value). `deadline` (a `time.monotonic`
    time) stops the walk between steps; the result then says ``stopped="time-limit"``.
    """
    start = time.perf_counter()
    board = Board.from_grid(grid)
    prods = producers(max_level=max_level, fast=fast)
    difficulty = float("-inf")
    pearl = diamond = 0.0
    hints: list[Hint] = []
    stopped = None
    while not board.is_solved():
        if deadline is not None and time.monotonic() > deadline:
            stopped = "time-limit"
            break
        found = first_hint(board, prods)
        if found is None:
            difficulty = 20.0
            break
        _, hint = found
        hints.append(hint)
        if progress is not None:
            progress(hint)
        difficulty = max(difficulty, hint.difficulty)
        hint.apply(board)
        if pearl == 0.0:
            if diamond == 0.0:
                diamond = difficulty
            if hint.cell is not None:
                pearl = difficulty
    if pearl == 0.0:
        pearl = difficulty if diamond else 0.0
    return RateResult(difficulty, pearl, diamond, board.is_solved(), hints, time.perf_counter() - start, stopped)
