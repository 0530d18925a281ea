"""The AIC nets against a plain reference: the same nodes, links and sight, built set by set."""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.techniques.aic.net import _intersections, candidate_net, grouped_net
from linkgraph.techniques.aic import net as aicnet
from tests.techniques.patterncases import prepared
from tests.graph.test_links import VARIANTS, variant_positions


def _pairs(holders: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, a, b) for every pair a != b of entries of one row of `holders` (-1 = empty slot)."""
    if holders.shape[1] < 2:
        return (np.zeros(0, dtype=np.intp),) * 3
    i, j = np.triu_indices(holders.shape[1], 1)
    a, b = holders[:, i], holders[:, j]
    ok = (a >= 0) & (b >= 0)
    return np.nonzero(ok)[0], a[ok], b[ok]


def _links(N: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    m = np.zeros((N, N), dtype=bool)
    m[a, b] = m[b, a] = True
    return m


def reference_candidate_net(grid: lg.Grid, mode: str, digit: int | None = None, digit_major: bool = False):
    """(members, strong, weak, sees_all) of a candidate net, from pairs of set members."""
    g, n, live = grid.geometry, grid.geometry.size, grid.live
    idx = np.flatnonzero(live)
    if digit is not None:
        idx = idx[idx % n == digit]
    if mode == "xy":
        idx = idx[grid.counts[idx // n] == 2]
    if digit_major:
        idx = idx[np.argsort(idx % n, kind="stable")]
    N = len(idx)
    local = np.full(g.number_of_candidates, -1, dtype=np.intp)
    local[idx] = np.arange(N)
    holders = local[g.set_members]
    pair_sets = live[g.set_members].sum(axis=1) == 2
    cell_set = np.arange(g.number_of_sets) < g.number_of_cells
    strong_sets, weak_sets = {"x": (pair_sets & ~cell_set, ~cell_set), "xy": (pair_sets & cell_set, ~cell_set),
                              "aic": (pair_sets, np.ones_like(pair_sets))}[mode]
    strong = _links(N, *_pairs(holders[strong_sets])[1:])
    weak = _links(N, *_pairs(holders[weak_sets])[1:]) | strong
    np.fill_diagonal(strong, False)
    np.fill_diagonal(weak, False)
    return [[k] for k in idx.tolist()], strong, weak, g.sees[idx] & live[None, :], None


def reference_grouped_net(grid: lg.Grid):
    """(members, strong, weak, sees_all, table) of the grouped net: node i inside set s when all its
    members are; linked through a shared set unless they share a member; strong when their members
    are the set's live members."""
    g, n, live = grid.geometry, grid.geometry.size, grid.live
    idx = np.flatnonzero(live)
    members = [[int(k)] for k in idx]
    for cells in _intersections(g).tolist():
        for d in range(n):
            places = [c * n + d for c in cells if c >= 0 and live[c * n + d]]
            if len(places) >= 2:
                members.append(places)
    N, C, S = len(members), g.number_of_candidates, g.number_of_sets
    inside = np.array([g.incidence[m].all(axis=0) for m in members]).reshape(N, S)
    sees_all = np.array([g.sees[m].all(axis=0) & live for m in members]).reshape(N, C)
    strong = np.zeros((N, N), dtype=bool)
    weak = np.zeros((N, N), dtype=bool)
    live_per_set = live[g.set_members].sum(axis=1)
    for s in range(S):
        held = np.flatnonzero(inside[:, s])
        for i, a in enumerate(held):
            for b in held[i + 1:]:
                if set(members[a]) & set(members[b]):
                    continue
                weak[a, b] = weak[b, a] = True
                if len(members[a]) + len(members[b]) == live_per_set[s]:
                    strong[a, b] = strong[b, a] = True
    width = _intersections(g).shape[1]
    table = np.full((N, width), -1, dtype=np.intp)
    for i, m in enumerate(members):
        table[i, : len(m)] = m
    return members, strong, weak, sees_all, table


def assert_same(net, want) -> None:
    members, strong, weak, sees_all, table = want
    assert list(net.members) == members
    for name, a, b in (("strong", net.strong, strong), ("weak", net.weak, weak), ("sees_all", net.sees_all, sees_all)):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
    if table is None:
        assert net.table is None
    else:
        assert net.table.shape == table.shape and np.array_equal(net.table, table)
    assert all(np.array_equal(x, y) for x, y in zip(net.sight, np.nonzero(sees_all)))
    for kind, links in ((True, strong), (False, weak)):  # the links as the search reads them
        assert all(x.dtype == y.dtype and np.array_equal(x, y) for x, y in zip(net.preds[kind], np.nonzero(links))), kind
    # hits: a pair of nodes with a candidate seeing both; a node and itself when it is one candidate
    N = len(members)
    common = (sees_all.astype(np.float64) @ sees_all.T.astype(np.float64)) > 0
    common[np.arange(N), np.arange(N)] = [len(m) == 1 for m in members]
    got = np.unpackbits(net.hits.view(np.uint8), axis=1, bitorder="little", count=N).view(bool)
    assert np.array_equal(got, common), "hits"


def reference_strong_part(want):
    """The reference net restricted to its nodes with a strong link."""
    members, strong, weak, sees_all, table = want
    keep = np.flatnonzero(strong.any(axis=1))
    return ([members[i] for i in keep], strong[np.ix_(keep, keep)], weak[np.ix_(keep, keep)], sees_all[keep],
            None if table is None else table[keep])


def assert_nets(grid: lg.Grid) -> None:
    grouped = grouped_net(grid)
    assert_same(grouped, reference_grouped_net(grid))
    assert_same(aicnet.strong_part(grouped), reference_strong_part(reference_grouped_net(grid)))
    for mode in ("x", "xy", "aic"):
        assert_same(candidate_net(grid, mode), reference_candidate_net(grid, mode))
        assert_same(candidate_net(grid, mode, strong_only=True), reference_strong_part(reference_candidate_net(grid, mode)))
    assert_same(candidate_net(grid, "x", digit_major=True, strong_only=True),
                reference_strong_part(reference_candidate_net(grid, "x", digit_major=True)))
    assert_same(candidate_net(grid, "x", digit_major=True), reference_candidate_net(grid, "x", digit_major=True))
    assert_same(candidate_net(grid, "x", 2), reference_candidate_net(grid, "x", 2))
    assert_same(candidate_net(grid, "xy", 2), reference_candidate_net(grid, "xy", 2))


@pytest.mark.parametrize("fault", ["weak-link-lost", "strong-sources-shifted"])
def test_planted_strong_part_faults_fail_the_reference(fault):
    """`strong_part` builds its part from the whole net's link pairs: wrong pairs must show."""
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    net = grouped_net(grid)
    v, u = net.preds[False] if fault == "weak-link-lost" else net.preds[True]
    bad = (v[:-1], u[:-1]) if fault == "weak-link-lost" else (v, np.roll(u, 1))
    net.preds = dict(net.preds) | {fault == "strong-sources-shifted": bad}
    with pytest.raises(AssertionError):
        assert_same(aicnet.strong_part(net), reference_strong_part(reference_grouped_net(grid)))


def test_nets_match_reference_on_top95(corpus):
    for grid, _ in prepared(corpus("top95", limit=6)):
        assert_nets(grid)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_nets_match_reference_on_variants(name):
    for grid, _ in variant_positions(name, 3):
        assert_nets(grid)



def test_nodes_without_strong_links_change_no_chain(corpus):
    # the rungs search only the nodes with a strong link: the same steps as on the whole nets
    from linkgraph.techniques.aic.search import _chains, aics, x_chains

    def texts(steps):
        return [(str(s), s.notation, sorted(map(str, s.proof.edges))) for s in steps]

    for grid, _ in prepared(corpus("top95", limit=6)):
        assert texts(x_chains(grid)) == texts(_chains(grid, [candidate_net(grid, "x", digit_major=True)], "x-chain"))
        assert texts(aics(grid, groups=False)) == texts(_chains(grid, [candidate_net(grid, "aic")], "aic"))
        assert texts(aics(grid)) == texts(_chains(grid, [grouped_net(grid)], "grouped-aic"))
