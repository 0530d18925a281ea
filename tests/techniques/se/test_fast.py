"""The shared-work engine (`se.fast`, `se.bitrules`) against SE's literal search (`se.chaining`,
`se.rules`), which stays as the oracle: the same hints, in the same order, with the same
ratings and complexities, on positions of SE's own paths and on reduced grids of the kind a
nested chain makes. Aligned exclusion is checked against a brute force written here from the
rule's definition."""

from __future__ import annotations

import itertools
import random

import pytest

import linkgraph as lg
from linkgraph.techniques.se import bitrules, rules
from linkgraph.techniques.se.board import CELL_REGIONS, PEERS, Board, bits
from linkgraph.techniques.se.chaining import Chaining
from linkgraph.techniques.se.fast import FastChaining, NestedStatic, Shared
from linkgraph.techniques.se.solver import first_hint, producers, rate

from linkgraph.io import read_puzzles
from linkgraph.io import corpus_path
from tests.techniques.test_serate import _hardest


def _key(hints) -> list:
    return [(h.name, round(h.difficulty, 6), getattr(h, "complexity", None), h.eliminations(), h.cell, h.value)
            for h in hints]


def _pattern_key(hints) -> list:
    return [(h.name, h.removable, h.bases, h.covers, h.data) for h in hints]


def _path_boards(puzzle: str, max_level: int, limit: int) -> list[Board]:
    """Boards of SE's path (the basic rules only) from `puzzle`, up to `limit` steps."""
    board = Board.from_grid(lg.Grid.parse(puzzle))
    prods = producers(max_level=max_level)
    out = []
    for _ in range(limit):
        out.append(board.copy())
        found = first_hint(board, prods)
        if found is None:
            break
        found[1].apply(board)
    return out


def _reduced(board: Board, rnd: random.Random) -> tuple[Board, set, set]:
    """`board` less some random candidates (never a cell's last), with the changed region
    keys and cells a nested rule is given."""
    reduced = board.copy()
    live = [(c, d) for c in range(81) for d in bits(board.cands[c])]
    for c, d in rnd.sample(live, rnd.randint(1, min(40, len(live)))):
        if reduced.cands[c] & (reduced.cands[c] - 1):
            reduced.remove(c, d)
    cells = {c for c in range(81) if board.cands[c] != reduced.cands[c]}
    keys = {r * 10 + v for c in cells for v in bits(board.cands[c] & ~reduced.cands[c]) for r in CELL_REGIONS[c]}
    return reduced, keys, cells


def test_bit_rules_give_the_literal_rules_hints_on_reduced_grids():
    rnd = random.Random(23)
    boards = [b for p, *_ in _hardest()[:6] for b in _path_boards(p, 0, 8)]
    found = [0, 0, 0, 0]
    for board in boards:
        for _ in range(4):
            reduced, keys, cells = _reduced(board, rnd)
            for changed, changed_cells in ((None, None), (keys, cells)):
                pairs = [
                    (rules.lockings(reduced, changed=changed), bitrules.lockings(reduced, changed=changed)),
                    (rules.hidden_sets(reduced, 2, changed=changed), bitrules.hidden_pairs(reduced, changed=changed)),
                    (rules.naked_sets(reduced, 2, changed_cells=changed_cells),
                     bitrules.naked_pairs(reduced, changed_cells=changed_cells)),
                    (rules.fish(reduced, 2, changed=changed), bitrules.fish2(reduced, changed=changed)),
                ]
                for i, (literal, bitwise) in enumerate(pairs):
                    want = _pattern_key(literal)
                    assert _pattern_key(bitwise) == want
                    found[i] += bool(want)
    assert all(n > 5 for n in found), found  # every rule had something to find


def _brute_exclusion(cands: list[int], cells: tuple[int, ...], excluders) -> dict[int, int]:
    """Aligned exclusion from its definition: a digit stays in a base cell if some choice of
    one digit per base cell uses it, gives different digits to base cells that see each
    other, and leaves every common excluder a digit."""
    allowed = [0] * len(cells)
    for combo in itertools.product(*(bits(cands[c]) for c in cells)):
        if any(combo[i] == combo[j] and cells[j] in PEERS[cells[i]]
               for i in range(len(cells)) for j in range(i + 1, len(cells))):
            continue
        used = sum(1 << d for d in set(combo))
        if any(cands[e] & ~used == 0 for e in excluders):
            continue
        for i, d in enumerate(combo):
            allowed[i] |= 1 << d
    return {c: cands[c] & ~allowed[i] for i, c in enumerate(cells) if cands[c] & ~allowed[i]}


def test_aligned_exclusion_removes_what_the_definition_removes():
    rnd = random.Random(5)
    checked = removing = 0
    for line in read_puzzles(corpus_path("diabolical_sample"), limit=25):
        for board in _path_boards(line.puzzle, 0, 25):
            for degree in (2, 3):
                base, excl = rules._excluders(board, degree)
                for _ in range(10):
                    if len(base) < degree:
                        break
                    cells = tuple(rnd.sample(base, degree))
                    common = set(excl[cells[0]]).intersection(*(excl[c] for c in cells[1:]))
                    want = _brute_exclusion(board.cands, cells, common)
                    assert rules._exclusion(board.cands, cells, common) == want
                    checked += 1
                    removing += bool(want)
    assert checked > 500 and removing > 0


def _compare_on(board: Board, max_level: int) -> str | None:
    """Run SE's chaining producers in order on `board` with both engines until one finds
    something; every producer's hints must agree. Returns the name of the one that found."""
    literal = [p for p in producers(max_level=max_level, fast=False) if p.chaining]
    shared = [p for p in producers(max_level=max_level, fast=True) if p.chaining]
    for a, b in zip(literal, shared):
        want = list(a.find(board.copy()))
        got = list(b.find(board.copy()))
        assert _key(got) == _key(want), a.name
        if want:
            return a.name
    return None


def _chaining_boards(puzzle: str, max_level: int, count: int) -> list[Board]:
    """The first `count` boards of SE's path from `puzzle` on which a chaining producer acts."""
    result = rate(lg.Grid.parse(puzzle), max_level=max_level)
    board = Board.from_grid(lg.Grid.parse(puzzle))
    basic = {p.name for p in producers() if not p.chaining}
    out = []
    for hint in result.hints:
        if hint.producer not in basic:
            out.append(board.copy())
            if len(out) == count:
                break
        hint.apply(board)
    return out


def test_shared_work_finds_the_literal_searchs_hints_up_to_level_one():
    puzzle = _hardest()[0][0]  # SE's path starts with a level-1 step (ED 9.8)
    names = [_compare_on(b, 1) for b in _chaining_boards(puzzle, 1, 3)]
    assert "Dynamic Forcing Chains (+)" in names


def test_levels_go_on_from_their_parent_levels_propagations():
    board = _chaining_boards(_hardest()[0][0], 1, 1)[0]
    shared = Shared()
    level0 = FastChaining(multiple=True, dynamic=True, shared=shared)
    assert level0.hints(board) == []
    assert set(shared.runs) == {0}
    level1 = FastChaining(multiple=True, dynamic=True, level=1, shared=shared)
    got = level1.hints(board)
    assert set(shared.runs) == {0, 1}
    assert _key(got) == _key(Chaining(multiple=True, dynamic=True, level=1).hints(board))
    # a premise that nothing at level 1 adds to is the level-0 propagation itself
    assert any(shared.runs[1][k] is run for k, run in shared.runs[0].items())


@pytest.mark.slow
@pytest.mark.parametrize("index", [0, 1, 27, 81, 162])
def test_shared_work_finds_the_literal_searchs_hints_up_to_level_three(index):
    for board in _chaining_boards(_hardest()[index][0], 3, 6):
        _compare_on(board, 3)


@pytest.mark.slow
@pytest.mark.parametrize("index", [0, 162])
def test_shared_work_walks_the_literal_searchs_path(index):
    puzzle = _hardest()[index][0]
    a = rate(lg.Grid.parse(puzzle), max_level=3, fast=False)
    b = rate(lg.Grid.parse(puzzle), max_level=3, fast=True)
    assert _key(b.hints) == _key(a.hints)


def test_nested_static_chains_give_the_literal_searchs_hints():
    """`NestedStatic` (kernel filters, potentials built only for the hints kept) against SE's
    literal Forcing Chains & Cycles on reduced grids of a nested chain: same hints in order,
    each chain with the same potentials and causes."""
    from tests.techniques.se.test_kernel import _tree

    rnd = random.Random(9)
    compared = nonempty = 0
    kinds = set()
    for puzzle, *_ in _hardest()[:6]:
        source = _path_boards(puzzle, 0, 60)[-1]
        for _ in range(6):
            reduced, _, _ = _reduced(source, rnd)
            want = Chaining().hints(reduced.copy(), source=list(source.cands))
            got = NestedStatic().hints(reduced.copy(), source=list(source.cands))
            assert _key(got) == _key(want)
            for a, b in zip(got, want):
                assert [_tree(t, {}) for t in a.targets] == [_tree(t, {}) for t in b.targets]
                kinds.add(a.kind)
            compared += 1
            nonempty += bool(want)
    assert nonempty > 5 and kinds == {"cycle", "forcing"}, (compared, nonempty, kinds)


def test_nested_multiple_chains_walk_the_links_as_the_literal_search():
    """`NestedMultiple` (static propagation along the grid's links, made once per grid)
    against SE's literal Multiple Forcing Chains on reduced grids: same hints in order, every
    chain end with the same potentials, parents and causes."""
    from linkgraph.techniques.se.fast import NestedMultiple
    from tests.techniques.se.test_kernel import _tree

    rnd = random.Random(23)
    nonempty = 0
    for puzzle, *_ in _hardest()[:4]:
        source = _path_boards(puzzle, 0, 60)[-1]
        for _ in range(4):
            reduced, _, _ = _reduced(source, rnd)
            want = Chaining(multiple=True).hints(reduced.copy())
            got = NestedMultiple(multiple=True).hints(reduced.copy())
            assert _key(got) == _key(want)
            for a, b in zip(got, want):
                assert [_tree(t, {}) for t in a.targets] == [_tree(t, {}) for t in b.targets]
            nonempty += bool(want)
    assert nonempty > 3, nonempty
