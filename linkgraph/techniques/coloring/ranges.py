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
(`linkgraph.techniques.coloring.medusa`), in two forms:

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
  (`linkgraph.techniques.coloring.hinges`): ``x`` and the colour-B candidate ``b``
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
`linkgraph.techniques.coloring.rangetable`: every live candidate (range traps) and
every colour (range colour traps) in one pass, the premises packed as bits.
The clusters and what each colour sees are 3D Medusa's, computed once per
grid (`linkgraph.techniques.coloring.medusa`).

Proofs
------
``P.graph["kind"] == "coloring"``, checked by `linkgraph.check.checker.check_step`
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
from functools import lru_cache

import networkx as nx
import numpy as np

from linkgraph.bitops import bit_column, pack, pack_columns, unpack
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Candidate, Family, Group, LinkKind, Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.techniques.coloring.medusa import (
    Clusters, Colors, colors_text, medusa_colors, nearest_root, Proof, tree_depths,
)
from linkgraph.techniques.coloring.rangetable import Range, RangeTable, find_ranges  # Range, find_ranges re-exported

__all__ = ["Range", "almost_locked_ranges", "find_ranges"]

TECHNIQUE = "almost-locked-range"


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
    >>> (step,) = lg.techniques.coloring.ranges.almost_locked_ranges(grid)
    >>> step.proof.graph["rule"], [str(c) for c in step.eliminations]
    ('range-trap', ['r4c5#1'])
    >>> step.proof.graph["ranges"]
    ['b2#1: r1c4#1 => r1#1']
    """
    cc = medusa_colors(grid)
    if not cc.cl.count:
        return
    table = RangeTable(grid)
    if not table.size:
        return
    # hits[i, w]: range i turns OFF a candidate of colour class w (class 2c + x: colour x of cluster c)
    hits = _hits(table, cc)
    yield from _traps(grid, cc, table, hits)
    yield from _color_traps(grid, cc, table, hits)


def _hits(table: RangeTable, cc: Colors) -> np.ndarray:
    """``(ranges, classes)`` bool: range i turns OFF a candidate of colour class w (compiled:
    `linkgraph.techniques.coloring.kernel.range_hits`)."""
    from linkgraph.techniques.coloring.kernel import range_hits  # noqa: PLC0415 (numba: loaded on first use)

    return range_hits(table.target_places, cc.nodes, cc.klass, len(cc.starts), table.targets.shape[1])


def _class_masks(grid: Grid, cc: Colors) -> tuple[np.ndarray, np.ndarray]:
    """``(2 * clusters, candidates)`` bool: the candidates of each colour class, and what it sees."""
    C = grid.geometry.number_of_candidates
    M = np.zeros((len(cc.seen), C), dtype=bool)
    M[cc.klass, cc.nodes] = True
    seen = np.zeros_like(M)
    seen[:, cc.L] = cc.seen
    return M, seen


def _ranged(hits: np.ndarray, locked: np.ndarray) -> np.ndarray:
    """``(classes, words)``: the premises (bits, as in `locked`) that lock a range hitting each class."""
    from linkgraph.techniques.coloring.kernel import ranged_words  # noqa: PLC0415 (numba: loaded on first use)

    return ranged_words(hits, locked)


@lru_cache(maxsize=8)
def _premise_words(n: int) -> np.ndarray:
    """Premise k makes candidate k ON alone: ``(n + 1, words)``, the last row (padding) all 0;
    read-only."""
    out = pack(np.eye(n, dtype=bool), pad=False)
    out.setflags(write=False)
    return out


def _traps(grid: Grid, cc: Colors, table: RangeTable, hits: np.ndarray) -> Iterator[Step]:
    # every live candidate x is a premise (bit x): ON itself, OFF what it sees
    g = grid.geometry
    C = g.number_of_candidates
    live = grid.live
    M, seen = _class_masks(grid, cc)
    locked = table.lock_words(_premise_words(C), g.sees_words)
    direct = pack(seen)  # x sees a candidate of the class (x live)
    hit = direct | _ranged(hits, locked)
    found = hit[0::2] & hit[1::2] & ~(direct[0::2] & direct[1::2])  # (clusters, words)
    found &= ~pack(M[0::2] | M[1::2])  # not against x's own cluster
    found &= pack(live[None, :])[0]
    found = unpack(found, C)
    if not found.any():
        return
    first = found.argmax(axis=0)
    for x in np.flatnonzero(found.any(axis=0)).tolist():
        yield _trap_step(grid, cc.cl, table, int(first[x]), x, g.sees[x] & live, bit_column(locked, x))


def _color_traps(grid: Grid, cc: Colors, table: RangeTable, hits: np.ndarray) -> Iterator[Step]:
    # every colour class w is a premise (bit w): ON its candidates, OFF what they see and its other colour
    cl = cc.cl
    M, seen = _class_masks(grid, cc)
    n = len(M)
    other = M.reshape(-1, 2, M.shape[1])[:, ::-1].reshape(M.shape)
    off = seen | other
    locked_w = table.lock_words(pack_columns(M, pad=False), pack_columns(off, pad=True))
    locked = unpack(locked_w, n).T  # (classes, ranges)
    direct = np.logical_or.reduceat(off[:, cc.nodes], cc.starts, axis=1).reshape(n, -1, 2)
    ranged = unpack(_ranged(hits, locked_w), n).T.reshape(n, -1, 2)
    found = (direct | ranged).all(axis=2) & ~direct.all(axis=2)
    own = np.repeat(np.arange(cl.count), 2)
    found[np.arange(n), own] = False  # a colour against its own cluster is plain 3D Medusa
    twice = cc.twice
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


class _RangeProof(Proof):
    """Cluster paths from `root` (taken OFF) and range links, added to proof graph `P`."""

    def __init__(self, grid: Grid, cl: Clusters, root: int, P: nx.DiGraph):
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


def _pick_range(table: RangeTable, locked: np.ndarray, t: int) -> Range:
    """The first locked range that turns `t` OFF."""
    for i in np.flatnonzero(locked).tolist():
        if table.targets[i, t]:
            return table.range(i)
    raise AssertionError(f"no locked range reaches candidate {t}")


def _both_colors_off(
    grid: Grid, cl: Clusters, table: RangeTable, c: int, P: nx.DiGraph, off: np.ndarray, locked: np.ndarray,
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
    depth = tree_depths(cl.tree(a))
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
    grid: Grid, cl: Clusters, table: RangeTable, c: int, x: int, off: np.ndarray, locked: np.ndarray,
) -> Step:
    g = grid.geometry
    premise = Literal(g.candidate(x), on=True)
    P = nx.DiGraph(kind="coloring")
    P.add_node(premise, role=Role.PREMISE)
    a, used = _both_colors_off(
        grid, cl, table, c, P, off, locked, lambda k, role: _weak(g, P, premise, k, role),
    )
    target = g.candidate(x)
    P.graph.update(rule="range-trap", ranges=_ranges_text(g, used), colors=colors_text(g, cl, c, cl.color[a]))
    notation = f"range-trap ({'; '.join(P.graph['ranges'])}) => {target.cell}<>{target.digit}"
    return make_step(TECHNIQUE, eliminations=[target], premises=(premise,), proof=P, notation=notation)


def _color_trap_step(
    grid: Grid, cl: Clusters, table: RangeTable, w: int, c: int, mine: np.ndarray, off: np.ndarray,
    locked: np.ndarray,
) -> Step:
    g = grid.geometry
    bad = np.flatnonzero(mine)
    proof = Proof(grid, cl, int(bad[0]))  # premises +r and -r, r of the colour
    P = proof.P
    depth = tree_depths(proof.parent)

    def off_lit(k: int, role: Role) -> Literal:
        if cl.cluster.get(k) == w // 2:
            return proof.path(k, True)  # the colour's other side: OFF with it
        a = nearest_root(depth, bad[g.sees[bad, k]])
        return proof.off(proof.path(a, True), k, role)

    a, used = _both_colors_off(grid, cl, table, c, P, off, locked, off_lit)
    for k in bad.tolist():
        lit = proof.path(k, False)
        if P.nodes[lit]["role"] != Role.PREMISE:
            P.nodes[lit]["role"] = Role.CONCLUSION
    colors = colors_text(g, cl, w // 2, w % 2)
    P.graph.update(
        rule="range-color-trap", ranges=_ranges_text(g, used), colors=colors,
        trapped=colors_text(g, cl, c, cl.color[a]),
    )
    elims = [g.candidate(k) for k in bad.tolist()]
    notation = f"range-color-trap ({'; '.join(P.graph['ranges'])}) => " + ", ".join(
        f"{e.cell}<>{e.digit}" for e in sorted(elims)
    )
    return make_step(TECHNIQUE, eliminations=elims, premises=proof.premises, proof=P, notation=notation)
