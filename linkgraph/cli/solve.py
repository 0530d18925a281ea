"""``linkgraph solve``: the solve path, one step a line, with ratings.

The options and the JSON are `linkgraph.commands.solve`'s (shared with the explorer's
``/api/solve``); this module reads PUZZLE, prints the text form and writes the files of
``--render DIR`` and ``--html FILE``.
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import add_puzzle, emit_json, read_grid
from linkgraph.commands import solve as command
from linkgraph.commands.solve import english
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
    command.add_options(p)
    p.add_argument("--render", metavar="DIR", default=None, help="write one SVG per chain or net step into DIR")
    p.add_argument("--html", metavar="FILE", default=None,
                   help="write the explorer page for this solve as one self-contained HTML file")
    p.add_argument("--format", choices=("text", "json", *POSITION_FORMATS), default="text",
                   help="output format; sudokuwiki, hodoku, sdx or candidates print the position reached "
                   "(after --max-steps, or where --hint's step applies) in that format, e.g. a SudokuWiki "
                   "link that carries the candidates")
    p.set_defaults(run=run, time_grace=1.0)  # the command's own bound: the path stops at the limit, then prints


def run(args: argparse.Namespace) -> int:
    from linkgraph.errors import OptionError

    command.check_options(args)
    if args.html and args.hint:
        raise OptionError("--html: writes the whole solve path, not a --hint")
    if args.html:
        from pathlib import Path

        from linkgraph.explorer.page import check_writable

        check_writable(Path(args.html))
    if args.render:
        _check_render_dir(args.render)
    grid = read_grid(args.puzzle)
    wanted_proofs = args.proofs
    if args.html:
        args.proofs = True  # the page draws every proof
    out = command.report(grid, args)
    if out.note:  # the time limit came first (in the uniqueness check, or the next step)
        print(out.note, file=sys.stderr)
    if args.hint:
        step, rating = out.value
        if args.format in POSITION_FORMATS:
            print(format_puzzle(grid, args.format))
            return out.status
        if args.format == "json":
            emit_json(out.data)
        elif step is None and not out.note:
            print("no step found", file=sys.stderr)
        else:
            print(f"{rating:4.1f}  {step.technique}: {step.notation}")
            if args.explain:
                print(f"      {english(step)}")
        return out.status
    result = out.value
    if args.render:
        _render_steps(result, args.render)
    if args.html:
        from linkgraph.explorer.page import write_page

        write_page(args.html, grid, out, ladder=args.ladder)
    if args.format == "json":
        emit_json(out.data if wanted_proofs else result.to_dict())
    elif args.format in POSITION_FORMATS:
        print(format_puzzle(result.final, args.format))
    else:
        for i, (step, rating) in enumerate(zip(result.steps, result.step_ratings(), strict=True), 1):
            print(f"{i:3d}. {rating:4.1f}  {step.technique}: {step.notation}")
            if args.explain:
                print(f"           {english(step)}")
        open_cells = int((~result.final.placed).sum())
        state = "solved" if result.solved else f"stuck with {open_cells} open cells"
        if result.stopped == "max-steps":
            state = f"stopped at --max-steps {args.max_steps} with {open_cells} open cells"
        elif result.stopped == "time-limit":
            state = f"stopped at --time-limit {args.time_limit:g} s ({result.seconds:.1f} s) with {open_cells} open cells"
        print(f"{state}; {len(result.steps)} steps; rating {result.rating:.1f}")
        if not result.solved:
            print(result.final.to_candidates(pretty=True))
    return out.status


def _check_render_dir(directory: str) -> None:
    """OptionError unless --render names a folder, or a place where one can be made."""
    import os
    from pathlib import Path

    from linkgraph.errors import OptionError

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
