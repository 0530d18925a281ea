"""The oracle's oracle: the pure Python exact-cover search that `linkgraph.oracle` replaced.

`linkgraph.oracle` is compiled (numba) and adds the box-line rule at each node; this is
the search it replaced, as it was (Python ints as bitsets, naked and hidden singles,
branching on the open set with the fewest live members), kept here only as the reference
that tests/test_oracle.py compares the compiled search with. It is slow on big grids
(minutes on some 25x25 puzzles) but short enough to read and trust.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

import linkgraph as lg

__all__ = ["solutions"]


@lru_cache(maxsize=8)
def _tables(g) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(members of each set X, candidates each candidate kills, sets each candidate covers), as bitsets."""
    members = [0] * g.number_of_sets
    covers = [0] * g.number_of_candidates
    for s, row in enumerate(g.set_members):
        for k in row:
            members[s] |= 1 << int(k)
            covers[int(k)] |= 1 << s
    kills = [0] * g.number_of_candidates
    for k in range(g.number_of_candidates):
        for s in g.cand_sets[k]:
            kills[k] |= members[int(s)]
    return tuple(members), tuple(kills), tuple(covers)


def _settle(live: int, chosen: int, open_sets: list[int], members, kills) -> tuple[int, int, list[int], int] | None:
    """Choose every forced candidate until none is left: (live, chosen, open sets, branch).

    None on a contradiction. The branch is the live members (a bitset) of the open set
    with the fewest, ties broken by the most live candidates its members would kill,
    or 0 when every set is covered (a solution).
    """
    while True:
        forced = 0
        fewest = 1 << 30
        ties: list[int] = []
        still_open = []
        for s in open_sets:
            m = live & members[s]
            if m & chosen:
                continue  # covered
            count = m.bit_count()
            still_open.append(s)
            if count <= 1:
                if count == 0:
                    return None
                forced |= m
            elif count <= fewest:
                if count < fewest:
                    fewest, ties = count, [m]
                else:
                    ties.append(m)
        open_sets = still_open
        if not forced:
            break
        while forced:
            bit = forced & -forced
            forced ^= bit
            if not live & bit:
                return None  # two forced candidates of one set
            chosen |= bit
            live &= ~kills[bit.bit_length() - 1] | bit
    branch, most = 0, -1
    for m in ties:
        killed = 0
        rest = m
        while rest:
            bit = rest & -rest
            rest ^= bit
            killed += (kills[bit.bit_length() - 1] & live).bit_count()
        if killed > most:
            branch, most = m, killed
    return live, chosen, open_sets, branch


def _search(live: int, chosen: int, open_sets: list[int], members, kills, limit: int, found: list[int]) -> None:
    settled = _settle(live, chosen, open_sets, members, kills)
    if settled is None:
        return
    live, chosen, open_sets, branch = settled
    if not branch:
        found.append(chosen)
        return
    while branch and len(found) < limit:
        bit = branch & -branch
        branch ^= bit
        _search((live & ~kills[bit.bit_length() - 1]) | bit, chosen | bit, open_sets, members, kills, limit, found)
        live &= ~bit  # the next branches know this candidate is false


def solutions(grid: lg.Grid, *, limit: int = 2) -> list[np.ndarray]:
    """Up to `limit` solutions of `grid`, each an array of one value per cell (from its live candidates)."""
    g = grid.geometry
    members, kills, _ = _tables(g)
    live = int.from_bytes(np.packbits(grid.live, bitorder="little").tobytes(), "little")
    found: list[int] = []
    if limit > 0:
        _search(live, 0, list(range(g.number_of_sets)), members, kills, limit, found)
    n = g.size
    out = []
    for chosen in found:
        bits = np.unpackbits(np.frombuffer(chosen.to_bytes((g.number_of_candidates + 7) // 8, "little"), np.uint8),
                             bitorder="little")[: g.number_of_candidates].reshape(-1, n)
        out.append((bits.argmax(axis=1) + 1).astype(np.int64))
    return out
