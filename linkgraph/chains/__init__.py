"""Forcing chains: breadth-first search over the literal digraph (GNPX's ForceChain).

May import the foundation and `linkgraph.graph`. Modules:

- `search`: the search itself (`chain_search`), every premise at once;
- `bfs`: the bit-parallel breadth-first levels it runs on;
- `steps`: the Steps of the chains found (`forcing_chains`), with their proof graphs.
"""

from __future__ import annotations

from linkgraph.chains.search import VARIANTS, ChainResult, ChainSearch, chain_search
from linkgraph.chains.steps import chain_step, chain_steps, forcing_chains, prove

__all__ = ["VARIANTS", "ChainResult", "ChainSearch", "chain_search", "chain_step", "chain_steps", "forcing_chains", "prove"]
