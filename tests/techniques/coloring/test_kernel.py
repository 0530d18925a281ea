"""The colouring tables' compiled part (`techniques.coloring.kernel.color_tables`) against the numpy
code it replaced, kept here as its oracle, on classic and variant positions, with and without 3D
Medusa's cell links."""

from __future__ import annotations

import numpy as np
import pytest

from linkgraph.bitops import pack_columns, unpack
from linkgraph.techniques.coloring.medusa import Colors
from tests.narrowings import narrowings


def tables_numpy(cc: Colors, medusa: bool) -> dict:
    """The former numpy body of `Colors.__init__` after the classes are laid out."""
    g = cc.geometry
    L, nodes, klass, starts, at = cc.L, cc.nodes, cc.klass, cc.starts, cc.at
    nl = len(L)
    C = g.number_of_candidates
    seen = unpack(np.bitwise_or.reduceat(g.sees_words[nodes], starts), C).take(L, axis=1)
    if not medusa:
        seen &= (L % g.size)[None, :] == (nodes[starts] % g.size)[:, None]
    twice = np.zeros(len(starts), dtype=bool)
    np.logical_or.at(twice, klass, seen[klass, at])
    mine = np.zeros_like(seen)
    mine[klass, at] = True
    emptied = np.full(len(starts), -1)
    members = cc.members
    if medusa:
        off = seen | mine.reshape(-1, 2, nl)[:, ::-1].reshape(seen.shape)
        left = pack_columns(~off, pad=False)
        kept = left[members[:, 0]]
        for j in range(1, members.shape[1]):
            kept |= left[members[:, j]]
        occupied = (members < nl).any(axis=1)
        hit = occupied[:, None] & ~unpack(kept, len(starts))
        emptied = np.where(hit.any(axis=0), hit.argmax(axis=0), -1)
    pairs = seen.reshape(-1, 2, nl)
    elim = pairs.all(axis=1) & ~mine.reshape(pairs.shape).any(axis=1)
    failing = (twice | (emptied >= 0)).reshape(-1, 2)
    return {"seen": seen, "mine": mine, "twice": twice, "emptied": emptied, "elim": elim, "failing": failing}


POSITIONS = list(narrowings(seed=24, top95=8, rounds=8, start=False))


@pytest.mark.parametrize("medusa", [True, False])
def test_the_compiled_tables_are_the_numpy_ones(medusa):
    found = {"twice": 0, "emptied": 0, "elim": 0}
    for grid in POSITIONS:
        cc = Colors(grid, medusa=medusa)
        if not cc.cl.clusters:
            continue
        want = tables_numpy(cc, medusa)
        for name, b in want.items():
            a = getattr(cc, name)
            assert a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b), name
        found["twice"] += int(want["twice"].sum())
        found["emptied"] += int((want["emptied"] >= 0).sum())
        found["elim"] += int(want["elim"].sum())
    assert found["twice"] and found["elim"] and (found["emptied"] or not medusa), found
