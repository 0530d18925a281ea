"""Compiled reachability in SE's static links, for the nested chains' filters (numba).

A nested Forcing Chains & Cycles search (`linkgraph.techniques.se.fast.NestedStatic`) runs
on a reduced grid at every quiescence of every premise of levels 2 and 3, and almost always
finds nothing. What decides whether a start can find anything is reachability in the
static links of the reduced grid: whether it reaches a strong link the outer grid lacks,
whether that link reaches its chain end, whether it lies on a cycle of ON potentials. In
Python these graph walks were most of a level-2 or level-3 search; here they are one
compiled pass over arrays per grid and mode.

The links (SE's, as in `linkgraph.techniques.se.chaining.StaticLinks`): an ON potential
turns OFF the other digits of its cell (Y-links, with `y`) and the other places of its digit
in its block, row and column; an OFF potential turns ON the other digit of a cell holding
two (with `y`) and the other place of a digit holding two places in a region (with `x`).
A potential's key is ``(cell * 10 + digit) * 2 + on``.

numba compiles on first use and caches the machine code beside this file (``cache=True``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from linkgraph.techniques.se.board import CELL_REGIONS, HOUSE_CELLS, PEER_CAUSES, REGION_CELLS

__all__ = ["CYCLE", "FROM_OFF", "FROM_ON", "aligned_exclusions", "basic_rules_found", "dynamic_chains",
           "multiple_starts",
           "static_cycles", "static_forcing", "static_starts"]

#: Flags of a start in `static_starts`' output.
CYCLE, FROM_ON, FROM_OFF = 1, 2, 4

_REGION_CELLS = np.array(REGION_CELLS, dtype=np.int64)
_CELL_REGIONS = np.array(CELL_REGIONS, dtype=np.int64)
_HOUSE_CELLS = np.array(HOUSE_CELLS, dtype=np.int64)
_KEYS = 1620


@njit(cache=True, nogil=True)
def _popcount(m):  # pragma: no cover (compiled)
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def _links(cands, count, y, x, region_cells, cell_regions, house_cells):  # pragma: no cover (compiled)
    """The static links as CSR arrays over keys, in SE's order (`StaticLinks`): (start,
    targets, causes), a cause as in `linkgraph.techniques.se.chaining` (0 cell, 1 block, 2 row,
    3 column)."""
    start = np.zeros(_KEYS + 1, dtype=np.int64)
    targets = np.empty(81 * 9 * 30, dtype=np.int64)
    causes = np.empty(81 * 9 * 30, dtype=np.int64)
    n = 0
    for key in range(_KEYS):
        start[key] = n
        cv = key >> 1
        cell = cv // 10
        v = cv % 10
        if cell >= 81 or v == 0:
            continue
        m = cands[cell]
        bit = 1 << v
        if not m & bit:
            continue
        if key & 1:
            if y:
                for w in range(1, 10):
                    if w != v and m >> w & 1:
                        targets[n] = (cell * 10 + w) * 2
                        causes[n] = 0
                        n += 1
            block = cell_regions[cell, 0]
            for i in range(20):
                o = house_cells[cell, i]
                if cands[o] & bit:
                    targets[n] = (o * 10 + v) * 2
                    causes[n] = 1 if cell_regions[o, 0] == block else (2 if o // 9 == cell // 9 else 3)
                    n += 1
        else:
            first = n
            if y and _popcount(m) == 2:
                for w in range(1, 10):
                    if w != v and m >> w & 1:
                        targets[n] = (cell * 10 + w) * 2 + 1
                        causes[n] = 0
                        n += 1
            if x:
                for t in range(3):
                    r = cell_regions[cell, t]
                    if count[r * 10 + v] == 2:
                        for i in range(9):
                            o = region_cells[r, i]
                            if o != cell and cands[o] & bit:
                                q = (o * 10 + v) * 2 + 1
                                dup = False
                                for j in range(first, n):
                                    if targets[j] == q:
                                        dup = True
                                if not dup:
                                    targets[n] = q
                                    causes[n] = t + 1
                                    n += 1
                                break
    start[_KEYS] = n
    return start, targets[:n], causes[:n]


@njit(cache=True, nogil=True)
def _entries(cands, count, source, y, x, region_cells):  # pragma: no cover (compiled)
    """The candidates (``cell * 10 + digit``) of the strong links `source` lacks: a cell holding
    two digits that held more (with `y`), a digit holding two places in a region where it
    held more (with `x`)."""
    out = np.empty(81 * 9 * 3, dtype=np.int64)
    n = 0
    if y:
        for c in range(81):
            m = cands[c]
            if _popcount(m) == 2 and _popcount(source[c]) > 2:
                for v in range(1, 10):
                    if m >> v & 1:
                        out[n] = c * 10 + v
                        n += 1
    if x:
        for r in range(27):
            for v in range(1, 10):
                if count[r * 10 + v] == 2:
                    bit = 1 << v
                    s = 0
                    for i in range(9):
                        if source[region_cells[r, i]] & bit:
                            s += 1
                    if s > 2:
                        for i in range(9):
                            c = region_cells[r, i]
                            if cands[c] & bit:
                                out[n] = c * 10 + v
                                n += 1
    return out[:n]


@njit(cache=True, nogil=True)
def _walk(seen, todo, n, start, targets):  # pragma: no cover (compiled)
    """Mark in `seen` everything reachable from the `n` keys on the stack `todo`."""
    while n:
        n -= 1
        k = todo[n]
        for j in range(start[k], start[k + 1]):
            q = targets[j]
            if not seen[q]:
                seen[q] = True
                todo[n] = q
                n += 1


@njit(cache=True, nogil=True)
def _on_graph(start, targets):  # pragma: no cover (compiled)
    """The graph of ON potentials as CSR arrays: ON a -> ON h when a turns OFF some o that
    turns h on."""
    ostart = np.zeros(_KEYS + 1, dtype=np.int64)
    m = 0
    for k in range(1, _KEYS, 2):
        for j in range(start[k], start[k + 1]):
            o = targets[j]
            m += start[o + 1] - start[o]
    otargets = np.empty(m, dtype=np.int64)
    m = 0
    for k in range(_KEYS):
        ostart[k] = m
        if k & 1:
            for j in range(start[k], start[k + 1]):
                o = targets[j]
                for i in range(start[o], start[o + 1]):
                    otargets[m] = targets[i]
                    m += 1
    ostart[_KEYS] = m
    return ostart, otargets


@njit(cache=True, nogil=True)
def _components(ostart, otargets):  # pragma: no cover (compiled)
    """Tarjan's strongly connected components of the ON graph, iteratively, numbered sinks
    first: (component by key or -1, sizes, count, keys by component, their starts)."""
    index = np.full(_KEYS, -1, dtype=np.int64)
    low = np.zeros(_KEYS, dtype=np.int64)
    comp = np.full(_KEYS, -1, dtype=np.int64)
    on_stack = np.zeros(_KEYS, dtype=np.bool_)
    stack = np.empty(_KEYS, dtype=np.int64)
    work_node = np.empty(_KEYS, dtype=np.int64)
    work_pos = np.empty(_KEYS, dtype=np.int64)
    sizes = np.zeros(_KEYS, dtype=np.int64)
    ncomp = 0
    counter = 0
    sp = 0
    for root in range(1, _KEYS, 2):
        if index[root] >= 0 or ostart[root] == ostart[root + 1]:
            continue
        work_node[0] = root
        work_pos[0] = ostart[root]
        wp = 1
        index[root] = counter
        low[root] = counter
        counter += 1
        stack[sp] = root
        sp += 1
        on_stack[root] = True
        while wp:
            u = work_node[wp - 1]
            i = work_pos[wp - 1]
            if i < ostart[u + 1]:
                work_pos[wp - 1] = i + 1
                v = otargets[i]
                if index[v] < 0:
                    index[v] = counter
                    low[v] = counter
                    counter += 1
                    stack[sp] = v
                    sp += 1
                    on_stack[v] = True
                    work_node[wp] = v
                    work_pos[wp] = ostart[v]
                    wp += 1
                elif on_stack[v] and index[v] < low[u]:
                    low[u] = index[v]
                continue
            wp -= 1
            if wp:
                w = work_node[wp - 1]
                if low[u] < low[w]:
                    low[w] = low[u]
            if low[u] == index[u]:
                while True:
                    sp -= 1
                    v = stack[sp]
                    on_stack[v] = False
                    comp[v] = ncomp
                    sizes[ncomp] += 1
                    if v == u:
                        break
                ncomp += 1
    mstart = np.zeros(ncomp + 1, dtype=np.int64)
    for c in range(ncomp):
        mstart[c + 1] = mstart[c] + sizes[c]
    members = np.empty(max(mstart[ncomp], 1), dtype=np.int64)
    fill = mstart[:ncomp].copy()
    for k in range(_KEYS):
        c = comp[k]
        if c >= 0:
            members[fill[c]] = k
            fill[c] += 1
    return comp, sizes, ncomp, members, mstart


@njit(cache=True, nogil=True)
def _static_starts(cands, count, source, y, x, region_cells, cell_regions, house_cells):  # pragma: no cover
    flags = np.zeros(_KEYS, dtype=np.int8)
    entries = _entries(cands, count, source, y, x, region_cells)
    if entries.shape[0] == 0:
        return flags
    start, targets, _ = _links(cands, count, y, x, region_cells, cell_regions, house_cells)
    # ahead: the keys an ON entry reaches. The static links are closed under contraposition
    # (ON a -> OFF b exactly when ON b -> OFF a, a weak link; OFF a -> ON b exactly when
    # OFF b -> ON a, a strong one), so a key reaches the OFF entry e exactly when ON e
    # reaches its opposite: back, the keys from which an OFF entry is reached, is ahead
    # with every key's state flipped
    todo = np.empty(_KEYS * 2, dtype=np.int64)
    ahead = np.zeros(_KEYS, dtype=np.bool_)
    n = 0
    for e in entries:
        if not ahead[e * 2 + 1]:
            ahead[e * 2 + 1] = True
            todo[n] = e * 2 + 1
            n += 1
    _walk(ahead, todo, n, start, targets)
    back = np.zeros(_KEYS, dtype=np.bool_)
    for k in range(_KEYS):
        back[k] = ahead[k ^ 1]
    ostart, otargets = _on_graph(start, targets)
    comp, sizes, ncomp, members, mstart = _components(ostart, otargets)
    # each component's descendants as bit rows (sinks first, so successors are done before)
    words = (ncomp + 63) // 64
    desc = np.zeros((max(ncomp, 1), max(words, 1)), dtype=np.uint64)
    for c in range(ncomp):
        desc[c, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
        for i in range(mstart[c], mstart[c + 1]):
            k = members[i]
            for j in range(ostart[k], ostart[k + 1]):
                cw = comp[otargets[j]]
                if cw != c:
                    for w in range(words):
                        desc[c, w] |= desc[cw, w]
    # the starts SE's searches can find something from
    for cell in range(81):
        mk = cands[cell]
        card = _popcount(mk)
        if card < 2 or (card > 2 and not x):
            continue
        for v in range(1, 10):
            if not mk >> v & 1:
                continue
            on = (cell * 10 + v) * 2 + 1
            f = 0
            c_on = comp[on]
            if back[on] and ahead[on] and c_on >= 0 and sizes[c_on] > 1:
                f |= 1
            if x and back[on] and ahead[on - 1] and c_on >= 0:
                # an ON potential that turns `on` off is reachable from `on`
                for j in range(start[on], start[on + 1]):
                    t = comp[targets[j] | 1]
                    if t >= 0 and desc[c_on, t >> 6] >> np.uint64(t & 63) & np.uint64(1):
                        f |= 2
                        break
            if x and back[on - 1] and ahead[on] and c_on >= 0:
                # an ON potential that OFF `on - 1` turns on reaches `on`
                for j in range(start[on - 1], start[on]):
                    h = targets[j]
                    if h == on:
                        f |= 4
                        break
                    t = comp[h]
                    if t >= 0 and desc[t, c_on >> 6] >> np.uint64(c_on & 63) & np.uint64(1):
                        f |= 4
                        break
            flags[on] = f
    return flags


def static_starts(cands, count, source, y: bool, x: bool) -> np.ndarray:
    """For every ON key of a candidate of `cands` in a cell of two or more digits (two only
    without `x`), the searches of SE's Forcing Chains & Cycles that can find something on the
    grid `cands` (with its place counts `count`) that they could not on `source`, as flags:
    `CYCLE` (the start lies on a cycle of ON potentials through such a strong link),
    `FROM_ON` and `FROM_OFF` (a forcing chain from the start ON or OFF can pass one and
    reach its end). An int8 array of 1620 flags by key; all zero when `cands` has no strong
    link `source` lacks.

    Examples
    --------
    >>> import numpy as np
    >>> from linkgraph.techniques.se.board import Board
    >>> from linkgraph.techniques.se.kernel import static_starts
    >>> cands = [0] * 81
    >>> cands[0] = cands[1] = cands[9] = cands[10] = 0b110  # digits 1 and 2 in r1c1, r1c2, r2c1, r2c2
    >>> board = Board(cands, [0] * 81)
    >>> source = list(cands)
    >>> source[0] |= 0b1000  # r1c1 held a 3 as well: its strong Y-link is new
    >>> flags = static_starts(board.cands, board.count, source, True, False)
    >>> [int(k) for k in np.flatnonzero(flags)]  # all 8 ON potentials lie on a Y-cycle
    [3, 5, 23, 25, 183, 185, 203, 205]
    >>> from linkgraph.techniques.se.kernel import CYCLE
    >>> set(flags[np.flatnonzero(flags)].tolist()) == {CYCLE}
    True
    """
    return _static_starts(np.asarray(cands, dtype=np.int64), np.asarray(count, dtype=np.int64),
                          np.asarray(source, dtype=np.int64), y, x, _REGION_CELLS, _CELL_REGIONS, _HOUSE_CELLS)


@njit(cache=True, nogil=True)
def _multiple_starts(cands, count, region_cells, cell_regions, house_cells):  # pragma: no cover (compiled)
    cell_ok = np.zeros(81, dtype=np.bool_)
    place_ok = np.zeros(270, dtype=np.bool_)
    start, targets, _ = _links(cands, count, True, True, region_cells, cell_regions, house_cells)
    ostart, otargets = _on_graph(start, targets)
    comp, sizes, ncomp, members, mstart = _components(ostart, otargets)
    kw = (_KEYS + 63) // 64
    one = np.uint64(1)
    # what each component leads to: its members, what they turn off, what its successors lead to
    pots = np.zeros((max(ncomp, 1), kw), dtype=np.uint64)
    for c in range(ncomp):
        for i in range(mstart[c], mstart[c + 1]):
            k = members[i]
            pots[c, k >> 6] |= one << np.uint64(k & 63)
            for j in range(start[k], start[k + 1]):
                o = targets[j]
                pots[c, o >> 6] |= one << np.uint64(o & 63)
            for j in range(ostart[k], ostart[k + 1]):
                cw = comp[otargets[j]]
                if cw != c:
                    for w in range(kw):
                        pots[c, w] |= pots[cw, w]
    # every candidate's closure (ON key -> row)
    closure = np.zeros((_KEYS, kw), dtype=np.uint64)
    for cell in range(81):
        mk = cands[cell]
        for v in range(1, 10):
            if not mk >> v & 1:
                continue
            on = (cell * 10 + v) * 2 + 1
            c = comp[on]
            if c >= 0:
                closure[on] = pots[c]
            else:
                closure[on, on >> 6] |= one << np.uint64(on & 63)
                for j in range(start[on], start[on + 1]):
                    o = targets[j]
                    closure[on, o >> 6] |= one << np.uint64(o & 63)
            if closure[on, (on - 1) >> 6] >> np.uint64((on - 1) & 63) & one:
                return True, cell_ok, place_ok
    acc = np.empty(kw, dtype=np.uint64)
    for cell in range(81):
        mk = cands[cell]
        if _popcount(mk) <= 2:
            continue
        acc[:] = ~np.uint64(0)
        for v in range(1, 10):
            if mk >> v & 1:
                for w in range(kw):
                    acc[w] &= closure[(cell * 10 + v) * 2 + 1, w]
        for w in range(kw):
            if acc[w]:
                cell_ok[cell] = True
                break
    for r in range(27):
        for v in range(1, 10):
            if count[r * 10 + v] < 2:
                continue
            acc[:] = ~np.uint64(0)
            bit = 1 << v
            for i in range(9):
                c = region_cells[r, i]
                if cands[c] & bit:
                    for w in range(kw):
                        acc[w] &= closure[(c * 10 + v) * 2 + 1, w]
            for w in range(kw):
                if acc[w]:
                    place_ok[r * 10 + v] = True
                    break
    return False, cell_ok, place_ok


def multiple_starts(cands, count) -> tuple[bool, np.ndarray, np.ndarray]:
    """Where SE's static Multiple Forcing Chains can find something on the grid `cands` (with
    its place counts `count`), from every candidate's closure in the static links (Y and X):
    ``(absurd, cells, places)``. `absurd`: some candidate's closure holds its own OFF (then
    nothing else is computed); `cells` (81 bools): the cells of three or more digits whose
    digits' closures share a potential; `places` (270 bools at ``region * 10 + digit``): the
    digits of two or more places in a region whose places' closures share one.

    Examples
    --------
    >>> from linkgraph.techniques.se.board import Board
    >>> from linkgraph.techniques.se.kernel import multiple_starts
    >>> cands = [0] * 81
    >>> cands[0] = cands[1] = cands[2] = 0b110  # r1c1, r1c2, r1c3 all {1,2}: 1 in r1c1 ends in 1 out of it
    >>> board = Board(cands, [0] * 81)
    >>> absurd, cells, places = multiple_starts(board.cands, board.count)
    >>> bool(absurd)
    True
    """
    return _multiple_starts(np.asarray(cands, dtype=np.int64), np.asarray(count, dtype=np.int64),
                            _REGION_CELLS, _CELL_REGIONS, _HOUSE_CELLS)


@njit(cache=True, nogil=True)
def _int64s(values):  # pragma: no cover (compiled)
    """A list of int64 as an array (the chain searches' results)."""
    out = np.empty(len(values), dtype=np.int64)
    for i in range(len(values)):
        out[i] = values[i]
    return out


@njit(cache=True, nogil=True)
def _cycle_removes(cands, off, on, par_off, par_on, src, in_chain, marks, house_cells):  # pragma: no cover
    """Whether the cycle closed by OFF `off` (turned off by ON `on`) into ON `src` removes
    anything (`ChainHint` of kind cycle: a candidate outside the chain's cells seen by an ON
    and by an OFF potential of the chain, the source at its start left out)."""
    # the chain from its end: src (ON), off, on, par_off[on], par_on[on], ... down to the source
    n = 0
    chain = np.empty(2 * _KEYS, dtype=np.int64)
    chain[n] = src
    n += 1
    chain[n] = off
    n += 1
    a = on
    while True:
        if par_off[a] < 0:
            break  # a is the source: left out
        chain[n] = a
        n += 1
        chain[n] = par_off[a]
        n += 1
        a = par_on[a]
    for i in range(n):
        in_chain[(chain[i] >> 1) // 10] = True
    found = False
    for i in range(n):
        k = chain[i]
        cell = (k >> 1) // 10
        v = (k >> 1) % 10
        bit = 1 << v
        flag = 1 if k & 1 else 2
        for h in range(20):
            c = house_cells[cell, h]
            if not in_chain[c] and cands[c] & bit:
                marks[c * 10 + v] |= flag
                if marks[c * 10 + v] == 3:
                    found = True
    for i in range(n):
        k = chain[i]
        cell = (k >> 1) // 10
        v = (k >> 1) % 10
        bit = 1 << v
        for h in range(20):
            marks[house_cells[cell, h] * 10 + v] = 0
        in_chain[cell] = False
    return found


@njit(cache=True, nogil=True)
def _static_cycles(cands, count, y, x, srcs, region_cells, cell_regions, house_cells):  # pragma: no cover
    start, targets, causes = _links(cands, count, y, x, region_cells, cell_regions, house_cells)
    par_off = np.full(_KEYS, -1, dtype=np.int64)  # ON key -> the OFF key that turned it on
    par_on = np.zeros(_KEYS, dtype=np.int64)  # ... and that OFF's ON parent
    par_off_cause = np.zeros(_KEYS, dtype=np.int64)
    par_cause = np.zeros(_KEYS, dtype=np.int64)
    to_on = np.zeros(_KEYS, dtype=np.bool_)
    seen = np.empty(_KEYS, dtype=np.int64)
    q_on = np.empty(_KEYS, dtype=np.int64)
    in_chain = np.zeros(81, dtype=np.bool_)
    marks = np.zeros(810, dtype=np.int8)
    cap = 1 << 12
    q_off = np.empty(cap, dtype=np.int64)
    q_par = np.empty(cap, dtype=np.int64)
    q_cause = np.empty(cap, dtype=np.int64)
    out_keys = [np.int64(0) for _ in range(0)]
    out_causes = [np.int64(0) for _ in range(0)]
    out_start = [np.int64(0)]
    out_src = [np.int64(0) for _ in range(0)]
    for s in range(srcs.shape[0]):
        src = srcs[s]
        nseen = 1
        seen[0] = src
        to_on[src] = True
        h_on = t_on = 0
        q_on[t_on] = src
        t_on += 1
        t_off = 0
        length = 0
        while h_on < t_on or t_off:
            length += 1
            t_off = 0
            while h_on < t_on:
                p = q_on[h_on]
                h_on += 1
                for j in range(start[p], start[p + 1]):
                    q = targets[j]
                    # SE's isParent: q is not the OFF of an ON ancestor of p
                    a = p
                    parent = False
                    while par_off[a] >= 0:
                        if par_off[a] == q:
                            parent = True
                            break
                        a = par_on[a]
                    if parent:
                        continue
                    if t_off == cap:
                        cap *= 2
                        q_off2 = np.empty(cap, dtype=np.int64)
                        q_par2 = np.empty(cap, dtype=np.int64)
                        q_cause2 = np.empty(cap, dtype=np.int64)
                        q_off2[:t_off] = q_off[:t_off]
                        q_par2[:t_off] = q_par[:t_off]
                        q_cause2[:t_off] = q_cause[:t_off]
                        q_off, q_par, q_cause = q_off2, q_par2, q_cause2
                    q_off[t_off] = q
                    q_par[t_off] = p
                    q_cause[t_off] = causes[j]
                    t_off += 1
            length += 1
            for i in range(t_off):
                off = q_off[i]
                for j in range(start[off], start[off + 1]):
                    q = targets[j]
                    if length >= 4 and q == src and _cycle_removes(cands, off, q_par[i], par_off, par_on, src,
                                                                   in_chain, marks, house_cells):
                        out_src.append(src)
                        out_keys.append(q)
                        out_causes.append(causes[j])
                        out_keys.append(off)
                        out_causes.append(q_cause[i])
                        a = q_par[i]
                        while True:
                            out_keys.append(a)
                            if par_off[a] < 0:
                                out_causes.append(-1)
                                break
                            out_causes.append(par_cause[a])
                            out_keys.append(par_off[a])
                            out_causes.append(par_off_cause[a])
                            a = par_on[a]
                        out_start.append(len(out_keys))
                    if not to_on[q]:
                        to_on[q] = True
                        seen[nseen] = q
                        nseen += 1
                        q_on[t_on] = q
                        t_on += 1
                        par_off[q] = off
                        par_on[q] = q_par[i]
                        par_off_cause[q] = q_cause[i]
                        par_cause[q] = causes[j]
            t_off_done = t_off
            t_off = 0
            if h_on >= t_on and t_off_done == 0:
                break
        for i in range(nseen):
            k = seen[i]
            to_on[k] = False
            par_off[k] = -1
    return _int64s(out_src), _int64s(out_start), _int64s(out_keys), _int64s(out_causes)


def static_cycles(cands, count, y: bool, x: bool, srcs) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """SE's ``doCycles`` (`linkgraph.techniques.se.chaining.static_cycles`) from each ON key
    of `srcs` in turn, on the static links of `cands` (Y-links with `y`, X-links with `x`):
    every cycle found that removes something (`ChainHint.is_worth`), in SE's order, as
    ``(sources, starts, keys, causes)``: cycle ``i`` starts from ``sources[i]`` and is the
    chain ``keys[starts[i]:starts[i + 1]]`` from its end (the source ON again) back to the
    source, each key with the cause of the link into it (-1 for the source).

    Examples
    --------
    >>> from linkgraph.techniques.se.board import Board
    >>> from linkgraph.techniques.se.kernel import static_cycles
    >>> cands = [0] * 81
    >>> cands[0] = cands[1] = cands[9] = cands[10] = 0b110  # r1c1, r1c2, r2c1, r2c2 all {1,2}
    >>> cands[2] = 0b1010  # r1c3 {1,3}: its 1 is seen by +r1c1#1 and by -r1c2#1
    >>> board = Board(cands, [0] * 81)
    >>> sources, starts, keys, causes = static_cycles(board.cands, board.count, True, False, [3])
    >>> # from its end back: +r1c1#1 (cell) <- -r1c1#2 (block) <- +r1c2#2 (cell) <- -r1c2#1 (block) <- +r1c1#1
    >>> [int(k) for k in keys[starts[0]:starts[1]]], [int(c) for c in causes[starts[0]:starts[1]]]
    ([3, 4, 25, 22, 3], [0, 1, 0, 1, -1])
    >>> len(sources)  # the cycles through r2c1 and r2c2 as well
    3
    >>> cands[2] = cands[9] = cands[10] = 0  # only r1c1 and r1c2 {1,2}: the cycle removes nothing
    >>> board = Board(cands, [0] * 81)
    >>> len(static_cycles(board.cands, board.count, True, False, [3])[0])
    0
    """
    return _static_cycles(np.asarray(cands, dtype=np.int64), np.asarray(count, dtype=np.int64), y, x,
                          np.asarray(srcs, dtype=np.int64), _REGION_CELLS, _CELL_REGIONS, _HOUSE_CELLS)


@njit(cache=True, nogil=True)
def _static_forcing(cands, count, y, srcs, region_cells, cell_regions, house_cells):  # pragma: no cover
    start, targets, causes = _links(cands, count, y, True, region_cells, cell_regions, house_cells)
    parent = np.full(_KEYS, -1, dtype=np.int64)
    cause_of = np.zeros(_KEYS, dtype=np.int64)
    reached = np.zeros(_KEYS, dtype=np.bool_)
    seen = np.empty(_KEYS, dtype=np.int64)
    queue = np.empty(_KEYS, dtype=np.int64)
    out_keys = [np.int64(0) for _ in range(0)]
    out_causes = [np.int64(0) for _ in range(0)]
    out_start = [np.int64(0)]
    out_src = [np.int64(0) for _ in range(0)]
    for s in range(srcs.shape[0]):
        src = srcs[s]
        target = src ^ 1
        reached[src] = True
        seen[0] = src
        nseen = 1
        queue[0] = src
        head = 0
        tail = 1
        done = False
        # breadth first: ON and OFF potentials alternate by layer, so one queue keeps SE's order
        while head < tail and not done:
            p = queue[head]
            head += 1
            for j in range(start[p], start[p + 1]):
                q = targets[j]
                if q == target:
                    out_src.append(src)
                    out_keys.append(q)
                    out_causes.append(causes[j])
                    a = p
                    while True:
                        out_keys.append(a)
                        if parent[a] < 0:
                            out_causes.append(-1)
                            break
                        out_causes.append(cause_of[a])
                        a = parent[a]
                    out_start.append(len(out_keys))
                    done = True
                    break
                if not reached[q]:
                    reached[q] = True
                    seen[nseen] = q
                    nseen += 1
                    parent[q] = p
                    cause_of[q] = causes[j]
                    queue[tail] = q
                    tail += 1
        for i in range(nseen):
            k = seen[i]
            reached[k] = False
            parent[k] = -1
    return _int64s(out_src), _int64s(out_start), _int64s(out_keys), _int64s(out_causes)


def static_forcing(cands, count, y: bool, srcs) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """SE's ``doForcingChains`` (`linkgraph.techniques.se.chaining.static_forcing`, X-links
    on, Y-links with `y`) from each key of `srcs` (ON or OFF) in turn, on the static links of
    `cands`: the forcing chain to the source's opposite, for the sources that have one, in
    the format of `static_cycles`.

    Examples
    --------
    >>> from linkgraph.techniques.se.board import Board
    >>> from linkgraph.techniques.se.kernel import static_forcing
    >>> cands = [0] * 81
    >>> cands[0], cands[1], cands[2] = 0b110, 0b110, 0b1010  # r1c1 {1,2}, r1c2 {1,2}, r1c3 {1,3}
    >>> board = Board(cands, [0] * 81)
    >>> sources, starts, keys, causes = static_forcing(board.cands, board.count, True, [43, 42])  # +-r1c3#1
    >>> # from its end back: -r1c3#1 (block) <- +r1c2#1 (cell) <- -r1c2#2 (block) <- +r1c1#2 (cell) <- -r1c1#1
    >>> # (block) <- +r1c3#1; from -r1c3#1 no chain reaches +r1c3#1
    >>> sources.tolist(), keys[starts[0]:starts[1]].tolist(), causes[starts[0]:starts[1]].tolist()
    ([43], [42, 23, 24, 5, 2, 43], [1, 0, 1, 0, 1, -1])
    """
    return _static_forcing(np.asarray(cands, dtype=np.int64), np.asarray(count, dtype=np.int64), y,
                           np.asarray(srcs, dtype=np.int64), _REGION_CELLS, _CELL_REGIONS, _HOUSE_CELLS)


# ---- dynamic propagation -------------------------------------------------------------------
#
# SE's dynamic ``doChaining`` (`linkgraph.techniques.se.chaining.Chaining.propagate` with
# ``dynamic=True`` and level 0), compiled, keeping SE's order and every parent: the
# potentials of all propagations of one search live in one arena of parallel arrays (key,
# cause, which dict the potential joined, its parents as a slice of `par`), so Python
# builds `Potential` objects only for the chains a hint returns.

_PEER_CELLS = np.array([[o for o, _ in PEER_CAUSES[c]] for c in range(81)], dtype=np.int64)
_PEER_CAUSE = np.array([[k for _, k in PEER_CAUSES[c]] for c in range(81)], dtype=np.int64)
#: What one propagation can add to the arena at most: every key once, one potential more
#: for the contradiction; each with at most 9 parents.
_ROOM = _KEYS + 2
_PAR_ROOM = _ROOM * 10


@njit(cache=True, nogil=True)
def _grown(arr, need):  # pragma: no cover (compiled)
    if need <= arr.shape[0]:
        return arr
    size = arr.shape[0] * 2
    while size < need:
        size *= 2
    out = np.empty(size, dtype=arr.dtype)
    out[:arr.shape[0]] = arr
    return out


@njit(cache=True, nogil=True)
def _dyn_propagate(cands, count, start, cw, cnt, where_on, where_off, a_key, a_cause, a_flag, a_pstart, a_plen,
                   par, n, npar, qon, qoff, ons_key, ons_cause, ons_reg, peer_cells, peer_cause, cell_regions,
                   region_cells):  # pragma: no cover (compiled)
    """One dynamic propagation from the potential `start` (a key) on `cands`, appended to the
    arena from index `n` (parents from `npar`). ``a_flag``: 1 joined ``to_on``, 2 joined
    ``to_off``, 0 the new half of a contradiction. Returns (n, npar, the contradiction's ON
    and OFF arena indices or -1, error): error 1 is SE's "Parent not found"."""
    for c in range(81):
        cw[c] = cands[c]
    for i in range(270):
        cnt[i] = count[i]
    first = n
    a_key[n] = start
    a_cause[n] = -1
    a_pstart[n] = npar
    a_plen[n] = 0
    hon = ton = hoff = toff = 0
    if start & 1:
        a_flag[n] = 1
        where_on[start] = n
        qon[ton] = n
        ton += 1
    else:
        a_flag[n] = 2
        where_off[start] = n
        qoff[toff] = n
        toff += 1
    n += 1
    ab_on = ab_off = -1
    error = 0
    while (hon < ton or hoff < toff) and ab_on < 0 and error == 0:
        if hon < ton:
            p = qon[hon]
            hon += 1
            cv = a_key[p] >> 1
            cell = cv // 10
            value = cv % 10
            m = cw[cell]
            for v in range(1, 10):
                if v != value and m >> v & 1:
                    k = (cell * 10 + v) * 2
                    if where_on[k + 1] >= 0 or where_off[k] < 0:
                        a_key[n] = k
                        a_cause[n] = 0
                        a_pstart[n] = npar
                        a_plen[n] = 1
                        par[npar] = p
                        npar += 1
                        if where_on[k + 1] >= 0:
                            a_flag[n] = 0
                            ab_on = where_on[k + 1]
                            ab_off = n
                            n += 1
                            break
                        a_flag[n] = 2
                        where_off[k] = n
                        qoff[toff] = n
                        toff += 1
                        n += 1
            if ab_on >= 0:
                break
            bit = 1 << value
            for i in range(20):
                c = peer_cells[cell, i]
                if cw[c] & bit:
                    k = (c * 10 + value) * 2
                    if where_on[k + 1] >= 0 or where_off[k] < 0:
                        a_key[n] = k
                        a_cause[n] = peer_cause[cell, i]
                        a_pstart[n] = npar
                        a_plen[n] = 1
                        par[npar] = p
                        npar += 1
                        if where_on[k + 1] >= 0:
                            a_flag[n] = 0
                            ab_on = where_on[k + 1]
                            ab_off = n
                            n += 1
                            break
                        a_flag[n] = 2
                        where_off[k] = n
                        qoff[toff] = n
                        toff += 1
                        n += 1
        else:
            p = qoff[hoff]
            hoff += 1
            cv = a_key[p] >> 1
            cell = cv // 10
            value = cv % 10
            m = cw[cell]
            bit = 1 << value
            nons = 0
            rest = m & (m - 1)
            if rest != 0 and rest & (rest - 1) == 0:  # two digits left
                om = (m ^ bit) if m & bit else (m & -m)
                other = 0
                while om > 1:
                    om >>= 1
                    other += 1
                ons_key[0] = (cell * 10 + other) * 2 + 1
                ons_cause[0] = 0
                ons_reg[0] = -1
                nons = 1
            for t in range(3):
                r = cell_regions[cell, t]
                if cnt[r * 10 + value] == 2:
                    other = region_cells[r, 8]
                    for i in range(9):
                        o = region_cells[r, i]
                        if o != cell and cw[o] & bit:
                            other = o
                            break
                    key = (other * 10 + value) * 2 + 1
                    dup = False
                    for j in range(nons):
                        if ons_key[j] == key:
                            dup = True
                    if not dup:
                        ons_key[nons] = key
                        ons_cause[nons] = t + 1
                        ons_reg[nons] = r
                        nons += 1
            for j in range(nons):
                q = ons_key[j]
                absurd = where_off[q - 1] >= 0
                if not absurd and where_on[q] >= 0:
                    continue
                # the potential with its parents: the OFF one, then the candidates the
                # propagation removed from the cell or region (SE's hidden parents)
                a_key[n] = q
                a_cause[n] = ons_cause[j]
                a_pstart[n] = npar
                par[npar] = p
                npar += 1
                qc = (q >> 1) // 10
                qv = (q >> 1) % 10
                if ons_reg[j] < 0:
                    gone = cands[qc] & ~m
                    for v in range(1, 10):
                        if gone >> v & 1:
                            w = where_off[(qc * 10 + v) * 2]
                            if w < 0:
                                error = 1
                            par[npar] = w
                            npar += 1
                else:
                    r = ons_reg[j]
                    qb = 1 << qv
                    for i in range(9):
                        o = region_cells[r, i]
                        if cands[o] & qb and not cw[o] & qb:
                            w = where_off[(o * 10 + qv) * 2]
                            if w < 0:
                                error = 1
                            par[npar] = w
                            npar += 1
                a_plen[n] = npar - a_pstart[n]
                if absurd:
                    a_flag[n] = 0
                    ab_on = n
                    ab_off = where_off[q - 1]
                    n += 1
                    break
                a_flag[n] = 1
                where_on[q] = n
                qon[ton] = n
                ton += 1
                n += 1
            if m & bit:
                cw[cell] = m & ~bit
                for t in range(3):
                    cnt[cell_regions[cell, t] * 10 + value] -= 1
    for i in range(first, n):
        k = a_key[i]
        where_on[k | 1] = -1
        where_off[k & ~1] = -1
    return n, npar, ab_on, ab_off, error


@njit(cache=True, nogil=True)
def _dynamic_chains(cands, count, peer_cells, peer_cause, cell_regions, region_cells):  # pragma: no cover
    """SE's Dynamic Forcing Chains search (`Chaining._multiple_chains` with ``multiple`` and
    ``dynamic``, level 0): see `dynamic_chains`."""
    cap = 1 << 16
    a_key = np.empty(cap, dtype=np.int64)
    a_cause = np.empty(cap, dtype=np.int64)
    a_flag = np.empty(cap, dtype=np.int64)
    a_pstart = np.empty(cap, dtype=np.int64)
    a_plen = np.empty(cap, dtype=np.int64)
    par = np.empty(cap * 2, dtype=np.int64)
    cw = np.empty(81, dtype=np.int64)
    cnt = np.empty(270, dtype=np.int64)
    where_on = np.full(_KEYS, -1, dtype=np.int64)
    where_off = np.full(_KEYS, -1, dtype=np.int64)
    qon = np.empty(_ROOM, dtype=np.int64)
    qoff = np.empty(_ROOM, dtype=np.int64)
    ons_key = np.empty(4, dtype=np.int64)
    ons_cause = np.empty(4, dtype=np.int64)
    ons_reg = np.empty(4, dtype=np.int64)
    # propagations: arena range and contradiction; ON premises memoised by candidate
    nprops = 0
    pr_first = np.empty(2 * 810 + 1, dtype=np.int64)
    pr_last = np.empty(2 * 810 + 1, dtype=np.int64)
    pr_ab_on = np.empty(2 * 810 + 1, dtype=np.int64)
    pr_ab_off = np.empty(2 * 810 + 1, dtype=np.int64)
    memo = np.full(810, -1, dtype=np.int64)
    table = np.full((10, _KEYS), -1, dtype=np.int64)
    # hints in SE's order of discovery: kind (0 double/contradiction, 1 cell, 2 region), sort
    # key, removed cell and digits, placed cell (-1) and digit, house (-1), digit, source, targets
    h_kind = [np.int64(0) for _ in range(0)]
    h_sort = [np.int64(0) for _ in range(0)]
    h_cell = [np.int64(0) for _ in range(0)]
    h_mask = [np.int64(0) for _ in range(0)]
    h_set = [np.int64(0) for _ in range(0)]
    h_val = [np.int64(0) for _ in range(0)]
    h_house = [np.int64(0) for _ in range(0)]
    h_digit = [np.int64(0) for _ in range(0)]
    h_src = [np.int64(0) for _ in range(0)]
    h_tstart = [np.int64(0)]
    tg = [np.int64(0) for _ in range(0)]
    n = 0
    npar = 0
    error = 0
    vals = np.empty(9, dtype=np.int64)
    vprops = np.empty(9, dtype=np.int64)
    pos = np.empty(9, dtype=np.int64)
    pprops = np.empty(9, dtype=np.int64)
    for cell in range(81):
        m = cands[cell]
        card = _popcount(m)
        if card < 2:
            continue
        nv = 0
        for value in range(1, 10):
            if not m >> value & 1:
                continue
            bit = 1 << value
            vals[nv] = value
            # the ON premise (memoised) and the OFF one
            props = np.empty(2, dtype=np.int64)
            for side in range(2):
                key = (cell * 10 + value) * 2 + 1 - side
                if side == 0 and memo[cell * 10 + value] >= 0:
                    props[0] = memo[cell * 10 + value]
                    continue
                a_key = _grown(a_key, n + _ROOM)
                a_cause = _grown(a_cause, n + _ROOM)
                a_flag = _grown(a_flag, n + _ROOM)
                a_pstart = _grown(a_pstart, n + _ROOM)
                a_plen = _grown(a_plen, n + _ROOM)
                par = _grown(par, npar + _PAR_ROOM)
                first = n
                n, npar, ab_on, ab_off, err = _dyn_propagate(
                    cands, count, key, cw, cnt, where_on, where_off, a_key, a_cause, a_flag, a_pstart, a_plen,
                    par, n, npar, qon, qoff, ons_key, ons_cause, ons_reg, peer_cells, peer_cause, cell_regions,
                    region_cells)
                error |= err
                pr_first[nprops] = first
                pr_last[nprops] = n
                pr_ab_on[nprops] = ab_on
                pr_ab_off[nprops] = ab_off
                props[side] = nprops
                if side == 0:
                    memo[cell * 10 + value] = nprops
                nprops += 1
            pon, poff = props[0], props[1]
            vprops[nv] = pon
            nv += 1
            src_on = pr_first[pon]
            src_off = pr_first[poff]
            if pr_ab_on[pon] >= 0:
                _add(h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src,
                     0, 7, cell, bit, -1, 0, -1, 0, src_on)
                tg.append(pr_ab_on[pon])
                tg.append(pr_ab_off[pon])
                h_tstart.append(len(tg))
            if pr_ab_on[poff] >= 0:
                rem = m & ~bit
                if rem:
                    _add(h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src,
                         0, 7, cell, rem, cell, value, -1, 0, src_off)
                    tg.append(pr_ab_on[poff])
                    tg.append(pr_ab_off[poff])
                    h_tstart.append(len(tg))
            if card >= 3:
                for i in range(pr_first[poff], pr_last[poff]):
                    if a_flag[i] != 0:
                        table[0, a_key[i]] = i
                for flag in (1, 2):
                    for i in range(pr_first[pon], pr_last[pon]):
                        if a_flag[i] != flag:
                            continue
                        k = a_key[i]
                        q = table[0, k]
                        if q < 0:
                            continue
                        qc = (k >> 1) // 10
                        qv = (k >> 1) % 10
                        if flag == 1:
                            rem = cands[qc] & ~(1 << qv)
                            if not rem:
                                continue
                            _add(h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src,
                                 0, 1, qc, rem, qc, qv, -1, 0, src_on)
                        else:
                            _add(h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src,
                                 0, 1, qc, 1 << qv, -1, 0, -1, 0, src_off)
                        tg.append(i)
                        tg.append(q)
                        h_tstart.append(len(tg))
                for i in range(pr_first[poff], pr_last[poff]):
                    table[0, a_key[i]] = -1
            # region chains: the regions where this cell is the digit's first place
            for t in range(3):
                r = cell_regions[cell, t]
                npos = 0
                for i in range(9):
                    o = region_cells[r, i]
                    if cands[o] & bit:
                        pos[npos] = o
                        npos += 1
                if npos < 2 or pos[0] != cell:
                    continue
                for j in range(npos):
                    cv = pos[j] * 10 + value
                    if memo[cv] < 0:
                        a_key = _grown(a_key, n + _ROOM)
                        a_cause = _grown(a_cause, n + _ROOM)
                        a_flag = _grown(a_flag, n + _ROOM)
                        a_pstart = _grown(a_pstart, n + _ROOM)
                        a_plen = _grown(a_plen, n + _ROOM)
                        par = _grown(par, npar + _PAR_ROOM)
                        first = n
                        n, npar, ab_on, ab_off, err = _dyn_propagate(
                            cands, count, cv * 2 + 1, cw, cnt, where_on, where_off, a_key, a_cause, a_flag, a_pstart,
                            a_plen, par, n, npar, qon, qoff, ons_key, ons_cause, ons_reg, peer_cells, peer_cause,
                            cell_regions, region_cells)
                        error |= err
                        pr_first[nprops] = first
                        pr_last[nprops] = n
                        pr_ab_on[nprops] = ab_on
                        pr_ab_off[nprops] = ab_off
                        memo[cv] = nprops
                        nprops += 1
                    pprops[j] = memo[cv]
                _reductions(pprops, npos, pr_first, pr_last, a_key, a_flag, table, cands, 2, r, value,
                            h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src, h_tstart, tg)
        _reductions(vprops, nv, pr_first, pr_last, a_key, a_flag, table, cands, 1, -1, 0,
                    h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src, h_tstart, tg)
    # complexity: distinct potentials among each target's ancestors, summed over targets
    nh = len(h_kind)
    comp = np.zeros(nh, dtype=np.int64)
    stamp = np.zeros(n, dtype=np.int64)
    stack = np.empty(n + 1, dtype=np.int64)
    mark = 0
    for h in range(nh):
        total = 0
        for j in range(h_tstart[h], h_tstart[h + 1]):
            mark += 1
            top = 0
            stack[0] = tg[j]
            top = 1
            stamp[tg[j]] = mark
            while top > 0:
                top -= 1
                i = stack[top]
                total += 1
                for e in range(a_pstart[i], a_pstart[i] + a_plen[i]):
                    u = par[e]
                    if stamp[u] != mark:
                        stamp[u] = mark
                        stack[top] = u
                        top += 1
        comp[h] = total
    # SE's order (rating, which rises with complexity; complexity; kind), the first of each
    # set of eliminations
    order = np.argsort(comp * 8 * (nh + 1) + np.array(h_sort, dtype=np.int64) * (nh + 1)
                       + np.arange(nh), kind="mergesort")
    seen = np.zeros(81 * 1024, dtype=np.bool_)
    kept = [np.int64(0) for _ in range(0)]
    for h in order:
        s = h_cell[h] * 1024 + h_mask[h]
        if not seen[s]:
            seen[s] = True
            kept.append(h)
    nk = len(kept)
    out = np.empty((nk, 11), dtype=np.int64)
    o_tstart = np.empty(nk + 1, dtype=np.int64)
    o_tg = [np.int64(0) for _ in range(0)]
    o_tstart[0] = 0
    for j in range(nk):
        h = kept[j]
        out[j, 0] = h_kind[h]
        out[j, 1] = h_sort[h]
        out[j, 2] = h_cell[h]
        out[j, 3] = h_mask[h]
        out[j, 4] = h_set[h]
        out[j, 5] = h_val[h]
        out[j, 6] = h_house[h]
        out[j, 7] = h_digit[h]
        out[j, 8] = h_src[h]
        out[j, 9] = comp[h]
        out[j, 10] = 0
        for e in range(h_tstart[h], h_tstart[h + 1]):
            o_tg.append(tg[e])
        o_tstart[j + 1] = len(o_tg)
    # the potentials those hints need (chain ends, sources and their ancestors), in arena
    # order: a potential's parents always come before it
    need = np.zeros(n, dtype=np.bool_)
    stack = np.empty(npar + len(o_tg) + nk + 1, dtype=np.int64)
    top = 0
    for j in range(len(o_tg)):
        stack[top] = o_tg[j]
        top += 1
    for j in range(nk):
        if out[j, 8] >= 0:
            stack[top] = out[j, 8]
            top += 1
    while top > 0:
        top -= 1
        i = stack[top]
        if need[i]:
            continue
        need[i] = True
        for e in range(a_pstart[i], a_pstart[i] + a_plen[i]):
            if not need[par[e]]:
                stack[top] = par[e]
                top += 1
    return (error, out, o_tstart, _int64s(o_tg), a_key[:n].copy(), a_cause[:n].copy(), a_pstart[:n].copy(),
            a_plen[:n].copy(), par[:npar].copy(), np.flatnonzero(need))


@njit(cache=True, nogil=True)
def _add(h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src, kind, sort, cell, mask, placed, value,
         house, digit, src):  # pragma: no cover (compiled)
    """One hint of `_dynamic_chains` (its chain ends are added by the caller)."""
    h_kind.append(kind)
    h_sort.append(sort)
    h_cell.append(cell)
    h_mask.append(mask)
    h_set.append(placed)
    h_val.append(value)
    h_house.append(house)
    h_digit.append(digit)
    h_src.append(src)


@njit(cache=True, nogil=True)
def _reductions(props, k, pr_first, pr_last, a_key, a_flag, table, cands, kind, house, digit,
                h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src, h_tstart,
                tg):  # pragma: no cover (compiled)
    """Cell (`kind` 1) or region (2) forcing chains: the potentials every one of the `k`
    premises' propagations `props` reaches, ON ones then OFF ones, in the first's order."""
    for j in range(1, k):
        p = props[j]
        for i in range(pr_first[p], pr_last[p]):
            if a_flag[i] != 0:
                table[j, a_key[i]] = i
    p0 = props[0]
    for flag in (1, 2):
        for i in range(pr_first[p0], pr_last[p0]):
            if a_flag[i] != flag:
                continue
            key = a_key[i]
            ok = True
            for j in range(1, k):
                if table[j, key] < 0:
                    ok = False
                    break
            if not ok:
                continue
            c = (key >> 1) // 10
            v = (key >> 1) % 10
            if flag == 1:
                rem = cands[c] & ~(1 << v)
                if not rem:
                    continue
                _add(h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src,
                     kind, 5 if kind == 1 else 6, c, rem, c, v, house, digit, -1)
            else:
                _add(h_kind, h_sort, h_cell, h_mask, h_set, h_val, h_house, h_digit, h_src,
                     kind, 5 if kind == 1 else 6, c, 1 << v, -1, 0, house, digit, -1)
            tg.append(i)
            for j in range(1, k):
                tg.append(table[j, key])
            h_tstart.append(len(tg))
    for j in range(1, k):
        p = props[j]
        for i in range(pr_first[p], pr_last[p]):
            table[j, a_key[i]] = -1


def dynamic_chains(cands, count):
    """SE's Dynamic Forcing Chains (level 0: `linkgraph.techniques.se.chaining.Chaining` with
    ``multiple=True, dynamic=True``) on `cands`: every premise's propagation in SE's order
    with SE's parents, the contradiction, double, cell and region chains they give, sorted
    as SE sorts them and the first of each set of eliminations kept.

    Returns ``(error, hints, starts, targets, keys, causes, pstart, plen, parents, need)``:
    ``error`` is 1 where SE would fail ("Parent not found"); ``hints[i]`` is (kind: 0
    double or contradiction, 1 cell, 2 region; sort key: 7 contradiction, 1 double; removed
    cell; removed digits mask; placed cell or -1; placed digit; house or -1; digit; source
    potential or -1; complexity; 0) and its chain ends are ``targets[starts[i]:starts[i + 1]]``,
    indices of the potentials ``keys``, ``causes`` (-1 none), whose parents are
    ``parents[pstart[j]:pstart[j] + plen[j]]``; ``need`` lists, in increasing order, the
    potentials the hints' chain ends and sources descend from (a potential's parents always
    have lower indices).

    Examples
    --------
    >>> from linkgraph.techniques.se.board import Board
    >>> from linkgraph.techniques.se.kernel import dynamic_chains
    >>> cands = [0] * 81
    >>> cands[0], cands[1], cands[2] = 0b110, 0b110, 0b110  # r1c1, r1c2, r1c3 all {1,2}
    >>> board = Board(cands, [0] * 81)
    >>> error, hints, starts, targets, keys, *_ = dynamic_chains(board.cands, board.count)
    >>> # r1c1 = 1 and r1c1 = 2 both turn 1 off in r1c3 (2 + 4 potentials): a cell chain
    >>> int(error), hints[0].tolist()
    (0, [1, 5, 2, 2, -1, 0, -1, 0, -1, 6, 0])
    >>> # +r1c1#1 turns 2 on in r1c2 and r1c3, and the first turns the second off: r1c1 is
    >>> # not 1 (ends +r1c3#2 and -r1c3#2, 3 + 4 potentials), sorted after the cheaper chains
    >>> hints[4].tolist(), [int(keys[i]) for i in targets[starts[4]:starts[5]]]
    ([0, 7, 0, 2, -1, 0, -1, 0, 0, 7, 0], [45, 44])
    """
    return _dynamic_chains(np.asarray(cands, dtype=np.int64), np.asarray(count, dtype=np.int64),
                           _PEER_CELLS, _PEER_CAUSE, _CELL_REGIONS, _REGION_CELLS)


# ---- the nested basic rules' existence test ------------------------------------------------

_BLOCK_OF = np.array([CELL_REGIONS[c][0] for c in range(81)], dtype=np.int64)


@njit(cache=True, nogil=True)
def _basic_rules_found(cands, values, region_cells, cell_regions):  # pragma: no cover (compiled)
    found = 0
    # intersections: a digit of a block confined to one row or column that holds it elsewhere,
    # or of a row or column confined to one block that holds it elsewhere
    for r1 in range(27):
        for v in range(1, 10):
            bit = 1 << v
            n = 0
            first = -1
            same_row = same_col = same_block = True
            for i in range(9):
                c = region_cells[r1, i]
                if cands[c] & bit:
                    if first < 0:
                        first = c
                    else:
                        same_row = same_row and c // 9 == first // 9
                        same_col = same_col and c % 9 == first % 9
                        same_block = same_block and cell_regions[c, 0] == cell_regions[first, 0]
                    n += 1
            if n < 2:
                continue
            for t in range(3):
                if r1 < 9:
                    if t == 0 or not (same_row if t == 1 else same_col):
                        continue
                else:
                    if t != 0 or not same_block:
                        continue
                r2 = cell_regions[first, t]
                for i in range(9):
                    c = region_cells[r2, i]
                    if cands[c] & bit and cell_regions[c, 0 if r1 < 9 else (1 if r1 < 18 else 2)] != r1:
                        found |= 1
    # hidden pairs: two digits with the same two places in a region with more than four
    # empty cells, one of those cells holding a third digit; naked pairs: two cells with the
    # same two digits in a region with at least four, another cell holding one of them
    places = np.empty(10, dtype=np.int64)
    for r in range(27):
        empty = 0
        for i in range(9):
            if values[region_cells[r, i]] == 0:
                empty += 1
        if empty > 4 and not found & 2:
            for v in range(1, 10):
                m = 0
                n = 0
                for i in range(9):
                    if cands[region_cells[r, i]] >> v & 1:
                        m |= 1 << i
                        n += 1
                places[v] = m if n == 2 else 0
            for v in range(1, 10):
                if places[v] == 0:
                    continue
                for w in range(v + 1, 10):
                    if places[w] == places[v]:
                        pair = 1 << v | 1 << w
                        for i in range(9):
                            if places[v] >> i & 1 and cands[region_cells[r, i]] & ~pair:
                                found |= 2
        if empty >= 4 and not found & 4:
            for i in range(9):
                mi = cands[region_cells[r, i]]
                if _popcount(mi) != 2:
                    continue
                for j in range(i + 1, 9):
                    if cands[region_cells[r, j]] == mi:
                        for k in range(9):
                            if k != i and k != j and cands[region_cells[r, k]] & mi:
                                found |= 4
    # X-Wings: a digit with the same two places in two rows (columns) that its columns
    # (rows) hold elsewhere
    placed = np.zeros(10, dtype=np.int64)
    for c in range(81):
        placed[values[c]] += 1
    for base in range(2):
        for v in range(1, 10):
            if placed[v] + 4 > 9 or found & 8:
                continue
            bit = 1 << v
            for a in range(9):
                la = 9 * (1 + base) + a  # base region: rows are 9-17, columns 18-26
                ma = 0
                for i in range(9):
                    if cands[region_cells[la, i]] & bit:
                        ma |= 1 << i
                if _popcount(ma) != 2:
                    continue
                for b in range(a + 1, 9):
                    lb = 9 * (1 + base) + b
                    mb = 0
                    for i in range(9):
                        if cands[region_cells[lb, i]] & bit:
                            mb |= 1 << i
                    if mb != ma:
                        continue
                    for j in range(9):
                        if ma >> j & 1:
                            cover = 9 * (2 - base) + j
                            for i in range(9):
                                if i != a and i != b and cands[region_cells[cover, i]] & bit:
                                    found |= 8
    return found


def basic_rules_found(cands, values) -> int:
    """Which of the rules a nested chain runs first (`linkgraph.techniques.se.bitrules`:
    bit 1 intersections, 2 hidden pairs, 4 naked pairs, 8 X-Wings) have any hint on the
    grid: a rule whose bit is clear has nothing to give, so it need not run.

    Examples
    --------
    >>> from linkgraph.techniques.se.kernel import basic_rules_found
    >>> cands = [0] * 81
    >>> cands[0] = cands[1] = 0b110  # r1c1 = r1c2 = {1,2} and r1c9 = {1,3}: a naked pair, and
    >>> cands[8] = 0b1010            # block 1's 1s all in row 1, which holds 1 elsewhere
    >>> basic_rules_found(cands, [0] * 81)
    5
    >>> cands = [0] * 81  # 5 in r1c1, r1c5, r5c1, r5c5 and r9c1: an X-Wing removing r9c1's
    >>> for c in (0, 4, 36, 40, 72):
    ...     cands[c] = 1 << 5
    >>> basic_rules_found(cands, [0] * 81)
    8
    """
    return int(_basic_rules_found(np.asarray(cands, dtype=np.int64), np.asarray(values, dtype=np.int64),
                                  _REGION_CELLS, _CELL_REGIONS))


# ---- aligned exclusion ---------------------------------------------------------------------

_PEER_MATRIX = np.zeros((81, 81), dtype=np.bool_)
for _c in range(81):
    for _o in HOUSE_CELLS[_c]:
        _PEER_MATRIX[_c, _o] = True


@njit(cache=True, nogil=True)
def _allowed(cands, cells, k, common, ncommon, peer, out):  # pragma: no cover (compiled)
    """The digits of each of the `k` base `cells` in some allowed combination (see
    `linkgraph.techniques.se.rules._exclusion`), into `out`."""
    for j in range(3):
        out[j] = 0
    c0, c1, c2 = cells[0], cells[1], cells[2]
    see01 = peer[c0, c1]
    see02 = k == 3 and peer[c0, c2]
    see12 = k == 3 and peer[c1, c2]
    for d0 in range(1, 10):
        if not cands[c0] >> d0 & 1:
            continue
        for d1 in range(1, 10):
            if not cands[c1] >> d1 & 1 or (see01 and d0 == d1):
                continue
            for d2 in range(1, 10 if k == 3 else 2):
                if k == 3:
                    if not cands[c2] >> d2 & 1 or (see02 and d2 == d0) or (see12 and d2 == d1):
                        continue
                    used = 1 << d0 | 1 << d1 | 1 << d2
                else:
                    used = 1 << d0 | 1 << d1
                ok = True
                for e in range(ncommon):
                    if cands[common[e]] & ~used == 0:
                        ok = False
                        break
                if ok:
                    out[0] |= 1 << d0
                    out[1] |= 1 << d1
                    if k == 3:
                        out[2] |= 1 << d2


@njit(cache=True, nogil=True)
def _aligned_exclusions(cands, degree, house_cells, peer):  # pragma: no cover (compiled)
    index = np.full(81, -1, dtype=np.int64)
    base = np.empty(81, dtype=np.int64)
    excl = np.empty((81, 20), dtype=np.int64)
    nex = np.zeros(81, dtype=np.int64)
    isex = np.zeros((81, 81), dtype=np.bool_)
    nb = 0
    for c in range(81):
        if _popcount(cands[c]) < 2:
            continue
        single = False
        n = 0
        for i in range(20):
            e = house_cells[c, i]
            k = _popcount(cands[e])
            if k == 1:
                single = True
            elif 2 <= k <= degree:
                excl[nb, n] = e
                n += 1
        if not single and n > 0:
            index[c] = nb
            base[nb] = c
            nex[nb] = n
            for i in range(n):
                isex[nb, excl[nb, i]] = True
            nb += 1
    out = [np.int64(0) for _ in range(0)]
    if nb < degree:
        return _int64s(out)
    both = np.empty(20, dtype=np.int64)
    common = np.empty(20, dtype=np.int64)
    cells = np.full(3, 0, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    twin = np.empty(40, dtype=np.int64)
    for i1 in range(1, nb):
        for i0 in range(i1):
            c0, c1 = base[i0], base[i1]
            nboth = 0
            for i in range(nex[i0]):
                e = excl[i0, i]
                if isex[i1, e]:
                    both[nboth] = e
                    nboth += 1
            if nboth < 2:
                continue
            cells[0], cells[1] = c0, c1
            if degree == 2:
                cells[2] = c1
                _allowed(cands, cells, 2, both, nboth, peer, allowed)
                if cands[c0] & ~allowed[0] or cands[c1] & ~allowed[1]:
                    out.append(c0)
                    out.append(c1)
                    out.append(-1)
                    out.append(cands[c0] & ~allowed[0])
                    out.append(cands[c1] & ~allowed[1])
                    out.append(0)
                continue
            # the third cell among the excluders of the first, then of the second
            nt = 0
            for i in range(nex[i0]):
                twin[nt] = excl[i0, i]
                nt += 1
            for i in range(nex[i1]):
                e = excl[i1, i]
                if not isex[i0, e]:
                    twin[nt] = e
                    nt += 1
            for t in range(nt):
                c2 = twin[t]
                i2 = index[c2]
                if i2 < 0 or c2 == c0 or c2 == c1:
                    continue
                ncommon = 0
                for i in range(nboth):
                    if isex[i2, both[i]]:
                        common[ncommon] = both[i]
                        ncommon += 1
                if ncommon < 2:
                    continue
                cells[2] = c2
                _allowed(cands, cells, 3, common, ncommon, peer, allowed)
                if cands[c0] & ~allowed[0] or cands[c1] & ~allowed[1] or cands[c2] & ~allowed[2]:
                    out.append(c0)
                    out.append(c1)
                    out.append(c2)
                    out.append(cands[c0] & ~allowed[0])
                    out.append(cands[c1] & ~allowed[1])
                    out.append(cands[c2] & ~allowed[2])
    return _int64s(out)


def aligned_exclusions(cands, degree: int) -> list[dict[int, int]]:
    """SE's aligned pair (`degree` 2) or triplet (3) exclusion
    (`linkgraph.techniques.se.rules.aligned_exclusions`, its oracle) compiled: the removable
    candidates (cell -> digits, in the base cells' order) of every hint, in SE's order.

    Examples
    --------
    >>> from linkgraph.techniques.se.kernel import aligned_exclusions
    >>> cands = [0] * 81
    >>> cands[0], cands[1] = 0b1110, 0b0110  # r1c1 {1,2,3}, r1c2 {1,2} see r1c9 {1,2}, r1c8 {1,3}
    >>> cands[8], cands[7] = 0b0110, 0b1010
    >>> # r1c1 and r1c2 (they see each other) can only be 3 and 2: 1-2 and 2-1 empty r1c9,
    >>> # 3-1 empties r1c8; so 1 and 2 leave r1c1 and 1 leaves r1c2
    >>> aligned_exclusions(cands, 2)[0]
    {0: 6, 1: 2}
    """
    got = _aligned_exclusions(np.asarray(cands, dtype=np.int64), degree, _HOUSE_CELLS, _PEER_MATRIX).tolist()
    out = []
    for i in range(0, len(got), 6):
        removable = {}
        for c, m in zip(got[i:i + 3], got[i + 3:i + 6]):
            if c >= 0 and m:
                removable[c] = m
        out.append(removable)
    return out
