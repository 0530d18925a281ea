"""Link density and graph metrics: one flat record per position or per solve.

`position_metrics` measures a candidate state and its link graph; `solve_metrics`
measures a solve path. Both return a flat dict of plain values (int, float,
str) whose keys do not depend on the puzzle, so records from a whole corpus go
straight into one CSV, pandas or polars table. Floats are rounded to 6
decimals so that records are byte-identical across runs and machines.

Position columns (`POSITION_COLUMNS`):

- ``unsolved_cells``, ``live_candidates``: the unsolved cells and their live candidates;
- ``bivalue_cells``: open cells with exactly two candidates; ``bilocal_sets``:
  house-digit sets X with exactly two live members (conjugate pairs);
- ``nodes_candidate``, ``nodes_group``, ``nodes_als``: nodes of the link graph by kind;
- ``links_<kind>_<family>`` for kind in strong/weak and family in
  cell/house/group/als: edges of the link graph; ``links``, ``links_strong``,
  ``links_weak``: totals;

The remaining figures are taken over the *open candidates* (candidate nodes of
unsolved cells) and their set-X links (families ``cell`` and ``house``):

- ``density``: `networkx.density` of the open candidates' subgraph (all its
  edges); ``density_setx`` / ``density_strong``: set-X links / strong set-X
  links over the pairs of open candidates; ``density_<family>``: that
  family's links over all node pairs of the graph; ``strong_per_candidate``:
  strong set-X links per open candidate;
- ``degree_mean``, ``degree_max``, ``degree_std``: degree (all edges) of the
  open candidates; ``strong_degree_mean``, ``strong_degree_max``: their strong
  set-X degree;
- ``strong_components``, ``strong_component_max``, ``strong_component_mean``:
  connected components of the strong set-X links (bivalue cells and conjugate
  pairs); candidates with no strong link are not counted;
- ``average_clustering``: `networkx.average_clustering` of the set-X link
  graph of the open candidates (a candidate of degree < 2 counts 0).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import networkx as nx

from linkgraph.grid import Grid, as_grid

__all__ = [
    "FAMILIES", "KINDS", "POSITION_COLUMNS", "graph_metrics", "grid_counts", "position_metrics",
    "proof_size", "solve_columns", "solve_metrics",
]

KINDS: tuple[str, ...] = ("strong", "weak")
FAMILIES: tuple[str, ...] = ("cell", "house", "group", "als")

POSITION_COLUMNS: tuple[str, ...] = (
    "unsolved_cells", "live_candidates", "bivalue_cells", "bilocal_sets",
    "nodes_candidate", "nodes_group", "nodes_als",
    *(f"links_{k}_{f}" for k in KINDS for f in FAMILIES),
    "links", "links_strong", "links_weak",
    "density", "density_setx", "density_strong", *(f"density_{f}" for f in FAMILIES), "strong_per_candidate",
    "degree_mean", "degree_max", "degree_std", "strong_degree_mean", "strong_degree_max",
    "strong_components", "strong_component_max", "strong_component_mean",
    "average_clustering",
)


def _r(x: float) -> float:
    return round(float(x), 6)


def grid_counts(grid: Grid) -> dict[str, int]:
    """Counts read from the candidate state alone (no link graph).

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> c = lg.research.metrics.grid_counts(grid)
    >>> c["unsolved_cells"] == int((grid.counts > 1).sum())
    True
    """
    geo = grid.geometry
    live = grid.live
    counts = grid.counts
    cells = geo.number_of_cells
    members = geo.set_members[cells:]  # house-digit sets
    per_set = live[members].sum(axis=1)
    return {
        "unsolved_cells": int(grid.number_of_unsolved),
        "live_candidates": int(live[: geo.number_of_candidates].sum() - (counts == 1).sum()),
        "bivalue_cells": int((counts == 2).sum()),
        "bilocal_sets": int((per_set == 2).sum()),
    }


def _node_kind(G: nx.Graph, node: Any) -> str:
    kind = G.nodes[node].get("kind")
    return str(kind) if kind is not None else "candidate"


def _open_candidates(G: nx.Graph) -> list[Any]:
    """Candidate nodes whose cell has two or more candidate nodes (unsolved cells)."""
    cands = [v for v in G.nodes if _node_kind(G, v) == "candidate"]
    per_cell = Counter(v.cell for v in cands)
    return [v for v in cands if per_cell[v.cell] > 1]


def graph_metrics(G: nx.Graph) -> dict[str, Any]:
    """Link counts, density, degree, strong components and clustering of a link graph `G`.

    Edges are read through their ``kind`` and ``family`` attributes and nodes
    through ``kind`` (STYLE.md §4). Degree, density, strong-link and
    clustering figures are taken over the candidates of unsolved cells; the
    strong links there are the set-X ones (families ``cell`` and ``house``:
    bivalue cells and conjugate pairs).

    >>> G = nx.Graph()
    >>> a, b, c = (lg.Candidate.parse(t) for t in ("r1c1#1", "r1c1#2", "r1c2#1"))
    >>> G.add_nodes_from([a, b, c], kind="candidate")
    >>> G.add_node(lg.Candidate.parse("r1c2#3"), kind="candidate")
    >>> G.add_edge(a, b, kind="strong", family="cell", via="r1c1")
    >>> G.add_edge(a, c, kind="weak", family="house", via="r1#1")
    >>> m = lg.research.metrics.graph_metrics(G)
    >>> m["links_strong_cell"], m["links_weak_house"], m["strong_components"], m["degree_max"]
    (1, 1, 1, 2)
    """
    nodes_by_kind = Counter(_node_kind(G, v) for v in G.nodes)
    out: dict[str, Any] = {f"nodes_{k}": nodes_by_kind.get(k, 0) for k in ("candidate", "group", "als")}
    links = Counter((str(d.get("kind")), str(d.get("family"))) for _, _, d in G.edges(data=True))
    for k in KINDS:
        for f in FAMILIES:
            out[f"links_{k}_{f}"] = links.get((k, f), 0)
    out["links"] = G.number_of_edges()
    out["links_strong"] = sum(v for (k, _), v in links.items() if k == "strong")
    out["links_weak"] = sum(v for (k, _), v in links.items() if k == "weak")
    n = G.number_of_nodes()
    pairs = n * (n - 1) / 2
    for f in FAMILIES:
        out[f"density_{f}"] = _r(sum(links.get((k, f), 0) for k in KINDS) / pairs) if pairs else 0.0
    cands = _open_candidates(G)
    cset = set(cands)
    setx = nx.Graph()
    setx.add_nodes_from(cands)
    setx.add_edges_from((u, v, d) for u, v, d in G.edges(data=True)
                        if u in cset and v in cset and d.get("family") in ("cell", "house"))
    strong = nx.Graph()
    strong.add_nodes_from(cands)
    strong.add_edges_from((u, v) for u, v, d in setx.edges(data=True) if d.get("kind") == "strong")
    m = len(cands)
    cpairs = m * (m - 1) / 2
    out["density"] = _r(nx.density(G.subgraph(cands))) if m > 1 else 0.0
    out["density_strong"] = _r(strong.number_of_edges() / cpairs) if cpairs else 0.0
    out["density_setx"] = _r(setx.number_of_edges() / cpairs) if cpairs else 0.0
    out["strong_per_candidate"] = _r(strong.number_of_edges() / m) if m else 0.0
    degrees = [G.degree(v) for v in cands]
    out["degree_mean"] = _r(statistics.fmean(degrees)) if degrees else 0.0
    out["degree_max"] = max(degrees, default=0)
    out["degree_std"] = _r(statistics.pstdev(degrees)) if degrees else 0.0
    sdeg = [d for _, d in strong.degree()]
    out["strong_degree_mean"] = _r(statistics.fmean(sdeg)) if sdeg else 0.0
    out["strong_degree_max"] = max(sdeg, default=0)
    sizes = [len(c) for c in nx.connected_components(strong) if len(c) > 1]
    out["strong_components"] = len(sizes)
    out["strong_component_max"] = max(sizes, default=0)
    out["strong_component_mean"] = _r(statistics.fmean(sizes)) if sizes else 0.0
    out["average_clustering"] = _r(nx.average_clustering(setx)) if m else 0.0
    return out


def position_metrics(grid: Grid, *, G: nx.Graph | None = None, **link_options: Any) -> dict[str, Any]:
    """One flat record of link-graph metrics for a candidate state.

    Parameters
    ----------
    grid : Grid
        The position to measure.
    G : networkx.Graph, optional
        Its link graph, if already built; otherwise
        ``link_graph(grid, **link_options)`` builds it.
    **link_options
        Passed to `linkgraph.graph.links.link_graph` (``families``, ``als_max_size``).

    Returns
    -------
    dict
        The `POSITION_COLUMNS`, in that order (see the module docstring).

    Examples
    --------
    >>> G = nx.Graph()   # an empty link graph: measure the grid alone
    >>> m = lg.research.metrics.position_metrics(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), G=G)
    >>> list(m) == list(lg.research.metrics.POSITION_COLUMNS)
    True
    """
    grid = as_grid(grid)
    if G is None:
        from linkgraph.graph.links import link_graph

        G = link_graph(grid, **link_options)
    counts = grid_counts(grid)
    record = {**counts, **graph_metrics(G)}
    return {c: record[c] for c in POSITION_COLUMNS}


# ---- solve paths -----------------------------------------------------------


SOLVE_BASE: tuple[str, ...] = (
    "solved", "unsolved_cells", "steps", "placements", "eliminations", "solver_rating",
    "hardest", "chain_steps", "chain_length_max", "chain_length_mean",
    "net_steps", "net_size_max", "net_size_mean", "proof_size_max",
)


def solve_columns(techniques: Iterable[str] = ()) -> list[str]:
    """The columns of `solve_metrics` for a ladder of technique names.

    >>> lg.research.metrics.solve_columns(["x-wing"])[-2:]
    ['steps_x-wing', 'seconds']
    """
    return [*SOLVE_BASE, *(f"steps_{t}" for t in techniques), "seconds"]


def proof_size(step: Any) -> int:
    """Size of a step's proof: the literals of its proof graph (0 for a pattern without one)."""
    P = getattr(step, "proof", None)
    return P.number_of_nodes() if P is not None else 0


def _proof_kind(step: Any) -> str | None:
    P = getattr(step, "proof", None)
    if P is None:
        return None
    kind = P.graph.get("kind")
    if kind:
        return str(kind)
    name = str(step.technique)
    return "net" if "net" in name else "chain" if "chain" in name or "aic" in name else None


def solve_metrics(result: Any, *, techniques: Sequence[str] | None = None,
                  seconds: float | None = None) -> dict[str, Any]:
    """One flat record for a solve path (a `linkgraph.solver.SolveResult`).

    Parameters
    ----------
    result : SolveResult
        With ``steps``, ``final`` (the last grid), ``solved`` and ``rating``.
    techniques : sequence of str, optional
        Technique names that get a ``steps_<name>`` column even when unused;
        default: the techniques used, in order of first use.
    seconds : float, optional
        Solve time for the ``seconds`` column (None leaves it empty).

    Returns
    -------
    dict
        `solve_columns(techniques)`: ``solved`` (0/1), ``unsolved_cells`` left,
        ``steps``, total ``placements`` and ``eliminations``, ``solver_rating``
        (the path's SE-scale estimate),
        ``hardest`` (technique of the highest-rated step), chain and net counts
        and proof sizes (literals in the proof graph), ``steps_<technique>``.

    Examples
    --------
    >>> class R:  # any object with the SolveResult fields
    ...     steps = [lg.make_step("naked-single", placements=[lg.Candidate.parse("r1c1#5")])]
    ...     final = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN); solved = False; rating = 2.3
    >>> m = lg.research.metrics.solve_metrics(R())
    >>> m["steps"], m["placements"], m["steps_naked-single"], m["solver_rating"]
    (1, 1, 1, 2.3)
    """
    steps = list(result.steps)
    used = Counter(str(s.technique) for s in steps)
    names = list(techniques) if techniques is not None else list(dict.fromkeys(str(s.technique) for s in steps))
    chains = [proof_size(s) for s in steps if _proof_kind(s) == "chain"]
    nets = [proof_size(s) for s in steps if _proof_kind(s) == "net"]
    rating = getattr(result, "rating", None)
    hardest = None
    if steps:
        if hasattr(result, "step_ratings"):
            ratings = result.step_ratings()
        else:  # any object with the SolveResult fields
            from linkgraph.solver import step_rating

            ratings = [step_rating(s) for s in steps]
        hardest = str(steps[max(range(len(steps)), key=lambda i: ratings[i])].technique)
    final = getattr(result, "final", None)
    out: dict[str, Any] = {
        "solved": int(bool(result.solved)),
        "unsolved_cells": int(final.number_of_unsolved) if final is not None else None,
        "steps": len(steps),
        "placements": sum(len(s.placements) for s in steps),
        "eliminations": sum(len(s.eliminations) for s in steps),
        "solver_rating": _r(rating) if rating is not None else None,
        "hardest": hardest,
        "chain_steps": len(chains),
        "chain_length_max": max(chains, default=0),
        "chain_length_mean": _r(statistics.fmean(chains)) if chains else 0.0,
        "net_steps": len(nets),
        "net_size_max": max(nets, default=0),
        "net_size_mean": _r(statistics.fmean(nets)) if nets else 0.0,
        "proof_size_max": max((proof_size(s) for s in steps), default=0),
    }
    for t in names:
        out[f"steps_{t}"] = used.get(t, 0)
    out["seconds"] = _r(seconds) if seconds is not None else None
    return out
