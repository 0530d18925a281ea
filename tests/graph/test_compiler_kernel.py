"""The compiled build of the literal digraph (`linkgraph.graph.kernel.literal_edges`, behind
`linkgraph.graph.compiler.compile_grid`) against the numpy build it replaced, kept here as its
oracle (STYLE.md §11): every array of the `LiteralGraph` (order, dtype and shape included),
the group nodes and the ALS cells, for every family choice, on classic positions (the start,
after the basic ladder, random sound narrowings), on every variant geometry of the solver's
tests (16x16 included) along their solve paths, and with planted faults that must fail it."""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.bitops import pack, popcount_table, unpack
from linkgraph.errors import check_choice
from linkgraph.graph import compiler
from linkgraph.graph.als import als_cells
from linkgraph.graph.compiled import F_ALS, F_CELL, F_GROUP, F_HOUSE, FAMILIES, LiteralGraph
from linkgraph.graph.compiler import compile_grid
from linkgraph.io import corpus_path, read_puzzles
from tests.graph.test_links import VARIANTS as LINK_VARIANTS
from tests.graph.test_links import sound_eliminations, variant_positions
from tests.test_solver import VARIANTS

_FAMW = compiler._FAMW
_Groups = compiler._Groups
_group_tables = compiler._group_tables
_set_texts = compiler._set_texts


def compile_grid_numpy(grid, *, families=FAMILIES, als_max_size=4):
    """The former `compile_grid` (numpy)."""
    check_choice("families", families, FAMILIES)
    fams = set(families)
    g = grid.geometry
    ncells = g.number_of_cells
    live = grid.live
    sm = g.set_members  # (S, n)
    lsm = live[sm]
    cnt = lsm.sum(axis=1)
    keep_set = cnt >= 2
    is_cell = np.arange(len(sm)) < ncells
    if "cell" not in fams:
        keep_set &= ~is_cell
    if "house" not in fams:
        keep_set &= is_cell
    # candidate nodes: live candidates in a set with another live member
    K = g.number_of_candidates
    flag = np.zeros(K + g.size, dtype=bool)  # a dead cell's slots at the end (table padding)
    flag[sm[cnt >= 2].ravel()] = True
    flag[:K] &= live
    cands = np.flatnonzero(flag)
    nc = len(cands)
    cand_node = np.full(K + g.size, -1, dtype=np.int64)
    cand_node[cands] = np.arange(nc)
    groups: list = []
    blocks: list[tuple] = []  # (src, dst, prio) literal arrays, in any order
    if "group" in fams:
        groups, gblocks = _group_links(grid, flag, cand_node, nc)
        blocks += gblocks
    # set X links: every ordered pair of live members of a kept set (weak), strong when the set has two;
    # the live members set by set, each paired with every member of its set but itself
    ent = np.flatnonzero(lsm)
    es = ent // g.size
    ok = keep_set.take(es)
    ent, es = ent[ok], es[ok]
    size = cnt.take(es)
    mine = np.repeat(np.arange(len(ent)), size)
    other = np.searchsorted(es, es).take(mine) + (np.arange(len(mine)) - np.repeat(np.cumsum(size) - size, size))
    ok = other != mine
    mine, other = mine[ok], other[ok]
    member = cand_node.take(sm.ravel().take(ent))
    a, b, via = member.take(mine), member.take(other), es.take(mine)
    prio = np.where(via < ncells, F_CELL * _FAMW, F_HOUSE * _FAMW) + via
    blocks.append((2 * a, 2 * b + 1, prio))
    two = cnt[via] == 2
    blocks.append((2 * a[two] + 1, 2 * b[two], prio[two]))
    als_cells = np.zeros((0, 1), dtype=np.int64)
    if "als" in fams and als_max_size >= 2:
        als_cells, ablocks = _als_links(grid, cand_node, als_max_size, g.number_of_sets)
        blocks += ablocks
    L = 2 * (nc + len(groups))
    src, dst, prio = (np.concatenate(x) for x in zip(*blocks))
    ok = src != dst
    src, dst, prio = src[ok], dst[ok], prio[ok]
    # order by (src, dst), keeping the lowest priority of each pair: one int64 key, sorted
    lb, pb_ = max(L - 1, 1).bit_length(), int(prio.max(initial=0)).bit_length()
    if 2 * lb + pb_ < 63:
        key = (((src << lb) | dst) << pb_) | prio
        key.sort()
        sd = key >> pb_
        first = np.ones(len(key), dtype=bool)
        np.not_equal(sd[1:], sd[:-1], out=first[1:])
        key = key[first]
        sd = sd[first]
        src, dst, prio = sd >> lb, sd & ((1 << lb) - 1), key & ((1 << pb_) - 1)
    else:
        idx = np.lexsort((prio, dst, src))
        src, dst, prio = src[idx], dst[idx], prio[idx]
        first = np.r_[True, (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])] if len(src) else np.zeros(0, dtype=bool)
        src, dst, prio = src[first], dst[first], prio[first]
    fam = prio // _FAMW
    vias: list = list(_set_texts(g))
    vias += [None] * len(als_cells)
    return LiteralGraph(
        grid=grid,
        node_cands=cands,
        groups=groups,
        src=src.astype(np.int32),
        dst=dst.astype(np.int32),
        kind=(src & 1).astype(np.uint8),  # weak links leave an ON literal, strong ones an OFF literal
        family=fam.astype(np.uint8),
        via=(prio - fam * _FAMW).astype(np.int32),
        vias=vias,
        cand_node=cand_node[:K],
        als_cells=als_cells,
    )


def _group_links(grid, flag, cand_node, nc):
    """Group nodes (digit d in 2+ cells of a box-line intersection) and their link blocks.

    For each group and each of its two sets (line and box, digit d), the set's
    live members outside the intersection are its weak partners (strong when
    there is one); two groups of one set are linked when they share no
    candidate (strong when the other is all that is left).
    """
    g = grid.geometry
    n = g.size
    ncells = g.number_of_cells
    T = _group_tables(g)
    I = len(T.icand0)
    if not I:
        return [], []
    live = flag  # live candidates with a node, plus a dead slot (a group's members always have nodes)
    dig = np.arange(n)
    has = live[T.icand0[:, :, None] + dig]  # (I, w, n)
    mask = (has * T.bit[None, :, None]).sum(axis=1)  # (I, n): the cells of the intersection holding the digit, as bits
    size = popcount_table(T.bit.size)[mask]
    gi, gd = np.nonzero(size >= 2)
    if not len(gi):
        return [], []
    gm = mask[gi, gd]
    order = np.argsort(gd * T.rank.size + T.rank[gi, gm], kind="stable")  # sort_key order: digit, then cells
    gi, gd, gm = gi[order], gd[order], gm[order]
    G = len(gi)
    gsize = size[gi, gd]
    groups = _Groups(g, T.sub_cells[gi, gm], gd)
    node = nc + np.arange(G)
    gid = np.full((I, n), -1, dtype=np.int64)
    gid[gi, gd] = np.arange(G)
    blocks = []
    # group and candidate: the set's live members outside the intersection
    oc = T.out0[gi] + gd[:, None, None]  # (G, 2, m)
    others = live[oc]
    ocnt = others.sum(axis=2)  # (G, 2)
    r, k, j = np.nonzero(others)
    o = cand_node[oc[r, k, j]]
    a = node[r]
    via = ncells + T.house[gi[r], k] * n + gd[r]
    prio = F_GROUP * _FAMW + via
    cat = np.concatenate
    blocks.append((cat((2 * a, 2 * o)), cat((2 * o + 1, 2 * a + 1)), cat((prio, prio))))
    one = ocnt[r, k] == 1
    a1, o1, p1 = a[one], o[one], prio[one]
    blocks.append((cat((2 * a1 + 1, 2 * o1 + 1)), cat((2 * o1, 2 * a1)), cat((p1, p1))))
    # two groups of one set, sharing no candidate
    pi1, pi2, pk = T.pairs.T
    isg = gid >= 0
    q, d = np.nonzero(isg[pi1] & isg[pi2])
    if len(q):
        keep = ~live[T.shared0[q] + d[:, None]].any(axis=1)
        q, d = q[keep], d[keep]
        ga, gb = gid[pi1[q], d], gid[pi2[q], d]
        k1 = pk[q]
        vs = ncells + T.house[pi1[q], k1] * n + d
        ps = F_GROUP * _FAMW + vs
        na, nb = node[ga], node[gb]
        blocks.append((2 * na, 2 * nb + 1, ps))
        eq = ocnt[ga, k1] == gsize[gb]
        blocks.append((2 * na[eq] + 1, 2 * nb[eq], ps[eq]))
    return groups, blocks


def _als_links(grid, cand_node, max_size, base):
    """ALS links: -a -> +b (b's digit has one place left) and -a -> -c (c sees all of its digit).

    Returns the ALS cells ``(A, w)`` padded with -1 (ALS ``a`` has via code
    ``base + a``) and the link blocks.
    """
    g = grid.geometry
    n = g.size
    ncells = g.number_of_cells
    k = g.house_cells.shape[1]
    w = min(max_size, k - 1)
    if w < 2:
        return np.zeros((0, 1), dtype=np.int64), []
    cands = grid.cands
    found = als_cells(grid, max_size=w, min_size=2)  # by size, then cells: the order of ALS via codes
    if not len(found):
        return np.zeros((0, 1), dtype=np.int64), []
    cells = np.ascontiguousarray(found.T)  # (w, A), padded with ncells
    A = len(found)
    P = np.concatenate((cands, np.zeros((1, n), dtype=bool))).take(cells, axis=0)  # (w, A, n)
    cnt = P.sum(axis=0)  # (A, n)
    pos = (P * cells[:, :, None]).sum(axis=0)  # (A, n): the cell of a single digit (used only there)
    single = cnt == 1
    prio = F_ALS * _FAMW + base + np.arange(A)
    blocks = []
    # -a -> +b: x and y single in different cells
    sa, sx = np.nonzero(single)
    place = pos[sa, sx]
    r, y = np.nonzero(single.take(sa, axis=0) & (pos.take(sa, axis=0) != place[:, None]))
    blocks.append((2 * cand_node[place.take(r) * n + sx.take(r)] + 1, 2 * cand_node[pos[sa.take(r), y] * n + y],
                   prio.take(sa.take(r))))
    # -a -> -c: c holds digit y outside the ALS and sees every ALS cell holding y
    ay = np.flatnonzero(cnt)  # a * n + y
    if len(ay):
        ea, ey = ay // n, ay % n
        peers = g.peer_words  # (cells + 1, words); the padding row: all ones
        holder = np.where(P.reshape(w, -1).take(ay, axis=1), cells.take(ea, axis=1), ncells)  # (w, rows)
        seen = peers.take(holder[0], axis=0)
        for j in range(1, w):
            seen &= peers.take(holder[j], axis=0)
        seen &= pack(grid.cands.T).take(ey, axis=0)
        flat = np.flatnonzero(unpack(seen, ncells))
        r = flat // ncells
        ec = flat - r * ncells
        ea, ey = ea.take(r), ey.take(r)
        # every other single digit x of the ALS: -x -> -c
        other = single.take(ea, axis=0)
        other.ravel()[np.arange(0, len(ea) * n, n) + ey] = False
        flat = np.flatnonzero(other)
        r = flat // n
        ax = ea.take(r) * n + (flat - r * n)  # a * n + x
        blocks.append((2 * cand_node[pos.ravel().take(ax) * n + ax % n] + 1,
                       2 * cand_node[ec.take(r) * n + ey.take(r)] + 1, prio.take(ax // n)))
    return np.where(cells < ncells, cells, -1).T, blocks



# ---- positions ---------------------------------------------------------------------------------
def positions():
    """Classic positions (the start, after the basic ladder, a random sound narrowing) and every
    variant geometry along its solve path."""
    rng = np.random.default_rng(20)
    for line in read_puzzles(corpus_path("top95"), limit=6):
        grid = lg.Grid.parse(line.puzzle)
        solution = lg.oracle.solve_unique(grid)
        yield grid
        ready = lg.prepare(grid)
        yield ready
        yield sound_eliminations(ready, solution, rng, 0.3)
    for g, text in VARIANTS:
        grid = lg.Grid.parse(text, geometry=g)
        steps = lg.solve(grid, ladder="basic").steps
        for i, step in enumerate(steps):
            if i % max(1, len(steps) // 5) == 0:
                yield grid
            grid = grid.apply(step)
    for name in LINK_VARIANTS:
        for grid, _ in variant_positions(name, 2):
            yield grid


POSITIONS = list(positions())


def same(got: LiteralGraph, want: LiteralGraph) -> None:
    for name in ("node_cands", "src", "dst", "kind", "family", "via", "cand_node", "als_cells"):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
    assert got.vias == want.vias
    assert list(got.groups) == list(want.groups)


FAMILY_CHOICES = [FAMILIES, ("cell", "house"), ("cell",), ("house", "group"), ("group", "als"), ()]


@pytest.mark.parametrize("families", FAMILY_CHOICES, ids=lambda f: "+".join(f) or "none")
def test_compiled_build_is_the_numpy_build(families):
    edges = groups = als = 0
    for grid in POSITIONS:
        want = compile_grid_numpy(grid, families=families)
        same(compile_grid(grid, families=families), want)
        edges += len(want.src)
        groups += len(want.groups)
        als += len(want.als_cells)
    assert edges > 0 or not families
    assert groups > 0 or "group" not in families
    assert als > 0 or "als" not in families


@pytest.mark.parametrize("size", [2, 3])
def test_compiled_build_with_small_als(size):
    for grid in POSITIONS[::3]:
        same(compile_grid(grid, als_max_size=size), compile_grid_numpy(grid, als_max_size=size))


def test_sixteen_by_sixteen_is_covered():
    assert any(grid.size == 16 for grid in POSITIONS)
    assert sum(grid.size != 9 for grid in POSITIONS) >= 20


def _planted(monkeypatch, kernel_name, fault):
    """Run the compiled build with the kernel's inputs changed by `fault`; the oracle must see it."""
    from linkgraph.graph import kernel

    real = getattr(kernel, kernel_name)

    def faulty(*args):
        return real(*fault(list(args)))

    monkeypatch.setattr(kernel, kernel_name, faulty)


@pytest.mark.parametrize("fault", ["no-house", "no-shared-test", "peer-words-ones", "als-base", "group-rank"])
def test_planted_faults_fail_the_oracle(monkeypatch, fault):
    def change(args):
        # args: live, sm, ncells, cell, house, group, icand0, rank, house, out0, pairs, shared0, als,
        # cands, peer_words, als_base, famw
        if fault == "no-house":
            args[4] = False
        elif fault == "no-shared-test":
            args[11] = np.full_like(args[11], args[0].shape[0])  # every shared slot dead
        elif fault == "peer-words-ones":
            args[14] = np.full_like(args[14], np.iinfo(np.uint64).max)
        elif fault == "als-base":
            args[15] = args[15] + 1
        elif fault == "group-rank":
            args[7] = args[7][:, ::-1].copy()
        return args

    _planted(monkeypatch, "literal_edges", change)
    with pytest.raises(AssertionError):
        for grid in POSITIONS:
            same(compile_grid(grid), compile_grid_numpy(grid))


# ---- the ALS cells shared with the ALS rungs' table ------------------------------------------
def test_als_cells_shared_with_the_als_table():
    """`compile_grid` reads its ALS rows from the per-grid enumeration the ALS table made first
    (a solve's walk reaches the ALS rungs before the chain search): the same graph as the
    oracle's own `als_cells(min_size=2)`, and the table's rows are that enumeration."""
    from linkgraph.techniques.als.table import als_table

    shared = 0
    for grid in POSITIONS:
        grid = lg.Grid(grid.geometry, grid.live.copy(), grid.givens, grid.placed)  # a cold cache
        w = min(4, grid.geometry.house_cells.shape[1] - 1)
        table = als_table(grid, max_size=w)
        same(compile_grid(grid), compile_grid_numpy(grid))
        assert table.cells is compiler.grid_als_cells(grid, w)
        shared += len(table.cells) > 0
    assert shared > 20


@pytest.mark.parametrize("fault", ["shifted-rows", "cut-one-late"])
def test_planted_als_row_faults_fail_the_oracle(monkeypatch, fault):
    real = compiler.grid_als_cells

    def faulty(grid, max_size):
        rows = real(grid, max_size)
        if fault == "shifted-rows":
            return rows[1:]
        # the first two-cell set padded as a one-cell one: the cut after the one-cell rows is one late
        ncells = grid.geometry.number_of_cells
        k = int((rows[:, 1] >= ncells).sum())
        rows = rows.copy()
        rows[k:k + 1, 1:] = ncells
        return rows

    monkeypatch.setattr(compiler, "grid_als_cells", faulty)
    with pytest.raises(AssertionError):
        for grid in POSITIONS:
            same(compile_grid(grid), compile_grid_numpy(grid))
