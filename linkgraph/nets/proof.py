"""Explaining a propagation branch: Outcome and the support DAG.

The engine (`linkgraph.nets.propagate`) keeps only the round each literal was
derived in; `linkgraph.nets.reasons` recovers each literal's reason from those
rounds, and this module walks back from the contradiction (or chosen
literals) to the premises, keeping only the literals needed. The edge
conventions are documented in `linkgraph.nets.propagate`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from linkgraph.model import Literal, Role, sort_key
from linkgraph.nets.reasons import BranchReasons, _SubNet

if TYPE_CHECKING:
    from linkgraph.nets.structure import Structure
    from linkgraph.nets.propagate import Propagation

__all__ = ["BranchProof", "Outcome"]

_MAX_OPTIONS = 12


class BranchProof(BranchReasons):
    """Contradictions and support of the literals of one branch, and their proof graph
    (the reasons are `linkgraph.nets.reasons.BranchReasons`')."""

    def __init__(self, st: Structure, ron, roff, failed: int, *, depth: int, level: int):
        super().__init__(st, ron, roff, failed, depth=depth, level=level)
        self._supports: dict = {}  # tuple of keys -> their complete support (a frozenset)
        self._options = None

    def nodes(self, keys) -> set:
        """The proof-graph nodes of the literal and group keys `keys` (as `explain` names them)."""
        return {self._node(key) for key in keys if key[0] != "empty"}

    @staticmethod
    def node_count(keys) -> int:
        """``len(nodes(keys))`` without naming the nodes: distinct literal keys are distinct
        literals, and group keys name the same node when their groups are equal.

        >>> lg.nets.proof.BranchProof.node_count([(3, True), (3, False), ("empty", "r1c1", "net")])
        2
        """
        n, groups = 0, set()
        for key in keys:
            k0 = key[0]
            if k0 == "group":
                groups.add(key[1])
            elif k0 != "empty":
                n += 1
        return n + len(groups)

    def premise_keys(self, keys, targets=()) -> list:
        """The keys among `keys` that `explain` makes premises (round 0, not a target)."""
        return [key for key in keys if key[0] not in ("group", "empty") and key not in targets
                and self.round(*key) == 0]

    # ---- contradiction -------------------------------------------------------
    def contradiction_options(self) -> list[tuple[str, int, list[tuple[int, bool]]]]:
        """(kind, set or -1, literal keys) for each contradiction present at the failing round."""
        if self._options is None:
            self._options = self._contradiction_options()
        return self._options

    def _contradiction_options(self):
        c = self.failed
        if c < 0:
            return []
        st = self.st
        members, sets_of = st.members_list, st.cand_sets_list
        ron, roff = self._rounds_on, self._rounds_off
        # the branch had no contradiction before round c, so each one holds a literal of
        # round c: only those literals and their sets are read (and each option's round is c)
        kon = np.flatnonzero(self.ron == c).tolist()
        koff = np.flatnonzero(self.roff == c).tolist()
        off_keys, on_keys = st.literal_keys
        opts = [(c, "both", -1, [on_keys[k], off_keys[k]]) for k in sorted({*kon, *koff})
                if 0 <= ron[k] <= c and 0 <= roff[k] <= c]
        for j in sorted({j for k in koff for j in sets_of[k]}):
            for m in members[j]:
                if not 0 <= roff[m] <= c:
                    break
            else:
                opts.append((c, "empty", j, [off_keys[m] for m in members[j]]))
        for j in sorted({j for k in kon for j in sets_of[k]}):
            ons = [m for m in members[j] if 0 <= ron[m] <= c]
            if len(ons) >= 2:
                ons = sorted(ons, key=lambda m: (ron[m], m))[:2]
                opts.append((c, "two-on", j, [on_keys[m] for m in ons]))
        opts.sort(key=lambda o: (o[0], len(o[3]), o[1], o[2]))
        return [(kind, j, keys) for _, kind, j, keys in opts[:_MAX_OPTIONS]]

    # ---- support DAG -----------------------------------------------------------
    def support(self, keys, limit: int | None = None, node_limit: int | None = None) -> set | None:
        """Literal keys (and group keys) needed for `keys`; None once more than `limit` keys
        or more than `node_limit` proof-graph nodes (as `nodes` counts them). A complete
        support is kept: asked again (any limits), it is not walked again."""
        keys = tuple(keys)
        done = self._supports.get(keys)
        if done is not None:
            if (limit is not None and len(done) > limit) or (node_limit is not None
                                                               and self.node_count(done) > node_limit):
                return None
            return done
        seen = self._walk(keys, limit, node_limit, True)
        if seen is None:
            return None
        seen = self._supports[keys] = frozenset(seen)
        return seen

    def shallow_support(self, keys) -> set:
        """`support` with every literal that only a sub-net explains taken as a leaf: a subset
        of the full support (the same reasons elsewhere), found without running a sub-net."""
        return self._walk(keys, None, None, False)

    def _walk(self, keys, limit: int | None, node_limit: int | None, nets: bool) -> set | None:
        """The keys reached from `keys` through their reasons (None past a limit, as in
        `support`). A literal only a sub-net explains is deferred, and with `nets` the
        walk goes on from its sub-net's reason once the stack is empty, one deferred
        literal at a time; without `nets` the deferred stay leaves."""
        seen: set = set()
        groups: set = set()  # the group nodes (literal keys are one node each)
        n_lits = 0
        stack = list(keys)
        pkeys = self._pkeys
        # the common reasons read inline: an ON literal's strong set, an OFF one's weak parent
        ron, roff, members = self._rounds_on, self._rounds_off, self.st.members_list
        strong, weak, parents = self._strong_set, self._weak_parent, self.st.strong_parents
        off_keys, on_keys = self.st.literal_keys
        only_nets = self._nets  # literals known to need a sub-net
        deferred: list = []  # literals only a sub-net explains: their sub-nets run in a batch
        while stack or deferred:
            if not stack:
                if not nets:
                    break
                # one sub-net at a time, so that a walk past its limit makes no more of them
                # (made alone, as most deferred literals are never needed: cheaper than in
                # batches of the deferred)
                key = deferred.pop(0)
                self._prepare([key])
                self._resolve(key)
                stack.extend(pkeys[key])
                continue
            key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            if limit is not None and len(seen) > limit:
                return None
            k = key[0]
            if k.__class__ is str:  # a group or an empty set
                if node_limit is not None and k == "group":
                    groups.add(key[1])
                    if n_lits + len(groups) > node_limit:
                        return None
                stack.extend(p for p, _ in self._parents(key))
                continue
            if node_limit is not None:
                n_lits += 1
                if n_lits + len(groups) > node_limit:
                    return None
            out = pkeys.get(key)
            if out is None:
                if key[1]:
                    if ron[k] > 0:
                        j = strong[k]
                        assert j >= 0, "ON literal without a reason"
                        out = parents[k].get(j)
                        if out is None:
                            out = parents[k][j] = [off_keys[m] for m in members[j] if m != k]
                        pkeys[key] = out
                    else:
                        continue
                elif roff[k] <= 0:
                    continue
                elif (j := weak[k]) >= 0:
                    stack.append(on_keys[j])
                    continue
                else:
                    out = None if key in only_nets else self._parent_keys(k, False)
                    if out is None:
                        deferred.append(key)
                        continue
            stack.extend(out)
        return seen

    def contradiction_exceeds(self, limit: int) -> bool:
        """True if every contradiction option's net has more than `limit` nodes (so the best
        one does too); each walk stops once past `limit`."""
        return all(self.support(keys, node_limit=limit) is None for _, _, keys in self.contradiction_options())

    def contradiction_bound(self) -> int:
        """A lower bound on the node count of `explain()`'s contradiction net (no sub-net run)."""
        return min((self.node_count(self.shallow_support(keys)) for _, _, keys in self.contradiction_options()),
                   default=0)

    def best_contradiction(self):
        """The contradiction option with the smallest support: (kind, set, keys, support)."""
        if "best" in self._memo:
            return self._memo["best"]
        self._memo["best"] = found = self._best_contradiction()
        return found

    def _best_contradiction(self):
        best = None
        for kind, j, keys in self.contradiction_options():
            # a support larger than the best so far cannot win (ties go by kind and set)
            sup = self.support(keys, None if best is None else best[0][0])
            if sup is None:
                continue
            score = (len(sup), kind, j)
            if best is None or score < best[0]:
                best = (score, kind, j, keys, sup)
        if best is None:
            return None
        return best[1:]

    def explain(self, targets=None) -> nx.DiGraph:
        """Proof graph for `targets` (literal keys), default the best contradiction."""
        P = nx.DiGraph(kind="net", depth=self.depth, level=self.level)
        contra: list = []
        if targets is None:
            found = self.best_contradiction()
            if found is None:
                raise ValueError("branch has no contradiction to explain")
            kind, j, contra, _ = found
            P.graph["contradiction"] = kind
            P.graph["contradiction_via"] = self.st.set_text(j) if j >= 0 else ""
            targets = contra
        nodes = self.support(targets)
        # keys in a fixed order (a set of keys holding strings iterates by hash seed), so the
        # graph's edges, and the notation read off them, are the same in every process
        keyed = [key for key in nodes if key[0] != "empty"]
        names = {key: self._node(key) for key in sorted(keyed, key=self._key_order)}
        for key in sorted(names, key=lambda x: sort_key(names[x])):
            node = names[key]
            if key in contra:
                role = Role.CONTRADICTION
            elif key in targets:
                role = Role.CONCLUSION
            elif key[0] != "group" and self.round(*key) == 0:
                role = Role.PREMISE
            else:
                role = Role.INNER
            P.add_node(node, role=role)
        for key, node in names.items():
            for parent, attrs in self._parents(key):
                if parent[0] == "empty":
                    P.nodes[node].setdefault("reasons", []).append(attrs or {"via": parent[1]})
                    continue
                if isinstance(attrs.get("proof"), _SubNet):
                    attrs = {**attrs, "proof": attrs["proof"].graph()}
                P.add_edge(names[parent], node, **attrs)
        P.graph["premises"] = [str(n) for n, d in P.nodes(data=True) if d["role"] == Role.PREMISE]
        return P

    def _key_order(self, key) -> tuple:
        if key[0] == "group":
            return (1, sort_key(key[1]), key[2], key[3])
        return (0, int(key[0]), bool(key[1]))

    def _node(self, key) -> Literal:
        if key[0] == "group":
            return Literal(key[1], on=True)
        return self.lit(*key)


class Outcome:
    """What one branch of premises implies, and its contradiction if it fails.

    Attributes
    ----------
    premises : tuple of Literal
    literals : tuple of Literal
        Every literal the premises imply (premises excluded), sorted; for a failed
        branch, those found up to the contradiction.
    contradiction : tuple of Literal or None
        The literals of the contradiction with the smallest support.
    """

    def __init__(self, prop: Propagation, b: int):
        self._prop = prop
        self.branch = b
        st = prop.structure
        self.premises = prop.premises[b]
        ron, roff = prop.rounds(b)
        self._proof = BranchProof(st, ron, roff, prop.failed[b], depth=prop.depth, level=prop.level)
        lits = [Literal(st.candidate(k), on=True) for k in np.flatnonzero(ron > 0)]
        lits += [Literal(st.candidate(k), on=False) for k in np.flatnonzero(roff > 0)]
        self.literals = tuple(sorted(lits, key=sort_key))
        found = self._proof.best_contradiction()
        if found is None:
            self.contradiction = None
            self.contradiction_kind = None
            self.contradiction_via = None
        else:
            kind, j, keys, _ = found
            self.contradiction = tuple(sorted((self._proof.lit(*k) for k in keys), key=sort_key))
            self.contradiction_kind = kind
            self.contradiction_via = st.set_text(j) if j >= 0 else ""

    def implies(self, lit: Literal) -> bool:
        """True if the branch derived `lit` (or assumed it)."""
        k = self._prop.structure.index(lit.cand)
        if k < 0:
            return False
        ron, roff = self._prop.rounds(self.branch)
        return bool((ron if lit.on else roff)[k] >= 0)

    def explain(self, targets=None) -> nx.DiGraph:
        """The support DAG of the contradiction (or of `targets`, literals) as a proof graph.

        >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
        >>> out = lg.propagate(grid, [lg.Literal.parse("+r2c8#1")])
        >>> P = out.explain([lg.Literal.parse("-r2c8#2")])
        >>> [(str(u), str(v), d["kind"]) for u, v, d in P.edges(data=True)]
        [('+r2c8#1', '-r2c8#2', 'weak')]
        """
        keys = None
        if targets is not None:
            st = self._prop.structure
            keys = []
            for lit in targets:
                if not self.implies(lit):
                    raise ValueError(f"{lit} does not follow from the premises")
                keys.append((st.index(lit.cand), lit.on))
        P = self._proof.explain(keys)
        P.graph["premises"] = [str(p) for p in self.premises]
        return P

    def support_size(self, targets=None) -> int:
        """Number of literals in the explanation."""
        return self.explain(targets).number_of_nodes()
