"""Proofs as DOT: the style table and the flow and board layouts.

Part of `linkgraph.draw.graphviz`, which re-exports `to_dot`, `STYLE` and `LAYOUTS`
and runs Graphviz on the source built here. `to_dot` turns a Step (or a bare
proof graph) into a `graphviz.Digraph`; it needs no Graphviz program.

Three layouts:

- ``"flow"``: the proof as a left-to-right graph of literals, premises on the
  left, the conclusion or contradiction on the right;
- ``"board"``: the same literals at their places on the candidate grid (each
  candidate at its position inside its cell, as HoDoKu and SudokuWiki draw
  chains), with the links as arrows; pass the `grid` to show the other
  candidates and the solved cells;
- ``"rounds"``: a net told round by round, one small board per round (the node
  attribute ``round``, else the distance from the premises): the literals derived
  in that round in full with the links that derive them, those of earlier rounds
  faded, so no board carries more than one round's arrows. Node ids there are
  ``p<panel>_<literal>``.

How it reads: an ON literal is a green box, an OFF literal a red ellipse; a
premise has a double border (a thick one on the board, where a second ring
would cover the next candidate), the conclusion a thick blue border, the literals
of a contradiction an amber fill, and a join (a literal with more than one
parent) a purple border. Strong links are solid, weak links dashed; the
colour tells the family (cell grey, house blue, group purple, ALS orange,
pattern and nested net teal). Hovering shows the link's set X (``via``). An
ALS, or a group node, is drawn as a cluster in the flow layout; on the board
an ALS gets one dashed outline around its cells (cells apart joined by a line),
and a group a frame around its candidates.
A contradiction's literals share the right-most rank of the flow; when both
literals of one candidate are in the proof, the board draws them side by side
in its place. Every style is in `STYLE`; node ids are the literals' text
(``+r6c6#2``), and decoration nodes of the board have ids starting with ``_``.
Every label is escaped, so no text can break or inject into the DOT source.

Examples
--------
>>> from linkgraph.draw.dot import to_dot
>>> P = nx.DiGraph(kind="chain")
>>> P.add_edge(lg.Literal.parse("-r2c6#2"), lg.Literal.parse("+r6c6#2"), kind="strong", family="house", via="c6#2")
>>> def label(dot, node):
...     return next(ln for ln in dot.source.splitlines() if ln.strip().startswith(f'"{node}" [')).split(" [")[1].split()[0]
>>> label(to_dot(P), "+r6c6#2"), label(to_dot(P, layout="board"), "+r6c6#2")
('label="r6c6#2"', 'label=2')
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping

import graphviz
import networkx as nx

from linkgraph.errors import OptionError, check_choice
from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Group, Literal, Role, sort_key
from linkgraph.steps import Step

__all__ = ["LAYOUTS", "STYLE", "proof_of", "proof_rounds", "to_dot"]

LAYOUTS = ("flow", "board", "rounds")
_FONT = "Helvetica"

#: The one style table: DOT attributes by what a node or edge *is*.
STYLE: dict[str, dict[str, dict[str, str]]] = {
    "graph": {
        "flow": {"rankdir": "LR", "nodesep": "0.18", "ranksep": "0.5", "fontname": _FONT,
                 "fontsize": "12", "labelloc": "t", "labeljust": "l", "newrank": "true"},
        "board": {"splines": "curved", "outputorder": "edgesfirst", "fontname": _FONT,
                  "fontsize": "12", "labelloc": "t", "labeljust": "l", "pad": "0.2"},
    },
    "node": {
        "flow": {"fontname": _FONT, "fontsize": "11", "height": "0.3", "margin": "0.06,0.03"},
        "board": {"fontname": _FONT, "fontsize": "9", "fixedsize": "true", "margin": "0"},
    },
    "edge": {
        "flow": {"arrowsize": "0.7"},
        "board": {"arrowsize": "0.6"},
    },
    "literal": {
        "on": {"shape": "box", "style": "filled,rounded", "fillcolor": "#d9f2d9", "color": "#2e7d32",
               "fontcolor": "#1b4d1e"},
        "off": {"shape": "ellipse", "style": "filled", "fillcolor": "#fbe0e0", "color": "#c62828",
                "fontcolor": "#6d1414"},
    },
    "role": {
        "premise": {"peripheries": "2", "penwidth": "1.4", "fontname": f"{_FONT}-Bold"},
        "inner": {},
        "conclusion": {"color": "#1565c0", "penwidth": "3", "fontname": f"{_FONT}-Bold"},
        "contradiction": {"fillcolor": "#ffd54f", "color": "#e65100", "penwidth": "2.5"},
    },
    "join": {"color": "#6a1b9a", "penwidth": "2"},
    "kind": {
        "strong": {"style": "solid", "penwidth": "1.8"},
        "weak": {"style": "dashed", "penwidth": "1.1"},
        "pattern": {"style": "bold"},
        "net": {"style": "bold"},
    },
    "family": {
        "cell": {"color": "#616161"},
        "house": {"color": "#1565c0"},
        "group": {"color": "#8e24aa"},
        "als": {"color": "#ef6c00"},
        "subset": {"color": "#00897b"},
        "fish": {"color": "#00897b"},
        "net": {"color": "#00897b"},
    },
    "cluster": {
        "als": {"style": "rounded,dashed", "color": "#ef6c00", "fontcolor": "#ef6c00", "fontsize": "10"},
        "group": {"style": "rounded,dashed", "color": "#8e24aa", "fontcolor": "#8e24aa", "fontsize": "10"},
    },
    "board": {
        "cell": {"shape": "box", "label": "", "color": "#bdbdbd", "penwidth": "0.6"},
        "box": {"shape": "box", "label": "", "color": "#212121", "penwidth": "2", "style": "rounded"},
        "value": {"shape": "plaintext", "fontsize": "26", "fontcolor": "#424242"},
        "given": {"shape": "plaintext", "fontsize": "26", "fontcolor": "#000000", "fontname": f"{_FONT}-Bold"},
        "candidate": {"shape": "plaintext", "fontsize": "9", "fontcolor": "#9e9e9e"},
        "frame-als": {"shape": "box", "label": "", "style": "rounded,dashed", "color": "#ef6c00", "penwidth": "1.6"},
        "frame-group": {"shape": "box", "label": "", "style": "rounded,dotted", "color": "#8e24aa", "penwidth": "2"},
        # a literal at its candidate place; both literals of one candidate (a contradiction) share it
        "literal": {"width": "0.25", "height": "0.25"},
        "twin": {"width": "0.19", "height": "0.19"},
        # overrides of "role" on the board: a second periphery would cover the next candidate
        "premise": {"peripheries": "1", "penwidth": "2.6"},
        # one outline per ALS, drawn as straight dashed segments
        "outline-als": {"color": "#ef6c00", "style": "dashed", "penwidth": "1.6"},
        # rounds: the literals of earlier rounds, pale
        "faded-on": {"fillcolor": "#eef7ee", "color": "#a5c8a7", "fontcolor": "#7fa382", "penwidth": "1"},
        "faded-off": {"fillcolor": "#fbf0f0", "color": "#e0a8a8", "fontcolor": "#b98080", "penwidth": "1"},
    },
}

_UNIT = 20.0  # points between candidate places on the board
_ROUND_UNIT = 14.0  # the same in a panel of the rounds layout


def _esc(text: object) -> str:
    """Text safe inside a DOT quoted string: backslashes and ``<...>`` lose their meaning,
    line breaks and other control characters become spaces."""
    text = str(text)
    if not text.isprintable():  # (the whole-string test is fast; most text passes it)
        text = "".join(ch if ch.isprintable() else " " for ch in text)
    return graphviz.escape(text)


# Statements are written as graphviz.Digraph.node/.edge write them (same quoting, label first,
# then the other attributes sorted), but with each distinct text quoted once: quoting the same
# style values on every node cost more than the dot run itself. typed=True keeps an escaped
# label (graphviz's NoHtml str) apart from plain text equal to it.
@functools.lru_cache(maxsize=16384, typed=True)
def _q(text: str) -> str:
    return graphviz.quoting.quote(text)


def _a_list(attrs: Mapping[str, str]) -> str:
    items = [(k, v) for k, v in attrs.items() if v is not None]
    if not items:
        return ""
    label = [f"label={_q(v)}" for k, v in items if k == "label"]
    rest = [f"{_q(k)}={_q(v)}" for k, v in sorted(items) if k != "label"]
    return f" [{' '.join(label + rest)}]"


def _node(dot: graphviz.Digraph, name: str, **attrs: str) -> None:
    dot.body.append(f"\t{_q(name)}{_a_list(attrs)}\n")


def _edge(dot: graphviz.Digraph, tail: str, head: str, **attrs: str) -> None:
    dot.body.append(f"\t{graphviz.quoting.quote_edge(tail)} -> {graphviz.quoting.quote_edge(head)}{_a_list(attrs)}\n")


def proof_of(step_or_proof: Step | nx.DiGraph) -> tuple[nx.DiGraph, str]:
    """The proof graph of a Step (or the graph itself) and its title; TypeError for anything else."""
    if isinstance(step_or_proof, Step):
        return step_or_proof.proof, str(step_or_proof)
    if isinstance(step_or_proof, nx.DiGraph):
        return step_or_proof, str(step_or_proof.graph.get("technique", "proof"))
    raise TypeError(f"expected a Step or a proof DiGraph, found {type(step_or_proof).__name__}")


def _node_attrs(P: nx.DiGraph, lit: Literal, layout: str) -> dict[str, str]:
    role = str(P.nodes[lit].get("role", Role.INNER))
    attrs = dict(STYLE["literal"]["on" if lit.on else "off"])
    if P.in_degree(lit) > 1:
        attrs.update(STYLE["join"])
    attrs.update(STYLE["role"].get(role, {}))
    state = "ON" if lit.on else "OFF"
    extra = ", join" if P.in_degree(lit) > 1 else ""
    attrs["tooltip"] = _esc(f"{lit}: {state}, {role}{extra}")
    cand = lit.cand
    # on the board a candidate or group shows its digit (its place or frame tells the cells)
    on_board = layout == "board" and isinstance(cand, (Candidate, Group))
    attrs["label"] = _esc(cand.digit if on_board else str(cand))
    return attrs


def _edge_attrs(data: Mapping) -> dict[str, str]:
    kind, family, via = str(data.get("kind", "")), str(data.get("family", "")), data.get("via", "")
    attrs = dict(STYLE["kind"].get(kind, {}))
    attrs.update(STYLE["family"].get(family, {}))
    if kind == "weak" and family != "als":
        attrs.setdefault("arrowhead", "empty")
    attrs["tooltip"] = _esc(f"{kind} ({family}) via {via}")
    return attrs


def to_dot(
    step_or_proof: Step | nx.DiGraph,
    *,
    layout: str = "flow",
    grid: Grid | None = None,
    title: str | None = None,
) -> graphviz.Digraph:
    """The proof of a step as a Graphviz digraph (no Graphviz program needed).

    Parameters
    ----------
    step_or_proof : Step or networkx.DiGraph
        A step, or a proof graph (nodes `Literal` with ``role``; edges with
        ``kind``, ``family``, ``via``).
    layout : {"flow", "board", "rounds"}, optional
        A left-to-right graph of literals; the literals at their places on the
        candidate grid; or one small board per round (to be laid out by ``neato -n2``,
        as `render` does).
    grid : Grid, optional
        For the board: the position, to draw its other candidates and solved cells.
    title : str, optional
        The picture's caption (default: the step in one line).

    Returns
    -------
    graphviz.Digraph
        Node ids are the literals' text; ``str(dot)`` is the DOT source.

    Examples
    --------
    >>> P = nx.DiGraph(kind="chain")
    >>> a, b = lg.Literal.parse("-r2c6#2"), lg.Literal.parse("+r6c6#2")
    >>> P.add_node(a, role="premise"); P.add_node(b, role="conclusion")
    >>> P.add_edge(a, b, kind="strong", family="house", via="c6#2")
    >>> from linkgraph.draw.graphviz import to_dot
    >>> dot = to_dot(P)
    >>> [line.split(" [")[0].strip() for line in dot.source.splitlines() if "->" in line]
    ['"-r2c6#2" -> "+r6c6#2"']
    """
    check_choice("layout", [layout], LAYOUTS)
    P, default_title = proof_of(step_or_proof)
    for node in P.nodes:
        if not isinstance(node, Literal):
            raise OptionError(f"proof node {node!r}: expected a Literal")
    dot = graphviz.Digraph(name="proof")
    style = "board" if layout == "rounds" else layout
    dot.attr("graph", **STYLE["graph"][style], label=_esc(default_title if title is None else title))
    dot.attr("node", **STYLE["node"][style])
    dot.attr("edge", **STYLE["edge"][style])
    if layout == "rounds":
        _rounds(dot, P, grid, None)
        return dot
    if layout == "flow":
        _flow(dot, P)
    else:
        _board(dot, P, grid)
    for u, v, data in sorted(P.edges(data=True), key=lambda e: (sort_key(e[0]), sort_key(e[1]))):
        _edge(dot, _esc(u), _esc(v), **_edge_attrs(data))
    return dot


# ---- flow layout -------------------------------------------------------------------
def _flow(dot: graphviz.Digraph, P: nx.DiGraph) -> None:
    clusters: dict[str, list[Literal]] = {}
    placed: set[Literal] = set()
    for u, _, data in sorted(P.edges(data=True), key=lambda e: (sort_key(e[0]), sort_key(e[1]))):
        if str(data.get("family")) == "als" and u not in placed:
            clusters.setdefault(f"ALS {data.get('via')}", []).append(u)
            placed.add(u)
    for lit in sorted(P.nodes, key=sort_key):
        if isinstance(lit.cand, Group) and lit not in placed:
            clusters.setdefault(f"group {lit.cand}", []).append(lit)
            placed.add(lit)
    for i, (label, lits) in enumerate(clusters.items()):
        kind = "als" if label.startswith("ALS") else "group"
        with dot.subgraph(name=f"cluster_{kind}_{i}") as sub:
            sub.attr(**STYLE["cluster"][kind], label=_esc(label))
            for lit in lits:
                _node(sub, _esc(lit), **_node_attrs(P, lit, "flow"))
    for lit in sorted(P.nodes, key=sort_key):
        if lit not in placed:
            _node(dot, _esc(lit), **_node_attrs(P, lit, "flow"))
    # premises share the left-most rank; the literals of a contradiction (the net's empty set X,
    # or X ON and OFF) the right-most one, where they read as one finding
    for role, rank in ((Role.PREMISE, "source"), (Role.CONTRADICTION, "sink")):
        lits = [lit for lit in P.nodes if P.nodes[lit].get("role") == role and lit not in placed]
        if len(lits) > 1:
            with dot.subgraph() as same:
                same.attr(rank=rank)
                for lit in sorted(lits, key=sort_key):
                    _node(same, _esc(lit))


# ---- board layout ------------------------------------------------------------------
def _board_size(P: nx.DiGraph, grid: Grid | None) -> int:
    if grid is not None:
        return grid.size
    top = 0
    for lit in P.nodes:
        cells = lit.cand.cells if isinstance(lit.cand, (Group, Als)) else (lit.cand.cell,)
        digits = lit.cand.digits if isinstance(lit.cand, Als) else (lit.cand.digit,)
        top = max(top, *(c.row + 1 for c in cells), *(c.col + 1 for c in cells), *digits)
    for size in (4, 6, 8, 9, 12, 16, 25):
        if top <= size:
            return size
    return top


class _Board:
    """Candidate positions in points for an n x n grid (y grows upwards, as in Graphviz).

    Each cell keeps a margin of `pad` points around its candidate places, so a literal's
    marker stays inside its cell; `origin` shifts the whole board (a panel of `rounds`)."""

    def __init__(self, n: int, *, unit: float = 20.0, origin: tuple[float, float] = (0.0, 0.0)):
        self.n = n
        self.unit = unit
        self.pad = unit * 0.2
        self.ox, self.oy = origin
        self.sub_cols = math.ceil(math.sqrt(n))
        self.sub_rows = math.ceil(n / self.sub_cols)
        self.cw = self.sub_cols * unit + 2 * self.pad
        self.ch = self.sub_rows * unit + 2 * self.pad

    def cand(self, row: int, col: int, digit: int) -> tuple[float, float]:
        i = digit - 1
        x = col * self.cw + self.pad + (i % self.sub_cols + 0.5) * self.unit
        y = (self.n - row) * self.ch - self.pad - (i // self.sub_cols + 0.5) * self.unit
        return self.ox + x, self.oy + y

    def cell(self, row: int, col: int) -> tuple[float, float]:
        return self.ox + (col + 0.5) * self.cw, self.oy + (self.n - row - 0.5) * self.ch

    @property
    def width(self) -> float:
        return self.n * self.cw

    @property
    def height(self) -> float:
        return self.n * self.ch


def _pos(x: float, y: float) -> str:
    return f"{x:.1f},{y:.1f}!"


def _frame(dot, name: str, style: str, points: list[tuple[float, float]], pad: float, label: str = "") -> None:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    w, h = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    attrs = dict(STYLE["board"][style])
    attrs["tooltip"] = _esc(label)
    _node(dot, name, pos=_pos((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2),
             width=f"{w / 72:.3f}", height=f"{h / 72:.3f}", **attrs)


def _board(dot: graphviz.Digraph, P: nx.DiGraph, grid: Grid | None) -> None:
    B = _Board(_board_size(P, grid))
    _decorate(dot, B, P, grid, "")
    positions, twins = _places(dot, B, P, "")
    _rest(dot, B, P, grid, "")
    for lit in sorted(P.nodes, key=sort_key):
        _node(dot, _esc(lit), pos=_pos(*positions[lit]), **_board_literal(P, lit, lit in twins))


def _board_literal(P: nx.DiGraph, lit: Literal, twin: bool, faded: bool = False) -> dict[str, str]:
    """DOT attributes of a literal's marker on the board (`faded`: an earlier round's)."""
    attrs = _node_attrs(P, lit, "board")
    if attrs.get("shape") == "box":
        attrs["shape"] = "square" if isinstance(lit.cand, Candidate) else "box"
    elif attrs.get("shape") == "ellipse":
        attrs["shape"] = "circle"
    attrs.update(STYLE["board"]["twin" if twin else "literal"])
    if P.nodes[lit].get("role") == Role.PREMISE:
        attrs.update(STYLE["board"]["premise"])
    if faded:
        attrs.update(STYLE["board"]["faded-on" if lit.on else "faded-off"])
    return attrs


def _decorate(dot: graphviz.Digraph, B: _Board, P: nx.DiGraph, grid: Grid | None, prefix: str) -> None:
    """Cells, box frames and one outline per ALS of the proof."""
    n = B.n
    # the many decoration nodes of one kind share their style as the node defaults of a
    # subgraph (quoting the same attributes on each costs more than dot's run)
    with dot.subgraph() as sub:
        sub.attr("node", **STYLE["board"]["cell"], width=f"{B.cw / 72:.3f}", height=f"{B.ch / 72:.3f}")
        for r in range(n):
            for c in range(n):
                _node(sub, f"_{prefix}cell_r{r + 1}c{c + 1}", pos=_pos(*B.cell(r, c)))
    if grid is not None:
        g = grid.geometry
        for h, house in enumerate(g.houses):
            if house.kind not in ("box", "window", "region"):
                continue
            cells = [g.cell(int(i)) for i in g.house_cells[h]]
            rows, cols = {c.row for c in cells}, {c.col for c in cells}
            if len(rows) * len(cols) != len(cells):
                continue  # irregular region: no rectangle to draw
            corners = [B.cell(min(rows), min(cols)), B.cell(max(rows), max(cols))]
            _frame(dot, f"_{prefix}house_{house}", "box", corners, B.cw / 2, str(house))
    elif math.isqrt(n) ** 2 == n:  # no position given: the standard k x k boxes of a k^2 grid
        k = math.isqrt(n)
        for b in range(n):
            r0, c0 = b // k * k, b % k * k
            corners = [B.cell(r0, c0), B.cell(r0 + k - 1, c0 + k - 1)]
            _frame(dot, f"_{prefix}house_b{b + 1}", "box", corners, B.cw / 2, f"b{b + 1}")
    vias = sorted({str(d.get("via")) for _, _, d in P.edges(data=True) if str(d.get("family")) == "als"})
    for i, via in enumerate(vias):
        try:
            als = Als.parse(via)
        except ValueError:
            continue
        _als_outline(dot, B, als, f"_{prefix}als_{i}", inset=2 + 2.5 * (i % 4))


def _als_outline(dot: graphviz.Digraph, B: _Board, als: Als, name: str, *, inset: float) -> None:
    """One dashed outline around the cells of `als`: the border of their union (sides two ALS
    cells share are left out) and a joining line between cells of the ALS that do not touch."""
    cells = {(c.row, c.col) for c in als.cells}
    half_w, half_h = B.cw / 2 - inset, B.ch / 2 - inset
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for r, c in sorted(cells):
        x, y = B.cell(r, c)
        left, right, top, bottom = x - half_w, x + half_w, y + half_h, y - half_h
        # a side shared with a neighbouring ALS cell opens into it
        if (r - 1, c) in cells:
            top = y + B.ch / 2
        if (r + 1, c) in cells:
            bottom = y - B.ch / 2
        if (r, c - 1) in cells:
            left = x - B.cw / 2
        if (r, c + 1) in cells:
            right = x + B.cw / 2
        if (r - 1, c) not in cells:
            segments.append(((left, top), (right, top)))
        if (r + 1, c) not in cells:
            segments.append(((left, bottom), (right, bottom)))
        if (r, c - 1) not in cells:
            segments.append(((left, bottom), (left, top)))
        if (r, c + 1) not in cells:
            segments.append(((right, bottom), (right, top)))
    # cells apart: join each to the nearest earlier one, edge to edge along the line between them
    order = sorted(cells)
    for k, (r, c) in enumerate(order[1:], 1):
        near = min(order[:k], key=lambda rc: (abs(rc[0] - r) + abs(rc[1] - c), rc))
        if abs(near[0] - r) + abs(near[1] - c) == 1:
            continue
        (x0, y0), (x1, y1) = B.cell(*near), B.cell(r, c)
        dx, dy = x1 - x0, y1 - y0
        t = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
        segments.append(((x0 + dx * t, y0 + dy * t), (x1 - dx * t, y1 - dy * t)))
    tip = _esc(f"ALS {als}")
    with dot.subgraph() as sub:
        sub.attr("node", shape="point", width="0", height="0", label="", style="invis")
        sub.attr("edge", **STYLE["board"]["outline-als"], dir="none", tooltip=tip)
        for j, ((x0, y0), (x1, y1)) in enumerate(segments):
            a, b = f"{name}_{j}a", f"{name}_{j}b"
            _node(sub, a, pos=_pos(x0, y0))
            _node(sub, b, pos=_pos(x1, y1))
            # a straight line: the spline's control points on the segment (neato -n2 keeps it)
            ctrl = f"{x0:.1f},{y0:.1f} {x0 + (x1 - x0) / 3:.1f},{y0 + (y1 - y0) / 3:.1f} " \
                   f"{x0 + 2 * (x1 - x0) / 3:.1f},{y0 + 2 * (y1 - y0) / 3:.1f} {x1:.1f},{y1:.1f}"
            _edge(sub, a, b, pos=ctrl)


def _places(dot: graphviz.Digraph, B: _Board, P: nx.DiGraph, prefix: str):
    """Each literal's place (and the group frames); both literals of one candidate (a
    contradiction) share its place, side by side. Returns (positions, twins)."""
    places: dict[tuple[float, float], list[Literal]] = {}
    for i, lit in enumerate(sorted(P.nodes, key=sort_key)):
        if isinstance(lit.cand, Group):
            points = [B.cand(c.row, c.col, lit.cand.digit) for c in lit.cand.cells]
            _frame(dot, f"_{prefix}group_{i}", "frame-group", points, B.unit / 2, f"group {lit.cand}")
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            xy = (sum(xs) / len(xs), sum(ys) / len(ys))
        else:
            xy = B.cand(lit.cand.cell.row, lit.cand.cell.col, lit.cand.digit)
        places.setdefault(xy, []).append(lit)
    positions: dict[Literal, tuple[float, float]] = {}
    twins: set[Literal] = set()
    for (x, y), lits in places.items():
        if len(lits) == 1:
            positions[lits[0]] = (x, y)
            continue
        for lit in lits:  # ON up-left, OFF down-right of the candidate's place
            d = -B.unit * 0.35 if lit.on else B.unit * 0.35
            positions[lit] = (x + d, y - d)
            twins.add(lit)
    return positions, twins


def _rest(dot: graphviz.Digraph, B: _Board, P: nx.DiGraph, grid: Grid | None, prefix: str,
          scale: float = 1.0) -> None:
    """The rest of the position: solved cells and live candidates not in the proof."""
    if grid is None:
        return
    g = grid.geometry
    in_proof = {(lit.cand.cell, lit.cand.digit) for lit in P.nodes if isinstance(lit.cand, Candidate)}
    givens = grid.givens
    rest: dict[str, list[tuple[str, str, str]]] = {"given": [], "value": [], "candidate": []}
    for i in range(g.number_of_cells):
        cell = g.cell(i)
        digits = [int(d) + 1 for d in grid.cands[i].nonzero()[0]]
        if len(digits) == 1 and not any((cell, d) in in_proof for d in digits):
            rest["given" if givens[i] else "value"].append(
                (f"_{prefix}value_{cell}", g.symbols[digits[0] - 1], _pos(*B.cell(cell.row, cell.col))))
            continue
        for d in digits:
            if (cell, d) not in in_proof:
                rest["candidate"].append(
                    (f"_{prefix}cand_{cell}_{d}", g.symbols[d - 1], _pos(*B.cand(cell.row, cell.col, d))))
    unit = f"{B.unit / 72:.3f}"
    for style, nodes in rest.items():
        with dot.subgraph() as sub:
            attrs = dict(STYLE["board"][style])
            attrs["fontsize"] = f"{float(attrs['fontsize']) * scale:.1f}"
            size = {"width": unit, "height": unit} if style == "candidate" else {}
            sub.attr("node", **attrs, **size)
            for name, label, pos in nodes:
                _node(sub, name, label=_esc(label), pos=pos)


# ---- rounds layout -----------------------------------------------------------------
def proof_rounds(P: nx.DiGraph) -> dict[Literal, int]:
    """Each literal's round: its ``round`` attribute, or else its distance from the premises."""
    out: dict[Literal, int] = {}
    missing = [n for n, d in P.nodes(data=True) if "round" not in d]
    if not missing:
        return {n: int(d["round"]) for n, d in P.nodes(data=True)}
    order = list(nx.topological_sort(P)) if nx.is_directed_acyclic_graph(P) else sorted(P.nodes, key=sort_key)
    for n in order:
        if "round" in P.nodes[n]:
            out[n] = int(P.nodes[n]["round"])
        else:
            out[n] = 1 + max((out.get(u, 0) for u in P.predecessors(n)), default=-1)
    return out


def _rounds(dot: graphviz.Digraph, P: nx.DiGraph, grid: Grid | None, columns: int | None) -> None:
    """One small board per round: that round's literals in full with the links that derive
    them, the earlier rounds' literals faded, the rest of the position in grey."""
    n = _board_size(P, grid)
    rounds = proof_rounds(P)
    order = sorted(set(rounds.values()))
    cols = columns or min(len(order), 4 if len(order) > 6 else 3)
    probe = _Board(n, unit=_ROUND_UNIT)
    gap, head = probe.cw, 24.0
    rows = math.ceil(len(order) / cols)
    for j, k in enumerate(order):
        origin = ((j % cols) * (probe.width + gap), (rows - 1 - j // cols) * (probe.height + gap + head))
        B = _Board(n, unit=_ROUND_UNIT, origin=origin)
        prefix = f"p{j}_"
        now = sorted((lit for lit, r in rounds.items() if r == k), key=sort_key)
        before = {lit for lit, r in rounds.items() if r < k}
        shown = nx.DiGraph(P.subgraph(before | set(now)))
        _decorate(dot, B, shown, grid, prefix)
        positions, twins = _places(dot, B, shown, prefix)
        _rest(dot, B, shown, grid, prefix, scale=_ROUND_UNIT / _UNIT)
        words = " ".join(map(str, now))
        if len(words) > 70:
            words = words[:67] + "..."
        _node(dot, f"_{prefix}title", shape="plaintext", fontsize="11", fontname=f"{_FONT}-Bold",
              label=_esc(f"round {k}: {words}"), pos=_pos(origin[0] + probe.width / 2, origin[1] + probe.height + head / 2))
        for lit in sorted(shown.nodes, key=sort_key):
            attrs = _board_literal(P, lit, lit in twins, faded=lit in before)
            attrs["fontsize"] = f"{float(STYLE['node']['board']['fontsize']) * _ROUND_UNIT / _UNIT:.1f}"
            for key in ("width", "height"):
                attrs[key] = f"{float(attrs[key]) * _ROUND_UNIT / _UNIT:.3f}"
            _node(dot, f"{prefix}{_esc(lit)}", pos=_pos(*positions[lit]), **attrs)
        for v in now:
            for u, _, data in sorted(P.in_edges(v, data=True), key=lambda e: sort_key(e[0])):
                _edge(dot, f"{prefix}{_esc(u)}", f"{prefix}{_esc(v)}", **_edge_attrs(data))
