import numpy as np
import pytest

import linkgraph as lg
from linkgraph import geometry as geo
from linkgraph import oracle


def test_corpus_solutions_match(corpus):
    for grid, sol in corpus("top95", every=5) + corpus("euler96", every=5):
        found = oracle.solutions(grid)
        assert len(found) == 1
        assert (found[0] == sol).all()


def test_several_and_no_solutions():
    grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    less = lg.Grid.parse("." + lg.samples.GNPX_FORCECHAIN[1:])
    assert oracle.count_solutions(less) == 1  # r1c1 is implied by its row
    empty = lg.Grid.empty()
    assert oracle.count_solutions(empty) == 2
    with pytest.raises(lg.InvalidPuzzleError, match="more than one solution"):
        oracle.solve_unique(empty)
    broken = grid.eliminate([lg.Candidate.parse("r2c4#8"), lg.Candidate.parse("r2c4#1"), lg.Candidate.parse("r2c4#2")])
    assert oracle.count_solutions(broken) == 0
    with pytest.raises(lg.InvalidPuzzleError, match="no solution"):
        oracle.solve_unique(broken)


def test_variants_have_valid_solutions():
    for g in (geo.classic(4), geo.classic(6), geo.sudoku_x(), geo.windoku()):
        sol = oracle.solutions(lg.Grid.empty(g), limit=1)[0]
        for cells in g.house_cells:
            assert sorted(sol[cells]) == list(range(1, g.size + 1))


# ---- the exact-cover search against the plain search it replaced ----------------------------
#
# The reference below is the oracle as it was: depth-first search with naked and hidden
# singles that branches on the cell with the fewest digits. It is slow on puzzles built
# against it, but simple; the new search must count the same solutions everywhere.

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

NORVIG_IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."


def _reference_count(grid: lg.Grid, limit: int = 2) -> int:
    g = grid.geometry
    peers = [tuple(int(p) for p in row) for row in g.peer_lists]
    houses = [tuple(int(c) for c in cells) for cells in g.house_cells]
    full = (1 << g.size) - 1
    masks = [sum(1 << d for d in np.flatnonzero(row)) for row in grid.cands]
    if 0 in masks:
        return 0
    found = []

    def propagate(masks, todo):
        while True:
            while todo:
                c = todo.pop()
                m = masks[c]
                for p in peers[c]:
                    if masks[p] & m:
                        masks[p] &= ~m
                        if not masks[p]:
                            return False
                        if not masks[p] & (masks[p] - 1):
                            todo.append(p)
            for h in houses:
                once = twice = 0
                for c in h:
                    twice |= once & masks[c]
                    once |= masks[c]
                if once != full:
                    return False
                for c in h:
                    s = masks[c] & once & ~twice
                    if s:
                        if s & (s - 1):
                            return False
                        if masks[c] != s:
                            masks[c] = s
                            todo.append(c)
            if not todo:
                return True

    def search(masks, todo):
        if not propagate(masks, todo):
            return
        open_cells = [c for c, m in enumerate(masks) if m & (m - 1)]
        if not open_cells:
            found.append(masks)
            return
        best = min(open_cells, key=lambda c: masks[c].bit_count())
        m = masks[best]
        while m and len(found) < limit:
            bit = m & -m
            m ^= bit
            new = masks.copy()
            new[best] = bit
            search(new, [best])

    search(masks, [c for c, m in enumerate(masks) if not m & (m - 1)])
    return len(found)


def _transposed(p: str) -> str:
    return "".join(p[c * 9 + r] for r in range(9) for c in range(9))


def _relabelled(p: str, perm: str) -> str:
    return "".join(perm[int(ch) - 1] if ch in "123456789" else ch for ch in p)


@pytest.mark.parametrize("form", ["as given", "transposed", "relabelled", "both"])
def test_norvig_impossible_puzzle_has_no_solution(form):
    p = {"as given": NORVIG_IMPOSSIBLE, "transposed": _transposed(NORVIG_IMPOSSIBLE),
         "relabelled": _relabelled(NORVIG_IMPOSSIBLE, "912345678"),
         "both": _relabelled(_transposed(NORVIG_IMPOSSIBLE), "387294615")}[form]
    grid = lg.Grid.parse(p)
    assert oracle.count_solutions(grid) == 0
    with pytest.raises(lg.InvalidPuzzleError, match="no solution"):
        oracle.solve_unique(grid)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_counts_match_the_plain_search(data, corpus):
    """Puzzles thinned out from corpus solutions: 0, 1 or 2+ solutions, as the reference counts."""
    pairs = corpus("top95", every=19)
    _, solution = pairs[data.draw(st.integers(0, len(pairs) - 1))]
    keep = data.draw(st.lists(st.booleans(), min_size=81, max_size=81))
    values = [int(v) if k else 0 for v, k in zip(solution, keep, strict=True)]
    # a wrong given (or none) makes a puzzle with no solution, or with several
    if data.draw(st.booleans()):
        i = data.draw(st.integers(0, 80))
        values[i] = data.draw(st.integers(0, 9))
    try:
        grid = lg.Grid.from_values(values)
    except lg.InvalidPuzzleError:
        return  # a repeated given: not a grid
    assert oracle.count_solutions(grid, limit=2) == _reference_count(grid, limit=2)


def test_counts_match_the_plain_search_on_positions(corpus):
    """Candidate positions after eliminations (also of solution digits) count as the reference does."""
    rng = np.random.default_rng(7)
    for grid, _ in corpus("top95", every=12):
        live = np.flatnonzero(grid.live & ~np.repeat(grid.placed, 9))
        cut = rng.choice(live, size=min(len(live), 25), replace=False)
        position = grid.with_live(np.where(np.isin(np.arange(729), cut), False, grid.live))
        assert oracle.count_solutions(position) == _reference_count(position)


def test_solutions_of_variants_obey_every_house():
    for g in (geo.classic(4), geo.classic(6), geo.sudoku_x(), geo.windoku(), geo.classic(16)):
        sols = oracle.solutions(lg.Grid.empty(g), limit=3)
        assert len(sols) == 3 and len({s.tobytes() for s in sols}) == 3
        for sol in sols:
            for cells in g.house_cells:
                assert sorted(sol[cells]) == list(range(1, g.size + 1))


# ---- the compiled search against the Python search it replaced ------------------------------
#
# tests/oracle_python.py is the oracle as it was before it was compiled: the same exact-cover
# idea in plain Python over int bitsets, without the box-line rule. Where both list every
# solution (fewer than the limit) the two lists must hold the same grids; where both stop at
# the limit, every grid found must be a solution. "A solution" is checked here on its face
# (every house holds every digit, every value a live candidate of the grid), so neither
# search is trusted for that.

import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from linkgraph.limits import Deadline, JobTimeout  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests import oracle_python  # noqa: E402

JIGSAW6 = "111222" "113322" "133324" "553444" "565644" "556666"
#: 25x25, 250 givens of a relabelled pattern grid with one given changed (benchmarks/oracle_big.py
#: --size 25 --givens 250, instance 1): several solutions, found after about 1.3 million nodes.
HARD25 = (
    "............5M...7B...CF9.......5M.P.7B..AC....8.4...MN.....L..F....1..DO.HPJ7B..AC.9..8.4.DOI..G5....C....8"
    "....O.HK.5..PJ7.E3..4...I...5.NPJ7.E.ACF9.DO..KG......B..A.F.238..6G.M.PJ..E............O...J7.E...F9.38..6D."
    "...G....A.......4.D.I.K.5....7.....46...H......J..EL...92...H...MN....E.ACF92..14...M.PJ........2..14..OIH..7"
    "..LA....381......KG5....C..2..14.DOI.KG.............D.I.....N....EL.C.9.....K..M.P...E....92.8..6.OM.P....L.."
    ".9..814.DOI....BE.ACF.23..4.D.I..G....J7F92...4.....KG5M.P.7B.L.C..D..H..5....7..LA....38..K.5MEPJ.B.L......."
    "14.DO..P.7..LA.F92.814.D..HKG5.E.ACF...8....OI.KG..NP...92..146.O.H.G......B..AC."
)


#: Instance 4 of --size 25 --givens 300: several solutions, found after about 50,000 nodes.
MEDIUM25 = (
    ".6...H..OP...7..E.C.M..9......8..7..E...M.....6B5...J.F.E.C4MK.9.D6B5A.1.O..E..4MK.9ND6B5.H1..P8..7F...9ND.B5."
    "H1G...IJ7.LE..46..AH..OP..J....2C4M....D.G.P....F.E.......ND6B5A...7..E2C.M.39...B.A......E2C...39.D..5.....P."
    "I.7FLK39.D6B...1GO.8IJ7F....4.B5.H..O.8IJ7FL....M.39.D6GOP.IJ.F...C4M..9.D.B....J..LE....K.....B....G..8I2C4M."
    "39....5A.1GO.....F..3..D.B.A.1G..8...F.E2C4.K.AH1.O.8.J.F.E2..M.39N.6BOP.I....E2C4M..9ND....H.G7....C..K...D6."
    "..H1G...I..4.K...D.B.A..GO..I.7F.E29....5....O.8..7....C4MK3.......IJ7..E2.4MK39N..B5.8IJ7F.E2.4MK3..D...AH.G."
    "C.E...MK.9...B....GO.8IJ.4.K...D6.5AH...P.I...LE....6B5AH1..P.IJ..L..C4M..."
)


def is_solution(grid: lg.Grid, values: np.ndarray) -> bool:
    """True when `values` fills every house with every digit, each value a live candidate of `grid`."""
    g = grid.geometry
    n = g.size
    if values.shape != (g.number_of_cells,) or not ((1 <= values) & (values <= n)).all():
        return False
    if not grid.live.reshape(-1, n)[np.arange(g.number_of_cells), values - 1].all():
        return False
    return all(sorted(values[cells]) == list(range(1, n + 1)) for cells in g.house_cells)


def assert_agree(grid: lg.Grid, limit: int) -> None:
    """The compiled and the Python search agree on `grid` up to `limit` (see above)."""
    fast = oracle.solutions(grid, limit=limit)
    slow = oracle_python.solutions(grid, limit=limit)
    assert len(fast) == len(slow), (len(fast), len(slow))
    assert len({s.tobytes() for s in fast}) == len(fast)
    assert all(is_solution(grid, s) for s in fast)
    if len(slow) < limit:
        assert {s.tobytes() for s in fast} == {s.tobytes() for s in slow}


def thinned(solution: np.ndarray, keep: float, seed: int, g=None, wrong: bool = False) -> lg.Grid | None:
    """`solution` with a share `keep` of its cells given (and one given changed when `wrong`), or None."""
    rng = np.random.default_rng(seed)
    values = np.where(rng.random(len(solution)) < keep, solution, 0)
    if wrong:
        i = int(rng.integers(len(values)))
        values[i] = int(rng.integers(1, (g.size if g else 9) + 1))
    try:
        return lg.Grid.from_values(values.tolist(), g)
    except lg.InvalidPuzzleError:
        return None


SHIPPED = Path(lg.io.__file__).resolve().parent / "data" / "puzzles"


def shipped_corpora() -> list[str]:
    """The corpora shipped in linkgraph/data/puzzles with their solutions (not ../shared's)."""
    return sorted(p.name.removesuffix(".solutions.txt") for p in SHIPPED.glob("*.solutions.txt"))


def shipped(name: str, every: int = 1) -> list[tuple[lg.Grid, np.ndarray]]:
    """(grid, shipped solution) of every `every`-th line of a shipped corpus."""
    lines = list(lg.io.read_puzzles(SHIPPED / f"{name}.txt"))
    sols = lg.io.read_solutions(SHIPPED / f"{name}.solutions.txt")
    assert len(lines) == len(sols)
    return [(lines[i].grid(), np.array([int(ch) for ch in sols[i]])) for i in range(0, len(lines), every)]


def test_every_shipped_corpus_is_sampled():
    assert {"top95", "euler96", "hardest_1106", "famous"} <= set(shipped_corpora())


@pytest.mark.parametrize("name", shipped_corpora())
def test_shipped_solutions_sample(name):
    """Every 40th line of each shipped corpus: the one solution, as shipped and as the Python search finds it."""
    for grid, sol in shipped(name, every=40):
        found = oracle.solutions(grid, limit=3)
        assert len(found) == 1 and (found[0] == sol).all()
        assert_agree(grid, 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped_corpora())
def test_shipped_solutions_all(name):
    for grid, sol in shipped(name):
        found = oracle.solutions(grid, limit=2)
        assert len(found) == 1 and (found[0] == sol).all()


@pytest.mark.parametrize("limit", [0, 1, 2, 3])
def test_limits_on_puzzles_with_none_one_and_several(limit, corpus):
    unique, sol = corpus("top95", limit=1)[0]
    several = thinned(sol, 0.3, 1)
    i = int(np.flatnonzero(~unique.placed)[0])
    none = unique.eliminate([unique.geometry.candidate(i * 9 + int(sol[i]) - 1)])
    for grid, total in ((unique, 1), (several, 99), (none, 0)):
        found = oracle.solutions(grid, limit=limit)
        assert len(found) == min(total, limit)
        assert_agree(grid, limit)
    assert oracle.solutions(unique, limit=0) == [] and oracle.count_solutions(unique, limit=0) == 0


def test_thinned_and_wrong_puzzles_agree(corpus):
    """Puzzles with no, one or several solutions, made from corpus solutions by thinning and one wrong given."""
    counts = set()
    for i, (_, sol) in enumerate(corpus("top95", every=8)):
        for keep, wrong in ((0.25, False), (0.35, True), (0.45, True), (0.3, False)):
            grid = thinned(sol, keep, i, wrong=wrong)
            if grid is not None:
                assert_agree(grid, 3)
                counts.add(min(oracle.count_solutions(grid), 2))
    assert counts == {0, 1, 2}


def test_candidate_positions_agree(corpus):
    """Positions after eliminations, also of solution digits (no solution) and of others (one)."""
    rng = np.random.default_rng(11)
    seen = set()
    for grid, sol in corpus("hardest_1106", every=60):
        open_ = np.flatnonzero(~np.repeat(grid.placed, 9) & grid.live)
        wrong = open_[open_ % 9 != sol[open_ // 9] - 1]  # candidates that are not the solution's
        for cut in (rng.choice(open_, size=20, replace=False), rng.choice(wrong, size=40, replace=False)):
            live = grid.live.copy()
            live[cut] = False
            position = grid.with_live(live)
            assert_agree(position, 2)
            seen.add(oracle.count_solutions(position))
    assert {0, 1} <= seen


@pytest.mark.parametrize("g", [geo.classic(4), geo.classic(6), geo.sudoku_x(), geo.windoku(), geo.jigsaw(JIGSAW6)],
                         ids=["4x4", "6x6", "sudoku-x", "windoku", "jigsaw6"])
def test_variant_geometries_agree(g):
    empty = lg.Grid.empty(g)
    assert_agree(empty, 3)
    if g.size == 4:  # every solution of the empty grid: 288 (a known count)
        assert len(oracle.solutions(empty, limit=1000)) == 288
        assert_agree(empty, 1000)
    sol = oracle.solutions(empty, limit=1)[0]
    for seed in range(6):
        grid = thinned(sol, 0.35, seed, g, wrong=seed % 2 == 1)
        if grid is not None:
            assert_agree(grid, 3)


def test_big_grids_agree():
    """16x16 and 25x25 puzzles the Python search answers quickly, also with no solution."""
    counts = set()
    for n, keep in ((16, 0.55), (16, 0.5), (25, 0.7)):
        g = geo.classic(n)
        sol = oracle.solutions(lg.Grid.empty(g), limit=1)[0]
        assert is_solution(lg.Grid.empty(g), sol)
        for seed in range(3):
            grid = thinned(sol, keep, seed, g, wrong=seed == 1)
            if grid is None:
                continue
            assert_agree(grid, 2)
            counts.add(oracle.count_solutions(grid))
            if oracle.count_solutions(grid) == 1:  # without its solution digit in one cell: none
                i = int(np.flatnonzero(~grid.placed)[0])
                none = grid.eliminate([g.candidate(i * n + int(sol[i]) - 1)])
                assert_agree(none, 2)
                counts.add(oracle.count_solutions(none))
    assert {0, 1} <= counts


def test_a_25x25_with_several_solutions():
    """MEDIUM25 takes the Python search minutes; two different grids that are solutions prove 'several'."""
    grid = lg.Grid.parse(MEDIUM25)
    found = oracle.solutions(grid, limit=2)
    assert len(found) == 2 and not (found[0] == found[1]).all()
    assert all(is_solution(grid, s) for s in found)


def _planted(fault: str):
    """The oracle's tables with a fault planted in them (consistent tables: a wrong rule, not a crash)."""
    real = oracle._tables

    def tables(g):
        mem, cs, cap = real(g)
        if fault == "forgets-boxes":  # no box-digit sets
            return oracle._layout(mem[: 3 * g.number_of_cells], g.number_of_candidates)
        if fault == "wrong-member":  # r1c1#1 and r1c2#1 swap their cell sets
            mem = mem.copy()
            mem[0, 0], mem[1, 0] = mem[1, 0], mem[0, 0]
            return oracle._layout(mem, g.number_of_candidates)
        return mem, cs, g.size  # "no-cap": the box-line rule on sets that share more than they do
    return tables


@pytest.mark.parametrize("fault", ["forgets-boxes", "wrong-member"])
def test_a_planted_fault_fails_the_agreement(fault, monkeypatch, corpus):
    monkeypatch.setattr(oracle, "_tables", _planted(fault))
    grids = [grid for grid, _ in corpus("top95", every=10)] + [lg.Grid.empty(geo.classic(4))]
    failed = 0
    for grid in grids:
        try:
            assert_agree(grid, 2)
        except AssertionError:
            failed += 1
    assert failed > 0


def test_the_box_line_rule_is_sound_with_any_cap(monkeypatch, corpus):
    """The rule only needs A's live members inside B: a bigger cap costs time, never answers."""
    monkeypatch.setattr(oracle, "_tables", _planted("no-cap"))
    for grid, _ in corpus("top95", every=30):
        assert_agree(grid, 2)


# ---- bounds ----------------------------------------------------------------------------------

def test_time_limit_raises_search_limit_error():
    grid = lg.Grid.parse(HARD25)
    with pytest.raises(lg.SearchLimitError, match=r"^oracle: no answer within time_limit 0.2 s on a 25x25 grid "
                                                  r"\([\d,]+ nodes searched\)$"):
        oracle.count_solutions(grid, time_limit=0.2)
    with pytest.raises(lg.SearchLimitError, match="25x25"):
        oracle.solve_unique(grid, time_limit=0.2)


def test_search_stops_at_max_nodes_and_says_so():
    st = oracle.search(lg.Grid.parse(HARD25), max_nodes=500)
    assert not st.complete and 500 <= st.nodes < 500 + 64
    done = oracle.search(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    assert done.complete and len(done.solutions) == 1


def test_a_deadline_stops_the_compiled_search():
    """The search comes back to Python between slices, so a Deadline's exception lands."""
    with pytest.raises(JobTimeout):
        with Deadline(0.2):
            oracle.count_solutions(lg.Grid.parse(HARD25))


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2"])
def test_bad_limit(bad):
    with pytest.raises(lg.OptionError, match="^limit: "):
        oracle.solutions(lg.Grid.empty(), limit=bad)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), "5"])
def test_bad_time_limit(bad):
    with pytest.raises(lg.OptionError, match="^time_limit: "):
        oracle.solutions(lg.Grid.empty(), time_limit=bad)


def test_a_huge_limit_costs_no_memory_up_front():
    """The solutions' buffer grows as they come: limit=10**9 on 4x4 lists the 288, 40 on 25x25 are 40 solutions."""
    assert len(oracle.solutions(lg.Grid.empty(geo.classic(4)), limit=10**9)) == 288
    empty = lg.Grid.empty(geo.classic(25))
    found = oracle.solutions(empty, limit=40)
    assert len(found) == 40 and len({s.tobytes() for s in found}) == 40
    assert all(is_solution(empty, s) for s in found)
