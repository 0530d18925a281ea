"""forcing_nets(chunk=...): premises propagated in chunks, stopping at the first chunk where one fails."""

from __future__ import annotations

import numpy as np
import pytest
from tests.conftest import assert_sound

import linkgraph as lg
from linkgraph.nets.search import forcing_nets
from linkgraph.oracle import solve_unique
from linkgraph.nets.propagate import Structure, propagate
from linkgraph.check.checker import check_step


@pytest.fixture(scope="module")
def gnpx():
    return lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))


def _first_failing_premise(grid, level=0):
    """Index, in ON-first candidate order, of the first single premise whose propagation fails
    (one `propagate` call per premise, not the chunked search)."""
    st = Structure(grid)
    lits = [lg.Literal(st.candidate(k), on=on) for on in (True, False) for k in range(st.size)]
    for i, lit in enumerate(lits):
        if propagate(grid, [lit], level=level).contradiction is not None:
            return i, lits
    return None, lits


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_chunked_step_comes_from_the_first_productive_chunk(gnpx, chunk):
    first, lits = _first_failing_premise(gnpx)
    assert first is not None
    end = (first // chunk + 1) * chunk
    steps = list(forcing_nets(gnpx, chunk=chunk))
    assert steps
    solution = solve_unique(gnpx)
    assert_sound(steps, solution, gnpx.geometry)
    for step in steps:
        check_step(gnpx, step)
        assert step.proof.graph["net"] == "contradiction"
        (premise,) = step.premises
        assert lits.index(premise) < end


def test_chunked_nested_step_is_sound(gnpx):
    step = next(forcing_nets(gnpx, level=1, chunk=16))
    assert step.technique == "forcing-net-nested"
    assert_sound([step], solve_unique(gnpx), gnpx.geometry)
    check_step(gnpx, step)


@pytest.mark.parametrize("level, chunk", [(0, 5), (0, 64), (1, 16)])
def test_without_contradictions_every_premise_is_propagated(gnpx, level, chunk):
    """Verities and doubles need every branch: without the contradiction kind the chunks,
    read as one run, hold the same states and rounds as one propagation of every premise."""
    from linkgraph.nets.search import _premises, _propagate_chunked
    from linkgraph.nets.propagate import propagate_singles

    st = Structure(gnpx)
    ks, ons = _premises(st, "both")
    whole = propagate_singles(st, ks, ons, level=level)
    prop, complete = _propagate_chunked(st, ks, ons, 0, level, chunk, frozenset({"verity", "double"}))
    assert complete and len(prop.premises) == len(ks)
    assert (prop.failed == whole.failed).all()
    assert (prop.on == whole.on).all() and (prop.off == whole.off).all()
    for b in range(0, len(ks), 11):
        for got, want in zip(prop.rounds(b), whole.rounds(b)):
            assert (got == want).all()
    bs = np.arange(len(ks))
    for flag in (True, False):
        assert (prop.run.round_of(flag, bs, ks) == whole.run.round_of(flag, bs, ks)).all()
    some = bs[::7]
    assert (prop.run.rows_many(some) == whole.run.rows_many(some)).all()


def test_degenerate_verities_and_doubles_are_not_yielded():
    """In a raw grid a naked single follows in every branch without the branch's premise; such
    a conclusion is no verity or double net (the checker needs every premise in the proof)."""
    grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    steps = list(forcing_nets(grid))
    assert steps
    assert_sound(steps, solve_unique(grid), grid.geometry)
    for step in steps:
        check_step(grid, step)


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "64"])
def test_bad_chunk(gnpx, bad):
    with pytest.raises(lg.OptionError):
        forcing_nets(gnpx, chunk=bad)


def test_nested_rung_uses_chunks():
    from linkgraph.techniques.forcing import NEST_CHUNK

    assert NEST_CHUNK >= 1
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    step = next(lg.techniques.TECHNIQUES["forcing-net-nested"].find(grid))
    assert step.technique == "forcing-net-nested"
    check_step(grid, step)
    assert_sound([step], solve_unique(grid), grid.geometry)


def _searched_grids():
    """Positions where the depth 0-2 net rungs look for verities and doubles: shipped
    puzzles after the basic ladder, hardest-sample puzzles, a raw grid (naked singles in
    every branch) and a variant geometry."""
    from linkgraph.io import corpus_path, read_puzzles
    from tests.test_solver import VARIANTS

    yield lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    for p in (lg.samples.GNPX_FORCECHAIN, lg.samples.GOLDEN_NUGGET, lg.samples.EASTER_MONSTER):
        yield lg.prepare(lg.Grid.parse(p))
    for p in list(read_puzzles(corpus_path("hardest_1905_sample"), limit=40))[::13]:
        yield lg.prepare(p.grid())
    for g, puzzle in VARIANTS[:2]:
        yield lg.prepare(lg.Grid.parse(puzzle, geometry=g))


def test_verities_and_doubles_from_words_are_those_from_bools():
    """`_found_words` (the end words transposed and scanned in one compiled call) against the
    numpy reading it replaced, `_found_bools`, over every premise ON and OFF (and ON only) at
    depths 0-2: the same conclusions in the same order, the compacted tails included."""
    from linkgraph.nets.search import _found_bools, _found_words, _premises, structure
    from linkgraph.nets.propagate import propagate_singles

    found = tails = runs = 0
    for grid, depth in ((grid, depth) for grid in _searched_grids() for depth in (0, 1, 2)):
        st = structure(grid, depth)
        for start in ("both", "on"):
            ks, ons = _premises(st, start)
            prop = propagate_singles(st, ks, ons, depth=depth)
            tails += prop.run.tail is not None
            runs += 1
            for verity, double in ((True, True), (True, False), (False, True)):
                if double and start != "both":
                    continue
                got = _found_words(prop, st.size, verity, double)
                want = _found_bools(prop, st.size, verity, double)
                for g, w in zip(got, want):
                    for x, y in zip(g, w):
                        assert x.tolist() == y.tolist()
                found += sum(len(g[0]) for g in got)
    assert found > 100 and tails > runs // 2  # conclusions found, and runs with compacted tails read


def test_the_end_rows_are_the_branches_end_states(gnpx):
    """`kernel.end_rows` transposes a run's end words into one row of words per branch: bit k
    of a branch's row is candidate k, as the bool states read them (tails written again)."""
    from linkgraph.nets.engine import kernels
    from linkgraph.nets.search import _premises
    from linkgraph.nets.propagate import propagate_singles

    st = Structure(gnpx)
    ks, ons = _premises(st, "both")
    prop = propagate_singles(st, ks, ons)
    assert prop.run.tail is not None
    B, L = len(ks), st.size
    rows = np.zeros((B, 2, -(-L // 64)), dtype=np.uint64)
    run, orig = prop.run, np.arange(B)
    while run is not None:
        write = np.ones(len(orig), dtype=bool) if run.tail is None else run.tail_pos < 0
        kernels().end_rows(np.ascontiguousarray(run.ON), np.ascontiguousarray(run.OFF), orig, write, rows)
        if run.tail is not None:
            nxt = np.empty(run.tail.B, dtype=np.int64)
            nxt[run.tail_pos[run.tail_pos >= 0]] = orig[run.tail_pos >= 0]
            orig = nxt
        run = run.tail
    bools = np.unpackbits(rows.view(np.uint8), axis=-1, bitorder="little")[:, :, :L].astype(bool)
    assert (bools[:, 0] == prop.on).all() and (bools[:, 1] == prop.off).all()


def test_transpose64_by_hand():
    """Bit j of row i goes to bit i of row j, checked against numpy's transpose of the bits."""
    from linkgraph.nets.kernel import _transpose64

    rng = np.random.default_rng(7)
    A = rng.integers(0, 2**63, size=64, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, size=64, dtype=np.uint64)
    bits = np.unpackbits(A.view(np.uint8).reshape(64, 8), axis=1, bitorder="little")
    T = A.copy()
    _transpose64(T)
    got = np.unpackbits(T.view(np.uint8).reshape(64, 8), axis=1, bitorder="little")
    assert (got == bits.T).all()
    one = np.zeros(64, dtype=np.uint64)
    one[3] = np.uint64(1) << np.uint64(40)  # row 3, bit 40 -> row 40, bit 3
    _transpose64(one)
    assert one[40] == 8 and one.sum() == 8
