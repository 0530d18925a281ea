"""Branch reasons read many branches at once, against the one-branch code they replaced.

`linkgraph.nets.proof._weak_parents` and `_strong_sets` find the reason
arrays of many branches in one pass (the failed branches of a nested search
are explained together); `BranchProof.contradiction_options` (the compiled
`linkgraph.nets.kernel.contradiction_options` at every depth and level) reads only the
sets of the failing round's literals. The oracles below are the former
versions, written plainly over numpy rows.
"""

from __future__ import annotations

import weakref

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.nets.engine import advance, kernels
from linkgraph.nets.proof import _MAX_OPTIONS, BranchProof
from linkgraph.nets.proof import _strong_sets, _weak_parents
from linkgraph.nets.propagate import Structure, propagate_singles
from linkgraph.solver import prepare


def weak_parent(st, ron, roff) -> list[int]:
    ks = np.flatnonzero(ron >= 0)
    order = ks[np.argsort(ron[ks], kind="stable")]  # by round, then index
    out = np.full(len(roff), -1, dtype=np.int64)
    koff = np.flatnonzero(roff > 0)
    if len(order) and len(koff):
        A = st.sees.take(koff, axis=0).take(order, axis=1)
        A &= ron[order][None, :] < roff[koff][:, None]
        first = A.argmax(axis=1)
        has = A[np.arange(len(koff)), first]
        out[koff[has]] = order[first[has]]
    return out.tolist()


def strong_set(st, ron, roff) -> list[int]:
    L = st.size
    out = [-1] * L
    for k in np.flatnonzero(ron > 0).tolist():
        best = None
        for j in st.cand_sets_list[k]:
            others = [m for m in st.members_list[j] if m != k]
            if all(0 <= roff[m] < ron[k] for m in others):
                score = (len(others), max((int(roff[m]) for m in others), default=-1), j)
                best = score if best is None or score < best else best
        if best is not None:
            out[k] = best[2]
    return out


def options(st, ron, roff, c) -> list:
    if c < 0:
        return []
    on = (ron >= 0) & (ron <= c)
    off = (roff >= 0) & (roff <= c)
    opts = []
    for k in np.flatnonzero(on & off):
        opts.append((max(ron[k], roff[k]), "both", -1, [(int(k), True), (int(k), False)]))
    for j, mem in enumerate(st.members):
        if off[mem].all():
            opts.append((int(roff[mem].max()), "empty", j, [(int(m), False) for m in mem]))
    for j, mem in enumerate(st.members):
        if on[mem].sum() >= 2:
            ons = sorted((int(m) for m in mem if on[m]), key=lambda m: (int(ron[m]), m))[:2]
            opts.append((max(int(ron[m]) for m in ons), "two-on", j, [(m, True) for m in ons]))
    opts.sort(key=lambda o: (o[0], len(o[3]), o[1], o[2]))
    return [(kind, j, keys) for _, kind, j, keys in opts[:_MAX_OPTIONS]]


def _branches(grid, depth, level):
    st = Structure(grid, depth=depth)
    ks = np.tile(np.arange(st.size), 2)
    ons = np.repeat([True, False], st.size)
    prop = propagate_singles(st, ks, ons, depth=depth, level=level)
    rows = [prop.rounds(b) for b in range(len(ks))]
    return st, np.array([r[0] for r in rows]), np.array([r[1] for r in rows]), prop.failed.tolist()


@pytest.mark.parametrize("puzzle, depth, level", [
    (lg.samples.GNPX_FORCECHAIN, 0, 0),
    (lg.samples.GNPX_FORCECHAIN, 2, 0),
    (lg.samples.EASTER_MONSTER, 1, 1),
    (lg.samples.GOLDEN_NUGGET, 0, 1),
])
def test_batched_reasons_match_one_branch_code(puzzle, depth, level):
    st, ron, roff, failed = _branches(prepare(lg.Grid.parse(puzzle)), depth, level)
    assert any(f >= 0 for f in failed) and any(f < 0 for f in failed)
    weak, strong = _weak_parents(st, ron, roff).tolist(), _strong_sets(st, ron, roff).tolist()
    for b in range(len(failed)):
        assert weak[b] == weak_parent(st, ron[b], roff[b])
        assert strong[b] == strong_set(st, ron[b], roff[b])
        bp = BranchProof(st, ron[b], roff[b], failed[b], depth=depth, level=level)
        assert bp.contradiction_options() == options(st, ron[b], roff[b], failed[b])
    # the same, one branch at a time (as BranchProof asks for its own arrays)
    for b in range(0, len(failed), 7):
        assert _weak_parents(st, ron[b : b + 1], roff[b : b + 1]).tolist() == [weak[b]]
        assert _strong_sets(st, ron[b : b + 1], roff[b : b + 1]).tolist() == [strong[b]]


def support_oracle(bp, keys) -> set:
    """The keys reachable from `keys` through the explained reasons (`BranchProof.reason`,
    the edges a proof graph gets), in plain breadth-first order."""
    seen, todo = set(keys), list(keys)
    while todo:
        key = todo.pop()
        for parent, _ in bp.reason(*key):
            if parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return seen


def _depth0_branches():
    """Failed branches of depth 0 without nesting: every premise of three grids, and the
    sub-nets a nested search runs (which start from the outer branch's literals too)."""
    out = []
    for puzzle in (lg.samples.GNPX_FORCECHAIN, lg.samples.EASTER_MONSTER, lg.samples.GOLDEN_NUGGET):
        st, ron, roff, failed = _branches(prepare(lg.Grid.parse(puzzle)), 0, 0)
        out += [BranchProof(st, ron[b], roff[b], failed[b], depth=0, level=0)
                for b in range(len(failed)) if failed[b] >= 0]
    st, ron, roff, failed = _branches(prepare(lg.Grid.parse(lg.samples.GOLDEN_NUGGET)), 0, 1)
    outer_checked = 0
    for b in [b for b in range(len(failed)) if failed[b] >= 0][:6]:
        bp = BranchProof(st, ron[b], roff[b], failed[b], depth=0, level=1)
        keys = [(k, False) for k in np.flatnonzero((bp.roff > 0) & (bp._weak_row < 0)).tolist()]
        for key in keys:
            if bp._local_reason(*key) is None:
                bp._prepare([key])
                # made alone, its premises came from the same call (kernel.subnet_outer): those
                # the Python reading of its best contradiction finds (`_outer`), none if it finds none
                assert bp._pkeys.get(key, []) == BranchProof._outer(key[0], bp._subnets[key])
                outer_checked += key in bp._pkeys
        out += list(bp._subnets.values())
    assert outer_checked > 10
    for sub in out[-10:]:  # made alone: the reason rows too in the one call (kernel.subnet_best)
        assert "_weak_row" in sub.__dict__
        assert sub._weak_row.tolist() == weak_parent(sub.st, sub.ron, sub.roff)
        assert sub._strong_row.tolist() == strong_set(sub.st, sub.ron, sub.roff)
    return out


def test_compiled_contradictions_match_the_walks():
    """`linkgraph.nets.kernel.contradiction_options`, `best_support` and `supports_exceed`
    (through BranchProof) against the option oracle above and supports read off the
    explained reasons."""
    branches = _depth0_branches()
    assert len(branches) > 100 and any(bp.ron.max() > 0 and (bp.ron == 0).sum() > 1 for bp in branches)
    for bp in branches:
        opts = options(bp.st, bp.ron, bp.roff, bp.failed)
        kinds, sets, ptr, keys = bp._compiled_options
        off_keys, on_keys = bp.st.literal_keys
        assert [("both", "empty", "two-on")[k] for k in kinds.tolist()] == [o[0] for o in opts]
        assert sets.tolist() == [o[1] for o in opts]
        assert [[on_keys[e >> 1] if e & 1 else off_keys[e >> 1] for e in keys[a:b].tolist()]
                for a, b in zip(ptr[:-1].tolist(), ptr[1:].tolist())] == [o[2] for o in opts]
        sups = [support_oracle(bp, o[2]) for o in opts]
        best = min(range(len(opts)), key=lambda i: (len(sups[i]), opts[i][0], opts[i][1], i))
        kind, j, contra, sup = bp.best_contradiction()
        assert (kind, j, contra) == opts[best] and sup == sups[best]
        least = min(len(s) for s in sups)
        for limit in (least - 1, least, least + 3):
            assert bp.contradiction_exceeds(limit) is (least > limit)


def test_shallow_counts_are_the_shallow_walks():
    """`BranchProof._shallow_counts` (`linkgraph.nets.kernel.shallow_counts`) against the
    Python walk it stands for, `node_count(shallow_support(keys))` per contradiction option,
    on fresh branches (no sub-net made yet, so the walk stops at every literal only a
    sub-net explains): nested branches of depth 0, where such literals occur, and branches
    without nesting, where the count is the whole support's; and below the whole support."""
    leaves = whole = 0
    for puzzle, level in ((lg.samples.GOLDEN_NUGGET, 1), (lg.samples.EASTER_MONSTER, 1),
                          (lg.samples.GNPX_FORCECHAIN, 0)):
        st, ron, roff, failed = _branches(prepare(lg.Grid.parse(puzzle)), 0, level)
        for b in [b for b in range(len(failed)) if failed[b] >= 0][:30]:
            bp = BranchProof(st, ron[b], roff[b], failed[b], depth=0, level=level)
            options = bp.contradiction_options()
            shallow = [bp.shallow_support(keys) for _, _, keys in options]
            assert bp._shallow_counts == [bp.node_count(s) for s in shallow]
            deferred = [k for s in shallow for k, on in s if not on and bp.roff[k] > 0 and bp._weak_row[k] < 0]
            leaves += len(deferred)
            if level == 0:
                assert bp._shallow_counts == [bp.node_count(bp.support(keys)) for _, _, keys in options]
            elif b % 5 == 0:
                full = [bp.node_count(bp.support(keys)) for _, _, keys in options]
                assert all(n <= f for n, f in zip(bp._shallow_counts, full, strict=True))
                whole += sum(n < f for n, f in zip(bp._shallow_counts, full, strict=True))
                # what reads the counts to skip walks: the same answers as the walks alone
                fresh = BranchProof(st, ron[b], roff[b], failed[b], depth=0, level=level)
                for limit in (min(full) - 1, min(full)):
                    assert fresh.contradiction_exceeds(limit) is (min(full) > limit)
                sups = [bp.support(keys) for _, _, keys in options]
                i = min(range(len(options)), key=lambda i: (len(sups[i]), options[i][0], options[i][1]))
                assert fresh.best_contradiction() == (*options[i], sups[i])
            assert bp.contradiction_bound() == min(bp._shallow_counts, default=0)
    assert leaves > 20 and whole > 0
    # at depth 2 the kernel does not apply (groups and patterns explain literals too)
    st, ron, roff, failed = _branches(prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)), 2, 0)
    b = next(b for b in range(len(failed)) if failed[b] >= 0)
    assert BranchProof(st, ron[b], roff[b], failed[b], depth=2, level=0)._shallow_counts is None


def _plain_subnet(st, ron, roff, failed, key):
    """The path `BranchProof._run_subnet` replaced, after the sub-net's rounds were read with
    `Run.rows_one`: the sub-net made alone and `kernel.subnet_outer`'s answer put on it."""
    assert failed >= 0
    sub = BranchProof(st, ron, roff, failed, depth=0, level=0)
    others, base, real = st.strong_tables
    weak, strong, *compiled, i, sup, outer = kernels().subnet_outer(
        ron, roff, failed, key[0], st.sees_pad, others, base, real, st.cs_pad, st.mem_pad, _MAX_OPTIONS)
    d = sub.__dict__
    d["_weak_row"], d["_strong_row"], d["_ron16"], d["_roff16"] = weak, strong, ron, roff
    d["_compiled_options"] = tuple(compiled)
    d["_found"] = (int(i), sup)
    return sub, outer.tolist()


def _rows_sub_runs(st, group, *, depth, level):
    """The batch `BranchProof._sub_runs` starts from packed words, built as it was before
    (each candidate's start as (sub-nets, candidates) bool rows, concatenated, then run by
    `engine.advance`): (Run, row of each candidate, per branch of `group`)."""
    ons, offs, rows = [], [], []
    o = 0
    for m in group:
        ks = np.flatnonzero((m.roff > 0) & (m._weak_row < 0))
        ts = m.roff[ks].astype(np.int64)[:, None]
        on = (m.ron >= 0) & (m.ron < ts)
        on[np.arange(len(ks)), ks] = True
        ons.append(on)
        offs.append((m.roff >= 0) & (m.roff < ts))
        rows.append(dict(zip(ks.tolist(), range(o, o + len(ks)))))
        o += len(ks)
    run = advance(st, np.concatenate(ons), np.concatenate(offs), depth=depth, level=level - 1, track=True)
    return run, rows


def _subnets_both_ways(bp, key):
    """The sub-net of OFF literal `key` of nested branch `bp`, made by the fused call
    (`BranchProof._run_subnet`) and by the path it replaced (`Run.rows_one`, then
    `_plain_subnet`), with the number of levels of the run's chain its rounds came from."""
    run, row = bp._sub_runs
    b = row[key[0]]
    fused, fused_outer = BranchProof._run_subnet(bp.st, run, b, key)
    rounds = run.rows_one(b)
    plain, plain_outer = _plain_subnet(bp.st, rounds[0], rounds[1], int(run.failed[b]), key)
    levels, r = 1, run
    while r.tail is not None and r.tail_pos[b] >= 0:
        b, r, levels = int(r.tail_pos[b]), r.tail, levels + 1
    return fused, fused_outer, plain, plain_outer, levels


@pytest.mark.parametrize("puzzle", [lg.samples.GOLDEN_NUGGET, lg.samples.EASTER_MONSTER])
def test_fused_subnets_match_rows_then_subnet(puzzle):
    """`linkgraph.nets.kernel.run_subnet_outer` reads a sub-net's rounds from the run and
    its compacted tails and finds its reasons, options, best support and premises in one
    call: the same as reading the rounds first (`Run.rows_one`) and calling
    `kernel.subnet_outer` (`_plain_subnet`), for every sub-net a walk may ask for in
    the failed branches of a nested search, including those whose rounds span the tails."""
    st, ron, roff, failed = _branches(prepare(lg.Grid.parse(puzzle)), 0, 1)
    bps = [BranchProof(st, ron[b], roff[b], failed[b], depth=0, level=1) for b in range(len(failed)) if failed[b] >= 0]
    n, deep = 0, 0
    for bp in bps[:8]:
        for k in np.flatnonzero((bp.roff > 0) & (bp._weak_row < 0)).tolist():
            fused, fused_outer, plain, plain_outer, levels = _subnets_both_ways(bp, (k, False))
            assert fused.ron.tolist() == plain.ron.tolist() and fused.roff.tolist() == plain.roff.tolist()
            assert fused.failed == plain.failed
            for name in ("_weak_row", "_strong_row"):
                assert fused.__dict__[name].tolist() == plain.__dict__[name].tolist()
            for a, b in zip(fused._compiled_options, plain._compiled_options, strict=True):
                assert a.tolist() == b.tolist()
            assert fused.__dict__["_found"][0] == plain.__dict__["_found"][0]
            assert fused.__dict__["_found"][1].tolist() == plain.__dict__["_found"][1].tolist()
            assert fused_outer == plain_outer
            assert fused.best_contradiction() == plain.best_contradiction()
            n += 1
            deep += levels > 1
    assert n > 50 and deep > 5


def test_one_compiled_form_of_the_fused_subnet_whatever_the_chain_length():
    """`Run.chain` gives every level of a run's chain flat, found through a table: runs whose
    chains have different numbers of levels call `linkgraph.nets.kernel.run_subnet_outer` with
    one signature. (numba types a tuple by its length: the tuples of per-level arrays it
    replaced compiled the kernel, and the nested kernels that call it, again for each length.)"""
    lengths = set()
    for puzzle in (lg.samples.GOLDEN_NUGGET, lg.samples.EASTER_MONSTER):
        st, ron, roff, failed = _branches(prepare(lg.Grid.parse(puzzle)), 0, 1)
        for b in [b for b in range(len(failed)) if failed[b] >= 0][:8]:
            bp = BranchProof(st, ron[b], roff[b], failed[b], depth=0, level=1)
            run, _ = bp._sub_runs
            n, r = 1, run
            while r.tail is not None:
                n, r = n + 1, r.tail
            lengths.add(n)
            ks = np.flatnonzero((bp.roff > 0) & (bp._weak_row < 0)).tolist()
            if ks:
                fused, _, plain, _, _ = _subnets_both_ways(bp, (ks[0], False))
                assert fused.ron.tolist() == plain.ron.tolist() and fused.roff.tolist() == plain.roff.tolist()
    assert len(lengths) > 1, lengths
    assert len(kernels().run_subnet_outer.signatures) == 1, kernels().run_subnet_outer.signatures


@pytest.mark.parametrize("puzzle", [lg.samples.GOLDEN_NUGGET, lg.samples.EASTER_MONSTER])
def test_packed_subnet_starts_match_the_rows(puzzle):
    """`BranchProof._sub_runs` starts its batch of sub-nets from words packed in one call
    (`linkgraph.nets.kernel.subnet_starts`): the same sub-nets, in the same rows, fail in
    the same rounds with the same rounds of every literal as when built from bool rows
    (the numpy form it replaced, `_rows_sub_runs`)."""
    st, ron, roff, failed = _branches(prepare(lg.Grid.parse(puzzle)), 0, 1)
    bs = [b for b in range(len(failed)) if failed[b] >= 0][:12]
    bps = [BranchProof(st, ron[b], roff[b], failed[b], depth=0, level=1) for b in bs]
    group = [weakref.ref(bp) for bp in bps]
    for bp in bps:
        bp.batch = group
    run, _ = bps[0]._sub_runs
    rows = [bp._sub_runs[1] for bp in bps]
    old, old_rows = _rows_sub_runs(st, bps, depth=0, level=1)
    assert rows == old_rows and sum(map(len, rows)) > 100
    n = sum(map(len, rows))
    assert run.failed.tolist() == old.failed.tolist() and (run.failed >= 0).any()
    every = np.arange(n)
    assert run.rows_many(every).tolist() == old.rows_many(every).tolist()


def _rule_parent_keys(bp, k: int):
    """The oracle of `BranchProof._rule_keys`: the parent keys of the reason `_local_reason`
    writes for OFF literal k (its group, pattern or empty-set key, with the edge texts
    dropped), None when only a sub-net explains it."""
    out = bp._local_reason(k, False)
    return None if out is None else [p for p, _ in out]


@pytest.mark.parametrize("puzzle, depth, level", [
    (lg.samples.GNPX_FORCECHAIN, 1, 0),
    (lg.samples.GNPX_FORCECHAIN, 2, 0),
    (lg.samples.EASTER_MONSTER, 2, 0),
    (lg.samples.GOLDEN_NUGGET, 2, 0),
    (lg.samples.EASTER_MONSTER, 1, 1),
])
def test_compiled_rules_match_the_reasons(puzzle, depth, level):
    """Every OFF literal of round > 0 without a weak parent, in every branch: the rule the
    compiled choice (`linkgraph.nets.kernel.off_reasons`) gives `_parent_keys` is the one
    the Python group and pattern reasons pick."""
    st, ron, roff, failed = _branches(prepare(lg.Grid.parse(puzzle)), depth, level)
    kinds = {1: 0, 2: 0, 3: 0}
    for b in range(len(failed)):
        new = BranchProof(st, ron[b], roff[b], failed[b], depth=depth, level=level)
        old = BranchProof(st, ron[b], roff[b], failed[b], depth=depth, level=level)
        rule, _ = new._off_rules
        for k in np.flatnonzero((roff[b] > 0) & (new._weak_row < 0)).tolist():
            kinds[rule[k]] += 1
            assert new._parent_keys(k, False) == _rule_parent_keys(old, k), (b, k)
        assert not any(rule[k] for k in np.flatnonzero((roff[b] <= 0) | (new._weak_row >= 0)).tolist())
    assert kinds[1] > 50 and (depth < 2 or kinds[2] > 50), kinds  # both rules met (and, nested, sub-nets)
    assert level == 0 or kinds[3] > 0, kinds


def _nested_pairs(puzzle, n=10):
    """(new, old) BranchProofs of the first `n` failed nested branches (depth 0, level 1) of
    `puzzle`, each side a batch of its own (as `linkgraph.nets.steps` joins them)."""
    st, ron, roff, failed = _branches(prepare(lg.Grid.parse(puzzle)), 0, 1)
    bs = [b for b in range(len(failed)) if failed[b] >= 0][:n]
    sides = []
    for _ in range(2):
        bps = [BranchProof(st, ron[b], roff[b], failed[b], depth=0, level=1) for b in bs]
        group = [weakref.ref(bp) for bp in bps]
        for bp in bps:
            bp.batch = group
        sides.append(bps)
    return list(zip(*sides))


@pytest.mark.parametrize("puzzle", [lg.samples.GOLDEN_NUGGET, lg.samples.EASTER_MONSTER])
def test_nested_exceeds_matches_the_walks(puzzle):
    """`BranchProof._nested_exceeds` (one compiled call, `linkgraph.nets.kernel.nested_exceeds`)
    answers as the Python walks with node limits do (the oracle: `support` per option,
    options past the limit short of their sub-nets skipped), at limits from the least
    shallow count up; the sub-nets' premises it keeps are the parent keys `_prepare` and
    `_resolve` find, and a Python walk reading them gives the same supports."""
    answers, kept = set(), 0
    for i, (new, old) in enumerate(_nested_pairs(puzzle)):
        lo = min(new._shallow_counts)
        if i < 3:  # a small store for the premises, grown as the kernel asks (-3)
            assert new._nested_exceeds(-1) == 1 and not new._net_memo[1].any()
            new._net_memo[4] = np.empty(i, dtype=np.int64)
        for limit in (lo - 1, lo, lo + 2, lo + 5, lo + 10, lo + 25, lo + 60, 10_000):
            got = new._nested_exceeds(limit)
            want = all(n > limit or old.support(keys, node_limit=limit) is None
                       for n, (_, _, keys) in zip(old._shallow_counts, old.contradiction_options(), strict=True))
            assert got in (0, 1) and bool(got) == want, limit
            answers.add(got)
        for k in np.flatnonzero(new._net_memo[1]).tolist():
            key = (k, False)
            old._prepare([key])
            old._resolve(key)
            assert new._memo_keys(k) in (None, old._pkeys[key])
            kept += new._memo_keys(k) is not None
        for _, _, keys in old.contradiction_options():
            assert new.support(keys) == old.support(keys)
    assert answers == {0, 1} and kept > 50


@pytest.mark.parametrize("puzzle, n, empty", [
    (lg.samples.GOLDEN_NUGGET, 16, False),
    (lg.samples.EASTER_MONSTER, 16, False),
    (lg.samples.GNPX_FORCECHAIN, 30, True),  # a sub-net failing from +k alone: an empty reason
])
def test_nested_best_matches_the_walks(puzzle, n, empty):
    """`BranchProof._nested_best` (`linkgraph.nets.kernel.nested_best`) finds the option and
    support the Python walks find (`_walked_best`: keys counted, empty reasons included),
    before and after other walks have kept sub-nets, and keeps that support for `support`."""
    empties = 0
    pairs = _nested_pairs(puzzle, n)
    for i, (new, old) in enumerate(pairs):
        if i % 2:  # sub-nets kept by a walk with a limit first
            new._nested_exceeds(min(new._shallow_counts) + 3)
        got = new._nested_best()
        want = old._walked_best()
        assert got is not False and got == want
        kind, j, keys, sup = got
        assert new.support(keys) is sup
        empties += len(sup) > new.node_count(sup)  # an empty set's key is a key, not a node
    assert len(pairs) == n and (empties > 0) == empty
