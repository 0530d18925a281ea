"""Propagation engine: semantics against a naive loop, soundness against the oracle, proofs replayed."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from tests.nets.netcheck import check_contradiction

import linkgraph as lg
from linkgraph.nets.propagate import Structure, propagate, propagate_many
from linkgraph.solver import prepare

GNPX = lg.samples.GNPX_FORCECHAIN


def naive(grid: lg.Grid, premise: lg.Literal):
    """Depth-0 propagation written plainly: (on, off, failed) as sets of candidates."""
    sets = []
    g = grid.geometry
    for s in range(g.number_of_sets):
        mem = [g.candidate(k) for k in g.set_members[s] if grid.live[k]]
        if len(mem) >= 2:
            sets.append(mem)
    on, off = set(), set()
    (on if premise.on else off).add(premise.cand)
    while True:
        if on & off:
            return on, off, True
        for mem in sets:
            if sum(c in on for c in mem) >= 2 or all(c in off for c in mem):
                return on, off, True
        new_on, new_off = set(), set()
        for mem in sets:
            ons = [c for c in mem if c in on]
            if ons:
                new_off |= {c for c in mem if c not in ons} - off
            left = [c for c in mem if c not in off]
            if len(left) == 1 and not ons:
                new_on.add(left[0])
        new_on -= on
        if not new_on and not new_off:
            return on, off, False
        on |= new_on
        off |= new_off


@pytest.fixture(scope="module")
def gnpx():
    return prepare(lg.Grid.parse(GNPX))


def test_matches_naive_loop(gnpx):
    st = Structure(gnpx)
    prem = [(lg.Literal(st.candidate(k), on=o),) for o in (True, False) for k in range(st.size)]
    res = propagate_many(st, prem)
    for b, (p,) in enumerate(prem):
        on, off, failed = naive(gnpx, p)
        assert (res.failed[b] >= 0) == failed, p
        if not failed:
            assert {st.candidate(k) for k in np.flatnonzero(res.on[b])} == on
            assert {st.candidate(k) for k in np.flatnonzero(res.off[b])} == off


def _sound_batch(grid, solution, depth=0, level=0):
    st = Structure(grid, depth=depth)
    if st.size == 0:
        return 0
    g = grid.geometry
    true = np.array([solution[g.cell_index(st.candidate(k).cell)] == st.candidate(k).digit for k in range(st.size)])
    prem = [(lg.Literal(st.candidate(k), on=bool(true[k])),) for k in range(st.size)]
    res = propagate_many(st, prem, depth=depth, level=level)
    assert (res.failed < 0).all(), "a true premise failed"
    assert not (res.on & ~true[None, :]).any(), "a false candidate turned ON"
    assert not (res.off & true[None, :]).any(), "a true candidate turned OFF"
    # false premises: every failure must be explainable and replay
    fprem = [(lg.Literal(st.candidate(k), on=not true[k]),) for k in range(st.size)]
    fres = propagate_many(st, fprem, depth=depth, level=level)
    for b in np.flatnonzero(fres.failed >= 0)[:5]:
        out = fres.outcome(int(b))
        check_contradiction(grid, out.explain(), premises=set(fprem[b]))
    return int((fres.failed >= 0).sum())


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_true_premises_never_fail(corpus, depth):
    found = 0
    for grid, sol in _stuck(corpus)[:3]:
        found += _sound_batch(grid, sol, depth=depth)
    assert found > 0


def _stuck(corpus, name="top95", limit=8):
    out = []
    for grid, sol in corpus(name, limit=limit):
        grid = prepare(grid)
        if not grid.is_solved():
            out.append((grid, sol))
    return out


def test_nested_level_sound(corpus):
    grid, sol = _stuck(corpus)[0]
    assert _sound_batch(grid, sol, level=1) > 0


def test_depth_adds_inferences(corpus):
    """Each depth derives a superset of the previous one's literals."""
    grid = _stuck(corpus)[0][0]
    counts = []
    for depth in (0, 1, 2):
        st = Structure(grid, depth=depth)
        prem = [(lg.Literal(st.candidate(k), on=False),) for k in range(st.size)]
        res = propagate_many(st, prem, depth=depth)
        counts.append(int(res.on.sum() + res.off.sum()))
    assert counts[0] <= counts[1] <= counts[2]
    assert counts[0] < counts[2]


def test_outcome_explain_and_style_example(gnpx):
    out = propagate(gnpx, [lg.Literal.parse("+r4c4#7")])
    assert out.contradiction is not None
    P = out.explain()
    assert P.graph["kind"] == "net"
    roles = {str(n): d["role"] for n, d in P.nodes(data=True)}
    assert roles["+r4c4#7"] == "premise"
    assert sum(r == "contradiction" for r in roles.values()) >= 2
    check_contradiction(gnpx, P, premises={lg.Literal.parse("+r4c4#7")})


def test_outcome_no_contradiction(gnpx):
    from linkgraph.oracle import solve_unique

    digit = int(solve_unique(gnpx)[gnpx.geometry.cell_index(lg.Cell(1, 7))])  # r2c8: 1 or 2
    other = 3 - digit
    out = propagate(gnpx, [lg.Literal.parse(f"+r2c8#{digit}")])
    assert out.contradiction is None
    assert lg.Literal.parse(f"-r2c8#{other}") in out.literals
    with pytest.raises(ValueError):
        out.explain()


@pytest.mark.parametrize("bad", [dict(depth=3), dict(depth=-1), dict(level=-1), dict(level=9)])
def test_bad_options(gnpx, bad):
    with pytest.raises(lg.OptionError):
        propagate(gnpx, [lg.Literal.parse("+r2c8#1")], **bad)


def test_bad_premise(gnpx):
    with pytest.raises(lg.OptionError):
        propagate(gnpx, [lg.Literal.parse("+r1c1#9")])


def test_nested_net_contradiction_on_an_outer_literal_is_connected():
    """Fata Morgana after its first step (r5c5=5): in the branch +r9c5#3 the nested net of
    +r6c8#6 fails by an empty c5#1 that includes the outer literal -r9c5#1. That literal must be
    a premise of the nested net with an in-edge into -r6c8#6 (it used to be a contradiction node
    with no in-edge, which the checker rejects)."""
    from pathlib import Path

    from linkgraph.model import Role
    from linkgraph.oracle import solve_unique
    from linkgraph.check.checker import check_step

    famous = Path(lg.__file__).parent / "data" / "puzzles" / "famous.txt"
    name, text = famous.read_text().splitlines()[0].split("\t")
    assert name == "Fata Morgana"
    grid = lg.Grid.parse(text)
    g = grid.geometry
    solution = solve_unique(grid)
    r5c5 = lg.Candidate.parse("r5c5#5")
    assert int(solution[g.cell_index(r5c5.cell)]) == 5
    position = grid.apply(lg.make_step("hidden-single", placements=[r5c5]))
    premise, conclusion = lg.Literal.parse("+r9c5#3"), lg.Literal.parse("-r9c5#3")
    assert int(solution[g.cell_index(premise.cand.cell)]) != 3

    out = propagate(position, [premise], level=1)
    assert out.contradiction is not None
    P = out.explain()
    inner, outer = lg.Literal.parse("-r6c8#6"), lg.Literal.parse("-r9c5#1")
    nets = [d for u, v, d in P.in_edges(inner, data=True) if d["kind"] == "net"]
    assert nets, "the branch no longer needs the nested net of +r6c8#6"
    sub = nets[0]["proof"]
    assert sub.nodes[outer]["role"] == Role.PREMISE
    assert P.has_edge(outer, inner) and P.edges[outer, inner]["kind"] == "net"

    P = nx.DiGraph(P)
    P.graph.update(net="contradiction", premises=[str(premise)], conclusion=str(conclusion))
    step = lg.make_step("forcing-net-nested", eliminations=[conclusion.cand], premises=(premise,), proof=P)
    check_step(position, step)


@pytest.mark.parametrize("depth, level", [(0, 0), (1, 0), (2, 0), (0, 1)])
def test_single_premises_packed_directly_are_the_lists_propagated(gnpx, depth, level):
    """`propagate_singles` writes its premises straight into packed words; `propagate_many`
    (one premise list per branch, made into bools and packed) is its oracle: the same
    failures, end states and rounds, for premises in any order, a candidate twice and
    both signs (more than 64 branches, so several words and compacted tails)."""
    from linkgraph.nets.propagate import propagate_singles

    st = Structure(gnpx, depth=depth)
    rng = np.random.default_rng(depth + 3 * level)
    n = 40 if level else 150
    ks = rng.integers(0, st.size, size=n)
    ks[5] = ks[4]  # a candidate twice with the same sign
    ons = rng.random(n) < 0.5
    ons[4] = ons[5] = True
    got = propagate_singles(st, ks, ons, depth=depth, level=level)
    want = propagate_many(st, [[lg.Literal(st.candidate(k), on=bool(on))] for k, on in zip(ks, ons)],
                          depth=depth, level=level)
    assert (got.failed == want.failed).all() and (got.failed >= 0).any()
    assert (got.on == want.on).all() and (got.off == want.off).all()
    for b in range(n):
        for x, y in zip(got.rounds(b), want.rounds(b)):
            assert (x == y).all()
