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

The engine (`linkgraph.bitnet`) packs the branches as bits, 64 to a word, so
each rule is a few word-wise operations over every branch at once. Every
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
from functools import cached_property, lru_cache
from itertools import combinations

import numpy as np

from linkgraph.bitnet import Tables, advance
from linkgraph.errors import OptionError
from linkgraph.grid import Grid
from linkgraph.model import Candidate, Literal
from linkgraph.netproof import Outcome
from linkgraph.techniques.base import bits

__all__ = ["Outcome", "Propagation", "Structure", "propagate", "propagate_many", "propagate_singles"]

MAX_DEPTH = 2
MAX_LEVEL = 3


def check_depth_level(depth: int, level: int) -> None:
    """Raise OptionError for a depth outside 0..2 or a level outside 0..3."""
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
        raise OptionError(f"depth: expected 0, 1 or 2, found {depth!r}")
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= MAX_LEVEL:
        raise OptionError(f"level: expected 0..{MAX_LEVEL}, found {level!r}")


@lru_cache(maxsize=16)
def _cand_set_table(g) -> np.ndarray:
    """``(candidates, r)`` global set indices of each candidate, padded with ``number_of_sets``."""
    rows = g.cand_sets
    r = max(len(x) for x in rows)
    out = np.full((len(rows), r), g.number_of_sets, dtype=np.int64)
    for k, x in enumerate(rows):
        out[k, : len(x)] = x
    out.setflags(write=False)
    return out


def _row_lists(m: np.ndarray) -> list[np.ndarray]:
    """``[np.flatnonzero(row) for row in m]`` for a 2-D bool array, in one nonzero call."""
    rows, cols = np.nonzero(m)
    return np.split(cols.astype(np.intp), np.cumsum(np.bincount(rows, minlength=len(m)))[:-1]) if len(m) else []


@lru_cache(maxsize=16)
def _all_set_texts(g) -> tuple[list[str], list[str]]:
    """Text and family (``cell``/``house``) of every set X of geometry `g`."""
    sets = range(g.number_of_sets)
    return [str(g.setx(j)) for j in sets], ["cell" if g.is_cell_set(j) else "house" for j in sets]


class Structure:
    """The live candidates and sets X of one grid as matrices (built once per search).

    ``cands`` are the live candidates that share a set with another live one
    (a candidate alone in all its sets is simply true and takes no part);
    ``sets`` the sets X holding at least one of them; ``M`` the
    ``(candidates, sets)`` incidence as float32 for matrix products.
    """

    def __init__(self, grid: Grid, *, depth: int = 0):
        from linkgraph.errors import check_search_size

        check_search_size("forcing-net search", int(grid.live.sum()))
        g = grid.geometry
        self.grid = grid
        self.geometry = g
        self.depth = depth
        live = grid.live
        sm = g.set_members  # (S_all, n)
        count = live[sm].sum(axis=1)
        flag = np.zeros(g.number_of_candidates, dtype=bool)
        flag[sm[count >= 2].ravel()] = True
        keep = live & flag  # live and in a set with another live member
        self.cands = np.flatnonzero(keep).astype(np.int32)  # kept candidate -> global index
        L = len(self.cands)
        self.local = np.full(g.number_of_candidates, -1, dtype=np.int32)
        self.local[self.cands] = np.arange(L, dtype=np.int32)
        kept = keep[sm]
        self.sets = np.flatnonzero(kept.any(axis=1)).astype(np.int32)
        S = len(self.sets)
        set_local = np.full(len(sm) + 1, S, dtype=np.int64)  # last entry: padding
        set_local[self.sets] = np.arange(S)
        # padded tables: members of each set (pad L), sets of each candidate (pad S)
        mem = np.where(kept[self.sets], self.local[sm[self.sets]], L).astype(np.int64)
        mem.sort(axis=1)
        width = int(kept[self.sets].sum(axis=1).max()) if S else 1
        self.mem_pad = np.ascontiguousarray(mem[:, : max(width, 1)])
        cs = set_local[_cand_set_table(g)[self.cands]]
        cs.sort(axis=1)
        self.cs_pad = np.ascontiguousarray(cs)
        self._cands_cache: dict[int, Candidate] = {}
        self._groups = self._build_groups() if depth >= 1 else None
        self._patterns = self._build_patterns() if depth >= 2 else None

    # ---- derived forms (built on first use, for proofs and depth >= 1) ------
    @cached_property
    def members(self) -> list[np.ndarray]:
        """Local member indices of each set, ascending."""
        n = (self.mem_pad < self.size).sum(axis=1).tolist()  # rows are sorted, padding last
        return [row[:m].copy() for row, m in zip(self.mem_pad, n)]

    @cached_property
    def mem_pad_ext(self) -> np.ndarray:
        """`mem_pad` with one more row, all padding (the members of the padding set)."""
        return np.vstack([self.mem_pad, np.full((1, self.mem_pad.shape[1]), self.size)])

    @cached_property
    def strong_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For each candidate's sets (`cs_pad`): their members ``(L, r, w)``, which of those
        are real members other than the candidate, the fixed part of the strong-set score
        (member count, then set index) and which sets are real (not padding)."""
        L = self.size
        mem = self.mem_pad_ext[self.cs_pad]
        valid = (mem < L) & (mem != np.arange(L)[:, None, None])
        big = np.int64(1 << 20)
        return mem, valid, valid.sum(axis=2) * big * big + self.cs_pad, self.cs_pad < len(self.sets)

    @cached_property
    def cand_sets(self) -> list[np.ndarray]:
        """Local set indices of each candidate, ascending."""
        n = (self.cs_pad < len(self.sets)).sum(axis=1).tolist()  # rows are sorted, padding last
        return [row[:m].copy() for row, m in zip(self.cs_pad, n)]

    @cached_property
    def Mb(self) -> np.ndarray:
        """``(candidates, sets)`` bool incidence."""
        S = len(self.sets)
        out = np.zeros((self.size, S + 1), dtype=bool)
        out[np.arange(self.size)[:, None], self.cs_pad] = True
        return np.ascontiguousarray(out[:, :S])

    @cached_property
    def M(self) -> np.ndarray:
        return self.Mb.astype(np.float32)

    @cached_property
    def sees(self) -> np.ndarray:
        """``(candidates, candidates)`` bool: two distinct kept candidates share a set."""
        return self.geometry.sees[np.ix_(self.cands, self.cands)]

    @cached_property
    def set_local(self) -> dict[int, int]:
        return {int(s): i for i, s in enumerate(self.sets)}

    @cached_property
    def literal_cache(self) -> list[Candidate]:
        return [self.candidate(k) for k in range(self.size)]

    @cached_property
    def tables(self) -> Tables:
        """Padded index tables for the bit engine."""
        return Tables(self)

    # ---- text and values -------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.cands)

    def candidate(self, k: int) -> Candidate:
        k = int(k)
        c = self._cands_cache.get(k)
        if c is None:
            c = self._cands_cache[k] = self.geometry.candidate(int(self.cands[k]))
        return c

    @cached_property
    def _set_texts(self) -> tuple[list[str], list[str]]:
        texts, families = _all_set_texts(self.geometry)
        sets = self.sets.tolist()
        return [texts[j] for j in sets], [families[j] for j in sets]

    @cached_property
    def members_list(self) -> list[list[int]]:
        """`members` as Python lists."""
        return [m.tolist() for m in self.members]

    @cached_property
    def cand_sets_list(self) -> list[list[int]]:
        """`cand_sets` as Python lists."""
        return [c.tolist() for c in self.cand_sets]

    def set_text(self, j: int) -> str:
        return self._set_texts[0][j]

    def set_family(self, j: int) -> str:
        return self._set_texts[1][j]

    def index(self, cand: Candidate) -> int:
        """Local index of `cand`, -1 if it takes no part (dead or alone)."""
        return int(self.local[self.geometry.index(cand)])

    def patterns_targeting(self, k: int) -> list[int]:
        """Depth-2 patterns whose covers hold candidate `k` outside their bases."""
        if not hasattr(self, "_by_target"):
            pt = self._patterns
            cols, ks = np.nonzero(pt["T"] > 0.5)
            by: dict[int, list[int]] = {}
            for c, kk in zip(cols.tolist(), ks.tolist()):
                p = int(pt["owner"][c])
                lst = by.setdefault(kk, [])
                if not lst or lst[-1] != p:
                    lst.append(p)
            self._by_target = by
        return self._by_target.get(int(k), [])

    # ---- depth 1: locked candidates ----------------------------------------
    def _build_groups(self):
        """Pairs (A, B) of same-digit sets sharing >= 2 live members: (outA, outB, inter)."""
        house = [j for j in range(len(self.sets)) if not self.geometry.is_cell_set(self.sets[j])]
        digit = {j: int(self.sets[j] - self.geometry.number_of_cells) % self.geometry.size for j in house}
        by_digit: dict[int, list[int]] = {}
        for j in house:
            by_digit.setdefault(digit[j], []).append(j)
        Mb = self.Mb
        Mi = Mb.astype(np.int32)
        ra: list[int] = []
        rb: list[int] = []
        for js in by_digit.values():
            # pairs (a, b), a != b, in the order a then b: |A & B| >= 2 and B has a member outside A
            sub = Mi[:, js]
            inter = sub.T @ sub
            cond = (inter >= 2) & (sub.sum(axis=0)[None, :] > inter)
            np.fill_diagonal(cond, False)
            ia, ib = np.nonzero(cond)
            ra += [js[i] for i in ia.tolist()]
            rb += [js[i] for i in ib.tolist()]
        A, B = Mb[:, ra].T, Mb[:, rb].T  # (pairs, candidates)
        outA = (A & ~B).astype(np.float32)
        outB = (B & ~A).astype(np.float32)
        inter = A & B
        return {
            "pairs": list(zip(ra, rb)),
            "outA_t": np.ascontiguousarray(outA.T),
            "outB": outB,
            "inter": _row_lists(inter),
            "outA": _row_lists(A & ~B),
        }

    # ---- depth 2: subsets and fish ----------------------------------------
    def _build_patterns(self):
        """Sheets of (bases, covers): naked/hidden subsets per house, fish per digit (rows/cols).

        A pattern is a choice of n bases from one sheet; each base member belongs to one
        cover of the sheet. The pattern holds when the members not OFF of its bases touch
        at most n covers.
        """
        g = self.geometry
        n = g.size
        sheets = []  # (family, [(base set local, {member local: cover set local})])
        glob_to_local = self.set_local
        members = self.members_list
        digit = (self.cands % n).tolist()  # digit - 1 of each local candidate
        cell = (self.cands // n).tolist()  # its cell index
        for h in range(len(g.houses)):
            cells = g.house_cells[h]
            hd = [g.number_of_cells + h * n + d for d in range(n)]
            naked = []
            for c in cells:
                if int(c) in glob_to_local:
                    mp = {}
                    for k in members[glob_to_local[int(c)]]:
                        d = digit[k]
                        if hd[d] in glob_to_local:
                            mp[k] = glob_to_local[hd[d]]
                    naked.append((glob_to_local[int(c)], mp))
            sheets.append(("subset", naked))
            hidden = []
            for s in hd:
                if s in glob_to_local:
                    mp = {k: glob_to_local[cell[k]] for k in members[glob_to_local[s]]}
                    hidden.append((glob_to_local[s], mp))
            sheets.append(("subset", hidden))
        lines = {"row": [], "col": []}
        for h, house in enumerate(g.houses):
            if house.kind in lines:
                lines[house.kind].append(h)
        for base_kind, cover_kind in (("row", "col"), ("col", "row")):
            for d in range(n):
                cover_of_cell = {}
                for h in lines[cover_kind]:
                    s = g.number_of_cells + h * n + d
                    if s in glob_to_local:
                        for c in g.house_cells[h]:
                            cover_of_cell[int(c)] = glob_to_local[s]
                fish = []
                for h in lines[base_kind]:
                    s = g.number_of_cells + h * n + d
                    if s in glob_to_local:
                        mp = {k: cover_of_cell[cell[k]] for k in members[glob_to_local[s]]}
                        fish.append((glob_to_local[s], mp))
                sheets.append(("fish", fish))
        pats = []  # (family, bases, covers)
        L = self.size
        for family, bases in sheets:
            usable = [b for b in bases if len(b[1]) >= 2]
            masks = []  # covers touched by each base, as a bit mask over cover set indices
            for _, mp in usable:
                m = 0
                for c in mp.values():
                    m |= 1 << c
                masks.append(m)
            nu = len(usable)
            for i in range(nu):
                for j in range(i + 1, nu):
                    m = masks[i] | masks[j]
                    if 2 <= m.bit_count() <= 4:
                        pats.append((family, (usable[i], usable[j]), bits(m)))
            for i in range(nu):
                for j in range(i + 1, nu):
                    mij = masks[i] | masks[j]
                    if mij.bit_count() > 5:
                        continue  # a third base only adds covers
                    for k in range(j + 1, nu):
                        m = mij | masks[k]
                        if 3 <= m.bit_count() <= 5:
                            pats.append((family, (usable[i], usable[j], usable[k]), bits(m)))
        # matrices: for pattern p, cover columns; member k of a base -> cover index
        P = len(pats)
        col_owner: list[int] = []
        a_rows: list[int] = []  # (member, column) pairs of A
        a_cols: list[int] = []
        t_cols: list[int] = []  # (column, cover member outside every base) pairs of T
        t_ks: list[int] = []
        members = self.members_list
        col = 0
        for p, (family, combo, covers) in enumerate(pats):
            in_base = set()
            for _, mp in combo:
                in_base.update(mp)
            pos = {c: col + i for i, c in enumerate(covers)}
            for _, mp in combo:
                for k, cv in mp.items():
                    a_rows.append(k)
                    a_cols.append(pos[cv])
            for c in covers:
                col_owner.append(p)
                out = [k for k in members[c] if k not in in_base]
                t_ks += out
                t_cols += [col] * len(out)
                col += 1
        K = len(col_owner)
        A = np.zeros((L, K), dtype=np.float32)
        A[a_rows, a_cols] = 1.0
        owner = np.array(col_owner, dtype=np.int32)
        # elimination targets per (pattern, cover column): cover members outside every base
        T = np.zeros((K, L), dtype=np.float32)
        T[t_cols, t_ks] = 1.0
        sizes = np.array([len(combo) for _, combo, _ in pats], dtype=np.float32)
        return {"pats": pats, "A": A, "owner": owner, "T": T, "sizes": sizes, "P": P}


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

        >>> from linkgraph.propagate import Structure, propagate_singles
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
    >>> from linkgraph.propagate import propagate_many
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


class _Singles(Sequence):
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
    >>> from linkgraph.propagate import Structure, propagate_singles
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
    on = np.zeros((B, L), dtype=bool)
    off = np.zeros((B, L), dtype=bool)
    b = np.arange(B)
    on[b[ons], ks[ons]] = True
    off[b[~ons], ks[~ons]] = True
    run = advance(st, on, off, depth=depth, level=level, track=True)
    return Propagation(st, _Singles(st, ks, ons), run, depth, level)


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
    return propagate_many(grid, [tuple(premises)], depth=depth, level=level).outcome(0)

