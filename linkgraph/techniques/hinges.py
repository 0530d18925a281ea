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
  member of the set X, which is `linkgraph.techniques.coloring.medusa`'s
  *unit-emptied* / *cell-emptied* rule. So the strong hinge gets no rung of
  its own (``tests/techniques/test_hinges.py`` checks this on real positions).
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
``contradiction``). `linkgraph.verify.check_step` sees the set X with every
live member OFF and accepts ``-t``. Graph attributes: ``rule``, ``hinge``
(the two ends, ``a`` first), ``set`` (the set X emptied) and ``colors`` (the
cluster's colours as text, colour A first).

References
----------
../shared/seeds/sudoku-assistant-techniques.txt, "3D Medusa Hinge" (strong
block hinge, weak hinge targeting a row) and "3D Medusa Analysis" (weak links
and weak nodes).
"""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx
import numpy as np

from linkgraph.grid import Grid
from linkgraph.model import Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.techniques.coloring import _Clusters, _colors_text, _depths, _Proof

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
    >>> steps = list(lg.techniques.hinges.weak_hinges(grid))
    >>> sorted(str(c) for s in steps for c in s.eliminations)
    ['r3c1#1', 'r3c2#1', 'r3c3#1', 'r3c4#1', 'r3c5#1', 'r3c6#1']
    >>> step = next(s for s in steps if str(min(s.eliminations)) == "r3c5#1")
    >>> step.proof.graph["hinge"], step.proof.graph["set"]
    (['r1c1#1', 'r3c5#1'], 'r2#1')
    """
    return _weak_hinges(grid)


def _weak_hinges(grid: Grid) -> Iterator[Step]:
    g = grid.geometry
    cl = _Clusters(grid, medusa=True)
    if not cl.clusters:
        return
    L = np.flatnonzero(grid.live)
    nl = len(L)
    pos = np.full(g.number_of_candidates, nl)
    pos[L] = np.arange(nl)
    sees = g.sees[np.ix_(L, L)]
    inside = np.zeros((g.number_of_sets, nl + 1), dtype=bool)  # live members of each set X
    inside[np.arange(g.number_of_sets)[:, None], pos[g.set_members]] = True
    inside = inside[:, :nl]
    occupied = inside.any(axis=1)
    colors = [
        [pos[np.array([k for k in nodes if cl.color[k] == x])] for x in (0, 1)] for nodes in cl.clusters
    ]

    # what plain 3D Medusa gives: false colours (their clusters are skipped) and traps
    # (an uncoloured candidate seeing both colours)
    medusa_out = np.zeros(nl, dtype=bool)
    usable = []
    for c, pair in enumerate(colors):
        seen = [sees[p].any(axis=0) for p in pair]
        mine = [np.zeros(nl, dtype=bool) for _ in pair]
        for x in (0, 1):
            mine[x][pair[x]] = True
        fails = [
            bool(seen[x][pair[x]].any())
            or bool((occupied & ~(inside & ~(seen[x] | mine[1 - x])).any(axis=1)).any())
            for x in (0, 1)
        ]
        if any(fails):
            if not all(fails):  # (both fail only in a broken grid)
                medusa_out |= mine[fails.index(True)]
            continue
        medusa_out |= seen[0] & seen[1] & ~mine[0] & ~mine[1]
        usable.append((c, seen, mine[0] | mine[1]))

    done: set[int] = set()
    ends = np.unique(np.concatenate([p for c, _, _ in usable for p in colors[c]])) if usable else None
    counts = _Counts(sees, inside, occupied, ends) if usable else None
    for c, seen, clustered in usable:
        for x in (0, 1):
            A, B = colors[c][x], colors[c][1 - x]
            T = np.flatnonzero(seen[1 - x] & ~seen[x] & ~clustered & ~medusa_out)
            T = T[~np.isin(T, list(done))]
            if not len(T):
                continue
            found = _hinges(counts, A, T)
            for t in T.tolist():
                if t in found and t not in done:
                    done.add(t)
                    yield _hinge_step(grid, cl, c, x, L, sees, inside, int(t), B, found[t])


class _Counts:
    """Per grid: for every live candidate ``a`` and set X, how many live members of X ``a``
    does not see, and which sets X it can half-empty (sees some members, not all)."""

    def __init__(self, sees: np.ndarray, inside: np.ndarray, occupied: np.ndarray, ends: np.ndarray):
        self.sees, self.inside = sees, inside
        self.seesf = sees.astype(np.float32)
        self.row = np.full(len(sees), -1, dtype=np.int64)  # live index -> row of `need` (ends only)
        self.row[ends] = np.arange(len(ends))
        self.need = (~sees[ends]).astype(np.float32) @ inside.astype(np.float32).T  # (ends, sets)
        self.ok = occupied[None, :] & (self.need > 0) & (self.need < inside.sum(axis=1)[None, :])


def _hinges(counts: _Counts, A: np.ndarray, T: np.ndarray) -> dict[int, list[tuple[int, int]]]:
    """For each weak node of `T`, the (end ``a`` of `A`, set X) pairs that empty a set X:
    ``a`` sees some but not all members of X, and ``t`` every member ``a`` does not."""
    out: dict[int, list[tuple[int, int]]] = {}
    if not len(A) or not len(T):
        return out
    rows = counts.row[A]
    ia, js = np.nonzero(counts.ok[rows])
    if not len(ia):
        return out
    left = (counts.inside[js] & ~counts.sees[A[ia]]).astype(np.float32)  # (pairs, live)
    hit = (left @ counts.seesf[:, T]) == counts.need[rows[ia], js][:, None]
    for i, j in zip(*np.nonzero(hit)):
        out.setdefault(int(T[j]), []).append((int(A[ia[i]]), int(js[i])))
    return out


class _HingeProof(_Proof):
    """A one-premise proof: ``+t``, then the cluster's tree from ``b`` (taken OFF)."""

    def __init__(self, grid: Grid, cl: _Clusters, b: int, t: int):
        self.g = grid.geometry
        self.cl = cl
        self.root = b
        self.parent = cl.tree(b)
        self.P = nx.DiGraph(kind="coloring")
        self.premise = Literal(self.g.candidate(t), on=True)
        self.P.add_node(self.premise, role=Role.PREMISE)
        self.off(self.premise, b)


def _hinge_step(
    grid: Grid, cl: _Clusters, c: int, x: int, L: np.ndarray, sees: np.ndarray, inside: np.ndarray,
    t: int, B: np.ndarray, ends: list[tuple[int, int]],
) -> Step:
    g = grid.geometry
    # the shortest proof: b of colour B seen by t, and the hinge end a nearest to it in the cluster
    best = None
    for b in B[sees[t, B]].tolist():
        depth = _depths(cl.tree(int(L[b])))
        for a, s in ends:
            key = (depth[int(L[a])], a, s, b)
            if best is None or key < best:
                best = key
    _, a, s, b = best
    ka, kb, kt = int(L[a]), int(L[b]), int(L[t])
    proof = _HingeProof(grid, cl, kb, kt)
    end = proof.path(ka, False)  # b OFF: colour A is ON
    P = proof.P
    for m in np.flatnonzero(inside[s]).tolist():
        km = int(L[m])
        lit = Literal(g.candidate(km), on=False)
        if lit not in P:  # otherwise the chain itself turned it OFF
            proof.off(end if sees[a, m] else proof.premise, km, Role.CONTRADICTION)
    hinge = [str(g.candidate(ka)), str(g.candidate(kt))]
    where = str(g.setx(s))
    P.graph.update(rule="weak-hinge", hinge=hinge, set=where, colors=_colors_text(g, cl, c, x))
    target = g.candidate(kt)
    notation = f"weak-hinge {hinge[0]} + {hinge[1]} empty {where} => {target.cell}<>{target.digit}"
    return make_step(
        "medusa-weak-hinge", eliminations=[target], premises=(proof.premise,), proof=P, notation=notation,
    )
