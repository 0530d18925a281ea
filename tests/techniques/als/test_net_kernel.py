"""The layered ALS net's compiled arrays (`techniques.als.kernel.als_net_parts`) against the numpy
`als_net` it replaced, kept here as its oracle, on classic and variant positions."""

from __future__ import annotations

import numpy as np
import pytest

from linkgraph.bitops import nonzero2, pack_pairs, unpack
from linkgraph.grid import cached
from linkgraph.techniques.aic.net import Net, grouped_net
from linkgraph.techniques.als import net
from linkgraph.techniques.als.table import ALS_MAX_SIZE, als_table
from tests.narrowings import narrowings


def sorted_links(N: int, parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The former `als.net._sorted_links`: (v, u) of the links of `parts` (each (v, u) arrays), by v then u."""
    v = np.concatenate([v for v, _ in parts]).astype(np.int64)
    u = np.concatenate([u for _, u in parts]).astype(np.int64)
    order = np.argsort(v * N + u, kind="stable")  # sorted runs
    return v.take(order), u.take(order)


def als_net_numpy(grid, max_size=ALS_MAX_SIZE):
    """The former numpy `als_net`."""
    g = grid.geometry
    n, ncells, C = g.size, g.number_of_cells, g.number_of_candidates
    live = grid.live
    cands = grid.cands
    table = als_table(grid, max_size=max_size)
    sizes = (table.cells < ncells).sum(axis=1)
    # ALS nodes: per ALS of 2+ cells, each digit some live candidate outside sees entirely
    visible = (table.selfsee[:, None] >> np.arange(n)) & 1 == 1  # (sets, n)
    keep = (sizes >= 2) & (visible.sum(axis=1) >= 2)
    ai, ad = nonzero2(visible & keep[:, None])  # by set, then digit
    K = len(ai)
    if K == 0:
        return None
    base = cached("grouped-net", grid, grouped_net)
    bp = cached("als-chain-base", grid, net._base_parts)
    M = len(base.members)
    N = 2 * M + K
    cell_tab = table.cells[ai]  # (K, w), ncells pads
    ext = np.zeros((ncells + 1, n), dtype=bool)
    ext[:ncells] = cands
    valid = ext[cell_tab, ad[:, None]]  # the ALS cells holding the node's digit
    mem_tab = np.where(valid, cell_tab * n + ad[:, None], -1)
    # the cells that see every place of the node's digit in its ALS (none of them a place)
    seeall = unpack(table.seeall[ad, ai], ncells)  # (K, cells)
    # ALS node a -> candidates of its digit seeing every member (live, outside its cells): what it turns OFF
    sees_cells = seeall & cands.T[ad]
    ea, ec = nonzero2(sees_cells)
    ec = ec * n + ad[ea]  # (ALS node, candidate) pairs, by node
    # regular node r -- ALS node a: r of a's digit, every member of r sees every member of a
    # (a candidate node: a candidate an ALS node turns OFF; a group node: all its members are)
    nc = bp.nc
    gcells = bp.cells[nc:]
    sees_t = np.ones((ncells + 1, K), dtype=bool)  # (cells + 1, K): row ncells pads
    sees_t[:ncells] = seeall.T
    from_group = bp.digit[nc:, None] == ad[None, :]  # (groups, K)
    for column in np.where(gcells < 0, ncells, gcells).T:
        from_group &= sees_t[column]
    ga, gr = nonzero2(np.ascontiguousarray(from_group.T))  # by node, then group
    la = np.concatenate([ea, ga])
    lr = np.concatenate([bp.node_of[ec], gr + nc])
    # ALS -- ALS on one digit d: a restricted common digit (cells apart, every place of one sees every place
    # of the other)
    node_id = np.full((len(table), n), -1, dtype=np.intp)
    node_id[ai, ad] = np.arange(K)
    held = np.flatnonzero(np.concatenate(([True], ai[1:] != ai[:-1])))
    p, q = nonzero2(table.restricted != 0)  # (a set without a node has no node_id below)
    masks = table.restricted[p, q]
    pi, d = nonzero2((masks[:, None] >> np.arange(n)) & 1 == 1)
    rv, ru = node_id[p[pi], d], node_id[q[pi], d]
    both = (rv >= 0) & (ru >= 0)
    rv, ru = rv[both], ru[both]
    # two digits of one ALS (its nodes are consecutive)
    count = np.diff(np.append(held, K))
    per = np.repeat(count, count)  # nodes of the node's ALS
    lo = np.repeat(held, count)  # its first node
    sv = np.repeat(np.arange(K), per)
    su = np.repeat(lo, per) + (np.arange(per.sum()) - np.repeat(np.cumsum(per) - per, per))
    other = sv != su
    sv, su = sv[other], su[other]
    # the layered links, [v, u] meaning u -> v
    bsv, bsu = bp.strong
    bwv, bwu = bp.weak
    B = M + K
    strong = sorted_links(N, [(bsv, bsu), (bsv + B, bsu + B), (sv + M, su + M)])
    weak = sorted_links(N, [(bwv, bwu), (bwv + B, bwu + B),
                             (la + M, lr),  # copy one -> ALS
                             (la + M, lr + B),  # copy two -> ALS
                             (lr + B, la + M),  # ALS -> copy two
                             (rv + M, ru + M)])  # ALS -> ALS
    # what a start's +literal turns OFF by one weak link: for an ALS start, the premise is the group of
    # its digit's places, so a candidate sharing one set X with all of them (incidence, not just sight):
    # the cells of a house holding them all on that digit, and a lone place's own cell
    house_of, house_cells = net._house_rows(g)
    safe_cells = np.where(valid, cell_tab, ncells)
    common = house_of[safe_cells[:, 0]]  # (K, houses)
    for k in range(1, safe_cells.shape[1]):
        common = common & house_of[safe_cells[:, k]]
    ck, ch = nonzero2(common)
    in_house = np.zeros((K, house_cells.shape[1]), dtype=np.uint64)
    if len(ck):
        first = np.flatnonzero(np.concatenate(([True], ck[1:] != ck[:-1])))
        in_house[ck[first]] = np.bitwise_or.reduceat(house_cells[ch], first, axis=0)
    in_house = unpack(in_house, ncells)  # (K, cells)
    place = np.zeros((K, ncells + 1), dtype=bool)
    place[np.arange(K)[:, None], safe_cells] = True
    in_house &= ~place[:, :ncells] & cands.T[ad]  # live, not a place
    sa, sc = nonzero2(in_house)
    sc = sc * n + ad[sa]
    lone = np.flatnonzero(valid.sum(axis=1) == 1)
    lone_cands = safe_cells[lone].min(axis=1)[:, None] * n + np.arange(n)  # (lone, n): the place's cell
    li, ld = nonzero2(live[lone_cands] & (np.arange(n)[None, :] != ad[lone][:, None]))
    sa = np.concatenate([sa, lone[li]])
    sc = np.concatenate([sc, lone_cands[li, ld]])
    start_sees = np.concatenate([bp.sees, pack_pairs(sa, sc, (K, C))])
    # per end b, the starts a with a candidate seeing both: the OR over b's sight of the starts seeing it
    by_cand = pack_pairs(np.concatenate([bp.sight[1], sc]), np.concatenate([bp.sight[0], sa + M]), (C, M + K))  # (C, start words)
    ends = np.concatenate([ea + M, bp.sight[0] + B])
    seen = np.concatenate([ec, bp.sight[1]])
    hits = np.zeros((N, by_cand.shape[1]), dtype=np.uint64)
    if len(ends):
        first = np.flatnonzero(np.concatenate(([True], ends[1:] != ends[:-1])))
        hits[ends[first]] = np.bitwise_or.reduceat(by_cand.take(seen, axis=0), first, axis=0)
    end_sees = np.concatenate([np.zeros_like(bp.sees), pack_pairs(ea, ec, (K, C)), bp.sees])
    layered = Net(g, net._Members(base.members, mem_tab), net._Links(strong, N), net._Links(weak, N), None)
    # a start of one candidate k (a candidate, or an ALS node whose digit has one place k): reaching k ON
    # in copy two places it
    one = np.where(valid.sum(axis=1) == 1, mem_tab.max(axis=1), C)
    twin = bp.node_of[np.concatenate([bp.single, one])]
    twin = np.where(twin >= 0, twin + M + K, -1)
    looped = np.flatnonzero(twin >= 0)
    return net.AlsNet(layered, {True: strong, False: weak}, base, M, K, table, ai.tolist(), (ad + 1).tolist(),
                   start_sees, end_sees, twin, hits, (looped, twin[looped], looped >> 6, (looped & 63).astype(np.uint64)))


POSITIONS = list(narrowings(seed=25, top95=6, rounds=6, start=False))


def same(a, b):
    return np.shape(a) == np.shape(b) and np.array_equal(a, b)


@pytest.mark.parametrize("max_size", [2, 4])
def test_the_compiled_net_is_the_numpy_one(max_size):
    nets = links = 0
    for grid in POSITIONS:
        want = als_net_numpy(grid, max_size)
        got = net.als_net(grid, max_size)
        assert (got is None) == (want is None)
        if want is None:
            continue
        assert (got.M, got.K, got.sets, got.digit) == (want.M, want.K, want.sets, want.digit)
        for kind in (True, False):
            assert all(same(a, b) for a, b in zip(got.preds[kind], want.preds[kind], strict=True))
        assert same(got.net.members.als, want.net.members.als)
        for name in ("start_sees", "end_sees", "twin", "hits"):
            assert same(getattr(got, name), getattr(want, name)), name
        assert all(same(a, b) for a, b in zip(got.loops, want.loops, strict=True))
        nets += 1
        links += len(want.preds[False][0])
    assert nets > 5 and links > 0


def test_the_base_parts_sight_is_the_nonzero_of_sees_all():
    """`_base_parts` takes the grouped net's `sight` as it was filled in by `grouped_net`
    instead of searching `sees_all` again: the same pairs, order and dtype as that search."""
    pairs = 0
    for grid in POSITIONS:
        base = grouped_net(grid)
        got = net._base_parts(grid).sight
        want = nonzero2(base.sees_all)
        assert len(got) == 2
        for x, y in zip(got, want):
            assert x.dtype == y.dtype and np.array_equal(x, y)
        pairs += len(want[0])
    assert pairs > 1000
