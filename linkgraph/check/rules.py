"""The proof checker's replay rules for chain and net edges.

Part of `linkgraph.check.checker`: `check_step` there checks a step's shape (its
conclusions live, the proof's nodes, roles and premises, the conclusions drawn
from each branch); this module replays the edges. Every edge of a chain or net
proof is read here by its kind: a *weak* or *strong* link inside a set X, an
*ALS* edge locking an almost-locked set, a *pattern* edge (a subset or fish
``BASES|COVERS`` inside a net) and a *net* edge (a nested net proving a
contradiction). Edges into one node that share a kind and a ``via`` are read
together as one rule (a net's join), and `derive` closes a set of premises
under these rules. Like the rest of the checker it reads only the grid, the
geometry and the proof graph.

Examples
--------
A weak link must go from ON to OFF:

>>> from linkgraph.check.checker import check_step
>>> grid = lg.Grid.parse(lg.samples.EULER_01)
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

from linkgraph.errors import NotationError
from linkgraph.model import Als, Candidate, Family, Group, LinkKind, Literal, Role, sort_key

__all__: list[str] = []


class _EdgeRules:
    """The edge rules of `linkgraph.check.checker._Checker` (its base class); methods raise ProofError.

    They use the checker's state (``grid``, ``g``, ``live``, ``step``, ``P`` and the
    caches ``_sets``, ``_als``, ``_subnets``) and its methods ``fail``, ``members``,
    ``set_index``, ``set_live``, ``set_all``, ``name``, ``check_nodes``,
    ``unjustified`` and ``contradiction``.
    """

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


def _text(lits: Iterable[Literal]) -> str:
    return "[" + " ".join(str(x) for x in sorted(lits, key=sort_key)) + "]"
