"""Propagation: follow premise literals through the sets X, all premises at once.

One engine serves every net search. A *branch* starts from its premise
literals (usually one); the state of all branches is a pair of boolean arrays
``ON`` and ``OFF`` of shape ``(branches, candidates)`` over the live candidates
of the grid, advanced in rounds against the set-X incidence matrix
(DESIGN.md §3):

- **weak**: an ON candidate turns every other member of its sets OFF;
- **strong**: a set with one member not OFF and no ON member turns it ON;
- ``depth >= 1`` (the seed's *+depth*) adds **locked candidates**: when every
  member of set A outside set B (same digit) is OFF, the group A∩B is ON and
  every member of B outside A is OFF;
- ``depth >= 2`` (*++depth*) adds **naked and hidden subsets and basic fish**
  of sizes 2 and 3: ``n`` disjoint base sets whose members not OFF all lie in
  ``n`` cover sets make every other member of the covers OFF;
- ``level >= 1`` (**nesting**): when a branch stops, each candidate it left
  open is tried ON inside that branch's state with a sub-net of level
  ``level - 1`` at the same depth; a candidate whose sub-net fails is OFF in
  the branch, which then goes on. Level 1 thus uses sub-nets without nesting.

A branch fails (a *contradiction*) on a set whose members are all OFF, two ON
members of one set, or a candidate both ON and OFF. A failed branch stops.

The engine (`linkgraph.nets.engine`) packs the branches as bits, 64 to a word, so
each rule is a few word-wise operations over every branch at once, over the
tables of `Structure` (`linkgraph.nets.structure`, built once per search). Every
derived literal keeps the round it was found in (``int16`` arrays; the
premises are round 0), which stands for its parent pointers: its reason is
recovered from those arrays when a proof is asked for. An ON literal of round
``t`` has a set whose other members were all OFF before round ``t``; an OFF
literal of round ``t`` has an ON literal of an earlier round in one of its
sets, or else a group or pattern that held before round ``t``, or else (with
nesting) a sub-net, re-run from the branch's literals of rounds before ``t``. `Outcome.explain` walks these reasons
back from the contradiction (or from chosen literals) and keeps only the
literals needed: the support DAG, returned as a proof graph.

Proof graph edges (steps.py conventions, plus three kinds for depth and nesting)
----------------------------------------------------------------------------------
- ``kind="weak"``, family ``cell``/``house``/``group``: ``u`` ON, ``v`` OFF,
  both in set ``via`` (a group node ``u``: every cell of the group is in it).
- ``kind="strong"``, family ``cell``/``house``/``group``: ``v`` ON (a candidate,
  or a group ``r2c78#1`` at depth >= 1) because every other live member of set
  ``via`` is OFF; those OFF literals are ``v``'s in-edges with that ``via``.
  A set whose other members were dead in the grid gives ``v`` no in-edge.
- ``kind="pattern"``, family ``subset`` or ``fish`` (depth 2): ``v`` OFF;
  ``via`` is ``"BASES|COVERS"``, set-X texts separated by spaces
  (``"r2c4 r2c6|r2#2 r2#8"`` for a naked pair, ``"r1#5 r5#5|c2#5 c7#5"`` for an
  X-Wing). The bases are disjoint sets X; ``v`` is in a cover and in no base;
  the in-edges are the OFF literals of every live base member outside the
  covers. Checking: those OFF literals leave every base's remaining members
  inside the covers, so the covers' true candidates are the bases' and ``v``
  is false.
- ``kind="net"``, family ``net`` (nesting): ``v`` is ``-x``; the sub-net that
  assumed ``+x`` inside the branch failed. ``via`` is the sub-net in
  SudokuWiki-like text; the edge attribute ``proof`` holds the sub-net's own
  proof graph (same conventions, recursively), whose ``premise`` nodes are
  ``+x`` and the outer literals it used; the in-edges of ``v`` come from
  exactly those outer literals. Checking: replay ``proof`` as a contradiction
  net from its premises.

``P.graph`` holds ``kind="net"``, ``depth``, ``level``, ``premises`` (texts)
and, for a failed branch, ``contradiction`` (``"both"``, ``"empty"`` or
``"two-on"``) with ``contradiction_via`` (the set X, empty for ``"both"``).

References
----------
SudokuWiki, "Forcing Nets" (../shared/seeds/sudokuwiki-forcing-nets.txt);
"Forcing Net" true/false arrays (../shared/seeds/forcing-net-arrays.txt);
Sudoku Assistant, "Hypothesis and (Dis)Proof" and "Depth"
(../shared/seeds/sudoku-assistant-techniques.txt).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx
import numpy as np

from linkgraph.errors import OptionError
from linkgraph.grid import Grid, as_grid
from linkgraph.model import Candidate, Literal, sort_key
from linkgraph.bitops import pack_pairs
from linkgraph.nets.engine import advance, advance_packed
from linkgraph.nets.proof import BranchProof
from linkgraph.nets.structure import Structure  # the tables of a search, re-exported

__all__ = ["Outcome", "Propagation", "Structure", "propagate", "propagate_many", "propagate_singles"]

MAX_DEPTH = 2
MAX_LEVEL = 3


def check_depth_level(depth: int, level: int) -> None:
    """Raise OptionError for a depth outside 0..2 or a level outside 0..3."""
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
        raise OptionError(f"depth: expected 0, 1 or 2, found {depth!r}")
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= MAX_LEVEL:
        raise OptionError(f"level: expected 0..{MAX_LEVEL}, found {level!r}")


class Propagation:
    """Batched result of `propagate_many`: the final state and rounds of every branch.

    ``on``/``off``: ``(branches, candidates)`` bool; ``failed``: round of the
    contradiction per branch (-1: none); ``rounds(b)``: the round each literal
    of branch ``b`` was derived in (-1: never, 0: premise).
    """

    def __init__(self, structure: Structure, premises, run, depth: int = 0, level: int = 0):
        self.structure = structure
        self.premises = premises
        self.run = run
        self.depth = depth
        self.level = level
        self.failed = run.failed
        self._rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    @property
    def on(self) -> np.ndarray:
        return self.run.on

    @property
    def off(self) -> np.ndarray:
        return self.run.off

    def rounds(self, b: int) -> tuple[np.ndarray, np.ndarray]:
        """(ron, roff) int16 rows of branch `b`."""
        b = int(b)
        if b not in self._rows:
            self._rows[b] = self.run.rounds(b)
        return self._rows[b]

    def prefetch(self, bs) -> None:
        """Find the `rounds` rows of branches `bs` together (a few word operations for all).

        >>> from linkgraph.nets.propagate import Structure, propagate_singles
        >>> st = Structure(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
        >>> res = propagate_singles(st, np.arange(st.size), np.ones(st.size, dtype=bool))
        >>> res.prefetch(range(0, st.size, 3))
        >>> all((res.rounds(b)[i] == res.run.rounds(b)[i]).all() for b in range(0, st.size, 3) for i in (0, 1))
        True
        """
        bs = sorted({int(b) for b in bs} - self._rows.keys())
        if bs and hasattr(self.run, "rows_many"):
            rows = self.run.rows_many(bs).astype(np.int16)
            for i, b in enumerate(bs):
                self._rows[b] = (rows[i, 0], rows[i, 1])

    def outcome(self, b: int) -> Outcome:
        """The Outcome of branch `b`."""
        return Outcome(self, b)


class Outcome:
    """What one branch of premises implies, and its contradiction if it fails.

    Attributes
    ----------
    premises : tuple of Literal
    literals : tuple of Literal
        Every literal the premises imply (premises excluded), sorted; for a failed
        branch, those found up to the contradiction.
    contradiction : tuple of Literal or None
        The literals of the contradiction with the smallest support.
    """

    def __init__(self, prop: Propagation, b: int):
        self._prop = prop
        self.branch = b
        st = prop.structure
        self.premises = prop.premises[b]
        ron, roff = prop.rounds(b)
        self._proof = BranchProof(st, ron, roff, prop.failed[b], depth=prop.depth, level=prop.level)
        lits = [Literal(st.candidate(k), on=True) for k in np.flatnonzero(ron > 0)]
        lits += [Literal(st.candidate(k), on=False) for k in np.flatnonzero(roff > 0)]
        self.literals = tuple(sorted(lits, key=sort_key))
        found = self._proof.best_contradiction()
        if found is None:
            self.contradiction = None
            self.contradiction_kind = None
            self.contradiction_via = None
        else:
            kind, j, keys, _ = found
            self.contradiction = tuple(sorted((self._proof.lit(*k) for k in keys), key=sort_key))
            self.contradiction_kind = kind
            self.contradiction_via = st.set_text(j) if j >= 0 else ""

    def implies(self, lit: Literal) -> bool:
        """True if the branch derived `lit` (or assumed it)."""
        k = self._prop.structure.index(lit.cand)
        if k < 0:
            return False
        ron, roff = self._prop.rounds(self.branch)
        return bool((ron if lit.on else roff)[k] >= 0)

    def explain(self, targets=None) -> nx.DiGraph:
        """The support DAG of the contradiction (or of `targets`, literals) as a proof graph.

        >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
        >>> out = lg.propagate(grid, [lg.Literal.parse("+r2c8#1")])
        >>> P = out.explain([lg.Literal.parse("-r2c8#2")])
        >>> [(str(u), str(v), d["kind"]) for u, v, d in P.edges(data=True)]
        [('+r2c8#1', '-r2c8#2', 'weak')]
        """
        keys = None
        if targets is not None:
            st = self._prop.structure
            keys = []
            for lit in targets:
                if not self.implies(lit):
                    raise ValueError(f"{lit} does not follow from the premises")
                keys.append((st.index(lit.cand), lit.on))
        P = self._proof.explain(keys)
        P.graph["premises"] = [str(p) for p in self.premises]
        return P

    def support_size(self, targets=None) -> int:
        """Number of literals in the explanation."""
        return self.explain(targets).number_of_nodes()


def _init_state(st: Structure, premises: Sequence[Iterable[Literal]]):
    B, L = len(premises), st.size
    on = np.zeros((B, L), dtype=bool)
    off = np.zeros((B, L), dtype=bool)
    prem = []
    for b, lits in enumerate(premises):
        lits = tuple(lits)
        prem.append(lits)
        for lit in lits:
            if not isinstance(lit, Literal) or not isinstance(lit.cand, Candidate):
                raise OptionError(f"premises: expected candidate literals such as '+r2c8#1', found {lit!r}")
            k = st.index(lit.cand)
            if k < 0:
                raise OptionError(f"premises: {lit.cand} is not an open candidate of the grid")
            (on if lit.on else off)[b, k] = True
    return prem, on, off


def propagate_many(
    grid: Grid | Structure,
    premises: Sequence[Iterable[Literal]],
    *,
    depth: int = 0,
    level: int = 0,
) -> Propagation:
    """Propagate many branches at once, one premise list per branch.

    Parameters
    ----------
    grid : Grid or Structure
        The position (a Structure built with at least `depth` may be reused).
    premises : sequence of iterables of Literal
        One list of premise literals per branch.
    depth, level : int
        See the module docstring.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> from linkgraph.nets.propagate import propagate_many
    >>> res = propagate_many(grid, [[lg.Literal.parse("+r2c8#1")], [lg.Literal.parse("+r2c8#2")]])
    >>> failed = res.failed.tolist()  # the round of each branch's contradiction, -1 for none
    >>> failed[0] > 0, failed[1]  # the solution has 2 in r2c8: +r2c8#1 fails, +r2c8#2 cannot
    (True, -1)
    """
    check_depth_level(depth, level)
    st = grid if isinstance(grid, Structure) and grid.depth >= depth else Structure(
        grid.grid if isinstance(grid, Structure) else grid, depth=depth)
    prem, on, off = _init_state(st, premises)
    run = advance(st, on, off, depth=depth, level=level, track=True)
    return Propagation(st, prem, run, depth, level)


class SinglePremises(Sequence):
    """Premise lists of one literal each, ``(ks[b], ons[b])``, made into Literals on access."""

    def __init__(self, st: Structure, ks: np.ndarray, ons: np.ndarray):
        self.st, self.ks, self.ons = st, ks, ons

    def __len__(self) -> int:
        return len(self.ks)

    def __getitem__(self, b):
        if isinstance(b, slice):
            return [self[i] for i in range(*b.indices(len(self)))]
        return (Literal(self.st.candidate(int(self.ks[b])), on=bool(self.ons[b])),)


def propagate_singles(st: Structure, ks: np.ndarray, ons: np.ndarray, *, depth: int = 0, level: int = 0) -> Propagation:
    """Like `propagate_many` with one premise per branch, given as local indices and signs.

    Examples
    --------
    >>> from linkgraph.nets.propagate import Structure, propagate_singles
    >>> st = Structure(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> k = st.index(lg.Candidate.parse("r2c8#1"))
    >>> res = propagate_singles(st, np.array([k]), np.array([True]))
    >>> str(res.premises[0][0]), bool(res.failed[0] >= 0)  # r2c8 is 2 in the solution
    ('+r2c8#1', True)
    """
    check_depth_level(depth, level)
    if st.depth < depth:
        st = Structure(st.grid, depth=depth)
    ks = np.asarray(ks, dtype=np.int64)
    ons = np.asarray(ons, dtype=bool)
    B, L = len(ks), st.size
    # the premises straight into packed words (bit b of row ks[b]), not (B, L) bools packed after
    W = max(1, -(-B // 64))
    b = np.arange(B)
    on = pack_pairs(ks[ons], b[ons], (L, B), words=W)
    off = pack_pairs(ks[~ons], b[~ons], (L, B), words=W)
    run = advance_packed(st, on, off, B, depth=depth, level=level, track=True)
    return Propagation(st, SinglePremises(st, ks, ons), run, depth, level)


def propagate(grid: Grid, premises: Iterable[Literal], *, depth: int = 0, level: int = 0) -> Outcome:
    """Propagate one list of premise literals; return what they imply and any contradiction.

    Parameters
    ----------
    grid : Grid
        The position.
    premises : iterable of Literal
        Literals assumed together (``+r2c8#1`` ON, ``-r2c8#1`` OFF).
    depth : int, optional
        0: sets X only; 1: also locked candidates; 2: also subsets and fish.
    level : int, optional
        Nesting: 0 none; 1 a candidate whose depth-`depth` sub-net fails is OFF.

    Returns
    -------
    Outcome

    Raises
    ------
    OptionError
        A bad depth or level, or a premise that is not an open candidate.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> outcome = lg.propagate(grid, [lg.Literal.parse("+r2c8#2")])  # true in the solution
    >>> outcome.contradiction is None, len(outcome.literals) > 1
    (True, True)
    >>> lg.propagate(grid, [lg.Literal.parse("+r2c8#1")]).contradiction is None  # false
    False
    """
    return propagate_many(as_grid(grid), [tuple(premises)], depth=depth, level=level).outcome(0)

