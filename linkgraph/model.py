"""Value types and the glossary of linkgraph.

One name for each thing, everywhere:

=================  ==========================  ===================================
thing              text form                   Python
=================  ==========================  ===================================
cell               ``r2c8``                    ``Cell(row=1, col=7)``
digit              ``1`` ... ``9``             ``int``, the digit itself
candidate          ``r2c8#1``                  ``Candidate(Cell(1, 7), 1)``
literal ON / OFF   ``+r2c8#1`` / ``-r2c8#1``   ``Literal(cand, on=True)``; ``~lit``
house              ``r2`` ``c8`` ``b3``        ``House("row", 1)``
                   ``d1`` ``w1`` ``j5``
set X              ``r2#1``, ``r2c8``          ``SetX``
group node         ``r2c789#1``                ``Group``
ALS node           ``r2468c4{1237}``           ``Als``
=================  ==========================  ===================================

Integers are 0-based and text is 1-based: rows, columns and cell indices count
from 0 in code and from 1 in strings. Digits are never shifted.

Local names: ``cell``, ``digit``, ``cand``, ``lit``, ``house``, ``sx`` (a set
X); graphs ``G`` (links), ``D`` (literal digraph), ``P`` (proof).

A *set X* is a set of candidates of which exactly one is true: each cell's
candidates, and for each house and digit the cells of that house holding it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from enum import StrEnum
from itertools import groupby
from typing import Any

from linkgraph.errors import NotationError

__all__ = [
    "Als",
    "Candidate",
    "Cell",
    "Family",
    "Group",
    "House",
    "LinkKind",
    "Literal",
    "NodeKind",
    "Role",
    "SetX",
    "sort_key",
]


class NodeKind(StrEnum):
    """Kinds of node in a link graph (the ``kind`` node attribute)."""

    CANDIDATE = "candidate"
    GROUP = "group"
    ALS = "als"


class LinkKind(StrEnum):
    """Kinds of link (the ``kind`` edge attribute). A strong link is also weak."""

    STRONG = "strong"
    WEAK = "weak"


class Family(StrEnum):
    """Where a link comes from (the ``family`` edge attribute)."""

    CELL = "cell"
    HOUSE = "house"
    GROUP = "group"
    ALS = "als"


class Role(StrEnum):
    """Role of a literal in a proof graph (the ``role`` node attribute)."""

    PREMISE = "premise"
    INNER = "inner"
    CONCLUSION = "conclusion"
    CONTRADICTION = "contradiction"


_CELL_RE = re.compile(r"r(\d+)c(\d+)")
_HOUSE_KINDS = {"r": "row", "c": "col", "b": "box", "d": "diag", "w": "window", "j": "region"}
_HOUSE_LETTERS = {v: k for k, v in _HOUSE_KINDS.items()}


def _check_range(text: str, what: str, value: int, size: int | None) -> None:
    if value < 1 or (size is not None and value > size):
        bound = f"1..{size}" if size is not None else "at least 1"
        raise NotationError(f"{text!r}: {what} {value} is outside {bound}")


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """One cell of the grid; ``row`` and ``col`` count from 0."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"r{self.row + 1}c{self.col + 1}"

    @classmethod
    def parse(cls, text: str, *, size: int | None = None) -> Cell:
        """Read ``r2c8``; raise NotationError on anything else or outside a `size` grid.

        >>> lg.Cell.parse("r2c8")
        Cell(row=1, col=7)
        """
        m = _CELL_RE.fullmatch(text.strip())
        if not m:
            raise NotationError(f"{text!r}: expected a cell such as 'r2c8'")
        row, col = int(m.group(1)), int(m.group(2))
        _check_range(text, "row", row, size)
        _check_range(text, "column", col, size)
        return cls(row - 1, col - 1)


def _by_fields(self: Any) -> tuple:
    """`__reduce__` of the values that cache their hash (`Candidate`, `Group`, `Als`, `Literal`):
    the class and its fields, so that the hash is made anew where the pickle is loaded (a
    `Group`'s or an `Als`'s mixes in a string, and string hashes differ between processes)."""
    return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)


@dataclass(frozen=True, slots=True, order=True)
class Candidate:
    """Digit `digit` may stand in `cell`."""

    cell: Cell
    digit: int
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # nodes are hashed millions of times by networkx: hash once
        object.__setattr__(self, "_hash", hash((self.cell.row, self.cell.col, self.digit)))

    def __hash__(self) -> int:
        return self._hash

    __reduce__ = _by_fields

    def __str__(self) -> str:
        return f"{self.cell}#{self.digit}"

    @classmethod
    def parse(cls, text: str, *, size: int | None = None) -> Candidate:
        """Read ``r2c8#1``; raise NotationError on anything else.

        >>> str(lg.Candidate.parse("r2c8#1"))
        'r2c8#1'
        """
        cell_text, sep, digit_text = text.strip().partition("#")
        if not sep or not digit_text.isdigit():
            raise NotationError(f"{text!r}: expected a candidate such as 'r2c8#1'")
        digit = int(digit_text)
        _check_range(text, "digit", digit, size)
        try:
            cell = Cell.parse(cell_text, size=size)
        except NotationError as exc:
            raise NotationError(f"{text!r}: {str(exc).split(': ', 1)[-1]}") from None
        return cls(cell, digit)


def _cells_text(cells: tuple[Cell, ...]) -> str:
    """Compact text of several cells: r2468c4, r7c589, r1c12r2c3; on grids over 9 wide,
    where a row or column number has two digits, the cells are spelt out and separated by
    commas (r9c10,r9c11), since r9c1011 would not read back."""
    if len(cells) > 1 and any(c.row >= 9 or c.col >= 9 for c in cells):
        return ",".join(f"r{c.row + 1}c{c.col + 1}" for c in sorted(cells))
    if len({c.col for c in cells}) == 1 and len(cells) > 1:
        rows = "".join(str(c.row + 1) for c in sorted(cells))
        return f"r{rows}c{cells[0].col + 1}"
    parts = []
    for row, run in groupby(sorted(cells), key=lambda c: c.row):
        cols = "".join(str(c.col + 1) for c in run)
        parts.append(f"r{row + 1}c{cols}")
    return "".join(parts)


_CELLS_RE = re.compile(r"(?:r\d+c\d+)+")
_PIECE_RE = re.compile(r"r(\d+)c(\d+)")


def _parse_cells(text: str, whole: str) -> tuple[Cell, ...]:
    if "," in text:  # spelt-out cells: each number whole (r9c10,r9c11)
        cells = set()
        for piece in text.split(","):
            m = _PIECE_RE.fullmatch(piece)
            if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
                raise NotationError(f"{whole!r}: expected cells such as 'r9c10,r9c11'")
            cells.add(Cell(int(m.group(1)) - 1, int(m.group(2)) - 1))
        return tuple(sorted(cells))
    if not _CELLS_RE.fullmatch(text):
        raise NotationError(f"{whole!r}: expected cells such as 'r2468c4' or 'r7c589'")
    cells = set()
    for rows, cols in _PIECE_RE.findall(text):
        for r in rows:
            for c in cols:
                if r == "0" or c == "0":
                    raise NotationError(f"{whole!r}: rows and columns count from 1")
                cells.add(Cell(int(r) - 1, int(c) - 1))
    return tuple(sorted(cells))


@dataclass(frozen=True, slots=True, order=True)
class Group:
    """The candidates of `digit` in 2-3 `cells` of one box-line intersection.

    ON means the digit stands in one of the cells.

    >>> str(lg.Group((lg.Cell(1, 6), lg.Cell(1, 7)), 1))
    'r2c78#1'
    """

    cells: tuple[Cell, ...]
    digit: int
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))
        object.__setattr__(self, "_hash", hash(("group", self.cells, self.digit)))

    def __hash__(self) -> int:
        return self._hash

    __reduce__ = _by_fields

    def __str__(self) -> str:
        return f"{_cells_text(self.cells)}#{self.digit}"

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """The member candidates."""
        return tuple(Candidate(c, self.digit) for c in self.cells)

    @classmethod
    def parse(cls, text: str) -> Group:
        """Read ``r2c789#1``."""
        cells_text, sep, digit_text = text.strip().partition("#")
        if not sep or not digit_text.isdigit():
            raise NotationError(f"{text!r}: expected a group such as 'r2c789#1'")
        return cls(_parse_cells(cells_text, text), int(digit_text))


@dataclass(frozen=True, slots=True, order=True)
class Als:
    """An almost-locked set: ``len(cells)`` cells of one house holding one more digits.

    >>> str(lg.Als((lg.Cell(1, 3), lg.Cell(3, 3), lg.Cell(5, 3), lg.Cell(7, 3)), (1, 2, 3, 7)))
    'r2468c4{1237}'
    """

    cells: tuple[Cell, ...]
    digits: tuple[int, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))
        object.__setattr__(self, "digits", tuple(sorted(self.digits)))
        object.__setattr__(self, "_hash", hash(("als", self.cells, self.digits)))

    def __hash__(self) -> int:
        return self._hash

    __reduce__ = _by_fields

    def __str__(self) -> str:
        sep = "," if any(d >= 10 for d in self.digits) else ""  # 16x16: {7,8,12} not {7812}
        return f"{_cells_text(self.cells)}{{{sep.join(map(str, self.digits))}}}"

    @property
    def cells_text(self) -> str:
        """The cells alone, as GNPX writes them: ``r2468c4``."""
        return _cells_text(self.cells)

    @classmethod
    def parse(cls, text: str) -> Als:
        """Read ``r2468c4{1237}``."""
        m = re.fullmatch(r"(.+)\{(\d+(?:,\d+)*)\}", text.strip())
        if not m:
            raise NotationError(f"{text!r}: expected an ALS such as 'r2468c4{{1237}}'")
        digits = m.group(2).split(",") if "," in m.group(2) else list(m.group(2))
        return cls(_parse_cells(m.group(1), text), tuple(int(d) for d in digits))


Node = Candidate | Group | Als

_NODE_ORDER = {Candidate: 0, Group: 1, Als: 2}


def sort_key(node: Any) -> tuple:
    """A total order over mixed nodes and literals, so no output depends on set order."""
    if isinstance(node, Literal):
        return (*sort_key(node.cand), not node.on)
    if isinstance(node, Candidate):
        return (0, node.cell.row, node.cell.col, node.digit)
    if isinstance(node, Group):
        return (1, node.digit, tuple((c.row, c.col) for c in node.cells))
    if isinstance(node, Als):
        return (2, tuple((c.row, c.col) for c in node.cells), node.digits)
    return (9, str(node))


def _is_single_cell(text: str, size: int | None) -> bool:
    pieces = _PIECE_RE.findall(text)
    if len(pieces) != 1:
        return False
    # no group has a row or column 0: 'r10c8' is row 10, which Candidate.parse puts in range
    return (size is not None and size > 9) or all(len(part) == 1 or "0" in part for part in pieces[0])


@dataclass(frozen=True, slots=True)
class Literal:
    """`cand` is ON (true) or OFF (false); ``~lit`` is the opposite literal.

    >>> lit = lg.Literal.parse("+r2c8#1")
    >>> str(~lit), lit.on
    ('-r2c8#1', True)
    """

    cand: Node
    on: bool = True
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.cand, self.on)))

    def __hash__(self) -> int:
        return self._hash

    __reduce__ = _by_fields

    def __str__(self) -> str:
        return f"{'+' if self.on else '-'}{self.cand}"

    def __invert__(self) -> Literal:
        return Literal(self.cand, on=not self.on)

    def __lt__(self, other: Literal) -> bool:
        return sort_key(self) < sort_key(other)

    @classmethod
    def parse(cls, text: str, *, size: int | None = None) -> Literal:
        """Read ``+r2c8#1`` or ``-r2c8#1`` (also group and ALS nodes)."""
        text = text.strip()
        if not text or text[0] not in "+-":
            raise NotationError(f"{text!r}: expected a literal such as '+r2c8#1' or '-r2c8#1'")
        body = text[1:]
        if "{" in body:
            node: Node = Als.parse(body)
        elif _is_single_cell(body.partition("#")[0], size):
            node = Candidate.parse(body, size=size)
        else:
            node = Group.parse(body)
        return cls(node, on=text[0] == "+")


@dataclass(frozen=True, slots=True, order=True)
class House:
    """A house: ``kind`` is row, col, box, diag, window or region; ``index`` from 0."""

    kind: str
    index: int

    def __str__(self) -> str:
        return f"{_HOUSE_LETTERS[self.kind]}{self.index + 1}"

    @classmethod
    def parse(cls, text: str) -> House:
        """Read ``r2``, ``c8``, ``b3``, ``d1``, ``w1`` or ``j5`` (also ``row2``, ``col4``, ``box5``)."""
        m = re.fullmatch(r"(row|col|box|[rcbdwj])(\d+)", text.strip())
        if not m or int(m.group(2)) < 1:
            raise NotationError(f"{text!r}: expected a house such as 'r2', 'c8' or 'b3'")
        kind = {"row": "row", "col": "col", "box": "box"}.get(m.group(1)) or _HOUSE_KINDS[m.group(1)]
        return cls(kind, int(m.group(2)) - 1)

    @property
    def long_name(self) -> str:
        """GNPX style: ``row2``, ``col4``, ``box5``."""
        return f"{self.kind}{self.index + 1}"


@dataclass(frozen=True, slots=True, order=True)
class SetX:
    """A set of candidates of which exactly one is true.

    Either one cell's digits (``house`` is None) or one digit's cells in a house.

    >>> str(lg.SetX(house=lg.House("row", 1), digit=1)), str(lg.SetX(cell=lg.Cell(1, 7)))
    ('r2#1', 'r2c8')
    """

    house: House | None = None
    digit: int | None = None
    cell: Cell | None = None

    def __str__(self) -> str:
        if self.cell is not None:
            return str(self.cell)
        return f"{self.house}#{self.digit}"

    @classmethod
    def parse(cls, text: str) -> SetX:
        """Read ``r2#1`` or ``r2c8``."""
        text = text.strip()
        if "#" in text:
            house_text, _, digit_text = text.partition("#")
            if not digit_text.isdigit():
                raise NotationError(f"{text!r}: expected a set such as 'r2#1' or 'r2c8'")
            return cls(house=House.parse(house_text), digit=int(digit_text))
        return cls(cell=Cell.parse(text))
