"""Batch jobs: one function per job, ``job(line, options) -> dict`` (a flat record).

`linkgraph.research.batch` runs these over a puzzle file. Each function imports the
engine modules it needs inside its body, so a batch runs with whatever parts
of the engine exist, and each has a ``columns`` attribute (a callable of the
options) naming its record's keys in order; the keys never depend on the
puzzle, so every row of a CSV has the same columns.

Options (a plain dict, the same for every line):

- ``ladder``: ladder spec for ``solve`` (default ``"default"``);
- ``position``: ``"basic"`` (default: the position after the basic ladder) or
  ``"start"`` (the puzzle as given) for ``links``, ``chains``, ``nets``, ``metrics``;
- ``families``, ``als_max_size``: passed to `linkgraph.graph.links.link_graph`;
- ``depth``: forcing-net depth for ``nets`` (default 0);
- ``check``: whether a puzzle must have exactly one solution (default True; the
  ``oracle`` job counts solutions instead). A puzzle with none or several is an
  error row, before any other work.

`check_options` checks a job's options before any line is run, with the checks
the engine itself uses (`linkgraph.graph.links.check_link_options`,
`linkgraph.nets.propagate.check_depth_level`, `linkgraph.techniques.resolve_ladder`).
"""

from __future__ import annotations

import statistics
from collections import Counter

from linkgraph.errors import InvalidPuzzleError, OptionError, check_choice
from linkgraph.grid import Grid
from linkgraph.io import PuzzleLine
from linkgraph.limits import check_count, check_seconds
from linkgraph.research.metrics import POSITION_COLUMNS, proof_size, solve_columns, solve_metrics

__all__ = ["CHECKPOINTS", "OPTIONS", "PATH_METRICS", "RATE_COLUMNS", "chains_job", "check_options", "links_job",
           "metrics_job", "nets_job", "oracle_job", "rate_job", "solve_job"]

#: The options each built-in job reads.
OPTIONS: dict[str, tuple[str, ...]] = {
    "solve": ("ladder", "path", "families", "check"),
    "links": ("position", "families", "als_max_size", "check"),
    "metrics": ("position", "families", "als_max_size", "check"),
    "chains": ("position", "check"),
    "nets": ("position", "depth", "check"),
    "rate": ("max_level", "budget", "check"),
    "oracle": (),
}


def check_options(job: str, options: dict) -> None:
    """OptionError (or UnknownTechniqueError) for an option `job` does not take or a value it cannot use.

    A job named ``module:function`` is not one of ours: its options are its own.

    >>> lg.research.jobs.check_options("links", {"families": "cell,house", "als_max_size": 3})
    >>> lg.research.jobs.check_options("nets", {"depth": 9})
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: depth: expected 0, 1 or 2, found 9
    >>> lg.research.jobs.check_options("oracle", {"depth": 1})
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: depth: the oracle job takes no such option
    """
    if job not in OPTIONS:
        return
    for key in options:
        if key not in OPTIONS[job]:
            raise OptionError(f"{key}: the {job} job takes no such option")
    if "position" in options:
        check_choice("position", [options["position"]], ("basic", "start"))
    if "families" in options or "als_max_size" in options:
        from linkgraph.graph.links import DEFAULT_ALS_MAX_SIZE, check_link_options

        link = _link_options(options)  # a families string split as the jobs split it
        check_link_options(link.get("families", ("cell",)), link.get("als_max_size", DEFAULT_ALS_MAX_SIZE))
    if "depth" in options:
        from linkgraph.nets.propagate import check_depth_level

        check_depth_level(options["depth"], 0)
    if "ladder" in options:
        from linkgraph.techniques import resolve_ladder

        resolve_ladder(options["ladder"] or "default")
    if "max_level" in options:
        check_count("max_level", options["max_level"], none=False)
    if "budget" in options:
        check_seconds("budget", options["budget"])


def _grid(line: PuzzleLine, options: dict) -> Grid:
    """The line's grid, checked to have exactly one solution unless ``check`` is off."""
    grid = line.grid()
    if options.get("check", True):
        from linkgraph.oracle import count_solutions

        n = count_solutions(grid, limit=2)
        if n != 1:
            what = "no solution" if n == 0 else "several solutions"
            raise InvalidPuzzleError(f"line {line.number}: the puzzle has {what} (the check is off with --no-check)")
    return grid


def _columns(cols):
    def deco(fn):
        fn.columns = cols
        return fn

    return deco


def _position(line: PuzzleLine, options: dict) -> Grid:
    """The grid a position job measures: as given, or after the basic ladder."""
    grid = _grid(line, options)
    where = options.get("position", "basic")
    check_choice("position", [where], ("basic", "start"))
    if where == "start":
        return grid
    from linkgraph.solver import prepare

    return prepare(grid)


def _link_options(options: dict) -> dict:
    out = {}
    if options.get("families"):
        fam = options["families"]
        out["families"] = tuple(f.strip() for f in fam.split(",") if f.strip()) if isinstance(fam, str) else tuple(fam)
    if options.get("als_max_size") is not None:
        out["als_max_size"] = options["als_max_size"]
    return out


# ---- oracle: needs only the search oracle ------------------------------------


@_columns(lambda options: ["solutions", "givens", "solution"])
def oracle_job(line: PuzzleLine, options: dict) -> dict:
    """Number of solutions (up to 2), givens, and the solution when unique."""
    from linkgraph.oracle import solutions

    grid = line.grid()
    sols = solutions(grid, limit=2)
    return {
        "solutions": len(sols),
        "givens": int(grid.givens.sum()),
        "solution": "".join(map(str, sols[0])) if len(sols) == 1 else None,
    }


# ---- solve --------------------------------------------------------------------


def _ladder_names(options: dict) -> list[str]:
    from linkgraph.techniques import resolve_ladder

    return list(dict.fromkeys(n for t in resolve_ladder(options.get("ladder") or "default") for n in t.yields))


#: Position metrics recorded along a solve path (``path=True``), at each checkpoint.
PATH_METRICS: tuple[str, ...] = (
    "live_candidates", "links", "density_strong", "strong_per_candidate",
    "strong_components", "strong_component_max", "average_clustering",
)
#: Checkpoints of a path: the puzzle, the position the hardest step was found in, the end.
#: The end of a solved path is the solution, which has no open candidate and so no links:
#: its metrics are left empty (None), and ``end_*`` describes where a ladder got stuck.
CHECKPOINTS: tuple[str, ...] = ("start", "hardest", "end")


def _solve_columns(options: dict) -> list[str]:
    cols = solve_columns(_ladder_names(options))[:-1]
    if options.get("path"):
        cols += [f"{c}_{m}" for c in CHECKPOINTS for m in PATH_METRICS]
    return cols


def _path_metrics(result, options: dict) -> dict:
    """PATH_METRICS at the start, before the hardest step, and at the end of a solve path."""
    from linkgraph.graph.links import link_graph
    from linkgraph.research.metrics import position_metrics

    families = _link_options(options).get("families", ("cell", "house", "group"))
    steps = list(result.steps)
    ratings = result.step_ratings()
    hardest = max(range(len(steps)), key=lambda i: ratings[i], default=0)
    grid = result.grid
    for step in steps[:hardest]:
        grid = grid.apply(step)
    out = {}
    for name, g in zip(CHECKPOINTS, (result.grid, grid, result.final), strict=True):
        if name == "end" and result.solved:  # the solution: every metric would be 0
            out.update({f"end_{k}": None for k in PATH_METRICS})
            continue
        m = position_metrics(g, G=link_graph(g, families=families))
        out.update({f"{name}_{k}": m[k] for k in PATH_METRICS})
    return out


@_columns(_solve_columns)
def solve_job(line: PuzzleLine, options: dict) -> dict:
    """Solve with a ladder: `linkgraph.research.metrics.solve_metrics` (time is the batch's ``time_s``).

    With option ``path=True``, also `PATH_METRICS` at the `CHECKPOINTS` of the
    path (link families from ``families``, default cell, house, group).
    """
    from linkgraph.solver import solve

    result = solve(_grid(line, options), ladder=options.get("ladder") or "default")
    record = solve_metrics(result, techniques=_ladder_names(options))
    record.pop("seconds")
    if options.get("path"):
        record.update(_path_metrics(result, options))
    return record


#: The columns of `rate_job`.
RATE_COLUMNS = ["er", "ep", "ed", "solved", "steps", "hardest", "seconds", "stopped"]


@_columns(lambda options: list(RATE_COLUMNS))
def rate_job(line: PuzzleLine, options: dict) -> dict:
    """Sudoku Explainer's ER/EP/ED (`linkgraph.techniques.se.solver.rate`), the number of
    steps, the hardest step's SE name and the process time in seconds.

    Options: ``max_level`` (the deepest nesting level tried, default 5), ``budget`` (seconds
    of path after which the walk stops between steps: ``stopped`` says ``time-limit``).

    >>> line = lg.io.parse_line(lg.samples.EULER_01, 1)
    >>> r = lg.research.jobs.rate_job(line, {})
    >>> r["er"], r["ep"], r["ed"], r["solved"]
    (1.2, 1.2, 1.2, True)
    """
    import time

    from linkgraph.techniques.se.solver import rate

    t0 = time.process_time()
    deadline = None
    if options.get("budget"):
        deadline = time.monotonic() + float(options["budget"])
    result = rate(_grid(line, options), max_level=int(options.get("max_level", 5)), deadline=deadline)
    hardest = max(result.hints, key=lambda h: h.difficulty, default=None)
    return {
        "er": round(result.er, 1), "ep": round(result.ep, 1), "ed": round(result.ed, 1), "solved": result.solved,
        "steps": len(result.hints), "hardest": hardest.name if hardest is not None else "",
        "seconds": round(time.process_time() - t0, 3), "stopped": result.stopped,
    }


# ---- links and metrics ---------------------------------------------------------

_LINK_COLUMNS = [
    "unsolved_cells", "live_candidates", "nodes_candidate", "nodes_group", "nodes_als",
    *(c for c in POSITION_COLUMNS if c.startswith("links")), "literals", "implications",
]


@_columns(lambda options: list(_LINK_COLUMNS))
def links_job(line: PuzzleLine, options: dict) -> dict:
    """Link counts of the position and the size of its implication digraph."""
    from linkgraph.graph.implication import implication_graph
    from linkgraph.graph.links import link_graph
    from linkgraph.research.metrics import graph_metrics, grid_counts

    grid = _position(line, options)
    G = link_graph(grid, **_link_options(options))
    D = implication_graph(G)
    record = {**grid_counts(grid), **graph_metrics(G)}
    record["literals"] = D.number_of_nodes()
    record["implications"] = D.number_of_edges()
    return {c: record[c] for c in _LINK_COLUMNS}


@_columns(lambda options: list(POSITION_COLUMNS))
def metrics_job(line: PuzzleLine, options: dict) -> dict:
    """`linkgraph.research.metrics.position_metrics` of the position."""
    from linkgraph.research.metrics import position_metrics

    return position_metrics(_position(line, options), **_link_options(options))


# ---- chains and nets -------------------------------------------------------------

_FOUND_COLUMNS = ["unsolved_cells", "steps", "placements", "eliminations",
                  "proof_min", "proof_max", "proof_mean", "techniques"]


def _found(grid: Grid, steps: list) -> dict:
    sizes = [proof_size(s) for s in steps]
    used = Counter(str(s.technique) for s in steps)
    return {
        "unsolved_cells": grid.number_of_unsolved,
        "steps": len(steps),
        "placements": len(set().union(*(s.placements for s in steps))) if steps else 0,
        "eliminations": len(set().union(*(s.eliminations for s in steps))) if steps else 0,
        "proof_min": min(sizes, default=0),
        "proof_max": max(sizes, default=0),
        "proof_mean": round(statistics.fmean(sizes), 6) if sizes else 0.0,
        "techniques": " ".join(f"{k}={used[k]}" for k in sorted(used)),
    }


@_columns(lambda options: list(_FOUND_COLUMNS))
def chains_job(line: PuzzleLine, options: dict) -> dict:
    """Every forcing chain in the position: counts and proof sizes."""
    from linkgraph.chains.steps import forcing_chains

    grid = _position(line, options)
    return _found(grid, list(forcing_chains(grid)))


@_columns(lambda options: list(_FOUND_COLUMNS))
def nets_job(line: PuzzleLine, options: dict) -> dict:
    """Every forcing net in the position (``depth`` option): counts and proof sizes."""
    from linkgraph.nets.search import forcing_nets

    grid = _position(line, options)
    return _found(grid, list(forcing_nets(grid, depth=options.get("depth", 0))))
