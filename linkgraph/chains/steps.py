"""The Steps of forcing chains: proof graphs read back from a `ChainSearch`.

A chain is read back from the search's distances (`ChainSearch.chain`): one
chain per premise, chains of different premises sharing their tail once they
meet; a contradictory premise brings its two chains to X ON and X OFF (role
``contradiction``). ``P.graph`` holds ``kind="chain"``, ``variant``,
``premise_set`` (``r2c8`` or ``row2#1``), ``conclusion`` and ``length`` (links
in the proof); the notation is Eureka's (`linkgraph.notation.eureka_proof`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

import networkx as nx
import numpy as np

from linkgraph.chains.bfs import INF
from linkgraph.chains.search import BIG, TECHNIQUES, VARIANTS, ChainResult, ChainSearch, chain_search
from linkgraph.errors import OptionError, check_choice
from linkgraph.graph.compiled import LiteralGraph
from linkgraph.graph.compiler import FAMILIES
from linkgraph.grid import Grid, as_grid
from linkgraph.model import Literal, Role
from linkgraph.notation import eureka_proof
from linkgraph.steps import Step, make_step

__all__ = ["chain_step", "chain_steps", "forcing_chains", "prove"]


def chain_step(search: ChainSearch, result: ChainResult) -> Step:
    """The `Step` (with its proof graph) of one result of `search`."""
    LG = search.graph
    P = nx.DiGraph()
    roles: dict[int, Role] = {}
    variant = result.variant
    if variant == "contradiction":
        p = result.premise_set
        premise_ps = [p]
        _add_contradiction(search, P, p, roles)
        cand = search.geometry.candidate(search.premise_cands[p])
        placements, eliminations = [], [cand]
        P.graph["contradiction"] = search.contradiction_text(p)
        P.graph["contradiction_kind"] = "both" if search.contra_how[p] >= 0 else "empty"
        premise_set = str(cand)
    else:
        s = result.premise_set
        premise_ps = search.set_premises(s)
        target = result.target
        tree: set[int] = set()
        excluded = []
        for p in premise_ps:
            if search.dist[target, p] < INF:
                edges = search.chain(p, target)
                path_nodes = [int(search.premises[p])] + [int(LG.dst[e]) for e in edges]
                cut = next((i for i, v in enumerate(path_nodes) if v in tree), len(path_nodes))
                _add_edges(LG, P, edges[:cut])
                tree.update(path_nodes[: cut + 1])
                P.add_node(LG.literal(path_nodes[0]))
        for p in premise_ps:
            if search.dist[target, p] >= INF:
                excluded.append(str(LG.literal(int(search.premises[p]))))
                _add_contradiction(search, P, p, roles)
        roles[target] = Role.CONCLUSION
        lit = LG.literal(target)
        placements, eliminations = ([lit.cand], []) if lit.on else ([], [lit.cand])
        sx = search.geometry.setx(s)
        premise_set = str(sx) if sx.cell is not None else f"{sx.house.long_name}#{sx.digit}"
        if excluded:
            P.graph["excluded"] = excluded
    for p in premise_ps:
        roles[int(search.premises[p])] = Role.PREMISE
    for node in P.nodes:
        P.nodes[node]["role"] = Role.INNER
    for i, role in roles.items():
        lit = LG.literal(i)
        if lit in P:
            P.nodes[lit]["role"] = role
    premises = tuple(LG.literal(int(search.premises[p])) for p in premise_ps)
    P.graph.update(
        kind="chain",
        variant=variant,
        technique=TECHNIQUES[variant],
        premise_set=premise_set,
        conclusion=str(Literal(eliminations[0], on=False) if eliminations else Literal(placements[0])),
        length=P.number_of_edges(),
        premises=[str(p) for p in premises],
    )
    from linkgraph.notation import eureka_proof

    return make_step(
        TECHNIQUES[variant],
        placements=placements,
        eliminations=eliminations,
        premises=premises,
        proof=P,
        notation=eureka_proof(P),
    )


def _add_edges(LG: LiteralGraph, P: nx.DiGraph, edges: list[int]) -> None:
    for e in edges:
        P.add_edge(LG.literal(int(LG.src[e])), LG.literal(int(LG.dst[e])), **LG.edge_attrs(e))

def _add_contradiction(search: ChainSearch, P: nx.DiGraph, p: int, roles: dict) -> None:
    P.add_node(search.graph.literal(int(search.premises[p])))
    for t in search.contradiction_targets(p):
        _add_edges(search.graph, P, search.chain(p, t))
        roles[t] = Role.CONTRADICTION


def prove(search: ChainSearch, variant: str, premise_set, target: Literal) -> Step | None:
    """The step of `search` proving `target` from one premise set, or None if that set does not prove it.

    Parameters
    ----------
    search : ChainSearch
        A search of the position (`chain_search`).
    variant : str
        ``"cell"``, ``"house"`` or ``"contradiction"``.
    premise_set : SetX or Literal
        The cell or house-digit set X whose members are the premises; for
        ``"contradiction"``, the premise literal.
    target : Literal
        The conclusion to prove.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> search = lg.chains.chain_search(grid)
    >>> step = lg.chains.prove(search, "cell", lg.SetX.parse("r2c8"), lg.Literal.parse("+r6c6#2"))
    >>> step.technique, step.premises
    ('forcing-chain-cell', (Literal(cand=Candidate(cell=Cell(row=1, col=7), digit=1), on=True), ...))
    """
    check_choice("variant", [variant], VARIANTS)
    LG = search.graph
    if variant == "contradiction":
        p = int(search.premise_of[search.geometry.index(premise_set.cand)])
        if p < 0 or search.contra_len[p] >= BIG:
            return None
        return chain_step(search, ChainResult(int(search.contra_len[p]), 0, int(search.premises[p]) + 1, variant, p))
    s = search.geometry.set_index(premise_set)
    ps = search.set_premises(s)
    try:
        t = LG.literal_index(target)
    except KeyError:
        return None
    if not ps or any(search.premises[p] in (t, t ^ 1) for p in ps):
        return None
    d = search.dist[t, ps]
    if not ((d < INF) | (search.contra_len[ps] < BIG)).all() or (d < INF).sum() < max(len(ps) - 1, 1):
        return None
    score = int(np.where(d < INF, d, search.contra_len[ps]).sum())
    return chain_step(search, ChainResult(score, VARIANTS.index(variant), t, variant, s))


def chain_steps(search: ChainSearch, variants: Collection[str] = VARIANTS) -> Iterator[Step]:
    """The `Step` of each result of ``search.results(variants)``, in that order, built as consumed."""
    for result in search.results(variants):
        yield chain_step(search, result)


def forcing_chains(
    grid: Grid,
    *,
    variants: Collection[str] = ("cell", "house", "contradiction"),
    families: Collection[str] = FAMILIES,
) -> Iterator[Step]:
    """Yield every forcing-chain step in `grid`, shortest proof first.

    One step per proven placement or elimination and variant: of the premise
    sets that prove it, the one with the fewest links (then the first in set
    order).

    Parameters
    ----------
    grid : Grid
        The candidate state to search.
    variants : collection of str, optional
        Which chains to look for: ``"cell"``, ``"house"``, ``"contradiction"``.
    families : collection of str, optional
        Link families used: ``"cell"``, ``"house"``, ``"group"``, ``"als"``.

    Yields
    ------
    Step
        Technique ``forcing-chain-cell``, ``-house`` or ``-contradiction``.

    Raises
    ------
    OptionError
        An unknown variant or family (raised at the call).

    References
    ----------
    GNPX, "Sudoku Algorithm 4: ForceChain" (seeds/gnpx-forcechain.txt).

    Examples
    --------
    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> steps = list(lg.forcing_chains(grid, variants=["cell"]))
    >>> "r6c6#2" in {str(c) for s in steps for c in s.placements}
    True
    >>> lg.forcing_chains(grid, variants=["cel"])
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: variants: unknown value 'cel', expected one of cell, house, contradiction, all; did you mean 'cell'?
    """
    grid = as_grid(grid)
    variants = _check_variants(variants)
    check_choice("families", families, FAMILIES)
    return _forcing_chains(grid, variants, tuple(families))


def _check_variants(variants: Collection[str]) -> frozenset[str]:
    if isinstance(variants, str):
        variants = [variants]
    variants = list(variants)
    check_choice("variants", variants, ("cell", "house", "contradiction", "all"))
    if not variants:
        raise OptionError("variants: expected at least one of cell, house, contradiction")
    return frozenset(VARIANTS) if "all" in variants else frozenset(variants)


def _forcing_chains(grid: Grid, variants: frozenset[str], families: tuple[str, ...]) -> Iterator[Step]:
    yield from chain_steps(chain_search(grid, families=families), variants)
