"""Graphviz export of proofs: chains and nets as pictures a person can read.

`to_dot` turns a Step (or a bare proof graph) into a `graphviz.Digraph`; it
needs no Graphviz program. `render` writes ``.dot``, ``.svg``, ``.png`` or
``.pdf`` by the file's suffix through the ``dot`` program (``neato -n`` for
the board layout) and raises `GraphvizError` when the program is missing or
fails. `step_svg` gives the SVG text: a `Step` shows as its picture in
Jupyter (``Step._repr_svg_``), and `show` wraps a step or a bare proof graph,
in either layout, as a `Picture` that Jupyter shows the same way.

The drawing itself (the two layouts, the style table `STYLE` and how a
picture reads) is `linkgraph.draw.dot`; this module writes pictures to files
through Graphviz and wraps them for Jupyter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from linkgraph.errors import GraphvizError, OptionError, check_choice
from linkgraph.grid import Grid
from linkgraph.io import atomic_write, check_output
from linkgraph.draw.dot import LAYOUTS, STYLE, proof_of, to_dot
from linkgraph.grid import DISPLAY as GRID_DISPLAY
from linkgraph.steps import DISPLAY, Step

__all__ = ["FORMATS", "LAYOUTS", "STYLE", "Picture", "grid_svg", "render", "show", "step_svg", "to_dot"]

FORMATS = ("dot", "svg", "png", "pdf")


# ---- output ------------------------------------------------------------------------
def _engine(layout: str) -> list[str]:
    return ["dot"] if layout == "flow" else ["neato", "-n2"]


def _run(source: str, fmt: str, layout: str) -> bytes:
    cmd = _engine(layout)
    exe = shutil.which(cmd[0])
    if exe is None:
        raise GraphvizError(
            f"the Graphviz program {cmd[0]!r} was not found on PATH; install Graphviz "
            "(e.g. apt install graphviz) or write a .dot file"
        )
    try:
        proc = subprocess.run([exe, *cmd[1:], f"-T{fmt}"], input=source.encode("utf-8"),
                              capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GraphvizError(f"{cmd[0]} -T{fmt}: {exc}") from None
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GraphvizError(f"{cmd[0]} -T{fmt} failed (exit {proc.returncode}): {message[0] if message else ''}")
    return proc.stdout


def render(
    step_or_proof: Step | nx.DiGraph,
    path: str | os.PathLike,
    *,
    layout: str = "flow",
    grid: Grid | None = None,
    title: str | None = None,
) -> Path:
    """Write the proof picture to `path`: ``.dot``, ``.svg``, ``.png`` or ``.pdf`` by suffix.

    Raises OptionError for another suffix or a path that cannot be written (no
    such folder), GraphvizError when the Graphviz program (``dot``, or ``neato``
    for the board) is missing or fails. The file is replaced whole, or left as it
    was (`linkgraph.io.atomic_write`). Returns the path written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> P = nx.DiGraph(kind="chain")
    >>> P.add_edge(lg.Literal.parse("-r2c6#2"), lg.Literal.parse("+r6c6#2"), kind="strong", family="house", via="c6#2")
    >>> from linkgraph.draw.graphviz import render
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = render(P, pathlib.Path(tmp) / "chain.dot")
    ...     out.read_text().startswith("digraph proof")
    True
    """
    path = check_output(path, option="path")
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise OptionError(f"{path}: unknown picture format {path.suffix!r}, expected one of .dot, .svg, .png, .pdf")
    dot = to_dot(step_or_proof, layout=layout, grid=grid, title=title)
    data = dot.source.encode("utf-8") if fmt == "dot" else _run(dot.source, fmt, layout)
    with atomic_write(path, "wb") as fh:  # the old picture or the whole new one, never half
        fh.write(data)
    return path


def step_svg(step_or_proof: Step | nx.DiGraph, *, layout: str = "flow", grid: Grid | None = None) -> str:
    """The SVG text of the proof picture (for ``Step._repr_svg_`` in Jupyter).

    Raises GraphvizError when ``dot`` is missing.
    """
    dot = to_dot(step_or_proof, layout=layout, grid=grid)
    return _run(dot.source, "svg", layout).decode("utf-8")


@dataclass(frozen=True)
class Picture:
    """A proof picture for Jupyter: a step or a bare proof graph, with a layout.

    Jupyter shows it through ``_repr_svg_``; outside a notebook, `source` is
    the DOT text and `save` writes a file by suffix, as `render` does. Build it
    with `show`.
    """

    proof: Step | nx.DiGraph
    layout: str = "flow"
    grid: Grid | None = None
    title: str | None = None

    @property
    def source(self) -> str:
        """The DOT source (no Graphviz program needed)."""
        return to_dot(self.proof, layout=self.layout, grid=self.grid, title=self.title).source

    def save(self, path: str | os.PathLike) -> Path:
        """Write the picture to `path` (``.dot``, ``.svg``, ``.png`` or ``.pdf``); see `render`."""
        return render(self.proof, path, layout=self.layout, grid=self.grid, title=self.title)

    def _repr_svg_(self) -> str | None:
        return _svg_or_none(self.proof, layout=self.layout, grid=self.grid, title=self.title)


def show(
    step_or_proof: Step | nx.DiGraph,
    *,
    layout: str = "flow",
    grid: Grid | None = None,
    title: str | None = None,
) -> Picture:
    """The proof of a step, or a bare proof graph, as a picture Jupyter displays.

    A `Step` displays as its flow picture on its own; `show` adds the board
    layout (pass the `grid` to draw the position) and proof graphs that are not
    wrapped in a step. In a notebook cell, ``lg.show(step, layout="board",
    grid=grid)`` draws it; the picture is empty (Jupyter falls back to the
    text) when the proof has no links or Graphviz is not installed.

    Raises OptionError for an unknown layout and TypeError for anything but a
    Step or a DiGraph, at the call.

    Examples
    --------
    >>> P = nx.DiGraph(kind="chain")
    >>> P.add_edge(lg.Literal.parse("-r2c6#2"), lg.Literal.parse("+r6c6#2"), kind="strong", family="house", via="c6#2")
    >>> pic = lg.show(P)
    >>> '"-r2c6#2" -> "+r6c6#2"' in pic.source
    True
    """
    check_choice("layout", [layout], LAYOUTS)
    proof_of(step_or_proof)  # a clear TypeError now, not when the notebook draws it
    return Picture(step_or_proof, layout, grid, title)


def _svg_or_none(
    step_or_proof: Step | nx.DiGraph,
    *,
    layout: str = "flow",
    grid: Grid | None = None,
    title: str | None = None,
) -> str | None:
    """SVG text for a notebook, or None (no links to draw, or Graphviz missing or failing)."""
    P, _ = proof_of(step_or_proof)
    if P.number_of_edges() == 0:
        return None
    try:
        return _run(to_dot(step_or_proof, layout=layout, grid=grid, title=title).source, "svg", layout).decode("utf-8")
    except GraphvizError:
        return None


DISPLAY["image/svg+xml"] = _svg_or_none  # a Step in Jupyter: its flow picture


def grid_svg(grid: Grid) -> str:
    """The candidate board of `grid` as SVG text (givens bold, placed digits grey, candidates small).

    Raises GraphvizError when ``neato`` is missing.
    """
    open_cells = int((grid.counts > 1).sum())
    dot = to_dot(nx.DiGraph(), layout="board", grid=grid, title=f"{grid.geometry.name}: {open_cells} open cells")
    return _run(dot.source, "svg", "board").decode("utf-8")


def _grid_svg_or_none(grid: Grid) -> str | None:
    try:
        return grid_svg(grid)
    except GraphvizError:
        return None


GRID_DISPLAY["image/svg+xml"] = _grid_svg_or_none  # a Grid in Jupyter: its candidate board
