"""Notation for proof graphs: GNPX link lists, Eureka chains and plain English.

All three read only the step's proof graph (`linkgraph.steps` conventions) and
walk it the same way: from each premise (in the order of ``Step.premises``),
every path along the out-edges to a node with no out-edge (a conclusion or a
contradiction) is one line. Chains give one line per premise (two for a
contradictory premise); nets (DAGs with joins) give one line per path, and at
a join (a strong or ALS inference that needs several OFF literals of one set X
or ALS) the side inputs are written in parentheses after the literal the walk
came from.

GNPX (seeds/gnpx-forcechain.txt)::

    ✿[W r2c8/+1 -> r2c4/-1] => [S (ALS:r2468c4) r2c4/-1 -> r4c4/+3] => ...

``W`` marks an inference from an ON literal, ``S`` one from an OFF literal; an
ALS inference names the ALS cells. As GNPX prints them, a link inside one cell
is left out between two links (``[W r3c5/+1 -> r5c5/-1] => [W r5c5/+7 -> ...]``
passes through ``-r5c5#1 -> +r5c5#7``) and written when it opens or closes
the chain.

Eureka: ``(1)r2c8-(1)r2c4=(1)r3c5-(1=7)r5c5-(7)r5c7=...``: ``-`` an inference
to OFF, ``=`` one to ON; links inside one cell share the cell
(``(1=7)r5c5``); an ALS inference is written ``=ALS:r2468c4=`` (to ON) or
``=ALS:r2468c4-`` (to OFF).
"""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx

from linkgraph.model import Als, Candidate, Group, Literal, Role, SetX, sort_key
from linkgraph.steps import Step

__all__ = ["english", "eureka", "eureka_proof", "gnpx", "gnpx_heading", "paths"]

_TITLES = {"cell": "ForceChain_Cell", "house": "ForceChain_House", "contradiction": "ForceChain_Contradiction"}
_MAX_PATHS = 256


# ---- walking the proof -------------------------------------------------------------
def _premises(P: nx.DiGraph) -> list[Literal]:
    named = P.graph.get("premises")
    if named:
        # matched by text against the proof's own nodes, not parsed: on grids over 9 wide a
        # name like r10c6#6 or r1c12#5 does not read back unambiguously
        by_text = {str(n): n for n in P}
        return [by_text[t] for t in named if t in by_text]
    return sorted((v for v, r in P.nodes(data="role") if r == Role.PREMISE), key=sort_key)


def paths(P: nx.DiGraph) -> Iterator[tuple[Literal, list[tuple[Literal, Literal]]]]:
    """Yield ``(premise, edges)`` for every path from a premise to a node with no out-edge.

    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = lg.chains.prove(lg.chains.chain_search(grid), "cell", lg.SetX.parse("r2c8"), lg.Literal.parse("+r6c6#2"))
    >>> [(str(p), len(e)) for p, e in lg.notation.paths(step.proof)]
    [('+r2c8#1', 5), ('+r2c8#2', 2)]
    """
    count = 0
    for premise in _premises(P):
        stack = [(premise, [])]
        while stack:
            node, edges = stack.pop()
            succ = sorted(P.successors(node), key=sort_key, reverse=True)
            succ = [v for v in succ if all(v != u for u, _ in edges)]
            if not succ:
                yield premise, edges
                count += 1
                if count >= _MAX_PATHS:
                    return
                continue
            for v in succ:
                stack.append((v, edges + [(node, v)]))


def _side_inputs(P: nx.DiGraph, u: Literal, v: Literal) -> list[Literal]:
    """Other in-edges of `v` that the inference ``u -> v`` needs (a join)."""
    data = P.edges[u, v]
    if data.get("kind") != "strong" and data.get("family") != "als":
        return []
    return sorted(
        (w for w in P.predecessors(v) if w != u and P.edges[w, v].get("via") == data.get("via")),
        key=sort_key,
    )


def _same_cell(P: nx.DiGraph, u: Literal, v: Literal) -> bool:
    return (
        isinstance(u.cand, Candidate)
        and isinstance(v.cand, Candidate)
        and u.cand.cell == v.cand.cell
        and P.edges[u, v].get("family") == "cell"
    )


# ---- GNPX ---------------------------------------------------------------------------------
def _node_cells(node) -> str:
    if isinstance(node, Candidate):
        return str(node.cell)
    if isinstance(node, (Group, Als)):
        return node.cells_text if isinstance(node, Als) else str(node).partition("#")[0]
    return str(node)


def _gnpx_lit(lit: Literal) -> str:
    digit = lit.cand.digit if hasattr(lit.cand, "digit") else "".join(map(str, lit.cand.digits))
    return f"{_node_cells(lit.cand)}/{'+' if lit.on else '-'}{digit}"


def _gnpx_link(P: nx.DiGraph, u: Literal, v: Literal) -> str:
    data = P.edges[u, v]
    als = ""
    if data.get("family") == "als":
        try:
            als = f"(ALS:{Als.parse(str(data['via'])).cells_text}) "
        except ValueError:
            als = f"(ALS:{data.get('via')}) "
    side = "".join(f" ({_gnpx_lit(w)})" for w in _side_inputs(P, u, v))
    return f"[{'W' if u.on else 'S'} {als}{_gnpx_lit(u)}{side} -> {_gnpx_lit(v)}]"


def _gnpx_line(P: nx.DiGraph, edges: list) -> str:
    shown = [
        (u, v) for i, (u, v) in enumerate(edges) if i in (0, len(edges) - 1) or not _same_cell(P, u, v)
    ]
    return "✿" + " => ".join(_gnpx_link(P, u, v) for u, v in shown)


def gnpx(step: Step) -> str:
    """The step's chains in GNPX link notation, one line per path from a premise.

    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = lg.chains.prove(lg.chains.chain_search(grid), "cell", lg.SetX.parse("r2c8"), lg.Literal.parse("+r6c6#2"))
    >>> print(lg.notation.gnpx(step).splitlines()[1])
    ✿[W r2c8/+2 -> r2c6/-2] => [S r2c6/-2 -> r6c6/+2]
    """
    return "\n".join(_gnpx_line(step.proof, edges) for _, edges in paths(step.proof) if edges)


def gnpx_heading(step: Step) -> str:
    """GNPX's heading of a step: ``ForceChain_House(row2#1) r6c6#2 is true``."""
    P = step.proof
    variant = P.graph.get("variant", "")
    title = _TITLES.get(variant, step.technique)
    if variant == "house":
        title += f"({P.graph.get('premise_set')})"
    facts = [f"{c} is true" for c in sorted(step.placements)]
    facts += [f"{c} is false" for c in sorted(step.eliminations)]
    return f"{title} {', '.join(facts)}"


# ---- Eureka ---------------------------------------------------------------------------------
def _eureka_node(node) -> tuple[str, str]:
    """(digits, cells) of a node."""
    if isinstance(node, Als):
        return "".join(map(str, node.digits)), node.cells_text
    return str(node.digit), _node_cells(node)


def _eureka_line(P: nx.DiGraph, premise: Literal, edges: list) -> str:
    digits, cells = _eureka_node(premise.cand)
    tokens = [[digits, cells]]  # each token: [digit text, cells]
    out: list[str] = []

    def flush():
        d, c = tokens[-1]
        return f"({d}){c}"

    for u, v in edges:
        data = P.edges[u, v]
        sym = "=" if v.on else "-"
        side = "".join(f"({_eureka_text(w)})" for w in _side_inputs(P, u, v))
        vd, vc = _eureka_node(v.cand)
        if _same_cell(P, u, v) and not side:
            tokens[-1][0] += sym + vd
            continue
        out.append(flush() + side)
        if data.get("family") == "als":
            try:
                cells_text = Als.parse(str(data["via"])).cells_text
            except ValueError:
                cells_text = str(data.get("via"))
            out.append(f"=ALS:{cells_text}{sym}")
        else:
            out.append(sym)
        tokens.append([vd, vc])
    out.append(flush())
    return "".join(out)


def _eureka_text(lit: Literal) -> str:
    d, c = _eureka_node(lit.cand)
    return f"{'' if lit.on else '~'}({d}){c}"


def _result_text(P: nx.DiGraph) -> str:
    text = P.graph.get("conclusion", "")
    if not text:
        return ""
    # read off the text, not parsed: on grids over 9 wide r1c12#5 would also read as a group
    on = not text.startswith("-")
    cell, _, digit = text.lstrip("+-").partition("#")
    return f"{cell}={digit}" if on else f"{cell}<>{digit}"


def eureka_proof(P: nx.DiGraph) -> str:
    """One-line Eureka form of a proof graph: the chains joined by `` | ``, then ``=> result``."""
    lines = [_eureka_line(P, premise, edges) for premise, edges in paths(P) if edges]
    text = " | ".join(lines)
    result = _result_text(P)
    return f"{text} => {result}" if result else text


def eureka(step: Step) -> str:
    """The step's chains in Eureka notation, one line per path from a premise.

    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = lg.chains.prove(lg.chains.chain_search(grid), "cell", lg.SetX.parse("r2c8"), lg.Literal.parse("+r6c6#2"))
    >>> print(lg.notation.eureka(step).splitlines()[1])
    (2)r2c8-(2)r2c6=(2)r6c6
    """
    P = step.proof
    return "\n".join(_eureka_line(P, premise, edges) for premise, edges in paths(P) if edges)


# ---- English -----------------------------------------------------------------------------------
def _lit_english(lit: Literal) -> str:
    node = lit.cand
    if isinstance(node, Candidate):
        return f"{node.cell} is {'' if lit.on else 'not '}{node.digit}"
    d, cells = _eureka_node(node)
    return f"{d} is {'' if lit.on else 'not '}in {cells}"


_HOUSE_WORDS = {"row": "row", "col": "column", "box": "box", "diag": "diagonal", "window": "window", "region": "region"}


def _set_english(via: str) -> tuple[str, str | None]:
    """(place, digit) of a set X text: ('row 2', '1') or ('cell r2c4', None)."""
    try:
        sx = SetX.parse(via)
    except ValueError:
        return via, None
    if sx.cell is not None:
        return f"cell {sx.cell}", None
    return f"{_HOUSE_WORDS.get(sx.house.kind, sx.house.kind)} {sx.house.index + 1}", str(sx.digit)


def _reason(P: nx.DiGraph, u: Literal, v: Literal) -> str:
    data = P.edges[u, v]
    via = str(data.get("via", ""))
    if data.get("family") == "als":
        if v.on:
            return f"ALS {via} must then hold {v.cand.digit} there"
        return f"ALS {via} must then hold {v.cand.digit} where {_node_cells(v.cand)} sees it"
    place, digit = _set_english(via)
    if data.get("kind") == "strong" and v.on:
        side = _side_inputs(P, u, v)
        extra = f", with {', '.join(_lit_english(w) for w in side)}" if side else ""
        if digit is None:
            return f"the only digit left in {place}{extra}"
        return f"the only place left for {digit} in {place}{extra}"
    return f"same {place}"


def english(step: Step) -> str:
    """The step in plain English: one sentence per path, then what it proves.

    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = lg.chains.prove(lg.chains.chain_search(grid), "cell", lg.SetX.parse("r2c8"), lg.Literal.parse("+r6c6#2"))
    >>> print(lg.notation.english(step).splitlines()[1])
    If r2c8 is 2, then r2c6 is not 2 (same row 2), so r6c6 is 2 (the only place left for 2 in column 6).
    """
    P = step.proof
    lines = []
    for premise, edges in paths(P):
        if not edges:
            continue
        parts = [f"If {_lit_english(premise)}"]
        for i, (u, v) in enumerate(edges):
            word = "then" if i == 0 else "so"
            parts.append(f"{word} {_lit_english(v)} ({_reason(P, u, v)})")
        lines.append(", ".join(parts) + ".")
    variant = P.graph.get("variant")
    facts = [f"{c.cell} is {c.digit}" for c in sorted(step.placements)]
    facts += [f"{c.cell} is not {c.digit}" for c in sorted(step.eliminations)]
    fact = " and ".join(facts)
    if variant == "contradiction":
        what = P.graph.get("contradiction", "")
        if P.graph.get("contradiction_kind") == "both":
            why = f"it makes {what} both true and false"
        else:
            why = f"it leaves no place in {what}"
        lines.append(f"So {fact}: {why}.")
    elif variant == "cell":
        lines.append(f"Whichever digit {P.graph.get('premise_set')} holds, {fact}.")
    elif variant == "house":
        sx = P.graph.get("premise_set", "")
        house, _, digit = sx.partition("#")
        lines.append(f"Wherever {digit} goes in {house}, {fact}.")
    elif fact:
        lines.append(f"So {fact}.")
    return "\n".join(lines)
