"""Pictures of proofs: Graphviz DOT text, and SVG/PNG/PDF through the `dot` program.

May import the foundation only. Modules:

- `dot`: `to_dot`, a proof as a `graphviz.Digraph` (a flow graph, or the
  candidates on the board); needs no `dot` program;
- `graphviz`: `render` and `show`, which run `dot`, and `Step`'s picture in Jupyter.
"""

from __future__ import annotations

from linkgraph.draw.dot import LAYOUTS, STYLE, to_dot
from linkgraph.draw.graphviz import FORMATS, Picture, render, show, step_svg

__all__ = ["FORMATS", "LAYOUTS", "STYLE", "Picture", "render", "show", "step_svg", "to_dot"]
