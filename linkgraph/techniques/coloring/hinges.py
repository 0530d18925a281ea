"""3D Medusa hinges: two ends that would empty a set X if both were true.

A *hinge* (Sudoku Assistant, "3D Medusa Hinge") is a pair of candidates that
a chain ties together so that, were the first true, the second would be true
too, and that together *see* every live member of some set X: a box, a row or
a column of one digit, or the digits of one cell ("Medusa variants also target
cells in the same row or column, or target values in the same cell"). Both
ends true would leave that set X empty, so the premise that makes them true
is false.

- **Strong hinge**: both ends lie in one 3D Medusa cluster, in the same colour
  (both true or both false). Then that colour is false. Every strong hinge is
  already a 3D Medusa result: the colour with both ends sees every live
  member of the set X, which is `linkgraph.techniques.coloring.medusa.medusa`'s
  *unit-emptied* / *cell-emptied* rule. So the strong hinge gets no rung of
  its own (``tests/techniques/coloring/test_hinges.py`` checks this on real positions).
- **Weak hinge**: one end ``a`` is in a cluster, colour A; the other end ``t``
  is a *weak node*: a candidate outside the cluster that sees (shares a set X
  with) a candidate ``b`` of the other colour, B, and sees no candidate of
  colour A. The link ``t - b`` only works one way: if ``t`` is true then
  ``b`` is false, so colour B is false, colour A is true and ``a`` is true.
  When ``a`` and ``t`` together see every live member of a set X, ``t`` true
  empties that set X: ``t`` is false.

`weak_hinges` reports a weak hinge only when plain 3D Medusa does not already
give its result: clusters where a colour is false are skipped (3D Medusa
removes that colour), and so are targets 3D Medusa eliminates (an uncoloured
candidate seeing both colours).

Proofs
------
One premise, ``+t``, refuted (``P.graph["kind"] == "coloring"``, rule
``weak-hinge``): ``+t -> -b`` (weak, via a set X they share), then the
cluster's strong links from ``b`` to ``a`` (an OFF candidate turns its strong
partner ON, an ON one its partner OFF) up to ``+a``, then a weak edge from
``+a`` or ``+t`` to the OFF literal of every live member of the set X (role
``contradiction``). `linkgraph.check.checker.check_step` sees the set X with every
live member OFF and accepts ``-t``. Graph attributes: ``rule``, ``hinge``
(the two ends, ``a`` first), ``set`` (the set X emptied) and ``colors`` (the
cluster's colours as text, colour A first).

Speed: the clusters and their false colours are 3D Medusa's, computed once
per grid (`linkgraph.techniques.coloring.medusa`). All hinges are found at once,
with per-geometry tables of which members of each set X a candidate sees
(as bit masks): for every end ``a`` and set X it sees some but not all live
members of, each weak node ``t`` of the class is checked to see the rest.

References
----------
../shared/seeds/sudoku-assistant-techniques.txt, "3D Medusa Hinge" (strong
block hinge, weak hinge targeting a row) and "3D Medusa Analysis" (weak links
and weak nodes).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import networkx as nx
import numpy as np

from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.techniques.coloring.medusa import Clusters, Colors, colors_text, medusa_colors, Proof, tree_depths

__all__ = ["weak_hinges"]


def weak_hinges(grid: Grid) -> Iterator[Step]:
    """Yield 3D Medusa weak-hinge steps: a weak node that, with one end of a cluster, empties a set X.

    One step per eliminated candidate ``t``: ``t`` sees a candidate of one
    colour of a 3D Medusa cluster (so ``t`` true makes the other colour true)
    and, together with a candidate ``a`` of that other colour, sees every
    live member of a set X (a house's places of one digit, or a cell's
    digits). Results plain 3D Medusa already gives are not reported (see the
    module docstring).

    Parameters
    ----------
    grid : Grid
        The candidate state to search.

    Yields
    ------
    Step
        Technique ``"medusa-weak-hinge"``, one elimination each; the proof
        refutes the premise ``+t`` (see the module docstring).

    Examples
    --------
    Digit 1 has two places in row 1 (r1c1, r1c5) and three in row 2 (r2c2,
    r2c4, r2c6). If r3c5 were 1, r1c5 (box 2) would not be, so r1c1 would
    be: r1c1 sees r2c2 (box 1) and r3c5 sees r2c4 and r2c6 (box 2), leaving
    no 1 in row 2. So r3c5 is not 1, and neither are r3c4 and r3c6; with the
    colours swapped (r1c1 off, r1c5 on), nor are r3c1, r3c2 and r3c3.

    >>> grid = lg.Grid.empty()
    >>> out = [f"r1c{c}#1" for c in (2, 3, 4, 6, 7, 8, 9)] + [f"r2c{c}#1" for c in (1, 3, 5, 7, 8, 9)]
    >>> grid = grid.eliminate({lg.Candidate.parse(c) for c in out})
    >>> steps = list(lg.techniques.coloring.hinges.weak_hinges(grid))
    >>> sorted(str(c) for s in steps for c in s.eliminations)
    ['r3c1#1', 'r3c2#1', 'r3c3#1', 'r3c4#1', 'r3c5#1', 'r3c6#1']
    >>> step = next(s for s in steps if str(min(s.eliminations)) == "r3c5#1")
    >>> step.proof.graph["hinge"], step.proof.graph["set"]
    (['r1c1#1', 'r3c5#1'], 'r2#1')
    """
    return _weak_hinges(grid)


def _weak_hinges(grid: Grid) -> Iterator[Step]:
    cc = medusa_colors(grid)
    cl = cc.cl
    if not cl.count:
        return
    from linkgraph.techniques.coloring.kernel import hinge_records  # noqa: PLC0415 (numba: loaded on first use)

    g = grid.geometry
    touched, seen_bits, seen_m = _geometry_tables(g)
    # (class w, weak node t, hinge end a, set X s), by (w, t): see the kernel
    records = hinge_records(cc.seen, cc.mine, cc.failing, cc.elim, cc.nodes, cc.klass, cc.at, cc.L,
                            touched, seen_bits, seen_m, grid.live, g.set_members)
    found: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for w, t, a, s in records.tolist():
        found.setdefault((w, t), []).append((a, s))
    done: set[int] = set()
    for (w, t), hinges in found.items():
        if t not in done:
            done.add(t)
            c, x = divmod(w, 2)
            yield _hinge_step(grid, cc, c, x, t, hinges)


@lru_cache(maxsize=8)
def _geometry_tables(g: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which members of each set X a candidate sees, as ints (bit j: member j): per candidate k,
    the sets X k sees a member of (ascending, padded with ``number_of_sets``) and those ints; and
    the ints of every (candidate, set X), ``(candidates, sets)``."""
    dtype = np.min_scalar_type((1 << g.size) - 1)
    weights = 1 << np.arange(g.size, dtype=np.int64)
    rows = [np.flatnonzero(g.incidence[g.sees[k]].any(axis=0)) for k in range(g.number_of_candidates)]
    touched = np.full((len(rows), max(map(len, rows))), g.number_of_sets, dtype=np.intp)
    seen_bits = np.zeros(touched.shape, dtype=dtype)
    seen_all = np.zeros((len(rows), g.number_of_sets), dtype=dtype)
    for k, sets in enumerate(rows):
        touched[k, : len(sets)] = sets
        seen_bits[k, : len(sets)] = seen_all[k, sets] = g.sees[k][g.set_members[sets]] @ weights
    out = (touched, seen_bits, seen_all)
    for a in out:
        a.setflags(write=False)
    return out


class _HingeProof(Proof):
    """A one-premise proof: ``+t``, then the cluster's tree from ``b`` (taken OFF)."""

    def __init__(self, grid: Grid, cl: Clusters, b: int, t: int):
        self.g = grid.geometry
        self.cl = cl
        self.root = b
        self.parent = cl.tree(b)
        self.P = nx.DiGraph(kind="coloring")
        self.premise = Literal(self.g.candidate(t), on=True)
        self.P.add_node(self.premise, role=Role.PREMISE)
        self.off(self.premise, b)


def _hinge_step(grid: Grid, cc: Colors, c: int, x: int, t: int, ends: list[tuple[int, int]]) -> Step:
    """The step of weak node `t` (a live column of `cc`) for colour x of cluster c; `ends` its
    (hinge end, set X) pairs."""
    g = grid.geometry
    cl, L, sees = cc.cl, cc.L, cc.sees
    b0, b1 = cc.bounds[2 * c + 1 - x], cc.bounds[2 * c + 2 - x]
    B = cc.at[b0:b1]  # the other colour, B
    # the shortest proof: b of colour B seen by t, and the hinge end a nearest to it in the cluster
    best = None
    for b in B[sees[t, B]].tolist():
        depth = tree_depths(cl.tree(int(L[b])))
        for a, s in ends:
            key = (depth[int(L[a])], a, s, b)
            if best is None or key < best:
                best = key
    _, a, s, b = best
    ka, kb, kt = int(L[a]), int(L[b]), int(L[t])
    proof = _HingeProof(grid, cl, kb, kt)
    end = proof.path(ka, False)  # b OFF: colour A is ON
    P = proof.P
    inside = cc.members[s]
    for m in np.sort(inside[inside < len(L)]).tolist():
        km = int(L[m])
        lit = Literal(g.candidate(km), on=False)
        if lit not in P:  # otherwise the chain itself turned it OFF
            proof.off(end if sees[a, m] else proof.premise, km, Role.CONTRADICTION)
    hinge = [str(g.candidate(ka)), str(g.candidate(kt))]
    where = str(g.setx(s))
    P.graph.update(rule="weak-hinge", hinge=hinge, set=where, colors=colors_text(g, cl, c, x))
    target = g.candidate(kt)
    notation = f"weak-hinge {hinge[0]} + {hinge[1]} empty {where} => {target.cell}<>{target.digit}"
    return make_step(
        "medusa-weak-hinge", eliminations=[target], premises=(proof.premise,), proof=P, notation=notation,
    )
