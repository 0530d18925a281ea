"""linkgraph: a Sudoku constraint-propagation engine whose every deduction is a graph.

Every candidate is a node of a networkx graph, the rules are typed links
(strong, weak, grouped, ALS), and reasoning is search over that graph:
forcing chains, forcing nets and the pattern techniques all return `Step`
values whose proof is a small networkx DiGraph of literals.
"""

from __future__ import annotations

from linkgraph import (
    bitops,
    chains,
    check,
    draw,
    errors,
    geometry,
    graph,
    grid,
    io,
    model,
    nets,
    notation,
    oracle,
    research,
    samples,
    solver,
    steps,
    techniques,
)
from linkgraph.chains import forcing_chains
from linkgraph.check import check_step
from linkgraph.draw import render, show, to_dot
from linkgraph.errors import (
    GraphvizError,
    InvalidPuzzleError,
    LinkgraphError,
    NotationError,
    OptionError,
    ProofError,
    PuzzleFormatError,
    SearchLimitError,
    UnknownTechniqueError,
)
from linkgraph.geometry import Geometry
from linkgraph.graph import (
    CompiledImplications,
    compile_implications,
    from_plain,
    implication_graph,
    implication_path,
    implications,
    link_counts,
    link_graph,
    path_links,
    read_graph,
    to_plain,
    write_graph,
)
from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Cell, Family, Group, House, LinkKind, Literal, NodeKind, Role, SetX
from linkgraph.nets import forcing_nets, propagate
from linkgraph.research import position_metrics, solve_metrics
from linkgraph.solver import SolveResult, hint, prepare, rated_hint, solve, step_rating
from linkgraph.steps import Step, make_step

__version__ = "0.1.0"

__all__ = [
    "Als",
    "Candidate",
    "Cell",
    "CompiledImplications",
    "Family",
    "Geometry",
    "GraphvizError",
    "Grid",
    "Group",
    "House",
    "InvalidPuzzleError",
    "LinkKind",
    "LinkgraphError",
    "Literal",
    "NodeKind",
    "NotationError",
    "OptionError",
    "ProofError",
    "PuzzleFormatError",
    "Role",
    "SearchLimitError",
    "SetX",
    "SolveResult",
    "Step",
    "UnknownTechniqueError",
    "bitops",
    "chains",
    "check",
    "check_step",
    "compile_implications",
    "draw",
    "errors",
    "forcing_chains",
    "forcing_nets",
    "from_plain",
    "geometry",
    "graph",
    "grid",
    "hint",
    "implication_graph",
    "implication_path",
    "implications",
    "io",
    "link_counts",
    "link_graph",
    "make_step",
    "model",
    "nets",
    "notation",
    "oracle",
    "path_links",
    "position_metrics",
    "prepare",
    "propagate",
    "rated_hint",
    "read_graph",
    "render",
    "research",
    "samples",
    "show",
    "solve",
    "solve_metrics",
    "solver",
    "step_rating",
    "steps",
    "techniques",
    "to_dot",
    "to_plain",
    "write_graph",
]
