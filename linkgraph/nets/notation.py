"""SudokuWiki-style text of forcing-net steps (``-9[B7]+9[C7]-4[C7]...``).

One headline naming the contradiction or the common conclusion, then one
line per path of the proof graph from a premise (rows A-J without I, as on
SudokuWiki). `linkgraph.nets.search` writes each net step's notation with it.
"""

from __future__ import annotations

import networkx as nx

from linkgraph.model import Group, Literal, Role, sort_key
from linkgraph.steps import Step

__all__ = ["sudokuwiki"]

_ROWS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def _sw(lit: Literal) -> str:
    node = lit.cand
    sign = "+" if lit.on else "-"
    if isinstance(node, Group):
        rows = sorted({c.row for c in node.cells})
        cols = sorted({c.col for c in node.cells})
        where = "".join(_ROWS[r] for r in rows) + "".join(str(c + 1) for c in cols)
        return f"{sign}{node.digit}[{where}]"
    return f"{sign}{node.digit}[{_ROWS[node.cell.row]}{node.cell.col + 1}]"


def sudokuwiki(step: Step) -> str:
    """SudokuWiki-style text of a net step: a headline, then one line per path.

    Each line follows one path of the support DAG from a premise to a
    contradiction or conclusion literal, as ``-9[B7]+9[C7]-4[C7]...`` (rows
    A-J without I, columns 1-9); inputs that join a path from the side are
    not spelt out, as on SudokuWiki.

    Examples
    --------
    >>> from linkgraph.solver import prepare
    >>> grid = prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = next(lg.forcing_nets(grid, start="on"))
    >>> print(sudokuwiki(step).splitlines()[0])
    Forcing Net: two candidates in r7#7 are ON so r4c4 is not 7
    """
    P = step.proof
    kind = P.graph.get("net", "contradiction")
    concl = step.conclusions[0] if step.conclusions else None
    verdict = ""
    if concl is not None:
        verdict = f"{concl.cand.cell} must be {concl.cand.digit}" if concl.on else f"{concl.cand.cell} is not {concl.cand.digit}"
    premises = [n for n, d in P.nodes(data=True) if d.get("role") == Role.PREMISE]
    if kind == "contradiction":
        what = {"both": "a candidate is both ON and OFF", "empty": "all candidates in {} are OFF",
                "two-on": "two candidates in {} are ON"}[P.graph.get("contradiction", "both")]
        head = f"Forcing Net: {what.format(P.graph.get('contradiction_via', ''))} so {verdict}"
        ends = [n for n, d in P.nodes(data=True) if d.get("role") == Role.CONTRADICTION]
    else:
        head = f"Forcing Net ({kind}): every branch leads to {concl} so {verdict}"
        ends = [n for n, d in P.nodes(data=True) if d.get("role") == Role.CONCLUSION]
    lines = [head]
    for end in sorted(ends, key=sort_key):
        best = None
        for p in sorted(premises, key=sort_key):
            if p == end:
                path = [p]
            else:
                try:  # one search (`nx.has_path` is this same call, its answer thrown away)
                    path = nx.shortest_path(P, p, end)
                except nx.NetworkXNoPath:
                    continue
            if kind != "contradiction" or best is None or len(path) < len(best):
                if kind != "contradiction":
                    lines.append("".join(_sw(x) for x in path))
                else:
                    best = path
        if best is not None:
            lines.append("".join(_sw(x) for x in best))
    return "\n".join(lines)
