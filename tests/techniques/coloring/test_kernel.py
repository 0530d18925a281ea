"""The colouring tables' compiled parts (`techniques.coloring.kernel.color_tables` and `clusters`)
against the numpy and Python code they replaced, kept here as their oracles, on classic and
variant positions, with and without 3D Medusa's cell links."""

from __future__ import annotations

import numpy as np
import pytest

from linkgraph.bitops import pack_columns, unpack
from linkgraph.techniques.coloring.medusa import Colors
from tests.narrowings import narrowings


def tables_numpy(cc: Colors, medusa: bool) -> dict:
    """The former numpy body of `Colors.__init__` after the classes are laid out."""
    g = cc.geometry
    L, nodes, klass, starts, at = cc.L, cc.nodes, cc.klass, cc.starts, cc.at
    nl = len(L)
    C = g.number_of_candidates
    seen = unpack(np.bitwise_or.reduceat(g.sees_words[nodes], starts), C).take(L, axis=1)
    if not medusa:
        seen &= (L % g.size)[None, :] == (nodes[starts] % g.size)[:, None]
    twice = np.zeros(len(starts), dtype=bool)
    np.logical_or.at(twice, klass, seen[klass, at])
    mine = np.zeros_like(seen)
    mine[klass, at] = True
    emptied = np.full(len(starts), -1)
    members = cc.members
    if medusa:
        off = seen | mine.reshape(-1, 2, nl)[:, ::-1].reshape(seen.shape)
        left = pack_columns(~off, pad=False)
        kept = left[members[:, 0]]
        for j in range(1, members.shape[1]):
            kept |= left[members[:, j]]
        occupied = (members < nl).any(axis=1)
        hit = occupied[:, None] & ~unpack(kept, len(starts))
        emptied = np.where(hit.any(axis=0), hit.argmax(axis=0), -1)
    pairs = seen.reshape(-1, 2, nl)
    elim = pairs.all(axis=1) & ~mine.reshape(pairs.shape).any(axis=1)
    failing = (twice | (emptied >= 0)).reshape(-1, 2)
    return {"seen": seen, "mine": mine, "twice": twice, "emptied": emptied, "elim": elim, "failing": failing}


POSITIONS = list(narrowings(seed=24, top95=8, rounds=8, start=False))


@pytest.mark.parametrize("medusa", [True, False])
def test_the_compiled_tables_are_the_numpy_ones(medusa):
    found = {"twice": 0, "emptied": 0, "elim": 0}
    for grid in POSITIONS:
        cc = Colors(grid, medusa=medusa)
        if not cc.cl.count:
            continue
        want = tables_numpy(cc, medusa)
        for name, b in want.items():
            a = getattr(cc, name)
            assert a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b), name
        found["twice"] += int(want["twice"].sum())
        found["emptied"] += int((want["emptied"] >= 0).sum())
        found["elim"] += int(want["elim"].sum())
    assert found["twice"] and found["elim"] and (found["emptied"] or not medusa), found


# ---- the clusters ---------------------------------------------------------------------------
class ClustersPython:
    """The former `Clusters.__init__`: strong links, then a breadth-first two-colouring over dicts."""

    def __init__(self, grid, *, medusa: bool):
        g = grid.geometry
        live = grid.live
        members = g.set_members
        lm = live[members]
        two = lm.sum(axis=1) == 2
        if not medusa:
            two[: g.number_of_cells] = False
        sets = np.flatnonzero(two)
        pairs = members[sets][lm[sets]].reshape(-1, 2)
        adj: dict[int, list[tuple[int, int]]] = {}
        for s, (a, b) in zip(sets.tolist(), pairs.tolist()):
            adj.setdefault(a, []).append((b, s))
            adj.setdefault(b, []).append((a, s))
        self.adj = adj
        color: dict[int, int] = {}
        cluster: dict[int, int] = {}
        clusters: list[list[int]] = []
        for start in sorted(adj):
            if start in color:
                continue
            cid = len(clusters)
            color[start] = 0
            cluster[start] = cid
            nodes = [start]
            for k in nodes:
                other = 1 - color[k]
                for m, _ in adj[k]:
                    if m not in color:
                        color[m] = other
                        cluster[m] = cid
                        nodes.append(m)
            clusters.append(sorted(nodes))
        self.color, self.cluster, self.clusters = color, cluster, clusters
        order = sorted(color, key=lambda k: (2 * cluster[k] + color[k], k))
        self.nodes = np.array(order)
        self.klass = np.array([2 * cluster[k] + color[k] for k in order])


def cluster_positions():
    """The narrowings above, and every variant geometry along its solve path (16x16 included)."""
    import linkgraph as lg
    from tests.test_solver import VARIANTS

    yield from POSITIONS
    for g, text in VARIANTS:
        grid = lg.Grid.parse(text, geometry=g)
        for step in lg.solve(grid).steps:
            yield grid
            grid = grid.apply(step)


CLUSTER_POSITIONS = list(cluster_positions())


@pytest.mark.parametrize("medusa", [True, False])
def test_the_compiled_clusters_are_the_python_ones(medusa):
    from linkgraph.techniques.coloring.medusa import Clusters

    sizes = set()
    for grid in CLUSTER_POSITIONS:
        want, got = ClustersPython(grid, medusa=medusa), Clusters(grid, medusa=medusa)
        assert got.count == len(want.clusters)
        assert got.adj == want.adj and list(got.adj) == list(want.adj)  # links in set order
        assert got.color == want.color and got.cluster == want.cluster and got.clusters == want.clusters
        for name in ("nodes", "klass"):
            a, b = getattr(got, name), getattr(want, name)
            if len(b):
                assert a.dtype == b.dtype and np.array_equal(a, b), name
            else:
                assert len(a) == 0
        sizes.add(grid.size)
    assert {4, 9, 16} <= sizes



# ---- the weak hinges ------------------------------------------------------------------------
def hinge_found_numpy(grid) -> dict:
    """The former numpy search of `hinges._weak_hinges`: {(class, weak node): [(end, set X), ...]}."""
    from linkgraph.techniques.coloring.hinges import _geometry_tables
    from linkgraph.techniques.coloring.medusa import medusa_colors

    cc = medusa_colors(grid)
    if not cc.cl.count:
        return {}
    failing = cc.failing
    usable = ~failing.any(axis=1)
    one = failing.any(axis=1) & ~failing.all(axis=1)
    false_colors = 2 * np.flatnonzero(one) + failing[one].argmax(axis=1)
    medusa_out = cc.elim[usable].any(axis=0) | cc.mine[false_colors].any(axis=0)
    if not usable.any():
        return {}
    seen, mine = cc.seen, cc.mine
    swap = np.arange(len(seen)) ^ 1
    weak = seen[swap] & ~seen & ~mine & ~mine[swap] & ~medusa_out
    weak[np.repeat(~usable, 2)] = False
    g = grid.geometry
    touched, seen_bits, seen_m = _geometry_tables(g)
    live_bits = np.zeros(g.number_of_sets + 1, dtype=seen_m.dtype)
    live_bits[:-1] = grid.live[g.set_members] @ (1 << np.arange(g.size, dtype=np.int64))
    ends = (usable[cc.klass // 2] & weak.any(axis=1)[cc.klass]).nonzero()[0]
    a_end, w_end, k_end = cc.at[ends], cc.klass[ends], cc.nodes[ends]
    sets = touched[k_end]
    live_m = live_bits[sets]
    unseen = live_m & ~seen_bits[k_end]
    ie, js = np.nonzero((unseen != live_m) & (unseen != 0))
    js, unseen = sets[ie, js], unseen[ie, js]
    wt_w, wt_t = np.nonzero(weak)
    n_weak = np.bincount(wt_w, minlength=len(weak))
    first = np.cumsum(n_weak) - n_weak
    count = n_weak[w_end[ie]]
    p = np.repeat(np.arange(len(ie)), count)
    t = wt_t[np.repeat(first[w_end[ie]] - (np.cumsum(count) - count), count) + np.arange(len(p))]
    ok = (unseen[p] & ~seen_m[cc.L[t], js[p]]) == 0
    p, t = p[ok], t[ok]
    w = w_end[ie[p]]
    order = np.lexsort((t, w))
    found: dict = {}
    for key, a, s in zip(zip(w[order].tolist(), t[order].tolist()), a_end[ie[p[order]]].tolist(),
                         js[p[order]].tolist()):
        found.setdefault(key, []).append((a, s))
    return found


def test_the_compiled_weak_hinges_are_the_numpy_ones(monkeypatch):
    from linkgraph.techniques.coloring import hinges

    records = []
    real = hinges._hinge_step
    monkeypatch.setattr(hinges, "_hinge_step", lambda grid, cc, c, x, t, ends: records.append((2 * c + x, t, ends)))
    keys = ends = 0
    for grid in CLUSTER_POSITIONS:
        want = hinge_found_numpy(grid)
        records.clear()
        list(hinges._weak_hinges(grid))
        done, expected = set(), []
        for (w, t), hs in want.items():
            if t not in done:
                done.add(t)
                expected.append((w, t, hs))
        assert records == expected
        keys += len(want)
        ends += sum(len(v) for v in want.values())
    assert keys > 20 and ends > keys  # weak nodes with several hinge ends are met
    assert real is not None


def range_arrays_numpy(grid) -> tuple[np.ndarray, ...]:
    """The former numpy body of `rangetable._range_arrays` (and of the targets table
    `RangeTable` made from its rows)."""
    from linkgraph.techniques.coloring.rangetable import _pairs

    g = grid.geometry
    n, nc = g.size, g.number_of_cells
    box_h, line_h, box, inside, outside, targets, box_cells = _pairs(g)
    L = np.zeros((nc + 1, n), dtype=bool)
    L[:nc] = grid.live.reshape(nc, n)
    ok = L[inside].any(axis=1) & L[outside].any(axis=1) & L[targets].any(axis=1)
    ok &= (L[box_cells].sum(axis=1) >= 3)[box]
    p, d = np.nonzero(ok)
    order = np.lexsort((line_h[p], d, box_h[p]))
    p, d = p[order], d[order]
    C = g.number_of_candidates

    def places(cells: np.ndarray) -> np.ndarray:
        c = cells[p]
        return np.where(L[c, d[:, None]], c * n + d[:, None], C)

    tg = places(targets)
    full = np.zeros((len(p), C + 1), dtype=bool)
    full[np.arange(len(p))[:, None], tg] = True
    return nc + box_h[p] * n + d, nc + line_h[p] * n + d, places(inside), places(outside), tg, full[:, :C]


def test_the_compiled_range_table_is_the_numpy_one():
    from linkgraph.techniques.coloring.rangetable import _range_arrays

    sizes, kinds, ranges, padded = set(), set(), 0, 0
    for grid in [*POSITIONS, *narrowings(seed=31, top95=0, rounds=4, start=True)]:
        got, want = _range_arrays(grid), range_arrays_numpy(grid)
        for name, a, b in zip(("box_sets", "line_sets", "inside", "outside", "targets", "hit"), got, want):
            assert a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b), name
        sizes.add(grid.geometry.size)
        kinds |= {h.kind for h in grid.geometry.houses}
        ranges += len(want[0])
        padded += int((want[3] == grid.geometry.number_of_candidates).any(axis=1).sum())
    assert sizes == {4, 6, 9, 16} and {"diag", "window", "region"} <= kinds  # every geometry of the solver's tests
    assert ranges > 1000 and padded > 100  # ranges met, with dead places among their cells


def lock_words_numpy(on, off, inside, outside) -> np.ndarray:
    """The former numpy body of `RangeTable.lock_words`."""
    cleared = off[outside[:, 0]]
    for j in range(1, outside.shape[1]):
        cleared &= off[outside[:, j]]
    all_off = off[inside[:, 0]]
    settled = on[inside[:, 0]]
    for j in range(1, inside.shape[1]):
        all_off &= off[inside[:, j]]
        settled |= on[inside[:, j]]
    for j in range(outside.shape[1]):
        settled |= on[outside[:, j]]
    return cleared & ~all_off & ~settled


def ranged_numpy(hits, locked) -> np.ndarray:
    """The former numpy body of `ranges._ranged`."""
    w, i = np.nonzero(hits.T)
    out = np.zeros((hits.shape[1], locked.shape[1]), dtype=np.uint64)
    if len(w):
        starts = np.flatnonzero(np.r_[True, w[1:] != w[:-1]])
        out[w[starts]] = np.bitwise_or.reduceat(locked[i], starts)
    return out


def test_the_compiled_range_locks_are_the_numpy_ones():
    from linkgraph.bitops import pack_columns
    from linkgraph.techniques.coloring import ranges
    from linkgraph.techniques.coloring.medusa import medusa_colors
    from linkgraph.techniques.coloring.rangetable import RangeTable

    sizes, locks, ranged = set(), 0, 0
    for grid in [*POSITIONS, *narrowings(seed=31, top95=0, rounds=4, start=True)]:
        g = grid.geometry
        cc = medusa_colors(grid)
        table = RangeTable(grid)
        inside, outside, _ = table._rows
        M, seen = ranges._class_masks(grid, cc) if cc.cl.count else (np.zeros((0, g.number_of_candidates), bool),) * 2
        other = M.reshape(-1, 2, M.shape[1])[:, ::-1].reshape(M.shape)
        hits = (np.logical_or.reduceat(table.targets[:, cc.nodes], cc.starts, axis=1) if cc.cl.count
                else np.zeros((table.size, 0), dtype=bool))
        for on, off in ((ranges._premise_words(g.number_of_candidates), g.sees_words),
                        (pack_columns(M, pad=False), pack_columns(seen | other, pad=True))):
            want = lock_words_numpy(on, off, inside, outside)
            got = table.lock_words(on, off)
            assert got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want)
            locks += int(np.bitwise_count(want).sum())
            if hits.shape[1]:
                want_r, got_r = ranged_numpy(hits, want), ranges._ranged(hits, got)
                assert got_r.shape == want_r.shape and got_r.dtype == want_r.dtype and np.array_equal(got_r, want_r)
                ranged += int(np.bitwise_count(want_r).sum())
            sizes.add(g.size)
    assert sizes == {4, 6, 9, 16}
    assert locks > 1000 and ranged > 100  # premises lock ranges, and ranges hit colour classes


def test_the_compiled_range_locks_on_random_premises():
    # premises that need not turn OFF what their ON candidates see: the ON places off the
    # line count by themselves (with real premises an ON place off the line clears the line)
    from linkgraph.techniques.coloring.rangetable import RangeTable

    rng = np.random.default_rng(5)
    settled_off_line = 0
    for grid in POSITIONS[:12]:
        table = RangeTable(grid)
        inside, outside, _ = table._rows
        C = grid.geometry.number_of_candidates
        for _ in range(4):
            # sparse ON, dense OFF, so that ranges do lock
            on = rng.integers(0, 2**64, size=(C + 1, 3), dtype=np.uint64) & rng.integers(0, 2**64, size=(C + 1, 3), dtype=np.uint64)
            on &= rng.integers(0, 2**64, size=(C + 1, 3), dtype=np.uint64)
            off = rng.integers(0, 2**64, size=(C + 1, 3), dtype=np.uint64) | rng.integers(0, 2**64, size=(C + 1, 3), dtype=np.uint64)
            off |= rng.integers(0, 2**64, size=(C + 1, 3), dtype=np.uint64)
            on[C], off[C] = 0, ~np.uint64(0)
            want = lock_words_numpy(on, off, inside, outside)
            assert np.array_equal(table.lock_words(on, off), want)
            # the premises that only an ON place off the line keeps from locking a range
            on_line = np.zeros((len(inside), 3), dtype=np.uint64)
            on_off_line = np.zeros_like(on_line)
            for j in range(inside.shape[1]):
                on_line |= on[inside[:, j]]
            for j in range(outside.shape[1]):
                on_off_line |= on[outside[:, j]]
            free = lock_words_numpy(np.zeros_like(on), off, inside, outside)
            settled_off_line += int(np.bitwise_count(free & on_off_line & ~on_line).sum())
    assert settled_off_line > 50  # premises whose ON places off the line alone keep a range from locking


def test_the_compiled_range_hits_are_the_numpy_ones():
    from linkgraph.techniques.coloring import ranges
    from linkgraph.techniques.coloring.medusa import medusa_colors
    from linkgraph.techniques.coloring.rangetable import RangeTable

    sizes, hit = set(), 0
    for grid in [*POSITIONS, *narrowings(seed=31, top95=0, rounds=4, start=True)]:
        cc = medusa_colors(grid)
        table = RangeTable(grid)
        if not cc.cl.count:
            continue
        want = np.logical_or.reduceat(table.targets[:, cc.nodes], cc.starts, axis=1)  # the numpy form it replaced
        got = ranges._hits(table, cc)
        assert got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want)
        sizes.add(grid.geometry.size)
        hit += int(want.sum())
    assert sizes == {4, 6, 9, 16} and hit > 1000
