"""The implication digraph: every edge checked link by link against the grid (written
here without the link code) and against the solution; the GNPX chain and ALS link;
path queries, the compiled form and the ``linkgraph path`` command."""

from __future__ import annotations

import functools
import json
import re

import networkx as nx
import numpy as np
import pytest

import linkgraph as lg
from linkgraph.cli.main import main
from tests.graph.test_links import als_grid, corpus_positions, variant_positions

L = lg.Literal.parse


def gnpx_position() -> lg.Grid:
    return lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))


# ---- an independent link checker ------------------------------------------------------


def node_cells(node) -> tuple[list[lg.Cell], int]:
    if isinstance(node, lg.Candidate):
        return [node.cell], node.digit
    return list(node.cells), node.digit


@functools.lru_cache(maxsize=None)
def house_cells(geo, house: lg.House) -> frozenset[lg.Cell]:
    return frozenset(geo.cell(c) for c in geo.house_cells[geo.house_index(house)])


def live_cells(grid, cells, digit) -> set[lg.Cell]:
    return {c for c in cells if digit in grid.digits(c)}


@functools.lru_cache(maxsize=4096)
def set_members(grid, via: str) -> tuple[set, set]:
    """(live members, all cells) of set X `via`, members as (cell, digit)."""
    geo = grid.geometry
    sx = lg.SetX.parse(via)
    if sx.cell is not None:
        return {(sx.cell, d) for d in grid.digits(sx.cell)}, {sx.cell}
    cells = house_cells(geo, sx.house)
    return {(c, sx.digit) for c in live_cells(grid, cells, sx.digit)}, cells


def link_problem(grid: lg.Grid, u: lg.Literal, v: lg.Literal, d: dict) -> str | None:
    """Why edge u -> v is not a valid inference in `grid` (None when it is)."""
    geo = grid.geometry
    if (d["kind"] == "strong") == u.on:
        return "kind must be strong exactly when the source is OFF"
    if d["family"] == "als":
        als = lg.Als.parse(d["via"])
        cells = list(als.cells)
        if not any(set(cells) <= house_cells(geo, h) for h in geo.houses):
            return "ALS cells share no house"
        digits = set().union(*(grid.digits(c) for c in cells))
        if sorted(digits) != list(als.digits) or len(digits) != len(cells) + 1:
            return "not an ALS in this grid"
        if u.on or not isinstance(u.cand, lg.Candidate):
            return "ALS edge must start OFF at a candidate"
        if [c for c in cells if u.cand.digit in grid.digits(c)] != [u.cand.cell]:
            return "source digit is not in exactly its one cell of the ALS"
        y = v.cand.digit
        holders = [c for c in cells if y in grid.digits(c)]
        if y == u.cand.digit or not holders:
            return "target digit must be another digit of the ALS"
        if v.on:
            return None if holders == [v.cand.cell] else "target digit has more than one place in the ALS"
        if v.cand.cell in cells:
            return "eliminated candidate inside the ALS"
        vi = geo.cell_index(v.cand.cell)
        if all(geo.peers[vi, geo.cell_index(c)] for c in holders):
            return None
        return "eliminated candidate does not see every ALS cell holding its digit"
    ucells, udigit = node_cells(u.cand)
    vcells, vdigit = node_cells(v.cand)
    live, scells = set_members(grid, d["via"])
    mine = {(c, udigit) for c in ucells} | {(c, vdigit) for c in vcells}
    if not ({(c, udigit) for c in ucells} <= live and {(c, vdigit) for c in vcells} <= live):
        return f"{d['via']} does not hold both ends"
    if set(ucells) & set(vcells) and udigit == vdigit:
        return "the two ends overlap"
    if d["kind"] == "weak":
        return None if (u.on and not v.on) else "weak edge must go ON -> OFF"
    if u.on or not v.on:
        return "strong edge must go OFF -> ON"
    return None if live == mine else f"{d['via']} has other live members"


def truth(lit: lg.Literal, geo, solution) -> bool:
    cells, digit = node_cells(lit.cand)
    present = any(solution[geo.cell_index(c)] == digit for c in cells)
    return present == lit.on


def check_graph(grid: lg.Grid, solution: np.ndarray | None = None, **options) -> nx.DiGraph:
    G = lg.link_graph(grid, **options)
    D = lg.implication_graph(G)
    geo = grid.geometry
    for u, v, d in D.edges(data=True):
        problem = link_problem(grid, u, v, d)
        assert problem is None, f"{u} -> {v} {d}: {problem}"
        if solution is not None and truth(u, geo, solution):
            assert truth(v, geo, solution), f"{u} -> {v} {d} breaks the solution"
    # every set X link gives its two weak edges, every strong one two more
    plain = [(a, b, k) for a, b, k in G.edges(data="kind") if G.edges[a, b]["family"] != "als"]
    from_on = sum(1 for u, v, d in D.edges(data=True) if u.on)
    off_on = sum(1 for u, v, d in D.edges(data=True) if not u.on and v.on and d["family"] != "als")
    assert from_on == 2 * len(plain)
    assert off_on == 2 * sum(1 for *_, k in plain if k == "strong")
    return D


def test_every_edge_is_valid_on_the_gnpx_position():
    grid = gnpx_position()
    check_graph(grid, lg.oracle.solve_unique(grid))


def test_every_edge_is_valid_and_sound_on_corpus_positions(corpus):
    positions = [(lg.prepare(g), s) for g, s in corpus("top95", limit=8)]
    positions += corpus_positions(corpus, limit=4)
    for grid, solution in positions:
        check_graph(grid, solution)


@pytest.mark.parametrize("name", ["sudoku-x", "windoku", "classic6", "jigsaw6"])
def test_every_edge_is_valid_and_sound_on_variants(name):
    for grid, solution in variant_positions(name, 3):
        check_graph(grid, solution)


@pytest.mark.slow
def test_every_edge_is_sound_over_a_hard_corpus(corpus):
    for grid, solution in corpus("hardest_1106", limit=150):
        check_graph(lg.prepare(grid), solution, als_max_size=6)


def test_the_checker_rejects_bad_links():
    grid = gnpx_position()
    assert link_problem(grid, L("+r2c8#1"), L("-r2c4#1"), {"kind": "weak", "family": "house", "via": "r2#1"}) is None
    assert link_problem(grid, L("-r2c8#1"), L("+r2c4#1"), {"kind": "strong", "family": "house", "via": "r2#1"}) is None
    assert link_problem(grid, L("-r2c8#2"), L("+r2c4#2"), {"kind": "strong", "family": "house", "via": "r2#2"})
    assert link_problem(grid, L("+r2c8#2"), L("-r2c4#2"), {"kind": "strong", "family": "house", "via": "r2#2"})
    assert link_problem(grid, L("+r2c8#1"), L("-r3c5#1"), {"kind": "weak", "family": "house", "via": "r2#1"})
    als = {"kind": "strong", "family": "als", "via": "r2468c4{12378}"}
    assert link_problem(grid, L("-r2c4#1"), L("+r4c4#3"), als) is None
    assert link_problem(grid, L("-r2c4#1"), L("+r4c4#7"), als)
    assert link_problem(grid, L("-r2c4#1"), L("-r4c8#3"), als) is None
    assert link_problem(grid, L("-r2c4#1"), L("-r5c7#7"), als)


# ---- ALS edges ---------------------------------------------------------------------


def test_the_gnpx_als_link():
    D = lg.implication_graph(lg.link_graph(gnpx_position()))
    assert D.edges[L("-r2c4#1"), L("+r4c4#3")] == {"kind": "strong", "family": "als", "via": "r2468c4{12378}"}
    # the other GNPX ALS links of the ForceChain text
    for a, b, cells in [
        ("-r7c9#8", "+r7c5#2", "r7c589"),
        ("-r8c4#7", "+r2c4#1", "r268c4"),
        ("-r4c4#3", "+r2c4#1", "r2468c4"),
    ]:
        d = D.edges[L(a), L(b)]
        assert d["family"] == "als" and lg.Als.parse(d["via"]).cells_text == cells
    # no ALS edges without the ALS family
    D0 = lg.implication_graph(lg.link_graph(gnpx_position(), families=["cell", "house", "group"]))
    assert not D0.has_edge(L("-r2c4#1"), L("+r4c4#3"))


def test_als_edges_on_a_hand_made_position():
    D = lg.implication_graph(lg.link_graph(als_grid()))
    als = {(str(u), str(v)) for u, v, d in D.edges(data=True) if d["family"] == "als"}
    assert {("-r1c1#1", "+r1c2#3"), ("-r1c2#3", "+r1c1#1")} <= als
    # each single-cell digit (1 in r1c1, 3 in r1c2) turns OFF the 13 outside 2s that see both
    # cells and the 19 outside candidates of the other single digit that see its cell
    assert len(als) == 2 + 2 * (13 + 19)
    assert ("-r1c1#1", "-r1c5#2") in als and ("-r1c2#3", "-r5c1#1") in als
    assert ("-r1c1#1", "-r5c1#1") not in als  # same digit: no inference
    assert not any(u.startswith("-r1c1#2") or u.startswith("-r1c2#2") for u, _ in als)


# ---- paths -------------------------------------------------------------------------


def test_gnpx_path_is_short_and_valid():
    grid = gnpx_position()
    D = lg.implication_graph(lg.link_graph(grid))
    path = lg.implication_path(D, L("+r2c8#1"), L("+r6c6#2"))
    assert path[0] == L("+r2c8#1") and path[-1] == L("+r6c6#2")
    assert len(path) - 1 <= 8
    for u, v in zip(path, path[1:]):
        assert link_problem(grid, u, v, D.edges[u, v]) is None
    # with set X links only the chain is GNPX's, each cell link written out (10 links)
    D0 = lg.implication_graph(lg.link_graph(grid, families=["cell", "house"]))
    path0 = lg.implication_path(D0, L("+r2c8#1"), L("+r6c6#2"))
    assert len(path0) - 1 == nx.shortest_path_length(D0, L("+r2c8#1"), L("+r6c6#2")) == 10


def test_path_edge_cases():
    D = lg.implication_graph(lg.link_graph(gnpx_position(), families=["cell"]))
    assert lg.implication_path(D, L("+r2c8#1"), L("+r2c8#1")) == [L("+r2c8#1")]
    assert lg.implication_path(D, L("+r2c8#1"), L("-r2c4#1")) is None
    with pytest.raises(lg.NotationError):
        lg.implication_path(D, L("+r1c1#1"), L("+r2c8#1"))
    with pytest.raises(lg.NotationError):
        lg.implications(D, L("+r1c1#1"))


def test_implications_match_networkx_distances():
    D = lg.implication_graph(lg.link_graph(gnpx_position()))
    for start in sorted(D, key=lg.model.sort_key)[::9]:
        found = lg.implications(D, start)
        expected = nx.single_source_shortest_path_length(D, start)
        expected.pop(start)
        assert {lit: links for lit, (links, _) in found.items()} == expected
        for lit, (links, chain) in found.items():
            assert chain[0] == start and chain[-1] == lit and len(chain) == links + 1
            assert all(D.has_edge(a, b) for a, b in zip(chain, chain[1:]))
        path = lg.implication_path(D, start, max(found, key=lambda x: found[x][0]))
        assert path == found[path[-1]][1]  # same deterministic tie-break


def test_path_links_are_plain_dicts():
    D = lg.implication_graph(lg.link_graph(gnpx_position()))
    links = lg.path_links(D, lg.implication_path(D, L("+r2c8#1"), L("+r6c6#2")))
    json.dumps(links)
    assert links[0]["from"] == "+r2c8#1" and links[-1]["to"] == "+r6c6#2"
    assert all(set(x) == {"from", "to", "kind", "family", "via"} for x in links)


# ---- compiled form -------------------------------------------------------------------


def test_compiled_form_round_trips():
    grid = gnpx_position()
    D = lg.implication_graph(lg.link_graph(grid))
    C = lg.compile_implications(D)
    assert list(C.literals) == sorted(D, key=lg.model.sort_key)
    assert C.number_of_edges == D.number_of_edges()
    edges = set()
    for i in range(C.number_of_literals):
        succ = C.successors(i)
        assert list(succ) == sorted(succ)
        for j in succ:
            d = C.edge(i, int(j))
            edges.add((C.literals[i], C.literals[j], d["kind"], d["family"], d["via"]))
    assert edges == {(u, v, d["kind"], d["family"], d["via"]) for u, v, d in D.edges(data=True)}
    for i, lit in enumerate(C.literals):
        assert C.index[lit] == i
        assert C.literals[C.negation[i]] == ~lit
        assert C.on[i] == lit.on
        if isinstance(lit.cand, lg.Candidate):
            assert C.cand[i] == grid.geometry.index(lit.cand)
        else:
            assert C.cand[i] == -1
    A = C.adjacency()
    assert A.sum() == C.number_of_edges
    with pytest.raises(KeyError):
        C.edge(0, 0)


# ---- the command -----------------------------------------------------------------------

GNPX_LINK = re.compile(r"\[(W|S) (\(ALS:[r0-9c]+\) )?[r0-9c]+/[+-]\d -> [r0-9c]+/[+-]\d\]")


def test_path_command_json(capsys):
    argv = ["path", lg.samples.GNPX_FORCECHAIN, "+r2c8#1", "+r6c6#2", "--prepare", "basic", "--format", "json"]
    assert main(argv) == 0
    links = json.loads(capsys.readouterr().out)
    assert 1 <= len(links) <= 8
    grid = gnpx_position()
    for x in links:
        assert link_problem(grid, L(x["from"]), L(x["to"]), x) is None
    assert [x["from"] for x in links[1:]] == [x["to"] for x in links[:-1]]


def test_path_command_text(capsys):
    argv = ["path", lg.samples.GNPX_FORCECHAIN, "+r2c8#1", "+r6c6#2", "--prepare", "basic", "--families", "cell,house"]
    assert main(argv) == 0
    out = capsys.readouterr().out.strip()
    parts = out.split(" => ")
    assert all(GNPX_LINK.fullmatch(p) for p in parts)
    assert parts[0] == "[W r2c8/+1 -> r2c4/-1]" and parts[1] == "[S r2c4/-1 -> r3c5/+1]"
    assert parts[-1] == "[S r6c4/-2 -> r6c6/+2]"
    assert main(["path", lg.samples.GNPX_FORCECHAIN, "--prepare", "basic", "--", "-r2c4#1", "+r4c4#3"]) == 0
    assert capsys.readouterr().out.strip() == "[S (ALS:r2468c4) r2c4/-1 -> r4c4/+3]"


def test_path_command_exit_codes(capsys):
    base = ["path", lg.samples.GNPX_FORCECHAIN, "--prepare", "basic", "--families", "cell"]
    assert main([*base, "--", "+r2c8#1", "-r2c4#1"]) == 1
    assert "no chain" in capsys.readouterr().err
    assert main([*base, "+r1c1#1", "+r2c8#1"]) == 2
    assert main([*base, "r2c8", "+r2c8#1"]) == 2
