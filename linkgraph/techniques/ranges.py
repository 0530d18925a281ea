"""Almost-locked ranges: a box's digit pushed onto one line, joined to 3D Medusa clusters.

An *almost-locked range* (ALR; Sudoku Assistant, "Almost-Locked Ranges") is a
box whose places for digit ``d`` (at least three) are not confined to one
line, but would be once a few of them are gone: if a premise turns OFF every
place of ``d`` in the box outside one row (or column) segment, the box's
``d`` must stand in that segment, and every ``d`` of that row (column)
outside the box is OFF. The range *redirects* a weak link: the premise sees
a few cells of the box, and the conclusion lands on a line the premise does
not see (the seed's fifteen varieties: turned by 90 degrees, or passed along
a parallel line; a "yellow" cell at the crossing of the two lines the premise
clears too). In the link graph this is one grouped strong link inside the
box: the segment is a `Group` node (a single candidate when one place is
left), ON because every other live member of the box's set X is OFF, and
weakly linked to the rest of its line.

Ranges matter in combination with the strong links of 3D Medusa clusters
(`linkgraph.techniques.coloring`), in two forms:

- **range trap** (rule ``range-trap``): a candidate ``x`` outside a cluster
  that forces both colours of it OFF, at least one of them only through a
  range: ``x`` true would make colour A false (so colour B true) and some
  candidate of colour B false, so ``x`` is false. Seeing both colours
  directly is plain 3D Medusa (rule 4) and is not reported.
- **range colour trap** (rule ``range-color-trap``): the same with a whole
  colour of another cluster as the premise. Colour W true turns OFF what
  its candidates see and its cluster's other colour; if that, directly or
  through a range, forces both colours of a second cluster OFF, colour W is
  false and every candidate of it is eliminated.

How it relates to its neighbours on the ladder:

- When ``x`` sees colour A directly and reaches colour B only through a
  range, the trap is also a 3D Medusa *weak hinge*
  (`linkgraph.techniques.hinges`): ``x`` and the colour-B candidate ``b``
  together see every place of the digit in the range's box (``x`` the places
  off the line, ``b`` those on it). With a conjugate pair for the cluster it
  is also an empty rectangle (the seed's top1465 #250 is one).
- What neither gives is the trap with *two* ranges, one for each colour:
  typically ``x`` clears a cell's other digits, two boxes lock two digits
  onto one line, and that line holds a bivalue cell of exactly those digits.
- A colour whose own candidates lock a range onto another candidate of that
  colour is not searched: that candidate sees the range's places on its
  line, so with the colour true the whole box loses the digit, which is 3D
  Medusa's unit-emptied rule.

Ranges are taken one level deep: the OFF candidates that lock a box come
from the premise directly, not from another range. The ranges of a grid are
listed and locked for many premises at once in
`linkgraph.techniques.rangetable`.

Proofs
------
``P.graph["kind"] == "coloring"``, checked by `linkgraph.verify.check_step`
like the colouring proofs. A range appears as ``+u -> -y`` (weak, for each
place ``y`` of the box off the line), ``-y -> +G`` (strong, via the box's
set X: every other live member is OFF; ``G`` is a `Group`, or a candidate
when one place is left), ``+G -> -t`` (weak, via the line's set X). The
contradiction on the trapped cluster: a candidate ``a`` of one colour goes
OFF (directly or through a range), the cluster's strong links from ``a``
lead to ``+b`` for a ``b`` of the other colour, and ``b`` goes OFF too (the
two ``b`` literals have role ``contradiction``).

- A range trap refutes its one premise ``+x``.
- A range colour trap is a two-branch proof on a candidate ``r`` of colour
  W: the ``+r`` branch follows W's cluster from ``r`` and ends in the
  contradiction, the ``-r`` branch turns every candidate of W OFF.

Graph attributes: ``rule``, ``ranges`` (each range used, as ``box set X:
group => line set X``), ``colors`` (the colours as text: of the trapped
cluster, the colour of ``a`` first, for a trap; of W's cluster, W first,
for a colour trap) and, for a colour trap, ``trapped`` (the trapped
cluster's colours).

References
----------
../shared/seeds/sudoku-assistant-techniques.txt, "Almost-Locked Ranges"
(the varieties, the combination with strong chains, top1465 #250 and top95
#20) and "3D Medusa Analysis".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import networkx as nx
import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Candidate, Family, Group, LinkKind, Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.techniques.coloring import _Clusters, _colors_text, _depths, _Proof, _witness
from linkgraph.techniques.rangetable import Range, _RangeTable, find_ranges  # Range, find_ranges re-exported

__all__ = ["Range", "almost_locked_ranges", "find_ranges"]

TECHNIQUE = "almost-locked-range"
_CHUNK = 128  # premises per block in the vectorised search


# ---- the finder ---------------------------------------------------------------
def almost_locked_ranges(grid: Grid) -> Iterator[Step]:
    """Yield almost-locked-range steps: range traps and range colour traps on 3D Medusa clusters.

    A range trap eliminates one candidate that, through an almost-locked
    range, forces both colours of a cluster OFF; a range colour trap
    eliminates a colour of one cluster that does so to another cluster.
    Candidates that see both colours directly (plain 3D Medusa) are not
    reported.

    Parameters
    ----------
    grid : Grid
        The candidate state to search.

    Yields
    ------
    Step
        Technique ``"almost-locked-range"``: range traps first, one
        elimination each, by candidate; then range colour traps, one per
        false colour. The proofs are described in the module docstring.

    Examples
    --------
    Digit 1 has two places in column 1, r1c1 and r4c1: they take different
    colours. Box 2 keeps three places for it, r1c4, r2c5 and r3c5. If r4c5
    were 1, r4c1 (row 4) would not be, and neither would r2c5 and r3c5
    (column 5), so box 2's 1 would be r1c4 and r1c1 (row 1) would not be 1:
    column 1 without a 1. So r4c5 is not 1.

    >>> grid = lg.Grid.empty()
    >>> out = [f"r{r}c1#1" for r in (2, 3, 5, 6, 7, 8, 9)]
    >>> out += ["r1c5#1", "r1c6#1", "r2c4#1", "r2c6#1", "r3c4#1", "r3c6#1"]
    >>> grid = grid.eliminate({lg.Candidate.parse(c) for c in out})
    >>> (step,) = lg.techniques.ranges.almost_locked_ranges(grid)
    >>> step.proof.graph["rule"], [str(c) for c in step.eliminations]
    ('range-trap', ['r4c5#1'])
    >>> step.proof.graph["ranges"]
    ['b2#1: r1c4#1 => r1#1']
    """
    cl = _Clusters(grid, medusa=True)
    if not cl.clusters:
        return
    table = _RangeTable(grid)
    if not table.size:
        return
    yield from _traps(grid, cl, table)
    yield from _color_traps(grid, cl, table)


def _class_masks(grid: Grid, cl: _Clusters) -> np.ndarray:
    """``(2 * clusters, candidates)`` bool: row ``2c + x`` is colour x of cluster c."""
    M = np.zeros((2 * len(cl.clusters), grid.geometry.number_of_candidates), dtype=bool)
    for k, x in cl.color.items():
        M[2 * cl.cluster[k] + x, k] = True
    return M


def _traps(grid: Grid, cl: _Clusters, table: _RangeTable) -> Iterator[Step]:
    g = grid.geometry
    live = grid.live
    M = _class_masks(grid, cl)
    Mf = M.T.astype(np.float32)
    per_range = table.counts(M)
    live_idx = np.flatnonzero(live)  # every live candidate is a premise, taken in blocks
    for lo in range(0, len(live_idx), _CHUNK):
        X = live_idx[lo:lo + _CHUNK]
        on = np.zeros((len(X), g.number_of_candidates), dtype=bool)
        on[np.arange(len(X)), X] = True
        off = g.sees[X] & live[None, :]
        locked = table.lock(on, off)
        direct = (off.astype(np.float32) @ Mf) > 0
        ranged = (locked.astype(np.float32) @ per_range) > 0
        hit = (direct | ranged).reshape(len(X), -1, 2)
        both_direct = direct.reshape(len(X), -1, 2).all(axis=2)
        found = hit.all(axis=2) & ~both_direct
        for i in np.flatnonzero(found.any(axis=1)).tolist():
            x = int(X[i])
            for c in np.flatnonzero(found[i]).tolist():
                if cl.cluster.get(x) == c:
                    continue
                yield _trap_step(grid, cl, table, c, x, off[i], locked[i])
                break


def _color_traps(grid: Grid, cl: _Clusters, table: _RangeTable) -> Iterator[Step]:
    g = grid.geometry
    live = grid.live
    M = _class_masks(grid, cl)
    seen = np.stack([g.sees[np.flatnonzero(row)].any(axis=0) for row in M]) & live[None, :]
    other = M.reshape(-1, 2, M.shape[1])[:, ::-1].reshape(M.shape)
    off = seen | other  # colour w true: what it sees and its other colour are OFF
    locked = table.lock(M, off)
    Mf = M.T.astype(np.float32)
    direct = ((off.astype(np.float32) @ Mf) > 0).reshape(len(M), -1, 2)
    ranged = ((locked.astype(np.float32) @ table.counts(M)) > 0).reshape(len(M), -1, 2)
    found = (direct | ranged).all(axis=2) & ~direct.all(axis=2)
    own = np.repeat(np.arange(len(cl.clusters)), 2)
    found[np.arange(len(M)), own] = False  # a colour against its own cluster is plain 3D Medusa
    twice = (seen & M).any(axis=1)
    for w in np.flatnonzero(found.any(axis=1) & ~twice).tolist():
        if found[w ^ 1].any() and not twice[w ^ 1]:
            continue  # both colours of the cluster fail: the grid itself is broken
        c = int(np.flatnonzero(found[w])[0])
        yield _color_trap_step(grid, cl, table, w, c, M[w], off[w], locked[w])


# ---- proofs -------------------------------------------------------------------
def _family(g: Geometry, s: int, *nodes: object) -> Family:
    if any(isinstance(v, Group) for v in nodes):
        return Family.GROUP
    return Family.CELL if g.is_cell_set(s) else Family.HOUSE


def _shared_set(g: Geometry, a: int, b: int) -> int:
    """A set X holding candidates `a` and `b` (a house set first)."""
    sets = np.flatnonzero(g.incidence[a] & g.incidence[b])
    houses = [int(s) for s in sets if not g.is_cell_set(s)]
    return houses[0] if houses else int(sets[0])


def _segment(g: Geometry, r: Range) -> Candidate | Group:
    """The proof node of a range's line segment: a group, or the candidate when one place is left."""
    if len(r.inside) == 1:
        return g.candidate(r.inside[0])
    cands = [g.candidate(k) for k in r.inside]
    return Group(tuple(c.cell for c in cands), cands[0].digit)


def _range_text(g: Geometry, r: Range) -> str:
    return f"{g.setx(r.box_set)}: {_segment(g, r)} => {g.setx(r.line_set)}"


def _node(P: nx.DiGraph, lit: Literal, role: Role = Role.INNER) -> Literal:
    """`lit`, added to `P` with `role` unless already there."""
    if lit not in P:
        P.add_node(lit, role=role)
    return lit


def _weak(g: Geometry, P: nx.DiGraph, u: Literal, t: int, role: Role = Role.INNER) -> Literal:
    """Add ``u -> -t`` (weak, through a set X holding both; `u` a candidate); return ``-t``."""
    s = _shared_set(g, g.index(u.cand), t)
    v = _node(P, Literal(g.candidate(t), on=False), role)
    P.add_edge(u, v, kind=LinkKind.WEAK, family=_family(g, s, u.cand), via=str(g.setx(s)))
    return v


class _RangeProof(_Proof):
    """Cluster paths from `root` (taken OFF) and range links, added to proof graph `P`."""

    def __init__(self, grid: Grid, cl: _Clusters, root: int, P: nx.DiGraph):
        self.g = grid.geometry
        self.cl = cl
        self.root = root
        self.parent = cl.tree(root)
        self.P = P

    def lock(self, r: Range, offs: dict[int, Literal], t: int, role: Role = Role.INNER) -> Literal:
        """Lock range `r` from the OFF literals `offs` (place -> its literal) and turn `t` OFF."""
        g = self.g
        G = _node(self.P, Literal(_segment(g, r), on=True))
        box = str(g.setx(r.box_set))
        for y in r.outside:
            self.P.add_edge(offs[y], G, kind=LinkKind.STRONG, family=_family(g, r.box_set, G.cand), via=box)
        v = _node(self.P, Literal(g.candidate(t), on=False), role)
        self.P.add_edge(G, v, kind=LinkKind.WEAK, family=_family(g, r.line_set, G.cand), via=str(g.setx(r.line_set)))
        return v


def _pick_range(table: _RangeTable, locked: np.ndarray, t: int) -> Range:
    """The first locked range that turns `t` OFF."""
    for i in np.flatnonzero(locked).tolist():
        if table.targets[i, t]:
            return table.range(i)
    raise AssertionError(f"no locked range reaches candidate {t}")


def _both_colors_off(
    grid: Grid, cl: _Clusters, table: _RangeTable, c: int, P: nx.DiGraph, off: np.ndarray, locked: np.ndarray,
    off_lit: Callable[[int, Role], Literal],
) -> tuple[int, list[Range]]:
    """Add to `P` a contradiction on cluster `c`: a candidate of each colour OFF.

    `off` holds what the premise turns OFF directly, each drawn by
    ``off_lit(k, role)``; `locked` the ranges it locks. One colour's candidate
    ``a`` goes OFF (directly when the premise sees that colour), the
    cluster's strong links from ``a`` turn ``b`` of the other colour ON, and
    ``b`` goes OFF too. Returns ``a`` and the ranges used.
    """
    nodes = cl.clusters[c]
    sides = [[k for k in nodes if cl.color[k] == col] for col in (0, 1)]
    direct = [[k for k in side if off[k]] for side in sides]
    reach = table.reach(locked)
    ranged = [[k for k in side if reach[k] and not off[k]] for side in sides]
    # start from a colour seen directly when there is one, then the nearest hit of the other colour
    first = 0 if direct[0] else 1 if direct[1] else 0
    a = (direct[first] or ranged[first])[0]
    depth = _depths(cl.tree(a))
    b = min(direct[1 - first] + ranged[1 - first], key=lambda k: (depth[k], k))
    side = _RangeProof(grid, cl, a, P)
    used: list[Range] = []

    def turn_off(k: int, role: Role) -> Literal:
        if off[k]:
            return off_lit(k, role)
        r = _pick_range(table, locked, k)
        used.append(r)
        return side.lock(r, {y: off_lit(y, Role.INNER) for y in r.outside}, k, role)

    turn_off(a, Role.INNER)
    end = side.path(b, False)  # a OFF: b, of the other colour, ON
    P.nodes[end]["role"] = Role.CONTRADICTION
    turn_off(b, Role.CONTRADICTION)
    return a, used


def _ranges_text(g: Geometry, used: list[Range]) -> list[str]:
    return list(dict.fromkeys(_range_text(g, r) for r in used))


def _trap_step(
    grid: Grid, cl: _Clusters, table: _RangeTable, c: int, x: int, off: np.ndarray, locked: np.ndarray,
) -> Step:
    g = grid.geometry
    premise = Literal(g.candidate(x), on=True)
    P = nx.DiGraph(kind="coloring")
    P.add_node(premise, role=Role.PREMISE)
    a, used = _both_colors_off(
        grid, cl, table, c, P, off, locked, lambda k, role: _weak(g, P, premise, k, role),
    )
    target = g.candidate(x)
    P.graph.update(rule="range-trap", ranges=_ranges_text(g, used), colors=_colors_text(g, cl, c, cl.color[a]))
    notation = f"range-trap ({'; '.join(P.graph['ranges'])}) => {target.cell}<>{target.digit}"
    return make_step(TECHNIQUE, eliminations=[target], premises=(premise,), proof=P, notation=notation)


def _color_trap_step(
    grid: Grid, cl: _Clusters, table: _RangeTable, w: int, c: int, mine: np.ndarray, off: np.ndarray,
    locked: np.ndarray,
) -> Step:
    g = grid.geometry
    bad = np.flatnonzero(mine)
    proof = _Proof(grid, cl, int(bad[0]))  # premises +r and -r, r of the colour
    P = proof.P
    depth = _depths(proof.parent)

    def off_lit(k: int, role: Role) -> Literal:
        if cl.cluster.get(k) == w // 2:
            return proof.path(k, True)  # the colour's other side: OFF with it
        a = _witness(depth, bad[g.sees[bad, k]])
        return proof.off(proof.path(a, True), k, role)

    a, used = _both_colors_off(grid, cl, table, c, P, off, locked, off_lit)
    for k in bad.tolist():
        lit = proof.path(k, False)
        if P.nodes[lit]["role"] != Role.PREMISE:
            P.nodes[lit]["role"] = Role.CONCLUSION
    colors = _colors_text(g, cl, w // 2, w % 2)
    P.graph.update(
        rule="range-color-trap", ranges=_ranges_text(g, used), colors=colors,
        trapped=_colors_text(g, cl, c, cl.color[a]),
    )
    elims = [g.candidate(k) for k in bad.tolist()]
    notation = f"range-color-trap ({'; '.join(P.graph['ranges'])}) => " + ", ".join(
        f"{e.cell}<>{e.digit}" for e in sorted(elims)
    )
    return make_step(TECHNIQUE, eliminations=elims, premises=proof.premises, proof=P, notation=notation)
