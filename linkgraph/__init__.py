"""linkgraph: a Sudoku constraint-propagation engine whose every deduction is a graph.

Every candidate is a node of a networkx graph, the rules are typed links
(strong, weak, grouped, ALS), and reasoning is search over that graph:
forcing chains, forcing nets and the pattern techniques all return `Step`
values whose proof is a small networkx DiGraph of literals.
"""

from __future__ import annotations

from linkgraph import geometry, samples
from linkgraph.errors import (
    GraphvizError,
    InvalidPuzzleError,
    LinkgraphError,
    NotationError,
    OptionError,
    PuzzleFormatError,
    UnknownTechniqueError,
)
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Cell, Family, Group, House, LinkKind, Literal, NodeKind, Role, SetX
from linkgraph.steps import Step, make_step

__version__ = "0.1.0"

__all__ = [
    "Als",
    "Candidate",
    "Cell",
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
    "SetX",
    "Step",
    "UnknownTechniqueError",
    "geometry",
    "make_step",
    "samples",
]
