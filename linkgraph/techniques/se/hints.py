"""The hints SE's producers return.

A `Hint` is what one rule found: SE's name and difficulty, the candidates it removes
(``removable``: cell -> digit mask), and the cell and digit it places, if any (SE's
``getCell``/``getValue``: singles, the direct rules, and chains whose result is ON). Rules
that can run inside a nested chain (intersections, hidden and naked pairs, X-Wing, the
static chains) also say which removed candidates they rely on (`rule_parents`), and a
pattern rule keeps its base and cover sets for the proof.

Examples
--------
>>> from linkgraph.techniques.se.hints import Hint, length_bonus
>>> h = Hint("Naked Pair", "naked-pair", 3.0, {10: 0b110})
>>> h.eliminations()
[(10, 1), (10, 2)]
>>> [round(length_bonus(c), 1) for c in (6, 7, 10, 11, 827)]
[0.0, 0.1, 0.2, 0.3, 1.6]
"""

from __future__ import annotations

from linkgraph.techniques.se.board import bits

__all__ = ["Hint", "PatternHint", "length_bonus"]


def length_bonus(complexity: int) -> float:
    """SE's length difficulty of a chain of `complexity` potentials: with ``L = complexity - 2``,
    0.1 for each of the thresholds 4, 6, 8, 12, 16, 24, 32, ... (alternately x3/2 and x4/3)
    that L exceeds, summed as SE sums it (repeated ``+= 0.1`` in doubles)."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


class Hint:
    """One finding of one rule.

    Attributes
    ----------
    name : str
        SE's name (``"Hidden Single"``, ``"Dynamic Forcing Chains (+)"`` ...).
    technique : str
        Our technique name for the step (``se-`` is prefixed when it becomes a Step).
    difficulty : float
        SE's rating of the hint.
    removable : dict of int to int
        Cell -> mask of digits removed.
    cell, value : int or None
        The placement, if the hint places a digit.
    """

    __slots__ = ("name", "technique", "difficulty", "removable", "cell", "value", "producer")

    def __init__(self, name: str, technique: str, difficulty: float, removable: dict[int, int],
                 cell: int | None = None, value: int = 0):
        self.name = name
        self.technique = technique
        self.difficulty = difficulty
        self.removable = removable
        self.cell = cell
        self.value = value
        self.producer = ""

    def eliminations(self) -> list[tuple[int, int]]:
        """(cell, digit) pairs removed, sorted."""
        return sorted((c, d) for c, m in self.removable.items() for d in bits(m))

    def removable_key(self) -> frozenset:
        return frozenset((c, m) for c, m in self.removable.items() if m)

    def is_worth(self) -> bool:
        return any(self.removable.values()) or self.cell is not None

    def apply(self, board) -> None:
        """Remove the candidates, then place the cell (SE's ``IndirectHint.apply``)."""
        for c, m in self.removable.items():
            for d in bits(m):
                board.remove(c, d)
        if self.cell is not None:
            board.place(self.cell, self.value)

    def rule_parents(self, source, current) -> list[tuple[int, int]]:
        """The candidates (cell, digit) live in `source` and gone in `current` that this hint
        relies on (SE's ``getRuleParents``); empty for rules that cannot nest."""
        return []

    def __repr__(self) -> str:
        return f"<{self.name} {self.difficulty:.1f} -{self.eliminations()} +{self.cell}:{self.value}>"


class PatternHint(Hint):
    """A hint with a base/cover proof: singles, intersections, subsets, fish.

    ``bases`` and ``covers`` are set-X texts (``r1#5``, ``r1c1``); ``kind`` says how the rule
    parents are read (``locking``, ``hidden``, ``naked``; others do not nest), and ``data``
    holds what `rule_parents` needs."""

    __slots__ = ("bases", "covers", "kind", "data")

    def __init__(self, name, technique, difficulty, removable, cell=None, value=0, *,
                 bases=(), covers=(), kind="", data=None):
        super().__init__(name, technique, difficulty, removable, cell, value)
        self.bases = tuple(bases)
        self.covers = tuple(covers)
        self.kind = kind
        self.data = data

    def rule_parents(self, source, current) -> list[tuple[int, int]]:
        from linkgraph.techniques.se.board import REGION_CELLS
        out: list[tuple[int, int]] = []
        if self.kind == "locking":
            # base regions' cells that held the digit and lost it, outside every cover region
            value, base_regions, cover_regions = self.data
            covered = {c for r in cover_regions for c in REGION_CELLS[r]}
            bit = 1 << value
            for r in base_regions:
                for c in REGION_CELLS[r]:
                    if source.cands[c] & bit and not current.cands[c] & bit and c not in covered:
                        out.append((c, value))
        elif self.kind == "hidden":
            region, values = self.data
            mine = 0
            for c in REGION_CELLS[region]:
                if any(current.cands[c] >> v & 1 for v in values):
                    mine |= 1 << c % 81
            for c in REGION_CELLS[region]:
                if not mine >> c & 1:
                    for v in values:
                        if source.cands[c] >> v & 1:
                            out.append((c, v))
        elif self.kind == "naked":
            cells, values = self.data
            mask = sum(1 << v for v in values)
            for c in cells:
                for d in bits(source.cands[c] & ~mask):
                    out.append((c, d))
        return out
