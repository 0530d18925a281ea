"""The net Structure's depth-1 and depth-2 tables against the plain constructions they replaced.

`Structure._build_groups` finds the locking pairs (A, B) from the geometry's house
intersections in one compiled call (`linkgraph.nets.kernel.group_pairs`); the oracles below
are the two earlier forms, the Python one over bit masks it replaced (`_groups_in_python`)
and before it an incidence matrix product per digit over every pair of house sets (STYLE.md §11: the faster version
keeps the simple one as its test oracle). Both must give the same pairs in the same order
with the same member lists, on the positions of every geometry, at the start and after
the basic ladder, and on random sound narrowings of them.

`Structure._build_patterns` enumerates the subset and fish patterns in one compiled call
(`linkgraph.nets.kernel.patterns`); `_patterns_in_python` is the Python enumeration it
replaced, dictionaries and Python int masks: both must give the same patterns in the same
order, the same cover columns and the same member tables on the same positions.

`Structure.sees_pad` reads each kept candidate's peers off a per-geometry table; the
oracle is the form it replaced, the nonzero entries of the ``(L, L)`` block of
`Geometry.sees` between the kept candidates.
"""

from __future__ import annotations

import random
from itertools import filterfalse

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.bitops import bits
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.nets.search import structure
from linkgraph.nets.structure import Structure
from linkgraph.oracle import solve_unique
from tests.test_solver import VARIANTS


def _row_lists(m: np.ndarray) -> list[list[int]]:
    return [np.flatnonzero(row).tolist() for row in m]


def _groups_by_matrices(st: Structure) -> dict:
    """Pairs (A, B) of same-digit house sets with |A & B| >= 2 and B - A not empty, by digit
    (in order of the digits' first sets), then by A's and B's place among that digit's sets."""
    g = st.geometry
    house = [j for j in range(len(st.sets)) if not g.is_cell_set(st.sets[j])]
    by_digit: dict[int, list[int]] = {}
    for j in house:
        by_digit.setdefault(int(st.sets[j] - g.number_of_cells) % g.size, []).append(j)
    Mb = st.Mb
    Mi = Mb.astype(np.int32)
    ra: list[int] = []
    rb: list[int] = []
    for js in by_digit.values():
        sub = Mi[:, js]
        inter = sub.T @ sub
        cond = (inter >= 2) & (sub.sum(axis=0)[None, :] > inter)
        np.fill_diagonal(cond, False)
        ia, ib = np.nonzero(cond)
        ra += [js[i] for i in ia.tolist()]
        rb += [js[i] for i in ib.tolist()]
    A, B = Mb[:, ra].T, Mb[:, rb].T
    return {"pairs": list(zip(ra, rb)), "outB": np.nonzero(B & ~A), "inter": _row_lists(A & B),
            "outA": _row_lists(A & ~B)}


def _groups_in_python(self: Structure) -> dict:
    """The Python `Structure._build_groups` that `linkgraph.nets.kernel.group_pairs` replaced:
    pairs (A, B) of same-digit sets sharing >= 2 live members, B with a member outside A,
    by digit (in the order the digits' first sets come), then A, then B: ``pairs``, and per
    pair ``inter`` (A & B), ``outA`` (A - B) as lists of local candidates ascending, ``outB`` (B - A)
    as sorted (pair, candidate) arrays.

    Only sets of two houses that share 2 or more cells (`Geometry.intersections`) can share
    2 members; their members are Python int masks, so each such pair is a few bit operations.
    """
    g = self.geometry
    n, ncells = g.size, g.number_of_cells
    glob_to_local = self.set_local
    members = self.members_list
    masks: dict[int, int] = {}  # local house set -> its members as a bit mask
    by_digit: dict[int, list[int]] = {}
    sets = self.sets.tolist()
    for j, glob in enumerate(sets):
        if glob >= ncells:
            m = 0
            for k in members[j]:
                m |= 1 << k
            masks[j] = m
            by_digit.setdefault((glob - ncells) % n, []).append(j)
    partners: dict[int, list[int]] = {}  # house -> the houses sharing 2+ cells with it
    for (h1, h2), _ in g.intersections:
        partners.setdefault(h1, []).append(h2)
        partners.setdefault(h2, []).append(h1)
    ra: list[int] = []
    rb: list[int] = []
    inter: list[list[int]] = []
    out_a: list[list[int]] = []
    pb: list[int] = []
    kb: list[int] = []
    for d, js in by_digit.items():
        for a in js:
            ma = masks[a]
            h = (sets[a] - ncells) // n
            bs = []
            for h2 in partners.get(h, ()):
                b = glob_to_local.get(ncells + h2 * n + d)
                if b is not None:
                    bs.append(b)
            bs.sort()
            for b in bs:
                mb = masks[b]
                both = ma & mb
                if both & (both - 1) and mb & ~ma:  # 2+ shared members, and B has one outside A
                    kb += (ks := bits(mb & ~ma))
                    pb += [len(ra)] * len(ks)
                    ra.append(a)
                    rb.append(b)
                    inter.append(bits(both))
                    out_a.append(bits(ma & ~mb))
    return {
        "pairs": list(zip(ra, rb)),
        "outB": (np.array(pb, dtype=np.int64), np.array(kb, dtype=np.int64)),
        "inter": inter,
        "outA": out_a,
    }


def _patterns_in_python(self: Structure) -> dict:
    """Sheets of (bases, covers) and their patterns of two or three bases, in Python."""
    g = self.geometry
    n = g.size
    sheets = []  # (family, [(base set local, {member local: cover set local})])
    glob_to_local = self.set_local
    members = self.members_list
    digit = (self.cands % n).tolist()  # digit - 1 of each local candidate
    cell = (self.cands // n).tolist()  # its cell index
    for h in range(len(g.houses)):
        cells = g.house_cells[h]
        hd = [g.number_of_cells + h * n + d for d in range(n)]
        naked = []
        for c in cells:
            if int(c) in glob_to_local:
                mp = {}
                for k in members[glob_to_local[int(c)]]:
                    d = digit[k]
                    if hd[d] in glob_to_local:
                        mp[k] = glob_to_local[hd[d]]
                naked.append((glob_to_local[int(c)], mp))
        sheets.append(("subset", naked))
        hidden = []
        for s in hd:
            if s in glob_to_local:
                mp = {k: glob_to_local[cell[k]] for k in members[glob_to_local[s]]}
                hidden.append((glob_to_local[s], mp))
        sheets.append(("subset", hidden))
    lines = {"row": [], "col": []}
    for h, house in enumerate(g.houses):
        if house.kind in lines:
            lines[house.kind].append(h)
    for base_kind, cover_kind in (("row", "col"), ("col", "row")):
        for d in range(n):
            cover_of_cell = {}
            for h in lines[cover_kind]:
                s = g.number_of_cells + h * n + d
                if s in glob_to_local:
                    for c in g.house_cells[h]:
                        cover_of_cell[int(c)] = glob_to_local[s]
            fish = []
            for h in lines[base_kind]:
                s = g.number_of_cells + h * n + d
                if s in glob_to_local:
                    mp = {k: cover_of_cell[cell[k]] for k in members[glob_to_local[s]]}
                    fish.append((glob_to_local[s], mp))
            sheets.append(("fish", fish))
    pats = []  # (family, bases, covers)
    L = self.size
    for family, bases in sheets:
        usable = [b for b in bases if len(b[1]) >= 2]
        masks = []  # covers touched by each base, as a bit mask over cover set indices
        for _, mp in usable:
            m = 0
            for c in mp.values():
                m |= 1 << c
            masks.append(m)
        nu = len(usable)
        for i in range(nu):
            for j in range(i + 1, nu):
                m = masks[i] | masks[j]
                if 2 <= m.bit_count() <= 4:
                    pats.append((family, (usable[i], usable[j]), bits(m)))
        for i in range(nu):
            for j in range(i + 1, nu):
                mij = masks[i] | masks[j]
                if mij.bit_count() > 5:
                    continue  # a third base only adds covers
                for k in range(j + 1, nu):
                    m = mij | masks[k]
                    if 3 <= m.bit_count() <= 5:
                        pats.append((family, (usable[i], usable[j], usable[k]), bits(m)))
    # matrices: for pattern p, cover columns; member k of a base -> cover index
    P = len(pats)
    col_owner: list[int] = []
    a_rows: list[int] = []  # (member, column) pairs of A
    a_cols: list[int] = []
    t_cols: list[int] = []  # (column, cover member outside every base) pairs of T
    t_ks: list[int] = []
    members = self.members_list
    col = 0
    for p, (family, combo, covers) in enumerate(pats):
        in_base = set()
        for _, mp in combo:
            in_base.update(mp)
        pos = dict(zip(covers, range(col, col + len(covers))))
        for _, mp in combo:
            a_rows += mp
            a_cols += map(pos.__getitem__, mp.values())
        col_owner += [p] * len(covers)
        outside = in_base.__contains__
        for c in covers:
            out = list(filterfalse(outside, members[c]))
            t_ks += out
            t_cols += [col] * len(out)
            col += 1
    K = len(col_owner)
    owner = np.array(col_owner, dtype=np.int32)
    # A: (cover column, base member) pairs by column, then member (each member is in one
    # base of a pattern and has one cover); T: (cover column, cover member outside every
    # base) pairs, made in that order. Sparse: a dense (L, K) matrix cost more to fill and
    # to scan than the whole enumeration above.
    a_cols_arr = np.array(a_cols, dtype=np.int64)
    a_rows_arr = np.array(a_rows, dtype=np.int64)
    order = np.lexsort((a_rows_arr, a_cols_arr))
    A = (a_cols_arr[order], a_rows_arr[order])
    T = (np.array(t_cols, dtype=np.int64), np.array(t_ks, dtype=np.int64))
    sizes = np.array([len(combo) for _, combo, _ in pats], dtype=np.float32)
    return {"pats": pats, "A": A, "owner": owner, "T": T, "sizes": sizes, "P": P, "K": K}


def _positions():
    rng = random.Random(20)
    cases = [(lg.geometry.classic(), p.puzzle) for p in read_puzzles(corpus_path("top1465"), limit=300)][::60]
    cases += [v for v in VARIANTS if v[0].size <= 9]
    for g, puzzle in cases:
        grid = lg.Grid.parse(puzzle, geometry=g)
        solution = solve_unique(grid)
        n = g.size
        for pos in (grid, lg.prepare(grid)):
            yield pos
            ks = [int(k) for k in np.flatnonzero(pos.live) if solution[k // n] != k % n + 1]
            live = pos.live.copy()
            live[rng.sample(ks, len(ks) // 3)] = False
            yield lg.Grid(g, live, pos.givens, pos.placed)


@pytest.mark.parametrize("grid", list(_positions()), ids=lambda grid: grid.geometry.name)
def test_groups_are_those_of_the_matrix_construction(grid):
    st = Structure(grid, depth=1)
    got = st._groups
    for want in (_groups_by_matrices(st), _groups_in_python(st)):
        assert got["pairs"] == want["pairs"]
        assert got["inter"] == want["inter"] and got["outA"] == want["outA"]
        assert [a.tolist() for a in got["outB"]] == [a.tolist() for a in want["outB"]]
    assert all(a.dtype == np.int64 for a in got["outB"])
    assert len(got["pairs"]) > 0 or grid.is_solved()


def _sees_pad_by_matrix(st: Structure) -> np.ndarray:
    rows, cols = np.nonzero(st.geometry.sees[np.ix_(st.cands, st.cands)])
    L = st.size
    n = np.bincount(rows, minlength=L)
    out = np.full((L, max(int(n.max(initial=0)), 1)), L, dtype=np.int64)
    out[rows, np.arange(len(rows)) - np.repeat(np.cumsum(n) - n, n)] = cols
    return out


@pytest.mark.parametrize("grid", list(_positions()), ids=lambda grid: grid.geometry.name)
def test_sees_pad_is_the_matrix_construction(grid):
    st = Structure(grid)
    got, want = st.sees_pad, _sees_pad_by_matrix(st)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert (got == want).all()
    assert got.flags.c_contiguous
    assert (got < st.size).any() or grid.is_solved()


def _tables_groups_from_lists(st: Structure) -> tuple:
    """The engine's `Tables.groups` as it was built from the lists of ``outA``: the pairs
    with members of A outside B, which pairs have none, those members end to end and where
    each pair's start, and the (pair, target) pairs sorted by target."""
    gr = st._groups
    nonempty = [i for i, x in enumerate(gr["outA"]) if len(x)]
    always = np.array([not len(x) for x in gr["outA"]], dtype=bool)
    lists = [gr["outA"][i] for i in nonempty]
    lens = np.array([len(x) for x in lists], dtype=np.int64)
    idx = np.concatenate([np.asarray(x, dtype=np.int64) for x in lists]) if lists else np.zeros(0, np.int64)
    start = (np.r_[0, np.cumsum(lens)[:-1]] if lists else np.zeros(0, np.int64)).astype(np.int64)
    ps, ks = gr["outB"]
    order = np.argsort(ks, kind="stable")
    src, k = ps[order], ks[order]
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]]) if len(k) else np.zeros(0, dtype=np.int64)
    return np.array(nonempty, dtype=np.int64), always, idx, start, (src, k, starts, k[starts])


@pytest.mark.parametrize("grid", list(_positions()), ids=lambda grid: grid.geometry.name)
def test_the_engine_reads_the_groups_as_the_lists_give_them(grid):
    """`Tables.groups` from the flat ``outA_flat`` arrays: the arrays the lists gave."""
    st = Structure(grid, depth=1)
    got, want = st.tables.groups, _tables_groups_from_lists(st)
    flat = [*got[:4], *got[4]]
    for x, y in zip(flat, [*want[:4], *want[4]], strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y)
    assert len(got[2]) > 0 or grid.is_solved()


def _by_target_in_python(st: Structure) -> dict:
    """The Python `Structure._by_target` the sorted arrays replaced: per target, its patterns
    in the order of the (column, target) pairs, each once."""
    pt = st._patterns
    cols, ks = pt["T"]
    by: dict[int, list[int]] = {}
    for c, kk in zip(cols.tolist(), ks.tolist()):
        p = int(pt["owner"][c])
        lst = by.setdefault(kk, [])
        if not lst or lst[-1] != p:
            lst.append(p)
    return by


def _places_from_dicts(st: Structure, p: int) -> tuple[list[int], list[int]]:
    """The former `Structure.pattern_places`: each base's members in member order, their
    covers read from the pattern tuple's member -> cover maps."""
    ms: list[int] = []
    cs: list[int] = []
    for base, mp in st._patterns["pats"][p][1]:
        for m in st.members_list[base]:
            ms.append(m)
            cs.append(mp[m])
    return ms, cs


@pytest.mark.parametrize("grid", list(_positions())[::2], ids=lambda grid: grid.geometry.name)
def test_the_pattern_tables_the_proofs_read_are_the_python_ones(grid):
    st = Structure(grid, depth=2)
    assert st._by_target == _by_target_in_python(st)
    pats = st._patterns["pats"]
    for p in range(len(pats)):
        assert st.pattern_places(p) == _places_from_dicts(st, p)
        assert pats.size(p) == len(pats[p][1])
    assert len(pats) > 0 or grid.is_solved()


@pytest.mark.parametrize("grid", list(_positions())[::2], ids=lambda grid: grid.geometry.name)
def test_patterns_are_those_of_the_python_enumeration(grid):
    st = Structure(grid, depth=2)
    got, want = st._patterns, _patterns_in_python(st)
    assert (got["P"], got["K"]) == (want["P"], want["K"]) and len(got["pats"]) == want["P"]
    assert list(got["pats"]) == want["pats"]
    for key in ("A", "T"):
        assert [a.tolist() for a in got[key]] == [a.tolist() for a in want[key]]
    assert got["owner"].tolist() == want["owner"].tolist() and got["sizes"].tolist() == want["sizes"].tolist()
    assert want["P"] > 0 or grid.is_solved()


def test_a_group_pair_by_hand():
    """Digit 1 only in r1c1, r1c2, r2c1, r1c5, r5c5 and r9c9: row 1 and box 1 share r1c1 and
    r1c2, and each has a place outside the other (r1c5, r2c1), so both orders are pairs; the
    pair (row 1, box 1) locks r2c1 through row 1's outside member r1c5."""
    grid = lg.Grid.empty()
    g = grid.geometry
    live = grid.live.copy()
    ones = [g.index(lg.Candidate.parse(f"r{r}c{c}#1")) for r in range(1, 10) for c in range(1, 10)]
    for k in ones:
        live[k] = False
    for name in ("r1c1#1", "r1c2#1", "r2c1#1", "r1c5#1", "r5c5#1", "r9c9#1"):
        live[g.index(lg.Candidate.parse(name))] = True
    st = Structure(lg.Grid(g, live), depth=1)
    text = {(st.set_text(a), st.set_text(b)) for a, b in st._groups["pairs"]}
    assert ("r1#1", "b1#1") in text and ("b1#1", "r1#1") in text
    p = st._groups["pairs"].index(next(x for x in st._groups["pairs"]
                                        if (st.set_text(x[0]), st.set_text(x[1])) == ("r1#1", "b1#1")))
    assert [str(st.candidate(k)) for k in st._groups["inter"][p]] == ["r1c1#1", "r1c2#1"]
    assert [str(st.candidate(k)) for k in st._groups["outA"][p]] == ["r1c5#1"]


def test_the_net_rungs_of_one_depth_share_a_structure():
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    assert structure(grid, 1) is structure(grid, 1)
    assert structure(grid, 1) is not structure(grid, 2)
    assert structure(grid, 2).depth == 2 and structure(grid, 2)._patterns is not None


@pytest.mark.parametrize("grid", list(_positions())[::3], ids=lambda grid: grid.geometry.name)
def test_a_structure_lent_the_tables_of_another_depth_is_the_one_built_alone(grid):
    """`Structure(grid, depth=d, base=...)` (what `structure` does when a lower depth looked at
    the grid first) has the tables, pairs and patterns of `Structure(grid, depth=d)`."""
    def tables(st):
        out = [st.depth, st.cands.tolist(), st.local.tolist(), st.sets.tolist(), st.mem_pad.tolist(),
               st.cs_pad.tolist(), st.members_list, st.cand_sets_list, st.sees_pad.tolist(),
               st.strong_tables[0].tolist(), [st.set_text(j) for j in range(len(st.sets))]]
        if st._groups is not None:
            out += [st._groups["pairs"], st._groups["inter"], st._groups["outA"],
                    [a.tolist() for a in st._groups["outB"]]]
        if st._patterns is not None:
            pt = st._patterns
            out += [list(pt["pats"]), pt["owner"].tolist(), [a.tolist() for a in pt["A"]], [a.tolist() for a in pt["T"]]]
        return out

    for d0, d in ((0, 1), (0, 2), (1, 2), (2, 0), (1, 0)):
        base = Structure(grid, depth=d0)
        base.members_list, base.sees_pad  # noqa: B018 (derived forms the base lends when it has them)
        lent = Structure(grid, depth=d, base=base)
        assert lent.cands is base.cands
        assert tables(lent) == tables(Structure(grid, depth=d))
    live = grid.live.copy()
    live[np.flatnonzero(live)[0]] = False
    other = lg.Grid(grid.geometry, live, grid.givens, grid.placed)  # a base of another grid lends nothing
    assert tables(Structure(grid, depth=1, base=Structure(other))) == tables(Structure(grid, depth=1))


def _tables_by_numpy(grid: lg.Grid) -> tuple:
    """The kept candidates, local indices, sets and padded member and set tables of a
    structure, as numpy built them before `kernel.structure_tables` (its oracle)."""
    from linkgraph.nets.structure import _cand_set_table

    g = grid.geometry
    live = grid.live
    sm = g.set_members
    count = live[sm].sum(axis=1)
    flag = np.zeros(g.number_of_candidates, dtype=bool)
    flag[sm[count >= 2].ravel()] = True
    keep = live & flag
    cands = np.flatnonzero(keep).astype(np.int32)
    L = len(cands)
    local = np.full(g.number_of_candidates, -1, dtype=np.int32)
    local[cands] = np.arange(L, dtype=np.int32)
    kept = keep[sm]
    sets = np.flatnonzero(kept.any(axis=1)).astype(np.int32)
    S = len(sets)
    set_local = np.full(len(sm) + 1, S, dtype=np.int64)
    set_local[sets] = np.arange(S)
    mem = np.where(kept[sets], local[sm[sets]], L).astype(np.int64)
    mem.sort(axis=1)
    width = int(kept[sets].sum(axis=1).max()) if S else 1
    cs = set_local[_cand_set_table(g)[cands]]
    cs.sort(axis=1)
    return cands, local, sets, mem[:, : max(width, 1)], cs


@pytest.mark.parametrize("grid", list(_positions()), ids=lambda grid: grid.geometry.name)
def test_the_compiled_tables_are_the_numpy_ones(grid):
    st = Structure(grid)
    want = _tables_by_numpy(grid)
    got = (st.cands, st.local, st.sets, st.mem_pad, st.cs_pad)
    for x, y in zip(got, want):
        assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all()
    # and by hand: a candidate alone in all its sets takes no part; the kept ones share a set
    assert all(((st.mem_pad < st.size).sum(axis=1) >= 1))
    assert (st.local[st.cands] == np.arange(st.size)).all()


def test_a_structure_of_a_solved_grid_is_empty():
    solved = lg.Grid.parse("534678912672195348198342567859761423426853791713924856961537284287419635345286179")
    st = Structure(solved)  # every set holds one live candidate: none is kept
    assert st.size == 0 and len(st.sets) == 0 and st.mem_pad.shape == (0, 1) and st.cs_pad.shape[0] == 0
    assert (st.local == -1).all()


def _kernel_args_from_tables(tb) -> tuple:
    """`Tables.kernel_groups` and `kernel_patterns` as they were built from `Tables.groups`
    and `Tables.patterns` (numpy sorts and concatenations): the oracle of `kernel.group_args`
    and `kernel.pattern_args`."""
    nonempty, always, idx, start, (src, dst, _, _) = tb.groups
    groups = (np.ascontiguousarray(always, dtype=bool), nonempty, idx.astype(np.int64),
              np.r_[start, len(idx)].astype(np.int64), src.astype(np.int64), dst.astype(np.int64))
    patterns = None
    if tb._patterns is not None and tb._patterns["P"]:
        idx, start, pcols, small, owner, (src, dst, _, _) = tb.patterns
        patterns = (idx.astype(np.int64), np.r_[start, len(idx)].astype(np.int64), np.ascontiguousarray(pcols),
                    np.ascontiguousarray(small, dtype=bool), owner.astype(np.int64), src.astype(np.int64),
                    dst.astype(np.int64))
    return groups, patterns


@pytest.mark.parametrize("grid", list(_positions()), ids=lambda grid: grid.geometry.name)
def test_the_kernel_arguments_are_those_of_the_numpy_tables(grid):
    st = Structure(grid, depth=2)
    tb = st.tables
    groups, patterns = _kernel_args_from_tables(tb)
    for x, y in zip(tb.kernel_groups, groups, strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y)
    if patterns is not None:
        for x, y in zip(tb.kernel_patterns, patterns, strict=True):
            assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y)
    assert patterns is not None or grid.is_solved() or st.size < 20
