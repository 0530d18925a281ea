"""``linkgraph solve``: the solve path, one step a line, with ratings."""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import add_puzzle, emit_json, read_grid
from linkgraph.errors import InvalidPuzzleError
from linkgraph.io import format_puzzle

#: --format values that print the position instead of the path.
POSITION_FORMATS = ("sudokuwiki", "hodoku", "sdx", "candidates")


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
                   help="start no new step after S seconds (the step under way is finished first)")
    p.add_argument(
        "--no-check",
        action="store_true",
        help="analyse the grid even if it has no or several solutions",
    )
    p.add_argument("--render", metavar="DIR", default=None, help="write one SVG per chain or net step into DIR")
    p.add_argument("--format", choices=("text", "json", *POSITION_FORMATS), default="text",
                   help="output format; sudokuwiki, hodoku, sdx or candidates print the position reached "
                   "(after --max-steps, or where --hint's step applies) in that format, e.g. a SudokuWiki "
                   "link that carries the candidates")
    p.set_defaults(run=run)


def _check(grid) -> None:
    from linkgraph.oracle import count_solutions

    n = count_solutions(grid, limit=2)
    if n == 0:
        raise InvalidPuzzleError("the puzzle has no solution (use --no-check to analyse it anyway)")
    if n > 1:
        raise InvalidPuzzleError("the puzzle has several solutions (use --no-check to analyse it anyway)")


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
    from linkgraph.solver import rated_hint, solve
    from linkgraph.techniques import resolve_ladder

    grid = read_grid(args.puzzle)
    ladder = resolve_ladder(args.ladder)
    if args.max_steps is not None and args.max_steps < 0:
        from linkgraph.errors import OptionError

        raise OptionError(f"--max-steps: expected a number >= 0, found {args.max_steps}")
    if args.time_limit is not None and not args.time_limit > 0:
        from linkgraph.errors import OptionError

        raise OptionError(f"--time-limit: expected a positive number of seconds, found {args.time_limit}")
    if not args.no_check:
        _check(grid)
    if args.hint:
        step, rating = rated_hint(grid, ladder=ladder) or (None, None)
        if args.format in POSITION_FORMATS:
            print(format_puzzle(grid, args.format))
            return 0 if step is not None else 1
        if args.format == "json":
            emit_json({"step": None if step is None else {**step.to_dict(), "rating": rating}})
        elif step is None:
            print("no step found", file=sys.stderr)
        else:
            print(f"{rating:4.1f}  {step.technique}: {step.notation}")
            if args.explain:
                print(f"      {_english(step)}")
        return 0 if step is not None else 1
    result = solve(grid, ladder=ladder, max_steps=args.max_steps, time_limit=args.time_limit)
    if args.render:
        _render_steps(result, args.render)
    if args.format == "json":
        emit_json(result.to_dict())
    elif args.format in POSITION_FORMATS:
        print(format_puzzle(result.final, args.format))
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
            state = f"stopped at --time-limit {args.time_limit:g} s ({result.seconds:.1f} s) with {open_cells} open cells"
        print(f"{state}; {len(result.steps)} steps; rating {result.rating:.1f}")
        if not result.solved:
            print(result.final.to_candidates(pretty=True))
    return 0 if result.solved else 1


def _render_steps(result, directory: str) -> None:
    from pathlib import Path

    from linkgraph.draw.graphviz import render

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for i, step in enumerate(result.steps, 1):
        if step.proof.graph.get("kind") in ("chain", "net"):
            render(step, out / f"step{i:03d}-{step.technique}.svg")
