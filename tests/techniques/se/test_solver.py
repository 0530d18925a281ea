"""`linkgraph.techniques.se.solver`: the walk's collector policy (the ratings themselves are
tested against SE's own in tests/techniques/test_serate.py)."""

from __future__ import annotations

import gc

import linkgraph as lg
from linkgraph.techniques.se.solver import rate


def test_the_cyclic_collector_is_off_during_a_rating_and_on_after_it():
    seen = []
    assert gc.isenabled()
    result = rate(lg.Grid.parse(lg.samples.EULER_01), progress=lambda hint: seen.append(gc.isenabled()))
    assert result.solved and seen and not any(seen)
    assert gc.isenabled()


def test_a_collector_someone_else_turned_off_stays_off():
    gc.disable()
    try:
        rate(lg.Grid.parse(lg.samples.EULER_01))
        assert not gc.isenabled()
    finally:
        gc.enable()
