"""Almost-locked-set techniques: a published example, hand-built positions, a brute-force
bound, proof mutations, and oracle soundness on corpus positions."""

from __future__ import annotations

from itertools import product

import pytest

import linkgraph as lg
from linkgraph.errors import OptionError, ProofError
from linkgraph.techniques.als import xz as alsets
from linkgraph.check.checker import check_step
from tests.techniques.patterncases import check_sound, conclusions, prepared, transpose, transpose_text
from tests.graph.test_links import VARIANTS, variant_positions

FINDERS = {
    "als-xz": alsets.als_xz,
    "als-xy-wing": alsets.als_xy_wings,
    "death-blossom": alsets.death_blossoms,
}


def board(**cells: str) -> lg.Grid:
    """A candidate grid: the named cells hold the given digits, every other cell all nine."""
    tokens = ["123456789"] * 81
    for name, digits in cells.items():
        cell = lg.Cell.parse(name)
        tokens[cell.row * 9 + cell.col] = digits
    return lg.Grid.parse(" ".join(tokens))


def forced_out(grid: lg.Grid) -> set[str]:
    """Brute force over the cells with fewer than nine candidates: the candidates that
    every consistent filling of those cells rules out (a cell of its own filled with
    another digit, or a peer filled with this digit).

    Every other cell keeps all nine digits, so no deduction can rest on them: a sound
    technique eliminates a subset of this set.
    """
    g = grid.geometry
    small = [c for c in range(81) if grid.cands[c].sum() < 9]
    options = [[int(d) + 1 for d in grid.cands[c].nonzero()[0]] for c in small]
    fillings = []
    for values in product(*options):
        if all(values[i] != values[j] or not g.peers[small[i], small[j]]
               for i in range(len(small)) for j in range(i)):
            fillings.append(dict(zip(small, values)))
    assert fillings, "the hand-built position has no consistent filling"
    out = set()
    for c in range(81):
        for d in grid.cands[c].nonzero()[0]:
            digit = int(d) + 1
            if all(f.get(c, digit) != digit or any(v == digit and g.peers[c, o] for o, v in f.items() if o != c)
                   for f in fillings):
                out.add(f"-{g.candidate(c * 9 + int(d))}")
    return out


def steps_of(tech: str, grid: lg.Grid) -> list[lg.Step]:
    steps = list(FINDERS[tech](grid))
    for step in steps:
        assert step.technique == tech
        check_step(grid, step)
    return steps


def assert_mirrored(tech: str, grid: lg.Grid, expected: list[str]) -> None:
    got = conclusions(FINDERS[tech](transpose(grid)))
    assert got == sorted(transpose_text(t) for t in expected)


# ---- ALS-XZ -------------------------------------------------------------------

#: Sudopedia, "ALS-XZ" (also Allan Barker's ALS-XZ example 1): puzzle
#: 580700002000000000000000100009000630000000004701045008005203000006004070120060300.
#: ALSs r4568c2 {34569} and r7c1 {49}; x = 9 (its only places, r8c2 and r7c1, share
#: box 7), z = 4: 4 leaves r4c1 and r7c2, the cells that see every 4 of both sets.
SUDOPEDIA_XZ = "580700002000000000000000100009000630000000004701045008005203000006004070120060300"


def test_sudopedia_example():
    grid = lg.prepare(lg.Grid.parse(SUDOPEDIA_XZ))
    steps = steps_of("als-xz", grid)
    pair = {"r4568c2{34569}", "r7c1{49}"}
    found = [s for s in steps if set(s.proof.graph["als"]) == pair]
    assert len(found) == 1
    step = found[0]
    assert sorted(map(str, step.eliminations)) == ["r4c1#4", "r7c2#4"]
    assert step.proof.graph["restricted"] == [9] and step.proof.graph["z"] == 4
    solution = lg.oracle.solve_unique(lg.Grid.parse(SUDOPEDIA_XZ))
    check_sound(steps, solution, grid)


def singly_linked() -> lg.Grid:
    # A = r5c1{15} r5c2{45} (row 5), B = r8c1{16} r8c5{56} (row 8).
    # x = 1: A's only 1 (r5c1) and B's only 1 (r8c1) share column 1, so 1 is in at most one set.
    # z = 5: the set without 1 is locked and holds 5, so 5 is in r5c1, r5c2 or r8c5; only r5c5
    # sees all three (row 5, column 5). The other ALSs here (single cells, r58c1{156}) give the
    # same 5 or nothing.
    return board(r5c1="15", r5c2="45", r8c1="16", r8c5="56")


def test_singly_linked_hand_case():
    grid = singly_linked()
    expected = ["-r5c5#5"]
    assert conclusions(steps_of("als-xz", grid)) == expected
    assert set(expected) <= forced_out(grid)
    assert_mirrored("als-xz", grid, expected)


def test_singly_linked_proof_shape():
    grid = singly_linked()
    step = next(alsets.als_xz(grid))  # smallest sets first: A = r5c1{15}, B = r8c15{156}
    P = step.proof
    assert P.graph["kind"] == "als" and P.graph["als"] == ["r5c1{15}", "r8c15{156}"]
    # the two branches on "5 in A"
    assert [str(p) for p in step.premises] == ["+r5c1#5", "-r5c1#5"]
    als_edges = {(str(u), str(v), d["via"]) for u, v, d in P.edges(data=True) if d["family"] == "als"}
    assert als_edges == {
        ("-r5c1#5", "-r8c1#1", "r5c1{15}"),  # A locked without 5: it is 1, and r8c1 sees it
        ("-r8c1#1", "-r5c5#5", "r8c15{156}"),  # B locked without 1: its 5 is r8c5, seen by r5c5
    }
    weak = {(str(u), str(v)) for u, v, d in P.edges(data=True) if d["kind"] == "weak"}
    assert weak == {("+r5c1#5", "-r5c5#5")}
    assert step.notation == "(5=1)r5c1{15} - (1=5)r8c15{156} => r5c5<>5"


def test_not_restricted_finds_nothing():
    # as above but B's 1 moved to r8c2: r5c1 and r8c2 share no house, so 1 is not restricted,
    # and no other pair of ALSs has a restricted digit besides a second common one
    grid = board(r5c1="15", r5c2="45", r8c2="16", r8c5="56")
    assert list(alsets.als_xz(grid)) == []
    assert list(alsets.als_xy_wings(grid)) == []


def test_empty_board_finds_nothing():
    grid = board()
    assert len(alsets.als_table(grid)) == 0
    for tech in FINDERS:
        assert list(FINDERS[tech](grid)) == []


def doubly_linked() -> lg.Grid:
    # A = r1c1{12}; B = r1c4{13} r1c5{24} r2c6{34} (box 2, 3 cells, 4 digits).
    # 1 and 2 are both restricted (A's r1c1 sees B's r1c4 and r1c5 along row 1). The four cells
    # hold {1,2,3,4} and have two fillings only: r1c1,r1c4,r1c5,r2c6 = 1,3,2,4 or 2,1,4,3.
    # Both put 1 and 2 in row 1 (outside A and B: r1c2 r1c3 r1c6-9) and 3 and 4 in box 2
    # (r1c6 r2c4 r2c5 r3c4-6): that is the whole list, the seed's "mutually doubly linked" rule.
    return board(r1c1="12", r1c4="13", r1c5="24", r2c6="34")


DOUBLY = sorted(
    [f"-r1c{c}#{d}" for c in (2, 3, 6, 7, 8, 9) for d in (1, 2)]
    + [f"-{cell}#{d}" for cell in ("r1c6", "r2c4", "r2c5", "r3c4", "r3c5", "r3c6") for d in (3, 4)]
)


def test_doubly_linked_hand_case():
    grid = doubly_linked()
    assert conclusions(steps_of("als-xz", grid)) == DOUBLY
    # the hand list is everything the four cells force
    assert set(DOUBLY) == forced_out(grid)
    assert_mirrored("als-xz", grid, DOUBLY)


def test_doubly_linked_one_step():
    grid = doubly_linked()
    step = next(s for s in alsets.als_xz(grid) if set(s.proof.graph["als"]) == {"r1c1{12}", "r1c45r2c6{1234}"})
    assert step.proof.graph["restricted"] == [1, 2]
    assert conclusions([step]) == DOUBLY
    assert step.notation.startswith("(1=2)r1c1{12} - (2=1)r1c45r2c6{1234} - loop => ")


# ---- ALS-XY-wing ----------------------------------------------------------------

def xy_wing() -> lg.Grid:
    # A = r1c1{13}, B = r1c5{14} r2c5{49} (column 5), C = r2c9{39}.
    # x = 1 between A and B (row 1), y = 9 between B and C (row 2), z = 3 in A and C.
    # If r1c1 is not 3 it is 1, B loses 1 and holds 4 and 9 (r2c5 = 9), so r2c9 = 3: one of
    # r1c1 and r2c9 is 3, and 3 leaves the cells seeing both: r1c7-9 (row 1, box 3) and
    # r2c1-3 (row 2, box 1). Every other triple of ALSs here gives the same 3s or nothing.
    return board(r1c1="13", r1c5="14", r2c5="49", r2c9="39")


XY = sorted([f"-r1c{c}#3" for c in (7, 8, 9)] + [f"-r2c{c}#3" for c in (1, 2, 3)])


def test_xy_wing_hand_case():
    grid = xy_wing()
    assert conclusions(steps_of("als-xy-wing", grid)) == XY
    assert set(XY) <= forced_out(grid)
    assert_mirrored("als-xy-wing", grid, XY)


def test_xy_wing_chain_of_three():
    grid = xy_wing()
    step = next(s for s in alsets.als_xy_wings(grid) if s.proof.graph["als"] == ["r1c1{13}", "r12c5{149}", "r2c9{39}"])
    assert step.proof.graph["restricted"] == [1, 9] and step.proof.graph["z"] == 3
    assert step.notation == "(3=1)r1c1{13} - (1=9)r12c5{149} - (9=3)r2c9{39} => " + ", ".join(
        f"{t[1:].split('#')[0]}<>3" for t in XY
    )


def test_xy_wing_needs_two_different_links():
    # A = r1c1{13}, B = r1c5{14}, C = r3c6{13}: A-B and B-C are both restricted on 1 only, so
    # B cannot pass the link on (x = y); A and C share 3 but share no house. The cells force
    # nothing at all: r1c1,r1c5,r3c6 = 3,4,3 and 1,4,1 and 3,1,3 are all consistent.
    grid = board(r1c1="13", r1c5="14", r3c6="13")
    assert forced_out(grid) == set()
    assert list(alsets.als_xy_wings(grid)) == []
    assert list(alsets.als_xz(grid)) == []


# ---- death blossom ----------------------------------------------------------------

def blossom() -> lg.Grid:
    # Stem r5c5{124}; petals: for 1, r5c1{13} (row 5); for 2, r1c5{23} (column 5); for 4,
    # r5c3{46} r2c3{36} (column 3; its 4 is in r5c3, row 5). Stem 1: r5c1 = 3. Stem 2:
    # r1c5 = 3. Stem 4: r5c3 = 6, so r2c3 = 3. r1c1 sees r5c1, r1c5 and r2c3: it is not 3.
    return board(r5c5="124", r5c1="13", r1c5="23", r5c3="46", r2c3="36")


def test_death_blossom_hand_case():
    grid = blossom()
    steps = steps_of("death-blossom", grid)
    mine = [s for s in steps if s.proof.graph["stem"] == "r5c5"]
    assert len(mine) == 1
    step = mine[0]
    assert conclusions([step]) == ["-r1c1#3"]
    assert sorted(step.proof.graph["als"]) == ["r1c5{23}", "r25c3{346}", "r5c1{13}"]
    assert sorted(map(str, step.premises)) == ["+r5c5#1", "+r5c5#2", "+r5c5#4"]
    assert set(conclusions(steps)) <= forced_out(grid)


def test_death_blossom_missing_petal():
    # without the petal for 4 (r2c3 loses its 3, r25c3 is no longer an ALS) the stem r5c5 gives nothing
    grid = board(r5c5="124", r5c1="13", r1c5="23", r5c3="46", r2c3="67")
    assert all(s.proof.graph["stem"] != "r5c5" for s in alsets.death_blossoms(grid))



BLOSSOM = {"r5c5": "124", "r5c1": "13", "r1c5": "23", "r5c3": "46", "r2c3": "36"}


def two_petals() -> dict[str, str]:
    # blossom() plus r4c6{13}, a second petal for 1 (its 1 sees the stem in box 5). Stem 1 now
    # locks both r5c1 and r4c6 onto 3. The ALSs are the five bivalue cells and r25c3{346}
    # (no other cells of one house hold k+1 digits in k cells), so the petals holding 3 are
    # r5c1 and r4c6 for 1, r1c5 for 2 and r25c3 for 4. The cells seeing r1c5 and r2c3 are
    # r1c1-3 and r2c4-6; of those r1c1 sees r5c1 (column 1) and r2c6 sees r4c6 (column 6).
    return dict(BLOSSOM, r4c6="13")


def test_death_blossom_two_petals_for_one_digit():
    grid = board(**two_petals())
    steps = steps_of("death-blossom", grid)
    mine = [s for s in steps if s.proof.graph["stem"] == "r5c5"]
    # one step with both, whichever petal of 1 comes first
    assert len(mine) == 1
    assert conclusions(mine) == ["-r1c1#3", "-r2c6#3"]
    assert sorted(mine[0].proof.graph["als"]) == ["r1c5{23}", "r25c3{346}", "r4c6{13}", "r5c1{13}"]
    assert set(conclusions(steps)) <= forced_out(grid)


def _moved_cell(name: str, sym) -> lg.Cell:
    rows, cols, flip, _ = sym
    cell = lg.Cell.parse(name)
    r, c = list(rows)[cell.row], list(cols)[cell.col]
    return lg.Cell(c, r) if flip else lg.Cell(r, c)


def _moved_cand(text: str, sym) -> str:
    c = lg.Candidate.parse(text)
    return str(lg.Candidate(_moved_cell(str(c.cell), sym), sym[3][c.digit - 1]))


def _moved_grid(grid: lg.Grid, sym) -> lg.Grid:
    """The candidate grid moved cell by cell and digit by digit (written here, not by the engine)."""
    tokens = [""] * 81
    for k in range(81):
        name = str(grid.geometry.cell(k))
        digits = sorted(sym[3][int(d)] for d in grid.cands[k].nonzero()[0])
        moved = _moved_cell(name, sym)
        tokens[moved.row * 9 + moved.col] = "".join(map(str, digits))
    return lg.Grid.parse(" ".join(tokens))


def _elimination_sets(steps) -> set[frozenset[str]]:
    return {frozenset(map(str, s.eliminations)) for s in steps}


#: (rows, cols, transpose, digits): lines permuted inside bands (stacks), bands (stacks)
#: permuted, transposed, digits relabelled (digit d becomes digits[d - 1]); each a Sudoku symmetry
SYMMETRIES = [
    (range(9), range(9), True, [7, 5, 9, 1, 3, 2, 8, 4, 6]),
    ([3, 4, 5, 0, 1, 2, 6, 7, 8], [2, 1, 0, 5, 4, 3, 8, 7, 6], True, [2, 6, 4, 9, 1, 8, 3, 5, 7]),
    ([8, 7, 6, 5, 4, 3, 2, 1, 0], [6, 7, 8, 0, 1, 2, 3, 4, 5], False, [9, 8, 7, 6, 5, 4, 3, 2, 1]),
]


@pytest.mark.parametrize("cells", [BLOSSOM, two_petals()], ids=["blossom", "two-petals"])
@pytest.mark.parametrize("sym", SYMMETRIES, ids=["transposed", "bands-lines-transposed", "reversed"])
def test_death_blossom_moves_with_a_symmetry(cells, sym):
    # the hand cases moved by a symmetry: the stem's one step eliminates the moved candidates
    # (by hand above: -r1c1#3 for blossom(), -r1c1#3 and -r2c6#3 with two petals for 1)
    moved = _moved_grid(board(**cells), sym)
    want = {_moved_cand(t, sym) for t in (["r1c1#3"] if cells is BLOSSOM else ["r1c1#3", "r2c6#3"])}
    stem = str(_moved_cell("r5c5", sym))
    steps = [s for s in steps_of("death-blossom", moved) if s.proof.graph["stem"] == stem]
    assert [set(map(str, s.eliminations)) for s in steps] == [want]
    # and the whole set of findings is the original's, moved
    original = _elimination_sets(alsets.death_blossoms(board(**cells)))
    mapped = {frozenset(_moved_cand(t, sym) for t in found) for found in original}
    assert _elimination_sets(alsets.death_blossoms(moved)) == mapped


@pytest.mark.parametrize("sym", SYMMETRIES, ids=["transposed", "bands-lines-transposed", "reversed"])
def test_findings_map_on_a_corpus_position(sym, corpus):
    # top1465 #45 after the basic ladder: the petal taken first used to follow the cell
    # numbering there, and the moved position gave other death-blossom eliminations
    grid, _ = corpus("top1465", every=44, limit=2)[1]
    grid = lg.prepare(grid)
    moved = _moved_grid(grid, sym)
    for tech, find in FINDERS.items():
        mapped = {frozenset(_moved_cand(f"{c}", sym) for c in found)
                  for found in _elimination_sets(find(grid))}
        assert _elimination_sets(find(moved)) == mapped, tech
    assert _elimination_sets(alsets.death_blossoms(grid))  # the position holds blossoms


# ---- proofs: the checker rejects tampered steps ------------------------------------

def _rebuild(step: lg.Step, **changes) -> lg.Step:
    P = step.proof.copy()
    elims = changes.pop("eliminations", step.eliminations)
    edit = changes.pop("edit", None)
    if edit:
        edit(P)
    return lg.make_step(step.technique, eliminations=elims, premises=step.premises, proof=P)


@pytest.mark.parametrize("maker,tech", [(singly_linked, "als-xz"), (doubly_linked, "als-xz"),
                                        (xy_wing, "als-xy-wing"), (blossom, "death-blossom")])
def test_checker_rejects_mutations(maker, tech):
    grid = maker()
    step = next(FINDERS[tech](grid))
    check_step(grid, _rebuild(step))  # the copy itself passes
    # an elimination the proof does not reach
    extra = lg.Candidate.parse("r9c9#9")
    with pytest.raises(ProofError):
        check_step(grid, _rebuild(step, eliminations=step.eliminations | {extra}))

    # an ALS edge through a set that is not an ALS of this grid
    def wrong_als(P):
        u, v, d = next((u, v, d) for u, v, d in P.edges(data=True) if d["family"] == "als")
        P.edges[u, v]["via"] = "r9c9{12}"

    with pytest.raises(ProofError):
        check_step(grid, _rebuild(step, edit=wrong_als))


# ---- corpus soundness ------------------------------------------------------------

@pytest.fixture(scope="module")
def top95(corpus):
    return prepared(corpus("top95", limit=15))


@pytest.mark.parametrize("tech", sorted(FINDERS))
def test_sound_on_top95(tech, top95):
    found = sum(check_sound(list(FINDERS[tech](grid)), sol, grid) for grid, sol in top95)
    assert found > 0


@pytest.mark.slow
@pytest.mark.parametrize("tech", sorted(FINDERS))
def test_sound_on_top1465(tech, corpus):
    found = 0
    for grid, sol in prepared(corpus("top1465", every=7)):
        found += check_sound(list(FINDERS[tech](grid)), sol, grid)
    assert found > 0


def test_bad_max_size():
    with pytest.raises(OptionError):
        alsets.als_table(board(), max_size=0)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_sound_on_variants(name):
    # positions of sudoku-x, windoku, jigsaw and small grids with random wrong candidates removed
    # (tests/test_links.py): the solution is known, and every step must keep it and pass the checker
    found = 0
    for grid, sol in variant_positions(name, 3)[1:]:  # the two with fewer candidates left
        for tech in FINDERS:
            found += check_sound(list(FINDERS[tech](grid)), sol, grid)
    assert found > 0


# ---- the compiled early test of the death-blossom rung ---------------------------------------
def blossom_hit_numpy(grid: lg.Grid, max_size: int = alsets.ALS_MAX_SIZE, stem_max: int = alsets.STEM_MAX) -> bool:
    """Whether `death_blossoms`' numpy tables find a stem and z (its ``hit.any()``), as the rung
    computed it before `blossom_any` (linkgraph.techniques.als.kernel) was asked first."""
    import numpy as np

    from linkgraph.bitops import pack

    table = alsets.als_table(grid, max_size=max_size)
    if not len(table):
        return False
    n = grid.geometry.size
    pops = grid.cands.sum(axis=1)
    d, i, s = table.sight
    ok = (pops[s] >= 2) & (pops[s] <= stem_max)
    d, i, s = d[ok], i[ok], s[ok]
    order = np.argsort((s * n + d) * len(table) + i)
    d, i, s = d[order], i[order], s[order]
    if not len(s):
        return False
    group = np.flatnonzero(np.concatenate(([True], (s[1:] != s[:-1]) | (d[1:] != d[:-1]))))
    by_set = np.ascontiguousarray(table.seeall.transpose(1, 0, 2))
    reach = np.bitwise_or.reduceat(by_set.take(i, axis=0), group, axis=0)
    gs = s[group]
    first = np.flatnonzero(np.concatenate(([True], gs[1:] != gs[:-1])))
    stems = gs[first]
    covered = np.diff(np.append(first, len(gs))) == pops[stems]
    targets = np.bitwise_and.reduceat(reach, first, axis=0) & pack(grid.cands.T)[None]
    hit = targets.any(axis=2) & covered[:, None] & ~grid.cands[stems]
    return bool(hit.any())


def _blossom_grids():
    from tests.narrowings import narrowings

    for grid in narrowings(11, top95=30, rounds=4, start=True, drop=3):
        if not grid.is_solved():
            yield grid


BLOSSOM_GRIDS = list(_blossom_grids())


def _blossom_any(grid, stem_max=alsets.STEM_MAX, fault=None):
    import numpy as np

    from linkgraph.techniques.als.kernel import blossom_any

    table = alsets.als_table(grid)
    if not len(table):
        return False
    d, i, c = table.sight
    seeall, cands = table.seeall, grid.cands
    if fault == "digits-rotated":
        seeall = np.ascontiguousarray(np.roll(seeall, 1, axis=0))
    elif fault == "stems-moved":
        c = (c + 1) % grid.geometry.number_of_cells
    elif fault == "stem-digit-ignored":
        cands = cands.copy()
        cands[:, 0] = False
    return bool(blossom_any(d, i, c, cands, seeall, stem_max))


def test_blossom_any_is_the_numpy_test():
    found = 0
    for grid in BLOSSOM_GRIDS:
        want = blossom_hit_numpy(grid)
        assert _blossom_any(grid) == want
        assert _blossom_any(grid, stem_max=2) == blossom_hit_numpy(grid, stem_max=2)
        found += want
    assert 5 <= found < len(BLOSSOM_GRIDS)  # both answers occur


@pytest.mark.parametrize("fault", ["digits-rotated", "stems-moved", "stem-digit-ignored"])
def test_planted_blossom_faults_fail_the_oracle(fault):
    with pytest.raises(AssertionError):
        for grid in BLOSSOM_GRIDS:
            assert _blossom_any(grid, fault=fault) == blossom_hit_numpy(grid)


def xy_triples_numpy(grid: lg.Grid) -> int:
    """How many (A, B, C, z-set) rows `als_xy_wings`' numpy triples keep (its ``keep``), as the
    rung computed them before `xy_wing_any` (linkgraph.techniques.als.kernel) was asked first."""
    import numpy as np

    from linkgraph.bitops import nonzero2

    table = alsets.als_table(grid)
    R, Z, O = table.restricted, table.zsee, table.overlap
    bv, av = nonzero2(R != 0)
    later = np.searchsorted(bv, bv, side="right") - np.arange(len(bv)) - 1
    e1 = np.repeat(np.arange(len(bv)), later)
    e2 = e1 + 1 + np.arange(len(e1)) - np.repeat(np.cumsum(later) - later, later)
    N = len(R)
    ac, ba, bc = av[e1] * N + av[e2], bv[e1] * N + av[e1], bv[e1] * N + av[e2]
    ok = np.flatnonzero((Z.take(ac) != 0) & ~O.take(ac))
    ac, ba, bc = ac[ok], ba[ok], bc[ok]
    ra, rc = R.take(ba), R.take(bc)
    zs = Z.take(ac) & ~ra & ~rc
    same = (ra == rc) & ((ra & (ra - 1)) == 0)
    return int(np.count_nonzero((zs != 0) & ~same))


def _xy_any(grid, fault=None):
    import numpy as np

    from linkgraph.techniques.als.kernel import xy_wing_any

    table = alsets.als_table(grid)
    R, Z, O = table.restricted, table.zsee, table.overlap
    if fault == "overlap-ignored":
        O = np.zeros_like(O)
    elif fault == "z-restricted-kept":
        R = np.where(R != 0, R & -R, 0)  # only the lowest restricted digit masks z
    elif fault == "same-digit-kept":
        R = np.where(R != 0, R | (1 << 40), 0)  # no restricted digit is ever alone
    return bool(xy_wing_any(R, Z, O))


def test_xy_wing_any_is_the_numpy_test():
    found = 0
    for grid in BLOSSOM_GRIDS:
        want = xy_triples_numpy(grid) > 0
        assert _xy_any(grid) == want
        found += want
    assert 5 <= found < len(BLOSSOM_GRIDS)


@pytest.mark.parametrize("fault", ["overlap-ignored", "z-restricted-kept", "same-digit-kept"])
def test_planted_xy_wing_faults_fail_the_oracle(fault):
    with pytest.raises(AssertionError):
        for grid in BLOSSOM_GRIDS:
            assert _xy_any(grid, fault=fault) == (xy_triples_numpy(grid) > 0)


def xz_pairs_numpy(grid: lg.Grid) -> int:
    """How many pairs `als_xz`'s numpy test keeps (its ``useful``), as the rung computed them
    before `xz_any` (linkgraph.techniques.als.kernel) was asked first."""
    import numpy as np

    table = alsets.als_table(grid)
    N = len(table)
    flat = np.flatnonzero(table.restricted != 0)
    flat = flat[flat // N < flat % N]
    first, second = flat // N, flat % N
    R, Z = table.restricted.take(flat), table.zsee.take(flat)
    low = R & -R
    pair = low | ((R ^ low) & -(R ^ low))
    own = table.selfsee
    double = ((R ^ low) != 0) & (((Z & pair) != 0) | ((own[first] & ~pair) != 0) | ((own[second] & ~pair) != 0)
                                 | ((R ^ pair) != 0))
    return int(np.count_nonzero(double | (((R & (R - 1)) == 0) & ((Z & ~R) != 0))))


def _xz_any(grid, fault=None):
    import numpy as np

    from linkgraph.techniques.als.kernel import xz_any

    table = alsets.als_table(grid)
    R, Z, own = table.restricted, table.zsee, table.selfsee
    if fault == "own-ignored":
        own = np.zeros_like(own)
    elif fault == "z-unmasked":
        Z = Z & R  # z only where it is restricted too: the single links' z never counts
    elif fault == "lower-triangle":
        R = np.tril(R)  # the pairs read the wrong way round: i > j only
    return bool(xz_any(np.ascontiguousarray(R), Z, own))


def test_xz_any_is_the_numpy_test():
    found = 0
    for grid in BLOSSOM_GRIDS:
        want = xz_pairs_numpy(grid) > 0
        assert _xz_any(grid) == want
        found += want
    assert 5 <= found < len(BLOSSOM_GRIDS)


@pytest.mark.parametrize("fault", ["own-ignored", "z-unmasked", "lower-triangle"])
def test_planted_xz_faults_fail_the_oracle(fault):
    with pytest.raises(AssertionError):
        for grid in BLOSSOM_GRIDS:
            assert _xz_any(grid, fault=fault) == (xz_pairs_numpy(grid) > 0)
