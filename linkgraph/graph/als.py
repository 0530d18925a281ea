"""Almost-locked sets (ALS) and the bitmask helpers the link graph uses.

An ALS is n unsolved cells of one house whose live digits number n+1. Exactly
one of those digits is missing from the cells, so if a digit x of the ALS is
OFF in all its cells, the cells lock onto the other n digits.

Default size bound
------------------
`DEFAULT_ALS_MAX_SIZE` is 4 cells. Every ALS link of the GNPX ForceChain text
uses at most 4 cells (``r247c8``, ``r268c4``, ``r7c589``, ``r2468c4``), and
HoDoKu's and SudokuWiki's ALS chains in their published examples stay within
it. Larger sets are rarely needed after the basic ladder: in a house with m
unsolved cells an ALS of n cells leaves an almost-hidden set of m-n cells,
so the two halves of a house are both reachable with small sets, while the
number of sets (and of ALS edges) grows fast with n. Pass ``als_max_size`` up
to the house size to get all of them.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from linkgraph.bitops import to_int
from linkgraph.errors import OptionError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Als

__all__ = ["DEFAULT_ALS_MAX_SIZE", "almost_locked_sets", "als_records", "cell_bits", "peer_bits"]

#: Largest ALS (in cells) that `linkgraph.link_graph` builds by default.
DEFAULT_ALS_MAX_SIZE = 4


def cell_bits(cands: np.ndarray) -> list[int]:
    """Per digit (index digit-1): a bitmask of the cells holding it (bit i = cell i)."""
    return [to_int(col) for col in np.asarray(cands, dtype=bool).T]


def peer_bits(geometry: Geometry) -> list[int]:
    """Per cell: a bitmask of its peer cells."""
    return [to_int(row) for row in geometry.peers]


def als_records(grid: Grid, *, max_size: int = DEFAULT_ALS_MAX_SIZE) -> Iterator[tuple[Als, int, tuple[int, ...]]]:
    """Yield (Als, house index, cell indices) for every ALS of 1..max_size cells, each once.

    An ALS lying in several houses (two cells of a row and a box) is reported
    with its first house. Order: by house, then by cell indices.
    """
    geo = grid.geometry
    cands = grid.cands
    weights = 1 << np.arange(geo.size, dtype=np.int64)
    masks = (cands.astype(np.int64) @ weights).tolist()
    seen: set[tuple[int, ...]] = set()
    for h, house in enumerate(geo.house_cells):
        free = [int(c) for c in house if bin(masks[c]).count("1") >= 2]
        found: list[tuple[int, ...]] = []

        def grow(start: int, chosen: list[int], mask: int) -> None:
            for i in range(start, len(free)):
                c = free[i]
                m = mask | masks[c]
                pop = m.bit_count()
                if pop > max_size + 1:
                    continue
                chosen.append(c)
                if pop == len(chosen) + 1:
                    found.append(tuple(chosen))
                if len(chosen) < max_size:
                    grow(i + 1, chosen, m)
                chosen.pop()

        grow(0, [], 0)
        for cells in sorted(found):
            key = tuple(sorted(cells))
            if key in seen:
                continue
            seen.add(key)
            mask = 0
            for c in key:
                mask |= masks[c]
            digits = tuple(d + 1 for d in range(geo.size) if mask >> d & 1)
            yield Als(tuple(geo.cell(c) for c in key), digits), h, key


def almost_locked_sets(grid: Grid, *, max_size: int = DEFAULT_ALS_MAX_SIZE) -> Iterator[Als]:
    """Yield every ALS of 1 to `max_size` cells in `grid`, each once.

    Parameters
    ----------
    grid : Grid
        The candidate state.
    max_size : int, optional
        Largest ALS in cells (default 4).

    Yields
    ------
    Als
        n unsolved cells of one house holding n+1 digits.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> "r2468c4{12378}" in {str(a) for a in lg.graph.als.almost_locked_sets(grid)}
    True
    """
    if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1:
        raise OptionError(f"max_size: expected a whole number of cells >= 1, found {max_size!r}")
    return (als for als, _, _ in als_records(grid, max_size=max_size))
