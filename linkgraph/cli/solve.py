"""``linkgraph solve``: the solve path, one step a line, with ratings."""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import add_check, add_format, add_puzzle, check_grid, emit_json, read_grid
from linkgraph.errors import OptionError
from linkgraph.limits import Deadline, TimeLimitExceeded, check_count, check_seconds


def add_parser(sub) -> None:
    p = sub.add_parser(
        "solve",
        help="solve a puzzle step by step with the technique ladder",
        description="Apply the easiest technique that makes progress until solved or stuck; "
        "print each step in Eureka notation with its SE-style rating.",
    )
    add_puzzle(p)
    p.add_argument("--ladder", default="default", help="'default', 'basic', 'all', 'se' (Sudoku Explainer's path and rating) or technique names, comma separated")
    p.add_argument("--hint", action="store_true", help="print only the next step")
    p.add_argument("--explain", action="store_true", help="add a plain-English line per step")
    p.add_argument("--max-steps", type=int, default=None, metavar="N", help="stop after N steps")
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="stop after S seconds, the uniqueness check and the step under way included; "
                        "the path found so far is printed (exit 1)")
    add_check(p)
    p.add_argument("--render", metavar="DIR", default=None, help="write one SVG per chain or net step into DIR")
    add_format(p)
    p.set_defaults(run=run, time_grace=1.0)


class _CheckTimeout(TimeLimitExceeded):
    """--time-limit ran out in the uniqueness check or the hint."""


def _english(step) -> str:
    try:
        from linkgraph.notation import english
    except ImportError:
        return str(step)
    try:
        return english(step)
    except Exception:  # noqa: BLE001 - a missing explanation must not sink the path
        return str(step)


def run(args: argparse.Namespace) -> int:
    import time

    from linkgraph.solver import rated_hint, solve
    from linkgraph.techniques import resolve_ladder

    start = time.monotonic()
    check_count("--max-steps", args.max_steps)
    check_seconds("--time-limit", args.time_limit)
    if args.render:
        _check_render_dir(args.render)
    grid = read_grid(args.puzzle)
    ladder = resolve_ladder(args.ladder)

    def left() -> float | None:
        return None if args.time_limit is None else max(args.time_limit - (time.monotonic() - start), 1e-3)

    try:
        with Deadline(left(), _CheckTimeout):
            if not args.no_check:
                check_grid(grid)
            if args.hint:
                found = rated_hint(grid, ladder=ladder)
    except _CheckTimeout:
        what = "the next step" if args.hint and args.no_check else "the uniqueness check"
        print(f"linkgraph solve: stopped at --time-limit {args.time_limit:g} s in {what}", file=sys.stderr)
        return 1
    if args.hint:
        step, rating = found or (None, None)
        if args.format == "json":
            emit_json({"step": None if step is None else {**step.to_dict(), "rating": rating}})
        elif step is None:
            print("no step found", file=sys.stderr)
        else:
            print(f"{rating:4.1f}  {step.technique}: {step.notation}")
            if args.explain:
                print(f"      {_english(step)}")
        return 0 if step is not None else 1
    result = solve(grid, ladder=ladder, max_steps=args.max_steps, time_limit=left())
    if args.render:
        _render_steps(result, args.render)
    if args.format == "json":
        emit_json(result.to_dict())
    else:
        for i, (step, rating) in enumerate(zip(result.steps, result.step_ratings(), strict=True), 1):
            print(f"{i:3d}. {rating:4.1f}  {step.technique}: {step.notation}")
            if args.explain:
                print(f"           {_english(step)}")
        open_cells = int((~result.final.placed).sum())
        state = "solved" if result.solved else f"stuck with {open_cells} open cells"
        if result.stopped == "max-steps":
            state = f"stopped at --max-steps {args.max_steps} with {open_cells} open cells"
        elif result.stopped == "time-limit":
            state = (f"stopped at --time-limit {args.time_limit:g} s ({time.monotonic() - start:.1f} s) "
                     f"with {open_cells} open cells")
        print(f"{state}; {len(result.steps)} steps; rating {result.rating:.1f}")
        if not result.solved:
            print(result.final.to_candidates(pretty=True))
    return 0 if result.solved else 1


def _check_render_dir(directory: str) -> None:
    """OptionError unless --render names a folder, or a place where one can be made."""
    import os
    from pathlib import Path

    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise OptionError(f"--render {directory}: is a file, expected a folder")
    parent = out if out.is_dir() else next((p for p in out.parents if p.exists()), Path("."))
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise OptionError(f"--render {directory}: cannot write in {parent}")


def _render_steps(result, directory: str) -> None:
    from pathlib import Path

    from linkgraph.draw.graphviz import render

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for i, step in enumerate(result.steps, 1):
        if step.proof.graph.get("kind") in ("chain", "net"):
            render(step, out / f"step{i:03d}-{step.technique}.svg")
