"""linkgraph: a Sudoku constraint-propagation engine whose every deduction is a graph.

Every candidate is a node of a networkx graph, the rules are typed links
(strong, weak, grouped, ALS), and reasoning is search over that graph:
forcing chains, forcing nets and the pattern techniques all return `Step`
values whose proof is a small networkx DiGraph of literals.
"""

from __future__ import annotations

import os as _os

# One BLAS thread unless the user asks for more: the engine's matrix products are small
# (hundreds of rows), where a thread pool costs more than it saves, and on a busy machine
# its threads wait for each other (3x slower solves measured on a loaded 2-core box). Only
# takes effect when numpy is first imported through linkgraph.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

from linkgraph import batch, chaingraph, chains, geometry, metrics, nets, notation, oracle, samples, techniques, verify
from linkgraph.chains import forcing_chains
from linkgraph.errors import (
    GraphvizError,
    InvalidPuzzleError,
    LinkgraphError,
    NotationError,
    OptionError,
    PuzzleFormatError,
    SearchLimitError,
    UnknownTechniqueError,
)
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.implication import (
    CompiledImplications,
    compile_implications,
    implication_graph,
    implication_path,
    implications,
    path_links,
)
from linkgraph.links import link_counts, link_graph
from linkgraph.metrics import position_metrics, solve_metrics
from linkgraph.nets import forcing_nets
from linkgraph.model import Als, Candidate, Cell, Family, Group, House, LinkKind, Literal, NodeKind, Role, SetX
from linkgraph.propagate import propagate
from linkgraph.render import render, show, to_dot
from linkgraph.solver import SolveResult, hint, prepare, rated_hint, solve, step_rating
from linkgraph.steps import Step, make_step
from linkgraph.verify import check_step

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
    "PuzzleFormatError",
    "Role",
    "SearchLimitError",
    "SetX",
    "SolveResult",
    "Step",
    "UnknownTechniqueError",
    "batch",
    "chaingraph",
    "chains",
    "check_step",
    "compile_implications",
    "forcing_chains",
    "forcing_nets",
    "geometry",
    "hint",
    "implication_graph",
    "implication_path",
    "implications",
    "link_counts",
    "link_graph",
    "make_step",
    "metrics",
    "nets",
    "notation",
    "oracle",
    "path_links",
    "position_metrics",
    "prepare",
    "propagate",
    "rated_hint",
    "render",
    "samples",
    "show",
    "solve",
    "solve_metrics",
    "step_rating",
    "techniques",
    "to_dot",
    "verify",
]
