"""
Concept pictures: links, literals, depth, nesting and the ladder
================================================================

The documentation's Concepts pages each show one picture; this script draws
the ones that ``make_diagrams.py`` does not (the forcing chains and the net
come from there):

- ``links-row2.svg``: row 2 of the GNPX position after the basic ladder, its
  seven candidates and the links between them (strong where a set X has two
  live members, weak where it has more);
- ``implication-path.svg``: the literals of the shortest implication path from
  ``+r2c8#1`` to ``+r6c6#2`` in the implication digraph, each edge with its set X;
- ``net-plus.flow.svg``: a +depth net (a locked-candidates step inside the
  propagation) on Norvig's hardest line 2;
- ``net-nested.flow.svg``: a nested net on the same puzzle (a sub-net proves a
  literal OFF inside the outer net);
- ``ladder.png``: the solve path of that puzzle, one dot per step at its
  rating, with the default ladder and with ``--ladder se``.

Run from the repository root (Graphviz ``dot``/``neato`` and matplotlib needed)::

    .venv/bin/python examples/concept_diagrams.py              # writes diagrams/concepts/
    .venv/bin/python examples/concept_diagrams.py /tmp/concepts
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import graphviz
import networkx as nx

import linkgraph as lg
from linkgraph.io import read_puzzles

# The repository root (the documentation's gallery runs the script from examples/, without __file__).
ROOT = (Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd().resolve()).parent
PUZZLES = ROOT / "linkgraph" / "data" / "puzzles"
#: The puzzle of the net pictures and of the ladder chart: Norvig's hardest list, line 2.
HARD = ("hardest_norvig.txt", 2)
#: The two nets drawn from its solve path (technique, conclusion).
NETS = {"net-plus": ("forcing-net-plus", "-r8c4#8"), "net-nested": ("forcing-net-nested", "-r1c7#4")}
STRONG, WEAK = "#1f5fa8", "#8a8a8a"


def links_row2(position: lg.Grid) -> graphviz.Graph:
    """Row 2's candidates at (column, digit) places, and the cell and house links among them."""
    G = lg.link_graph(position)
    row = [c for c in position.candidates() if c.cell.row == 1 and len(position.digits(c.cell)) > 1]
    dot = graphviz.Graph("links", engine="neato")
    dot.attr(bgcolor="white", fontname="Helvetica", splines="true", outputorder="edgesfirst",
             label="row 2 of the GNPX position: solid = strong link, dashed = weak link; labels name the set X",
             labelloc="b", fontsize="11")
    dot.attr("node", shape="box", style="rounded,filled", fillcolor="#f4f4f4", fontname="Helvetica", fontsize="11")
    dot.attr("edge", fontname="Helvetica", fontsize="9")
    digits = sorted({c.digit for c in row})
    for cand in row:
        dot.node(str(cand), pos=f"{cand.cell.col * 1.1:.2f},{-digits.index(cand.digit) * 1.0:.2f}!")
    for a, b, data in sorted(G.subgraph(row).edges(data=True), key=lambda e: (str(e[0]), str(e[1]))):
        if data["family"] not in ("cell", "house"):
            continue
        strong = data["kind"] == "strong"
        dot.edge(str(a), str(b), label=data["via"], color=STRONG if strong else WEAK,
                 fontcolor=STRONG if strong else "#555555", style="solid" if strong else "dashed",
                 penwidth="2" if strong else "1.2")
    return dot


def implication_path(position: lg.Grid) -> nx.DiGraph:
    """The shortest path +r2c8#1 -> +r6c6#2 in the implication digraph, as a small proof-like DiGraph."""
    D = lg.implication_graph(lg.link_graph(position))
    path = lg.implication_path(D, lg.Literal.parse("+r2c8#1"), lg.Literal.parse("+r6c6#2"))
    P = nx.DiGraph(technique="implication path: +r2c8#1 => +r6c6#2")
    for i, lit in enumerate(path):
        P.add_node(lit, role="premise" if i == 0 else "conclusion" if i == len(path) - 1 else "inner")
    for a, b in zip(path, path[1:]):
        P.add_edge(a, b, **D.edges[a, b])
    return P


def hard_puzzle() -> lg.Grid:
    name, number = HARD
    line = next(p for p in read_puzzles(PUZZLES / name) if p.number == number)
    return line.grid()


def net_steps(result: lg.SolveResult) -> dict[str, lg.Step]:
    """The steps of `NETS` on the solve path."""
    found = {}
    for step in result.steps:
        for stem, (technique, conclusion) in NETS.items():
            if step.technique == technique and lg.Literal.parse(conclusion) in step.conclusions:
                found.setdefault(stem, step)
    missing = set(NETS) - set(found)
    if missing:
        raise SystemExit(f"concept_diagrams: no step {sorted(missing)} on the solve path of {HARD}")
    return found


def ladder_chart(paths: dict[str, lg.SolveResult], out: Path) -> Path:
    """One dot per step at its rating, for each ladder, over the step number."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 3.6), dpi=100)
    for (label, result), colour in zip(paths.items(), ("#1f5fa8", "#d1495b")):
        ratings = result.step_ratings()
        ax.plot(range(1, len(ratings) + 1), ratings, "o", ms=3.5, color=colour, alpha=0.8,
                label=f"--ladder {label}: {len(ratings)} steps, rating {result.rating}")
    ax.set_xlabel("step")
    ax.set_ylabel("step rating (SE scale)")
    ax.set_title(f"Solve path of {HARD[0]} line {HARD[1]}: the hardest step is the puzzle's rating", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=9)
    fig.tight_layout()
    path = out / "ladder.png"
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def write_concepts(out: Path) -> list[Path]:
    """Write every concept picture into `out`; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    position = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    path = out / "links-row2.svg"
    path.write_bytes(links_row2(position).pipe(format="svg"))
    written.append(path)
    written.append(lg.render(implication_path(position), out / "implication-path.svg"))
    grid = hard_puzzle()
    default = lg.solve(grid)
    for stem, step in net_steps(default).items():
        written.append(lg.render(step, out / f"{stem}.flow.svg"))
    written.append(ladder_chart({"default": default, "se": lg.solve(grid, ladder="se")}, out))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description='Concept pictures: links, literals, depth, nesting and the ladder')
    parser.add_argument("outdir", nargs="?", default=str(ROOT / "diagrams" / "concepts"),
                        help="directory to write (default: diagrams/concepts/ of the repository)")
    args = parser.parse_args(argv)
    for path in write_concepts(Path(args.outdir)):
        print(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)
    return 0


if __name__ == "__main__":
    if status := main():  # no sys.exit(0): the docs gallery runs this block in-process
        sys.exit(status)
