"""Ladder rungs for forcing chains and forcing nets.

The searches live in `linkgraph.chains.search` and `linkgraph.nets.search`; this module only
adapts them to the ladder: one rung per chain variant, and one per net kind or
net setting (depth, nesting). The three chain rungs share one search of a grid
(it covers the premises of every variant in one pass). A net found with
+depth, ++depth or nesting is renamed after its rung (``forcing-net-plus`` and
so on), so its rating is the rung's; the proof graph keeps the net's kind
(``P.graph["net"]``). Nested rungs (level >= 1) propagate their premises in
chunks (`NEST_CHUNK`, ON starts first; `linkgraph.nets.search.forcing_nets` option
``chunk``): their step is the shortest net of the first chunk in which a
premise fails, not the shortest of the whole position, which would cost a
sub-net search from every premise. A position beyond the searches' size bound
(`linkgraph.errors.MAX_SEARCH_CANDIDATES`) makes these rungs find nothing
instead of raising.

The doubly nested rung has a tighter bound of its own, `NESTED_2_MAX_LIVE` live
candidates: its cost grows about as the cube of the live candidates, so past
the bound (an empty grid, a sparse grid with many solutions under ``--no-check``)
one call would run for hours. On proper puzzles the rung is reached only after
the nested rung found nothing, which no puzzle of the shipped corpora does;
every position measured up to 260 live candidates took at most half a minute.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from linkgraph.chains.search import chain_search
from linkgraph.chains.steps import chain_steps
from linkgraph.errors import SearchLimitError
from linkgraph.grid import Grid, cached
from linkgraph.nets.search import forcing_nets
from linkgraph.steps import Step

__all__ = ["forcing_chain_finder", "forcing_net_finder"]


def forcing_chain_finder(variant: str) -> Callable[[Grid], Iterator[Step]]:
    """The find function of the ``forcing-chain-VARIANT`` rung.

    >>> find = lg.techniques.forcing.forcing_chain_finder("cell")
    >>> step = next(find(lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))))
    >>> step.technique
    'forcing-chain-cell'
    """

    def find(grid: Grid) -> Iterator[Step]:
        try:
            search = cached("chain-search", grid, chain_search)
        except SearchLimitError:
            return  # too big a position for this rung: the ladder goes on without it
        yield from chain_steps(search, (variant,))

    find.__name__ = f"forcing_chain_{variant}"
    return find


_NET_KINDS = {"contradiction": ("contradiction",), "double": ("double",), "verity": ("verity",)}
NEST_CHUNK = 32  # premises per chunk in nested rungs (fewer failing branches to explain)
#: The doubly nested rung finds nothing in a position with more live candidates than this.
NESTED_2_MAX_LIVE = 300


def forcing_net_finder(name: str, *, depth: int = 0, level: int = 0) -> Callable[[Grid], Iterator[Step]]:
    """The find function of the ``forcing-net-NAME`` rung.

    ``name`` is a net kind (``contradiction``, ``double``, ``verity``: depth 0,
    no nesting) or a setting name; settings search every kind, contradiction
    nets first, and rename their steps ``forcing-net-NAME``.

    >>> find = lg.techniques.forcing.forcing_net_finder("contradiction")
    >>> step = next(find(lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))))
    >>> step.technique, step.proof.graph["kind"]
    ('forcing-net-contradiction', 'net')
    """
    kinds = _NET_KINDS.get(name, ("contradiction", "verity", "double"))
    technique = f"forcing-net-{name}"
    chunk = NEST_CHUNK if level >= 1 else None

    def find(grid: Grid) -> Iterator[Step]:
        if level >= 2 and int(grid.live.sum()) > NESTED_2_MAX_LIVE:
            return  # hours of work, on positions no proper puzzle reaches this rung with
        try:
            for step in forcing_nets(grid, depth=depth, level=level, kinds=kinds, select="shortest",
                                     chunk=chunk):
                yield step if step.technique == technique else replace(step, technique=technique)
        except SearchLimitError:
            return  # too big a position for this rung: the ladder goes on without it

    find.__name__ = f"forcing_net_{name.replace('-', '_')}"
    return find
