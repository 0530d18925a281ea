"""The reasons of a propagation branch's literals, recovered from their rounds.

The engine (`linkgraph.nets.propagate`) keeps only the round each literal was
derived in. `BranchReasons` reads one branch's rounds back into reasons, the
in-edges of each literal in its proof graph (conventions in
`linkgraph.nets.propagate`): an ON literal's strong set; an OFF literal's first
weak parent, else a group that locks (depth >= 1), a subset or fish pattern
(depth 2), or else (nesting) a sub-net that fails, re-run in one batch from
the branch's literals of the earlier rounds. `BranchReasons._parent_keys`
gives the parent keys alone, without the edge texts: what the support walks
need. `linkgraph.nets.proof.BranchProof` adds the contradictions, the support
DAG and the proof graph; the sub-net of a nested reason is a proof of that
same class, whose best contradiction the reason cites (`_SubNet` draws its
graph on first use).

Examples
--------
>>> from linkgraph.nets.reasons import BranchReasons
>>> from linkgraph.nets.propagate import Structure, propagate_singles
>>> st = Structure(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> k1, k2 = (st.index(lg.Candidate.parse(c)) for c in ("r2c8#1", "r2c8#2"))
>>> prop = propagate_singles(st, np.array([k1]), np.array([True]))
>>> br = BranchReasons(st, *prop.rounds(0), prop.failed[0], depth=0, level=0)
>>> [(str(br.lit(*key)), attrs["kind"], attrs["via"]) for key, attrs in br.reason(k2, False)]
[('+r2c8#1', 'weak', 'r2c8')]
"""

from __future__ import annotations

import weakref
from functools import cached_property
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from linkgraph.model import Group, Literal, Role

if TYPE_CHECKING:
    from linkgraph.nets.proof import BranchProof
    from linkgraph.nets.structure import Structure

__all__ = ["BranchReasons"]


def _weak_parents(st: Structure, ron: np.ndarray, roff: np.ndarray) -> np.ndarray:
    """`BranchReasons._weak_parent` of many branches (rows of int16 `ron`, `roff`) as one
    array: per OFF literal of round > 0, the least (round, index) ON literal seeing it,
    derived before it; -1 elsewhere."""
    ron, roff = np.asarray(ron, dtype=np.int16), np.asarray(roff, dtype=np.int16)
    n, L = roff.shape
    out = np.full((n, L), -1, dtype=np.int64)
    ii, kk = np.nonzero(roff > 0)
    if len(ii):
        M = st.sees_pad[kk]  # (pairs, d), ascending, padded with L
        ron_ext = np.empty((n, L + 1), dtype=np.int16)
        ron_ext[:, :L] = ron
        ron_ext[:, L] = -1
        R = ron_ext.take((ii * (L + 1))[:, None] + M)
        # ON before the literal: 0 <= R < t (an unsigned -1 is past any round)
        R = np.where(R.view(np.uint16) < roff[ii, kk].view(np.uint16)[:, None], R, np.int16(_NONE))
        a = R.argmin(axis=1)  # the least round, and the least index among those (M ascends)
        rows = np.arange(len(ii))
        has = R[rows, a] < _NONE
        out[ii[has], kk[has]] = M[rows, a][has]
    return out


def _strong_sets(st: Structure, ron: np.ndarray, roff: np.ndarray) -> np.ndarray:
    """`BranchReasons._strong_set` of many branches (rows of int16 `ron`, `roff`) as one
    array: per ON literal of round > 0, the best set whose other members were OFF before it
    (fewest members, then earliest last OFF, then lowest set); -1 elsewhere."""
    ron, roff = np.asarray(ron, dtype=np.int16), np.asarray(roff, dtype=np.int16)
    n, L = ron.shape
    out = np.full((n, L), -1, dtype=np.int64)
    ii, kk = np.nonzero(ron > 0)
    if len(ii) and len(st.sets):
        others, base, real = st.strong_tables
        # the padding row reads as OFF at round 0: it never stops a set (and adds no last
        # OFF but to sets with no other member, all alike)
        roff_ext = np.empty((n, L + 1), dtype=np.int16)
        roff_ext[:, :L] = roff
        roff_ext[:, L] = 0
        r = roff_ext.take((ii * (L + 1))[:, None, None] + others[kk])  # (pairs, r, w)
        ok = (r.view(np.uint16) < ron[ii, kk].view(np.uint16)[:, None, None]).all(axis=2) & real[kk]
        score = np.where(ok, base[kk] + (r.max(axis=2).astype(np.int64) + 1) * (1 << 20), _NO_SCORE)
        best = score.argmin(axis=1)
        rows = np.arange(len(ii))
        found = ok[rows, best]
        out[ii[found], kk[found]] = st.cs_pad[kk, best][found]
    return out


_NONE = 32767  # no round (int16)
_NO_SCORE = np.iinfo(np.int64).max


class BranchReasons:
    """The reason of each literal of one branch (arrays of one row), memoized.

    The base of `linkgraph.nets.proof.BranchProof`, which adds the contradictions
    and the support walks; a nested reason's sub-net is built as the same class
    as the proof asking (``type(self)``).
    """

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
        self._subnets: dict = {}  # (k, False) -> the sub-net behind its reason (edge texts on demand)
        # weak references to the branches (of this structure, depth and level) whose sub-nets
        # run with ours (weak: a branch in its own batch would make a reference cycle, and the
        # whole search would wait for the cyclic garbage collector)
        self.batch: list[weakref.ref] = []

    @cached_property
    def _weak_parent(self) -> list[int]:
        """For each OFF literal, the first ON literal (by round, then index) that sees it and
        was derived before it (-1: none; the literal has another reason)."""
        return _weak_parents(self.st, self.ron[None], self.roff[None])[0].tolist()

    @cached_property
    def _strong_set(self) -> list[int]:
        """For each ON literal, the set that forced it: every other member OFF before its
        round; among such sets the fewest members, then the earliest last OFF, then the
        lowest set (-1: none)."""
        return _strong_sets(self.st, self.ron[None], self.roff[None])[0].tolist()

    @classmethod
    def _prime(cls, subs: list, ron: np.ndarray, roff: np.ndarray) -> None:
        """Find the reason arrays of many branches of one structure at once (their rounds
        `ron`, `roff` as (branches, L) rows): what `_weak_parent` and `_strong_set` give."""
        st = subs[0].st
        for sub, w, s in zip(subs, _weak_parents(st, ron, roff).tolist(), _strong_sets(st, ron, roff).tolist()):
            sub.__dict__["_weak_parent"] = w
            sub.__dict__["_strong_set"] = s

    # ---- literals ---------------------------------------------------------
    def lit(self, k: int, on: bool) -> Literal:
        return Literal(self.st.candidate(k), on=on)

    def round(self, k: int, on: bool) -> int:
        return (self._rounds_on if on else self._rounds_off)[k]

    @cached_property
    def _rounds_on(self) -> list[int]:
        return self.ron.tolist()  # walks read rounds one literal at a time: from a list, not numpy

    @cached_property
    def _rounds_off(self) -> list[int]:
        return self.roff.tolist()

    # ---- one literal's reason ---------------------------------------------
    def reason(self, k: int, on: bool) -> list:
        """Edges into literal (k, on): list of (parent key, attrs); parent key is (k, on) or a group tuple."""
        key = (k, on)
        if key in self._memo:
            return self._memo[key]
        sub = self._subnets.get(key)
        if sub is None:
            out = self._local_reason(k, on)
            if out is None:
                self._net_reasons([key])
                sub = self._subnets[key]
        if sub is not None:
            out = self._net_reason(k, sub)
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
        roff, outside = self._rounds_off, self.st.group_outside
        for p in self.st.groups_targeting[k]:
            r = [roff[m] for m in outside[p]]
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
        member_sets = st.member_sets
        for p in st.patterns_targeting(k):
            family, combo, covers = pt["pats"][p]
            ms, cs = st.pattern_places(p)
            touched = self._touched(ms, cs, len(combo), t)
            if touched is None or not any(k in member_sets[c] for c in touched):
                continue
            ins = [m for m, c in zip(ms, cs) if c not in touched]
            via = " ".join(st.set_text(b) for b, _ in combo) + "|" + " ".join(st.set_text(c) for c in touched)
            attrs = {"kind": "pattern", "family": family, "via": via}
            return [((m, False), dict(attrs)) for m in ins] or [(("empty", via, family), attrs)]
        return None

    def _touched(self, ms: list[int], cs: list[int], n: int, t: int) -> list[int] | None:
        """The covers `cs` of the places `ms` not OFF before round `t` touch, sorted; None once
        they are more than `n` (the pattern's bases), which is no pattern."""
        roff = self._rounds_off
        seen: set[int] = set()
        for m, c in zip(ms, cs):
            if c not in seen and not 0 <= roff[m] < t:
                seen.add(c)
                if len(seen) > n:
                    return None
        return sorted(seen)

    @cached_property
    def _sub_runs(self):
        """The sub-nets of every OFF literal without a weak parent (those a sub-net may
        have to explain), run in one batch the first time any is needed: (Run, row of
        each candidate). Each candidate is assumed ON with the branch's literals of the
        rounds before its own; a branch's run does not depend on the others in its batch,
        which also holds the sub-nets of the branches `batch` joined to this one."""
        from linkgraph.nets.engine import advance

        group = [self] + [m for m in (ref() for ref in self.batch)
                          if m is not None and m is not self and "_sub_runs" not in m.__dict__]
        ons, offs, rows = [], [], []
        o = 0
        for m in group:
            ks = np.flatnonzero((m.roff > 0) & (np.asarray(m._weak_parent) < 0))
            ts = m.roff[ks].astype(np.int64)[:, None]
            on = (m.ron >= 0) & (m.ron < ts)
            on[np.arange(len(ks)), ks] = True
            ons.append(on)
            offs.append((m.roff >= 0) & (m.roff < ts))
            rows.append(dict(zip(ks.tolist(), range(o, o + len(ks)))))
            o += len(ks)
        run = advance(self.st, np.concatenate(ons), np.concatenate(offs), depth=self.depth, level=self.level - 1,
                      track=True)
        for m, row in zip(group[1:], rows[1:]):
            m.__dict__["_sub_runs"] = (run, row)
        return run, rows[0]

    def _net_reasons(self, keys) -> None:
        """Find the sub-nets of OFF literals `keys` that only a sub-net explains, and their
        reasons' parent keys (see `_prepare` and `_resolve`)."""
        self._prepare([key for key in keys if key not in self._subnets])
        for key in keys:
            self._resolve(key)

    def _prepare(self, keys) -> None:
        """Make the sub-nets of OFF literals `keys`, in one batch: each candidate, assumed ON
        with the branch's literals of the rounds before its own, fails in a sub-net of one
        level less (see `_sub_runs`); their reason arrays are found in one pass."""
        st = self.st
        keys = [key for key in keys if key not in self._subnets]
        if not keys:
            return
        assert self.level >= 1, f"OFF literal {st.candidate(keys[0][0])} without a reason"
        run, row = self._sub_runs
        rows = [row[k] for k, _ in keys]
        rounds = run.rows_many(rows).astype(np.int16)  # (keys, ON/OFF, L), one pass
        subs = []
        for i, (k, _) in enumerate(keys):
            failed = run.failed[rows[i]]
            assert failed >= 0, f"sub-net of {st.candidate(k)} does not fail"
            subs.append(type(self)(st, rounds[i, 0], rounds[i, 1], failed, depth=self.depth, level=self.level - 1))
        type(self)._prime(subs, rounds[:, 0], rounds[:, 1])  # their reason arrays, all at once
        batch = [weakref.ref(sub) for sub in subs] if self.level >= 2 else []
        for sub in subs if self.level >= 2 else ():
            sub.batch = batch  # and their own sub-nets, if they need any, in one run
        self._subnets.update(zip(keys, subs))

    def _resolve(self, key) -> None:
        """The parent keys of OFF literal `key` from its (prepared) sub-net's best contradiction
        (the edge texts are written by `reason`, on demand)."""
        if key not in self._pkeys:
            sub = self._subnets[key]
            outer = self._outer(key[0], sub)
            self._pkeys[key] = outer or [p for p, _ in self._net_reason(key[0], sub)]

    @staticmethod
    def _outer(k: int, sub: BranchProof) -> list:
        """The premises of sub-net `sub` of ``-k`` other than ``+k``: the literals of its best
        contradiction's support it starts from (round 0), the contradiction's own included
        (see _SubNet), in literal order (`sort_key`: local indices follow the candidates'
        order, ON first)."""
        found = sub.best_contradiction()
        assert found is not None, f"sub-net of {sub.st.candidate(k)} has no contradiction"
        ron, roff = sub._rounds_on, sub._rounds_off
        me = (k, True)
        return sorted((key for key in found[3] if key[0].__class__ is not str and key != me
                       and (ron if key[1] else roff)[key[0]] == 0), key=lambda key: (key[0], not key[1]))

    def _net_reason(self, k: int, sub: BranchProof) -> list:
        """The reason of ``-k`` that sub-net `sub` gives, with its edge texts (the sub-net's
        proof graph is built only if the step that uses this reason is reported)."""
        st = self.st
        kind, j, _, _ = sub.best_contradiction()
        outer = self._outer(k, sub)
        lines = " ".join(str(sub.lit(*key)) for key in outer)
        where = st.set_text(j) if j >= 0 else ""
        via = f"{sub.lit(k, True)} fails ({kind} {where}) given {lines}".strip()
        attrs = {"kind": "net", "family": "net", "via": via, "proof": _SubNet(sub)}
        return [(key, dict(attrs)) for key in outer] or [(("empty", via, "net"), attrs)]

    def _parents(self, key):
        if key[0] == "group":
            _, group, a, outA = key
            attrs = {"kind": "strong", "family": "group", "via": self.st.set_text(a)}
            return [((m, False), attrs) for m in outA]
        if key[0] == "empty":
            return []
        return self.reason(*key)


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
