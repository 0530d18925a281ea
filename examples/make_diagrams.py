"""
The diagrams/ gallery: forcing chains and a forcing net, drawn
==============================================================

Regenerates diagrams/: the seed's forcing chains and one forcing net, drawn.

The gallery shows what `linkgraph.draw.graphviz` draws, on examples a reader can
check against their source:

- the three ForceChain_Cell results of the GNPX text (seeds/gnpx-forcechain.txt):
  whichever digit r2c8 holds (1 or 2), r6c6 is 2, r2c6 is 8 and r6c4 is 8;
- its first ForceChain_Contradiction: r2c4#2 ON leads to a contradiction, so
  r2c4#2 is false (linkgraph's shortest chain for it runs through three ALS);
- one forcing net on a puzzle of Norvig's hardest list (the second line of
  linkgraph/data/puzzles/hardest_norvig.txt): r1c8#4 ON empties row 1's places
  for digit 9, a 46-literal net with seven joins.

Each is drawn in both layouts (``flow``: a left-to-right graph of literals;
``board``: on the candidate grid), and the net also by ``rounds`` (one small
board per round), as SVG, and the script writes
``README.md`` listing the pictures. Run from the repository root::

    .venv/bin/python examples/make_diagrams.py            # writes diagrams/
    .venv/bin/python examples/make_diagrams.py /tmp/gallery

It needs the Graphviz programs ``dot`` and ``neato``. The output is the same
bytes on every run (with the same Graphviz version).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import linkgraph as lg
from linkgraph.chains.search import chain_search
from linkgraph.chains.steps import prove
from linkgraph.io import read_puzzles
from linkgraph.draw.graphviz import render
from linkgraph.solver import prepare

# The repository root (the documentation's gallery runs the script from examples/, without __file__).
ROOT = (Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd().resolve()).parent
PUZZLES = ROOT / "linkgraph" / "data" / "puzzles"
COMMAND = ".venv/bin/python examples/make_diagrams.py"

#: The seed's ForceChain_Cell results (premise cell r2c8) and first ForceChain_Contradiction.
GNPX_CASES = [
    ("cell", "r2c8", "+r6c6#2"),
    ("cell", "r2c8", "+r2c6#8"),
    ("cell", "r2c8", "+r6c4#8"),
    ("contradiction", "+r2c4#2", "-r2c4#2"),
]
#: The net: (puzzle file, line number from 1, the conclusion drawn).
NET_CASE = ("hardest_norvig.txt", 2, "-r1c8#4")


@dataclass(frozen=True)
class Diagram:
    """One gallery entry: a step, its position, and the file stem and caption."""

    stem: str
    step: lg.Step
    grid: lg.Grid
    caption: str
    layouts: tuple[str, ...] = ("flow", "board")

    def files(self) -> list[str]:
        return [f"{self.stem}.{layout}.svg" for layout in self.layouts]


def _stem_of(lit: lg.Literal) -> str:
    cand = lit.cand
    return f"{cand.cell}-{cand.digit}"


def gnpx_diagrams() -> list[Diagram]:
    """The seed's three cell results and its first contradiction, on the GNPX position."""
    position = prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    search = chain_search(position)
    out = []
    for variant, premise, target in GNPX_CASES:
        where = lg.Literal.parse(premise) if variant == "contradiction" else lg.SetX.parse(premise)
        lit = lg.Literal.parse(target)
        step = prove(search, variant, where, lit)
        if step is None:
            raise SystemExit(f"make_diagrams: the GNPX {variant} result {target} from {premise} was not found")
        state = "true" if lit.on else "false"
        if variant == "cell":
            caption = f"ForceChain_Cell: whichever digit {premise} holds, {lit.cand} is {state}"
        else:
            caption = f"ForceChain_Contradiction: {premise[1:]} ON leads to a contradiction, so {lit.cand} is {state}"
        out.append(Diagram(f"gnpx-{variant}-{_stem_of(lit)}", step, position, caption))
    return out


def net_diagram() -> Diagram:
    """The forcing net of `NET_CASE` (default options of `lg.forcing_nets`, after the basic ladder)."""
    name, number, target = NET_CASE
    line = next(p for p in read_puzzles(PUZZLES / name) if p.number == number)
    grid = prepare(lg.Grid.parse(line.puzzle))
    lit = lg.Literal.parse(target)
    step = next((s for s in lg.forcing_nets(grid) if lit in s.conclusions), None)
    if step is None:
        raise SystemExit(f"make_diagrams: no forcing net proves {target} in {name} line {number}")
    corpus = name.removesuffix(".txt").replace("_", "-")
    caption = f"Forcing net ({step.proof.graph.get('net')}) on {name} line {number}: {step.proof.number_of_nodes()} literals"
    return Diagram(f"net-{corpus}-{number}-{_stem_of(lit)}", step, grid, caption, ("flow", "board", "rounds"))


def diagrams() -> list[Diagram]:
    """Every gallery entry, in gallery order."""
    return [*gnpx_diagrams(), net_diagram()]


def readme(entries: list[Diagram]) -> str:
    """The text of diagrams/README.md."""
    lines = [
        "# Diagrams",
        "",
        "Proof pictures drawn by `linkgraph.draw.graphviz` (generated files: do not edit by hand).",
        "Regenerate the whole gallery, this file included, from the repository root with:",
        "",
        "```",
        COMMAND,
        "```",
        "",
        "Each step is drawn twice: `*.flow.svg` is the proof as a left-to-right graph of",
        "literals, `*.board.svg` the same literals at their places on the candidate grid;",
        "the net is also told round by round in `*.rounds.svg`, one small board per round",
        "with only the links that derive that round's literals (earlier rounds faded).",
        "Green boxes are ON literals, red ellipses OFF ones; a double border marks a premise",
        "(a thick one on the board), a thick blue border the conclusion, an amber fill the",
        "literals of a contradiction, a purple border a join. Solid arrows are strong links,",
        "dashed ones weak links; grey links stay in a cell, blue ones in a house, orange ones",
        "go through an almost locked set (ALS), outlined in orange. Hover over a link in a",
        "browser to see its set.",
        "",
        "| Picture | Step | Flow | Board | Rounds |",
        "|---|---|---|---|---|",
    ]
    for d in entries:
        links = {layout: f"[{name}]({name})" for layout, name in zip(d.layouts, d.files())}
        step = str(d.step).replace("|", "\\|")  # a pipe in a table cell, even in code, needs escaping
        lines.append(f"| {d.caption} | `{step}` | {links['flow']} | {links['board']} | {links.get('rounds', '')} |")
    lines += [
        "",
        "One step alone, from the command line (the GNPX position's first forcing chain of",
        "the cell kind; `--layout board` draws it on the board, `--all` draws every one):",
        "",
        "```",
        f'linkgraph render "{lg.samples.GNPX_FORCECHAIN}" --chains cell --prepare basic -o chain.svg',
        "```",
        "",
    ]
    return "\n".join(lines)


def write_gallery(outdir: Path) -> list[Path]:
    """Write every picture and README.md into `outdir`; return the paths written."""
    outdir.mkdir(parents=True, exist_ok=True)
    entries = diagrams()
    written = []
    for d in entries:
        for layout, name in zip(d.layouts, d.files()):
            written.append(render(d.step, outdir / name, layout=layout, grid=d.grid))
    path = outdir / "README.md"
    path.write_text(readme(entries), encoding="utf-8")
    written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the diagrams/ gallery.")
    parser.add_argument("outdir", nargs="?", default=str(ROOT / "diagrams"),
                        help="directory to write (default: diagrams/ of the repository)")
    args = parser.parse_args(argv)
    for path in write_gallery(Path(args.outdir)):
        print(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)
    return 0


if __name__ == "__main__":
    if status := main():  # no sys.exit(0): the docs gallery runs this block in-process
        sys.exit(status)
