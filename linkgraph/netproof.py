"""Explaining a propagation branch: Outcome and the support DAG.

The engine (`linkgraph.propagate`) keeps only the round each literal was
derived in; this module recovers each literal's reason from those rounds and
walks back from the contradiction (or chosen literals) to the premises,
keeping only the literals needed. The edge conventions are documented in
`linkgraph.propagate`.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from linkgraph.model import Group, Literal, Role, sort_key

if TYPE_CHECKING:
    from linkgraph.propagate import Propagation, Structure

__all__ = ["BranchProof", "Outcome"]

_MAX_OPTIONS = 12


class BranchProof:
    """Reasons and support of the literals of one branch (arrays of one row)."""

    def __init__(self, st: Structure, ron, roff, failed: int, *, depth: int, level: int):
        self.st = st
        self.ron = np.asarray(ron)
        self.roff = np.asarray(roff)
        self.failed = int(failed)
        self.depth = depth
        self.level = level
        self._memo: dict = {}  # (k, on) -> reason; "best" -> best contradiction
        self._nets: set[tuple[int, bool]] = set()  # literals only a sub-net explains
        self._pkeys: dict = {}  # (k, on) -> parent keys of its reason (what supports walk)
        self._supports: dict = {}  # tuple of keys -> their complete support (a frozenset)
        self._options = None

    @cached_property
    def _weak_parent(self) -> list[int]:
        """For each OFF literal, the first ON literal (by round, then index) that sees it and
        was derived before it (-1: none; the literal has another reason)."""
        ron, roff = self.ron, self.roff
        ks = np.flatnonzero(ron >= 0)
        order = ks[np.argsort(ron[ks], kind="stable")]  # by round, then index
        out = np.full(len(roff), -1, dtype=np.int64)
        koff = np.flatnonzero(roff > 0)
        if len(order) and len(koff):
            A = self.st.sees.take(koff, axis=0).take(order, axis=1)
            A &= ron[order][None, :] < roff[koff][:, None]
            first = A.argmax(axis=1)
            has = A[np.arange(len(koff)), first]
            out[koff[has]] = order[first[has]]
        return out.tolist()

    @cached_property
    def _strong_set(self) -> list[int]:
        """For each ON literal, the set that forced it: every other member OFF before its
        round; among such sets the fewest members, then the earliest last OFF, then the
        lowest set (-1: none)."""
        st = self.st
        L, S = st.size, len(st.sets)
        out = np.full(L, -1, dtype=np.int64)
        kon = np.flatnonzero(self.ron > 0)
        if len(kon) and S:
            mem_all, valid_all, base, real = st.strong_tables
            sets = st.cs_pad[kon]  # (n, r), padded with S
            mem = mem_all[kon]  # (n, r, w): the members of those sets
            valid = valid_all[kon]  # real members other than the literal itself
            roff = np.empty(L + 1, dtype=self.roff.dtype)
            roff[:L], roff[L] = self.roff, -1
            r = roff[mem]
            ok = (~valid | ((r >= 0) & (r < self.ron[kon][:, None, None]))).all(axis=2) & real[kon]
            big = np.int64(1 << 20)
            score = base[kon] + (np.where(valid, r, -1).max(axis=2) + 1) * big
            score = np.where(ok, score, np.iinfo(np.int64).max)
            best = score.argmin(axis=1)
            rows = np.arange(len(kon))
            found = ok[rows, best]
            out[kon[found]] = sets[rows, best][found]
        return out.tolist()

    # ---- literals ---------------------------------------------------------
    def lit(self, k: int, on: bool) -> Literal:
        return Literal(self.st.candidate(k), on=on)

    def round(self, k: int, on: bool) -> int:
        return int((self.ron if on else self.roff)[k])

    def _upto(self, arr, t):
        return (arr >= 0) & (arr < t)

    # ---- one literal's reason ---------------------------------------------
    def reason(self, k: int, on: bool) -> list:
        """Edges into literal (k, on): list of (parent key, attrs); parent key is (k, on) or a group tuple."""
        key = (k, on)
        if key in self._memo:
            return self._memo[key]
        out = self._local_reason(k, on)
        if out is None:
            self._net_reasons([key])
            out = self._memo[key]
        self._memo[key] = out
        return out

    def _parent_keys(self, k: int, on: bool):
        """The parent keys of `_local_reason(k, on)` (None likewise), without the edge texts:
        what the support walks need (the texts are written only when a proof is explained)."""
        key = (k, on)
        pk = self._pkeys.get(key)
        if pk is not None:
            return pk
        t = self.round(k, on)
        if t <= 0:
            pk = []
        elif on:
            j = self._strong_set[k]
            assert j >= 0, "ON literal without a reason"
            pk = [(m, False) for m in self.st.members_list[j] if m != k]
        else:
            j = self._weak_parent[k]
            if j >= 0:
                pk = [(j, True)]
            else:
                out = self._local_reason(k, on)
                if out is None:
                    return None
                pk = [p for p, _ in out]
        self._pkeys[key] = pk
        return pk

    def _local_reason(self, k: int, on: bool):
        """The reason of (k, on) from sets, groups and patterns; None if only a sub-net explains it."""
        key = (k, on)
        if key in self._memo:
            return self._memo[key]
        if key in self._nets:
            return None
        st = self.st
        t = self.round(k, on)
        out: list = []
        if t <= 0:
            self._memo[key] = out
            return out
        if on:
            j = self._strong_set[k]
            assert j >= 0, "ON literal without a reason"
            attrs = {"kind": "strong", "family": st.set_family(j), "via": st.set_text(j)}
            out = [((m, False), attrs) for m in st.members_list[j] if m != k]
        else:
            j = self._weak_parent[k]
            if j >= 0:
                shared = [s for s in st.cand_sets_list[k] if st.Mb[j, s]]
                s = min(shared, key=lambda s: (st.set_family(s) != "cell", s))
                out = [((j, True), {"kind": "weak", "family": st.set_family(s), "via": st.set_text(s)})]
            else:
                out = self._group_reason(k, t)
                if out is None:
                    out = self._pattern_reason(k, t)
                if out is None:
                    assert self.level >= 1, f"OFF literal {st.candidate(k)} without a reason"
                    self._nets.add(key)
                    return None
        self._memo[key] = out
        return out

    def _group_reason(self, k: int, t: int):
        gr = self.st._groups
        if gr is None:
            return None
        best = None
        for p, (a, b) in enumerate(gr["pairs"]):
            if gr["outB"][p, k] < 0.5:
                continue
            r = [int(self.roff[m]) for m in gr["outA"][p]]
            if all(0 <= x < t for x in r):
                score = (len(r), max(r, default=-1), p)
                if best is None or score < best[0]:
                    best = (score, p)
        if best is None:
            return None
        p = best[1]
        a, b = gr["pairs"][p]
        st = self.st
        cands = [st.candidate(m) for m in gr["inter"][p]]
        group = Group(tuple(c.cell for c in cands), cands[0].digit)
        gkey = ("group", group, a, tuple(int(m) for m in gr["outA"][p]))
        return [(gkey, {"kind": "weak", "family": "group", "via": st.set_text(b)})]

    def _pattern_reason(self, k: int, t: int):
        pt = self.st._patterns
        if pt is None:
            return None
        st = self.st
        for p in st.patterns_targeting(k):
            family, combo, covers = pt["pats"][p]
            touched = sorted({mp[int(m)] for base, mp in combo for m in st.members[base]
                              if not (0 <= self.roff[m] < t)})
            if len(touched) > len(combo) or not any(k in st.members[c] for c in touched):
                continue
            ins = [int(m) for base, mp in combo for m in st.members[base] if mp[int(m)] not in touched]
            via = " ".join(st.set_text(b) for b, _ in combo) + "|" + " ".join(st.set_text(c) for c in touched)
            attrs = {"kind": "pattern", "family": family, "via": via}
            return [((m, False), dict(attrs)) for m in ins] or [(("empty", via, family), attrs)]
        return None

    def _net_reasons(self, keys) -> None:
        """Memoize the reasons of OFF literals `keys` that only a sub-net explains: each
        candidate, assumed ON with the branch's literals of the rounds before its own, fails
        in a sub-net of one level less (all of them run in one batch)."""
        from linkgraph.bitnet import advance

        st = self.st
        assert self.level >= 1, f"OFF literal {st.candidate(keys[0][0])} without a reason"
        ts = np.array([self.round(k, on) for k, on in keys], dtype=np.int64)[:, None]
        on = (self.ron >= 0) & (self.ron < ts)
        off = (self.roff >= 0) & (self.roff < ts)
        on[np.arange(len(keys)), [k for k, _ in keys]] = True
        run = advance(st, on, off, depth=self.depth, level=self.level - 1, track=True)
        for i, (k, _) in enumerate(keys):
            assert run.failed[i] >= 0, f"sub-net of {st.candidate(k)} does not fail"
            sron, sroff = run.rounds(i)
            sub = BranchProof(st, sron, sroff, run.failed[i], depth=self.depth, level=self.level - 1)
            self._memo[(k, False)] = self._net_reason(k, sub)

    def _net_reason(self, k: int, sub: BranchProof) -> list:
        st = self.st
        found = sub.best_contradiction()
        assert found is not None, f"sub-net of {st.candidate(k)} has no contradiction"
        kind, j, _, sup = found
        # the sub-net's premises: the literals of its support it starts from (round 0), the
        # contradiction's own included (see _SubNet); its proof graph is built only if the
        # step that uses this reason is reported
        me = (k, True)
        outer = sorted((sub.lit(*key) for key in sup if key[0] not in ("group", "empty")
                        and key != me and sub.round(*key) == 0), key=sort_key)
        lines = " ".join(str(n) for n in outer)
        where = st.set_text(j) if j >= 0 else ""
        via = f"{sub.lit(k, True)} fails ({kind} {where}) given {lines}".strip()
        attrs = {"kind": "net", "family": "net", "via": via, "proof": _SubNet(sub)}
        return [((st.index(n.cand), n.on), dict(attrs)) for n in outer] or [(("empty", via, "net"), attrs)]

    def nodes(self, keys) -> set:
        """The proof-graph nodes of the literal and group keys `keys` (as `explain` names them)."""
        return {self._node(key) for key in keys if key[0] != "empty"}

    @staticmethod
    def node_count(keys) -> int:
        """``len(nodes(keys))`` without naming the nodes: distinct literal keys are distinct
        literals, and group keys name the same node when their groups are equal.

        >>> lg.netproof.BranchProof.node_count([(3, True), (3, False), ("empty", "r1c1", "net")])
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
        on = (self.ron >= 0) & (self.ron <= c)
        off = (self.roff >= 0) & (self.roff <= c)
        opts = []
        for k in np.flatnonzero(on & off):
            opts.append((max(self.ron[k], self.roff[k]), "both", -1, [(int(k), True), (int(k), False)]))
        tb = st.tables
        if len(tb.mem_idx):
            empty = np.logical_and.reduceat(off[tb.mem_idx], tb.mem_start)
            ncount = np.add.reduceat(on[tb.mem_idx].astype(np.int32), tb.mem_start)
            for j in np.flatnonzero(empty):
                mem = st.members[j]
                opts.append((int(self.roff[mem].max()), "empty", int(j), [(int(m), False) for m in mem]))
            for j in np.flatnonzero(ncount >= 2):
                ons = sorted((int(m) for m in st.members[j] if on[m]), key=lambda m: (int(self.ron[m]), m))[:2]
                opts.append((max(int(self.ron[m]) for m in ons), "two-on", int(j), [(m, True) for m in ons]))
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
        sub-nets of the deferred run in one batch once the stack is empty and the walk
        goes on from their reasons; without `nets` they stay leaves."""
        seen: set = set()
        groups: set = set()  # the group nodes (literal keys are one node each)
        n_lits = 0
        stack = list(keys)
        pkeys = self._pkeys
        deferred: list = []  # literals only a sub-net explains: their sub-nets run in a batch
        while stack or deferred:
            if not stack:
                if not nets:
                    break
                self._net_reasons(deferred)
                for key in deferred:
                    stack.extend(p for p, _ in self._memo[key])
                deferred = []
                continue
            key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            if limit is not None and len(seen) > limit:
                return None
            k0 = key[0]
            if k0 == "group" or k0 == "empty":
                if node_limit is not None and k0 == "group":
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
                out = self._parent_keys(*key)
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

    def _parents(self, key):
        if key[0] == "group":
            _, group, a, outA = key
            attrs = {"kind": "strong", "family": "group", "via": self.st.set_text(a)}
            return [((m, False), attrs) for m in outA]
        if key[0] == "empty":
            return []
        return self.reason(*key)

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


class _SubNet:
    """The sub-net behind a nested reason, its proof graph built on first use.

    A literal the sub-net starts from (round 0: +x or an outer literal) may also
    be part of its contradiction; the nested net must still take it as a
    premise, so that an outer literal gets its in-edge into -x and +x is assumed.
    """

    __slots__ = ("sub", "_graph")

    def __init__(self, sub: BranchProof):
        self.sub = sub
        self._graph = None

    def graph(self) -> nx.DiGraph:
        if self._graph is None:
            sub = self.sub
            P = sub.explain()
            for n, d in P.nodes(data=True):
                if d["role"] == Role.CONTRADICTION and sub.round(sub.st.index(n.cand), n.on) == 0:
                    d["role"] = Role.PREMISE
            P.graph["premises"] = [str(n) for n, d in P.nodes(data=True) if d["role"] == Role.PREMISE]
            self._graph = nx.freeze(P)
        return self._graph


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
