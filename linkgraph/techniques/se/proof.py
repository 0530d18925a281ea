"""A hint as a `Step` with a proof graph the checker replays.

- Rules with base and cover sets (singles, intersections, subsets, fish, and SE's direct
  rules, whose placement is the last live member of a set once the eliminations are made)
  get a pattern proof.
- Chains get the graph of their potentials: an ON potential is a ``strong`` edge from every
  other member of the set X that forced it (in dynamic chains the removed candidates are
  exactly those members), an OFF potential a ``weak`` edge from the ON potential that
  removed it. An OFF potential of a nested rule is a ``pattern`` edge (intersection, pair,
  X-Wing: ``BASES|COVERS``) or a ``net`` edge whose ``proof`` is the nested chain's own
  contradiction, written by `linkgraph.nets.propagate` from the candidate and the outer
  chain's removals it relies on. Cell and region chains, double chains and cycles are
  several branches (one premise each, the premises exhaustive), each edge tagged with its
  branches.
- Wings and aligned exclusions get, for each elimination, the contradiction its candidate
  leads to, found by `linkgraph.nets.propagate` (singles for wings, one level of nesting for
  the exclusions).

Every step's proof graph records SE's name (``se_name``), rating (``rating``) and, for
chains, complexity (``complexity``) in ``P.graph``.
"""

from __future__ import annotations

import networkx as nx

from linkgraph.grid import Grid
from linkgraph.model import Literal, Role
from linkgraph.nets.propagate import propagate
from linkgraph.steps import Step, make_step
from linkgraph.techniques.se.board import CELL_REGIONS, bits, candidate, cell_name, set_text
from linkgraph.techniques.se.chaining import ADVANCED, CELL, ChainHint, Potential, ancestors
from linkgraph.techniques.se.hints import Hint, PatternHint

__all__ = ["hint_step"]


def _lit(cell: int, digit: int, on: bool) -> Literal:
    return Literal(candidate(cell, digit), on=on)


def _plit(p: Potential) -> Literal:
    return _lit(p.cell, p.value, p.on)


def hint_step(grid: Grid, hint: Hint) -> Step:
    """The `Step` of `hint`, found on `grid`, with its proof graph."""
    placements = [candidate(hint.cell, hint.value)] if hint.cell is not None else []
    eliminations = [candidate(c, d) for c, d in hint.eliminations()]
    if placements and isinstance(hint, ChainHint):
        eliminations = []  # the placement removes the cell's other digits itself
    technique = "se-" + hint.technique
    info = {"se_name": hint.name, "rating": hint.difficulty}
    if isinstance(hint, PatternHint):
        P = nx.DiGraph(kind="pattern", base=list(hint.bases), cover=list(hint.covers), **info)
        return make_step(technique, placements=placements, eliminations=eliminations, proof=P)
    if isinstance(hint, ChainHint):
        P, premises = _chain_proof(grid, hint)
        P.graph.update(info, complexity=hint.complexity)
        return make_step(technique, placements=placements, eliminations=eliminations, premises=premises, proof=P)
    return _propagation_step(grid, hint, technique, info, eliminations)


# ---- chains ---------------------------------------------------------------------------
def _add_edge(P: nx.DiGraph, u: Literal, v: Literal, label: dict, branch: str) -> None:
    if P.has_edge(u, v):
        data = P.edges[u, v]
        same = all(data.get(k) == label.get(k) for k in ("kind", "via"))
        if same:
            if branch not in data["branches"]:
                data["branches"].append(branch)
            return
        for extra in data.setdefault("also", []):
            if extra.get("kind") == label.get("kind") and extra.get("via") == label.get("via"):
                if branch not in extra["branches"]:
                    extra["branches"].append(branch)
                return
        data["also"].append({**label, "branches": [branch]})
        return
    P.add_edge(u, v, **label, branches=[branch])


def _set_of(p: Potential) -> str:
    """The set X behind potential `p`'s cause."""
    if p.cause == CELL:
        return cell_name(p.cell)
    return set_text(CELL_REGIONS[p.cell][p.cause - 1], p.value)


def _family(p: Potential) -> str:
    return "cell" if p.cause == CELL else "house"


def _static_set(grid: Grid, u: Potential, v: Potential) -> tuple[str, str]:
    """(family, set X) of a static link between `u` and `v` (the reversed half of a cycle keeps
    its forward causes, so its sets are read off the grid): the cell, else the first region
    both share (block, row, column) where, for a strong link, the digit has two places."""
    if u.cell == v.cell:
        return "cell", cell_name(v.cell)
    live = grid.cands
    for r in CELL_REGIONS[v.cell]:
        if r in CELL_REGIONS[u.cell]:
            if v.on:
                from linkgraph.techniques.se.board import REGION_CELLS
                if sum(1 for c in REGION_CELLS[r] if live[c, v.value - 1]) != 2:
                    continue
            return "house", set_text(r, v.value)
    return "house", set_text(CELL_REGIONS[v.cell][0], v.value)


def _add_branch(grid: Grid, P: nx.DiGraph, target: Potential, branch: str, skip: tuple = (),
                geometric: bool = False) -> None:
    """Add the edges of `target`'s ancestry to `P`, tagged `branch`; `skip` lists (parent key,
    child key) links to leave out; `geometric` reads each link's set off the grid."""
    done = set()
    todo = [target]
    while todo:
        p = todo.pop()
        if id(p) in done:
            continue
        done.add(id(p))
        v = _plit(p)
        P.add_node(v)
        for parent in p.parents:
            todo.append(parent)
            if (parent.key, p.key) in skip:
                continue
            u = _plit(parent)
            P.add_node(u)
            if geometric:
                fam, via = _static_set(grid, parent, p)
                _add_edge(P, u, v, {"kind": "strong" if p.on else "weak", "family": fam, "via": via}, branch)
            elif p.cause == ADVANCED:
                _add_edge(P, u, v, _advanced_label(grid, p), branch)
            elif p.on:
                _add_edge(P, u, v, {"kind": "strong", "family": _family(p), "via": _set_of(p)}, branch)
            else:
                _add_edge(P, u, v, {"kind": "weak", "family": _family(p), "via": _set_of(p)}, branch)


_SUBPROOFS: dict[tuple, tuple[str, nx.DiGraph]] = {}


def _advanced_label(grid: Grid, p: Potential) -> dict:
    if p.rule is not None:
        rule = p.rule
        fam = "fish" if rule.technique == "x-wing" else "subset"
        return {"kind": "pattern", "family": fam, "via": " ".join(rule.bases) + "|" + " ".join(rule.covers)}
    key = (grid, p.key, tuple(q.key for q in p.parents))
    got = _SUBPROOFS.get(key)
    if got is None:
        premises = [_lit(p.cell, p.value, True)] + [_plit(q) for q in p.parents]
        sub = None
        for level in (0, 1, 2):
            out = propagate(grid, premises, depth=0, level=level)
            if out.contradiction is not None:
                sub = out.explain()
                break
        if sub is None:
            raise ValueError(f"nested chain for {p} gives no contradiction")
        # a premise that is also part of the contradiction (an outer OFF literal emptying a
        # set) stays a premise, so that the nested net is checked as starting from it
        starts = set(premises)
        for n, d in sub.nodes(data=True):
            if d.get("role") == Role.CONTRADICTION and n in starts:
                d["role"] = Role.PREMISE
        sub.graph["premises"] = [str(n) for n, d in sub.nodes(data=True) if d.get("role") == Role.PREMISE]
        # the outer literals it starts from are part of the name: two branches of one chain
        # may turn the same candidate off by nested chains from different literals, and the
        # checker takes the in-edges of one name as one rule with one nested proof
        via = f"{p.nested.name}: +{candidate(p.cell, p.value)} from {' '.join(str(_plit(q)) for q in p.parents)}"
        if len(_SUBPROOFS) > 2000:
            _SUBPROOFS.clear()
        got = _SUBPROOFS[key] = (via, nx.freeze(sub))
    via, sub = got
    return {"kind": "net", "family": "net", "via": via, "proof": sub}


def _chain_proof(grid: Grid, hint: ChainHint):
    P = nx.DiGraph(kind="net", depth=0, level=hint.rule.level if hint.kind not in ("cycle", "forcing") else 0)
    kind = hint.kind
    if kind == "binary":
        src = hint.source
        if hint.absurd:
            premises = [_plit(src)]
            for t in hint.targets:
                _add_branch(grid, P, t, str(premises[0]))
        else:
            on, off = hint.targets
            premises = [_lit(src.cell, src.value, True), _lit(src.cell, src.value, False)]
            _add_branch(grid, P, on, str(premises[0]))
            _add_branch(grid, P, off, str(premises[1]))
    elif kind in ("cell", "region"):
        premises = []
        for t in hint.targets:
            root = ancestors(t)[-1]
            while root.parents:
                root = root.parents[0]
            premises.append(_plit(root))
            _add_branch(grid, P, t, str(premises[-1]))
    elif kind == "forcing":
        target = hint.targets[0]
        root = target
        while root.parents:
            root = root.parents[0]
        premises = [_plit(root)]
        _add_branch(grid, P, target, str(premises[0]))
    else:  # cycle: the forward chain from +root and the reversed one from -root
        dst_on, dst_off = hint.targets
        chain_on = []
        p = dst_on
        while p.parents:
            chain_on.append(p)
            p = p.parents[0]
        root_key = dst_on.key
        premises = [_lit(dst_on.cell, dst_on.value, True), _lit(dst_on.cell, dst_on.value, False)]
        # forward: leave out the link back into the root
        _add_branch(grid, P, chain_on[1] if len(chain_on) > 1 else dst_on, str(premises[0]), geometric=True)
        # reversed: dst_off is rev(root); start from its parent to leave the closing link out
        rev = dst_off.parents[0] if dst_off.parents else dst_off
        _add_branch(grid, P, rev, str(premises[1]), geometric=True)
        del root_key
    for node in P.nodes:
        P.nodes[node]["role"] = Role.PREMISE if node in premises else Role.INNER
    for prem in premises:
        if prem not in P:
            P.add_node(prem, role=Role.PREMISE)
    P.graph["premises"] = [str(p) for p in premises]
    return P, premises


# ---- wings and exclusions: one contradiction per elimination ------------------------------------
def _propagation_step(grid: Grid, hint: Hint, technique: str, info: dict, eliminations) -> Step:
    P = nx.DiGraph(kind="net", depth=0, level=0, **info)
    premises = []
    level = 0 if "wing" in hint.technique else 1
    for c, d in hint.eliminations():
        premise = _lit(c, d, True)
        premises.append(premise)
        out = propagate(grid, [premise], depth=0, level=level)
        if out.contradiction is None:
            out = propagate(grid, [premise], depth=0, level=min(level + 1, 2))
        sub = out.explain()
        branch = str(premise)
        for node in sub.nodes:
            P.add_node(node)
        for u, v, data in sub.edges(data=True):
            label = {k: data[k] for k in ("kind", "family", "via") if k in data}
            if "proof" in data:
                label["proof"] = data["proof"]
            _add_edge(P, u, v, label, branch)
        for node, attrs in sub.nodes(data=True):
            if attrs.get("reasons"):
                P.nodes[node].setdefault("reasons", []).extend(attrs["reasons"])
    for node in P.nodes:
        P.nodes[node]["role"] = Role.PREMISE if node in premises else Role.INNER
    P.graph["premises"] = [str(p) for p in premises]
    return make_step(technique, eliminations=eliminations, premises=premises, proof=P)
