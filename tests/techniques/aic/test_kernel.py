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
from linkgraph.bitops import unpack as unpack_bits
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.techniques.aic.net import candidate_net, grouped_net
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


# ---- the grouped net's links read off its packed rows ----------------------------------------
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


@pytest.mark.parametrize("fault", ["bit-one-off", "last-word-dropped", "columns-unbounded"])
def test_planted_packed_pair_faults_fail_the_oracle(monkeypatch, fault):
    from linkgraph.techniques.aic import kernel

    real = kernel.packed_pairs

    def faulty(rows, N):
        if fault == "bit-one-off":
            return real(rows << np.uint64(1), N)
        if fault == "last-word-dropped":
            return real(np.ascontiguousarray(rows[:, :-1]) if rows.shape[1] > 1 else rows & np.uint64(0), N)
        return real(rows | np.uint64(1 << 63), 1 << 20)  # bits past the last node read as links

    monkeypatch.setattr(kernel, "packed_pairs", faulty)
    with pytest.raises(AssertionError):
        for net in _grouped_nets():
            _same_preds(net)
