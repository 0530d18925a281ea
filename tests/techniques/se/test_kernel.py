"""The compiled filters of `se.kernel` against the Python graph walks they replace
(`se.fast.static_starts_reference`, which stays as their oracle), on reduced grids of the
kind a nested chain makes, and on a hand-made grid."""

from __future__ import annotations

import random

import numpy as np

import linkgraph as lg

from linkgraph.oracle import solutions
from linkgraph.techniques.se import bitrules, kernel
from linkgraph.techniques.se.board import Board, bits
from linkgraph.techniques.se.chaining import Chaining, StaticLinks, reversed_cycle, static_cycles, static_forcing
from linkgraph.techniques.se.fast import KernelDynamic, multiple_starts_reference, static_starts_reference
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


def _revealed(puzzle: str, rnd: random.Random, clean: bool = True) -> list[Board]:
    """Grids between `puzzle` and its solution: some of the solution's digits placed (in
    SE's way, peers lose the digit) and the candidates static chains disprove taken out, and
    each of those less one more candidate (often a wrong grid, where closures turn absurd)."""
    grid = lg.Grid.parse(puzzle)
    solution = [int(v) for v in solutions(grid, limit=1)[0]]
    base = Board.from_grid(lg.prepare(grid))
    out = []
    for n in (0, 4, 8, 12, 16, 20, 25):
        board = base.copy()
        for c in rnd.sample([c for c in range(81) if not board.values[c]], n):
            board.place(c, solution[c])
        # take out what a static chain from it contradicts, as SE's earlier rules would have
        for _ in range(200 if clean else 0):
            on = multiple_starts_reference(board)[0]
            if on is None:
                break
            cell, digit = divmod(on >> 1, 10)
            if not board.cands[cell] & (board.cands[cell] - 1):
                break
            board.remove(cell, digit)
        out.append(board)
        live = [(c, d) for c in range(81) for d in bits(board.cands[c]) if board.cands[c] & (board.cands[c] - 1)]
        if live:
            wrong = board.copy()
            wrong.remove(*rnd.choice(live))
            out.append(wrong)
    return out


def test_multiple_starts_give_the_python_closures_on_grids_toward_the_solution():
    rnd = random.Random(12)
    compared = absurd = cells = places = 0
    for puzzle, *_ in _hardest()[:10]:
        for board in _revealed(puzzle, rnd):
            want = multiple_starts_reference(board)
            a, c, p = kernel.multiple_starts(board.cands, board.count)
            want = (want[0] is not None, *want[1:])
            got = (bool(a), [] if a else [int(i) for i in np.flatnonzero(c)],
                   [] if a else [int(i) for i in np.flatnonzero(p)])
            assert got == want
            compared += 1
            absurd += want[0]
            cells += bool(want[1])
            places += bool(want[2])
    assert compared > 100 and absurd > 5 and cells > 5 and places > 10, (compared, absurd, cells, places)


def test_multiple_starts_by_hand():
    # r1c1 = r1c2 = r1c3 = {1,2}: 1 in r1c1 turns 2 on in r1c2 and r1c3, which turns 1 on in r1c3... and off
    cands = [0] * 81
    cands[0] = cands[1] = cands[2] = 0b110
    board = Board(cands, [0] * 81)
    assert kernel.multiple_starts(board.cands, board.count)[0]

    # r1c1 = {1,2,3}, r1c2 = {1,9}, r1c3 = {2,9}, r1c4 = {3,9}, r1c9 = {8,9}: each digit of r1c1 turns a 9 on
    # in r1c2, r1c3 or r1c4, which turns 9 off in r1c9 (and 8 on): r1c1's digits share a consequence.
    # r2c1 = {7,9} gives 9 a third place in block 1 (else 3 in r1c1 would, through r1c4 = 9, empty block 1 of 9)
    cands = [0] * 81
    cands[0], cands[1], cands[2], cands[3], cands[8] = 0b1110, 0b1000000010, 0b1000000100, 0b1000001000, 0b1100000000
    cands[9] = 0b1010000000
    board = Board(cands, [0] * 81)
    a, c, p = kernel.multiple_starts(board.cands, board.count)
    assert not a and np.flatnonzero(c).tolist() == [0]
    assert multiple_starts_reference(board) == (None, [0], [])


def _python_cycles(board: Board, y: bool, x: bool, srcs: list[int]) -> list[tuple]:
    """`chaining.static_cycles` from each source, keeping the cycles `ChainHint` finds worth."""
    links = StaticLinks(board)
    chaining = Chaining()
    out = []
    for src in srcs:
        found: list = []
        static_cycles(links, src, y, x, found)
        for p in found:
            if chaining._cycle_hint(board, p, reversed_cycle(p), y, x).is_worth():
                chain = []
                while True:
                    chain.append((p.key, -1 if p.cause is None else p.cause))
                    if not p.parents:
                        break
                    p = p.parents[0]
                out.append((src, chain))
    return out


def test_static_cycles_give_ses_cycles_with_eliminations():
    rnd = random.Random(13)
    compared = cycles = 0
    for puzzle, *_ in _hardest()[:4]:
        for board in _revealed(puzzle, rnd, clean=False)[::4]:
            srcs = [(c * 10 + v) * 2 + 1 for c in range(81) for v in bits(board.cands[c])
                    if board.cands[c] & (board.cands[c] - 1)][::3]
            for y, x in ((False, True), (True, False), (True, True)):
                want = _python_cycles(board, y, x, srcs)
                sources, starts, keys, causes = kernel.static_cycles(board.cands, board.count, y, x, srcs)
                got = [(int(sources[i]), list(zip(keys[starts[i]:starts[i + 1]].tolist(),
                                                  causes[starts[i]:starts[i + 1]].tolist())))
                       for i in range(len(sources))]
                assert got == want
                compared += 1
                cycles += len(want)
    assert compared > 20 and cycles > 100, (compared, cycles)


def test_static_forcing_gives_ses_forcing_chains():
    rnd = random.Random(14)
    compared = chains = 0
    for puzzle, *_ in _hardest()[:4]:
        for board in _revealed(puzzle, rnd, clean=False)[::4]:
            links = StaticLinks(board)
            srcs = [(c * 10 + v) * 2 + on for c in range(81) for v in bits(board.cands[c]) for on in (1, 0)
                    if board.cands[c] & (board.cands[c] - 1)][::2]
            for y in (False, True):
                want = []
                for src in srcs:
                    found: list = []
                    static_forcing(links, src, y, found, set())
                    for p in found:
                        chain = []
                        while True:
                            chain.append((p.key, -1 if p.cause is None else p.cause))
                            if not p.parents:
                                break
                            p = p.parents[0]
                        want.append((src, chain))
                sources, starts, keys, causes = kernel.static_forcing(board.cands, board.count, y, srcs)
                got = [(int(sources[i]), list(zip(keys[starts[i]:starts[i + 1]].tolist(),
                                                  causes[starts[i]:starts[i + 1]].tolist())))
                       for i in range(len(sources))]
                assert got == want
                compared += 1
                chains += len(want)
    assert compared > 20 and chains > 100, (compared, chains)


def _tree(p, memo: dict) -> tuple:
    """A potential with its cause and, recursively, its parents, in order."""
    got = memo.get(id(p))
    if got is None:
        got = memo[id(p)] = (p.key, p.cause, tuple(_tree(q, memo) for q in p.parents))
    return got


def test_dynamic_chains_give_ses_hints_with_ses_parents():
    """`KernelDynamic` (`kernel.dynamic_chains`) against SE's literal search (`Chaining`,
    multiple and dynamic): same hints in the same order, and every chain end with the same
    potentials, causes and parents (hidden parents included), on reduced grids of a nested
    chain and on grids toward the solution (wrong ones among them)."""
    rnd = random.Random(15)
    boards = []
    for puzzle, *_ in _hardest()[:5]:
        source = _path_boards(puzzle, 0, 60)[-1]
        boards.extend(_reduced(source, rnd)[0] for _ in range(3))
    for puzzle, *_ in _hardest()[4:6]:
        boards.extend(_revealed(puzzle, rnd)[4::3])
    compared = 0
    kinds: set = set()
    for board in boards:
        want = Chaining(multiple=True, dynamic=True).hints(board.copy())
        got = KernelDynamic().hints(board.copy())
        assert [(h.name, h.kind, h.absurd, h.house, h.digit, h.removable, h.cell, h.value, h.complexity,
                 round(h.difficulty, 6)) for h in got] == \
            [(h.name, h.kind, h.absurd, h.house, h.digit, h.removable, h.cell, h.value, h.complexity,
              round(h.difficulty, 6)) for h in want]
        memo_a: dict = {}
        memo_b: dict = {}
        for a, b in zip(got, want):
            assert [_tree(t, memo_a) for t in a.targets] == [_tree(t, memo_b) for t in b.targets]
            assert (a.source is None) == (b.source is None)
            if a.source is not None:
                assert _tree(a.source, memo_a) == _tree(b.source, memo_b)
            kinds.add((a.kind, a.absurd))
        compared += bool(want)
    assert compared > 10, compared
    assert kinds == {("binary", True), ("binary", False), ("cell", False), ("region", False)}, kinds


def test_dynamic_chains_by_hand():
    # r1c1 = r1c2 = {1,2}, r1c3 = {1,2,3}; no other candidates
    cands = [0] * 81
    cands[0] = cands[1] = 0b110
    cands[2] = 0b1110
    board = Board(cands, [0] * 81)
    hints = KernelDynamic().hints(board)
    # cell chains on r1c1: +r1c1#1 turns -r1c3#1 directly (2 potentials); +r1c1#2 through
    # -r1c2#2, +r1c2#1 (4): complexity 6, and the same for 2; both make r1c3 = 3: +r1c1#1,
    # -r1c2#1, +r1c2#2, -r1c3#2, +r1c3#3 with -r1c3#1 as the hidden parent (6), twice: 12.
    # +r1c3#1 is a contradiction (+-r1c2#2) of complexity 7, dropped for the cheaper chain
    got = [(h.name, h.eliminations(), h.complexity) for h in hints]
    assert got == [("Dynamic Cell Forcing Chains", [(2, 1)], 6), ("Dynamic Cell Forcing Chains", [(2, 2)], 6),
                   ("Dynamic Cell Forcing Chains", [(2, 1), (2, 2)], 12)]
    end = hints[2].targets[0]  # +r1c3#3 from +r1c1#1
    assert repr(end) == "+r1c3#3" and [repr(p) for p in end.parents] == ["-r1c3#2", "-r1c3#1"]
    assert [repr(p) for p in end.parents[0].parents] == ["+r1c2#2"]


def test_basic_rules_found_says_which_rules_have_hints():
    """`kernel.basic_rules_found` against the rules it lets the nested chains skip
    (`bitrules`, run on the whole grid): a rule's bit is set exactly when it has a hint."""
    rnd = random.Random(16)
    boards = []
    for puzzle, *_ in _hardest()[:8]:
        source = _path_boards(puzzle, 0, 60)[-1]
        boards.extend(_reduced(source, rnd)[0] for _ in range(12))
        boards.extend(_revealed(puzzle, rnd, clean=False))
    seen = [0, 0, 0, 0]
    for board in boards:
        want = [any(True for _ in rule(board)) for rule in
                (bitrules.lockings, bitrules.hidden_pairs, bitrules.naked_pairs, bitrules.fish2)]
        got = kernel.basic_rules_found(board.cands, board.values)
        assert [bool(got >> i & 1) for i in range(4)] == want
        for i in range(4):
            seen[i] += want[i]
    assert all(10 < n < len(boards) - 10 for n in seen), (seen, len(boards))


def test_aligned_exclusions_give_the_rules_hints():
    """`kernel.aligned_exclusions` against `rules.aligned_exclusions` (pair and triplet) on
    SE's paths through diabolical puzzles and on grids toward the hardest ones' solutions."""
    from linkgraph.io import corpus_path, read_puzzles
    from linkgraph.techniques.se import rules

    rnd = random.Random(17)
    boards = [b for line in read_puzzles(corpus_path("diabolical_sample"), limit=12)
              for b in _path_boards(line.puzzle, 0, 40)[::3]]
    for puzzle, *_ in _hardest()[:6]:
        boards.extend(_revealed(puzzle, rnd, clean=False))
    found = [0, 0]
    for board in boards:
        for degree in (2, 3):
            want = [h.removable for h in rules.aligned_exclusions(board, degree)]
            assert kernel.aligned_exclusions(board.cands, degree) == want
            found[degree - 2] += bool(want)
    assert all(n > 3 for n in found), found
