"""ALS chains: a hand-built board (brute force), a hand-checked top1465 position (oracle),
near misses that must find nothing, proof checks, and oracle soundness where the rungs below stall."""

from __future__ import annotations

from itertools import islice

import networkx as nx
import numpy as np
import pytest

import linkgraph as lg
from linkgraph.errors import OptionError, ProofError
from linkgraph.techniques.als import chains as alschains
from linkgraph.techniques.als.net import als_net
from linkgraph.check.checker import check_step
from tests.techniques.patterncases import CASES, check_case, check_sound, conclusions, prepared, transpose
from tests.techniques.als.test_xz import board, forced_out

TECH = "als-chain"

#: Every default rung rated below the ALS chain's 7.3: the ladder that stalled at the sample positions
#: of tests/cases/alschains.tsv when they were written (the slow sweep stalls it afresh).
BELOW = [t.name for t in lg.techniques.LADDER if t.default and t.rating < 7.3]
#: The chain and ALS rungs below: the ones an ALS chain generalises.
KIN = ["x-chain", "xy-chain", "aic", "grouped-aic", "als-xz", "als-xy-wing", "death-blossom"]


def stalled_positions() -> list[tuple[str, int, lg.Grid, np.ndarray]]:
    """tests/cases/alschains.tsv: (corpus, index, candidate grid, solution) per line."""
    out = []
    for raw in (CASES / "alschains.tsv").read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        corpus, index, tokens, solution = raw.split("\t")
        out.append((corpus, int(index), lg.Grid.parse(tokens), np.array([int(ch) for ch in solution])))
    return out


def steps_of(grid: lg.Grid, limit: int | None = None, **options) -> list[lg.Step]:
    """The steps found (the first `limit`), each checked by the proof checker."""
    steps = list(islice(alschains.als_chains(grid, **options), limit))
    for step in steps:
        assert step.technique == TECH
        check_step(grid, step)
    return steps


# ---- hand-built board ------------------------------------------------------------

#: Cells r1c1{12}, r5c5{23}, r5c1{134}, r7c1{14}; every other cell holds all nine digits.
#: ALS r157c1{1234} (three cells of column 1, four digits). Chain:
#: r5c5#2 = r5c5#3 - (3=2)r157c1{1234}: if r5c5 is not 2 it is 3, so r5c1 (row 5, the ALS's only
#: 3) is not 3, the ALS is locked on 1, 2, 4, and its only 2, r1c1, is 2. So r5c5 or r1c1 is 2,
#: and r1c5 (row 1 with r1c1, column 5 with r5c5) is not 2. (Also r1c1#2 = r1c1#1 - (1=3)r57c1{134}
#: - r5c5#3 = r5c5#2.) Brute force over the five cells confirms -r1c5#2 is the only candidate
#: that can go.
HAND = dict(r1c1="12", r5c5="23", r5c1="134", r7c1="14")


def test_hand_board():
    grid = board(**HAND)
    text = " ".join(grid.tokens())
    _, steps = check_case(alschains.als_chains, TECH, text, "-r1c5#2")
    assert {"-r1c5#2"} == forced_out(grid)
    for step in steps:
        check_step(grid, step)
        assert step.proof.graph["als"], step.notation


@pytest.mark.parametrize("cells", [
    # r6c5 instead of r5c5: the ALS's 3 (r5c1) no longer sees the 3 of the bivalue cell
    dict(r1c1="12", r6c5="23", r5c1="134", r7c1="14"),
    # r5c1 holds 5 too: r57c1 {1345} and r157c1 {12345} are no ALS
    dict(r1c1="12", r5c5="23", r5c1="1345", r7c1="14"),
])
def test_near_misses_find_nothing(cells):
    grid = board(**cells)
    assert forced_out(grid) == set()  # brute force: nothing can go
    assert list(alschains.als_chains(grid)) == []
    assert list(alschains.als_chains(transpose(grid))) == []


def test_nothing_without_an_als():
    # a solved grid and an empty one have no ALS of two cells or more
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    assert list(alschains.als_chains(lg.Grid.parse(solved))) == []
    assert list(alschains.als_chains(lg.Grid.parse("." * 81))) == []


# ---- hand-checked corpus position ------------------------------------------------

#: top1465 #311 (index 310), after every default rung below 7.3 (they all stalled there). Candidates:
#: row 5 is r5c1{17} 3 r5c3{57} r5c4{159} 4 r5c6{78} 2 6 r5c9{89}; box 5 is 3 r4c5{56} 2 / r5c4{159}
#: 4 r5c6{78} / r6c4{19} r6c5{67} r6c6{1678}; r7c5{567} r7c6{167} r7c7{167}.
#: r5c1#1 = r5c4#1 (the only 1s of row 5) - r5c4#5 (same cell) = r4c5#5 (the only 5s of box 5)
#: - (5=1)r7c567{1567}: r4c5 sees r7c5, the ALS's only 5, so the three cells lock on 1, 6, 7 and
#: 1 stands in r7c6 or r7c7. Either r5c1 is 1 or a 1 sits in r7c6/r7c7: r7c1 (column 1, row 7)
#: is not 1. The oracle agrees (the solution has 3 there).
TOP1465_310 = "5.1.94....2.6.59................2.17.3..4..6.......5.........2.....3.8...6.8.93.."


def test_hand_checked_top1465_position():
    (grid,) = [g for corpus, i, g, _ in stalled_positions() if (corpus, i) == ("top1465", 310)]
    for tech in KIN:  # no AIC and no other ALS rung finds anything here (checked, not trusted)
        assert next(lg.techniques.TECHNIQUES[tech].find(grid), None) is None, tech
    steps = steps_of(grid)
    (step,) = [s for s in steps if lg.Candidate.parse("r7c1#1") in s.eliminations]
    assert step.proof.graph["als"] == ["r7c567{1567}"]
    assert step.proof.graph["length"] == 6  # four candidates and the ALS's two digits
    assert step.notation.startswith("r5c1#1=r5c4#1-r5c4#5=r4c5#5-(5=1)r7c567{1567}")
    solution = lg.oracle.solve_unique(lg.Grid.parse(TOP1465_310))
    assert solution[6 * 9 + 0] == 3
    check_sound(steps, solution, grid)
    # and the transposed position holds the transposed chain
    mirrored = conclusions(alschains.als_chains(transpose(grid)))
    assert "-r1c7#1" in mirrored


# ---- proofs -----------------------------------------------------------------------


def _rebuild(step: lg.Step, P: nx.DiGraph) -> lg.Step:
    return lg.make_step(step.technique, placements=step.placements, eliminations=step.eliminations,
                        premises=step.premises, proof=P, notation=step.notation)


def test_checker_rejects_broken_als_links():
    grid = board(**HAND)
    step = next(alschains.als_chains(grid))
    als_edges = [(u, v) for u, v, d in step.proof.edges(data=True) if d["family"] == "als"]
    assert als_edges
    # an ALS that is not one (a digit too many)
    P = nx.DiGraph(step.proof)
    for u, v in als_edges:
        P.edges[u, v]["via"] = "r157c1{12345}"
    with pytest.raises(ProofError):
        check_step(grid, _rebuild(step, P))
    # the ALS not locked: drop the literal that takes its entry digit out
    P = nx.DiGraph(step.proof)
    P.remove_node(als_edges[0][0])
    with pytest.raises(ProofError):
        check_step(grid, _rebuild(step, P))


def test_max_size_bounds_the_sets():
    grid = board(**HAND)
    # with two cells at most, only r57c1{134} is left: the other chain of the comment above
    steps = steps_of(grid, max_size=2)
    assert conclusions(steps) == ["-r1c5#2"]
    assert all(s.proof.graph["als"] == ["r57c1{134}"] for s in steps)
    with pytest.raises(OptionError):
        next(alschains.als_chains(grid, max_size=0))


def test_small_sets_link_to_each_other():
    # regression: two ALSs smaller than max_size were taken to share a cell (the table's padding),
    # so no ALS followed another. A = r5c12{145} and B = r8c15{156}: A's only 1 (r5c1) and B's
    # only 1 (r8c1) share column 1, so a locked A takes 1 out of B (and the other way round).
    grid = board(r5c1="15", r5c2="45", r8c1="16", r8c5="56")
    an = als_net(grid)
    node = {f"{an.als(j)}#{an.digit[j]}": an.M + j for j in range(an.K)}
    a, b = node["r5c12{145}#1"], node["r8c15{156}#1"]
    assert an.net.weak[a, b] and an.net.weak[b, a]
    assert not an.net.weak[node["r5c12{145}#5"], node["r8c15{156}#5"]]  # r5c2 and r8c5 share nothing


def test_steps_built_only_as_consumed(monkeypatch):
    built = []
    real = alschains.als_chain_step

    def counting(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(alschains, "als_chain_step", counting)
    (grid,) = [g for corpus, i, g, _ in stalled_positions() if (corpus, i) == ("top1465", 20)]
    first = next(alschains.als_chains(grid))
    assert len(built) == 1 and first.technique == TECH


# ---- soundness where the rungs below stall ---------------------------------------------


def _digits_moved(grid: lg.Grid, digits: list[int]) -> lg.Grid:
    """The transposed grid with digit d renamed digits[d - 1]."""
    moved = transpose(grid)
    cands = np.zeros_like(moved.cands)
    cands[:, np.array(digits) - 1] = moved.cands
    return lg.Grid(moved.geometry, cands, moved.givens, moved.placed)


def test_sound_on_stalled_positions():
    fired = 0
    for corpus, index, grid, solution in stalled_positions():
        steps = steps_of(grid, limit=15)  # the shortest 15 (one position has ~80; the slow sweep takes all)
        check_sound(steps, solution, grid)
        fired += bool(steps)
        lengths = [s.proof.graph["length"] for s in steps]
        assert lengths == sorted(lengths), (corpus, index)
        seen = [s.eliminations | s.placements for s in steps]
        assert len(set(map(frozenset, seen))) == len(seen), (corpus, index)
        for s in steps:  # every chain holds an ALS node
            assert s.proof.graph["als"] and "{" in s.proof.graph["chain"], s.notation
            chain = s.proof.graph["chain"]
            assert chain.count("=") + chain.count("-") + 1 == s.proof.graph["length"]
    assert fired >= 10  # the sample file holds 11 positions where a chain was found


@pytest.mark.parametrize("index", [60, 95])
def test_findings_move_with_a_symmetry(index):
    # transposing and renaming digits moves the findings with the grid
    digits = [4, 9, 1, 7, 2, 8, 6, 3, 5]
    (grid,) = [g for corpus, i, g, _ in stalled_positions() if (corpus, i) == ("top1465", index)]

    def findings(g):
        return {(frozenset(s.placements), frozenset(s.eliminations)) for s in alschains.als_chains(g)}

    def move(c: lg.Candidate) -> lg.Candidate:
        return lg.Candidate(lg.Cell(c.cell.col, c.cell.row), digits[c.digit - 1])

    want = {(frozenset(map(move, p)), frozenset(map(move, e))) for p, e in findings(grid)}
    assert want and findings(_digits_moved(grid, digits)) == want


@pytest.mark.slow
@pytest.mark.parametrize("name, every", [("top1465", 11), ("hardest_1106", 3)])  # hardest: fires on ~2%
def test_sound_where_the_rungs_below_stall(name, every, corpus):
    found = 0
    for grid, solution in prepared(corpus(name, every=every)):
        grid = lg.prepare(grid, ladder=BELOW)
        if grid.is_solved():
            continue
        found += check_sound(steps_of(grid), solution, grid)
    assert found > 0
