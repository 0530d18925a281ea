"""Forcing nets: propagation that lets consequences accumulate (SudokuWiki, Hanson).

May import the foundation and `linkgraph.graph`. Modules, bottom up:

- `kernel`: the compiled loops (numba, imported on the first search): the engine's
  rounds and whole sub-net runs, reading runs back, the proofs' reasons, contradictions
  and depth-0 supports;
- `engine`: the bit-parallel propagation (`advance`), 64 branches to a word;
- `structure`: the tables of one search (`Structure`), built once per grid;
- `proof`: a branch's reasons, support DAG and proof graph (`BranchProof`);
- `propagate`: propagation from premises (`propagate`, `Outcome`);
- `steps`: the Steps of the nets found;
- `search`: the net search (`forcing_nets`, `net_search`);
- `notation`: SudokuWiki's text for a net.
"""

from __future__ import annotations

from linkgraph.nets.notation import sudokuwiki
from linkgraph.nets.propagate import Outcome, Propagation, Structure, propagate, propagate_many, propagate_singles
from linkgraph.nets.search import forcing_nets, net_search

__all__ = [
    "Outcome",
    "Propagation",
    "Structure",
    "forcing_nets",
    "net_search",
    "propagate",
    "propagate_many",
    "propagate_singles",
    "sudokuwiki",
]
