"""The networkx graphs of a position: typed links, the literal digraph, and their array form.

May import the foundation only (`linkgraph.model`, `linkgraph.geometry`,
`linkgraph.grid`, ...). Modules:

- `links`: the typed link graph (`link_graph`): candidates, groups and ALSs
  joined by strong and weak links, with link counts and summaries;
- `als`: almost-locked sets, enumerated once for every layer above;
- `implication`: the literal digraph (`implication_graph`) and path queries;
- `compiled`: the literal digraph as integer arrays (`LiteralGraph`), the form
  the chain searches run on;
- `compiler`: builds that array form straight from a grid (`compile_grid`);
- `plain`: any of these graphs (and a step's proof) in plain values, for GraphML,
  GEXF and node-link JSON (`to_plain`, `from_plain`, `write_graph`, `read_graph`).
"""

from __future__ import annotations

from linkgraph.graph.als import almost_locked_sets
from linkgraph.graph.implication import (
    CompiledImplications,
    compile_implications,
    implication_graph,
    implication_path,
    implications,
    path_links,
)
from linkgraph.graph.links import FAMILIES, degree_summary, link_counts, link_graph, strong_components
from linkgraph.graph.plain import GRAPH_FORMATS, from_plain, read_graph, to_plain, write_graph

__all__ = [
    "FAMILIES",
    "GRAPH_FORMATS",
    "CompiledImplications",
    "almost_locked_sets",
    "compile_implications",
    "degree_summary",
    "from_plain",
    "implication_graph",
    "implication_path",
    "implications",
    "link_counts",
    "link_graph",
    "path_links",
    "read_graph",
    "strong_components",
    "to_plain",
    "write_graph",
]
