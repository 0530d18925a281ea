"""The compiled filters of `se.kernel` against the Python graph walks they replace
(`se.fast.static_starts_reference`, which stays as their oracle), on reduced grids of the
kind a nested chain makes, and on a hand-made grid."""

from __future__ import annotations

import random

import numpy as np

from linkgraph.techniques.se import kernel
from linkgraph.techniques.se.board import Board
from linkgraph.techniques.se.fast import static_starts_reference
from tests.techniques.se.test_fast import _hardest, _path_boards, _reduced


def _flags(board: Board, source: list[int], y: bool, x: bool) -> dict[int, int]:
    f = kernel.static_starts(board.cands, board.count, source, y, x)
    return {int(k): int(f[k]) for k in np.flatnonzero(f)}


def test_static_starts_give_the_python_walks_flags_on_reduced_grids():
    rnd = random.Random(11)
    compared = nonempty = 0
    kinds = 0
    for puzzle, *_ in _hardest()[:6]:
        for source in _path_boards(puzzle, 0, 60)[::10]:
            for _ in range(8):
                reduced, _, _ = _reduced(source, rnd)
                for y, x in ((False, True), (True, False), (True, True)):
                    want = static_starts_reference(reduced, list(source.cands), y, x)
                    assert _flags(reduced, list(source.cands), y, x) == want
                    compared += 1
                    nonempty += bool(want)
                    for f in want.values():
                        kinds |= f
    assert compared > 100 and nonempty > 20, (compared, nonempty)
    assert kinds == kernel.CYCLE | kernel.FROM_ON | kernel.FROM_OFF


def test_static_starts_by_hand():
    # r1c1 = {1,2,3}, r1c2 = r2c1 = r2c2 = {1,2}; no other candidates
    cands = [0] * 81
    cands[0] = 0b1110
    cands[1] = cands[9] = cands[10] = 0b110
    board = Board(list(cands), [0] * 81)
    reduced = board.copy()
    reduced.remove(0, 3)
    # on `board` nothing is new; once 3 leaves r1c1 the rectangle is a Y-cycle through every ON potential
    assert _flags(board, cands, True, False) == {}
    assert _flags(reduced, cands, True, False) == {k: kernel.CYCLE for k in (3, 5, 23, 25, 183, 185, 203, 205)}
    # X-links only: 1 and 2 hold two places in every region before and after, so no strong link is new
    assert _flags(reduced, cands, False, True) == {}
