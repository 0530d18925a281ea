"""Symmetry oracle: a Sudoku symmetry maps each technique's findings onto each other.

A symmetry of the classic grid relabels the digits, may transpose, and
permutes the bands, the rows inside each band, the stacks and the columns
inside each stack. It maps houses onto houses and sets X onto sets X, so every
deduction in a position maps onto a deduction in the transformed position.
What is truly invariant, and checked here (hypothesis draws the symmetry and
the puzzle):

- (a) for each technique of the basic ladder and each pattern technique, the
  SET of ``(placements, eliminations)`` over all the steps it finds;
- (b) the set of conclusions of the forcing chains and of the forcing nets;
- (c) the basic solver's final grid, and whether it solved the puzzle.

Orders are not compared (a search's order may follow the cell numbering).
The expected side is computed on the original puzzle and carried over by the
symmetry; the transform is written here, independently of the engine.
The default run draws a few examples per property; ``-m slow`` draws many more.
"""

from __future__ import annotations

from functools import cache, partial

import numpy as np
import pytest
from tests.conftest import load_corpus
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import linkgraph as lg
from linkgraph.techniques import TECHNIQUES, finned, singledigit, wings
from linkgraph.techniques.aic import search as aic
from linkgraph.check.checker import check_step

# ---- the symmetry ------------------------------------------------------------


class Symmetry:
    """Cell ``(r, c)`` goes to ``(rows[r], cols[c])``, then transposed if `transpose`;
    digit ``d`` goes to ``digits[d - 1]``."""

    def __init__(self, rows, cols, transpose: bool, digits):
        self.rows = np.array(rows)
        self.cols = np.array(cols)
        self.transpose = transpose
        self.digits = np.array(digits)  # 1-based targets of digits 1..9

    def __repr__(self) -> str:
        return (f"Symmetry(rows={self.rows.tolist()}, cols={self.cols.tolist()}, "
                f"transpose={self.transpose}, digits={self.digits.tolist()})")

    def cell(self, cell: lg.Cell) -> lg.Cell:
        r, c = int(self.rows[cell.row]), int(self.cols[cell.col])
        return lg.Cell(c, r) if self.transpose else lg.Cell(r, c)

    def cand(self, cand: lg.Candidate) -> lg.Candidate:
        return lg.Candidate(self.cell(cand.cell), int(self.digits[cand.digit - 1]))

    def _board(self, a: np.ndarray) -> np.ndarray:
        """Move a (9, 9, ...) array of per-cell values to the transformed cells."""
        out = np.empty_like(a)
        out[np.ix_(self.rows, self.cols)] = a
        return out.swapaxes(0, 1) if self.transpose else out

    def grid(self, grid: lg.Grid) -> lg.Grid:
        n = grid.size
        cands = grid.cands.reshape(n, n, n)
        moved = np.empty_like(cands)
        moved[:, :, self.digits - 1] = cands
        cands = self._board(moved).reshape(n * n, n)
        givens = self._board(grid.givens.reshape(n, n)).reshape(-1)
        placed = self._board(grid.placed.reshape(n, n)).reshape(-1)
        return lg.Grid(grid.geometry, cands, givens, placed)


def _line_permutation(draw) -> list[int]:
    """Bands (stacks) permuted, and the rows (columns) inside each band."""
    bands = draw(st.permutations(range(3)))
    inner = [draw(st.permutations(range(3))) for _ in range(3)]
    # old line 3b + i goes to new line 3 * bands[b] + inner[b][i]
    return [3 * bands[b] + inner[b][i] for b in range(3) for i in range(3)]


@st.composite
def symmetries(draw) -> Symmetry:
    rows = _line_permutation(draw)
    cols = _line_permutation(draw)
    transpose = draw(st.booleans())
    digits = [d + 1 for d in draw(st.permutations(range(9)))]
    return Symmetry(rows, cols, transpose, digits)


IDENTITY = Symmetry(range(9), range(9), False, range(1, 10))
_EULER = load_corpus("euler96", limit=1)[0]  # an easy puzzle: the oracle is quick on it


# ---- self-checks of the transform (independent of the engine) ---------------


@given(symmetries())
@settings(max_examples=15, deadline=None)
def test_symmetry_maps_a_solution_onto_a_solution(sym):
    # a known solved grid stays a valid Sudoku, and the givens map cell by cell
    grid, solution = _EULER
    solved = lg.Grid.from_values(solution)
    moved = sym.grid(solved)
    assert moved.contradiction() is None and moved.is_solved()
    for k in np.flatnonzero(solved.live):
        cand = solved.geometry.candidate(int(k))
        assert moved.has(sym.cand(cand))
    # the puzzle keeps its number of givens and its unique solution maps
    puzzle = sym.grid(grid)
    assert puzzle.givens.sum() == grid.givens.sum()
    sol = lg.oracle.solve_unique(puzzle)
    for cell_index, value in enumerate(solution):
        cell = solved.geometry.cell(cell_index)
        image = sym.cand(lg.Candidate(cell, int(value)))
        assert sol[puzzle.geometry.cell_index(image.cell)] == image.digit


def test_a_non_symmetry_is_caught():
    # the properties can fail: swapping rows of different bands is no symmetry, and
    # the findings stop mapping at some position
    fake = Symmetry([3, 1, 2, 0, 4, 5, 6, 7, 8], range(9), False, range(1, 10))
    differ = [
        i for i, grid in enumerate(_positions()[:4])
        if _mapped(_original("chain", "aic", i), fake) != _findings(CHAINS["aic"], fake.grid(grid))
    ]
    assert differ


# ---- puzzles -----------------------------------------------------------------

_CORPORA = ("top95", "famous", "hardest_norvig", "hardest_1106")


@cache
def _pairs() -> tuple:
    out = []
    for name in _CORPORA:
        out += load_corpus(name, limit=6)
    return tuple(out)


@cache
def _positions() -> tuple:
    """Positions after the basic ladder that are not solved: where patterns and chains live."""
    out = []
    for grid, _ in _pairs():
        prepared = lg.prepare(grid)
        if not prepared.is_solved():
            out.append(prepared)
    return tuple(out)


@cache
def _midway() -> tuple:
    """Positions a few basic steps into the solve (for the basic techniques)."""
    out = []
    for grid, _ in _pairs()[::3]:
        result = lg.solve(grid, ladder="basic", max_steps=8)
        out.append(result.final)
    return tuple(out)


# ---- findings ----------------------------------------------------------------

Finding = tuple[frozenset, frozenset]


def _findings(find, grid: lg.Grid) -> frozenset[Finding]:
    return frozenset((frozenset(s.placements), frozenset(s.eliminations)) for s in find(grid))


def _mapped(found: frozenset[Finding], sym: Symmetry) -> frozenset[Finding]:
    return frozenset(
        (frozenset(map(sym.cand, pl)), frozenset(map(sym.cand, el))) for pl, el in found
    )


def _conclusions(steps) -> frozenset[lg.Literal]:
    return frozenset(lit for s in steps for lit in s.conclusions)


BASIC = {t.name: t.find for t in lg.techniques.resolve_ladder("basic")}
_SEARCHES = ("forcing-chains", "forcing-nets")  # checked as whole searches in (b)
#: Chain techniques (AICs): see `test_chain_technique_findings_map`.
CHAINS = {t.name: t.find for t in TECHNIQUES.values() if t.family == "chains"}
#: Pattern techniques: the registry's rungs beyond the basic ladder, chains and
#: the forcing searches aside; plus the pattern modules' finders if not registered yet.
PATTERNS = {
    t.name: t.find for t in TECHNIQUES.values()
    if t.name not in BASIC and t.name not in CHAINS and t.family not in _SEARCHES
}
for _name, _find in {
    "skyscraper": singledigit.skyscrapers,
    "2-string-kite": singledigit.two_string_kites,
    "turbot-fish": singledigit.turbot_fish,
    "empty-rectangle": singledigit.empty_rectangles,
    "xy-wing": wings.xy_wings,
    "xyz-wing": wings.xyz_wings,
    "wxyz-wing": wings.wxyz_wings,
    "w-wing": wings.w_wings,
    "finned-x-wing": partial(finned.finned_fish, size=2),
    "finned-swordfish": partial(finned.finned_fish, size=3),
    "finned-jellyfish": partial(finned.finned_fish, size=4),
}.items():
    PATTERNS.setdefault(_name, _find)
CHAINS.setdefault("x-chain", aic.x_chains)
CHAINS.setdefault("xy-chain", aic.xy_chains)
CHAINS.setdefault("aic", partial(aic.aics, groups=False))


@cache
def _original(kind: str, name: str, index: int) -> frozenset:
    if kind == "basic":
        return _findings(BASIC[name], _midway()[index])
    if kind == "pattern":
        return _findings(PATTERNS[name], _positions()[index])
    if kind == "chain":
        return _findings(CHAINS[name], _positions()[index])
    if kind == "chains":
        return _conclusions(lg.forcing_chains(_positions()[index]))
    return _conclusions(lg.forcing_nets(_positions()[index]))


def _lit(sym: Symmetry, lit: lg.Literal) -> lg.Literal:
    return lg.Literal(sym.cand(lit.cand), on=lit.on)


_FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_SLOW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---- (a) techniques ------------------------------------------------------------


def _check_technique(kind: str, table: dict, data, sym: Symmetry) -> None:
    positions = _midway() if kind == "basic" else _positions()
    index = data.draw(st.integers(0, len(positions) - 1), label="position")
    name = data.draw(st.sampled_from(sorted(table)), label="technique")
    want = _mapped(_original(kind, name, index), sym)
    got = _findings(table[name], sym.grid(positions[index]))
    assert got == want, f"{name} at {positions[index].to_candidates()}: lost {want - got}, gained {got - want}"


@given(st.data(), symmetries())
@_FAST
def test_basic_technique_findings_map(data, sym):
    _check_technique("basic", BASIC, data, sym)


@given(st.data(), symmetries())
@_FAST
def test_pattern_technique_findings_map(data, sym):
    _check_technique("pattern", PATTERNS, data, sym)


@given(st.data(), symmetries())
@settings(max_examples=12, deadline=None, database=None, phases=[Phase.generate])
def test_chain_technique_findings_map(data, sym):
    _check_technique("chain", CHAINS, data, sym)


def test_aic_findings_map_on_top95_4():
    # regression: AIC eliminations left out the candidates of the one shortest chain read back
    # (first predecessor in cell order), so under this symmetry -r2c4#5 and -r9c8#4 appeared
    grid = lg.prepare(lg.Grid.parse(TOP95_4))
    sym = Symmetry([5, 3, 4, 8, 7, 6, 0, 2, 1], [2, 0, 1, 6, 8, 7, 4, 5, 3], True, [4, 9, 1, 7, 2, 8, 6, 3, 5])
    find = partial(aic.aics, groups=False)
    assert _findings(find, sym.grid(grid)) == _mapped(_findings(find, grid), sym)
    on_chain = 0
    for g in (grid, sym.grid(grid)):  # the chain members among the eliminations keep a valid proof
        for step in find(g):
            check_step(g, step)
            on_chain += sum(f"{c}=" in step.proof.graph["chain"] + "=" or f"{c}-" in step.proof.graph["chain"]
                            for c in step.eliminations)
    assert on_chain  # some elimination is a candidate of its own chain


TOP95_4 = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."


@pytest.mark.parametrize("kind", ["basic", "pattern"])
def test_every_technique_maps_under_one_symmetry(kind):
    # each technique at least once, at every position, under a fixed symmetry
    sym = Symmetry([5, 3, 4, 8, 7, 6, 0, 2, 1], [2, 0, 1, 6, 8, 7, 4, 5, 3], True, [4, 9, 1, 7, 2, 8, 6, 3, 5])
    table = BASIC if kind == "basic" else PATTERNS
    positions = _midway() if kind == "basic" else _positions()[:6]
    found = 0
    for name in sorted(table):
        for i, grid in enumerate(positions):
            want = _mapped(_original(kind, name, i), sym)
            assert _findings(table[name], sym.grid(grid)) == want, (name, grid.to_candidates())
            found += len(want)
    assert found > 0  # the positions do hold findings


# ---- (b) chains and nets -------------------------------------------------------


def _check_search(kind: str, index: int, sym: Symmetry) -> None:
    grid = _positions()[index]
    want = frozenset(_lit(sym, lit) for lit in _original(kind, "", index))
    search = lg.forcing_chains if kind == "chains" else lg.forcing_nets
    got = _conclusions(search(sym.grid(grid)))
    assert got == want, f"{kind} at {grid.to_candidates()}: lost {want - got}, gained {got - want}"


@given(st.data(), symmetries())
@settings(max_examples=6, deadline=None)
def test_forcing_chain_conclusions_map(data, sym):
    _check_search("chains", data.draw(st.integers(0, len(_positions()) - 1)), sym)


@given(st.data(), symmetries())
@settings(max_examples=3, deadline=None)
def test_forcing_net_conclusions_map(data, sym):
    _check_search("nets", data.draw(st.integers(0, min(len(_positions()), 4) - 1)), sym)


# ---- (c) the solver ------------------------------------------------------------


def _check_solver(index: int, sym: Symmetry) -> None:
    grid, _ = _pairs()[index]
    original = lg.solve(grid, ladder="basic")
    moved = lg.solve(sym.grid(grid), ladder="basic")
    assert moved.solved == original.solved
    assert np.array_equal(moved.final.cands, sym.grid(original.final).cands)


@given(st.data(), symmetries())
@settings(max_examples=8, deadline=None)
def test_basic_solver_final_grid_maps(data, sym):
    _check_solver(data.draw(st.integers(0, len(_pairs()) - 1)), sym)


# ---- the long profile ------------------------------------------------------------


@pytest.mark.slow
@given(st.data(), symmetries())
@_SLOW
def test_slow_technique_findings_map(data, sym):
    kind = data.draw(st.sampled_from(["basic", "pattern"]))
    _check_technique(kind, BASIC if kind == "basic" else PATTERNS, data, sym)


@pytest.mark.slow
@given(st.data(), symmetries())
@settings(max_examples=60, deadline=None)
def test_slow_chains_nets_and_solver_map(data, sym):
    index = data.draw(st.integers(0, len(_positions()) - 1))
    _check_search("chains", index, sym)
    _check_search("nets", index, sym)
    _check_solver(data.draw(st.integers(0, len(_pairs()) - 1)), sym)
