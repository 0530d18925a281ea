"""The proof checker: hand-built proofs of the GNPX seed position are accepted,
and every tampering with them (an edge removed, a candidate swapped, a strong
link that is only weak, a wrong via, other premises) is rejected."""

from __future__ import annotations

import re

import networkx as nx
import numpy as np
import pytest

import linkgraph as lg
from linkgraph.errors import ProofError
from linkgraph.model import Als, Candidate, Cell, Literal, Role, SetX
from linkgraph.oracle import solve_unique
from linkgraph.check.checker import check_step, check_steps

# The 20 open cells of the GNPX position after the basic ladder (preamble / seed text).
OPEN = (
    "r2c4 128, r2c6 28, r2c8 12, r3c5 12, r3c8 12, r4c4 37, r4c8 37, r5c4 137, r5c5 17, r5c7 78, "
    "r5c9 38, r6c4 28, r6c6 28, r7c2 28, r7c5 27, r7c8 37, r7c9 38, r8c2 28, r8c4 27, r8c7 78"
)


def gnpx_position() -> lg.Grid:
    """The seed's position, built from the solution and the list of open cells."""
    puzzle = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    tokens = [str(v) for v in solve_unique(puzzle)]
    for item in OPEN.split(", "):
        cell, digits = item.split()
        c = Cell.parse(cell)
        tokens[c.row * 9 + c.col] = digits
    return lg.Grid.parse(" ".join(tokens))


GRID = gnpx_position()
G = GRID.geometry


def lit(text: str) -> Literal:
    return Literal.parse(text)


def _sets_of(*cands: Candidate) -> list[SetX]:
    """Sets X holding every one of `cands` (brute force over the geometry's sets)."""
    out = []
    for s in range(G.number_of_sets):
        members = {int(k) for k in G.set_members[s]}
        if all(G.index(c) in members for c in cands):
            out.append(G.setx(s))
    return out


def _live_members(sx: SetX) -> set[int]:
    return {int(k) for k in G.set_members[G.set_index(sx)] if GRID.live[k]}


def _edge(u: Literal, v: Literal, als: str | None = None) -> tuple[Literal, Literal, dict]:
    if als is not None:
        cells = Als.parse(als + "{1}").cells
        digits = sorted({d for c in cells for d in GRID.digits(c)})
        return u, v, {"kind": "strong", "family": "als", "via": str(Als(cells, tuple(digits)))}
    if u.on:  # weak: any shared set, house sets first
        sx = sorted(_sets_of(u.cand, v.cand), key=lambda s: s.cell is not None)[0]
        kind = "weak"
    else:  # strong: a shared set whose live members are exactly the two
        pair = {G.index(u.cand), G.index(v.cand)}
        sx = [s for s in _sets_of(u.cand, v.cand) if _live_members(s) == pair][0]
        kind = "strong"
    return u, v, {"kind": kind, "family": "cell" if sx.cell is not None else "house", "via": str(sx)}


_LINK = re.compile(r"\[(W|S) (?:\(ALS:(\S+)\) )?(r\dc\d)/([+-])(\d) -> (r\dc\d)/([+-])(\d)\]")


def gnpx_branch(text: str) -> list[tuple[Literal, Literal, dict]]:
    """The edges of one GNPX chain line; a link that starts where the last did not end
    gets the implied strong link inside the cell (GNPX leaves it out)."""
    edges = []
    prev = None
    for _, als, c1, s1, d1, c2, s2, d2 in _LINK.findall(text):
        u, v = lit(f"{s1}{c1}#{d1}"), lit(f"{s2}{c2}#{d2}")
        if prev is not None and prev != u:
            edges.append(_edge(prev, u))
        edges.append(_edge(u, v, als or None))
        prev = v
    return edges


def proof(branches: list[str], premises: list[str], conclusions: list[str], **graph) -> nx.DiGraph:
    P = nx.DiGraph(**graph)
    for text in branches:
        for u, v, data in gnpx_branch(text):
            P.add_edge(u, v, **data)
    for node in P.nodes:
        P.nodes[node]["role"] = Role.INNER
    for p in premises:
        P.nodes[lit(p)]["role"] = Role.PREMISE
    for c in conclusions:
        if lit(c) in P:
            P.nodes[lit(c)]["role"] = Role.CONCLUSION
    return P


def step_of(technique: str, P: nx.DiGraph, premises: list[str], conclusions: list[str]) -> lg.Step:
    places = [lit(c).cand for c in conclusions if c.startswith("+")]
    elims = [lit(c).cand for c in conclusions if c.startswith("-")]
    return lg.make_step(
        technique, placements=places, eliminations=elims, premises=[lit(p) for p in premises], proof=P
    )


# ---- the seed's chains --------------------------------------------------------------
CELL_R6C6 = [
    "[W r2c8/+1 -> r2c4/-1] => [S r2c4/-1 -> r3c5/+1] => [W r3c5/+1 -> r5c5/-1] => [W r5c5/+7 -> r5c7/-7] => "
    "[S r5c7/-7 -> r8c7/+7] => [W r8c7/+7 -> r8c4/-7] => [W r8c4/+2 -> r6c4/-2] => [S r6c4/-2 -> r6c6/+2]",
    "[W r2c8/+2 -> r2c6/-2] => [S r2c6/-2 -> r6c6/+2]",
]
CELL_R2C6 = [
    "[W r2c8/+1 -> r2c4/-1] => [S (ALS:r2468c4) r2c4/-1 -> r4c4/+3] => [W r4c4/+3 -> r4c8/-3] => "
    "[S r4c8/-3 -> r7c8/+3] => [S r7c8/-7 -> r7c5/+7] => [S r7c5/-2 -> r3c5/+2] => [W r3c5/+2 -> r2c6/-2] => "
    "[S r2c6/-2 -> r2c6/+8]",
    "[W r2c8/+2 -> r3c8/-2] => [S r3c8/-2 -> r3c5/+2] => [W r3c5/+2 -> r2c6/-2] => [S r2c6/-2 -> r2c6/+8]",
]
CELL_R6C4 = [
    CELL_R6C6[0].replace("r6c6/+2]", "r6c4/+8]"),
    "[W r2c8/+2 -> r2c6/-2] => [S r2c6/-2 -> r6c6/+2] => [S r6c6/-8 -> r6c4/+8]",
]
HOUSE_R6C6 = [
    "[W r2c4/+1 -> r2c4/-8] => [S r2c4/-8 -> r2c6/+8] => [S r2c6/-2 -> r6c6/+2]",
    CELL_R6C6[0],
]
CONTRA_R2C4 = [
    "[W r2c4/+2 -> r2c8/-2] => [S (ALS:r247c8) r2c8/-2 -> r2c8/+1]",
    "[W r2c4/+2 -> r8c4/-2] => [W r8c4/+7 -> r8c7/-7] => [S r8c7/-7 -> r5c7/+7] => [W r5c7/+7 -> r5c5/-7] => "
    "[W r5c5/+1 -> r3c5/-1] => [S r3c5/-1 -> r3c8/+1] => [W r3c8/+1 -> r2c8/-1]",
]
CONTRA_R5C9 = [
    "[W r5c9/+8 -> r5c7/-8] => [W r5c7/+7 -> r5c5/-7] => [W r5c5/+1 -> r3c5/-1] => [S r3c5/-1 -> r2c4/+1]",
    "[W r5c9/+8 -> r5c7/-8] => [S r5c7/-8 -> r8c7/+8] => [W r8c7/+8 -> r7c9/-8] => "
    "[S (ALS:r7c589) r7c9/-8 -> r7c5/+2] => [W r7c5/+2 -> r3c5/-2] => [S r3c5/-2 -> r3c8/+2] => "
    "[S r3c8/-1 -> r2c8/+1] => [W r2c8/+1 -> r2c4/-1]",
]

CASES = {
    "cell r6c6#2": (CELL_R6C6, ["+r2c8#1", "+r2c8#2"], ["+r6c6#2"], "forcing-chain-cell"),
    "cell r2c6#8": (CELL_R2C6, ["+r2c8#1", "+r2c8#2"], ["+r2c6#8"], "forcing-chain-cell"),
    "cell r6c4#8": (CELL_R6C4, ["+r2c8#1", "+r2c8#2"], ["+r6c4#8"], "forcing-chain-cell"),
    "house r6c6#2": (HOUSE_R6C6, ["+r2c4#1", "+r2c8#1"], ["+r6c6#2"], "forcing-chain-house"),
    "contradiction r2c4#2": (CONTRA_R2C4, ["+r2c4#2"], ["-r2c4#2"], "forcing-chain-contradiction"),
    "contradiction r5c9#8": (CONTRA_R5C9, ["+r5c9#8"], ["-r5c9#8"], "forcing-chain-contradiction"),
}


def make_case(name: str) -> lg.Step:
    branches, premises, conclusions, technique = CASES[name]
    P = proof(branches, premises, conclusions, kind="chain")
    return step_of(technique, P, premises, conclusions)


def test_position_matches_the_seed():
    assert GRID.number_of_unsolved == 20
    assert GRID.digits(Cell.parse("r5c4")) == (1, 3, 7)


@pytest.mark.parametrize("name", sorted(CASES))
def test_seed_proofs_are_accepted(name):
    step = make_case(name)
    check_step(GRID, step)
    # and the conclusions are true (independent oracle)
    sol = solve_unique(GRID)
    for c in step.placements:
        assert sol[G.cell_index(c.cell)] == c.digit
    for c in step.eliminations:
        assert sol[G.cell_index(c.cell)] != c.digit


def mutate(step: lg.Step, P: nx.DiGraph, premises=None, placements=None, eliminations=None) -> lg.Step:
    return lg.make_step(
        step.technique,
        placements=step.placements if placements is None else placements,
        eliminations=step.eliminations if eliminations is None else eliminations,
        premises=step.premises if premises is None else premises,
        proof=P,
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_single_edge_removal_is_caught(name):
    step = make_case(name)
    edges = list(step.proof.edges)
    assert edges
    for u, v in edges:
        P = nx.DiGraph(step.proof)
        P.remove_edge(u, v)
        with pytest.raises(ProofError):
            check_step(GRID, mutate(step, P))


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_candidate_swap_is_caught(name):
    """Move one inner literal to another digit of its cell or another cell of its row."""
    step = make_case(name)
    caught = total = 0
    for node, role in step.proof.nodes(data="role"):
        if role != Role.INNER:
            continue
        c = node.cand
        for other in (Candidate(c.cell, c.digit % 9 + 1), Candidate(Cell(c.cell.row, (c.cell.col + 1) % 9), c.digit)):
            new = Literal(other, on=node.on)
            if new in step.proof:
                continue
            P = nx.relabel_nodes(nx.DiGraph(step.proof), {node: new})
            total += 1
            with pytest.raises(ProofError):
                check_step(GRID, mutate(step, P))
            caught += 1
    assert total and caught == total


def test_strong_link_that_is_only_weak_is_caught():
    """Make r4c6#2 live again: column 6's 2 then has three places, so -r2c6#2 => +r6c6#2 fails."""
    step = make_case("cell r6c6#2")
    live = GRID.live.copy()
    live[G.index(Candidate.parse("r4c6#2"))] = True
    weaker = GRID.with_live(live)
    with pytest.raises(ProofError, match=r"-r2c6#2 -> \+r6c6#2 \(strong via c6#2\): r4c6#2 is live"):
        check_step(weaker, step)


def test_weak_edge_relabelled_strong_is_caught():
    step = make_case("cell r6c6#2")
    P = nx.DiGraph(step.proof)
    P.edges[lit("+r2c8#2"), lit("-r2c6#2")]["kind"] = "strong"
    with pytest.raises(ProofError, match="strong link goes from OFF to ON"):
        check_step(GRID, mutate(step, P))


def test_raw_puzzle_rejects_the_chain():
    """On the puzzle before the basic ladder the same links are not all strong."""
    with pytest.raises(ProofError):
        check_step(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), make_case("cell r6c6#2"))


@pytest.mark.parametrize(
    "edge, via, message",
    [
        (("+r2c8#2", "-r2c6#2"), "r3#2", "r2c8#2 is not in set r3#2"),
        (("+r2c8#2", "-r2c6#2"), "b3#2", "r2c6#2 is not in set b3#2"),
        (("-r2c6#2", "+r6c6#2"), "r6#2", "r2c6#2 is not in set r6#2"),
        (("-r2c6#2", "+r6c6#2"), "r6c6", "r2c6#2 is not in set r6c6"),
        (("-r2c6#2", "+r6c6#2"), "c6#8", "r2c6#2 is not in set c6#8"),
        (("-r2c6#2", "+r6c6#2"), "r2x", "not a set X"),
    ],
)
def test_wrong_via_is_caught(edge, via, message):
    step = make_case("cell r6c6#2")
    P = nx.DiGraph(step.proof)
    P.edges[lit(edge[0]), lit(edge[1])]["via"] = via
    with pytest.raises(ProofError, match=message):
        check_step(GRID, mutate(step, P))


def test_wrong_als_is_caught():
    step = make_case("cell r2c6#8")
    P = nx.DiGraph(step.proof)
    u, v = lit("-r2c4#1"), lit("+r4c4#3")
    P.edges[u, v]["via"] = "r2468c4{1237}"  # 8 is a digit of the ALS too
    with pytest.raises(ProofError, match="ALS r2468c4"):
        check_step(GRID, mutate(step, P))
    P.edges[u, v]["via"] = "r246c4{12378}"  # three cells, five digits: not almost locked
    with pytest.raises(ProofError, match="ALS r246c4"):
        check_step(GRID, mutate(step, P))


def test_premises_that_differ_are_caught():
    step = make_case("cell r6c6#2")
    with pytest.raises(ProofError, match="differ from the step's premises"):
        check_step(GRID, mutate(step, nx.DiGraph(step.proof), premises=[lit("+r2c8#1")]))
    with pytest.raises(ProofError, match="differ from the step's premises"):
        check_step(GRID, mutate(step, nx.DiGraph(step.proof), premises=[lit("+r2c8#1"), lit("+r2c4#1")]))


def test_missing_branch_is_not_exhaustive():
    """One premise of the cell alone proves nothing without a contradiction."""
    P = proof(CELL_R6C6[:1], ["+r2c8#1"], ["+r6c6#2"], kind="chain")
    step = step_of("forcing-chain-cell", P, ["+r2c8#1"], ["+r6c6#2"])
    with pytest.raises(ProofError, match="no contradiction"):
        check_step(GRID, step)


def test_conclusion_not_reached_by_every_branch():
    step = make_case("cell r6c6#2")
    places = [Candidate.parse("r6c6#2"), Candidate.parse("r8c7#7")]
    with pytest.raises(ProofError, match=r"\+r8c7#7 does not follow from premise \+r2c8#2"):
        check_step(GRID, mutate(step, nx.DiGraph(step.proof), placements=places))
    with pytest.raises(ProofError, match=r"\+r6c6#2 is marked as a conclusion but the step does not claim it"):
        check_step(GRID, mutate(step, nx.DiGraph(step.proof), placements=places[1:]))


def test_branches_are_not_mixed():
    """+r2c6#2 needs -r2c4#2 and -r2c8#2, each from a different premise."""
    P = nx.DiGraph(kind="net")
    P.add_edge(lit("+r2c4#1"), lit("-r2c4#2"), kind="weak", family="cell", via="r2c4")
    P.add_edge(lit("+r2c8#1"), lit("-r2c8#2"), kind="weak", family="cell", via="r2c8")
    P.add_edge(lit("-r2c4#2"), lit("+r2c6#2"), kind="strong", family="house", via="r2#2")
    P.add_edge(lit("-r2c8#2"), lit("+r2c6#2"), kind="strong", family="house", via="r2#2")
    nx.set_node_attributes(P, Role.INNER, "role")
    for p in ("+r2c4#1", "+r2c8#1"):
        P.nodes[lit(p)]["role"] = Role.PREMISE
    step = step_of("forcing-net-house", P, ["+r2c4#1", "+r2c8#1"], ["+r2c6#2"])
    with pytest.raises(ProofError, match=r"\+r2c6#2 follows from no single premise"):
        check_step(GRID, step)


def _net(edges, premises):
    P = nx.DiGraph(kind="net")
    for u, v, kind, via in edges:
        family = "cell" if "#" not in via else "house"
        P.add_edge(lit(u), lit(v), kind=kind, family=family, via=via)
    nx.set_node_attributes(P, Role.INNER, "role")
    for p in premises:
        P.nodes[lit(p)]["role"] = Role.PREMISE
    return P


# +r3c8#2 is false (seed: ForceChain_Contradiction r3c8#2), proved here as a net whose
# join +r4c4#7 takes two OFF literals (c4#7 = r4c4 r5c4 r8c4) of one branch, and whose
# contradiction is two digits ON in cell r5c4.
NET_R3C8 = [
    ("+r3c8#2", "-r3c5#2", "weak", "r3#2"),
    ("-r3c5#2", "+r3c5#1", "strong", "r3c5"),
    ("+r3c5#1", "-r5c5#1", "weak", "c5#1"),
    ("-r5c5#1", "+r5c5#7", "strong", "r5c5"),
    ("+r5c5#7", "-r5c7#7", "weak", "r5#7"),
    ("-r5c7#7", "+r8c7#7", "strong", "c7#7"),
    ("+r8c7#7", "-r8c4#7", "weak", "r8#7"),
    ("+r5c5#7", "-r5c4#7", "weak", "r5#7"),
    ("-r8c4#7", "+r4c4#7", "strong", "c4#7"),
    ("-r5c4#7", "+r4c4#7", "strong", "c4#7"),
    ("+r4c4#7", "-r4c4#3", "weak", "r4c4"),
    ("-r4c4#3", "+r5c4#3", "strong", "c4#3"),
    ("+r3c5#1", "-r2c4#1", "weak", "b2#1"),
    ("-r2c4#1", "+r5c4#1", "strong", "c4#1"),
]


def test_net_join_needs_every_in_edge():
    P = _net(NET_R3C8, ["+r3c8#2"])
    step = step_of("forcing-net-contradiction", P, ["+r3c8#2"], ["-r3c8#2"])
    check_step(GRID, step)
    assert solve_unique(GRID)[G.cell_index(Cell.parse("r3c8"))] != 2
    Q = nx.DiGraph(P)
    Q.remove_edge(lit("-r5c4#7"), lit("+r4c4#7"))
    with pytest.raises(ProofError, match=r"-r8c4#7 -> \+r4c4#7 \(strong via c4#7\): r5c4#7 is live"):
        check_step(GRID, mutate(step, Q))
    # without the join (and what follows it) the branch holds no contradiction
    Q = nx.DiGraph(P)
    Q.remove_nodes_from(lit(t) for t in ("+r4c4#7", "-r4c4#3", "+r5c4#3"))
    with pytest.raises(ProofError, match="leads to no contradiction"):
        check_step(GRID, mutate(step, Q))


def test_cycles_and_unknown_nodes_are_rejected():
    P = nx.DiGraph(kind="chain")
    a, b = lit("-r2c6#2"), lit("+r6c6#2")
    P.add_edge(a, b, kind="strong", family="house", via="c6#2")
    P.add_edge(lit("+r6c6#2"), lit("-r2c6#2"), kind="weak", family="house", via="c6#2")
    nx.set_node_attributes(P, Role.INNER, "role")
    P.nodes[a]["role"] = Role.PREMISE
    with pytest.raises(ProofError, match="cycle"):
        check_step(GRID, step_of("forcing-chain-contradiction", P, ["-r2c6#2"], ["+r2c6#2"]))
    Q = nx.DiGraph(kind="chain")
    Q.add_node("r2c6#2", role="premise")
    with pytest.raises(ProofError, match="not a Literal"):
        check_step(GRID, step_of("x", Q, [], ["-r2c6#2"]))


# ---- pattern proofs -----------------------------------------------------------------
def _pattern(technique, base, cover, placements=(), eliminations=()):
    P = nx.DiGraph(kind="pattern", base=list(base), cover=list(cover))
    return lg.make_step(
        technique,
        placements=[Candidate.parse(c) for c in placements],
        eliminations=[Candidate.parse(c) for c in eliminations],
        proof=P,
    )


def test_pattern_cover_must_hold_the_eliminations():
    step = _pattern("naked-pair", ["r2c8", "r3c8"], ["b3#1", "b3#2"], eliminations=["r2c4#1"])
    with pytest.raises(ProofError, match="r2c4#1 lies in no cover set"):
        check_step(GRID, step)
    # r2c8 r3c8 (12 12) lock 1 and 2 in box 3 and column 8: nothing left to eliminate there,
    # so a claimed elimination of a base candidate is rejected
    step = _pattern("naked-pair", ["r2c8", "r3c8"], ["c8#1", "c8#2"], eliminations=["r3c8#1"])
    with pytest.raises(ProofError, match="lies in a base set"):
        check_step(GRID, step)


def test_pattern_mutations():
    puzzle = lg.Grid.parse(lg.samples.EULER_01)
    ok = _pattern("hidden-single", ["r1#1"], [], placements=["r1c6#1"])
    check_step(puzzle, ok)
    with pytest.raises(ProofError, match="not the last live member"):
        check_step(puzzle, _pattern("hidden-single", ["r1#4"], [], placements=["r1c6#1"]))
    with pytest.raises(ProofError, match="not a live candidate"):
        check_step(puzzle, _pattern("hidden-single", ["r1#1"], [], placements=["r1c3#1"]))
    with pytest.raises(ProofError, match="2 base sets but 1 cover sets"):
        check_step(GRID, _pattern("x-wing", ["r2#1", "r3#1"], ["c4#1"], eliminations=["r5c4#1"]))


# ---- the solver's steps and the sweep command ----------------------------------------
def test_solver_steps_pass_the_checker(corpus):
    solver = pytest.importorskip("linkgraph.solver")
    steps = 0
    for grid, solution in corpus("top95", limit=12) + corpus("euler96", limit=6):
        result = solver.solve(grid)
        check_steps(grid, result.steps)
        steps += len(result.steps)
    assert steps > 300


@pytest.mark.slow
@pytest.mark.parametrize("name", ["top95", "euler96", "top1465", "unbiased1000"])
def test_solver_steps_pass_the_checker_full(corpus, name):
    solver = pytest.importorskip("linkgraph.solver")
    for grid, solution in corpus(name):
        result = solver.solve(grid)
        current = grid
        for step in result.steps:
            for c in step.placements:
                assert solution[G.cell_index(c.cell)] == c.digit, str(step)
            for c in step.eliminations:
                assert solution[G.cell_index(c.cell)] != c.digit, str(step)
            check_step(current, step)
            current = current.apply(step)


def test_verify_command(tmp_path, capsys):
    pytest.importorskip("linkgraph.solver")
    from linkgraph.cli.main import main
    from linkgraph.io import corpus_path

    good = [ln for ln in corpus_path("top95").read_text().splitlines() if ln.strip()][:2]
    path = tmp_path / "p.txt"
    path.write_text("\n".join(good) + "\n")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "puzzles 2" in out and "unsound steps 0, rejected proofs 0" in out and out.rstrip().endswith("OK")
    path.write_text("\n".join(good + ["not a puzzle", "." * 81]) + "\n")
    assert main(["verify", str(path), "--format", "json"]) == 1
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["puzzles"] == 4 and data["bad_lines"] == 2 and not data["ok"]
    assert [f["line"] for f in data["failures"]] == [3, 4]
    assert main(["verify", str(path), "--ladder", "x-wnig"]) == 2
    assert "x-wing" in capsys.readouterr().err


def test_verify_command_reports_an_unsound_step(tmp_path, capsys, monkeypatch):
    """A technique that eliminates a solution digit is caught by the sweep."""
    solver = pytest.importorskip("linkgraph.solver")
    from linkgraph.cli.main import main

    real = solver.solve

    def bad_solve(grid, *, ladder=None, **kw):
        result = real(grid, ladder=ladder, **kw)
        first = result.steps[0]
        sol = solve_unique(grid)
        wrong = next(c for c in grid.candidates() if sol[G.cell_index(c.cell)] == c.digit and grid.counts[G.cell_index(c.cell)] > 1)
        forged = lg.make_step(first.technique, eliminations=[wrong], proof=first.proof)
        return type(result)(result.grid, (forged,), result.final, result.solved, result.rating)

    monkeypatch.setattr(solver, "solve", bad_solve)
    path = tmp_path / "p.txt"
    path.write_text(lg.samples.EULER_01 + "\n")
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "unsound steps 1" in out and "the solution digit" in out


# hardest_1905_11plus line 12001 after 32 steps of the default ladder: the verity net's three
# branches (+r4c8#6, +r6c8#6, +r8c8#6) derive -r1c4#4 and +r1c8#4 in opposite orders, so the
# merged proof has a cycle that no single branch has (it was rejected as "a cycle")
VERITY_CROSSING = (
    "23589 359 578 4689 379 3689 2789 45 1 6 579 1 4789 479 2 789 3 45 2389 4 2378 179 5 1389 6 279 "
    "789 189 1359 3458 46 149 7 139 1569 2 139 6 235 129 8 159 4 1579 3579 7 1259 245 3 1249 4569 189 "
    "1569 689 25 12357 9 1247 6 14 1237 8 347 13 8 237 5 123479 1349 1279 12469 46 4 1237 6 12789 "
    "12379 389 5 1279 379"
)
VERITY_PUZZLE = "........1..1..2.3..4..5.6.......7..2.6..8.4..7..3.......9.6..8..8.5.....4.6...5.."


def test_a_verity_whose_branches_cross_is_accepted_but_a_cycle_in_one_branch_is_not():
    grid = lg.Grid.parse(VERITY_CROSSING)
    solution = solve_unique(lg.Grid.parse(VERITY_PUZZLE))
    assert all(grid.has(lg.Candidate(lg.Cell(i // 9, i % 9), int(d))) for i, d in enumerate(solution))
    step = next(s for s in lg.forcing_nets(grid, kinds=("verity",)) if "r6c8#9" in str(s))
    assert [str(c) for c in step.eliminations] == ["r6c8#9"] and solution[5 * 9 + 7] != 9
    P = step.proof
    assert not nx.is_directed_acyclic_graph(P)
    for name in P.graph["branches"]:
        sub = nx.DiGraph((u, v) for u, v, d in P.edges(data=True) if name in d["branches"])
        assert nx.is_directed_acyclic_graph(sub)
    check_step(grid, step)
    # the same cycle inside one branch is circular reasoning: rejected
    Q = nx.DiGraph(P)
    first = P.graph["branches"][0]
    for a, b in nx.find_cycle(P):
        Q.edges[a, b]["branches"] = (first,)
    with pytest.raises(ProofError, match="cycle"):
        check_step(grid, lg.make_step(step.technique, eliminations=step.eliminations,
                                      premises=step.premises, proof=Q, notation=step.notation))


# hardest_1106 line 11 after 27 steps of the default ladder: the ++depth verity on the 7s of
# row 5 proves -r5c8#5 through different subsets in different branches that share in-edges
# (a pair r5c1 r5c9 in one, a triple r5c1 r5c2 r5c9 in another); the merged proof keeps the
# second branch's reading as an extra label ("also") on the shared edge
PLUS_PLUS_SHARED = (
    "1238 1378 1247 247 2359 45 49 135 6 6 347 5 79 23479 1 8 234 239 123 9 124 246 23456 8 345 7 1235 159 157 1679 8 4679 2 345679 13456 13579 589 578 3 4679 1 4679 2 456 579 4 27 12679 5 679 3 679 18 189"
    " 1235 6 124 1247 24578 457 357 9 23578 259 45 8 3 24567 4679 1 256 257 7 1235 129 1269 2568 569 356 23568 4"
)
PLUS_PLUS_PUZZLE = "........6..5..18...9...8.7....8.2.....3.1.2..4..5.3....6.....9...83..1..7.......4"


def test_a_net_whose_branches_share_an_edge_for_different_reasons_keeps_both():
    from linkgraph.techniques import TECHNIQUES

    grid = lg.Grid.parse(PLUS_PLUS_SHARED)
    solution = solve_unique(lg.Grid.parse(PLUS_PLUS_PUZZLE))
    step = next(TECHNIQUES["forcing-net-plus-plus"].find(grid))
    assert [str(c) for c in step.eliminations] == ["r5c8#5"] and solution[4 * 9 + 7] != 5
    P = step.proof
    shared = [(u, v) for u, v, d in P.edges(data=True) if d.get("also")]
    assert shared
    check_step(grid, step)
    Q = nx.DiGraph(P)
    for u, v in shared:
        del Q.edges[u, v]["also"]
    with pytest.raises(ProofError):
        check_step(grid, lg.make_step(step.technique, eliminations=step.eliminations,
                                      premises=step.premises, proof=Q, notation=step.notation))
