"""``linkgraph solve``: the solve path with ratings, or the next step (``--hint``).

With ``--proofs`` the JSON also carries what a picture of each step needs: the start
position (``start``: its candidate grid; ``givens``: the puzzle string of its givens)
and, per step, the candidate grid it applies to (``before``) and its proof graph
(``proof``, see `linkgraph.draw.data.proof_data`).
"""

from __future__ import annotations

import argparse

from linkgraph.commands.common import Report, check_option, check_seconds_option, check_unique
from linkgraph.grid import Grid
from linkgraph.limits import Deadline, TimeLimitExceeded, check_count, check_seconds

__all__ = ["add_options", "check_unique", "report"]


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``linkgraph solve`` that the CLI and the API share."""
    p.add_argument("--ladder", default="default", help="'default', 'basic', 'all', 'se' (Sudoku Explainer's path and rating) or technique names, comma separated")
    p.add_argument("--hint", action="store_true", help="print only the next step")
    p.add_argument("--explain", action="store_true", help="add a plain-English line per step")
    p.add_argument("--max-steps", type=int, default=None, metavar="N", help="stop after N steps")
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="stop after S seconds, the uniqueness check and the step under way included; "
                        "the path found so far is the answer (exit 1)")
    check_option(p)
    p.add_argument("--proofs", action="store_true",
                   help="JSON: add each step's proof graph and the candidates it applies to")


def english(step) -> str:
    """The plain-English line of a step (its one-line text when there is none)."""
    try:
        from linkgraph.notation import english as _english
    except ImportError:
        return str(step)
    try:
        return _english(step)
    except Exception:  # noqa: BLE001 - a missing explanation must not sink the path
        return str(step)


def check_options(args: argparse.Namespace) -> None:
    """Raise OptionError for a negative --max-steps or --check-limit, or a --time-limit that is not a positive number."""
    check_count("max_steps", args.max_steps)
    check_seconds("time_limit", args.time_limit)
    check_seconds_option(args)


class _TimeUp(TimeLimitExceeded):
    """--time-limit ran out in the uniqueness check or the hint."""


def report(grid: Grid, args: argparse.Namespace) -> Report:
    """Solve `grid` as ``linkgraph solve`` does; `value` is the SolveResult, or
    ``(step, rating)`` with ``--hint``.

    Examples
    --------
    >>> from linkgraph.commands import solve
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> solve.add_options(parser)
    >>> out = solve.report(lg.Grid.parse(lg.samples.EULER_01), parser.parse_args([]))
    >>> out.status, out.data["solved"], out.data["steps"][0]["technique"]
    (0, True, 'hidden-single')
    """
    import time

    from linkgraph.solver import SolveResult, rated_hint, solve
    from linkgraph.techniques import resolve_ladder

    start = time.monotonic()
    ladder = resolve_ladder(args.ladder)
    check_options(args)

    def left() -> float | None:  # the time limit bounds the whole command, the check included
        return None if args.time_limit is None else max(args.time_limit - (time.monotonic() - start), 1e-3)

    where = "the uniqueness check"
    try:
        with Deadline(left(), _TimeUp):
            if not args.no_check:
                check_unique(grid, check_seconds_option(args))
            where = "the next step"
            found = rated_hint(grid, ladder=ladder) if args.hint else None
    except _TimeUp:
        note = f"linkgraph solve: stopped at --time-limit {args.time_limit:g} s in {where}"
        if args.hint:
            return Report({"step": None, "stopped": "time-limit"}, 1, (None, None), note)
        result = SolveResult(grid, (), grid, False, 0.0, time.monotonic() - start, "time-limit", ())
        return Report(result.to_dict(), 1, result, note)
    if args.hint:
        step, rating = found or (None, None)
        data = {"step": None if step is None else {**step.to_dict(), "rating": rating}}
        if step is not None and args.proofs:
            data["step"].update(_proof_fields(grid, step))
        return Report(data, 0 if step is not None else 1, (step, rating))
    result = solve(grid, ladder=ladder, max_steps=args.max_steps, time_limit=left())
    data = result.to_dict()
    if args.proofs:
        data = _with_proofs(grid, result, data)
    return Report(data, 0 if result.solved else 1, result)


def _proof_fields(before: Grid, step) -> dict:
    from linkgraph.draw.data import proof_data

    return {"before": before.to_candidates(), "proof": proof_data(step.proof, before)}


def _with_proofs(grid: Grid, result, data: dict) -> dict:
    out = {**data, "start": grid.to_candidates(),
           "givens": "".join(t if g else "." for t, g in zip(grid.tokens(), grid.givens, strict=True))}
    steps = []
    position = grid
    for step, row in zip(result.steps, data["steps"], strict=True):
        steps.append({**row, **_proof_fields(position, step)})
        position = position.apply(step)
    out["steps"] = steps
    return out
