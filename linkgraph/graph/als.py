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

One enumeration
---------------
`als_cells` is the one enumeration of the ALSs of a grid, in numpy for all
houses at once: every set of k cells of a house is listed once per geometry
(a cell with fewer than 2 digits never belongs to an ALS), and a set is an ALS
when its cells hold k + 1 digits. The rows come smallest first, then by cells.
The link graph reads it through `als_records` (by first house, then cells),
the ALS techniques through `linkgraph.techniques.als.table.AlsTable`, and the
chain compiler (`linkgraph.graph.compiler`) for its ALS links.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

import numpy as np

from linkgraph.bitops import bitcount, popcount_table, to_int
from linkgraph.errors import OptionError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Als

__all__ = ["DEFAULT_ALS_MAX_SIZE", "almost_locked_sets", "als_cells", "als_records", "cell_bits", "peer_bits"]

#: Largest ALS (in cells) that `linkgraph.link_graph` builds by default.
DEFAULT_ALS_MAX_SIZE = 4


def cell_bits(cands: np.ndarray) -> list[int]:
    """Per digit (index digit-1): a bitmask of the cells holding it (bit i = cell i)."""
    return [to_int(col) for col in np.asarray(cands, dtype=bool).T]


def peer_bits(geometry: Geometry) -> list[int]:
    """Per cell: a bitmask of its peer cells."""
    return [to_int(row) for row in geometry.peers]


@lru_cache(maxsize=8)
def _combos(size: int, max_size: int) -> tuple[np.ndarray, ...]:
    """Per k in 1..max_size: every increasing k-tuple of positions 0..size-1, one row each."""
    return tuple(np.array(list(combinations(range(size), k)), dtype=np.intp).reshape(-1, k)
                 for k in range(1, min(max_size, size) + 1))


@lru_cache(maxsize=16)
def _house_sets(geometry: Geometry, max_size: int, min_size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every set of min_size to max_size cells of one house, once, by size then cells
    (number_of_cells pads, to max_size columns); the same transposed, (max_size, sets); and the
    digit count an ALS of its cells has (its size + 1). Read-only."""
    ncells = geometry.number_of_cells
    found = [np.zeros((0, max_size), dtype=np.intp)]
    for k, combos in enumerate(_combos(geometry.size, max_size), 1):
        if k < min_size:
            continue
        cells = np.unique(np.sort(geometry.house_cells[:, combos].reshape(-1, k), axis=1), axis=0)
        pad = np.full((len(cells), max_size), ncells, dtype=np.intp)
        pad[:, :k] = cells
        found.append(pad)
    rows = np.concatenate(found)
    need = (rows < ncells).sum(axis=1) + 1
    columns = np.ascontiguousarray(rows.T)
    for a in (rows, columns, need):
        a.setflags(write=False)
    return rows, columns, need


def als_cells(grid: Grid, *, max_size: int = DEFAULT_ALS_MAX_SIZE, min_size: int = 1) -> np.ndarray:
    """The cells of every ALS of `min_size` to `max_size` cells, one row each, smallest first, then by cells.

    Parameters
    ----------
    grid : Grid
        The candidate state.
    max_size, min_size : int, optional
        Largest and smallest ALS in cells (default 4 and 1).

    Returns
    -------
    numpy.ndarray
        ``(sets, max_size)`` cell indices, each row ascending and padded with
        ``number_of_cells``; an ALS lying in two houses (two cells of a row and a box)
        is listed once.

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> rows = lg.graph.als.als_cells(grid, min_size=2)
    >>> [[str(grid.geometry.cell(c)) for c in row if c < 81] for row in rows[:2].tolist()]
    [['r2c4', 'r2c6'], ['r2c4', 'r2c8']]
    """
    geo = grid.geometry
    n, ncells = geo.size, geo.number_of_cells
    rows, columns, need = _house_sets(geo, max_size, min_size)
    masks = np.zeros(ncells + 1, dtype=np.int64)  # the padding holds no digit
    # a solved cell counts n + 2 digits, more than any set needs (a cell with more than
    # max_size + 1 digits is too many already)
    masks[:ncells] = np.where(grid.counts >= 2, grid.cands @ (1 << np.arange(n, dtype=np.int64)), (1 << (n + 2)) - 1)
    union = masks.take(columns[0])
    for column in columns[1:]:
        union |= masks.take(column)
    count = popcount_table(n + 2).take(union) if n <= 14 else bitcount(union).astype(np.int64)
    return rows.take(np.flatnonzero(count == need), axis=0)


def als_records(grid: Grid, *, max_size: int = DEFAULT_ALS_MAX_SIZE) -> Iterator[tuple[Als, int, tuple[int, ...]]]:
    """Yield (Als, house index, cell indices) for every ALS of 1..max_size cells, each once.

    An ALS lying in several houses (two cells of a row and a box) is reported
    with its first house. Order: by house, then by cell indices. The sets are
    those of `als_cells`.
    """
    geo = grid.geometry
    ncells = geo.number_of_cells
    masks = (grid.cands.astype(np.int64) @ (1 << np.arange(geo.size, dtype=np.int64))).tolist()
    found = []
    for row in als_cells(grid, max_size=max_size).tolist():
        cells = tuple(c for c in row if c < ncells)
        house = min(set(geo.cell_houses[cells[0]]).intersection(*(geo.cell_houses[c] for c in cells[1:])))
        found.append((house, cells))
    found.sort()
    for house, cells in found:
        mask = 0
        for c in cells:
            mask |= masks[c]
        digits = tuple(d + 1 for d in range(geo.size) if mask >> d & 1)
        yield Als(tuple(geo.cell(c) for c in cells), digits), house, cells


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
