"""Almost-locked-set techniques: ALS-XZ (singly and doubly linked), ALS-XY-wing, death blossom.

An *almost-locked set* (ALS, `linkgraph.als`) is n cells of one house holding
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
  B and C (x != y), and z common to A and C: ``(z=x)A - (x=y)B - (y=z)C``, so z
  leaves the cells seeing all z of A and C.
- **Death blossom**: a stem cell whose every candidate d is restricted common
  with a petal ALS (every d of the petal sees the stem) and a digit z, not in
  the stem, in every petal: whichever digit the stem takes locks its petal
  onto z, so z leaves the cells seeing all z of every petal.

Proofs
------
The proofs use the project's ALS edges (`linkgraph.steps`: ``family="als"``,
``via`` the ALS; OFF sources lock the ALS, the target is OFF because it sees
every place of its digit in the locked ALS) and set X weak links, and are
checked by `linkgraph.verify.check_step` like chains (``P.graph["kind"]`` is
``"als"``; no length bonus). ALS-XZ and the ALS-XY-wing are the two branches
on ``n0`` = the z places of A (a candidate, or a group node when z has
several places in A): ``+n0`` reaches each target by a weak link, ``-n0``
locks A, which turns x OFF in B, and so on to the target. A doubly linked pair
branches on the x1 places of A. A death blossom branches on every candidate
of the stem (premises ``+stem#d``, exhaustive as a cell set X). Graph
attributes: ``als`` (the ALS texts), ``restricted``, ``z``, ``stem``.

Search bounds and speed
-----------------------
ALSs have 1 to `DEFAULT_ALS_MAX_SIZE` (4) cells, the link graph's default
(see `linkgraph.als` for why). They are enumerated with bit masks (one Python
int of cells per ALS and digit), and every relation between two ALSs is
computed once per call as a numpy matrix product: restricted commons,
overlaps, and for each digit z whether some live z sees every z of both sets.
Pairs and triples are then read off those matrices, so the Python loops run
only over combinations that eliminate something. Death-blossom stems have 2
to 4 candidates. Each finder yields steps lazily, smallest sets first, and
never the same set of eliminations twice in one call.

References
----------
seeds/sudoku-assistant-techniques.txt, "Almost-Locked Sets"; SudokuWiki
"Almost Locked Sets", "Death Blossom"; HoDoKu "ALS-XZ", "ALS-XY-Wing",
"Death Blossom".

Examples
--------
>>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> step = next(lg.techniques.alsets.als_xz(grid))
>>> step.technique
'als-xz'
>>> from linkgraph.verify import check_step
>>> check_step(grid, step) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import networkx as nx
import numpy as np

from linkgraph.als import DEFAULT_ALS_MAX_SIZE, cell_bits, peer_bits
from linkgraph.errors import OptionError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Family, Group, LinkKind, Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.techniques.base import bits
from linkgraph.techniques.chainproof import weak_via

__all__ = ["ALS_MAX_SIZE", "AlsTable", "als_table", "als_xy_wings", "als_xz", "death_blossoms"]

#: Largest ALS (in cells) these techniques use by default.
ALS_MAX_SIZE = DEFAULT_ALS_MAX_SIZE

#: Stem cells with this many candidates at most are tried for a death blossom.
STEM_MAX = 4


@lru_cache(maxsize=8)
def _peers(geometry: Geometry) -> tuple[int, ...]:
    return tuple(peer_bits(geometry))


def _unpack(values: Sequence[int], width: int) -> np.ndarray:
    """Bool matrix (len(values), width) of the bit masks `values`."""
    nbytes = (width + 7) // 8
    raw = b"".join(v.to_bytes(nbytes, "little") for v in values)
    out = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    return out.reshape(len(values), nbytes * 8)[:, :width].astype(bool)


@dataclass(frozen=True, slots=True)
class AlsSet:
    """One ALS as bit masks: its cells, its digits, and per digit (index) its places
    and the cells that see all of them."""

    cells: tuple[int, ...]
    cellmask: int
    digits: int  # bit d-1 for digit d
    places: tuple[int, ...]  # per digit index: cells holding it (0 if absent)
    seeall: tuple[int, ...]  # per digit index: cells seeing every place (0 if absent)


@dataclass(frozen=True, slots=True)
class AlsTable:
    """The ALSs of a grid and their pairwise relations (numpy, indexed like `sets`).

    ``restricted[i, j]``: bit mask of the restricted common digits (0 when the
    sets share a cell); ``zsee[i, j]``: bit mask of the digits z in both sets
    with a live z outside them that sees every z of both.
    """

    grid: Grid
    sets: tuple[AlsSet, ...]
    restricted: np.ndarray
    zsee: np.ndarray
    overlap: np.ndarray
    digit_cells: tuple[int, ...]  # per digit index: live cells

    def als(self, i: int) -> Als:
        """The `Als` value of set `i`."""
        g = self.grid.geometry
        s = self.sets[i]
        return Als(tuple(g.cell(c) for c in s.cells), tuple(d + 1 for d in bits(s.digits)))


def _enumerate(grid: Grid, max_size: int) -> list[AlsSet]:
    """Every ALS of 1..max_size cells, once each, smallest first (then by house, cells)."""
    geo = grid.geometry
    n = geo.size
    peers = _peers(geo)
    weights = 1 << np.arange(n, dtype=np.int64)
    masks = (grid.cands.astype(np.int64) @ weights).tolist()
    dcells = cell_bits(grid.cands)
    found: dict[int, tuple[int, tuple[int, ...], int]] = {}
    for house in geo.house_cells.tolist():
        free = [c for c in house if masks[c] & (masks[c] - 1)]
        stack: list[int] = []

        def grow(start: int, mask: int, cellmask: int) -> None:
            for i in range(start, len(free)):
                c = free[i]
                m = mask | masks[c]
                pop = m.bit_count()
                if pop > max_size + 1:
                    continue
                stack.append(c)
                cm = cellmask | 1 << c
                if pop == len(stack) + 1 and cm not in found:
                    found[cm] = (len(stack), tuple(stack), m)
                if len(stack) < max_size:
                    grow(i + 1, m, cm)
                stack.pop()

        grow(0, 0, 0)
    out = []
    for cm, (_, cells, m) in sorted(found.items(), key=lambda kv: kv[1][0]):
        places = [0] * n
        seeall = [0] * n
        for d in bits(m):
            p = cm & dcells[d]
            places[d] = p
            see = -1
            for c in bits(p):
                see &= peers[c]
            seeall[d] = see
        out.append(AlsSet(cells, cm, m, tuple(places), tuple(seeall)))
    return out


def als_table(grid: Grid, *, max_size: int = ALS_MAX_SIZE) -> AlsTable:
    """Enumerate the ALSs of `grid` and their pairwise relations.

    Parameters
    ----------
    grid : Grid
        The candidate state.
    max_size : int, optional
        Largest ALS in cells (default 4).

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> table = lg.techniques.alsets.als_table(lg.prepare(grid))
    >>> len(table.sets) == table.restricted.shape[0] > 0
    True
    """
    if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1:
        raise OptionError(f"max_size: expected a whole number of cells >= 1, found {max_size!r}")
    geo = grid.geometry
    n, ncells = geo.size, geo.number_of_cells
    sets = _enumerate(grid, max_size)
    dcells = tuple(cell_bits(grid.cands))
    N = len(sets)
    restricted = np.zeros((N, N), dtype=np.int64)
    zsee = np.zeros((N, N), dtype=np.int64)
    if N:
        cellm = _unpack([s.cellmask for s in sets], ncells).astype(np.float32)
        overlap = (cellm @ cellm.T) > 0
        for d in range(n):
            idx = np.array([i for i, s in enumerate(sets) if s.digits >> d & 1], dtype=np.intp)
            if len(idx) < 2:
                continue
            P = _unpack([sets[i].places[d] for i in idx], ncells).astype(np.float32)
            S = _unpack([sets[i].seeall[d] for i in idx], ncells)
            # every place of i outside the cells seeing all places of j: 0 when restricted
            outside = P @ (~S).astype(np.float32).T
            sub = (outside == 0) & ~overlap[np.ix_(idx, idx)]
            restricted[np.ix_(idx, idx)] |= sub.astype(np.int64) << d
            live = _unpack([sets[i].seeall[d] & dcells[d] for i in idx], ncells).astype(np.float32)
            both = (live @ S.astype(np.float32).T) > 0
            zsee[np.ix_(idx, idx)] |= both.astype(np.int64) << d
    else:
        overlap = np.zeros((0, 0), dtype=bool)
    for a in (restricted, zsee, overlap):
        a.setflags(write=False)
    return AlsTable(grid, tuple(sets), restricted, zsee, overlap, dcells)


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


def _cell_text(g: Geometry, s: AlsSet) -> str:
    return Als(tuple(g.cell(c) for c in s.cells), (1,)).cells_text


def _xz_single(table: AlsTable, i: int, j: int, x: int, z: int) -> Step | None:
    """ALS-XZ step: A=i, B=j, restricted x, common z (digit indices)."""
    grid = table.grid
    g = grid.geometry
    A, B = table.sets[i], table.sets[j]
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
    A, B = table.sets[i], table.sets[j]
    a_text, b_text = str(table.als(i)), str(table.als(j))
    dc = table.digit_cells
    pr = _Proof(grid, als=[a_text, b_text], restricted=[x1 + 1, x2 + 1])
    n0 = pr.node(_cells_of(A.places[x1]), x1)
    on, off = pr.lit(n0, True, Role.PREMISE), pr.lit(n0, False, Role.PREMISE)
    # +n0: x1 OFF in B, B locked without x1: x2 OFF in A, A locked without x2
    x1b = pr.offs(B.places[x1], x1)
    for v in x1b:
        pr.weak(on, v)
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
    both = (1 << x1) | (1 << x2)
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


def _pairs(table: AlsTable, mask: np.ndarray) -> list[tuple[int, int]]:
    ii, jj = np.nonzero(np.triu(mask, 1))
    return list(zip(ii.tolist(), jj.tolist()))


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
    >>> all(s.technique == "als-xz" for s in lg.techniques.alsets.als_xz(grid))
    True
    """
    table = als_table(grid, max_size=max_size)
    R, Z = table.restricted, table.zsee
    seen: set[frozenset] = set()
    double = (R & (R - 1)) != 0
    useful = (R != 0) & (double | ((Z & ~R) != 0))
    for i, j in _pairs(table, useful):
        r = int(R[i, j])
        if r & (r - 1):
            x1, x2 = bits(r)[:2]
            steps = [_xz_double(table, i, j, x1, x2)]
        else:
            x = bits(r)[0]
            steps = [_xz_single(table, i, j, x, z) for z in bits(int(Z[i, j]) & ~r)]
        for step in steps:
            if step is not None and step.eliminations not in seen:
                seen.add(step.eliminations)
                yield step


def _xy_step(table: AlsTable, a: int, b: int, c: int, x: int, y: int, z: int) -> Step | None:
    grid = table.grid
    g = grid.geometry
    A, B, C = table.sets[a], table.sets[b], table.sets[c]
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
    >>> all(s.technique == "als-xy-wing" for s in lg.techniques.alsets.als_xy_wings(grid))
    True
    """
    table = als_table(grid, max_size=max_size)
    R, Z, O = table.restricted, table.zsee, table.overlap
    seen: set[frozenset] = set()
    for b in range(len(table.sets)):
        nb = np.flatnonzero(R[b])
        if len(nb) < 2:
            continue
        rb = R[b, nb]
        # A, C: z common with a live z seeing all of both, z restricted with B on neither side
        cand = Z[np.ix_(nb, nb)] & ~(rb[:, None] | rb[None, :])
        cand[O[np.ix_(nb, nb)]] = 0
        for ia, ic in _pairs(table, cand != 0):
            a, c = int(nb[ia]), int(nb[ic])
            xs, ys = bits(int(rb[ia])), bits(int(rb[ic]))
            pick = next(((x, y) for x in xs for y in ys if x != y), None)
            if pick is None:
                continue
            for z in bits(int(cand[ia, ic])):
                step = _xy_step(table, a, b, c, pick[0], pick[1], z)
                if step is not None and step.eliminations not in seen:
                    seen.add(step.eliminations)
                    yield step


def _blossom_step(table: AlsTable, stem: int, petals: dict[int, int], z: int) -> Step | None:
    grid = table.grid
    g = grid.geometry
    targets = table.digit_cells[z]
    for p in petals.values():
        targets &= table.sets[p].seeall[z]
    texts = {d: str(table.als(p)) for d, p in petals.items()}
    pr = _Proof(grid, stem=str(g.cell(stem)), als=[texts[d] for d in sorted(petals)], z=z + 1)
    prem = [pr.cand(stem, d, on=True, role=Role.PREMISE) for d in sorted(petals)]
    offs = {}
    for d, lit in zip(sorted(petals), prem):
        offs[d] = pr.offs(table.sets[petals[d]].places[d], d)
        for v in offs[d]:
            pr.weak(lit, v)
    elims = []
    for t in _cells_of(targets):
        v = pr.cand(t, z)
        for d in sorted(petals):
            pr.via_als(offs[d], texts[d], v)
        elims.append(_index(g, t, z))
    if not elims:
        return None
    parts = " | ".join(f"{g.cell(stem)}#{d + 1} - ({d + 1}={z + 1}){texts[d]}" for d in sorted(petals))
    return pr.step("death-blossom", prem, elims, parts)


def death_blossoms(grid: Grid, *, max_size: int = ALS_MAX_SIZE, stem_max: int = STEM_MAX) -> Iterator[Step]:
    """Death blossoms: a stem cell and one petal ALS per stem candidate (module docstring).

    Yields
    ------
    Step
        Technique ``death-blossom``, one per stem, digit z and choice of petals.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> all(s.technique == "death-blossom" for s in lg.techniques.alsets.death_blossoms(grid))
    True
    """
    table = als_table(grid, max_size=max_size)
    sets = table.sets
    if not sets:
        return
    geo = grid.geometry
    n, ncells = geo.size, geo.number_of_cells
    peers = _peers(geo)
    notpeer = ~_unpack(list(peers), ncells)
    # petal[d][i, s]: every d of set i sees cell s (and s is not in set i)
    cellm = _unpack([s.cellmask for s in sets], ncells)
    petal = []
    for d in range(n):
        P = _unpack([s.places[d] for s in sets], ncells).astype(np.float32)
        has = np.array([s.digits >> d & 1 for s in sets], dtype=bool)
        petal.append(((P @ notpeer.astype(np.float32)) == 0) & has[:, None] & ~cellm)
    masks = (grid.cands.astype(np.int64) @ (1 << np.arange(n, dtype=np.int64))).tolist()
    seen: set[frozenset] = set()
    for stem in range(ncells):
        m = masks[stem]
        ds = bits(m)
        if not 2 <= len(ds) <= stem_max:
            continue
        lists = {d: np.flatnonzero(petal[d][:, stem]).tolist() for d in ds}
        if any(not v for v in lists.values()):
            continue
        for z in range(n):
            if m >> z & 1:
                continue
            zl = {d: [p for p in lists[d] if sets[p].digits >> z & 1] for d in ds}
            if any(not v for v in zl.values()):
                continue
            targets = table.digit_cells[z]
            for d in ds:
                union = 0
                for p in zl[d]:
                    union |= sets[p].seeall[z]
                targets &= union
                if not targets:
                    break
            # one choice of petals per target: the first petal of each digit that it sees
            for t in _cells_of(targets):
                bit = 1 << t
                choice = {d: next(p for p in zl[d] if sets[p].seeall[z] & bit) for d in ds}
                step = _blossom_step(table, stem, choice, z)
                if step is not None and step.eliminations not in seen:
                    seen.add(step.eliminations)
                    yield step
