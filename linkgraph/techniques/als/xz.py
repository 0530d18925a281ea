"""Almost-locked-set techniques: ALS-XZ (singly and doubly linked), ALS-XY-wing, death blossom.

An *almost-locked set* (ALS, `linkgraph.graph.als`) is n cells of one house holding
n+1 digits: take one digit out and the rest are locked in the cells. Two ALSs
A and B with no cell in common have a *restricted common* digit x when every
x of A sees every x of B: x stands in at most one of them.

- **ALS-XZ** (seed, "Almost-Locked Sets": "linked by candidate i and have a
  different common candidate k"): with x restricted, a digit z common to A and
  B stands in A or in B, so z leaves every cell that sees all z of both. As an
  AIC with ALS nodes: ``(z=x)A - (x=z)B``.
- **Doubly linked ALS-XZ** (the seed's "mutually doubly linked" rule): with two
  restricted commons x1 and x2, A and B together are locked: each holds every
  one of its digits but x1 and x2, and x1, x2 stand one in each. Every other
  digit of an ALS leaves the cells that see all its places in that ALS, and
  x1 (x2) leaves the cells that see all its places in both.
- **ALS-XY-wing**: ALSs A, B, C with x restricted between A and B, y between
  B and C (x != y), and z common to A and C (z neither x nor y, and restricted
  with B on neither side): ``(z=x)A - (x=y)B - (y=z)C``, so z leaves the cells
  seeing all z of A and C. A and C share no cell.
- **Death blossom**: a stem cell whose every candidate d is restricted common
  with a petal ALS (every d of the petal sees the stem) and a digit z, not in
  the stem, in every petal: whichever digit the stem takes locks its petal
  onto z, so z leaves the cells seeing all z of every petal. A stem digit may
  have several petals, all locked when the stem takes it: one step per stem
  and z removes every z that, for each stem digit, sees all z of one of its
  petals (the union over every choice of one petal per digit).

Proofs
------
The proofs use the project's ALS edges (`linkgraph.steps`: ``family="als"``,
``via`` the ALS; OFF sources lock the ALS, the target is OFF because it sees
every place of its digit in the locked ALS) and set X weak links, and are
checked by `linkgraph.check.checker.check_step` like chains (``P.graph["kind"]`` is
``"als"``; no length bonus). ALS-XZ and the ALS-XY-wing are the two branches
on ``n0`` = the z places of A (a candidate, or a group node when z has
several places in A): ``+n0`` reaches each target by a weak link, ``-n0``
locks A, which turns x OFF in B, and so on to the target. A doubly linked pair
branches on the x1 places of A. A death blossom branches on every candidate
of the stem (premises ``+stem#d``, exhaustive as a cell set X). Graph
attributes: ``als`` (the ALS texts), ``restricted``, ``z``, ``stem``.

Search bounds and speed
-----------------------
ALSs have 1 to `ALS_MAX_SIZE` (4) cells by default; pass ``max_size`` for
larger sets. The sets and every relation between two of them come from one
`AlsTable` per grid (`linkgraph.techniques.als.table`: numpy, on cell masks
packed in 64-bit words; the three finders run on one grid share it). Pairs,
triples and blossoms are read off its matrices, so the Python loops run only
over combinations that eliminate something. Death-blossom stems have 2 to
`STEM_MAX` (4) candidates. Each finder yields steps lazily, smallest sets
first, never the same set of eliminations twice in one call.

The set of findings does not depend on how cells and digits are numbered: a
Sudoku symmetry maps it onto the findings of the transformed grid (what
`tests/test_symmetry.py` checks). Only exact repeats are dropped, every pair
of ALSs (triple, stem and z) is tried, and no elimination hangs on which set
or digit comes first: a doubly linked pair tries every two of its restricted
digits (more than two only happen in a position with no solution), and a
death blossom takes every petal rather than the first found. Where a proof
has a choice (the x and y of an ALS-XY-wing with two restricted digits on one
side, the petal a target is reached through), it takes the first; that
changes the proof, never the eliminations.

References
----------
seeds/sudoku-assistant-techniques.txt, "Almost-Locked Sets"; SudokuWiki
"Almost Locked Sets", "Death Blossom"; HoDoKu "ALS-XZ", "ALS-XY-Wing",
"Death Blossom".

Examples
--------
>>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> step = next(lg.techniques.als.xz.als_xz(grid))
>>> step.technique
'als-xz'
>>> from linkgraph.check.checker import check_step
>>> check_step(grid, step) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

import networkx as nx
import numpy as np

from linkgraph.bitops import nonzero2, pack
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Candidate, Family, Group, LinkKind, Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.techniques.als.table import ALS_MAX_SIZE, AlsSet, AlsTable, als_table
from linkgraph.bitops import bits
from linkgraph.techniques.chainproof import weak_via

__all__ = ["ALS_MAX_SIZE", "AlsTable", "als_table", "als_xy_wings", "als_xz", "death_blossoms"]

#: Stem cells with this many candidates at most are tried for a death blossom.
STEM_MAX = 4


# ---- proof building -------------------------------------------------------


class _Proof:
    """A proof graph under construction (kind ``als``)."""

    def __init__(self, grid: Grid, **attrs: object):
        self.grid = grid
        self.g = grid.geometry
        self.P = nx.DiGraph(kind="als", **attrs)

    def node(self, cells: Sequence[int], digit: int) -> Candidate | Group:
        """The candidate (one cell) or group node of `digit` (index) in `cells`."""
        g = self.g
        if len(cells) == 1:
            return Candidate(g.cell(cells[0]), digit + 1)
        return Group(tuple(g.cell(c) for c in cells), digit + 1)

    def lit(self, node: Candidate | Group, on: bool, role: Role = Role.INNER) -> Literal:
        lit = Literal(node, on=on)
        if lit not in self.P:
            self.P.add_node(lit, role=role)
        return lit

    def cand(self, cell: int, digit: int, on: bool = False, role: Role = Role.INNER) -> Literal:
        return self.lit(Candidate(self.g.cell(cell), digit + 1), on, role)

    def weak(self, u: Literal, v: Literal) -> bool:
        """Add the weak link u -> v; False when no set X holds both."""
        try:
            via = weak_via(self.g, u.cand, v.cand)
        except ValueError:
            return False
        if isinstance(u.cand, Group) or isinstance(v.cand, Group):
            family = Family.GROUP
        else:
            family = Family.HOUSE if "#" in via else Family.CELL
        self.P.add_edge(u, v, kind=LinkKind.WEAK, family=family, via=via)
        return True

    def via_als(self, sources: Sequence[Literal], als: str, v: Literal) -> None:
        """ALS edges: the OFF `sources` lock `als`, so `v` follows."""
        for u in sources:
            self.P.add_edge(u, v, kind=LinkKind.STRONG, family=Family.ALS, via=als)

    def offs(self, cellmask: int, digit: int) -> list[Literal]:
        """OFF literals of `digit` in the cells of `cellmask`."""
        return [self.cand(c, digit) for c in bits(cellmask)]

    def step(self, technique: str, premises: Sequence[Literal], elims: list[int], notation: str) -> Step:
        """The step eliminating candidate indices `elims` (each already a node)."""
        g = self.g
        cands = sorted(g.candidate(k) for k in elims)
        for c in cands:
            self.P.nodes[Literal(c, on=False)]["role"] = Role.CONCLUSION
        text = notation + " => " + ", ".join(f"{c.cell}<>{c.digit}" for c in cands)
        return make_step(technique, eliminations=cands, premises=tuple(premises), proof=self.P, notation=text)


def _cells_of(mask: int) -> list[int]:
    return bits(mask)


def _index(g: Geometry, cell: int, digit: int) -> int:
    return cell * g.size + digit


def _xz_single(table: AlsTable, i: int, j: int, x: int, z: int) -> Step | None:
    """ALS-XZ step: A=i, B=j, restricted x, common z (digit indices)."""
    grid = table.grid
    g = grid.geometry
    A, B = table.set(i), table.set(j)
    targets = A.seeall[z] & B.seeall[z] & table.digit_cells[z]
    a_text, b_text = str(table.als(i)), str(table.als(j))
    pr = _Proof(grid, als=[a_text, b_text], restricted=[x + 1], z=z + 1)
    n0 = pr.node(_cells_of(A.places[z]), z)
    on, off = pr.lit(n0, True, Role.PREMISE), pr.lit(n0, False, Role.PREMISE)
    xb = pr.offs(B.places[x], x)
    for v in xb:
        pr.via_als([off], a_text, v)
    elims = []
    for t in _cells_of(targets):
        v = pr.cand(t, z)
        if not pr.weak(on, v):
            pr.P.remove_node(v)
            continue
        pr.via_als(xb, b_text, v)
        elims.append(_index(g, t, z))
    if not elims:
        return None
    notation = f"({z + 1}={x + 1}){a_text} - ({x + 1}={z + 1}){b_text}"
    return pr.step("als-xz", (on, off), elims, notation)


def _xz_double(table: AlsTable, i: int, j: int, x1: int, x2: int) -> Step | None:
    """Doubly linked ALS-XZ step: A=i, B=j, restricted x1 and x2 (digit indices)."""
    grid = table.grid
    g = grid.geometry
    A, B = table.set(i), table.set(j)
    dc = table.digit_cells
    both = (1 << x1) | (1 << x2)
    hits = (A.seeall[x1] & B.seeall[x1] & dc[x1]) | (A.seeall[x2] & B.seeall[x2] & dc[x2])
    for S in (A, B):
        for d in bits(S.digits & ~both):
            hits |= S.seeall[d] & dc[d]
    if not hits:
        return None
    a_text, b_text = str(table.als(i)), str(table.als(j))
    pr = _Proof(grid, als=[a_text, b_text], restricted=[x1 + 1, x2 + 1])
    n0 = pr.node(_cells_of(A.places[x1]), x1)
    on, off = pr.lit(n0, True, Role.PREMISE), pr.lit(n0, False, Role.PREMISE)
    # +n0: x1 OFF in B, B locked without x1: x2 OFF in A, A locked without x2
    x1b = pr.offs(B.places[x1], x1)
    if not all([pr.weak(on, v) for v in x1b]):
        return None
    x2a = pr.offs(A.places[x2], x2)
    for v in x2a:
        pr.via_als(x1b, b_text, v)
    # -n0: A locked without x1: x2 OFF in B, B locked without x2
    x2b = pr.offs(B.places[x2], x2)
    for v in x2b:
        pr.via_als([off], a_text, v)
    lock_a = {x1: [off], x2: x2a}  # sources locking A without x1 / without x2
    lock_b = {x1: x1b, x2: x2b}
    elims: set[int] = set()

    def add(t: int, d: int, builders) -> None:
        k = _index(g, t, d)
        if k in elims or Literal(Candidate(g.cell(t), d + 1), on=False) in pr.P:
            return
        v = pr.cand(t, d)
        for build in builders:
            build(v)
        elims.add(k)

    # x1: +n0 sees it (weak), -n0 locks B without x2; x2: B without x1, A without x1
    for t in _cells_of(A.seeall[x1] & B.seeall[x1] & dc[x1]):
        v = Literal(Candidate(g.cell(t), x1 + 1), on=False)
        if v in pr.P:
            continue
        v = pr.cand(t, x1)
        if not pr.weak(on, v):
            pr.P.remove_node(v)
            continue
        pr.via_als(lock_b[x2], b_text, v)
        elims.add(_index(g, t, x1))
    for t in _cells_of(A.seeall[x2] & B.seeall[x2] & dc[x2]):
        add(t, x2, [lambda v: pr.via_als(lock_b[x1], b_text, v), lambda v: pr.via_als([off], a_text, v)])
    for d in bits(A.digits & ~both):
        for t in _cells_of(A.seeall[d] & dc[d]):
            add(t, d, [lambda v: pr.via_als(lock_a[x1] + lock_a[x2], a_text, v)])
    for d in bits(B.digits & ~both):
        for t in _cells_of(B.seeall[d] & dc[d]):
            add(t, d, [lambda v: pr.via_als(lock_b[x1] + lock_b[x2], b_text, v)])
    if not elims:
        return None
    notation = f"({x1 + 1}={x2 + 1}){a_text} - ({x2 + 1}={x1 + 1}){b_text} - loop"
    return pr.step("als-xz", (on, off), sorted(elims), notation)


def als_xz(grid: Grid, *, max_size: int = ALS_MAX_SIZE) -> Iterator[Step]:
    """ALS-XZ, singly and doubly linked (see the module docstring).

    Yields
    ------
    Step
        Technique ``als-xz``: one step per pair of ALSs and digit z (singly
        linked), or per pair (doubly linked, all its eliminations).

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> all(s.technique == "als-xz" for s in lg.techniques.als.xz.als_xz(grid))
    True
    """
    from linkgraph.techniques.als.kernel import xz_any  # noqa: PLC0415 (numba: loaded on first use)

    table = als_table(grid, max_size=max_size)
    if not xz_any(table.restricted, table.zsee, table.selfsee):
        return  # (the compiled test says whether the pairs below hold one: mostly not)
    # the pairs i < j with a restricted common digit (by i, then j; the other pairs eliminate nothing)
    N = len(table)
    flat = np.flatnonzero(table.restricted != 0)
    flat = flat[flat // N < flat % N]
    first, second = flat // N, flat % N
    R, Z = table.restricted.take(flat), table.zsee.take(flat)
    seen: set[frozenset] = set()
    # doubly linked: some digit has a target. Two restricted digits are the rule; three or
    # more only arise in a position with no solution, and then every pair is tried (so the
    # findings never hang on the digit numbering)
    low = R & -R
    pair = low | ((R ^ low) & -(R ^ low))
    own = table.selfsee
    double = ((R ^ low) != 0) & (((Z & pair) != 0) | ((own[first] & ~pair) != 0) | ((own[second] & ~pair) != 0)
                                 | ((R ^ pair) != 0))
    useful = np.flatnonzero(double | (((R & (R - 1)) == 0) & ((Z & ~R) != 0)))
    for i, j, r, z in zip(first[useful].tolist(), second[useful].tolist(), R[useful].tolist(), Z[useful].tolist()):
        if r & (r - 1):
            steps = [_xz_double(table, i, j, x1, x2) for x1, x2 in combinations(bits(r), 2)]
        else:
            x = bits(r)[0]
            steps = [_xz_single(table, i, j, x, d) for d in bits(z & ~r)]
        for step in steps:
            if step is not None and step.eliminations not in seen:
                seen.add(step.eliminations)
                yield step


def _xy_step(table: AlsTable, a: int, b: int, c: int, x: int, y: int, z: int) -> Step | None:
    grid = table.grid
    g = grid.geometry
    A, B, C = table.set(a), table.set(b), table.set(c)
    targets = A.seeall[z] & C.seeall[z] & table.digit_cells[z]
    texts = [str(table.als(k)) for k in (a, b, c)]
    pr = _Proof(grid, als=texts, restricted=[x + 1, y + 1], z=z + 1)
    n0 = pr.node(_cells_of(A.places[z]), z)
    on, off = pr.lit(n0, True, Role.PREMISE), pr.lit(n0, False, Role.PREMISE)
    xb = pr.offs(B.places[x], x)
    for v in xb:
        pr.via_als([off], texts[0], v)
    yc = pr.offs(C.places[y], y)
    for v in yc:
        pr.via_als(xb, texts[1], v)
    elims = []
    for t in _cells_of(targets):
        v = pr.cand(t, z)
        if not pr.weak(on, v):
            pr.P.remove_node(v)
            continue
        pr.via_als(yc, texts[2], v)
        elims.append(_index(g, t, z))
    if not elims:
        return None
    notation = f"({z + 1}={x + 1}){texts[0]} - ({x + 1}={y + 1}){texts[1]} - ({y + 1}={z + 1}){texts[2]}"
    return pr.step("als-xy-wing", (on, off), elims, notation)


def als_xy_wings(grid: Grid, *, max_size: int = ALS_MAX_SIZE) -> Iterator[Step]:
    """ALS-XY-wings: ``(z=x)A - (x=y)B - (y=z)C`` (see the module docstring).

    Yields
    ------
    Step
        Technique ``als-xy-wing``, one per triple and digit z.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> all(s.technique == "als-xy-wing" for s in lg.techniques.als.xz.als_xy_wings(grid))
    True
    """
    from linkgraph.techniques.als.kernel import xy_wing_any  # noqa: PLC0415 (numba: loaded on first use)

    table = als_table(grid, max_size=max_size)
    R, Z, O = table.restricted, table.zsee, table.overlap
    if not xy_wing_any(R, Z, O):
        return  # (the compiled test says whether the triples below hold one: mostly not)
    # B restricted with A < C: every two sets restricted with one B (R is symmetric), as (b, a) and (b, c)
    bv, av = nonzero2(R != 0)  # by b, then a
    later = np.searchsorted(bv, bv, side="right") - np.arange(len(bv)) - 1  # links of b after this one
    e1 = np.repeat(np.arange(len(bv)), later)
    e2 = e1 + 1 + np.arange(len(e1)) - np.repeat(np.cumsum(later) - later, later)
    N = len(R)
    ac, ba, bc = av[e1] * N + av[e2], bv[e1] * N + av[e1], bv[e1] * N + av[e2]  # flat indices
    # A and C share no cell, and some z in both has a live z seeing every z of both
    ok = np.flatnonzero((Z.take(ac) != 0) & ~O.take(ac))
    order = ok[np.argsort(ac[ok] * N + bv[e1[ok]])]  # by A, then C, then B
    ac, ba, bc = ac[order], ba[order], bc[order]
    # z restricted on neither side; x != y possible
    ra, rc = R.take(ba), R.take(bc)
    zs = Z.take(ac) & ~ra & ~rc
    same = (ra == rc) & ((ra & (ra - 1)) == 0)
    keep = np.flatnonzero((zs != 0) & ~same)
    a, bi, c = ac // N, ba // N, ac % N
    seen: set[frozenset] = set()
    for k in keep.tolist():
        xs, ys = bits(int(ra[k])), bits(int(rc[k]))
        x, y = next((x, y) for x in xs for y in ys if x != y)  # the proof's choice: same targets
        for z in bits(int(zs[k])):
            step = _xy_step(table, int(a[k]), int(bi[k]), int(c[k]), x, y, z)
            if step is not None and step.eliminations not in seen:
                seen.add(step.eliminations)
                yield step


def _blossom_step(table: AlsTable, stem: int, petals: dict[int, list[int]], z: int) -> Step | None:
    """Death-blossom step: z leaves each live z that, per stem digit d, sees all z of one of `petals[d]`."""
    grid = table.grid
    g = grid.geometry
    ds = sorted(petals)
    targets = table.digit_cells[z]
    for d in ds:
        reach = 0
        for p in petals[d]:
            reach |= table.set(p).seeall[z]
        targets &= reach
    if not targets:
        return None
    # the proof reaches each target through the first petal per d that it sees (two petals
    # of one d may share a place, and a proof graph holds one edge per pair of literals)
    use = {t: {d: next(p for p in petals[d] if table.set(p).seeall[z] >> t & 1) for d in ds}
           for t in _cells_of(targets)}
    used = {d: [p for p in petals[d] if any(u[d] == p for u in use.values())] for d in ds}
    texts = {p: str(table.als(p)) for d in ds for p in used[d]}
    pr = _Proof(grid, stem=str(g.cell(stem)), als=list(dict.fromkeys(texts[p] for d in ds for p in used[d])), z=z + 1)
    prem = [pr.cand(stem, d, on=True, role=Role.PREMISE) for d in ds]
    offs = {}
    for d, lit in zip(ds, prem):
        for p in used[d]:
            offs[d, p] = pr.offs(table.set(p).places[d], d)
            if not all([pr.weak(lit, v) for v in offs[d, p]]):
                return None
    elims = []
    for t, chosen in use.items():
        v = pr.cand(t, z)
        for d, p in chosen.items():
            pr.via_als(offs[d, p], texts[p], v)
        elims.append(_index(g, t, z))
    parts = " | ".join(
        f"{g.cell(stem)}#{d + 1} - " + " & ".join(f"({d + 1}={z + 1}){texts[p]}" for p in used[d]) for d in ds
    )
    return pr.step("death-blossom", prem, elims, parts)


def death_blossoms(grid: Grid, *, max_size: int = ALS_MAX_SIZE, stem_max: int = STEM_MAX) -> Iterator[Step]:
    """Death blossoms: a stem cell and its petal ALSs for each stem candidate (module docstring).

    Yields
    ------
    Step
        Technique ``death-blossom``, one per stem and digit z: it eliminates every
        live z that, for each stem digit d, sees all z of some petal of d (so the
        findings do not depend on the order in which petals are enumerated).

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> all(s.technique == "death-blossom" for s in lg.techniques.als.xz.death_blossoms(grid))
    True
    """
    from linkgraph.techniques.als.kernel import blossom_any  # noqa: PLC0415 (numba: loaded on first use)

    table = als_table(grid, max_size=max_size)
    if not len(table) or not blossom_any(*table.sight, grid.cands, table.seeall, stem_max):
        return  # (the compiled test says whether the tables below find a stem and z: mostly not)
    n = grid.geometry.size
    pops = grid.cands.sum(axis=1)
    # petals: (stem s, digit d, set i), by s, d, i: the stem holds d, and every d of set i sees it
    d, i, s = table.sight
    ok = (pops[s] >= 2) & (pops[s] <= stem_max)
    d, i, s = d[ok], i[ok], s[ok]
    order = np.argsort((s * n + d) * len(table) + i)  # (keys are unique)
    d, i, s = d[order], i[order], s[order]
    if not len(s):
        return
    # per stem and digit: the cells seeing all z of one of its petals; per stem: AND over its digits
    group = np.flatnonzero(np.concatenate(([True], (s[1:] != s[:-1]) | (d[1:] != d[:-1]))))
    by_set = np.ascontiguousarray(table.seeall.transpose(1, 0, 2))  # (sets, n, words)
    reach = np.bitwise_or.reduceat(by_set.take(i, axis=0), group, axis=0)  # (groups, n, words)
    gs = s[group]
    first = np.flatnonzero(np.concatenate(([True], gs[1:] != gs[:-1])))
    stems = gs[first]
    covered = np.diff(np.append(first, len(gs))) == pops[stems]  # a petal for every stem digit
    targets = np.bitwise_and.reduceat(reach, first, axis=0) & pack(grid.cands.T)[None]  # (stems, n, words)
    hit = targets.any(axis=2) & covered[:, None] & ~grid.cands[stems]  # z not in the stem
    bounds = np.append(group, len(s)).tolist()
    sets = i.tolist()
    seen: set[frozenset] = set()
    for k, z in zip(*np.nonzero(hit)):
        stem, gk = int(stems[k]), int(first[k])
        # every petal holding z that some target sees: a choice by content, not by order
        sees = (table.seeall[z] & targets[k, z]).any(axis=1)  # per set (one without z sees nothing)
        choice = {int(d[bounds[g]]): [p for p in sets[bounds[g]:bounds[g + 1]] if sees[p]]
                  for g in range(gk, gk + int(pops[stem]))}
        step = _blossom_step(table, stem, choice, int(z))
        if step is not None and step.eliminations not in seen:
            seen.add(step.eliminations)
            yield step
