"""Side-by-side timing of linkgraph's solve path and another logic solver on the same puzzles.

``linkgraph bench --against larsdoku`` runs here. Both solvers get the same puzzles
in one process, alternating puzzle by puzzle (and, over repeats, which of the two
goes first), so a busy machine slows both alike. Each solve is timed in process
time (`time.process_time`: CPU seconds of this process, which other jobs on a
shared machine disturb far less than wall time); a puzzle's time is the least of
its repeats. Every answer is checked against the puzzle's unique solution, found
by `linkgraph.oracle` outside the timed part: a solver that stalls, guesses or
answers wrongly has not solved the puzzle by logic, and the report counts it.

The rival is a `Rival`: a name, a version and a function from an 81-character
puzzle string to the solved grid (or None). `RIVALS` names the ones built in:
``larsdoku`` (PyPI ``larsdoku``, in linkgraph's ``bench`` extra), called through
its public ``larsdoku.solve``, which uses logic only. Before timing, each solver
solves the first puzzle once untimed (first calls pay for imports, caches and
larsdoku's compilation).
"""

from __future__ import annotations

import importlib.metadata
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from linkgraph.errors import InvalidPuzzleError, OptionError, PuzzleFormatError
from linkgraph.grid import Grid
from linkgraph.io import read_puzzles
from linkgraph.limits import hidden_time_out
from linkgraph.oracle import solve_unique
from linkgraph.solver import solve, warm_up

__all__ = ["RIVALS", "Race", "Rival", "evenly_spaced", "race", "read_sample", "rival"]


@dataclass(frozen=True, slots=True)
class Rival:
    """Another solver: ``solve(puzzle)`` returns the solved grid as 81 digits, or None when
    it did not solve the puzzle by logic."""

    name: str
    version: str
    solve: Callable[[str], str | None]


def _larsdoku() -> Rival:
    try:
        import larsdoku  # noqa: PLC0415 (optional, and slow to import: it compiles with numba)
    except ImportError as exc:
        raise OptionError(
            "--against larsdoku: larsdoku is not installed (pip install 'linkgraph[bench]')"
        ) from exc

    def run(puzzle: str) -> str | None:
        out = larsdoku.solve(puzzle)
        counts = out.get("technique_counts") or {}
        if not out.get("success") or out.get("stalled") or "ORACLE_ONLY" in counts:
            return None
        board = out.get("board")
        return "".join(map(str, board)) if not isinstance(board, str) else board

    return Rival("larsdoku", importlib.metadata.version("larsdoku"), run)


#: The rivals `rival` knows by name.
RIVALS: dict[str, Callable[[], Rival]] = {"larsdoku": _larsdoku}


def rival(name: str) -> Rival:
    """The rival solver called `name` (imported on first use).

    Raises OptionError for an unknown name or a rival that is not installed.

    >>> lg.research.race.rival("sudokuwiki")
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: --against: unknown solver 'sudokuwiki' (known: larsdoku)
    """
    if name not in RIVALS:
        raise OptionError(f"--against: unknown solver {name!r} (known: {', '.join(sorted(RIVALS))})")
    return RIVALS[name]()


def evenly_spaced(items: Sequence, count: int | None) -> list:
    """`count` items spread evenly from the first to the last (all of them for None or more).

    >>> lg.research.race.evenly_spaced(range(10), 4)
    [0, 3, 6, 9]
    >>> lg.research.race.evenly_spaced(range(3), 5)
    [0, 1, 2]
    """
    items = list(items)
    if count is None or count >= len(items):
        return items
    if count < 1:
        raise OptionError(f"--sample: expected a positive number, found {count}")
    if count == 1:
        return items[:1]
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


@dataclass(frozen=True, slots=True)
class Race:
    """The times of one side-by-side run: per puzzle, seconds of process time for each solver
    (the least of the repeats) and whether each solved it by logic."""

    label: str
    rival: str
    rival_version: str
    repeat: int
    puzzles: tuple[str, ...]
    ours: tuple[float, ...]
    theirs: tuple[float, ...]
    ours_solved: tuple[bool, ...]
    theirs_solved: tuple[bool, ...]
    clock: str = field(default="process_time")

    def summary(self) -> dict:
        """Means, medians and their ratios (ours / theirs), in milliseconds."""
        out: dict = {"label": self.label, "puzzles": len(self.puzzles), "repeat": self.repeat,
                     "rival": self.rival, "rival_version": self.rival_version, "clock": self.clock,
                     "solved": {"linkgraph": sum(self.ours_solved), self.rival: sum(self.theirs_solved)}}
        for stat, fn in (("mean", statistics.fmean), ("median", statistics.median)):
            a, b = fn(self.ours) * 1000, fn(self.theirs) * 1000
            out[stat] = {"linkgraph_ms": round(a, 1), f"{self.rival}_ms": round(b, 1),
                         "ratio": round(a / b, 2) if b else None}
        return out

    def to_dict(self) -> dict:
        """The summary and the per-puzzle rows (the JSON of ``bench --against``)."""
        rows = [{"puzzle": p, "linkgraph_ms": round(a * 1000, 2), f"{self.rival}_ms": round(b * 1000, 2),
                 "linkgraph_solved": sa, f"{self.rival}_solved": sb}
                for p, a, b, sa, sb in zip(self.puzzles, self.ours, self.theirs, self.ours_solved,
                                           self.theirs_solved, strict=True)]
        return {**self.summary(), "rows": rows}


def race(
    puzzles: Sequence[str],
    against: Rival,
    *,
    label: str = "",
    repeat: int = 1,
    ladder: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Race:
    """Time linkgraph's `solve` and `against` on each puzzle, alternating puzzle by puzzle.

    Parameters
    ----------
    puzzles : sequence of str
        81-character puzzle strings with one solution each.
    against : Rival
        The other solver (see `rival`).
    label : str, optional
        What the puzzles are, for the report.
    repeat : int, optional
        Solve each puzzle this many times with each solver (alternating which goes first);
        a puzzle's time is the least of them.
    ladder : str, optional
        linkgraph's ladder (the default ladder when None).
    progress : callable, optional
        Called with (puzzles done, puzzles in all) after each puzzle.

    Returns
    -------
    Race
        Per-puzzle process times and solved flags of both solvers.

    Raises
    ------
    OptionError
        For a repeat count below 1.
    InvalidPuzzleError, PuzzleFormatError
        For a puzzle that is not one or has no unique solution (checked before any timing).

    Examples
    --------
    >>> echo = lg.research.race.Rival("echo", "0", lambda p: None)
    >>> r = lg.research.race.race([lg.samples.EULER_01], echo, repeat=2)
    >>> r.ours_solved, r.theirs_solved
    ((True,), (False,))
    """
    if repeat < 1:
        raise OptionError(f"--repeat: expected a positive number, found {repeat}")
    grids = [Grid.parse(p) for p in puzzles]
    answers = ["".join(map(str, solve_unique(g))) for g in grids]
    if grids:  # warm-up, untimed: first calls pay for imports, caches and compilation (both solvers)
        warm_up()
        solve(grids[0], ladder=ladder)
        try:
            against.solve(puzzles[0])
        except Exception:  # noqa: BLE001 (counted when timed)
            pass
    ours, theirs, ours_ok, theirs_ok = [], [], [], []
    for i, (text, grid, answer) in enumerate(zip(puzzles, grids, answers, strict=True)):
        best_a = best_b = float("inf")
        ok_a = ok_b = True
        for r in range(repeat):
            order = (0, 1) if (i + r) % 2 == 0 else (1, 0)
            for who in order:
                if who == 0:
                    t0 = time.process_time()
                    result = solve(grid, ladder=ladder)
                    dt = time.process_time() - t0
                    best_a = min(best_a, dt)
                    ok_a &= result.solved and result.final.to_puzzle(solved=True) == answer
                else:
                    t0 = time.process_time()
                    try:
                        board = against.solve(text)
                    except Exception as exc:  # noqa: BLE001 (another program's failure is a row, not a crash)
                        if hidden_time_out(exc) is not None:  # the command's --time-limit, wrapped by numba
                            raise
                        board = None
                    dt = time.process_time() - t0
                    best_b = min(best_b, dt)
                    ok_b &= board == answer
        ours.append(best_a)
        theirs.append(best_b)
        ours_ok.append(ok_a)
        theirs_ok.append(ok_b)
        if progress is not None:
            progress(i + 1, len(puzzles))
    return Race(label, against.name, against.version, repeat, tuple(puzzles), tuple(ours), tuple(theirs),
                tuple(ours_ok), tuple(theirs_ok))


def read_sample(path, count: int | None) -> list[str]:
    """`count` evenly spaced puzzle strings of a puzzle file (all for None); bad lines raise."""
    lines = list(read_puzzles(path))
    for ln in lines:
        if ln.error:
            raise PuzzleFormatError(f"{path}: line {ln.number}: {ln.error}")
        try:
            ln.grid()
        except (PuzzleFormatError, InvalidPuzzleError) as exc:
            raise type(exc)(f"{path}: line {ln.number}: {exc}") from None
    return [ln.puzzle for ln in evenly_spaced(lines, count)]
