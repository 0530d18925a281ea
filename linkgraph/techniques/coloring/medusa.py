"""Colouring: simple colouring (one digit) and 3D Medusa (every digit, through cells).

A *strong link* joins the only two live members of a set X: one of them is
true. Its components (clusters) can be two-coloured: along every strong link
the colours alternate, so in each cluster either every candidate of colour A
is true or every candidate of colour B is. The rules read the cluster's two
"worlds":

- *simple colouring* (single's chains) uses the conjugate pairs of one digit
  (a digit with two places left in a house). **Colour wrap**: two candidates
  of one colour share a house, so that colour is false. **Colour trap**: an
  uncoloured candidate of the digit sees both colours, so it is false.
- *3D Medusa* adds the bivalue cells, so the clusters run through cells and
  digits. A colour is false when two of its candidates share a set X (twice
  in a cell, SudokuWiki's rule 1; twice in a unit, rule 2), or when, with the
  colour true, some set X has every live member OFF: a cell all of whose
  candidates see the colour or carry the other one (cell emptied by colour,
  rule 6), and likewise a digit's places in a house (unit emptied, the same
  rule on the other kind of set X). Otherwise an uncoloured candidate that
  sees both colours is false (a set X shared with a candidate of each colour:
  two colours in a cell, rule 3; two colours elsewhere, rule 4; a colour in
  the cell and the other in a unit, rule 5).

Proofs
------
Each step's proof is a two-branch forcing on one cluster candidate ``r``
(``P.graph["kind"] == "coloring"``, premises ``+r`` and ``-r``). Each branch
follows the cluster's strong links outward from ``r`` (a breadth-first tree):
an ON candidate makes its strong partner OFF (a weak edge via their set X),
an OFF one makes its partner ON (a strong edge). An elimination ``-t`` hangs
off an ON candidate of each branch. For a false colour, ``r`` is taken in
that colour, and the ``+r`` branch ends in the contradiction (two ON members
of a set X, or a set X with every live member OFF), while the ``-r`` branch
turns every candidate of the colour OFF. `linkgraph.check.checker.check_step` checks
these proofs as it checks chains. Graph attributes: ``rule`` (the rules
used), ``colors`` (the two colours' candidates as text, the false one first
when there is one), and ``digit`` for simple colouring.

Speed: one pass over the sets X finds the strong links; the clusters' colour
classes are OR-ed over the "sees" relation of the live candidates, and the
sets X each class empties come from the classes packed as bits, which gives
every rule for every cluster at once (`Colors`). The 3D Medusa colours of a
grid are computed once and shared with the rungs that read them next (weak
hinges, almost-locked ranges). Proof graphs are built only for the steps
yielded.

References
----------
SudokuWiki "Simple Colouring" and "3D Medusa" (the rules and their numbers);
../shared/seeds/sudoku-assistant-techniques.txt, "3D Medusa Analysis";
HoDoKu "Simple Colors" (trap and wrap).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from functools import cached_property

import networkx as nx
import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Family, LinkKind, Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.grid import cached

__all__ = ["medusa", "simple_coloring"]


def simple_coloring(grid: Grid) -> Iterator[Step]:
    """Yield simple-colouring steps: colour wrap and colour trap, one digit at a time.

    One step per cluster of conjugate pairs that proves something: a wrap
    eliminates every candidate of the false colour, a trap every uncoloured
    candidate of the digit that sees both colours.

    Parameters
    ----------
    grid : Grid
        The candidate state to search.

    Yields
    ------
    Step
        Technique ``"simple-coloring"``; the proof is a coloring proof (see
        the module docstring).

    Examples
    --------
    Digit 1: r1c1 = r1c4 (row 1) = r4c4 (column 4) = r4c2 (row 4) = r2c2
    (column 2) colours r1c1, r4c4 and r2c2 alike, and r1c1 and r2c2 share box 1:

    >>> grid = lg.Grid.empty()
    >>> cut = "r1c2 r1c3 r1c5 r1c6 r1c7 r1c8 r1c9 r2c4 r3c4 r5c4 r6c4 r7c4 r8c4 r9c4"
    >>> cut += " r4c1 r4c3 r4c5 r4c6 r4c7 r4c8 r4c9 r1c2 r3c2 r5c2 r6c2 r7c2 r8c2 r9c2"
    >>> grid = grid.eliminate({lg.Candidate.parse(c + "#1") for c in cut.split()})
    >>> step = next(lg.techniques.coloring.medusa.simple_coloring(grid))
    >>> step.proof.graph["rule"], sorted(map(str, step.eliminations))
    ('color-wrap', ['r1c1#1', 'r2c2#1', 'r4c4#1'])
    """
    return _coloring(grid, "simple-coloring", medusa=False)


def medusa(grid: Grid) -> Iterator[Step]:
    """Yield 3D Medusa steps: two-colouring through bivalue cells and conjugate pairs.

    One step per cluster that proves something: when a colour is false (twice
    in a set X, or a set X emptied by the colour) every candidate of it is
    eliminated; otherwise every uncoloured candidate that sees both colours.

    Parameters
    ----------
    grid : Grid
        The candidate state to search.

    Yields
    ------
    Step
        Technique ``"3d-medusa"``; the proof is a coloring proof (see the
        module docstring).

    Examples
    --------
    r1c1 holds only 1 and 2; digit 1 has two places in row 1 (r1c1, r1c5) and in
    column 5 (r1c5, r5c5), digit 2 two places in column 1 (r1c1, r5c1) and in
    row 5 (r5c1, r5c5): r5c5#1 and r5c5#2 get different colours, so r5c5 is
    1 or 2.

    >>> grid = lg.Grid.empty()
    >>> out = [f"r1c1#{d}" for d in range(3, 10)]
    >>> out += [f"r1c{c}#1" for c in (2, 3, 4, 6, 7, 8, 9)] + [f"r{r}c5#1" for r in (2, 3, 4, 6, 7, 8, 9)]
    >>> out += [f"r{r}c1#2" for r in (2, 3, 4, 6, 7, 8, 9)] + [f"r5c{c}#2" for c in (2, 3, 4, 6, 7, 8, 9)]
    >>> grid = grid.eliminate({lg.Candidate.parse(c) for c in out})
    >>> step = next(lg.techniques.coloring.medusa.medusa(grid))
    >>> step.proof.graph["rule"], sorted(map(str, step.eliminations))[:2]
    ('two-colors-in-cell', ['r5c5#3', 'r5c5#4'])
    """
    return _coloring(grid, "3d-medusa", medusa=True)


# ---- clusters -----------------------------------------------------------------
class Clusters:
    """Strong links of a grid, their clusters and two-colouring (integer indices).

    Built by the compiled `linkgraph.techniques.coloring.kernel.clusters`: `count` clusters,
    `nodes` the coloured candidates by class ``2 * cluster + colour`` then candidate, with
    their `klass`. The Python views the proofs read (`adj`, `color`, `cluster`, `clusters`)
    are made on first use.
    """

    def __init__(self, grid: Grid, *, medusa: bool):
        from linkgraph.techniques.coloring.kernel import clusters  # noqa: PLC0415 (numba: loaded on first use)

        g = grid.geometry
        self._sets, self._a, self._b, self._color, self._cluster, self.nodes, self.klass = clusters(
            grid.live, g.set_members, g.number_of_cells, medusa)
        self.count = int(self.klass[-1]) // 2 + 1 if len(self.klass) else 0

    @cached_property
    def adj(self) -> dict[int, list[tuple[int, int]]]:
        """Per linked candidate, its strong links as (other end, set X), by set X."""
        adj: dict[int, list[tuple[int, int]]] = {}
        for s, a, b in zip(self._sets.tolist(), self._a.tolist(), self._b.tolist()):
            adj.setdefault(a, []).append((b, s))
            adj.setdefault(b, []).append((a, s))
        return adj

    @cached_property
    def color(self) -> dict[int, int]:
        """Colour (0 or 1) of each coloured candidate."""
        nodes = self.nodes.tolist()
        return dict(zip(nodes, self._color[nodes].tolist()))

    @cached_property
    def cluster(self) -> dict[int, int]:
        """Cluster of each coloured candidate."""
        nodes = self.nodes.tolist()
        return dict(zip(nodes, (self.klass // 2).tolist()))

    @cached_property
    def clusters(self) -> list[list[int]]:
        """Each cluster's candidates, ascending."""
        cl = self._cluster
        out: list[list[int]] = [[] for _ in range(self.count)]
        for k in np.flatnonzero(cl >= 0).tolist():
            out[cl[k]].append(k)
        return out

    def tree(self, root: int) -> dict[int, tuple[int, int]]:
        """Breadth-first parents from `root`: node -> (parent, set X of the link)."""
        parent: dict[int, tuple[int, int]] = {root: (-1, -1)}
        queue = deque([root])
        while queue:
            k = queue.popleft()
            for m, s in self.adj[k]:
                if m not in parent:
                    parent[m] = (k, s)
                    queue.append(m)
        return parent


class Colors:
    """Per grid: every colour class of the clusters over the live candidates, and every rule for each.

    Class ``2c + x`` is colour x of cluster c (each cluster has both). Column j
    is live candidate ``L[j]``; `pos` maps a candidate to its column (dead
    ones to ``len(L)``). `seen` is what each class sees, `mine` the class
    itself, `twice` a class seeing one of its own, `emptied` the first set X
    the class empties (-1: none; 3D Medusa only), `failing` (clusters, 2) the
    false colours and `elim` (clusters, live) the uncoloured candidates that
    see both colours.
    """

    def __init__(self, grid: Grid, *, medusa: bool):
        self.geometry = g = grid.geometry
        self.cl = cl = Clusters(grid, medusa=medusa)
        if not cl.count:
            return
        self.L = L = np.flatnonzero(grid.live)
        nl = len(L)
        pos = np.full(g.number_of_candidates + 1, nl)  # dead candidates -> an extra column
        pos[L] = np.arange(nl)
        self.pos = pos
        self.nodes = nodes = cl.nodes  # by class (cluster, then colour), then candidate
        self.klass = klass = cl.klass
        self.starts = starts = np.flatnonzero(np.r_[True, klass[1:] != klass[:-1]])
        self.at = at = pos[nodes]
        self.members = members = pos[g.set_members]
        from linkgraph.techniques.coloring.kernel import color_tables  # noqa: PLC0415 (numba: loaded on first use)

        seen, mine, twice, emptied, elim = color_tables(nodes, starts, L, at, g.sees_words, members, g.size, medusa)
        self.seen, self.mine, self.twice, self.emptied, self.elim = seen, mine, twice, emptied, elim
        self.failing = (twice | (emptied >= 0)).reshape(-1, 2)
        self.bounds = np.r_[starts, len(nodes)].tolist()

    @cached_property
    def sees(self) -> np.ndarray:
        """``(live, live)`` bool: `Geometry.sees` between the live candidates."""
        return self.geometry.sees[self.L].take(self.L, axis=1)

    def colors(self, c: int) -> tuple[np.ndarray, np.ndarray]:
        """The candidates of cluster `c`'s two colours, ascending."""
        b = self.bounds
        return self.nodes[b[2 * c]:b[2 * c + 1]], self.nodes[b[2 * c + 1]:b[2 * c + 2]]


def medusa_colors(grid: Grid) -> Colors:
    """The 3D Medusa `Colors` of `grid`, shared by the rungs that look at it in turn."""
    return cached("medusa-colors", grid, lambda grid: Colors(grid, medusa=True))


def _coloring(grid: Grid, technique: str, *, medusa: bool) -> Iterator[Step]:
    cc = medusa_colors(grid) if medusa else Colors(grid, medusa=False)
    cl = cc.cl
    if not cl.count:
        return
    failing, elim = cc.failing, cc.elim
    for c in np.flatnonzero(failing.any(axis=1) | elim.any(axis=1)).tolist():
        colors = cc.colors(c)
        if failing[c].all():
            continue  # both colours fail: the grid itself is broken
        if failing[c].any():
            x = int(failing[c].argmax())
            empty_set = None if cc.twice[2 * c + x] else int(cc.emptied[2 * c + x])
            yield _false_color_step(technique, grid, cl, c, colors, x, empty_set, medusa)
        else:
            yield _elimination_step(technique, grid, cl, c, colors, cc.L[elim[c]], medusa)


# ---- proofs -------------------------------------------------------------------
class Proof:
    """A two-branch coloring proof on cluster root `root`."""

    def __init__(self, grid: Grid, cl: Clusters, root: int):
        self.g: Geometry = grid.geometry
        self.cl = cl
        self.root = root
        self.parent = cl.tree(root)
        self.P = nx.DiGraph(kind="coloring")
        self.premises = (Literal(self.g.candidate(root), on=True), Literal(self.g.candidate(root), on=False))
        for p in self.premises:
            self.P.add_node(p, role=Role.PREMISE)

    def lit(self, k: int, branch: bool) -> Literal:
        """Literal of cluster candidate `k` in the branch where the root is `branch`."""
        same = self.cl.color[k] == self.cl.color[self.root]
        return Literal(self.g.candidate(k), on=same == branch)

    def path(self, k: int, branch: bool) -> Literal:
        """Add the tree path from the root to `k` in one branch; return `k`'s literal."""
        out = self.lit(k, branch)
        while k != self.root:
            p, s = self.parent[k]
            u, v = self.lit(p, branch), self.lit(k, branch)
            if self.P.has_edge(u, v):
                break
            for w in (u, v):
                if w not in self.P:
                    self.P.add_node(w, role=Role.INNER)
            kind = LinkKind.WEAK if u.on else LinkKind.STRONG
            self.P.add_edge(u, v, kind=kind, family=self.family(s), via=str(self.g.setx(s)))
            k = p
        return out

    def family(self, s: int) -> Family:
        return Family.CELL if self.g.is_cell_set(s) else Family.HOUSE

    def off(self, u: Literal, t: int, role: Role = Role.INNER) -> Literal:
        """Add ``u -> -t`` (weak, via a set X they share)."""
        g = self.g
        ku = g.index(u.cand)
        s = int(np.flatnonzero(g.incidence[ku] & g.incidence[t])[0])
        v = Literal(g.candidate(t), on=False)
        if v not in self.P:
            self.P.add_node(v, role=role)
        self.P.add_edge(u, v, kind=LinkKind.WEAK, family=self.family(s), via=str(g.setx(s)))
        return v


def nearest_root(parent_depth: dict[int, int], cands: np.ndarray) -> int:
    """The member of `cands` nearest the root."""
    return min(cands.tolist(), key=lambda k: (parent_depth.get(k, 1 << 30), k))


def tree_depths(parent: dict[int, tuple[int, int]]) -> dict[int, int]:
    """Depth of each node of a `Clusters.tree` (which lists every parent before its children)."""
    depth: dict[int, int] = {}
    for k, (p, _) in parent.items():
        depth[k] = depth[p] + 1 if p >= 0 else 0
    return depth


def colors_text(g: Geometry, cl: Clusters, c: int, first: int) -> list[list[str]]:
    nodes = cl.clusters[c]
    return [[str(g.candidate(k)) for k in nodes if cl.color[k] == x] for x in (first, 1 - first)]


def _kind_of(g: Geometry, a: int, b: int) -> str:
    """``cell`` if candidates `a` and `b` share a cell, else ``unit``."""
    return "cell" if a // g.size == b // g.size else "unit"


def _false_color_step(
    technique: str, grid: Grid, cl: Clusters, c: int, colors: tuple[np.ndarray, np.ndarray],
    x: int, empty_set: int | None, medusa: bool,
) -> Step:
    g = grid.geometry
    n = g.size
    nodes = cl.clusters[c]
    bad = colors[x].tolist()
    on_idx = colors[x]
    if empty_set is None:
        # two candidates of the colour share a set X
        sub = g.sees[np.ix_(on_idx, on_idx)]
        i, j = (int(v) for v in np.argwhere(sub)[0])
        a, b = bad[i], bad[j]
        rule = f"twice-in-{_kind_of(g, a, b)}" if medusa else "color-wrap"
        proof = Proof(grid, cl, a)
        proof.path(b, True)
        witness = f"{g.candidate(a)} {g.candidate(b)}"
    else:
        proof = Proof(grid, cl, bad[0])
        depth = tree_depths(proof.parent)
        for m in g.set_members[empty_set].tolist():
            if not grid.live[m]:
                continue
            if m in cl.color and cl.cluster[m] == c:
                proof.path(m, True)  # the other colour: OFF in this branch
                continue
            a = nearest_root(depth, on_idx[g.sees[on_idx, m]])
            proof.off(proof.path(a, True), m)
        rule = "cell-emptied" if g.is_cell_set(empty_set) else "unit-emptied"
        witness = str(g.setx(empty_set))
    P = proof.P
    for k in bad:
        lit = proof.path(k, False)
        if P.nodes[lit]["role"] != Role.PREMISE:
            P.nodes[lit]["role"] = Role.CONCLUSION
    P.graph.update(rule=rule, colors=colors_text(g, cl, c, x), witness=witness)
    if not medusa:
        P.graph["digit"] = nodes[0] % n + 1
    elims = [g.candidate(k) for k in bad]
    notation = f"{rule} ({witness}) => " + ", ".join(f"{e.cell}<>{e.digit}" for e in sorted(elims))
    return make_step(technique, eliminations=elims, premises=proof.premises, proof=P, notation=notation)


def _elimination_step(
    technique: str, grid: Grid, cl: Clusters, c: int, colors: tuple[np.ndarray, np.ndarray],
    targets: np.ndarray, medusa: bool,
) -> Step:
    g = grid.geometry
    n = g.size
    nodes = cl.clusters[c]
    root = nodes[0]
    proof = Proof(grid, cl, root)
    depth = tree_depths(proof.parent)
    rules = set()
    for t in targets.tolist():
        kinds = []
        for x in (0, 1):
            a = nearest_root(depth, colors[x][g.sees[colors[x], t]])
            branch = cl.color[a] == cl.color[root]
            proof.off(proof.path(a, branch), t, Role.CONCLUSION)
            kinds.append(_kind_of(g, a, t))
        if not medusa:
            rules.add("color-trap")
        elif kinds == ["cell", "cell"]:
            rules.add("two-colors-in-cell")
        elif "cell" in kinds:
            rules.add("two-colors-unit-and-cell")
        else:
            rules.add("two-colors-elsewhere")
    P = proof.P
    P.graph.update(rule=",".join(sorted(rules)), colors=colors_text(g, cl, c, cl.color[root]))
    if not medusa:
        P.graph["digit"] = root % n + 1
    elims = [g.candidate(k) for k in targets.tolist()]
    notation = f"{P.graph['rule']} => " + ", ".join(f"{e.cell}<>{e.digit}" for e in sorted(elims))
    return make_step(technique, eliminations=elims, premises=proof.premises, proof=P, notation=notation)
