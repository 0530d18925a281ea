"""The link graph: counts against a brute force over candidate pairs, group and ALS nodes
on hand-made positions, options, and the ``linkgraph links`` command."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.cli.main import main
from linkgraph.graph.links import degree_summary, strong_components
from linkgraph.oracle import solutions

C = lg.Candidate.parse


# ---- positions -------------------------------------------------------------------


def sound_eliminations(grid: lg.Grid, solution: np.ndarray, rng: np.random.Generator, p: float) -> lg.Grid:
    """Remove each non-solution live candidate with probability `p` (peers are not cleaned)."""
    n = grid.size
    cands = grid.cands.copy()
    sol = np.zeros_like(cands)
    sol[np.arange(len(solution)), np.asarray(solution) - 1] = True
    drop = (rng.random(cands.shape) < p) & cands & ~sol
    cands[drop] = False
    return lg.Grid(grid.geometry, cands.reshape(-1, n))


VARIANTS = {
    "sudoku-x": lambda: lg.geometry.sudoku_x(),
    "windoku": lambda: lg.geometry.windoku(),
    "classic6": lambda: lg.geometry.classic(6),
    "classic4": lambda: lg.geometry.classic(4),
    "jigsaw6": lambda: lg.geometry.jigsaw(lg.samples.SIX_BY_SIX_REGIONS),
}


def variant_positions(name: str, count: int = 4) -> list[tuple[lg.Grid, np.ndarray]]:
    geo = VARIANTS[name]()
    empty = lg.Grid.empty(geo)
    solution = solutions(empty, limit=1)[0]
    rng = np.random.default_rng(len(name))
    return [(sound_eliminations(empty, solution, rng, p), solution) for p in np.linspace(0.3, 0.8, count)]


def corpus_positions(corpus, name: str = "top95", limit: int = 30) -> list[tuple[lg.Grid, np.ndarray]]:
    rng = np.random.default_rng(7)
    out = []
    for grid, solution in corpus(name, limit=limit):
        out.append((grid, solution))
        out.append((sound_eliminations(grid, solution, rng, 0.4), solution))
    return out


# ---- brute force, written without the link code ------------------------------------


def brute_force_pairs(grid: lg.Grid) -> tuple[int, set, set]:
    """(candidates, weak pairs, strong pairs) over the live candidates of unsolved cells."""
    geo = grid.geometry
    n = geo.size
    houses = [[int(c) for c in cells] for cells in geo.house_cells]
    houses_of = {c: {h for h, cells in enumerate(houses) if c in cells} for c in range(n * n)}
    cands = grid.cands
    unsolved = [i for i in range(n * n) if cands[i].sum() > 1]
    live = [(i, d) for i in unsolved for d in range(1, n + 1) if cands[i, d - 1]]
    weak, strong = set(), set()
    for (c1, d1), (c2, d2) in itertools.combinations(live, 2):
        shared = []  # the live members of every set the two share
        if c1 == c2:
            shared.append([d for d in range(n) if cands[c1, d]])
        elif d1 == d2:
            for h in houses_of[c1] & houses_of[c2]:
                shared.append([c for c in houses[h] if cands[c, d1 - 1]])
        if shared:
            pair = frozenset({(c1, d1), (c2, d2)})
            weak.add(pair)
            if any(len(members) == 2 for members in shared):
                strong.add(pair)
    return len(live), weak, strong


def graph_pairs(G, geo) -> tuple[set, set]:
    weak, strong = set(), set()
    for u, v, d in G.edges(data=True):
        if d["family"] not in ("cell", "house"):
            continue
        pair = frozenset({(geo.cell_index(u.cell), u.digit), (geo.cell_index(v.cell), v.digit)})
        weak.add(pair)
        if d["kind"] == "strong":
            strong.add(pair)
    return weak, strong


def check_against_brute_force(grid: lg.Grid) -> None:
    G = lg.link_graph(grid, families=["cell", "house"])
    counts = lg.link_counts(G)
    ncands, weak, strong = brute_force_pairs(grid)
    assert counts["candidates"] == ncands
    assert counts["weak"] == len(weak)
    assert counts["strong"] == len(strong)
    geo = grid.geometry
    unsolved = grid.counts > 1
    gw, gs = graph_pairs(G, geo)
    # the graph may also link candidates of solved cells; between unsolved ones it matches
    inner = lambda pairs: {p for p in pairs if all(unsolved[c] for c, _ in p)}  # noqa: E731
    assert inner(gw) == weak
    assert inner(gs) == strong
    # every edge's `via` really holds both ends, and a strong one holds nothing else
    live_sets: dict[str, set[int]] = {}
    for u, v, d in G.edges(data=True):
        if d["via"] not in live_sets:
            members = geo.set_members[geo.set_index(lg.SetX.parse(d["via"]))]
            live_sets[d["via"]] = {int(k) for k in members if grid.live[k]}
        live_members = live_sets[d["via"]]
        assert {geo.index(u), geo.index(v)} <= live_members
        assert (d["kind"] == "strong") == (len(live_members) == 2)


def test_counts_on_the_gnpx_position():
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    check_against_brute_force(grid)
    counts = lg.link_counts(lg.link_graph(grid))
    assert counts["candidates"] == 42  # the 20 cells listed in the GNPX text


def test_counts_on_top95_raw_and_after_eliminations(corpus):
    for grid, _ in corpus_positions(corpus, limit=30):
        check_against_brute_force(grid)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_counts_on_variant_geometries(name):
    for grid, _ in variant_positions(name):
        check_against_brute_force(grid)


@pytest.mark.slow
def test_counts_on_more_corpora(corpus):
    for name in ("hardest_1106", "unbiased1000"):
        for grid, _ in corpus_positions(corpus, name, limit=200):
            check_against_brute_force(grid)


def test_solved_cell_still_seen_by_a_peer_keeps_its_links():
    # r1c1 solved as 5 but r1c2 still holds 5 (a grid whose singles are not cleared)
    geo = lg.geometry.classic()
    cands = np.ones((81, 9), dtype=bool)
    cands[0] = False
    cands[0, 4] = True
    G = lg.link_graph(lg.Grid(geo, cands), families=["cell", "house"])
    assert G.has_edge(C("r1c1#5"), C("r1c2#5"))
    assert lg.link_counts(G)["candidates"] == 80 * 9


# ---- group nodes on a hand-made position ---------------------------------------------


def hand_grid(cells_by_digit: dict[int, list[str]], geo=None) -> lg.Grid:
    """Every digit live everywhere, except the digits listed, live only in their cells."""
    geo = geo or lg.geometry.classic()
    cands = np.ones((geo.number_of_cells, geo.size), dtype=bool)
    for digit, cells in cells_by_digit.items():
        cands[:, digit - 1] = False
        for text in cells:
            cands[geo.cell_index(lg.Cell.parse(text)), digit - 1] = True
    return lg.Grid(geo, cands)


def group_edges(G) -> set:
    return {
        (frozenset({str(u), str(v)}), d["kind"], d["via"])
        for u, v, d in G.edges(data=True)
        if d["family"] == "group"
    }


def test_group_nodes_and_links_on_a_hand_made_position():
    grid = hand_grid({
        1: ["r1c1", "r1c2", "r1c7", "r2c8", "r5c1", "r5c7"],
        2: ["r4c1", "r4c2", "r4c8", "r4c9"],
        3: ["r7c1", "r7c2", "r7c4", "r7c5", "r7c9", "r8c3"],
    })
    G = lg.link_graph(grid, families=["cell", "house", "group"])
    groups = sorted(str(n) for n, k in G.nodes(data="kind") if k == "group")
    # r7c45#3 has only weak links (row 7 holds two more cells and a group; box 8 nothing else)
    assert groups == ["r1c12#1", "r4c12#2", "r4c89#2", "r7c12#3"]
    f = frozenset
    assert group_edges(G) == {
        (f({"r1c12#1", "r1c7#1"}), "strong", "r1#1"),
        (f({"r4c12#2", "r4c89#2"}), "strong", "r4#2"),
        (f({"r4c12#2", "r4c8#2"}), "weak", "r4#2"),
        (f({"r4c12#2", "r4c9#2"}), "weak", "r4#2"),
        (f({"r4c89#2", "r4c1#2"}), "weak", "r4#2"),
        (f({"r4c89#2", "r4c2#2"}), "weak", "r4#2"),
        (f({"r7c12#3", "r8c3#3"}), "strong", "b7#3"),
        (f({"r7c12#3", "r7c4#3"}), "weak", "r7#3"),
        (f({"r7c12#3", "r7c5#3"}), "weak", "r7#3"),
        (f({"r7c12#3", "r7c9#3"}), "weak", "r7#3"),
    }
    assert lg.link_counts(G)["groups"] == 4


def test_no_groups_when_every_digit_is_everywhere():
    G = lg.link_graph(lg.Grid.empty(), families=["group"])
    assert lg.link_counts(G)["groups"] == 0


def test_groups_on_a_variant_use_its_houses():
    # Sudoku X: the main diagonal meets box 1 in r1c1, r2c2, r3c3
    geo = lg.geometry.sudoku_x()
    grid = hand_grid({4: ["r1c1", "r2c2", "r9c9"]}, geo)
    G = lg.link_graph(grid, families=["group"])
    assert group_edges(G) == {(frozenset({"r1c1r2c2#4", "r9c9#4"}), "strong", "d1#4")}


# ---- ALS nodes on a hand-made position ----------------------------------------------


def als_grid() -> lg.Grid:
    geo = lg.geometry.classic()
    cands = np.ones((81, 9), dtype=bool)
    cands[geo.cell_index(lg.Cell.parse("r1c1"))] = [d in (1, 2) for d in range(1, 10)]
    cands[geo.cell_index(lg.Cell.parse("r1c2"))] = [d in (2, 3) for d in range(1, 10)]
    return lg.Grid(geo, cands)


def test_als_nodes_on_a_hand_made_position():
    G = lg.link_graph(als_grid())
    als = {str(n) for n, k in G.nodes(data="kind") if k == "als"}
    assert als == {"r1c1{12}", "r1c12{123}", "r1c2{23}"}
    assert G.nodes[lg.Als.parse("r1c12{123}")]["house"] == "r1"
    als_edges = [(u, v, d) for u, v, d in G.edges(data=True) if d["family"] == "als"]
    strong = [(str(u), str(v)) for u, v, d in als_edges if d["kind"] == "strong"]
    assert strong == [("r1c1#1", "r1c2#3")]
    weak = {str(v if isinstance(u, lg.Als) else u) for u, v, d in als_edges if d["kind"] == "weak"}
    # digit 2 (both cells): the rest of row 1 and box 1, 7 + 6; digit 1: peers of r1c1
    # minus r1c2, 7 + 8 + 4; digit 3: peers of r1c2 minus r1c1, 7 + 8 + 4
    assert len(weak) == 13 + 19 + 19
    assert {"r1c9#2", "r3c3#2", "r9c1#1", "r2c3#1", "r9c2#3"} <= weak
    assert "r9c1#2" not in weak  # sees r1c1 but not r1c2
    assert {d["via"] for _, _, d in als_edges} == {"r1c12{123}"}


def test_als_max_size_bounds_the_sets():
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    sizes = lambda k: sorted({len(n.cells) for n, kd in lg.link_graph(grid, als_max_size=k).nodes(data="kind") if kd == "als"})  # noqa: E731
    assert sizes(1) == [1]
    assert sizes(2) == [1, 2]
    raw = lg.Grid.parse(lg.samples.EASTER_MONSTER)
    assert max(len(n.cells) for n, kd in lg.link_graph(raw, als_max_size=6).nodes(data="kind") if kd == "als") >= 5
    G1 = lg.link_graph(grid, als_max_size=1)
    assert not [e for e in G1.edges(data="family") if e[2] == "als"]


def brute_force_als(grid: lg.Grid, max_size: int) -> set[str]:
    geo = grid.geometry
    found = set()
    for cells in geo.house_cells:
        free = [int(c) for c in cells if grid.cands[c].sum() > 1]
        for k in range(1, max_size + 1):
            for combo in itertools.combinations(free, k):
                digits = set().union(*(set(np.flatnonzero(grid.cands[c]) + 1) for c in combo))
                if len(digits) == k + 1:
                    found.add(str(lg.Als(tuple(geo.cell(c) for c in combo), tuple(sorted(digits)))))
    return found


def test_als_nodes_match_a_brute_force(corpus):
    positions = [(lg.prepare(g), s) for g, s in corpus("top95", limit=6)]
    positions += variant_positions("jigsaw6", 2)
    for grid, _ in positions:
        for k in (2, 4):
            G = lg.link_graph(grid, families=["als"], als_max_size=k)
            assert {str(n) for n, d in G.nodes(data="kind") if d == "als"} == brute_force_als(grid, k)


def test_one_als_enumeration_serves_the_link_graph_the_compiler_and_the_als_table(corpus):
    from linkgraph.graph.als import als_cells
    from linkgraph.graph.compiler import compile_grid
    from linkgraph.techniques.als.table import AlsTable

    for grid, _ in [(lg.prepare(g), s) for g, s in corpus("top95", limit=4)] + variant_positions("jigsaw6", 2):
        rows = als_cells(grid, max_size=4)
        n = grid.geometry.number_of_cells
        texts = [tuple(c for c in row if c < n) for row in rows.tolist()]
        assert texts == sorted(texts, key=lambda cells: (len(cells), cells))  # smallest first, then by cells
        assert {str(a) for a in lg.graph.almost_locked_sets(grid)} == brute_force_als(grid, 4)
        assert len(texts) == len(brute_force_als(grid, 4))
        assert AlsTable(grid, 4).cells.tolist() == rows.tolist()
        w = min(4, grid.geometry.size - 1)
        compiled = compile_grid(grid, families=["cell", "als"]).als_cells.tolist()
        assert [tuple(c for c in row if c >= 0) for row in compiled] == [t for t in texts if 2 <= len(t) <= w]


def test_the_gnpx_als_link_is_in_the_link_graph():
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    G = lg.link_graph(grid)
    assert G.edges[C("r2c4#1"), C("r4c4#3")] == {"kind": "strong", "family": "als", "via": "r2468c4{12378}"}


# ---- options, metrics ------------------------------------------------------------


def test_bad_options_raise_option_error():
    grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    with pytest.raises(lg.OptionError, match="did you mean 'cell'"):
        lg.link_graph(grid, families=["cel"])
    with pytest.raises(lg.OptionError):
        lg.link_graph(grid, als_max_size=0)
    with pytest.raises(lg.OptionError):
        degree_summary(lg.link_graph(grid), kind="stronk")


def test_families_select_edges_and_nodes():
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    for fams in (["cell"], ["house"], ["cell", "house"], ["group"], ["als"]):
        G = lg.link_graph(grid, families=fams)
        assert {d for _, _, d in G.edges(data="family")} <= set(fams)
    G = lg.link_graph(grid, families=["cell", "house"])
    assert {k for _, k in G.nodes(data="kind")} == {"candidate"}


def test_metrics_are_plain_values():
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    G = lg.link_graph(grid, families=["cell", "house"])
    counts = lg.link_counts(G)
    json.dumps(counts)
    n = counts["candidates"]
    assert counts["density"] == pytest.approx(2 * counts["weak"] / (n * (n - 1)), abs=1e-6)
    deg = degree_summary(G)
    assert deg["mean"] == pytest.approx(2 * counts["weak"] / n, abs=1e-3)
    comps = strong_components(G)
    assert sum(len(c) for c in comps) == len({x for u, v, k in G.edges(data="kind") if k == "strong" for x in (u, v)})


# ---- the command ----------------------------------------------------------------


def test_links_command_json(capsys):
    assert main(["links", lg.samples.GNPX_FORCECHAIN, "--prepare", "basic", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    ncands, weak, strong = brute_force_pairs(grid)
    assert (data["candidates"], data["weak"], data["strong"]) == (ncands, len(weak), len(strong))
    assert set(data) >= {"candidates", "strong", "weak", "groups", "als", "edges", "density"}
    assert data["edges"]["strong/als"] > 0


def test_links_command_text_and_errors(capsys):
    assert main(["links", lg.samples.GNPX_FORCECHAIN, "--families", "cell,house"]) == 0
    assert "strong" in capsys.readouterr().out
    assert main(["links", lg.samples.GNPX_FORCECHAIN, "--families", "cel"]) == 2
    assert "did you mean 'cell'" in capsys.readouterr().err
    assert main(["links", "12345"]) == 2
