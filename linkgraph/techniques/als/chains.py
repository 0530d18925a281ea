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
`linkgraph.techniques.als.net.als_net` lays out the grouped-AIC net twice: a chain starts in the first
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

import numpy as np

from linkgraph.bitops import nonzero2, popcount_rows, unpack
from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.aic.search import Search
from linkgraph.techniques.als.chainproof import als_chain_step
from linkgraph.techniques.als.net import AlsNet, als_net
from linkgraph.techniques.als.table import ALS_MAX_SIZE

__all__ = ["ALS_MAX_SIZE", "als_chains"]


def _items(an: AlsNet, reached: np.ndarray) -> list[tuple]:
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
        i, bit = nonzero2(unpack(hit[rows, cols][:, None], 64))  # (flatnonzero is slow on uint8)
        a_idx = cols[i] * 64 + bit
        b_idx = rows[i] + M
        other = an.twin[a_idx] != b_idx
        a_idx, b_idx = a_idx[other], b_idx[other]
        counts = popcount_rows(an.start_sees[a_idx] & an.end_sees[b_idx])
        for a, b, c in zip(a_idx.tolist(), b_idx.tolist(), counts.tolist()):
            items.append(((-c, a, 1, b), a, b))
    if len(items) > 1:
        items.sort(key=lambda item: item[0])
    return items


def _path(search: Search, a: int, b: int, k: int, preds: dict) -> list[int]:
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
    an = als_net(grid, max_size)
    if an is None:
        return
    search = Search(an.net, starts=an.M + an.K, preds=an.preds)
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
            step = als_chain_step(grid, an, _path(search, a, b, level, preds), "als-chain")
            if step is not None:
                tried.add(done)
                yield step
