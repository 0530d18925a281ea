"""An independent proof checker: replay a Step's proof graph on a grid.

`check_step` accepts a step only if its proof really proves it at that
position. It reads nothing but the grid, the geometry and the proof graph
(the conventions of `linkgraph.steps`), and shares no code with the search
modules (links, implication, chains, nets, propagate), so a bug there cannot
hide itself here. The oracle (`solutions`, `count_solutions`, `solve_unique`)
is re-exported as the other, semantic, check: every placement is a solution
digit and no elimination removes one.

What is checked
---------------
Proof graphs of chains and nets (``P.graph["kind"]`` ``chain`` or ``net``,
any graph with edges):

1. every node is a `Literal` over a candidate or a group node of this grid,
   the graph is acyclic (in a net joining several branches, each branch's
   edges: two branches may derive two literals in opposite orders), and the
   ``premise`` nodes are exactly ``step.premises``, all live;
2. every edge is a valid inference here: *weak* ``u -> v`` needs ``u`` ON,
   ``v`` OFF and both nodes inside set ``via``; *strong* ``u -> v`` needs ``v``
   ON and every other live member of set ``via`` OFF among ``v``'s in-edges
   with that ``via``; an *ALS* edge needs ``via`` to be an almost-locked set
   of this grid (n cells of one house, n + 1 live digits) locked by its
   in-edges; edges into one node that share a ``via`` are read together (a
   net's join);
3. every non-premise node follows from one premise alone (the branches of a
   forcing chain or net are never mixed);
4. the conclusions follow: a premise whose branch holds a contradiction (a
   literal and its negation, a set X with every live member OFF, two members
   of a set X ON) is false, so its negation is proven; and when the premises
   are exhaustive (every live member of a set X assumed ON, or a literal and
   its negation) a conclusion reached in every branch that is not refuted is
   proven.

Edges into one node that share a kind and a ``via`` are read together as one
rule (a net's join): a *pattern* edge is a subset or fish ``BASES|COVERS``
inside a net, a *net* edge a nested net proving a contradiction, replayed as
a proof of its own; `derive` closes a set of premises under the rules.

Pattern proofs (``P.graph["kind"] == "pattern"``) state ``base`` and
``cover`` sets X: the base sets must be disjoint and as many as the covers;
an eliminated candidate lies in a cover set, in no base set, and sees every
fin (a base candidate outside the covers); a placement is the last live
member of a base set. This one rule covers singles, locked candidates,
subsets and (finned) fish; a placement may also be the last live member of any set X once
the step's own eliminations are made (a direct rule: the pattern's eliminations leave a single).

Uniqueness proofs (``P.graph["assumes"] == "uniqueness"``: unique rectangles
and BUG+1, opt-in techniques) rest on the puzzle having one solution, which no
set X rule can show. For them the checker accepts the assumption and checks
the rest (`linkgraph.check.uniqueness`): the pattern's shape (four unsolved cells in
two rows, two columns and two boxes, all holding the claimed pair; or every
open cell bivalue but one trivalue cell, with clean candidates, and each
digit twice in each house once the claimed digit is removed from that cell)
and that every conclusion is one the pattern's type gives.

Examples
--------
>>> from linkgraph.check.checker import check_step, ProofError
>>> grid = lg.Grid.parse(lg.samples.EULER_01)
>>> P = nx.DiGraph(kind="pattern", base=["r1c1"], cover=[])
>>> check_step(grid, lg.make_step("naked-single", placements=[lg.Candidate.parse("r1c1#4")], proof=P))
Traceback (most recent call last):
...
linkgraph.errors.ProofError: naked-single: placement r1c1#4 is not the last live member of a base set (base r1c1)
>>> P = nx.DiGraph(kind="pattern", base=["r1#1"], cover=[])
>>> check_step(grid, lg.make_step("hidden-single", placements=[lg.Candidate.parse("r1c6#1")], proof=P))

A weak link must go from ON to OFF:

>>> a, b = lg.Literal.parse("+r1c1#4"), lg.Literal.parse("+r1c1#5")
>>> P = nx.DiGraph(kind="chain")
>>> P.add_node(a, role="premise")
>>> P.add_edge(a, b, kind="weak", family="cell", via="r1c1")
>>> step = lg.make_step("forcing-chain", eliminations=[a.cand], premises=[a], proof=P)
>>> check_step(grid, step)
Traceback (most recent call last):
...
linkgraph.errors.ProofError: forcing-chain: edge +r1c1#4 -> +r1c1#5 (weak, cell, via r1c1): a weak link goes from ON to OFF
"""

from __future__ import annotations


from collections import defaultdict
from collections.abc import Iterable

import networkx as nx
import numpy as np

from linkgraph.check.uniqueness import check_uniqueness
from linkgraph.errors import NotationError, ProofError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid, as_grid
from linkgraph.model import Als, Candidate, Family, Group, LinkKind, Literal, Role, SetX, sort_key
from linkgraph.oracle import count_solutions, solutions, solve_unique
from linkgraph.steps import Step

__all__ = ["ProofError", "check_step", "check_steps", "count_solutions", "solutions", "solve_unique"]

_ROLES = {r.value for r in Role}


def check_step(grid: Grid, step: Step) -> None:
    """Replay `step`'s proof on `grid`; return None or raise ProofError.

    Parameters
    ----------
    grid : Grid
        The position the step was found in (before it is applied).
    step : Step
        The step to check.

    Raises
    ------
    ProofError
        With a message naming the first bad node, edge or conclusion.

    Examples
    --------
    >>> from linkgraph.check.checker import check_step
    >>> grid = lg.Grid.parse(lg.samples.EULER_01)
    >>> P = nx.DiGraph(kind="pattern", base=["r1#1"], cover=[])
    >>> step = lg.make_step("hidden-single", placements=[lg.Candidate.parse("r1c6#1")], proof=P)
    >>> check_step(grid, step) is None
    True
    """
    _Checker(as_grid(grid), step).run()


def check_steps(grid: Grid, steps: Iterable[Step]) -> Grid:
    """Check a solve path step by step, applying each; return the final grid.

    Raises ProofError naming the step number (from 1) of the first bad step.
    """
    for i, step in enumerate(steps, 1):
        try:
            check_step(grid, step)
        except ProofError as exc:
            raise ProofError(f"step {i}: {exc}") from None
        grid = grid.apply(step)
    return grid


class _Checker:
    """One check of one step; methods raise ProofError."""

    def __init__(self, grid: Grid, step: Step):
        self.grid = grid
        self.g: Geometry = grid.geometry
        self.live = grid.live
        self.step = step
        self.P = step.proof
        self._members: dict[object, frozenset[int]] = {}
        self._sets: dict[str, int] = {}
        self._als: dict[str, tuple[Als, dict[int, frozenset[int]]]] = {}
        self._subnets: dict[int, list[Literal]] = {}

    def fail(self, message: str) -> None:
        raise ProofError(f"{self.step.technique}: {message}")

    # ---- basic readings ---------------------------------------------------
    def members(self, node: object) -> frozenset[int]:
        """Candidate indices of a proof node's cand (a Candidate or a Group)."""
        if node in self._members:
            return self._members[node]
        g = self.g
        try:
            if isinstance(node, Candidate):
                out = frozenset([g.index(node)])
            elif isinstance(node, Group):
                if not node.cells or len(set(node.cells)) != len(node.cells):
                    self.fail(f"group {node}: needs distinct cells")
                out = frozenset(g.index(c) for c in node.candidates)
                cells = [g.cell_index(c) for c in node.cells]
                if not any(set(cells) <= {int(x) for x in row} for row in g.house_cells):
                    self.fail(f"group {node}: its cells share no house")
            else:
                self.fail(f"node {node!r}: expected a candidate or a group")
        except NotationError as exc:
            self.fail(f"node {node}: {exc}")
        self._members[node] = out
        return out

    def set_index(self, via: object, where: str) -> int:
        """Index of the set X written `via`."""
        text = str(via)
        if text not in self._sets:
            try:
                self._sets[text] = self.g.set_index(SetX.parse(text))
            except (NotationError, ValueError):
                self.fail(f"{where}: via {text!r} is not a set X of this grid")
        return self._sets[text]

    def set_live(self, s: int) -> frozenset[int]:
        return frozenset(int(k) for k in self.g.set_members[s] if self.live[k])

    def set_all(self, s: int) -> frozenset[int]:
        return frozenset(int(k) for k in self.g.set_members[s])

    def name(self, k: int) -> str:
        return str(self.g.candidate(k))

    # ---- entry ------------------------------------------------------------
    def run(self) -> None:
        step = self.step
        if not step.placements and not step.eliminations:
            self.fail("proves nothing (no placement, no elimination)")
        for cand in sorted(step.placements | step.eliminations):
            try:
                live = self.grid.has(cand)
            except NotationError as exc:
                self.fail(f"conclusion {cand}: {exc}")
            if not live:
                self.fail(f"conclusion {cand} is not a live candidate")
        if step.placements & step.eliminations:
            both = sorted(step.placements & step.eliminations)[0]
            self.fail(f"{both} is both placed and eliminated")
        if self.P.graph.get("assumes") == "uniqueness":
            check_uniqueness(self.grid, step)
        elif self.P.graph.get("kind") == "pattern" or (self.P.number_of_edges() == 0 and "base" in self.P.graph):
            self.check_pattern()
        else:
            self.check_graph()

    # ---- pattern proofs ---------------------------------------------------
    def _set_list(self, key: str) -> list[int]:
        value = self.P.graph.get(key, [])
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        return [self.set_index(text, key) for text in value]

    def check_pattern(self) -> None:
        base, cover = self._set_list("base"), self._set_list("cover")
        if not base:
            self.fail("pattern proof without base sets")
        base_text = " ".join(str(self.g.setx(s)) for s in base)
        if len(set(base)) != len(base) or len(set(cover)) != len(cover):
            self.fail(f"repeated base or cover set (base {base_text})")
        base_live = [self.set_live(s) for s in base]
        inside: set[int] = set()
        for s, mem in zip(base, base_live):
            if inside & mem:
                self.fail(f"base set {self.g.setx(s)} overlaps another base set")
            inside |= mem
        covered = set().union(*(self.set_all(s) for s in cover)) if cover else set()
        fins = sorted(inside - covered)
        elims = {self.g.index(c) for c in self.step.eliminations}
        if self.step.eliminations and len(base) != len(cover):
            self.fail(f"{len(base)} base sets but {len(cover)} cover sets (base {base_text})")
        for cand in sorted(self.step.eliminations):
            k = self.g.index(cand)
            if k not in covered:
                self.fail(f"elimination {cand} lies in no cover set")
            if k in inside:
                self.fail(f"elimination {cand} lies in a base set")
            blind = [f for f in fins if not self.g.sees[k, f]]
            if blind:
                self.fail(f"elimination {cand} does not see fin {self.name(blind[0])}")
        for cand in sorted(self.step.placements):
            k = self.g.index(cand)
            if any(mem - elims == {k} for mem in base_live):
                continue
            # a placement the step's own eliminations leave as the last member of a set X
            # (Sudoku Explainer's direct rules: a locking or hidden set that leaves a single)
            if elims and any(self.set_live(int(s)) - elims == {k} for s in self.g.cand_sets[k]):
                continue
            self.fail(f"placement {cand} is not the last live member of a base set (base {base_text})")

    # ---- chains and nets --------------------------------------------------
    def check_graph(self) -> None:
        P = self.P
        premises = self.check_nodes()
        claimed = list(self.step.premises)
        if len(set(claimed)) != len(claimed) or set(premises) != set(claimed):
            self.fail(
                f"premise nodes {_text(premises)} differ from the step's premises {_text(claimed)}"
            )
        if not premises:
            self.fail("proof without premises")
        rules = self.check_edges()
        derived = {p: self.derive({p}, rules) for p in premises}
        order = nx.topological_sort(P) if nx.is_directed_acyclic_graph(P) else sorted(P, key=sort_key)
        for v in order:
            if not any(v in d for d in derived.values()):
                self.unjustified(v, "follows from no single premise")
        self.check_conclusions(premises, derived)

    def check_nodes(self) -> list[Literal]:
        """Check node types, liveness, roles and acyclicity; return the premise nodes.

        A literal that is both a premise and part of the contradiction may carry
        either role (a node has one role)."""
        P = self.P
        if P.number_of_nodes() == 0:
            self.fail("no proof graph")
        claimed = set(self.step.premises)
        premises = []
        for node, data in P.nodes(data=True):
            if not isinstance(node, Literal):
                self.fail(f"node {node!r} is not a Literal")
            if not any(self.live[k] for k in self.members(node.cand)):
                self.fail(f"node {node}: {node.cand} is not live here")
            role = data.get("role", Role.INNER)
            if role not in _ROLES:
                self.fail(f"node {node}: unknown role {role!r}")
            if role == Role.PREMISE or (role == Role.CONTRADICTION and node in claimed):
                premises.append(node)
        if not nx.is_directed_acyclic_graph(P):
            cycle = self.branch_cycle()
            if cycle:
                self.fail(f"proof has a cycle through {cycle[0][0]} -> {cycle[0][1]}")
        return sorted(premises, key=sort_key)

    def branch_cycle(self) -> list | None:
        """A cycle of the proof, or None when every cycle crosses branches: in a net that
        joins several branches (every edge tagged with its ``branches``), two branches may
        derive two literals in opposite orders, so only each branch's own edges must be
        acyclic (the derivation from each premise below is a closure either way)."""
        P = self.P
        names = set()
        for _, _, d in P.edges(data=True):
            if not d.get("branches"):
                return nx.find_cycle(P)
            names.update(d["branches"])
        for name in sorted(names):
            sub = nx.DiGraph((u, v) for u, v, d in P.edges(data=True) if name in d["branches"])
            if not nx.is_directed_acyclic_graph(sub):
                return nx.find_cycle(sub)
        return None

    def unjustified(self, v: Literal, why: str) -> None:
        P = self.P
        ins = ", ".join(
            f"{u} -> {v} ({P.edges[u, v].get('kind')} via {P.edges[u, v].get('via')})"
            for u in sorted(P.predecessors(v), key=sort_key)
        )
        if not ins:
            self.fail(f"node {v} has no in-edge and is not a premise")
        self.fail(f"node {v} {why} (in-edges {ins})")

    # ---- edges: the inference each kind of edge stands for ----------------
    def check_edges(self) -> dict[Literal, list[tuple]]:
        """Validate every edge; return per node its rules ``(kind, via, sources, extra)``.

        Edges into one node with one kind and via form one rule (a net's join);
        a node's ``reasons`` attribute adds rules without sources (a pattern or
        sub-net that holds in the grid itself)."""
        P = self.P
        rules: dict[Literal, list[tuple]] = {}
        for v in P.nodes:
            groups: dict[tuple[str, str], list[Literal]] = defaultdict(list)
            extra: dict[tuple[str, str], object] = {}
            labels = [
                (u, label)
                for u in sorted(P.predecessors(v), key=sort_key)
                for label in (P.edges[u, v], *P.edges[u, v].get("also", ()))
            ]
            for u, data in labels:
                kind, family, via = data.get("kind"), data.get("family"), data.get("via")
                where = f"edge {u} -> {v} ({kind}, {family}, via {via})"
                if via is None:
                    self.fail(f"{where}: no via")
                if family == Family.ALS:
                    groups[("als", str(via))].append(u)
                elif kind in ("pattern", "net"):
                    groups[(kind, str(via))].append(u)
                    if kind == "net":
                        extra[(kind, str(via))] = data.get("proof")
                elif kind in (LinkKind.WEAK, LinkKind.STRONG):
                    self.check_link(where, u, v, kind, family, via)
                    key = ("weak", str(u)) if kind == LinkKind.WEAK else ("strong", str(via))
                    groups[key].append(u)
                else:
                    self.fail(f"{where}: unknown kind {kind!r}")
            for reason in P.nodes[v].get("reasons", ()):
                kind, via = reason.get("kind", "pattern"), str(reason.get("via"))
                groups.setdefault((kind, via), [])
                if kind == "net":
                    extra[(kind, via)] = reason.get("proof")
            rules[v] = [(k, via, srcs, extra.get((k, via))) for (k, via), srcs in groups.items()]
            for rule in rules[v]:
                problem = self.rule_problem(v, rule, rule[2])
                if problem:
                    kind, via, srcs, _ = rule
                    first = f"edge {srcs[0]} -> {v}" if srcs else f"node {v}"
                    self.fail(f"{first} ({kind} via {via}): {problem}")
            if not rules[v]:  # a premise, or the last live member of a set
                rules[v] = [("fact", "", [], None)]
        return rules

    def check_link(self, where: str, u: Literal, v: Literal, kind: str, family: object, via: object) -> None:
        """One weak or strong edge on its own: set membership, family and direction."""
        s = self.set_index(via, where)
        mu, mv = self.members(u.cand), self.members(v.cand)
        all_s = self.set_all(s)
        if not (mu <= all_s and mv <= all_s):
            self.fail(f"{where}: {u.cand if not mu <= all_s else v.cand} is not in set {via}")
        self.check_family(where, u, v, family, s)
        if mu & mv:
            self.fail(f"{where}: the two nodes overlap")
        if kind == LinkKind.WEAK and (not u.on or v.on):
            self.fail(f"{where}: a weak link goes from ON to OFF")
        if kind == LinkKind.STRONG and (u.on or not v.on):
            self.fail(f"{where}: a strong link goes from OFF to ON")

    def rule_problem(self, v: Literal, rule: tuple, have: list[Literal]) -> str | None:
        """Why sources `have` do not give `v` by `rule` (None if they do)."""
        kind, via, _, extra = rule
        if kind == "weak":
            return None if have else "no source"
        if kind == "strong":
            missing = self.strong_missing(v, via, have)
            return None if missing is None else f"{self.name(missing)} is live in {via} and not OFF among the in-edges"
        if kind == "als":
            return self.als_problem(v, via, have)
        if kind == "pattern":
            return self.pattern_problem(v, via, have)
        if kind == "net":
            return self.subnet_problem(v, via, have, extra)
        # a fact: v ON as the last live member of a set
        if v.on and any(self.set_live(int(s)) <= self.members(v.cand) for s in self._sets_holding(v)):
            return None
        return "no in-edge, and not a premise"

    def _sets_holding(self, v: Literal) -> np.ndarray:
        idx = sorted(self.members(v.cand))
        return np.flatnonzero(self.g.incidence[idx].all(axis=0))

    def check_family(self, where: str, u: Literal, v: Literal, family: object, s: int) -> None:
        has_group = isinstance(u.cand, Group) or isinstance(v.cand, Group)
        if has_group:
            expected = Family.GROUP
        else:
            expected = Family.CELL if self.g.is_cell_set(s) else Family.HOUSE
        if family != expected:
            self.fail(f"{where}: family should be {expected.value}")

    def strong_missing(self, v: Literal, via: str, srcs: Iterable[Literal]) -> int | None:
        """A live member of `via` left uncovered by the OFF sources (None if all covered)."""
        s = self._sets[via]
        covered: set[int] = set(self.members(v.cand))
        for u in srcs:
            covered |= self.members(u.cand)
        rest = sorted(self.set_live(s) - covered)
        if not self.members(v.cand) & self.set_live(s):
            return min(self.members(v.cand))
        return rest[0] if rest else None

    def als(self, via: str) -> tuple[Als, dict[int, frozenset[int]]]:
        """The ALS written `via`, checked against the grid; digit -> its live candidates."""
        if via in self._als:
            return self._als[via]
        try:
            als = Als.parse(via)
            cells = [self.g.cell_index(c) for c in als.cells]
        except (NotationError, ValueError):
            self.fail(f"via {via!r} is not an ALS of this grid")
        if not any(set(cells) <= {int(x) for x in row} for row in self.g.house_cells):
            self.fail(f"ALS {via}: its cells share no house")
        digits = sorted({int(d) + 1 for c in cells for d in np.flatnonzero(self.grid.cands[c])})
        if len(digits) != len(cells) + 1 or tuple(digits) != als.digits:
            self.fail(f"ALS {via}: its {len(cells)} cells hold digits {''.join(map(str, digits))} here")
        places = {}
        for d in digits:
            places[d] = frozenset(
                self.g.index(Candidate(self.g.cell(c), d)) for c in cells if self.grid.cands[c, d - 1]
            )
        self._als[via] = (als, places)
        return self._als[via]

    def als_problem(self, v: Literal, via: str, srcs: list[Literal]) -> str | None:
        """Why the OFF sources do not lock ALS `via` onto `v` (None if they do)."""
        als, places = self.als(via)
        off: set[int] = set()
        for u in srcs:
            if u.on:
                return f"in-edge {u} is not OFF"
            off |= self.members(u.cand)
        removed = [d for d, ks in places.items() if ks <= off]
        if not removed:
            return "no digit of the ALS is OFF in every one of its cells"
        if not isinstance(v.cand, Candidate):
            return f"{v.cand} is not a candidate"
        y = v.cand.digit
        if y not in places or removed == [y]:
            return f"digit {y} is not one the locked ALS must hold"
        kv = self.g.index(v.cand)
        rest = places[y] - off - {kv}
        if v.on:
            if v.cand.cell not in als.cells or kv not in places[y]:
                return f"{v.cand} is not a live candidate of the ALS"
            if rest:
                return f"digit {y} has another place in the ALS, {self.name(min(rest))}"
            return None
        if kv in places[y] or v.cand.cell in als.cells:
            return f"{v.cand} lies in the ALS"
        blind = [k for k in sorted(rest) if not self.g.sees[kv, k]]
        if blind:
            return f"{v.cand} does not see the ALS's {self.name(blind[0])}"
        return None

    def pattern_problem(self, v: Literal, via: str, have: list[Literal]) -> str | None:
        """Why a subset/fish ``BASES|COVERS`` inside a net, with `have` OFF, does not make
        `v` OFF (None if it does)."""
        bases_text, sep, covers_text = str(via).partition("|")
        if not sep:
            return f"via {via!r} is not BASES|COVERS"
        bases = [self.set_index(t, f"pattern {via}") for t in bases_text.split()]
        covers = [self.set_index(t, f"pattern {via}") for t in covers_text.split()]
        if v.on:
            return f"{v} is ON; a pattern only eliminates"
        off: set[int] = set()
        for u in have:
            if u.on:
                return f"in-edge {u} is not OFF"
            off |= self.members(u.cand)
        if not bases or len(covers) > len(bases):
            return f"{len(bases)} base sets and {len(covers)} cover sets"
        inside: set[int] = set()
        for b in bases:
            left = self.set_live(b) - off
            if left & inside:
                return f"base set {self.g.setx(b)} overlaps another base set"
            inside |= left
        covered = set().union(*(self.set_all(c) for c in covers)) if covers else set()
        outside = sorted(inside - covered)
        if outside:
            return f"{self.name(outside[0])} lies in a base set and in no cover set"
        mv = self.members(v.cand)
        if not mv <= covered or mv & inside:
            return f"{v.cand} is not a cover member outside the bases"
        return None

    def subnet_problem(self, v: Literal, via: str, have: list[Literal], proof: object) -> str | None:
        """Why the nested net `proof` (premises ``+x`` and outer literals) does not make
        ``v = -x`` OFF given `have` (None if it does)."""
        if not isinstance(proof, nx.DiGraph):
            return "a nested net edge without its proof"
        if v.on or not isinstance(v.cand, Candidate):
            return f"{v} is not an OFF candidate"
        sub = type(self)(self.grid, self.step)
        sub.P = proof
        key = id(proof)
        if key not in self._subnets:
            self._subnets[key] = sub.check_subnet()
        premises = self._subnets[key]
        x = Literal(v.cand, on=True)
        if x not in premises:
            return f"the nested net does not assume {x}"
        missing = sorted(set(premises) - {x} - set(have), key=sort_key)
        if missing:
            return f"the nested net uses {missing[0]}, which is not among the in-edges"
        return None

    def check_subnet(self) -> list[Literal]:
        """Check this (nested) proof as one contradiction from all its premises at once."""
        P = self.P
        premises = [n for n, r in P.nodes(data="role") if r == Role.PREMISE]
        self.check_nodes()
        if not premises:
            self.fail("nested net without premises")
        rules = self.check_edges()
        got = self.derive(set(premises), rules)
        for v in P.nodes:
            if v not in got:
                self.unjustified(v, "does not follow in the nested net")
        if not self.contradiction(got):
            self.fail(f"nested net from {_text(premises)} reaches no contradiction")
        return premises

    def derive(self, starts: set[Literal], rules: dict) -> set[Literal]:
        """The nodes that follow from the literals `starts` taken together."""
        got = set(starts)
        acyclic = nx.is_directed_acyclic_graph(self.P)
        order = list(nx.topological_sort(self.P)) if acyclic else sorted(self.P, key=sort_key)
        grew = True
        while grew:  # one pass in topological order; passes to a fixpoint when branches cross
            grew = False
            for v in order:
                if v in got:
                    continue
                for rule in rules[v]:
                    have = [u for u in rule[2] if u in got]
                    if (have or not rule[2]) and self.rule_problem(v, rule, have) is None:
                        got.add(v)
                        grew = not acyclic
                        break
        return got

    # ---- conclusions ------------------------------------------------------
    def contradiction(self, lits: set[Literal]) -> str | None:
        """A description of a contradiction among `lits`, or None."""
        off: set[int] = set()
        for lit in lits:
            if not lit.on:
                off |= self.members(lit.cand)
        live = self.live
        ons = sorted((lit for lit in lits if lit.on), key=sort_key)
        for lit in ons:
            left = {k for k in self.members(lit.cand) if live[k]} - off
            if not left:
                return f"{lit} and its OFF members"
        alive = live.copy()
        if off:
            alive[sorted(off)] = False
        touched = np.flatnonzero(live[self.g.set_members].any(axis=1) & ~alive[self.g.set_members].any(axis=1))
        if len(touched):
            return f"set {self.g.setx(int(touched[0]))} has every member OFF"
        by_set: dict[int, list[Literal]] = defaultdict(list)
        inc = self.g.incidence
        for lit in ons:
            idx = sorted(self.members(lit.cand))
            for s in np.flatnonzero(inc[idx].all(axis=0)):
                by_set[int(s)].append(lit)
        for s, group in sorted(by_set.items()):
            for i, a in enumerate(group):
                for b in group[i + 1 :]:
                    if not self.members(a.cand) & self.members(b.cand):
                        return f"{a} and {b} are both ON in set {self.g.setx(s)}"
        return None

    def implied(self, lit: Literal, lits: set[Literal]) -> bool:
        """True if conclusion `lit` is in `lits`, or, when the proof does not draw it,
        follows from them in one link."""
        if lit in lits:
            return True
        if lit in self.P:
            return False
        k = self.g.index(lit.cand)
        if not lit.on:
            for u in lits:
                mu = self.members(u.cand)
                if u.on and k not in mu and self.g.incidence[sorted(mu | {k})].all(axis=0).any():
                    return True
            return False
        off: set[int] = set()
        for u in lits:
            if not u.on:
                off |= self.members(u.cand)
        return any(self.set_live(int(s)) - off == {k} for s in self.g.cand_sets[k])

    def exhaustive(self, premises: list[Literal]) -> bool:
        """True if one of the premises must hold: a literal and its negation, or every
        live member of a set X assumed ON."""
        pset = set(premises)
        if any(~p in pset for p in pset):
            return True
        on = {self.g.index(p.cand) for p in premises if p.on and isinstance(p.cand, Candidate)}
        for k in on:
            for s in self.g.cand_sets[k]:
                if self.set_live(int(s)) <= on:
                    return True
        return False

    def check_conclusions(self, premises: list[Literal], derived: dict[Literal, set[Literal]]) -> None:
        refuted = {p for p in premises if self.contradiction(derived[p])}
        standing = [p for p in premises if p not in refuted]
        exhaustive = self.exhaustive(premises)
        targets = self.step.conclusions
        for node, role in self.P.nodes(data="role"):
            if role == Role.CONCLUSION and node not in targets:
                self.fail(f"node {node} is marked as a conclusion but the step does not claim it")
        for lit in targets:
            if any(~lit == p for p in refuted):
                continue
            if not exhaustive:
                if len(premises) == 1 and not refuted:
                    self.fail(f"premise {premises[0]} leads to no contradiction, so {lit} is not proven")
                self.fail(f"conclusion {lit} does not follow: the premises {_text(premises)} are not exhaustive")
            for p in standing:
                if not self.implied(lit, derived[p]):
                    self.fail(f"conclusion {lit} does not follow from premise {p}")


def _text(lits: Iterable[Literal]) -> str:
    return "[" + " ".join(str(x) for x in sorted(lits, key=sort_key)) + "]"
