"""The SudokuWiki text of net steps, against the path-by-path form it replaced.

`linkgraph.nets.notation.sudokuwiki` asks networkx once for a shortest path
from each premise to each contradiction or conclusion literal, a premise that
cannot reach it skipped on networkx's no-path error. `sudokuwiki_oracle` is the
former form: ``has_path`` (the same search, its path thrown away) then
``shortest_path``. The two must write the same text for every net step of
solves (contradictions, verities, nested nets).
"""

from __future__ import annotations

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.io import corpus_path
from linkgraph.model import Role, sort_key
from linkgraph.nets.notation import _sw, sudokuwiki
from linkgraph.research.race import read_sample


def sudokuwiki_oracle(step) -> str:
    P = step.proof
    kind = P.graph.get("net", "contradiction")
    concl = step.conclusions[0] if step.conclusions else None
    verdict = ""
    if concl is not None:
        verdict = f"{concl.cand.cell} must be {concl.cand.digit}" if concl.on else f"{concl.cand.cell} is not {concl.cand.digit}"
    premises = [n for n, d in P.nodes(data=True) if d.get("role") == Role.PREMISE]
    if kind == "contradiction":
        what = {"both": "a candidate is both ON and OFF", "empty": "all candidates in {} are OFF",
                "two-on": "two candidates in {} are ON"}[P.graph.get("contradiction", "both")]
        head = f"Forcing Net: {what.format(P.graph.get('contradiction_via', ''))} so {verdict}"
        ends = [n for n, d in P.nodes(data=True) if d.get("role") == Role.CONTRADICTION]
    else:
        head = f"Forcing Net ({kind}): every branch leads to {concl} so {verdict}"
        ends = [n for n, d in P.nodes(data=True) if d.get("role") == Role.CONCLUSION]
    lines = [head]
    for end in sorted(ends, key=sort_key):
        best = None
        for p in sorted(premises, key=sort_key):
            if p == end:
                path = [p]
            elif nx.has_path(P, p, end):
                path = nx.shortest_path(P, p, end)
            else:
                continue
            if kind != "contradiction" or best is None or len(path) < len(best):
                if kind != "contradiction":
                    lines.append("".join(_sw(x) for x in path))
                else:
                    best = path
        if best is not None:
            lines.append("".join(_sw(x) for x in best))
    return "\n".join(lines)


@pytest.mark.parametrize("which", [1, 4])
def test_net_steps_notation_matches_the_path_by_path_form(which):
    puzzle = read_sample(corpus_path("hardest_1905_sample"), 20)[which]
    steps = [s for s in lg.solve(lg.Grid.parse(puzzle)).steps if s.technique.startswith("forcing-net")]
    assert len(steps) > 4
    kinds = set()
    for step in steps:
        text = sudokuwiki(step)
        assert text == sudokuwiki_oracle(step)
        lines = text.splitlines()
        assert len(lines) >= 2 and step.notation.startswith(" ; ".join(lines[1:]))
        kinds.add(step.proof.graph["net"])
    assert "contradiction" in kinds
    if which == 1:
        assert "verity" in kinds


def test_contradiction_line_is_the_nearest_premise():
    """A hand-made net: two premises reach the contradiction, the later one (by literal
    order) by a shorter path: its path is the line; a tie goes to the earlier premise."""
    c = lambda text: lg.Literal.parse(text)  # noqa: E731
    a, b, x, y, z = c("+r1c1#1"), c("+r2c2#2"), c("-r3c3#3"), c("+r4c4#4"), c("-r5c5#5")
    P = nx.DiGraph(net="contradiction", contradiction="both")
    for n, role in ((a, Role.PREMISE), (b, Role.PREMISE), (x, Role.INNER), (y, Role.INNER),
                    (z, Role.CONTRADICTION)):
        P.add_node(n, role=role)
    P.add_edges_from([(a, x), (x, y), (y, z), (b, y)])
    step = lg.make_step("forcing-net-contradiction", eliminations=[z.cand], proof=P, notation="")
    assert sudokuwiki(step).splitlines()[1] == "+2[B2]+4[D4]-5[E5]"
    P2 = nx.DiGraph(P)
    P2.remove_edge(b, y)
    P2.add_edges_from([(b, x)])
    step = lg.make_step("forcing-net-contradiction", eliminations=[z.cand], proof=P2, notation="")
    assert sudokuwiki(step).splitlines()[1] == "+1[A1]-3[C3]+4[D4]-5[E5]"


def test_premises_that_cannot_reach_an_end_write_no_line():
    """Two contradiction literals, each reached from one premise only; a verity-style net
    (every premise's path written) likewise skips the premise that cannot reach."""
    c = lambda text: lg.Literal.parse(text)  # noqa: E731
    a, b, x, y, z1, z2 = (c(t) for t in ("+r1c1#1", "+r2c2#2", "-r3c3#3", "+r4c4#4", "+r5c5#5", "-r5c5#5"))
    P = nx.DiGraph(net="contradiction", contradiction="both")
    for n, role in ((a, Role.PREMISE), (b, Role.PREMISE), (x, Role.INNER), (y, Role.INNER),
                    (z1, Role.CONTRADICTION), (z2, Role.CONTRADICTION)):
        P.add_node(n, role=role)
    P.add_edges_from([(a, x), (x, y), (y, z1), (b, z2)])
    step = lg.make_step("forcing-net-contradiction", eliminations=[z1.cand], proof=P, notation="")
    assert sudokuwiki(step).splitlines()[1:] == ["+1[A1]-3[C3]+4[D4]+5[E5]", "+2[B2]-5[E5]"]
    assert sudokuwiki(step) == sudokuwiki_oracle(step)
    V = nx.DiGraph(P, net="verity")
    for n in (z1, z2):
        V.nodes[n]["role"] = Role.INNER
    V.nodes[y]["role"] = Role.CONCLUSION
    step = lg.make_step("forcing-net-verity", placements=[y.cand], proof=V, notation="")
    assert sudokuwiki(step).splitlines()[1:] == ["+1[A1]-3[C3]+4[D4]"]
    assert sudokuwiki(step) == sudokuwiki_oracle(step)
