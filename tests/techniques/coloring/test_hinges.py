"""3D Medusa hinges: hand-checked cases, oracle, proofs, a brute-force cross-check, soundness."""

from __future__ import annotations

from itertools import combinations

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.errors import ProofError
from linkgraph.model import Literal, Role
from linkgraph.oracle import solve_unique
from linkgraph.techniques import TECHNIQUES
from linkgraph.techniques.coloring import medusa as coloring
from linkgraph.techniques.coloring import hinges
from linkgraph.check.checker import check_step
from tests.techniques.patterncases import check_case, check_sound, expected_list, prepared, read_cases

TECH = "medusa-weak-hinge"
CASES = read_cases("hinges")


def _grid(expected: str) -> lg.Grid:
    return next(lg.Grid.parse(t) for _, t, e in CASES if e == expected)


@pytest.mark.parametrize("tech,text,expected", CASES)
def test_case(tech, text, expected):
    grid, steps = check_case(hinges.weak_hinges, tech, text, expected)
    for step in steps:
        check_step(grid, step)
        assert len(step.eliminations) == 1 and not step.placements


@pytest.mark.parametrize("text", [t for _, t, _ in CASES])
def test_medusa_finds_nothing_here(text):
    assert list(coloring.medusa(lg.Grid.parse(text))) == []


@pytest.mark.parametrize("text,expected", [(t, e) for _, t, e in CASES if e != "none"])
def test_eliminations_are_not_in_the_solution(text, expected):
    grid = lg.Grid.parse(text)
    solution = solve_unique(grid)
    for item in expected_list(expected):
        cand = lg.Candidate.parse(item[1:])
        assert grid.has(cand) and solution[grid.geometry.cell_index(cand.cell)] != cand.digit


def test_proof_refutes_the_weak_node():
    grid = _grid("-r2c9#2")
    (step,) = hinges.weak_hinges(grid)
    P = step.proof
    t = Literal(lg.Candidate.parse("r2c9#2"), on=True)
    assert step.premises == (t,) and P.nodes[t]["role"] == Role.PREMISE
    assert P.graph["kind"] == "coloring" and P.graph["rule"] == "weak-hinge"
    assert P.graph["hinge"] == ["r6c8#2", "r2c9#2"] and P.graph["set"] == "r7#2"
    # the chain of the hand reasoning: r2c9 not 3, r4c9 is 3, r6c8 not 3, r6c8 is 2
    chain = ["+r2c9#2", "-r2c9#3", "+r4c9#3", "-r6c8#3", "+r6c8#2"]
    assert nx.shortest_path(P, t, Literal.parse("+r6c8#2")) == [Literal.parse(x) for x in chain]
    ends = sorted(str(n) for n, r in P.nodes(data="role") if r == Role.CONTRADICTION)
    assert ends == ["-r7c8#2", "-r7c9#2"]


def test_checker_rejects_a_claim_beyond_the_proof():
    grid = _grid("-r2c9#2")
    (step,) = hinges.weak_hinges(grid)
    extra = step.eliminations | {lg.Candidate.parse("r2c9#5")}
    bad = lg.make_step(step.technique, eliminations=extra, premises=step.premises, proof=step.proof)
    with pytest.raises(ProofError):
        check_step(grid, bad)


def test_cell_target():
    (step,) = hinges.weak_hinges(_grid("-r9c8#8"))
    assert step.proof.graph["set"] == "r7c7" and step.proof.graph["hinge"] == ["r7c4#1", "r9c8#8"]


def test_rung_follows_medusa_in_the_default_ladder():
    names = [t.name for t in lg.techniques.resolve_ladder("default")]
    assert names.index("3d-medusa") < names.index(TECH) < names.index("x-chain")
    assert TECHNIQUES[TECH].family == "coloring"
    # the solver reaches it by name: 3D Medusa finds nothing here, the hinge does
    step = lg.hint(_grid("-r5c7#2"), ladder=["3d-medusa", TECH])
    assert step.technique == TECH and sorted(map(str, step.eliminations)) == ["r5c7#2"]


# ---- an independent brute-force reading of the seed's definition ---------------------------------
def _world(grid: lg.Grid):
    """Live candidates, who sees whom, the sets X, and the 3D Medusa clusters (networkx)."""
    g = grid.geometry
    live = {int(k) for k in grid.live.nonzero()[0]}
    sets = [{int(k) for k in row if int(k) in live} for row in g.set_members]
    sets = [s for s in sets if s]
    seen = {k: set() for k in live}
    for s in sets:
        for a, b in combinations(s, 2):
            seen[a].add(b)
            seen[b].add(a)
    strong = nx.Graph([tuple(s) for s in sets if len(s) == 2])
    clusters = []
    for comp in nx.connected_components(strong):
        color = nx.bipartite.color(strong.subgraph(comp))
        clusters.append(tuple({k for k in comp if color[k] == x} for x in (0, 1)))
    return live, sets, seen, clusters


def _false(color, other, sets, seen) -> bool:
    """A colour is false if two of it see each other or it and the other colour's OFF empty a set X."""
    sees = set().union(*(seen[k] for k in color))
    return bool(sees & color) or any(s <= sees | other for s in sets)


def _brute_weak_hinges(grid: lg.Grid) -> set[str]:
    live, sets, seen, clusters = _world(grid)
    ok = [(A, B) for A, B in clusters if not _false(A, B, sets, seen) and not _false(B, A, sets, seen)]
    # what 3D Medusa removes: a false colour (if only one is), or a candidate seeing both colours
    trapped = {k for A, B in ok for k in live - A - B if seen[k] & A and seen[k] & B}
    for A, B in clusters:
        if _false(A, B, sets, seen) != _false(B, A, sets, seen):
            trapped |= A if _false(A, B, sets, seen) else B
    out = set()
    for A, B in ok:
        for X, Y in ((A, B), (B, A)):  # X: the hinge end's colour, Y: what the weak node sees
            for t in live - X - Y - trapped:
                if not seen[t] & Y or seen[t] & X:
                    continue
                if any(s <= seen[a] | seen[t] and s & seen[a] for a in X for s in sets):
                    out.add(str(grid.geometry.candidate(t)))
    return out


def _brute_strong_hinges(grid: lg.Grid) -> list[tuple[set, set[str]]]:
    """(colour, both ends) of each strong hinge: two same-colour ends that see every live member of a set X."""
    live, sets, seen, clusters = _world(grid)
    out = []
    for A, B in clusters:
        if _false(A, B, sets, seen) and _false(B, A, sets, seen):
            continue  # a broken grid
        for X in (A, B):
            for a, b in combinations(sorted(X), 2):
                if any(s <= seen[a] | seen[b] for s in sets):
                    out.append((X, {str(grid.geometry.candidate(k)) for k in (a, b)}))
    return out


@pytest.fixture(scope="module")
def top95():
    from tests.conftest import load_corpus

    return prepared(load_corpus("top95", limit=30))


@pytest.mark.parametrize("text", [t for _, t, _ in CASES])
def test_cases_match_brute_force(text):
    grid = lg.Grid.parse(text)
    found = {str(c) for s in hinges.weak_hinges(grid) for c in s.eliminations}
    assert found == _brute_weak_hinges(grid)


def test_matches_brute_force_on_top95(top95):
    total = 0
    for grid, _ in top95[::3]:
        found = {str(c) for s in hinges.weak_hinges(grid) for c in s.eliminations}
        assert found == _brute_weak_hinges(grid)
        total += len(found)
    assert total > 0


def test_every_strong_hinge_is_a_medusa_false_colour(top95):
    count = 0
    for grid, _ in top95:
        medusa_out = {str(c) for s in coloring.medusa(grid) for c in s.eliminations}
        for color, ends in _brute_strong_hinges(grid):
            assert ends <= medusa_out  # 3D Medusa removes the colour the two ends share
            count += 1
    assert count > 0


# ---- soundness ----------------------------------------------------------------------------------
def test_sound_on_a_sample(corpus):
    found = 0
    for name in ("top1465", "hardest_1106"):
        for grid, sol in prepared(corpus(name, every=150)):
            found += check_sound(list(hinges.weak_hinges(grid)), sol, grid)
    assert found > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["top1465", "hardest_1106"])
def test_sound_on_corpus(name, corpus):
    for grid, sol in prepared(corpus(name, every=3)):
        check_sound(list(hinges.weak_hinges(grid)), sol, grid)


@pytest.mark.slow
def test_fires_where_the_rungs_below_stall(corpus):
    """After every default rung rated below the hinge has stalled (3D Medusa included), the weak hinge
    still finds sound, proven eliminations. Full top1465: 844 stalled positions, fires on 201."""
    below = [t.name for t in lg.techniques.LADDER if t.default and t.rating < TECHNIQUES[TECH].rating]
    fired = 0
    for grid, sol in corpus("top1465", every=10):
        grid = lg.prepare(grid, ladder=below)
        if not grid.is_solved():
            fired += check_sound(list(hinges.weak_hinges(grid)), sol, grid) > 0
    assert fired > 0
