"""ALS chains: alternating inference chains whose nodes may be almost-locked sets.

An *ALS node* (an almost-locked set A of 2 to `ALS_MAX_SIZE` cells, see
`linkgraph.techniques.alsets`) enters an AIC on one digit x and leaves it on
another digit z: ``... u - (x=z)A - v ...``. The weak link ``u - A`` says
that u ON takes x out of every cell of A (u sees every x of A); A is then
locked on its other digits, so z stands in A (the strong link ``x=z`` inside
A); and the weak link ``A - v`` takes z out of every v that sees all z of A.
Two ALS nodes may follow each other (``(x=z)A - (z=y)B``: every z of B sees
every z of A, the cells apart: a restricted common digit). Everything else is
a grouped AIC (`linkgraph.techniques.aic`): candidates, group nodes, strong
and weak links over sets X. A chain proves that its first or its last node
holds; a candidate seeing both ends is OFF, and a chain from a candidate back
to itself places it.

The net and the search
----------------------
`_als_net` lays out the grouped-AIC net twice: a chain starts in the first
copy, the first ALS it enters moves it to the second, and it may only end in
the second copy or on an ALS node. Each ALS contributes one node per digit
that some live candidate outside it can see entirely (the places of that digit
in A); two nodes of one ALS are strongly linked (never weakly: x in A does not
keep z out). The weak links into and out of ALS nodes run from copy one into
the ALS node and from the ALS node into copy two (plus copy two into ALS nodes,
and ALS to ALS). So every chain found holds at least one ALS node, and plain or
grouped AICs (the rungs below) are never reported again. A chain may also start
on an ALS node (the exit digit's places in A are then the premise, a candidate
or a group node of its house): that covers ALS-XZ, the ALS-XY-wing and their
longer kin. The search, the level-by-level breadth-first search of `aic`
(one bit per start, every start at once), reads chains back shortest first
(an ALS counts two nodes, its entry and its exit digit), then most
eliminations first, each built only when consumed.

Bounds and choices
------------------
ALSs have 2 to `ALS_MAX_SIZE` (4, `linkgraph.als.DEFAULT_ALS_MAX_SIZE`)
cells by default, as for the other ALS rungs: single bivalue cells are already
XY links, and bigger sets are rarely needed while their number (and the net)
grows fast; pass ``max_size`` for more. Chains have at most `aic.MAX_NODES`
links, as AICs. A position without an ALS node returns at once.

What a chain concludes hangs on its two ends alone: every candidate that sees
both ends is eliminated, chain members included (if one is ON on the chain,
the ``-n0`` branch contradicts itself and ``n0`` holds), and a chain from a
one-candidate start (a candidate, or an ALS node whose digit has one place)
back to that candidate ON places it. For each pair of ends the first shortest
chain is read back (predecessors in node order); a literal it meets twice (a
candidate in two ALSs, say) is drawn once, and a chain that turns its start ON
on the way is left to the shorter loop that places it. So the findings do not depend on
how cells and digits are numbered (a Sudoku symmetry maps them onto those of
the moved grid), and one set of eliminations is never yielded twice. An ALS
start's premise group sees a target only through one set X holding both (the
proof's weak link), a little less than "sees every place".

Proofs
------
Chain proofs (``P.graph["kind"] == "chain"``) in the conventions of
`linkgraph.steps`, checked by `linkgraph.verify.check_step`: premises ``+n0``
and ``-n0``; candidates and groups as in `linkgraph.techniques.chainproof`; an
ALS node is the OFF literals of its entry digit's places (each reached by a
weak link, or by an ALS edge from the ALS before it), and ALS edges
(``family="als"``, ``via`` the ALS) from them to each OFF literal the locked
ALS gives (a group after an ALS is written as its member candidates). Graph
attributes: ``chain`` (text, ALS nodes as ``(x=z)r5c12{158}``), ``length``
(nodes, an ALS counting two) and ``als`` (the ALS texts).

References
----------
SudokuWiki "Almost Locked Sets" (ALS chains); HoDoKu "ALS-Chain" and AICs
with ALS nodes; seeds/sudoku-assistant-techniques.txt, "Almost-Locked Sets".

Examples
--------
>>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> step = next(lg.techniques.alschains.als_chains(grid))
>>> step.notation  # the shortest: an ALS-XZ, two ALS nodes
'(3=2)r48c4{237}-(2=3)r7c58{237} => r4c8<>3'
>>> steps = list(lg.techniques.alschains.als_chains(grid))
>>> [s.notation for s in steps if s.proof.graph["length"] == 6][0]  # three ALS nodes: an ALS-XY-wing
'(2=3)r48c4{237}-(3=8)r4c8r5c7{378}-(8=2)r8c47{278} => r2c4<>2, r6c4<>2, r7c5<>2, r8c2<>2'
>>> [s.notation for s in steps if s.placements][0]  # the only 3 of the first ALS comes back ON
'(3=2)r48c4{237}-(2=3)r7c58{237}-r4c8#3=r4c4#3 => r4c4=3'
>>> from linkgraph.verify import check_step
>>> check_step(grid, step) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import networkx as nx
import numpy as np

from linkgraph.grid import Grid
from linkgraph.model import Als, Candidate, Family, Group, LinkKind, Literal, Role
from linkgraph.steps import Step, make_step
from linkgraph.techniques.aic import _grouped_net, _Net, _nonzero2, _popcount, _Search
from linkgraph.techniques.alsets import ALS_MAX_SIZE, AlsTable, als_table
from linkgraph.techniques.chainproof import strong_via, weak_via

__all__ = ["ALS_MAX_SIZE", "als_chains"]


@dataclass
class _AlsNet:
    """The layered net: regular nodes ``[0, M)`` (copy one), ALS nodes ``[M, M + K)``,
    regular nodes ``[M + K, 2M + K)`` (copy two); the first ``M + K`` are the starts."""

    net: _Net  # what the search runs on (links: [v, u] means u -> v)
    base: _Net  # the grouped-AIC net, one copy
    M: int
    K: int
    table: AlsTable
    sets: list[int]  # per ALS node: its set in `table`
    digit: list[int]  # per ALS node (the digit itself)
    start_sees: np.ndarray  # (M + K, words) packed: candidates a start's +literal turns OFF by a weak link
    end_sees: np.ndarray  # (N, words) packed: candidates an end turns OFF
    twin: np.ndarray  # (M + K,) per start of one candidate, that candidate's copy-two node; else -1
    _als: dict[int, Als] = field(default_factory=dict)

    def als(self, j: int) -> Als:
        """The `Als` of ALS node `j` (made on first use)."""
        i = self.sets[j]
        if i not in self._als:
            self._als[i] = self.table.als(i)
        return self._als[i]

    def kind(self, i: int) -> tuple[str, int]:
        """("node", base index) or ("als", ALS node index) of layered node `i`."""
        if i < self.M:
            return "node", i
        if i < self.M + self.K:
            return "als", i - self.M
        return "node", i - self.M - self.K


def _pack_rows(rows: np.ndarray) -> np.ndarray:
    """(R, C) bool -> (R, words) uint64."""
    C = rows.shape[1]
    pad = np.zeros((rows.shape[0], (C + 63) // 64 * 64), dtype=bool)
    pad[:, :C] = rows
    return np.packbits(pad, axis=1, bitorder="little").view(np.uint64)


@lru_cache(maxsize=8)
def _set_rows(g) -> np.ndarray:
    """(sets, candidates) bool: the members of each set X, one row each."""
    return np.ascontiguousarray(g.incidence.T)


def _als_net(grid: Grid, max_size: int = ALS_MAX_SIZE) -> _AlsNet | None:
    """The grouped-AIC net in two copies joined through ALS nodes (see the module docstring);
    None when the grid has no ALS node."""
    g = grid.geometry
    n, ncells = g.size, g.number_of_cells
    live = grid.live
    cands = grid.cands
    table = als_table(grid, max_size=max_size)
    sizes = (table.cells < ncells).sum(axis=1)
    # ALS nodes: per ALS of 2+ cells, each digit some live candidate outside sees entirely
    visible = (table.selfsee[:, None] >> np.arange(n)) & 1 == 1  # (sets, n)
    keep = (sizes >= 2) & (visible.sum(axis=1) >= 2)
    ai, ad = np.nonzero(visible & keep[:, None])
    K = len(ai)
    if K == 0:
        return None
    base = _grouped_net(grid)
    M = len(base.members)
    cell_tab = table.cells[ai]  # (K, w), ncells pads
    ext = np.zeros((ncells + 1, n), dtype=bool)
    ext[:ncells] = cands
    valid = ext[cell_tab, ad[:, None]]  # the ALS cells holding the node's digit
    mem_tab = np.where(valid, cell_tab * n + ad[:, None], -1)
    safe = np.maximum(mem_tab, 0)
    members = [[k for k in row if k >= 0] for row in mem_tab.tolist()]
    cand_digit = np.arange(g.number_of_candidates) % n
    cand_cell = np.arange(g.number_of_candidates) // n
    cellmat = np.zeros((K, ncells + 1), dtype=bool)
    cellmat[np.arange(K)[:, None], cell_tab] = True
    cellmat = cellmat[:, :ncells]  # without the padding column
    in_cells = cellmat[:, cand_cell]  # (K, C): candidate lies in an ALS cell
    # candidates seeing every member of an ALS node, outside its cells, of its digit
    sees_als = np.logical_and.reduce(g.sees[safe] | ~valid[:, :, None], axis=1)
    sees_als &= live[None, :] & ~in_cells & (cand_digit[None, :] == ad[:, None])
    # regular node r -- ALS node a: r of a's digit sees every member of a
    base_digit = np.array([m[0] % n for m in base.members], dtype=np.intp)
    link = np.logical_and.reduce(base.sees_all[:, safe] | ~valid[None, :, :], axis=2)  # (M, K)
    link &= base_digit[:, None] == ad[None, :]
    # ALS -- ALS on one digit: cells apart, every member of one sees every member of the other
    rcc = np.zeros((K, K), dtype=bool)
    for d in np.unique(ad).tolist():
        idx = np.flatnonzero(ad == d)
        sub = np.logical_and.reduce(sees_als[idx][:, safe[idx]] | ~valid[idx][None, :, :], axis=2)
        apart = ~(cellmat[idx].astype(np.int16) @ cellmat[idx].T.astype(np.int16)).astype(bool)
        rcc[np.ix_(idx, idx)] = sub & apart
    same_als = (ai[:, None] == ai[None, :]) & (ad[:, None] != ad[None, :])
    # the layered link matrices
    N = 2 * M + K
    A, B = slice(M, M + K), slice(M + K, N)
    strong = np.zeros((N, N), dtype=bool)
    weak = np.zeros((N, N), dtype=bool)
    strong[:M, :M] = base.strong
    strong[B, B] = base.strong
    strong[A, A] = same_als
    weak[:M, :M] = base.weak
    weak[B, B] = base.weak
    weak[A, :M] = link.T  # copy one -> ALS
    weak[A, B] = link.T  # copy two -> ALS
    weak[B, A] = link  # ALS -> copy two
    weak[A, A] = rcc
    # what a start's +literal turns OFF by one weak link: for an ALS start, the premise is the group of
    # its digit's places, so a candidate sharing one set X with all of them (incidence, not just sight)
    inc = g.incidence
    common = np.logical_and.reduce(inc[safe] | ~valid[:, :, None], axis=1)  # (K, sets); each has its house
    ks, ss = _nonzero2(common)
    start_als = np.logical_or.reduceat(_set_rows(g)[ss], np.searchsorted(ks, np.arange(K)), axis=0)
    start_als &= live[None, :]
    start_als[np.nonzero(valid)[0], mem_tab[valid]] = False
    start_sees = _pack_rows(np.concatenate([base.sees_all, start_als]))
    end_rows = np.concatenate([np.zeros_like(base.sees_all), sees_als, base.sees_all])
    end_sees = _pack_rows(end_rows)
    all_members = [list(m) for m in base.members] + members + [list(m) for m in base.members]
    net = _Net(g, all_members, strong, weak, end_rows)
    # a start of one candidate k (a candidate, or an ALS node whose digit has one place k): reaching k ON
    # in copy two places it
    C = g.number_of_candidates
    single = np.array([m[0] if len(m) == 1 else C for m in base.members], dtype=np.intp)  # C: a group
    node_of = np.full(C + 1, -1, dtype=np.intp)  # the base node of each candidate (C: none)
    node_of[single[single < C]] = np.flatnonzero(single < C)
    one = np.where(valid.sum(axis=1) == 1, mem_tab.max(axis=1), C)
    twin = node_of[np.concatenate([single, one])]
    twin = np.where(twin >= 0, twin + M + K, -1)
    return _AlsNet(net, base, M, K, table, ai.tolist(), [int(d) + 1 for d in ad.tolist()], start_sees, end_sees,
                   twin)


def _items(an: _AlsNet, reached: np.ndarray) -> list[tuple]:
    """The chains ending at one ON level, as ``(key, a, b)``: key (-eliminations, a, 0 for a loop
    else 1, b). Ends are ALS nodes and copy-two nodes; ends with nothing to eliminate are left out."""
    M, K = an.M, an.K
    b_idx, a_idx = _nonzero2(np.ascontiguousarray(reached[M:]))
    b_idx = b_idx + M
    items = []
    twin = an.twin[a_idx] == b_idx
    for a, b in zip(a_idx[twin].tolist(), b_idx[twin].tolist()):
        items.append(((0, a, 0, b), a, b))
    other = ~twin
    a_idx, b_idx = a_idx[other], b_idx[other]
    if len(a_idx):
        counts = _popcount(an.start_sees[a_idx] & an.end_sees[b_idx])
        hit = counts > 0
        for a, b, c in zip(a_idx[hit].tolist(), b_idx[hit].tolist(), counts[hit].tolist()):
            items.append(((-c, a, 1, b), a, b))
    items.sort(key=lambda item: item[0])
    return items


def _path(search: _Search, a: int, b: int, k: int, preds: dict) -> list[int]:
    """Read the chain a ... b back from the levels (b first reached ON at level k); links are
    directed, ``[v, u]`` meaning u -> v. `preds` caches each node's predecessor lists."""
    net = search.net
    path = [b]
    cur = b
    bit, word = np.uint64(a & 63), a >> 6
    while k > 0:
        on = bool(k % 2)
        key = (on, cur)
        if key not in preds:
            preds[key] = np.flatnonzero((net.strong if on else net.weak)[cur])
        u = preds[key]
        hit = (search.history[k - 1][u, word] >> bit) & np.uint64(1)
        cur = int(u[np.argmax(hit)])
        path.append(cur)
        k -= 1
    return path[::-1]


def _family(a: object, b: object, via: str) -> Family:
    if isinstance(a, Group) or isinstance(b, Group):
        return Family.GROUP
    return Family.HOUSE if "#" in via else Family.CELL


class _Builder:
    """The proof graph of one chain; `add` returns False for a literal already drawn (the chain
    then goes on from it, without a second in-edge, which could close a cycle)."""

    def __init__(self, grid: Grid):
        self.grid = grid
        self.g = grid.geometry
        self.P = nx.DiGraph(kind="chain")

    def add(self, lit: Literal, role: Role = Role.INNER) -> bool:
        if lit in self.P:
            return False
        self.P.add_node(lit, role=role)
        return True

    def weak(self, u: Literal, v: Literal) -> None:
        via = weak_via(self.g, u.cand, v.cand)
        self.P.add_edge(u, v, kind=LinkKind.WEAK, family=_family(u.cand, v.cand, via), via=via)

    def via_als(self, sources: list[Literal], als: Als, v: Literal) -> None:
        for u in sources:
            self.P.add_edge(u, v, kind=LinkKind.STRONG, family=Family.ALS, via=str(als))


def _node(g, idx: list[int]) -> Candidate | Group:
    """The candidate or group node of candidate indices `idx` (one digit)."""
    if len(idx) == 1:
        return g.candidate(idx[0])
    n = g.size
    return Group(tuple(g.cell(k // n) for k in idx), idx[0] % n + 1)


def _cands(node: Candidate | Group) -> list[Candidate]:
    return list(node.candidates) if isinstance(node, Group) else [node]


def _step(grid: Grid, an: _AlsNet, path: list[int], technique: str) -> Step | None:
    """Build the Step of the chain `path` (layered node indices), or None when it cannot be drawn
    as a chain (a repeated literal) or eliminates nothing."""
    g = grid.geometry
    live = grid.live
    b = _Builder(grid)
    kinds = [an.kind(i) for i in path]
    loop = an.twin[path[0]] == path[-1]
    tokens: list[str] = []
    used: list[str] = []
    # start
    kind, j = kinds[0]
    if kind == "node":
        n0 = an.base.node(j)
        tokens.append(str(n0))
    else:
        n0 = _node(g, an.net.members[path[0]])
    start_on, start_off = Literal(n0, on=True), Literal(n0, on=False)
    b.add(start_on, Role.PREMISE)
    b.add(start_off, Role.PREMISE)
    cur, mode, prev_node = [start_off], ("off" if kind == "node" else "entry"), n0
    for pos in range(1, len(path)):
        kind, j = kinds[pos]
        on = pos % 2 == 1
        link = "=" if on else "-"
        if kind == "node":
            node = an.base.node(j)
            tokens.append(link + str(node))
            if on:  # strong link from the OFF literals of the regular node before
                lit = Literal(node, on=True)
                closing = loop and pos == len(path) - 1
                if lit == start_on and not closing:
                    return None  # the chain places n0 on its way: the shorter loop says so
                if closing or b.add(lit):
                    via = strong_via(g, live, prev_node, node)
                    for u in cur:
                        b.P.add_edge(u, lit, kind=LinkKind.STRONG, family=_family(u.cand, node, via), via=via)
                cur, mode = [lit], "on"
            else:
                if mode == "on":
                    lits = [Literal(node, on=False)]
                else:  # after an ALS: its member candidates, each by ALS edges
                    lits = [Literal(c, on=False) for c in _cands(node)]
                for lit in lits:
                    if not b.add(lit):
                        continue  # derived before on this chain
                    if mode == "on":
                        b.weak(cur[0], lit)
                    else:
                        b.via_als(cur, mode, lit)
                cur, mode = lits, "off"
            prev_node = node
            continue
        als = an.als(j)
        if on:  # the exit digit: the ALS is locked by the entry literals in `cur`
            text = f"({an.digit[path[pos - 1] - an.M]}={an.digit[j]}){als}"
            if pos == 1:
                tokens.append(text)
            else:
                tokens[-1] = "-" + text
            used.append(str(als))
            mode = als
            continue
        # entering an ALS on its digit: every place OFF
        lits = [Literal(g.candidate(k), on=False) for k in an.net.members[path[pos]]]
        for lit in lits:
            if not b.add(lit):
                continue  # derived before on this chain (another ALS holding it, say)
            if mode == "on":
                b.weak(cur[0], lit)
            else:
                b.via_als(cur, mode, lit)
        tokens.append("-" + str(als))  # replaced by the (x=z) form at the exit
        cur, mode = lits, "entry"
    chain = "".join(tokens)
    P = b.P
    P.graph.update(chain=chain, length=len(path), als=used)
    if loop:
        cand = n0
        P.nodes[start_on]["role"] = Role.CONCLUSION
        notation = f"{chain} => {cand.cell}={cand.digit}"
        return make_step(technique, placements=[cand], premises=(start_off,), proof=P, notation=notation)
    targets = np.flatnonzero(np.unpackbits((an.start_sees[path[0]] & an.end_sees[path[-1]]).view(np.uint8),
                                           bitorder="little")[: g.number_of_candidates])
    elims = []
    for k in targets.tolist():
        cand = g.candidate(k)
        t = Literal(cand, on=False)
        try:
            via = weak_via(g, n0, cand)
        except ValueError:
            continue
        # a candidate on the chain is eliminated too: its -n0 branch already holds -t, or holds +t
        # and then -t (a contradiction, so n0 is ON, and t sees n0)
        inner = t in P
        if inner:
            P.nodes[t]["role"] = Role.CONCLUSION
        else:
            b.add(t, Role.CONCLUSION)
            if mode == "on":
                b.weak(cur[0], t)
            else:
                b.via_als(cur, mode, t)
        P.add_edge(start_on, t, kind=LinkKind.WEAK, family=_family(n0, cand, via), via=via)
        elims.append(cand)
    if not elims:
        return None
    notation = chain + " => " + ", ".join(f"{c.cell}<>{c.digit}" for c in sorted(elims))
    return make_step(technique, eliminations=elims, premises=(start_on, start_off), proof=P, notation=notation)


def als_chains(grid: Grid, *, max_size: int = ALS_MAX_SIZE) -> Iterator[Step]:
    """Yield AICs holding at least one ALS node, shortest first, then most eliminations first.

    Parameters
    ----------
    grid : Grid
        The candidate state to search.
    max_size : int, optional
        Largest ALS in cells (default `ALS_MAX_SIZE`, 4); ALSs have 2 cells at least.

    Yields
    ------
    Step
        Technique ``als-chain``: eliminations seeing both ends, or the placement
        of a candidate the chain leads back to; never the same eliminations twice.

    Raises
    ------
    OptionError
        For a `max_size` that is not a whole number >= 1.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = next(lg.techniques.alschains.als_chains(grid))
    >>> step.technique, step.proof.graph["kind"], step.proof.graph["als"], step.proof.graph["length"]
    ('als-chain', 'chain', ['r48c4{237}', 'r7c58{237}'], 4)
    """
    an = _als_net(grid, max_size)
    if an is None:
        return
    search = _Search(an.net, starts=an.M + an.K)
    tried: set[object] = set()  # the candidates seeing both ends (packed), or the loop's start
    preds: dict = {}
    level = 0
    while search.alive:
        reached = search.advance()
        level += 1
        if reached is None or not len(reached):
            continue
        for _, a, b in _items(an, reached):
            # the conclusions hang on the ends alone, not on the chain read back between them
            # (a chain that cannot be drawn leaves them to the next chain with the same ends' sight)
            done = b if b == an.twin[a] else (an.start_sees[a] & an.end_sees[b]).tobytes()
            if done in tried:
                continue
            step = _step(grid, an, _path(search, a, b, level, preds), "als-chain")
            if step is not None:
                tried.add(done)
                yield step
