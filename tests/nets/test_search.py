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
