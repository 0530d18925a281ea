"""Plain graphs: the link graph, the implication graph and step proofs through GraphML, GEXF
and node-link JSON and back, compared with the graphs they came from."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph import cli
from linkgraph.io import corpus_path, read_puzzles

FORMATS = ("graphml", "gexf", "json")


@pytest.fixture(scope="module")
def position():
    return lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))


def _norm(value):
    """Tuples as lists, graphs as (nodes, edges) with their attributes, recursively."""
    if isinstance(value, nx.Graph):
        return (
            value.is_directed(),
            {n: _norm(d) for n, d in value.nodes(data=True)},
            {(u, v): _norm(d) for u, v, d in value.edges(data=True)},
            _norm(dict(value.graph)),
        )
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    if isinstance(value, str):
        return str(value)  # StrEnum members compare as their text
    return value


def assert_same(got: nx.Graph, want: nx.Graph) -> None:
    assert got.is_directed() == want.is_directed()
    assert set(got.nodes) == set(want.nodes)
    assert set(got.edges) == set(want.edges)
    for n, d in want.nodes(data=True):
        assert _norm(got.nodes[n]) == _norm(d), n
    for u, v, d in want.edges(data=True):
        assert _norm(got.edges[u, v]) == _norm(d), (u, v)
    assert _norm(dict(got.graph)) == _norm(dict(want.graph))


def _plain_types(H: nx.Graph) -> set[type]:
    values = list(H.graph.values())
    values += [v for _, d in H.nodes(data=True) for v in d.values()]
    values += [v for *_, d in H.edges(data=True) for v in d.values()]
    return {type(v) for v in values} | {type(n) for n in H.nodes}


def _steps(position):
    """A chain, a net with a nested sub-proof, a pattern step and (on top95) a verity net."""
    chain = lg.chains.prove(
        lg.chains.chain_search(position), "cell", lg.SetX.parse("r2c8"), lg.Literal.parse("+r6c6#2")
    )
    nested = next(lg.forcing_nets(position, level=1))
    assert any("proof" in d for *_, d in nested.proof.edges(data=True))
    verity = None
    for line in read_puzzles(corpus_path("top95"), limit=10):
        verity = next(lg.forcing_nets(lg.prepare(line.grid()), kinds=["verity"]), None)
        if verity is not None:
            break
    assert verity is not None
    assert any("branches" in d for *_, d in verity.proof.edges(data=True))
    pattern = next(s for s in lg.solve(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)).steps if s.proof.graph.get("base"))
    return {"chain": chain, "nested": nested, "verity": verity, "pattern": pattern}


@pytest.fixture(scope="module")
def graphs(position):
    G = lg.link_graph(position)
    out = {"links": G, "implication": lg.implication_graph(G)}
    out.update({name: step.proof for name, step in _steps(position).items()})
    return out


@pytest.mark.parametrize("name", ["links", "implication", "chain", "nested", "verity", "pattern"])
def test_to_plain_holds_only_plain_values_and_comes_back(graphs, name):
    G = graphs[name]
    H = lg.to_plain(G)
    assert _plain_types(H) <= {str, int, float, bool}
    assert_same(lg.from_plain(H), G)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", ["links", "implication", "chain", "nested", "verity", "pattern"])
def test_file_round_trip(graphs, name, fmt, tmp_path):
    G = graphs[name]
    path = lg.write_graph(G, tmp_path / f"{name}.{fmt}")
    assert_same(lg.read_graph(path), G)


@pytest.mark.parametrize("fmt", FORMATS)
def test_networkx_reads_the_files_alone(position, fmt, tmp_path):
    """Another program sees text nodes and the documented attributes (README: r2c6#2 = r6c6#2 in c6)."""
    path = lg.write_graph(lg.link_graph(position), tmp_path / f"links.{fmt}")
    if fmt == "graphml":
        H = nx.read_graphml(path)
    elif fmt == "gexf":
        H = nx.read_gexf(path)
    else:
        H = nx.node_link_graph(json.loads(path.read_text()), edges="links")
    assert H.edges["r2c6#2", "r6c6#2"]["kind"] == "strong"
    assert H.edges["r2c6#2", "r6c6#2"]["via"] == "c6#2"
    assert H.nodes["r2468c4{12378}"]["kind"] == "als"
    assert H.nodes["r2c8#1"]["kind"] == "candidate"


def test_gexf_keeps_graph_attributes_in_its_description(position, tmp_path):
    path = lg.write_graph(lg.link_graph(position), tmp_path / "links.gexf")
    ns = {"g": "http://www.gexf.net/1.2draft"}
    desc = ET.parse(path).getroot().find("g:meta/g:description", ns)
    assert json.loads(json.loads(desc.text)["families"]) == ["cell", "house", "group", "als"]


def test_the_implication_graph_of_a_read_link_graph_is_the_same(graphs, tmp_path):
    path = lg.write_graph(graphs["links"], tmp_path / "links.graphml")
    assert_same(lg.implication_graph(lg.read_graph(path)), graphs["implication"])


def test_a_read_proof_still_passes_the_checker(position, tmp_path):
    for name, step in _steps(position).items():
        if name in ("verity", "pattern"):
            continue  # other positions
        P = lg.read_graph(lg.write_graph(step.proof, tmp_path / f"{name}.json"))
        again = lg.make_step(step.technique, placements=step.placements, eliminations=step.eliminations,
                             premises=step.premises, proof=P)
        lg.check_step(position, again)


def test_path_queries_on_text_nodes(graphs):
    """The README chain, found by networkx alone on the plain implication graph."""
    D = lg.to_plain(graphs["implication"])
    assert nx.shortest_path(D, "+r2c8#1", "+r6c6#2") == ["+r2c8#1", "-r2c4#1", "-r4c8#3", "-r8c7#8", "-r6c4#2", "+r6c6#2"]


def test_bad_files_and_suffixes(tmp_path):
    with pytest.raises(lg.OptionError, match="unknown graph format '.txt'"):
        lg.write_graph(nx.Graph(), tmp_path / "g.txt")
    with pytest.raises(lg.PuzzleFormatError, match="no such file"):
        lg.read_graph(tmp_path / "missing.graphml")
    bad = tmp_path / "bad.graphml"
    bad.write_text("<graphml><graph", encoding="utf-8")
    with pytest.raises(lg.PuzzleFormatError, match="bad.graphml: not a graphml graph"):
        lg.read_graph(bad)
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(nx.node_link_data(nx.path_graph(["r1c1#1", "banana"]), edges="links")))
    with pytest.raises(lg.NotationError, match="node 'banana'"):
        lg.read_graph(odd)
    assert not list(tmp_path.glob(".*part"))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("which", ["links", "implication"])
def test_cli_links_graph(which, fmt, tmp_path, capsys, position):
    path = tmp_path / f"g.{fmt}"
    argv = ["links", lg.samples.GNPX_FORCECHAIN, "--prepare", "basic", "--graph", str(path)]
    if which == "implication":
        argv += ["--implication"]
    assert cli.main(argv) == 0
    G = lg.link_graph(position)
    assert_same(lg.read_graph(path), G if which == "links" else lg.implication_graph(G))
    assert str(path) in capsys.readouterr().err


def test_cli_render_writes_a_proof_graph(tmp_path, position):
    path = tmp_path / "proof.graphml"
    assert cli.main(["render", lg.samples.GNPX_FORCECHAIN, "--prepare", "basic", "--chains", "cell",
                     "-o", str(path)]) == 0
    first = next(lg.forcing_chains(position, variants=["cell"]))
    assert_same(lg.read_graph(path), first.proof)


def test_cli_bad_graph_suffix(tmp_path, capsys):
    code = cli.main(["links", lg.samples.GNPX_FORCECHAIN, "--graph", str(tmp_path / "g.csv")])
    assert code == 2
    err = capsys.readouterr().err
    assert "unknown graph format '.csv'" in err and "Traceback" not in err
    assert not (tmp_path / "g.csv").exists()
