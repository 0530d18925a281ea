"""The compiled chain-search level (linkgraph/techniques/aic/kernel.py) against the numpy level
it replaced.

`_numpy_advance` is `Search.advance` as it was written with numpy: the links of each kind
as (targets, each target's first link, sources) segments, a gather of the sources' rows, a
segmented OR (`reduceat`), the mask of the starts not seen yet and a scatter; in a large
net the OFF levels only on the links out of the nodes the last level reached. Both must
give the same levels (reached bits, history, what is left unseen, where the search stops)
on the candidate, grouped and ALS nets of real positions, with and without closed loops.
"""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.bitops import pack, pack_pairs, unpack
from linkgraph.bitops import unpack as unpack_bits
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.techniques.aic.net import Members, Net, _node_links, _sight, _tables, candidate_net, grouped_net
from linkgraph.techniques.aic.search import MAX_NODES, Search
from linkgraph.techniques.als.net import als_net

WEAK_WORDS = 1 << 14  # the numpy level ran on every weak link up to this many link words


def _segments(v, u):
    first = np.flatnonzero(np.concatenate(([True], v[1:] != v[:-1]))) if len(v) else v
    return v.take(first), first, u


class _NumpySearch(Search):
    """`Search` with the numpy level."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.strong = _segments(*self.preds[True])
        self.weak = _segments(*self.preds[False]) if len(self.preds[False][0]) * self.words <= WEAK_WORDS else None
        self.active = None

    def advance(self, unpack: bool = True):
        if not self.alive or self.level >= MAX_NODES:
            self.alive = False
            return None
        self.level += 1
        on = bool(self.level % 2)
        if on:
            t, first, u = self.strong
        elif self.weak is not None:
            t, first, u = self.weak
        else:
            v, u = self.preds[False]
            keep = np.flatnonzero(self.active.take(u))
            v, u = v.take(keep), u.take(keep)
            first = np.flatnonzero(np.concatenate(([True], v[1:] != v[:-1]))) if len(v) else v
            t = v.take(first)
        if not len(u):
            self.alive = False
            return None
        got = np.bitwise_or.reduceat(self.frontier.take(u, axis=0), first, axis=0)
        unseen = self.unseen[on]
        full = len(t) == len(unseen)
        got &= unseen if full else unseen.take(t, axis=0)
        if not got.any():
            self.alive = False
            return None
        if full:
            reached = got
        else:
            reached = np.zeros_like(self.frontier)
            reached[t] = got
        unseen ^= reached
        new = reached
        if on:
            if self.carry is not None:
                new = reached & self.carry
            if self.weak is None:
                self.active = (new != 0) @ np.ones(self.words, dtype=bool)
        self.frontier = new
        self.history.append(new)
        if not on:
            return ()
        return unpack_bits(reached, self.N) if unpack else reached


def _nets():
    lines = list(read_puzzles(corpus_path("top1465"), limit=400))[::40]
    for line in lines:
        grid = lg.prepare(line.grid())
        if grid.is_solved():
            continue
        yield "candidate", candidate_net(grid, "x", digit_major=True, strong_only=True), None, None
        yield "candidate", candidate_net(grid, "xy"), None, None
        yield "candidate", candidate_net(grid, "aic", strong_only=True), None, None
        yield "grouped", grouped_net(grid), None, None
        an = als_net(grid)
        if an is not None:
            yield "als", an.net, an.M + an.K, an.preds


def test_the_compiled_level_is_the_numpy_level():
    seen = {"candidate": 0, "grouped": 0, "als": 0}
    large = levels = 0
    for name, net, starts, preds in _nets():
        for close in (False, True):
            a = Search(net, starts, preds, close_loops=close)
            b = _NumpySearch(net, starts, preds, close_loops=close)
            large += b.weak is None
            while a.alive or b.alive:
                ra, rb = a.advance(), b.advance()
                assert (ra is None) == (rb is None) and a.alive == b.alive and a.level == b.level
                if ra is not None and len(ra):
                    assert np.array_equal(ra, rb)
                assert np.array_equal(a.frontier, b.frontier)
                for on in (False, True):
                    assert np.array_equal(a.unseen[on], b.unseen[on])
            assert len(a.history) == len(b.history)
            seen[name] += 1
            levels += len(a.history) - 1
    assert all(seen.values()) and large  # every kind of net, some large enough for the active links
    assert levels > 5 * sum(seen.values())


def test_one_level_by_hand():
    """Links 0 -> 2, 1 -> 2, 2 -> 3 (targets v, sources u). Node 2 gets start 0 from node 0,
    which has reached it already (not unseen), and nothing from node 1 (an empty row); node 3
    gets start 1 from node 2. A level from empty rows reaches nothing and leaves `unseen` as it was."""
    from linkgraph.techniques.aic.kernel import level

    frontier = np.array([[0b01], [0b00], [0b10], [0b00]], dtype=np.uint64)
    unseen = np.array([[0b11], [0b11], [0b10], [0b11]], dtype=np.uint64)
    v = np.array([2, 2, 3], dtype=np.int64)
    u = np.array([0, 1, 2], dtype=np.int64)
    reached, found = level(frontier, v, u, unseen)
    assert found and reached[:, 0].tolist() == [0, 0, 0, 0b10]
    assert unseen[:, 0].tolist() == [0b11, 0b11, 0b10, 0b01]
    reached, found = level(np.zeros_like(frontier), v, u, unseen)
    assert not found and unseen[:, 0].tolist() == [0b11, 0b11, 0b10, 0b01]


# ---- the grouped net's links: its pairs are those of its matrices ----------------------------------------
def _grouped_nets():
    from tests.narrowings import narrowings

    for grid in narrowings(9, top95=6, rounds=3, start=True):  # the starts: every geometry unsolved
        if not grid.is_solved():
            yield grouped_net(grid)


GROUPED = list(_grouped_nets())


def _same_preds(net) -> None:
    for kind, matrix in ((True, net.strong), (False, net.weak)):
        want = np.nonzero(matrix)  # the former `Net.preds`: the links off the dense matrix
        got = net.preds[kind]
        assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(got, want)), kind


def test_grouped_net_links_are_those_of_the_matrices():
    sizes = set()
    for net in GROUPED:
        _same_preds(net)
        sizes.add((net.geometry.size, len(net.members) > 64))
    assert {(9, True), (16, True), (4, False)} <= sizes


# ---- the grouped net in one compiled pass ------------------------------------------------
# the numpy build of `grouped_net` that `kernel.grouped_parts` replaced (round 10), its oracle
def _numpy_grouped_net(grid):
    """`grouped_net` as it was built with numpy, before `kernel.grouped_parts`."""
    g = grid.geometry
    C, S = g.number_of_candidates, g.number_of_sets
    tb = _tables(g)
    live = grid.live
    idx = np.flatnonzero(live)
    nc = len(idx)
    w = tb.places.shape[0]
    # group nodes: the live places of a digit in an intersection, 2+ of them
    on = np.append(live, False).take(tb.places)  # (w, I * n)
    size = on.sum(axis=0)
    grp = np.flatnonzero(size >= 2)
    on = on.take(grp, axis=1)
    mem = np.where(on, tb.places.take(grp, axis=1), C)
    mem.sort(axis=0)  # (w, groups): live places first, in cell order
    pattern = (on * (1 << np.arange(w))[:, None]).sum(axis=0)
    size = np.concatenate((np.ones(nc, dtype=np.intp), size.take(grp)))
    N = len(size)
    table = np.full((N, w), -1, dtype=np.intp)
    table[:nc, 0] = idx
    table[nc:] = np.where(mem < C, mem, -1).T  # each group's live places first, in cell order
    members = Members(table)
    # links through the sets holding each node: a candidate's from the table, a group's by its pattern
    cand_sets = tb.sets.take(idx, axis=0)
    group_sets = tb.group_sets.take(grp * 2**w + pattern, axis=0)
    k = max(cand_sets.shape[1], group_sets.shape[1])
    sets = np.full((N, k), S, dtype=np.intp)
    sets[:nc, : cand_sets.shape[1]] = cand_sets
    sets[nc:, : group_sets.shape[1]] = group_sets
    live_per_set = np.bincount(cand_sets.ravel(), minlength=S + 1)
    live_per_set[S] = 0
    weak, strong = _node_links(g, sets, size, live_per_set, w)
    # nodes sharing a member with each node (itself included) are not linked
    words = weak.shape[1]
    local = np.full(C + 1, nc, dtype=np.intp)
    local[idx] = np.arange(nc)
    gl = local.take(mem)  # (w, groups): each member's candidate node; pads: nc
    rows = np.concatenate((np.arange(nc), gl.ravel()))
    cols = np.concatenate((np.arange(nc), np.tile(np.arange(nc, N), len(gl))))
    share = pack_pairs(rows, cols, (nc + 1, N), words=words)
    share[nc] = 0
    gshare = share.take(gl[0], axis=0)
    for row in gl[1:]:
        gshare |= share.take(row, axis=0)
    apart = ~np.concatenate((share[:nc], gshare))
    weak &= apart
    strong &= apart
    node, cand = _sight(tb, live, idx)
    # a group's members are one digit's, in different cells: what sees them all is that digit in
    # a cell that is a peer of each member's
    members_ = np.where(mem < C, mem, mem[:1])  # a narrower group repeats its first member
    if members_.shape[1]:
        n = C // tb.peers.shape[0]
        base = tb.seen_digit.take(members_[0], axis=0)  # (groups, D'), C pads
        ok = np.append(live, False).take(base)
        cells = base // n  # (the pads: the padding column of `peers`)
        for row in members_[1:]:
            ok &= tb.peers.take((row // n)[:, None] * tb.peers.shape[1] + cells)
        flat = np.flatnonzero(ok)
        node = np.concatenate((node, nc + flat // base.shape[1]))
        cand = np.concatenate((cand, base.ravel().take(flat)))
    sees_all = np.zeros((N, C), dtype=bool)
    sees_all[node, cand] = True
    net = Net(g, members, unpack(strong, N), unpack(weak, N), sees_all, table)
    net.sight = node, cand  # the cached property, filled in
    net.preds = {True: np.nonzero(net.strong), False: np.nonzero(net.weak)}
    return net


def _same_grouped(grid) -> None:
    new, old = grouped_net(grid), _numpy_grouped_net(grid)
    assert np.array_equal(new.table, old.table) and new.table.dtype == old.table.dtype
    for a, b in ((new.strong, old.strong), (new.weak, old.weak), (new.sees_all, old.sees_all)):
        assert a.dtype == b.dtype == bool and np.array_equal(a, b)
    for kind in (True, False):
        assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(new.preds[kind], old.preds[kind])), kind
    assert all(np.array_equal(a, b) for a, b in zip(new.sight, old.sight))
    assert np.array_equal(new.sees_packed, pack(old.sees_all))
    assert np.array_equal(new.hits, old.hits)


def _grouped_grids():
    from tests.narrowings import narrowings

    return [grid for grid in narrowings(10, top95=6, rounds=3, start=True) if not grid.is_solved()]


GROUPED_GRIDS = _grouped_grids()


def test_the_compiled_grouped_net_is_the_numpy_one():
    sizes = set()
    for grid in GROUPED_GRIDS:
        _same_grouped(grid)
        sizes.add((grid.geometry.size, grid.geometry.name))
    assert len({s for s, _ in sizes}) >= 4 and len(sizes) >= 6  # 4x4, 6x6, 9x9, 16x16 and the 9x9 variants


@pytest.mark.parametrize("fault", ["strong-any-size", "no-member-check", "group-sight-first-only"])
def test_planted_grouped_net_faults_fail_the_oracle(monkeypatch, fault):
    """Faults planted in the kernel's inputs: sizes that never add up (no strong link), one
    member per group (its links and sight as its first member's), the peers all True (a
    group sees what its first member sees)."""
    from linkgraph.techniques.aic import kernel

    real = kernel.grouped_parts

    def faulty(live, sets, seen, seen_digit, peers, places, group_sets, n, S):
        if fault == "strong-any-size":
            out = list(real(live, sets, seen, seen_digit, peers, places, group_sets, n, S))
            out[1] = out[1] | out[2]
            return tuple(out)
        if fault == "no-member-check":
            out = list(real(live, sets, seen, seen_digit, peers, places, group_sets, n, S))
            out[2] = out[2].copy()
            np.fill_diagonal(out[2], True)
            return tuple(out)
        return real(live, sets, seen, seen_digit, np.ones_like(peers), places, group_sets, n, S)

    monkeypatch.setattr(kernel, "grouped_parts", faulty)
    with pytest.raises(AssertionError):
        for grid in GROUPED_GRIDS:
            _same_grouped(grid)
