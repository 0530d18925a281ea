"""A propagation branch explained: each literal's reason, the support DAG, the proof graph.

The engine (`linkgraph.nets.engine`, through `linkgraph.nets.propagate`) keeps
only the round each literal was derived in. `BranchProof` reads one branch's
rounds back into reasons, the in-edges of each literal in its proof graph
(conventions in `linkgraph.nets.propagate`): an ON literal's strong set; an
OFF literal's first weak parent, else a group that locks (depth >= 1), a
subset or fish pattern (depth 2), or else (nesting) a sub-net that fails,
re-run in one batch from the branch's literals of the earlier rounds, and
itself explained by a `BranchProof` whose best contradiction the reason cites
(`_SubNet` draws its graph on first use). From the reasons it finds the
branch's contradictions, walks back from the best one (or from chosen
literals) to the premises keeping only the literals needed (the support DAG),
and returns that as a proof graph.

Examples
--------
>>> from linkgraph.nets.proof import BranchProof
>>> from linkgraph.nets.propagate import Structure, propagate_singles
>>> st = Structure(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> k1, k2 = (st.index(lg.Candidate.parse(c)) for c in ("r2c8#1", "r2c8#2"))
>>> prop = propagate_singles(st, np.array([k1]), np.array([True]))
>>> br = BranchProof(st, *prop.rounds(0), prop.failed[0], depth=0, level=0)
>>> [(str(br.lit(*key)), attrs["kind"], attrs["via"]) for key, attrs in br.reason(k2, False)]
[('+r2c8#1', 'weak', 'r2c8')]
"""

from __future__ import annotations

import weakref
from itertools import chain
from functools import cached_property
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from linkgraph.model import Group, Literal, Role, sort_key
from linkgraph.nets.engine import advance_packed, kernels

if TYPE_CHECKING:
    from linkgraph.nets.structure import Structure

__all__ = ["BranchProof"]

_MAX_OPTIONS = 12
_OPTION_KINDS = ("both", "empty", "two-on")  # the kinds' codes in linkgraph.nets.kernel.contradiction_options


def _weak_parents(st: Structure, ron: np.ndarray, roff: np.ndarray) -> np.ndarray:
    """`BranchProof._weak_parent` of many branches (rows of int16 `ron`, `roff`) as one
    array: per OFF literal of round > 0, the least (round, index) ON literal seeing it,
    derived before it; -1 elsewhere (`linkgraph.nets.kernel.weak_parents`)."""
    ron = np.ascontiguousarray(ron, dtype=np.int16).reshape(-1, st.size)
    roff = np.ascontiguousarray(roff, dtype=np.int16).reshape(-1, st.size)
    return kernels().weak_parents(ron, roff, st.sees_pad)


def _strong_sets(st: Structure, ron: np.ndarray, roff: np.ndarray) -> np.ndarray:
    """`BranchProof._strong_set` of many branches (rows of int16 `ron`, `roff`) as one
    array: per ON literal of round > 0, the best set whose other members were OFF before it
    (fewest members, then earliest last OFF, then lowest set); -1 elsewhere
    (`linkgraph.nets.kernel.strong_sets`)."""
    ron = np.ascontiguousarray(ron, dtype=np.int16).reshape(-1, st.size)
    roff = np.ascontiguousarray(roff, dtype=np.int16).reshape(-1, st.size)
    if not len(st.sets):
        return np.full(ron.shape, -1, dtype=np.int64)
    others, base, real = st.strong_tables
    return kernels().strong_sets(ron, roff, others, base, real, st.cs_pad)


class _Names:
    """What proof graphs name alike on one geometry, made on first use and kept while it
    lives: the literals of each candidate (``on[c]``, ``off[c]``, by global index), and
    the edge texts of each set's strong inference (``strong[s]``, by global set) and of
    each weak link (``weak[(c, d)]``: +c sees -d; one dict per set, ``weak[("set", s)]``),
    as `BranchProof.reason` writes them. An edge gets a copy of its texts."""

    __slots__ = ("geometry", "on", "off", "strong", "weak", "_sets_of", "_texts", "__weakref__")

    def __init__(self, geometry):
        self.geometry = weakref.proxy(geometry)
        n = geometry.number_of_candidates
        self.on: list = [None] * n
        self.off: list = [None] * n
        self.strong: dict = {}
        self.weak: dict = {}
        self._sets_of: list | None = None  # per candidate, its sets (lists), ascending
        self._texts: dict = {}  # set -> (family, text)

    def literal(self, c: int, on: bool) -> Literal:
        """The literal of global candidate `c`, ON or OFF."""
        lits = self.on if on else self.off
        lit = lits[c]
        if lit is None:
            lit = lits[c] = Literal(self.geometry.candidate(c), on=on)
        return lit

    def texts(self, s: int) -> tuple[str, str]:
        """The family (``cell``/``house``) and text of global set `s`."""
        got = self._texts.get(s)
        if got is None:
            g = self.geometry
            got = self._texts[s] = ("cell" if g.is_cell_set(s) else "house", str(g.setx(s)))
        return got

    def strong_texts(self, s: int) -> dict:
        """The texts of a strong inference through global set `s`."""
        got = self.strong.get(s)
        if got is None:
            family, via = self.texts(s)
            got = self.strong[s] = {"kind": "strong", "family": family, "via": via}
        return got

    def weak_texts(self, c: int, d: int) -> dict:
        """The texts of the weak link +c -> -d: the set they share, a cell first, then the
        lowest (pairs naming the same set share one dict)."""
        got = self.weak.get((c, d))
        if got is None:
            sets_of = self._sets_of
            if sets_of is None:
                sets_of = self._sets_of = [x.tolist() for x in self.geometry.cand_sets]
            of_c = sets_of[c]
            shared = [s for s in sets_of[d] if s in of_c]
            cells = [s for s in shared if self.texts(s)[0] == "cell"]
            s = (cells or shared)[0]
            got = self.weak.get(("set", s))
            if got is None:
                family, via = self.texts(s)
                got = self.weak[("set", s)] = {"kind": "weak", "family": family, "via": via}
            self.weak[(c, d)] = got
        return got


_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # geometry -> its _Names
_LOCAL: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # structure -> (names, cands, sets, members)


class _MemberRows(dict):
    """Set ``j`` -> its members (local candidates, ascending), read off a structure's padded
    member table one row at a time on first use: a proof graph reads a few sets, where the
    whole `members_list` of a structure no walk needed costs as much as its graph."""

    __slots__ = ("mem", "size")

    def __init__(self, mem: np.ndarray, size: int):
        super().__init__()
        self.mem, self.size = mem, size

    def __missing__(self, j: int) -> list[int]:
        n = self.size
        got = self[j] = [m for m in self.mem[j].tolist() if m < n]
        return got


def _names(st: Structure) -> tuple[_Names, list[int], list[int], _MemberRows]:
    """The `_Names` of `st`'s geometry, `st`'s candidates and sets by global index (a
    structure keeps only live candidates and the sets holding them, in global order, so a
    set two kept candidates share is kept, and the lowest shared is the same either way),
    and its sets' members (`_MemberRows`)."""
    got = _LOCAL.get(st)
    if got is None:
        g = st.geometry
        names = _NAMES.get(g)
        if names is None:
            names = _NAMES[g] = _Names(g)
        got = _LOCAL[st] = (names, st.cands.tolist(), st.sets.tolist(), _MemberRows(st.mem_pad, st.size))
    return got


_GROUP_KEYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # structure -> {pair: key, texts}


def _group_key(st: Structure, p: int) -> tuple:
    """The key of depth-1 pair `p`'s group, ``("group", group, A, A outside B)``, and the
    texts of the weak edge from it (via B), made once per structure and pair."""
    keys = _GROUP_KEYS.get(st)
    if keys is None:
        keys = _GROUP_KEYS[st] = {}
    got = keys.get(p)
    if got is None:
        gr = st._groups
        a, b = gr["pairs"][p]
        cands = [st.candidate(m) for m in gr["inter"][p]]
        group = Group(tuple(c.cell for c in cands), cands[0].digit)
        gkey = ("group", group, a, tuple(int(m) for m in gr["outA"][p]))
        got = keys[p] = (gkey, {"kind": "weak", "family": "group", "via": st.set_text(b)})
    return got


def _on_first(key: tuple) -> tuple:
    """The order of literal keys that `sort_key` gives their literals: by index, ON first."""
    return key[0], not key[1]


class _RuleTables:
    """A structure's depth-1 and depth-2 rules as `linkgraph.nets.kernel.off_reasons` reads
    them (``arrays``), and the group keys of its locking pairs, each made on first use."""

    __slots__ = ("st", "arrays", "_gkeys")

    def __init__(self, st: Structure):
        self.st = st
        L = st.size
        none = np.zeros(0, dtype=np.int64)
        gr, pt = st._groups, st._patterns
        if gr is not None:
            pb, kb = gr["outB"]
            order = np.argsort(kb.astype(np.int16), kind="stable")  # int16: a radix sort
            gt_pair = np.ascontiguousarray(pb[order], dtype=np.int64)
            gt_ptr = np.r_[0, np.cumsum(np.bincount(kb, minlength=L))].astype(np.int64)
            go_ptr, go_val = (np.ascontiguousarray(x, dtype=np.int64) for x in gr["outA_flat"])
        else:
            gt_ptr, gt_pair, go_ptr, go_val = np.zeros(L + 1, dtype=np.int64), none, none, none
        if pt is not None:
            # each target's patterns ascending, once each (as `Structure.patterns_targeting`)
            cols, ks = pt["T"]
            order = np.argsort(ks.astype(np.int16), kind="stable")
            k = ks.take(order)
            p = pt["owner"].take(cols.take(order)).astype(np.int64)
            keep = np.flatnonzero(np.r_[True, (k[1:] != k[:-1]) | (p[1:] != p[:-1])]) if len(k) else order
            pt_pat = np.ascontiguousarray(p.take(keep))
            pt_ptr = np.r_[0, np.cumsum(np.bincount(k.take(keep), minlength=L))].astype(np.int64)
            pats = pt["pats"]
            p_bases = np.fromiter(chain.from_iterable(pats._bases), dtype=np.int64,
                                  count=3 * len(pats._bases)).reshape(-1, 3)
            bptr, bk, bcov = (np.fromiter(x, dtype=np.int64, count=len(x)) for x in (pats._bptr, pats._bk, pats._bcov))
        else:
            pt_ptr, pt_pat = np.zeros(L + 1, dtype=np.int64), none
            p_bases, bptr, bk, bcov = np.zeros((0, 3), dtype=np.int64), none, none, none
        self.arrays = (gt_ptr, gt_pair, go_ptr, go_val, pt_ptr, pt_pat, p_bases, bptr, bk, bcov)
        self._gkeys: dict[int, tuple] = {}

    def group_key(self, p: int) -> tuple:
        """The key of locking pair `p`'s group, as `BranchProof._group_reason` names it."""
        got = self._gkeys.get(p)
        if got is None:
            st = self.st
            gr = st._groups
            a, _ = gr["pairs"][p]
            cands = [st.candidate(m) for m in gr["inter"][p]]
            group = Group(tuple(c.cell for c in cands), cands[0].digit)
            got = self._gkeys[p] = ("group", group, a, tuple(int(m) for m in gr["outA"][p]))
        return got


_RULES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _tables(st: Structure) -> _RuleTables:
    """The `_RuleTables` of `st`, made once per structure."""
    got = _RULES.get(st)
    if got is None:
        got = _RULES[st] = _RuleTables(st)
    return got


def _touched(roff: list[int], ms: list[int], cs: list[int], n: int, t: int) -> list[int] | None:
    """The covers `cs` of a pattern's places `ms` not OFF before round `t` (OFF rounds `roff`)
    touch, sorted; None once they are more than `n` (the pattern's bases): no pattern then."""
    touched: list[int] = []  # at most n + 1 covers: a list is the quicker set
    for m, c in zip(ms, cs):
        if not 0 <= roff[m] < t and c not in touched:
            touched.append(c)
            if len(touched) > n:
                return None
    touched.sort()
    return touched


class BranchProof:
    """One branch of a propagation explained: the reason of each literal (arrays of one
    row, memoized), the contradictions, the support of chosen literals, the proof graph.

    A nested reason's sub-net is itself a `BranchProof`, of one level less.
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
        self._supports: dict = {}  # tuple of keys -> their complete support (a frozenset)
        self._options = None
        self._net_memo = None  # the sub-nets' premises as `_nested_exceeds` keeps them (arrays)

    @cached_property
    def _weak_row(self) -> np.ndarray:
        """For each OFF literal, the first ON literal (by round, then index) that sees it and
        was derived before it (-1: none; the literal has another reason)."""
        return _weak_parents(self.st, self.ron[None], self.roff[None])[0]

    @cached_property
    def _strong_row(self) -> np.ndarray:
        """For each ON literal, the set that forced it: every other member OFF before its
        round; among such sets the fewest members, then the earliest last OFF, then the
        lowest set (-1: none)."""
        return _strong_sets(self.st, self.ron[None], self.roff[None])[0]

    @cached_property
    def _weak_parent(self) -> list[int]:
        """`_weak_row` as a list (the walks read it one literal at a time)."""
        return self._weak_row.tolist()

    @cached_property
    def _strong_set(self) -> list[int]:
        """`_strong_row` as a list."""
        return self._strong_row.tolist()

    @classmethod
    def _prime(cls, subs: list, ron: np.ndarray, roff: np.ndarray) -> None:
        """Find the reason arrays of many branches of one structure at once (their rounds
        `ron`, `roff` as (branches, L) rows): what `_weak_row` and `_strong_row` give."""
        st = subs[0].st
        for sub, w, s in zip(subs, _weak_parents(st, ron, roff), _strong_sets(st, ron, roff)):
            sub.__dict__["_weak_row"] = w
            sub.__dict__["_strong_row"] = s

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
            elif key in self._nets:
                return None
            elif key in self._memo:  # its reason is written already (explained, or a sub-net's)
                pk = [p for p, _ in self._memo[key]]
            else:
                pk = self._rule_keys(k, t)
                if pk is None:
                    assert self.level >= 1, f"OFF literal {self.st.candidate(k)} without a reason"
                    self._nets.add(key)
                    return None
        self._pkeys[key] = pk
        return pk

    def _rule_keys(self, k: int, t: int):
        """The parent keys of OFF literal k of round `t` > 0 without a weak parent, by the rule
        `_local_reason` would cite (a locking pair, else a subset or fish pattern; None for
        neither), chosen for every such literal of the branch in one compiled call
        (`_off_rules`); `_local_reason` itself only for a pattern that leaves no place."""
        if self.st._groups is None and self.st._patterns is None:
            return None
        kind, index = self._off_rules
        rule = kind[k]
        if rule == 1:
            return [_tables(self.st).group_key(index[k])]
        if rule != 2:
            return None
        p = index[k]
        st = self.st
        ms, cs = st.pattern_places(p)
        touched = _touched(self._rounds_off, ms, cs, st._patterns["pats"].size(p), t)
        off_keys = st.literal_keys[0]
        ins = [off_keys[m] for m, c in zip(ms, cs) if c not in touched]
        if ins:
            return ins
        return [q for q, _ in self._local_reason(k, False)]  # an empty set: its key names the pattern

    @cached_property
    def _off_rules(self) -> tuple[list[int], list[int]]:
        """`linkgraph.nets.kernel.off_reasons` of this branch, as lists (kind, index)."""
        tb = _tables(self.st)
        kind, index = kernels().off_reasons(self._roff16, self._weak_row, self.st.cs_pad, *tb.arrays)
        return kind.tolist(), index.tolist()

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
        """The locking group that rules OFF literal (k, OFF) out at round `t` (depth >= 1):
        of the pairs (A, B) whose B outside A holds it, one whose A outside B was all OFF
        before `t`, the fewest such members, then the earliest last OFF, then the lowest
        pair; None if there is none. The group's key and edge texts are made once per
        structure and pair (`_group_key`)."""
        st = self.st
        if st._groups is None:
            return None
        best = None
        roff, outside = self._rounds_off, st.group_outside
        for p in st.groups_targeting[k]:
            last = -1
            for m in outside[p]:
                x = roff[m]
                if not 0 <= x < t:
                    break
                if x > last:
                    last = x
            else:
                score = (len(outside[p]), last, p)
                if best is None or score < best:
                    best = score
        if best is None:
            return None
        gkey, attrs = _group_key(st, best[2])
        return [(gkey, dict(attrs))]

    def _pattern_reason(self, k: int, t: int):
        """The subset or fish pattern that rules OFF literal (k, OFF) out at round `t` (depth
        2): the first pattern targeting `k` whose places not OFF before `t` touch at most as
        many covers as it has bases, one of them holding `k`; its edges come from those
        places, or, none left, from an empty set. None if there is none."""
        st = self.st
        pt = st._patterns
        if pt is None:
            return None
        roff = self._rounds_off
        pats = pt["pats"]
        places, size, member_sets = st.pattern_places, pats.size, st.member_sets
        for p in st.patterns_targeting(k):
            ms, cs = places(p)
            touched = _touched(roff, ms, cs, size(p), t)
            if touched is not None:
                if not any(k in member_sets[c] for c in touched):
                    continue
                family, combo, covers = pats[p]  # the pattern's tuple, made for the one that applies
                ins = [m for m, c in zip(ms, cs) if c not in touched]
                via = " ".join(st.set_text(b) for b, _ in combo) + "|" + " ".join(st.set_text(c) for c in touched)
                attrs = {"kind": "pattern", "family": family, "via": via}
                return [((m, False), dict(attrs)) for m in ins] or [(("empty", via, family), attrs)]
        return None

    @cached_property
    def _sub_runs(self):
        """The sub-nets of every OFF literal without a weak parent (those a sub-net may
        have to explain), run in one batch the first time any is needed: (Run, row of
        each candidate). Each candidate is assumed ON with the branch's literals of the
        rounds before its own; a branch's run does not depend on the others in its batch,
        which also holds the sub-nets of the branches `batch` joined to this one."""
        group = [self] + [m for m in (ref() for ref in self.batch)
                          if m is not None and m is not self and "_sub_runs" not in m.__dict__]
        rons = np.array([m.ron for m in group], dtype=np.int16)
        roffs = np.array([m.roff for m in group], dtype=np.int16)
        weaks = np.array([m._weak_row for m in group], dtype=np.int64)
        on_words, off_words, ks, gs = kernels().subnet_starts(rons, roffs, weaks)
        run = advance_packed(self.st, on_words, off_words, len(ks), depth=self.depth, level=self.level - 1,
                             track=True)
        ends = np.searchsorted(gs, np.arange(len(group) + 1)).tolist()
        ks = ks.tolist()
        rows = [dict(zip(ks[a:b], range(a, b))) for a, b in zip(ends[:-1], ends[1:])]
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
        if len(keys) == 1 and self.level == 1 and self.depth == 0 and len(st.sets):
            key = keys[0]
            self._subnets[key], outer = self._run_subnet(st, run, rows[0], key)
            if outer:  # its parent keys, as _resolve would find them (none: _resolve reads the option)
                off_keys, on_keys = st.literal_keys
                self._pkeys.setdefault(key, [off_keys[e >> 1] if e & 1 else on_keys[e >> 1] for e in outer])
            return
        # (keys, ON/OFF, L), one pass; most walks ask for one sub-net at a time
        rounds = run.rows_one(rows[0])[None] if len(rows) == 1 else run.rows_many(rows).astype(np.int16)
        subs = []
        for i, (k, _) in enumerate(keys):
            failed = run.failed[rows[i]]
            assert failed >= 0, f"sub-net of {st.candidate(k)} does not fail"
            subs.append(BranchProof(st, rounds[i, 0], rounds[i, 1], failed, depth=self.depth, level=self.level - 1))
        BranchProof._prime(subs, rounds[:, 0], rounds[:, 1])  # their reason arrays, all at once
        batch = [weakref.ref(sub) for sub in subs] if self.level >= 2 else []
        for sub in subs if self.level >= 2 else ():
            sub.batch = batch  # and their own sub-nets, if they need any, in one run
        self._subnets.update(zip(keys, subs))

    @staticmethod
    def _run_subnet(st: Structure, run, b: int, key) -> tuple[BranchProof, list]:
        """The sub-net of depth 0 without nesting that is branch `b` of `run`, and the premises
        `_outer` finds for it (as sort codes: ``2m`` for +m, ``2m + 1`` for -m; empty when
        `_outer` has to read the option): its rounds read from the run and its tails, its
        reason rows, contradiction options, best contradiction and those premises found in
        one compiled call (`linkgraph.nets.kernel.run_subnet_outer`), as `_prime`,
        `_compiled_best` and `_outer` find them. The best contradiction is read into keys
        only if asked for (`_compiled_best`): most sub-nets are only walked through. (The
        tests' oracle reads the rounds with `linkgraph.nets.engine.Run.rows_one` first and
        calls `linkgraph.nets.kernel.subnet_outer`.)"""
        failed = int(run.failed[b])
        assert failed >= 0, f"sub-net of {st.candidate(key[0])} does not fail"
        others, base, real = st.strong_tables
        rounds, weak, strong, *compiled, i, sup, outer = kernels().run_subnet_outer(
            *run.chain, int(b), failed, key[0], st.sees_pad, others, base, real, st.cs_pad, st.mem_pad, _MAX_OPTIONS)
        ron, roff = rounds[0], rounds[1]
        sub = BranchProof(st, ron, roff, failed, depth=0, level=0)
        d = sub.__dict__
        d["_weak_row"], d["_strong_row"], d["_ron16"], d["_roff16"] = weak, strong, ron, roff
        d["_compiled_options"] = tuple(compiled)
        d["_found"] = (int(i), sup)
        return sub, outer.tolist()

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
        """The options as `linkgraph.nets.kernel.contradiction_options` lists them (the same
        for every depth and level: only the failing round's literals and their sets are
        read), with their keys as the walks name them."""
        if self.failed < 0:
            return []
        kinds, sets, ptr, keys = self._option_arrays
        off_keys, on_keys = self.st.literal_keys
        codes = keys.tolist()
        bounds = ptr.tolist()
        return [(_OPTION_KINDS[kind], j, [on_keys[e >> 1] if e & 1 else off_keys[e >> 1] for e in codes[a:b]])
                for kind, j, a, b in zip(kinds.tolist(), sets.tolist(), bounds[:-1], bounds[1:])]

    @cached_property
    def _option_arrays(self) -> tuple:
        """The contradiction options of a failed branch as the kernel lists them (kinds, sets,
        pointers, key codes): `_compiled_options` where that applies, else the same call."""
        compiled = self._compiled_options
        if compiled is None:
            st = self.st
            compiled = kernels().contradiction_options(self._ron16, self._roff16, self.failed, st.mem_pad, st.cs_pad,
                                                       _MAX_OPTIONS)
        return compiled

    @cached_property
    def _shallow_array(self) -> np.ndarray | None:
        """`_shallow_counts` as the kernel's array (None likewise)."""
        if self.depth != 0 or self.failed < 0:
            return None
        _, _, ptr, keys = self._option_arrays
        counts = kernels().shallow_counts(ptr, keys, self._ron16, self._roff16, self._strong_row, self._weak_row,
                                          self.st.mem_pad)
        if len(counts) and counts[0] == -2:
            return None
        return counts

    @cached_property
    def _shallow_counts(self) -> list[int] | None:
        """At depth 0 (any level), per contradiction option the node count of its support
        with every literal only a sub-net explains taken as a leaf (an OFF literal without a
        weak parent: at depth 0 there is no group or pattern), found by the kernel
        (`linkgraph.nets.kernel.shallow_counts`); None elsewhere. A lower bound on the
        option's whole support, which holds those literals and more."""
        counts = self._shallow_array
        return None if counts is None else counts.tolist()

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
                kept = self._memo_keys(key[0])
                if kept is not None:
                    pkeys[key] = kept
                else:
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
        compiled = self._compiled_options
        if compiled is not None:
            kinds, sets, ptr, keys = compiled
            out = kernels().supports_exceed(ptr, keys, self._ron16, self._roff16, self._strong_row,
                                            self._weak_row, self.st.mem_pad, limit)
            if out >= 0:
                return bool(out)
        # an option whose support short of its sub-nets is past the limit is past it whole
        counts = self._shallow_counts
        if counts is not None:
            if self.level == 1 and len(self.st.sets):
                out = self._nested_exceeds(limit)
                if out >= 0:
                    return bool(out)
            return all(n > limit or self.support(keys, node_limit=limit) is None
                       for n, (_, _, keys) in zip(counts, self.contradiction_options(), strict=True))
        return all(self.support(keys, node_limit=limit) is None for _, _, keys in self.contradiction_options())

    def _nested_exceeds(self, limit: int) -> int:
        """`contradiction_exceeds` at depth 0 and nesting level 1 in one compiled call
        (`linkgraph.nets.kernel.nested_exceeds`: 1 or 0; -2 when the kernel cannot tell):
        the walks read the sub-nets of the literals they need from the branch's batch
        (`_sub_runs`) and keep their premises in `_net_memo`, which later walks, compiled or
        not, read instead of making the sub-net again."""
        _, _, ptr, keys = self._option_arrays
        return self._nested_call(kernels().nested_exceeds, (ptr, keys, self._shallow_array), (limit,))

    def _nested_best(self):
        """`_best_contradiction` at depth 0 and nesting level 1 in one compiled call
        (`linkgraph.nets.kernel.nested_best`, the sub-nets kept as `_nested_exceeds` keeps
        them): the same option and support, the support kept as `support` keeps it; False
        when the kernel cannot tell. A literal whose sub-net has no premise but ``+k`` has
        an empty set for its reason, whose key `_resolve` writes."""
        kinds, sets, ptr, keys = self._option_arrays
        i, sup, empties = self._nested_call(kernels().nested_best, (kinds, sets, ptr, keys, self._shallow_array), ())
        if i == -2:
            return False
        if i < 0:
            return None
        kind, j, opt = self.contradiction_options()[i]
        off_keys, on_keys = self.st.literal_keys
        support = [on_keys[e >> 1] if e & 1 else off_keys[e >> 1] for e in sup.tolist()]
        for k in empties.tolist():
            key = (k, False)
            self._prepare([key])
            self._resolve(key)
            support += self._pkeys[key]
        self._supports.setdefault(tuple(opt), frozenset(support))
        return kind, j, opt, self._supports[tuple(opt)]

    def _nested_call(self, kernel, head: tuple, tail: tuple):
        """Call `kernel` (`nested_exceeds` or `nested_best`) with the arguments `head`, the
        branch's rows, `tail`, the batch run and the kept sub-nets (`_net_memo`, made on the
        first call), again with a larger store of premises while it answers -3."""
        st = self.st
        run, row = self._sub_runs
        memo = self._net_memo
        if memo is None:
            L = st.size
            rows = np.full(L, -1, dtype=np.int64)
            rows[list(row)] = list(row.values())
            memo = self._net_memo = [rows, np.zeros(L, dtype=np.int8), np.zeros(L, dtype=np.int64),
                                     np.zeros(L, dtype=np.int64), np.empty(4 * L, dtype=np.int64),
                                     np.zeros(1, dtype=np.int64)]
        others, base, real = st.strong_tables
        rows, state, nptr, nlen, _, fill = memo
        while True:
            out = kernel(*head, self._ron16, self._roff16, self._strong_row, self._weak_row, st.mem_pad, *tail, rows,
                         run.failed, *run.chain, st.sees_pad, others, base, real, st.cs_pad, _MAX_OPTIONS, state, nptr,
                         nlen, memo[4], fill)
            if (out[0] if isinstance(out, tuple) else out) != -3:
                return out
            memo[4] = np.concatenate([memo[4], np.empty(len(memo[4]) + st.size, dtype=np.int64)])

    def _memo_keys(self, k: int):
        """The parent keys of ``-k`` from the premises of its sub-net kept by `_nested_exceeds`;
        None if it kept none (not made there, or a sub-net with no premise but ``+k``, whose
        reason `_resolve` writes)."""
        memo = self._net_memo
        if memo is None or not memo[1][k] or not memo[3][k]:
            return None
        a = int(memo[2][k])
        off_keys, on_keys = self.st.literal_keys
        return [off_keys[e >> 1] if e & 1 else on_keys[e >> 1] for e in memo[4][a : a + int(memo[3][k])].tolist()]

    # ---- depth 0, no nesting: the contradictions' supports compiled -----------------
    @cached_property
    def _ron16(self) -> np.ndarray:
        return np.ascontiguousarray(self.ron, dtype=np.int16)

    @cached_property
    def _roff16(self) -> np.ndarray:
        return np.ascontiguousarray(self.roff, dtype=np.int16)

    @cached_property
    def _compiled_options(self):
        """`contradiction_options` as arrays (`linkgraph.nets.kernel.contradiction_options`)
        for a failed branch of depth 0 without nesting, whose supports the kernels walk (every
        reason a strong set or a weak parent); None otherwise."""
        if self.depth != 0 or self.level != 0 or self.failed < 0:
            return None
        st = self.st
        return kernels().contradiction_options(self._ron16, self._roff16, self.failed, st.mem_pad, st.cs_pad,
                                               _MAX_OPTIONS)

    def _compiled_best(self):
        """`_best_contradiction` by the kernels (`linkgraph.nets.kernel.best_support`): the
        same option and support, the support kept as `support` keeps it; False when the
        kernels do not apply."""
        compiled = self._compiled_options
        if compiled is None:
            return False
        found = self.__dict__.pop("_found", None)  # the kernels' answer, kept by `_run_subnet`
        if found is not None:
            return self._best_from(compiled, *found)
        kinds, sets, ptr, keys = compiled
        i, sup = kernels().best_support(kinds, sets, ptr, keys, self._ron16, self._roff16, self._strong_row,
                                        self._weak_row, self.st.mem_pad)
        return self._best_from(compiled, i, sup)

    def _best_from(self, compiled, i: int, sup: np.ndarray):
        """`_compiled_best` from the kernels' answer: option `i` of `compiled` and its support
        `sup` (literal keys ``2k + 1`` / ``2k``); False for -2 (the kernels do not apply)."""
        if i == -2:
            return False
        if i < 0:
            return None
        kinds, sets, ptr, keys = compiled
        off_keys, on_keys = self.st.literal_keys
        opt = [on_keys[e >> 1] if e & 1 else off_keys[e >> 1] for e in keys[ptr[i] : ptr[i + 1]].tolist()]
        support = frozenset([on_keys[e >> 1] if e & 1 else off_keys[e >> 1] for e in sup.tolist()])
        self._supports.setdefault(tuple(opt), support)
        return _OPTION_KINDS[int(kinds[i])], int(sets[i]), opt, self._supports[tuple(opt)]

    def contradiction_bound(self) -> int:
        """A lower bound on the node count of `explain()`'s contradiction net (no sub-net run)."""
        counts = self._shallow_counts
        if counts is not None:
            return min(counts, default=0)
        return min((self.node_count(self.shallow_support(keys)) for _, _, keys in self.contradiction_options()),
                   default=0)

    def best_contradiction(self):
        """The contradiction option with the smallest support: (kind, set, keys, support)."""
        if "best" in self._memo:
            return self._memo["best"]
        self._memo["best"] = found = self._best_contradiction()
        return found

    def _best_contradiction(self):
        found = self._compiled_best()
        if found is not False:
            return found
        if self.level == 1 and self.depth == 0 and self._shallow_array is not None and len(self.st.sets):
            found = self._nested_best()
            if found is not False:
                return found
        return self._walked_best()

    def _walked_best(self):
        """`_best_contradiction` by the Python walks (`support`), where no kernel applies (and
        the tests' oracle of `_nested_best`)."""
        best = None
        counts = self._shallow_counts
        for i, (kind, j, keys) in enumerate(self.contradiction_options()):
            # a support larger than the best so far cannot win (ties go by kind and set); one
            # whose part short of its sub-nets is larger already is not walked
            if best is not None and counts is not None and counts[i] > best[0][0]:
                continue
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
        """Proof graph for `targets` (literal keys), default the best contradiction.

        The nodes come in literal order (`sort_key`), each with its role and round; the
        edges into a literal are its reason, in key order (literals by index, OFF first,
        then groups), so that the graph and the notation read off it are the same in every
        process. The graph's dicts are written directly (networkx's own layout: a node's
        attributes, its successors and predecessors, one attribute dict per edge shared by
        both), and the literals and the texts of strong sets and weak links are made once
        per geometry (`_Names`): building the graph edge by edge through networkx and
        naming every literal anew was most of a returned step's cost. The reasons are those
        of `reason`; tests/nets/test_explain.py keeps the edge-by-edge form as the oracle.
        """
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
        st = self.st
        names, cands, sets, members = _names(st)
        off_lits, on_lits = names.off, names.on
        lits, groups = [], []
        for key in nodes:
            k0 = key[0]
            if k0.__class__ is not str:
                lits.append(key)
            elif k0 == "group":
                groups.append(key)
        lits.sort()  # by index, OFF first: the order the reasons are read in
        groups.sort(key=self._key_order)
        contra_keys, target_keys = set(contra), set(targets)
        ron, roff = self._rounds_on, self._rounds_off
        node_attrs, succ, pred = P._node, P._succ, P._pred
        named: dict = {}
        # literal order: by index, ON first (local indices follow the candidates' order)
        for key in sorted(lits, key=_on_first):
            k, on = key
            c = cands[k]
            if on:
                node, t = on_lits[c] or names.literal(c, True), ron[k]
            else:
                node, t = off_lits[c] or names.literal(c, False), roff[k]
            if key in contra_keys:
                role = Role.CONTRADICTION
            elif key in target_keys:
                role = Role.CONCLUSION
            else:
                role = Role.PREMISE if t == 0 else Role.INNER
            named[key] = node
            node_attrs[node] = {"role": role, "round": t}
            succ[node] = {}
            pred[node] = {}
        for key in sorted(groups, key=lambda key: sort_key(key[1])):  # stable: equal groups in key order
            node = named[key] = Literal(key[1], on=True)
            if node in node_attrs:
                node_attrs[node]["role"] = Role.INNER
            else:
                node_attrs[node] = {"role": Role.INNER}
                succ[node] = {}
                pred[node] = {}
        strong, weak = self._strong_set, self._weak_parent
        strong_texts, weak_texts = names.strong, names.weak
        for key in lits + groups:
            node = named[key]
            k = key[0]
            # a literal's in-edges all come from its own reason, whose parents are distinct:
            # its strong set's other members, or its weak parent
            if k.__class__ is not str:
                if (ron if key[1] else roff)[k] <= 0:
                    continue
                if key[1]:  # an ON literal: the other members of its strong set
                    j = strong[k]
                    assert j >= 0, "ON literal without a reason"
                    attrs = strong_texts.get(sets[j]) or names.strong_texts(sets[j])
                    into = pred[node]
                    for m in members[j]:
                        if m != k:
                            u = named[(m, False)]
                            succ[u][node] = into[u] = dict(attrs)
                    continue
                j = weak[k]
                if j >= 0:  # an OFF literal seen by an ON one: the set they share
                    pair = (cands[j], cands[k])
                    attrs = weak_texts.get(pair) or names.weak_texts(*pair)
                    u = named[(j, True)]
                    succ[u][node] = pred[node][u] = dict(attrs)
                    continue
            for parent, attrs in self._parents(key):  # a group, a pattern, a sub-net
                if isinstance(attrs.get("proof"), _SubNet):
                    attrs = {**attrs, "proof": attrs["proof"].graph()}
                if parent[0] == "empty":
                    node_attrs[node].setdefault("reasons", []).append(attrs or {"via": parent[1]})
                    continue
                u = named[parent]
                d = succ[u].get(node)
                if d is None:
                    d = succ[u][node] = pred[node][u] = dict(attrs)
                else:
                    d.update(attrs)
        for key in groups:  # ON the round after its last parent
            d = node_attrs[named[key]]
            d["round"] = 1 + max((node_attrs[u]["round"] for u in pred[named[key]]), default=-1)
        P.graph["premises"] = [str(n) for n, d in node_attrs.items() if d["role"] == Role.PREMISE]
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
