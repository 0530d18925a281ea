"""Graphs in plain values, for files and other programs: GraphML, GEXF and node-link JSON.

linkgraph's graphs use value objects as nodes (`Candidate`, `Group`, `Als`, `Literal`)
and keep a few rich attributes (the `Grid` in ``G.graph["grid"]``, an ALS node's
``single`` map, a nested net's sub-proof on an edge). `to_plain` turns any of them
(the link graph, the implication digraph, a step's proof) into a graph of plain values
only, the form every networkx writer accepts:

- each node becomes its text form: ``r2c8#1``, ``r2c789#1``, ``r2468c4{1237}``,
  ``+r2c8#1``;
- strings, whole numbers, floats and booleans stay as they are (a `StrEnum` becomes
  its plain string);
- the grid becomes its candidate-grid text (`Grid.to_candidates`);
- lists, tuples and dicts (``premises``, ``base``, ``branches``, ``single`` ...)
  become JSON text, their members in text form; a graph inside an attribute (a
  nested net's sub-proof) becomes the JSON text of its own plain node-link form.

`from_plain` reads such a graph back: node texts are parsed into values again, the
grid text into a `Grid`, JSON text into lists and dicts (an ALS node's ``single`` into
``{digit: Candidate}``), and sub-proofs into frozen digraphs. So
``from_plain(to_plain(G))`` has the nodes, edges and attributes of ``G`` (tuples come
back as lists), and ``implication_graph`` works on it as on ``G``.

`write_graph` and `read_graph` do the whole trip through a file, by suffix:
``.graphml``, ``.gexf`` or ``.json`` (node-link JSON). GEXF has no graph attributes;
they travel as JSON in the file's ``<meta><description>``.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from enum import Enum
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from linkgraph.errors import NotationError, OptionError, PuzzleFormatError
from linkgraph.grid import Grid
from linkgraph.io import atomic_write, check_output
from linkgraph.model import Candidate, Literal

__all__ = ["GRAPH_FORMATS", "check_graph_path", "from_plain", "read_graph", "to_plain", "write_graph"]

#: The file formats `write_graph` and `read_graph` know, by suffix.
GRAPH_FORMATS = ("graphml", "gexf", "json")

_GEXF_NS = "http://www.gexf.net/1.2draft"


def _plain_value(value: Any) -> Any:
    """One attribute value as a plain string, number or boolean."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, Grid):
        return value.to_candidates()
    return json.dumps(_jsonable(value), ensure_ascii=False, separators=(",", ":"))


def _jsonable(value: Any) -> Any:
    """`value` with every member in JSON types (values as their text form)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, nx.Graph):
        return nx.node_link_data(to_plain(value), edges="links")
    if isinstance(value, dict):
        return {str(_jsonable(k)): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, Grid):
        return value.to_candidates()
    return str(value)


def _attrs(data: dict) -> dict:
    return {str(k): _plain_value(v) for k, v in data.items() if v is not None}


def to_plain(G: nx.Graph) -> nx.Graph:
    """A copy of `G` with text nodes and plain attribute values (see the module docstring).

    Parameters
    ----------
    G : networkx.Graph or networkx.DiGraph
        A link graph, an implication digraph or a step's proof (any graph whose
        nodes print as their text form).

    Returns
    -------
    networkx.Graph or networkx.DiGraph
        The same kind of graph, nodes relabelled to text, every attribute a string,
        number or boolean. Not frozen.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> H = lg.to_plain(lg.link_graph(grid))
    >>> H.edges["r2c6#2", "r6c6#2"]
    {'kind': 'strong', 'family': 'house', 'via': 'c6#2'}
    >>> H.nodes["r2468c4{12378}"]["single"]
    '{"1":"r2c4#1","3":"r4c4#3"}'
    >>> H.graph["grid"].splitlines()[0]
    '1 5 2 6 4 7 3 8 9'
    >>> D = lg.to_plain(lg.implication_graph(lg.link_graph(grid)))
    >>> nx.shortest_path(D, "+r2c8#1", "+r6c6#2")
    ['+r2c8#1', '-r2c4#1', '-r4c8#3', '-r8c7#8', '-r6c4#2', '+r6c6#2']
    """
    H = G.__class__()
    H.graph.update(_attrs(G.graph))
    H.add_nodes_from((str(n), _attrs(d)) for n, d in G.nodes(data=True))
    H.add_edges_from((str(u), str(v), _attrs(d)) for u, v, d in G.edges(data=True))
    return H


def _node(text: str, size: int | None) -> Any:
    """The value behind a node's text: a Literal, Candidate, Group or Als."""
    if text[:1] in "+-":
        return Literal.parse(text, size=size)
    return Literal.parse("+" + text, size=size).cand


def _read_value(key: str, value: Any, size: int | None) -> Any:
    """An attribute value of a plain graph back in linkgraph's form."""
    if not isinstance(value, str):
        return value
    if key == "grid":
        return Grid.parse(value)
    if value[:1] not in "[{":
        return value
    try:
        data = json.loads(value)
    except ValueError:
        return value
    return _read_json(key, data, size)


def _read_json(key: str, data: Any, size: int | None) -> Any:
    if isinstance(data, dict) and "nodes" in data and "links" in data and "directed" in data:
        return nx.freeze(from_plain(nx.node_link_graph(data, edges="links")))
    if key == "single" and isinstance(data, dict):
        return {int(d): Candidate.parse(c, size=size) for d, c in data.items()}
    if isinstance(data, list):
        return [_read_json("", v, size) for v in data]
    if isinstance(data, dict):
        return {k: _read_json("", v, size) for k, v in data.items()}
    return data


def from_plain(H: nx.Graph) -> nx.Graph:
    """The graph `to_plain` made, with value nodes and linkgraph's attributes again.

    Parameters
    ----------
    H : networkx.Graph or networkx.DiGraph
        A graph from `to_plain`, or read from a file it was written to.

    Returns
    -------
    networkx.Graph or networkx.DiGraph
        Nodes parsed into `Candidate`, `Group`, `Als` or `Literal`; the ``grid``
        attribute a `Grid`; JSON text read back into lists and dicts.

    Raises
    ------
    NotationError
        For a node whose text is not a candidate, group, ALS or literal (the
        message names the node).

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> G = lg.link_graph(grid)
    >>> back = lg.from_plain(lg.to_plain(G))
    >>> set(back.edges) == set(G.edges), back.graph["grid"] == grid
    (True, True)
    >>> back.nodes[lg.Als.parse("r2468c4{12378}")]["single"][3]
    Candidate(cell=Cell(row=3, col=3), digit=3)
    """
    grid = H.graph.get("grid")
    size = None
    if isinstance(grid, str):
        try:
            size = Grid.parse(grid).size
        except (PuzzleFormatError, ValueError):
            size = None
    mapping = {}
    for n in H.nodes:
        try:
            mapping[n] = _node(str(n), size)
        except NotationError as exc:
            raise NotationError(f"node {str(n)!r}: not a candidate, group, ALS or literal ({exc})") from None
    G = H.__class__()
    G.graph.update({k: _read_value(k, v, size) for k, v in H.graph.items()})
    G.add_nodes_from((mapping[n], {k: _read_value(k, v, size) for k, v in d.items()}) for n, d in H.nodes(data=True))
    G.add_edges_from(
        (mapping[u], mapping[v], {k: _read_value(k, x, size) for k, x in d.items()}) for u, v, d in H.edges(data=True)
    )
    return G


def check_graph_path(path: str | os.PathLike) -> str:
    """The format of a graph file by its suffix (``graphml``, ``gexf``, ``json``); OptionError otherwise."""
    return _format(Path(path))


def _format(path: Path) -> str:
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in GRAPH_FORMATS:
        raise OptionError(f"{path}: unknown graph format {path.suffix or '(no suffix)'!r}, expected .graphml, .gexf or .json")
    return suffix


def write_graph(G: nx.Graph, path: str | os.PathLike) -> Path:
    """Write `G` in plain form to `path`: ``.graphml``, ``.gexf`` or ``.json`` (node-link).

    The file is written whole to a temporary name beside `path` and then renamed, so a
    failed write leaves no partial file. Returns the path.

    Raises
    ------
    OptionError
        For another suffix.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> G = lg.link_graph(grid)
    >>> path = lg.write_graph(G, pathlib.Path(tempfile.mkdtemp()) / "links.graphml")
    >>> back = lg.read_graph(path)
    >>> back.number_of_edges() == G.number_of_edges(), back.graph["families"]
    (True, ['cell', 'house', 'group', 'als'])
    """
    path = check_output(path, option="path")
    fmt = _format(path)
    H = to_plain(G)
    if fmt == "graphml":
        text = "\n".join(nx.generate_graphml(H)) + "\n"
    elif fmt == "gexf":
        text = _gexf_text(H)
    else:
        text = json.dumps(nx.node_link_data(H, edges="links"), ensure_ascii=False, indent=1) + "\n"
    with atomic_write(path) as fh:  # the old file or the whole new one
        fh.write(text)
    return path


def _gexf_text(H: nx.Graph) -> str:
    """GEXF 1.2 text of `H`, its graph attributes as JSON in ``<meta><description>``."""
    bare = H.copy()
    bare.graph.clear()
    root = ET.fromstring("\n".join(nx.generate_gexf(bare)))
    meta = root.find(f"{{{_GEXF_NS}}}meta")
    if meta is not None:
        meta.attrib.pop("lastmodifieddate", None)  # the same graph gives the same bytes
        if H.graph:
            ET.SubElement(meta, f"{{{_GEXF_NS}}}description").text = json.dumps(H.graph, ensure_ascii=False)
    ET.register_namespace("", _GEXF_NS)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def read_graph(path: str | os.PathLike) -> nx.Graph:
    """Read a graph `write_graph` wrote (or any plain graph file) back with value nodes.

    Raises
    ------
    OptionError
        For an unknown suffix.
    PuzzleFormatError
        When the file is missing or is not a graph of that format (the message names the file).
    """
    path = Path(path)
    fmt = _format(path)
    if not path.is_file():
        raise PuzzleFormatError(f"{path}: no such file")
    try:
        if fmt == "graphml":
            H = nx.read_graphml(path)
            for key in ("node_default", "edge_default"):  # what the reader adds
                if H.graph.get(key) == {}:
                    del H.graph[key]
        elif fmt == "gexf":
            H = nx.read_gexf(path)
            _gexf_back(H, path)
        else:
            H = nx.node_link_graph(json.loads(path.read_text(encoding="utf-8")), edges="links")
    except (ET.ParseError, ValueError, KeyError, TypeError, nx.NetworkXError) as exc:
        raise PuzzleFormatError(f"{path}: not a {fmt} graph ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
    return from_plain(H)


def _gexf_back(H: nx.Graph, path: Path) -> None:
    """Undo what GEXF adds (node labels equal to the id, edge ids, mode) and restore the graph attributes."""
    for n, d in H.nodes(data=True):
        if d.get("label") == n:
            del d["label"]
    for *_, d in H.edges(data=True):
        d.pop("id", None)
    H.graph.clear()
    meta = ET.parse(path).getroot().find(f"{{{_GEXF_NS}}}meta")
    desc = meta.find(f"{{{_GEXF_NS}}}description") if meta is not None else None
    if desc is not None and desc.text:
        H.graph.update(json.loads(desc.text))
