"""ALS chains: alternating inference chains whose nodes may be almost-locked sets.

An *ALS node* (an almost-locked set A of 2 to `ALS_MAX_SIZE` cells, see
`linkgraph.techniques.als.xz`) enters an AIC on one digit x and leaves it on
another digit z: ``... u - (x=z)A - v ...``. The weak link ``u - A`` says
that u ON takes x out of every cell of A (u sees every x of A); A is then
locked on its other digits, so z stands in A (the strong link ``x=z`` inside
A); and the weak link ``A - v`` takes z out of every v that sees all z of A.
Two ALS nodes may follow each other (``(x=z)A - (z=y)B``: every z of B sees
every z of A, the cells apart: a restricted common digit). Everything else is
a grouped AIC (`linkgraph.techniques.aic.search`): candidates, group nodes, strong
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
ALSs have 2 to `ALS_MAX_SIZE` (4, `linkgraph.graph.als.DEFAULT_ALS_MAX_SIZE`)
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
`linkgraph.steps`, checked by `linkgraph.check.checker.check_step`: premises ``+n0``
and ``-n0``; candidates and groups as in `linkgraph.techniques.chainproof`; an
ALS node is the OFF literals of its entry digit's places (each reached by a
weak link, or by an ALS edge from the ALS before it), and ALS edges
(``family="als"``, ``via`` the ALS) from them to each OFF literal the locked
ALS gives (a group after an ALS is written as its member candidates). Graph
attributes: ``chain`` (text, ALS nodes as ``(x=z)r5c12{158}``), ``length``
(nodes, an ALS counting two) and ``als`` (the ALS texts). The steps are built
in `linkgraph.techniques.als.chainproof`.

References
----------
SudokuWiki "Almost Locked Sets" (ALS chains); HoDoKu "ALS-Chain" and AICs
with ALS nodes; seeds/sudoku-assistant-techniques.txt, "Almost-Locked Sets".

Examples
--------
>>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> step = next(lg.techniques.als.chains.als_chains(grid))
>>> step.notation  # the shortest: an ALS-XZ, two ALS nodes
'(3=2)r48c4{237}-(2=3)r7c58{237} => r4c8<>3'
>>> steps = list(lg.techniques.als.chains.als_chains(grid))
>>> [s.notation for s in steps if s.proof.graph["length"] == 6][0]  # three ALS nodes: an ALS-XY-wing
'(2=3)r48c4{237}-(3=8)r4c8r5c7{378}-(8=2)r8c47{278} => r2c4<>2, r6c4<>2, r7c5<>2, r8c2<>2'
>>> [s.notation for s in steps if s.placements][0]  # the only 3 of the first ALS comes back ON
'(3=2)r48c4{237}-(2=3)r7c58{237}-r4c8#3=r4c4#3 => r4c4=3'
>>> from linkgraph.check.checker import check_step
>>> check_step(grid, step) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from linkgraph.bitops import nonzero2
from linkgraph.grid import Grid
from linkgraph.model import Als
from linkgraph.steps import Step
from linkgraph.techniques.aic.search import _grouped_net, _Net, _popcount, _Search
from linkgraph.techniques.als.chainproof import _step
from linkgraph.techniques.als.table import ALS_MAX_SIZE, AlsTable, als_table
from linkgraph.grid import cached

__all__ = ["ALS_MAX_SIZE", "als_chains"]


@dataclass
class _AlsNet:
    """The layered net: regular nodes ``[0, M)`` (copy one), ALS nodes ``[M, M + K)``,
    regular nodes ``[M + K, 2M + K)`` (copy two); the first ``M + K`` are the starts."""

    net: _Net  # what the search runs on: its members, links as `_Links` (the search reads `preds`)
    preds: dict  # per link kind (True: strong): (targets v, sources u) of every link u -> v, by v then u
    base: _Net  # the grouped-AIC net, one copy
    M: int
    K: int
    table: AlsTable
    sets: list[int]  # per ALS node: its set in `table`
    digit: list[int]  # per ALS node (the digit itself)
    start_sees: np.ndarray  # (M + K, words) packed: candidates a start's +literal turns OFF by a weak link
    end_sees: np.ndarray  # (N, words) packed: candidates an end turns OFF
    twin: np.ndarray  # (M + K,) per start of one candidate, that candidate's copy-two node; else -1
    hits: np.ndarray  # (N, start words) packed: per end, the starts with a candidate seeing both ends
    loops: tuple  # the starts with a twin, their twins, and the word and shift of each start's bit
    _als: dict[int, Als] = field(default_factory=dict)

    def als(self, j: int) -> Als:
        """The `Als` of ALS node `j` (made on first use)."""
        i = self.sets[j]
        if i not in self._als:  # as `AlsTable.als`, without the table's per-digit masks
            g = self.table.grid.geometry
            cells = [c for c in self.table.cells[i].tolist() if c < g.number_of_cells]
            digits = (np.flatnonzero(self.table.has[i]) + 1).tolist()
            self._als[i] = Als(tuple(g.cell(c) for c in cells), tuple(digits))
        return self._als[i]

    def kind(self, i: int) -> tuple[str, int]:
        """("node", base index) or ("als", ALS node index) of layered node `i`."""
        if i < self.M:
            return "node", i
        if i < self.M + self.K:
            return "als", i - self.M
        return "node", i - self.M - self.K


class _Members:
    """The member candidates of the layered nodes, as lists, made when asked for (a chain read back)."""

    def __init__(self, base: list[list[int]], als: np.ndarray):
        self.base, self.als = base, als  # als: (K, width) candidate indices, -1 pads
        self.M, self.K = len(base), len(als)

    def __len__(self) -> int:
        return 2 * self.M + self.K

    def __getitem__(self, i: int) -> list[int]:
        if i < self.M:
            return list(self.base[i])
        if i < self.M + self.K:
            return [k for k in self.als[i - self.M].tolist() if k >= 0]
        return list(self.base[i - self.M - self.K])


class _Links:
    """Links as sorted (v, u) arrays, read like a link matrix: ``links[v, u]`` (u -> v)."""

    def __init__(self, vu: tuple[np.ndarray, np.ndarray], N: int):
        self.key = vu[0] * N + vu[1]
        self.N = N

    def __getitem__(self, vu: tuple[int, int]) -> bool:
        k = vu[0] * self.N + vu[1]
        i = int(np.searchsorted(self.key, k))
        return i < len(self.key) and int(self.key[i]) == k


def _bit_rows(R: int, C: int, parts: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """(R, words) uint64: row r has bit c set for every (r, c) of `parts` (each (rows, columns) arrays)."""
    width = (C + 63) // 64 * 64
    bits = np.zeros(R * width, dtype=bool)
    for r, c in parts:
        bits[r * width + c] = True
    return np.packbits(bits.reshape(R, width), axis=1, bitorder="little").view(np.uint64)


def _pack_rows(rows: np.ndarray) -> np.ndarray:
    """(R, C) bool -> (R, words) uint64."""
    C = rows.shape[1]
    pad = np.zeros((rows.shape[0], (C + 63) // 64 * 64), dtype=bool)
    pad[:, :C] = rows
    return np.packbits(pad, axis=1, bitorder="little").view(np.uint64)


@dataclass
class _BaseParts:
    """What the ALS net takes from the grouped-AIC net of a grid, as arrays (kept per grid)."""

    cells: np.ndarray  # (M, width) the member cells of each node, -1 pads
    digit: np.ndarray  # (M,) the digit (index) of each node
    strong: tuple[np.ndarray, np.ndarray]  # (v, u) of its strong links, by v then u
    weak: tuple[np.ndarray, np.ndarray]
    sees: np.ndarray  # (M, words) packed `sees_all`
    sight: tuple[np.ndarray, np.ndarray]  # (node, candidate) of `sees_all`, by node
    single: np.ndarray  # (M,) the candidate of a one-candidate node; C for a group
    node_of: np.ndarray  # (C + 1,) the node of each candidate; -1 for none (and at C)
    nc: int  # the candidate nodes come first, then the groups


def _base_parts(grid: Grid) -> _BaseParts:
    base = cached("grouped-net", grid, _grouped_net)
    g = grid.geometry
    n, C = g.size, g.number_of_candidates
    table = base.table
    cells = np.where(table >= 0, table // n, -1)
    one = (table >= 0).sum(axis=1) == 1
    single = np.where(one, table[:, 0], C)
    node_of = np.full(C + 1, -1, dtype=np.intp)
    node_of[single[one]] = np.flatnonzero(one)
    return _BaseParts(cells, table[:, 0] % n, base.preds[True], base.preds[False], base.sees_packed,
                      nonzero2(base.sees_all), single, node_of, int(one.sum()))


@lru_cache(maxsize=8)
def _house_rows(g) -> tuple[np.ndarray, np.ndarray]:
    """(cells + 1, houses) bool: the houses of each cell (a padding row of all True); and
    (houses, words) uint64: the cells of each house, packed."""
    inc = np.ones((g.number_of_cells + 1, len(g.house_cells)), dtype=bool)
    inc[:-1] = False
    for h, cells in enumerate(g.house_cells):
        inc[cells, h] = True
    words = _pack_rows(np.ascontiguousarray(inc[:-1].T))
    inc.setflags(write=False)
    words.setflags(write=False)
    return inc, words


def _sorted_links(N: int, parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """(v, u) of the links of `parts` (each (v, u) arrays), by v then u."""
    v = np.concatenate([v for v, _ in parts]).astype(np.int64)
    u = np.concatenate([u for _, u in parts]).astype(np.int64)
    order = np.argsort(v * N + u, kind="stable")  # sorted runs
    return v.take(order), u.take(order)


def _als_net(grid: Grid, max_size: int = ALS_MAX_SIZE) -> _AlsNet | None:
    """The grouped-AIC net in two copies joined through ALS nodes (see the module docstring);
    None when the grid has no ALS node."""
    g = grid.geometry
    n, ncells, C = g.size, g.number_of_cells, g.number_of_candidates
    live = grid.live
    cands = grid.cands
    table = als_table(grid, max_size=max_size)
    sizes = (table.cells < ncells).sum(axis=1)
    # ALS nodes: per ALS of 2+ cells, each digit some live candidate outside sees entirely
    visible = (table.selfsee[:, None] >> np.arange(n)) & 1 == 1  # (sets, n)
    keep = (sizes >= 2) & (visible.sum(axis=1) >= 2)
    ai, ad = nonzero2(visible & keep[:, None])  # by set, then digit
    K = len(ai)
    if K == 0:
        return None
    base = cached("grouped-net", grid, _grouped_net)
    bp = cached("als-chain-base", grid, _base_parts)
    M = len(base.members)
    N = 2 * M + K
    cell_tab = table.cells[ai]  # (K, w), ncells pads
    ext = np.zeros((ncells + 1, n), dtype=bool)
    ext[:ncells] = cands
    valid = ext[cell_tab, ad[:, None]]  # the ALS cells holding the node's digit
    mem_tab = np.where(valid, cell_tab * n + ad[:, None], -1)
    # the cells that see every place of the node's digit in its ALS (none of them a place)
    words = table.seeall.shape[-1]
    seeall = np.unpackbits(table.seeall[ad, ai].view(np.uint8), axis=1, bitorder="little",
                           count=words * 64)[:, :ncells].view(bool)  # (K, cells)
    # ALS node a -> candidates of its digit seeing every member (live, outside its cells): what it turns OFF
    sees_cells = seeall & cands.T[ad]
    ea, ec = nonzero2(sees_cells)
    ec = ec * n + ad[ea]  # (ALS node, candidate) pairs, by node
    # regular node r -- ALS node a: r of a's digit, every member of r sees every member of a
    # (a candidate node: a candidate an ALS node turns OFF; a group node: all its members are)
    nc = bp.nc
    gcells = bp.cells[nc:]
    sees_t = np.ones((ncells + 1, K), dtype=bool)  # (cells + 1, K): row ncells pads
    sees_t[:ncells] = seeall.T
    from_group = bp.digit[nc:, None] == ad[None, :]  # (groups, K)
    for column in np.where(gcells < 0, ncells, gcells).T:
        from_group &= sees_t[column]
    ga, gr = nonzero2(np.ascontiguousarray(from_group.T))  # by node, then group
    la = np.concatenate([ea, ga])
    lr = np.concatenate([bp.node_of[ec], gr + nc])
    # ALS -- ALS on one digit d: a restricted common digit (cells apart, every place of one sees every place
    # of the other)
    node_id = np.full((len(table), n), -1, dtype=np.intp)
    node_id[ai, ad] = np.arange(K)
    held = np.flatnonzero(np.concatenate(([True], ai[1:] != ai[:-1])))
    p, q = nonzero2(table.restricted != 0)  # (a set without a node has no node_id below)
    masks = table.restricted[p, q]
    pi, d = nonzero2((masks[:, None] >> np.arange(n)) & 1 == 1)
    rv, ru = node_id[p[pi], d], node_id[q[pi], d]
    both = (rv >= 0) & (ru >= 0)
    rv, ru = rv[both], ru[both]
    # two digits of one ALS (its nodes are consecutive)
    count = np.diff(np.append(held, K))
    per = np.repeat(count, count)  # nodes of the node's ALS
    lo = np.repeat(held, count)  # its first node
    sv = np.repeat(np.arange(K), per)
    su = np.repeat(lo, per) + (np.arange(per.sum()) - np.repeat(np.cumsum(per) - per, per))
    other = sv != su
    sv, su = sv[other], su[other]
    # the layered links, [v, u] meaning u -> v
    bsv, bsu = bp.strong
    bwv, bwu = bp.weak
    B = M + K
    strong = _sorted_links(N, [(bsv, bsu), (bsv + B, bsu + B), (sv + M, su + M)])
    weak = _sorted_links(N, [(bwv, bwu), (bwv + B, bwu + B),
                             (la + M, lr),  # copy one -> ALS
                             (la + M, lr + B),  # copy two -> ALS
                             (lr + B, la + M),  # ALS -> copy two
                             (rv + M, ru + M)])  # ALS -> ALS
    # what a start's +literal turns OFF by one weak link: for an ALS start, the premise is the group of
    # its digit's places, so a candidate sharing one set X with all of them (incidence, not just sight):
    # the cells of a house holding them all on that digit, and a lone place's own cell
    house_of, house_cells = _house_rows(g)
    safe_cells = np.where(valid, cell_tab, ncells)
    common = house_of[safe_cells[:, 0]]  # (K, houses)
    for k in range(1, safe_cells.shape[1]):
        common = common & house_of[safe_cells[:, k]]
    ck, ch = nonzero2(common)
    in_house = np.zeros((K, house_cells.shape[1]), dtype=np.uint64)
    if len(ck):
        first = np.flatnonzero(np.concatenate(([True], ck[1:] != ck[:-1])))
        in_house[ck[first]] = np.bitwise_or.reduceat(house_cells[ch], first, axis=0)
    in_house = np.unpackbits(in_house.view(np.uint8), axis=1, bitorder="little", count=ncells).view(bool)  # (K, cells)
    place = np.zeros((K, ncells + 1), dtype=bool)
    place[np.arange(K)[:, None], safe_cells] = True
    in_house &= ~place[:, :ncells] & cands.T[ad]  # live, not a place
    sa, sc = nonzero2(in_house)
    sc = sc * n + ad[sa]
    lone = np.flatnonzero(valid.sum(axis=1) == 1)
    lone_cands = safe_cells[lone].min(axis=1)[:, None] * n + np.arange(n)  # (lone, n): the place's cell
    li, ld = nonzero2(live[lone_cands] & (np.arange(n)[None, :] != ad[lone][:, None]))
    sa = np.concatenate([sa, lone[li]])
    sc = np.concatenate([sc, lone_cands[li, ld]])
    start_sees = np.concatenate([bp.sees, _bit_rows(K, C, [(sa, sc)])])
    # per end b, the starts a with a candidate seeing both: the OR over b's sight of the starts seeing it
    by_cand = _bit_rows(C, M + K, [(bp.sight[1], bp.sight[0]), (sc, sa + M)])  # (C, start words)
    ends = np.concatenate([ea + M, bp.sight[0] + B])
    seen = np.concatenate([ec, bp.sight[1]])
    hits = np.zeros((N, by_cand.shape[1]), dtype=np.uint64)
    if len(ends):
        first = np.flatnonzero(np.concatenate(([True], ends[1:] != ends[:-1])))
        hits[ends[first]] = np.bitwise_or.reduceat(by_cand.take(seen, axis=0), first, axis=0)
    end_sees = np.concatenate([np.zeros_like(bp.sees), _bit_rows(K, C, [(ea, ec)]), bp.sees])
    net = _Net(g, _Members(base.members, mem_tab), _Links(strong, N), _Links(weak, N), None)
    # a start of one candidate k (a candidate, or an ALS node whose digit has one place k): reaching k ON
    # in copy two places it
    one = np.where(valid.sum(axis=1) == 1, mem_tab.max(axis=1), C)
    twin = bp.node_of[np.concatenate([bp.single, one])]
    twin = np.where(twin >= 0, twin + M + K, -1)
    looped = np.flatnonzero(twin >= 0)
    return _AlsNet(net, {True: strong, False: weak}, base, M, K, table, ai.tolist(), (ad + 1).tolist(),
                   start_sees, end_sees, twin, hits, (looped, twin[looped], looped >> 6, (looped & 63).astype(np.uint64)))


def _items(an: _AlsNet, reached: np.ndarray) -> list[tuple]:
    """The chains ending at one ON level (`reached`: packed, per node the starts newly reaching it ON),
    as ``(key, a, b)``: key (-eliminations, a, 0 for a loop else 1, b). Ends are ALS nodes and
    copy-two nodes; ends with nothing to eliminate are left out."""
    M = an.M
    items = []
    # loops: a one-candidate start reaching its own candidate ON in copy two
    a_idx, b_idx, word, shift = an.loops
    back = reached[b_idx, word] >> shift & np.uint64(1)
    if back.any():
        back = back == 1
        for a, b in zip(a_idx[back].tolist(), b_idx[back].tolist()):
            items.append(((0, a, 0, b), a, b))
    # the other ends with a candidate seeing both ends
    hit = reached[M:] & an.hits[M:]
    if hit.any():
        rows, cols = nonzero2(hit != 0)
        bits = np.unpackbits(hit[rows, cols].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        i, bit = nonzero2(bits.view(bool))  # (flatnonzero is slow on uint8)
        a_idx = cols[i] * 64 + bit
        b_idx = rows[i] + M
        other = an.twin[a_idx] != b_idx
        a_idx, b_idx = a_idx[other], b_idx[other]
        counts = _popcount(an.start_sees[a_idx] & an.end_sees[b_idx])
        for a, b, c in zip(a_idx.tolist(), b_idx.tolist(), counts.tolist()):
            items.append(((-c, a, 1, b), a, b))
    if len(items) > 1:
        items.sort(key=lambda item: item[0])
    return items


def _path(search: _Search, a: int, b: int, k: int, preds: dict) -> list[int]:
    """Read the chain a ... b back from the levels (b first reached ON at level k): each node's
    first predecessor (in node order) reached from a at the level before. `preds` caches each
    node's predecessor lists."""
    path = [b]
    cur = b
    bit, word = np.uint64(a & 63), a >> 6
    while k > 0:
        on = bool(k % 2)
        key = (on, cur)
        if key not in preds:
            v, u = search.preds[on]
            lo, hi = np.searchsorted(v, [cur, cur + 1])
            preds[key] = u[lo:hi]
        u = preds[key]
        hit = (search.history[k - 1][u, word] >> bit) & np.uint64(1)
        cur = int(u[np.argmax(hit)])
        path.append(cur)
        k -= 1
    return path[::-1]


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
    >>> step = next(lg.techniques.als.chains.als_chains(grid))
    >>> step.technique, step.proof.graph["kind"], step.proof.graph["als"], step.proof.graph["length"]
    ('als-chain', 'chain', ['r48c4{237}', 'r7c58{237}'], 4)
    """
    an = _als_net(grid, max_size)
    if an is None:
        return
    search = _Search(an.net, starts=an.M + an.K, preds=an.preds)
    tried: set[object] = set()  # the candidates seeing both ends (packed), or the loop's start
    preds: dict = {}
    level = 0
    while search.alive:
        reached = search.advance(unpack=False)
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
