"""A proof as plain data for drawing elsewhere: the explorer's board, programs reading JSON.

`proof_data` turns a proof graph into JSON-ready dicts that say what to draw on a
board: the literals (ON or OFF, their role, the candidates each covers), the links
(kind, family, set X), one outline per ALS and per group node, and the sets X a
pattern step names (its base and cover sets, its fins) with their live candidates.
It reads the same attributes as `linkgraph.draw.dot` and draws nothing itself.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from linkgraph.errors import LinkgraphError
from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Family, Group, Literal, SetX, sort_key

__all__ = ["proof_data"]

#: Attributes of ``P.graph`` whose values are lists of set-X texts, drawn as shaded sets.
SET_ATTRIBUTES = ("base", "cover")


def _plain(value: object) -> object:
    """`value` as JSON-ready data: containers kept, numbers and text as they are, the rest as text."""
    if isinstance(value, (str, bool, int, float)) or value is None:
        return value
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return [_plain(v) for v in items]
    return str(value)


def _covered(node: object) -> list[str]:
    """The candidates a proof node stands for: itself, a group's cells, an ALS's cells and digits."""
    if isinstance(node, Candidate):
        return [str(node)]
    if isinstance(node, Group):
        return [str(c) for c in node.candidates]
    if isinstance(node, Als):
        return [str(Candidate(cell, d)) for cell in node.cells for d in node.digits]
    return []


def _node_kind(node: object) -> str:
    return "group" if isinstance(node, Group) else "als" if isinstance(node, Als) else "candidate"


def _set_cands(text: str, grid: Grid | None) -> dict:
    """One set X by its text, with its candidates (the live ones when `grid` is given)."""
    out: dict = {"text": text, "cands": []}
    if grid is None:
        return out
    g = grid.geometry
    try:
        s = g.set_index(SetX.parse(text))
    except (LinkgraphError, ValueError, AssertionError):
        return out  # a text that is not a set X of this grid: named, not drawn
    members = g.set_members[s]
    out["cands"] = [str(g.candidate(int(k))) for k in members if grid.live[k]]
    return out


def proof_data(P: nx.DiGraph, grid: Grid | None = None) -> dict:
    """The proof graph `P` as JSON-ready data for a board drawing.

    Parameters
    ----------
    P : nx.DiGraph
        A proof graph (``Step.proof``, ``Outcome.explain()``).
    grid : Grid, optional
        The position the proof applies to: the sets X of a pattern step then list
        their live candidates.

    Returns
    -------
    dict
        ``graph`` (the proof's attributes, sub-proofs left out), ``nodes`` (``id`` the
        literal text, ``on``, ``role``, ``node``: candidate, group or als, ``cands``: the
        candidates it stands for), ``edges`` (``from``, ``to``, ``kind``, ``family``,
        ``via``), ``outlines`` (one per ALS and group: ``kind``, ``text``, ``cands``) and
        ``sets`` (``base``, ``cover`` and ``fins`` of a pattern step).

    Examples
    --------
    >>> from linkgraph.draw.data import proof_data
    >>> P = nx.DiGraph(kind="chain")
    >>> P.add_edge(lg.Literal.parse("-r2c6#2"), lg.Literal.parse("+r6c6#2"), kind="strong", family="house", via="c6#2")
    >>> data = proof_data(P)
    >>> [(n["id"], n["on"]) for n in data["nodes"]], data["edges"][0]["via"]
    ([('-r2c6#2', False), ('+r6c6#2', True)], 'c6#2')
    """
    nodes = []
    outlines: dict[str, dict] = {}
    for lit in sorted(P.nodes, key=sort_key):
        node = lit.cand if isinstance(lit, Literal) else lit
        kind = _node_kind(node)
        nodes.append({
            "id": str(lit),
            "on": bool(getattr(lit, "on", True)),
            "role": str(P.nodes[lit].get("role", "inner")),
            "node": kind,
            "cands": _covered(node),
        })
        if kind != "candidate":
            outlines.setdefault(str(node), {"kind": kind, "text": str(node), "cands": _covered(node)})
    edges = []
    for u, v, d in P.edges(data=True):
        edges.append({"from": str(u), "to": str(v), "kind": str(d.get("kind", "")),
                      "family": str(d.get("family", "")), "via": str(d.get("via", ""))})
        if d.get("family") == Family.ALS:
            _add_als(outlines, str(d.get("via", "")))
    for text in P.graph.get("als", ()) or ():
        _add_als(outlines, str(text))
    sets = {name: [_set_cands(str(t), grid) for t in P.graph.get(name, ()) or ()] for name in SET_ATTRIBUTES}
    sets["fins"] = [str(f) for f in P.graph.get("fins", ()) or ()]
    graph = {k: _plain(v) for k, v in P.graph.items() if k != "proof"}
    return {"graph": graph, "nodes": nodes, "edges": edges, "outlines": list(outlines.values()), "sets": sets}


def _add_als(outlines: dict[str, dict], text: str) -> None:
    """Add the ALS written `text` (``r2468c4{1237}``) to `outlines`, once; skip other text."""
    if text in outlines:
        return
    try:
        als = Als.parse(text)
    except (LinkgraphError, ValueError):
        return
    outlines[text] = {"kind": "als", "text": str(als), "cands": _covered(als)}
