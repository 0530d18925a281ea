"""Almost-locked ranges: hand-checked cases, proofs, the seed example, oracle soundness."""

from __future__ import annotations

import pytest

import linkgraph as lg
from linkgraph.errors import ProofError
from linkgraph.model import Group, Literal, Role
from linkgraph.oracle import solve_unique
from linkgraph.techniques.coloring import medusa as coloring
from linkgraph.techniques.coloring import ranges
from linkgraph.check.checker import check_step
from tests.techniques.patterncases import check_case, check_sound, prepared, read_cases

TECH = "almost-locked-range"
CASES = read_cases("ranges")
SINGLE, GROUP = CASES[0][1], CASES[1][1]  # the first two cases: one place left in box 2, two
COLOR = CASES[4][1]  # the colour trap

# Positions from real puzzles, reached by our ladder below this rung (kept as text so that new lower
# rungs do not move them). Each expectation is hand-checked in its comment and by the oracle.
#
# top1465 #250 (1-based line, as the seed counts: its r1c3#1 is no solution digit there), after 21 steps of the rungs below (before an empty rectangle takes the
# same 1): the seed's example. r4c3 and r4c4 hold 1 and 5 only (the {15 15} pair). If r1c3 were 1,
# r4c3 (column 3) is not 1, so it is 5 and r4c4 is 1; but r1c3 also clears r1c5 and r1c6 (row 1) of
# box 2's 1s, leaving r2c4 and r3c4 (an almost-locked range on column 4), so r4c4 is not 1. The same
# with 5: r1c3#5 sees r4c3#5, and box 2's 5s (r1c5, r2c4, r3c4) lose r1c5. So r1c3 is neither 1 nor 5.
SEED_250 = (
    "135 1235 1235 4 157 17 6 8 9 4 15 6 135 8 9 2 7 135 78 78 9 135 2 6 145 135 1345 2 9 15 15 6 8 3 4 7 "
    "13567 1357 4 9 157 137 8 156 2 135678 13578 135 2 1457 1347 159 1569 156 139 1234 8 7 149 5 149 "
    "12369 1346 159 6 125 8 3 124 14579 1259 145 1359 12345 7 6 149 124 1459 12359 8"
)
# The seed's other example, top95 #20 (r3c3#5), does not reproduce: in our top95 line 20 row 3 holds a
# given 5, line 19's solution has r3c3 = 5, and along line 21's solve path the rung never removes it.
SEED_250_PUZZLE = "......6894......7.....26...2...6.34...49..8.2...........87.5....6.83......7......"
# top1465 #21, where the rungs below stall. r4c4 holds 4 and 9 only. Box 6 has its 4s and its 9s in
# r4c7, r4c9 and r5c9 alone. If r5c9 were 2, 5 or 6, both digits would be locked into r4c79, leaving no
# 4 and no 9 for r4c4 (row 4). So r5c9 is 4 or 9.
STALL_21 = (
    "3569 5689 68 79 2 1379 369 4 15679 359 7 24 489 1348 6 2389 1235 1259 369 1 24 5 3478 34789 23689 "
    "2367 2679 2 356 7 49 1456 149 3469 8 14569 156 568 168 3 4568 2489 7 256 24569 4 3568 9 278 15678 "
    "278 236 12356 1256 79 249 5 6 478 2478 1 29 3 8 26 3 1 9 5 246 267 2467 1679 2469 16 247 347 2347 5 "
    "269 8"
)
STALL_21_PUZZLE = "....2..4..7...6....1.5.....2......8....3..7..4.9.........6..1.38...9..........5.."


@pytest.mark.parametrize("tech,text,expected", CASES)
def test_case(tech, text, expected):
    grid, steps = check_case(ranges.almost_locked_ranges, tech, text, expected)
    for step in steps:
        check_step(grid, step)
    # none of these is plain 3D Medusa
    assert not list(coloring.medusa(grid))


def _found(text: str) -> set[str]:
    return {str(c) for s in ranges.almost_locked_ranges(lg.Grid.parse(text)) for c in s.eliminations}


@pytest.mark.parametrize(
    "text,puzzle,want",
    [
        (SEED_250, SEED_250_PUZZLE, {"r1c3#1", "r1c3#5"}),
        (STALL_21, STALL_21_PUZZLE, {"r5c9#2", "r5c9#5", "r5c9#6"}),
    ],
)
def test_real_positions(text, puzzle, want):
    grid = lg.Grid.parse(text)
    solution = solve_unique(lg.Grid.parse(puzzle))
    # the stored position is the puzzle's: every solution digit is still a candidate
    assert all(grid.has(lg.Candidate(grid.geometry.cell(i), int(v))) for i, v in enumerate(solution))
    steps = list(ranges.almost_locked_ranges(grid))
    assert want <= {str(c) for s in steps for c in s.eliminations}
    check_sound(steps, solution, grid)
    assert not list(coloring.medusa(grid))


def test_trap_proof_shape():
    # the group case: +r4c5 -> -r2c5, -r3c5 -> +r1c46 (box 2) -> -r1c1 (row 1); +r4c5 -> -r4c1 -> +r1c1
    (step,) = ranges.almost_locked_ranges(lg.Grid.parse(GROUP))
    P = step.proof
    assert P.graph["kind"] == "coloring" and P.graph["rule"] == "range-trap"
    assert P.graph["ranges"] == ["b2#1: r1c46#1 => r1#1"]
    assert [str(p) for p in step.premises] == ["+r4c5#1"]
    group = Literal(Group.parse("r1c46#1"), on=True)
    assert sorted(str(u) for u in P.predecessors(group)) == ["-r2c5#1", "-r3c5#1"]
    assert {P.edges[u, group]["via"] for u in P.predecessors(group)} == {"b2#1"}
    contradiction = sorted(str(n) for n, r in P.nodes(data="role") if r == Role.CONTRADICTION)
    assert contradiction == ["+r1c1#1", "-r1c1#1"]


def test_color_trap_proof_refutes_the_colour():
    grid = lg.Grid.parse(COLOR)
    step = next(s for s in ranges.almost_locked_ranges(grid) if s.proof.graph["rule"] == "range-color-trap")
    P = step.proof
    assert sorted(map(str, step.eliminations)) == ["r4c5#1", "r9c5#2"]
    root = step.premises[0]
    assert step.premises == (root, ~root) and str(root.cand) in P.graph["colors"][0]
    assert P.graph["colors"] == [["r4c5#1", "r9c5#2"], ["r4c5#2"]]
    assert sorted(map(sorted, P.graph["trapped"])) == [["r1c1#1"], ["r4c1#1"]]
    # the ON branch ends in r1c1 both ON and OFF; the OFF branch turns the whole colour OFF
    contradiction = sorted(str(n) for n, r in P.nodes(data="role") if r == Role.CONTRADICTION)
    assert contradiction == ["+r1c1#1", "-r1c1#1"]
    assert {"-r4c5#1", "-r9c5#2"} <= {str(n) for n in P}


def test_two_range_proof_uses_both_digits():
    grid = lg.Grid.parse(STALL_21)
    step = next(s for s in ranges.almost_locked_ranges(grid) if str(min(s.eliminations)) == "r5c9#2")
    assert step.proof.graph["ranges"] == ["b6#4: r4c79#4 => r4#4", "b6#9: r4c79#9 => r4#9"]
    assert sorted(map(sorted, step.proof.graph["colors"])) == [["r4c4#4"], ["r4c4#9"]]


def test_checker_rejects_a_range_missing_a_place():
    # drop one of the strong edges into the group: box 2's r3c5 is no longer shown OFF
    grid = lg.Grid.parse(GROUP)
    (step,) = ranges.almost_locked_ranges(grid)
    P = step.proof.copy()
    P.remove_edge(Literal.parse("-r3c5#1"), Literal(Group.parse("r1c46#1"), on=True))
    bad = lg.make_step(step.technique, eliminations=step.eliminations, premises=step.premises, proof=P)
    with pytest.raises(ProofError):
        check_step(grid, bad)


def test_medusa_traps_are_left_to_medusa():
    # 3D Medusa's docstring position: r5c5#1 and r5c5#2 take different colours of the one cluster, so
    # r5c5#3..#9 see both colours directly; that is 3D Medusa's result and this rung does not repeat it
    grid = lg.Grid.empty()
    out = [f"r1c1#{d}" for d in range(3, 10)]
    out += [f"r1c{c}#1" for c in (2, 3, 4, 6, 7, 8, 9)] + [f"r{r}c5#1" for r in (2, 3, 4, 6, 7, 8, 9)]
    out += [f"r{r}c1#2" for r in (2, 3, 4, 6, 7, 8, 9)] + [f"r5c{c}#2" for c in (2, 3, 4, 6, 7, 8, 9)]
    grid = grid.eliminate({lg.Candidate.parse(c) for c in out})
    medusa = {str(c) for s in coloring.medusa(grid) for c in s.eliminations}
    assert {f"r5c5#{d}" for d in range(3, 10)} <= medusa
    assert not medusa & {str(c) for s in ranges.almost_locked_ranges(grid) for c in s.eliminations}


def test_nothing_without_clusters():
    assert not list(ranges.almost_locked_ranges(lg.Grid.empty()))


def test_find_ranges_box_two():
    # box 2 of the single-place case: 1s at r1c4, r2c5, r3c5; lines with places on and off them
    grid = lg.Grid.parse(SINGLE)
    g = grid.geometry
    got = sorted(
        (str(g.setx(r.line_set)), [str(g.candidate(k)) for k in r.inside])
        for r in ranges.find_ranges(grid) if str(g.setx(r.box_set)) == "b2#1"
    )
    assert got == [
        ("c4#1", ["r1c4#1"]), ("c5#1", ["r2c5#1", "r3c5#1"]), ("r1#1", ["r1c4#1"]),
        ("r2#1", ["r2c5#1"]), ("r3#1", ["r3c5#1"]),
    ]


@pytest.fixture(scope="module")
def top95(corpus):
    return prepared(corpus("top95", limit=20))


def test_sound_on_top95(top95):
    # after the basic ladder (not the full lower ladder): the rung has more to find here
    found = sum(check_sound(list(ranges.almost_locked_ranges(grid)), sol, grid) for grid, sol in top95)
    assert found > 0


@pytest.mark.slow
def test_sound_on_top1465(corpus):
    for grid, sol in prepared(corpus("top1465", every=5)):
        check_sound(list(ranges.almost_locked_ranges(grid)), sol, grid)


@pytest.mark.slow
def test_fires_where_the_rungs_below_stall(corpus):
    """After every default rung rated below this one has stalled (3D Medusa and its weak hinge
    included), the rung still finds sound, proven eliminations. Full top1465: 800 stalled
    positions, fires on 47 (37 range traps, each with two ranges; 20 colour traps; 113 eliminations)."""
    rating = lg.techniques.TECHNIQUES[TECH].rating
    below = [t.name for t in lg.techniques.LADDER if t.default and t.rating < rating]
    fired = 0
    for grid, sol in corpus("top1465", every=10):
        grid = lg.prepare(grid, ladder=below)
        if not grid.is_solved():
            fired += check_sound(list(ranges.almost_locked_ranges(grid)), sol, grid) > 0
    assert fired > 0
