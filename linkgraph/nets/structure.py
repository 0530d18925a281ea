"""The tables of a net search: one grid's live candidates and sets X as arrays.

`Structure` is built once per search and read by the bit engine
(`linkgraph.nets.engine`, through `Structure.tables`), by the propagation API
(`linkgraph.nets.propagate`, which re-exports it) and by the proofs
(`linkgraph.nets.proof`): the kept candidates and sets X with their padded member
and set tables, the incidence matrices, the set texts and, for ``depth >= 1``,
the pairs of sets that lock candidates, for ``depth >= 2`` the subset and fish
patterns (the rules they stand for are in `linkgraph.nets.propagate`'s docstring).

Examples
--------
In an empty grid every candidate takes part, and so does every set X: 81
cells and 27 houses times 9 digits. A candidate's sets are its cell, then
its row, column and box for its digit:

>>> from linkgraph.nets.structure import Structure
>>> st = Structure(lg.Grid.empty())
>>> st.size, len(st.sets)
(729, 324)
>>> str(st.candidate(0)), [st.set_text(j) for j in st.cand_sets_list[0]]
('r1c1#1', ['r1c1', 'r1#1', 'c1#1', 'b1#1'])
"""

from __future__ import annotations

from functools import cached_property, lru_cache
import numpy as np

from linkgraph.nets.engine import Tables, kernels
from linkgraph.grid import Grid
from linkgraph.model import Candidate

__all__ = ["Structure"]


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


@lru_cache(maxsize=16)
def _sees_table(g) -> np.ndarray:
    """``(candidates + 1, d)``: the candidates each candidate sees (`Geometry.sees`), ascending,
    padded with ``number_of_candidates``; the last row, all padding, is where `Structure`
    sends a dropped candidate."""
    sees = g.sees
    n = sees.sum(axis=1)
    out = np.full((len(sees) + 1, max(int(n.max(initial=0)), 1)), len(sees), dtype=np.int64)
    rows, cols = np.nonzero(sees)
    out[rows, np.arange(len(rows)) - np.repeat(np.cumsum(n) - n, n)] = cols
    out.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def _partner_table(g) -> np.ndarray:
    """``(houses, p)``: per house, the houses sharing 2 or more cells with it
    (`Geometry.intersections`, in its order), padded with -1."""
    partners: list[list[int]] = [[] for _ in g.house_cells]
    for (h1, h2), _ in g.intersections:
        partners[h1].append(h2)
        partners[h2].append(h1)
    out = np.full((len(partners), max((len(x) for x in partners), default=0) + 1), -1, dtype=np.int64)
    for h, x in enumerate(partners):
        out[h, : len(x)] = x
    out.setflags(write=False)
    return out


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

    def __init__(self, grid: Grid, *, depth: int = 0, base: Structure | None = None):
        """`base`, a Structure of the same grid at another depth, lends its tables (the
        candidates, sets and their padded tables, and its depth-1 pairs when it has them)."""
        from linkgraph.errors import check_search_size

        if base is not None and base.grid == grid:
            self._share(base, depth)
            return
        check_search_size("forcing-net search", int(grid.live.sum()))
        g = grid.geometry
        self.grid = grid
        self.geometry = g
        self.depth = depth
        # the kept candidates (live and in a set with another live member) and their sets, with
        # the padded tables: members of each set (pad L), sets of each candidate (pad S), in one
        # compiled call (the numpy form it replaced is the oracle in tests/nets/test_structure.py)
        self.cands, self.local, self.sets, self.mem_pad, self.cs_pad = kernels().structure_tables(
            grid.live, g.set_members, _cand_set_table(g), g.number_of_sets)
        self._cands_cache: dict[int, Candidate] = {}
        self._groups = self._build_groups() if depth >= 1 else None
        self._patterns = self._build_patterns() if depth >= 2 else None
        self._places: dict[int, tuple[list[int], list[int]]] = {}

    #: The derived forms that do not depend on the depth, lent with the tables by `_share`.
    _SHARED = ("members_list", "cand_sets_list", "set_local", "sees", "sees_pad", "literal_keys")

    def _share(self, base: Structure, depth: int) -> None:
        for name in ("grid", "geometry", "cands", "local", "sets", "mem_pad", "cs_pad"):
            setattr(self, name, getattr(base, name))
        for name in self._SHARED:
            if name in base.__dict__:
                self.__dict__[name] = base.__dict__[name]
        self.depth = depth
        self._cands_cache = base._cands_cache
        if depth >= 1:
            self._groups = base._groups if base._groups is not None else self._build_groups()
        else:
            self._groups = None
        self._patterns = self._build_patterns() if depth >= 2 else None
        self._places = {}

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
    def strong_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each candidate's sets (`cs_pad`): their members other than the candidate
        ``(L, r, w)`` (the candidate itself and padding: ``L``), the fixed part of the
        strong-set score (member count, then set index) and which sets are real (not padding)."""
        L = self.size
        mem = self.mem_pad_ext[self.cs_pad]
        valid = (mem < L) & (mem != np.arange(L)[:, None, None])
        big = np.int64(1 << 20)
        return np.where(valid, mem, L), valid.sum(axis=2) * big * big + self.cs_pad, self.cs_pad < len(self.sets)

    @cached_property
    def literal_keys(self) -> tuple[list[tuple[int, bool]], list[tuple[int, bool]]]:
        """The keys ``(k, False)`` and ``(k, True)`` of every candidate, made once (the proofs
        of a search share them instead of building a tuple at every step of their walks)."""
        return [(k, False) for k in range(self.size)], [(k, True) for k in range(self.size)]

    @cached_property
    def strong_parents(self) -> list[dict[int, list[tuple[int, bool]]]]:
        """Per candidate ``k``, filled on first use: set ``j`` -> the OFF keys of ``j``'s other
        members (the parents of ``+k`` forced by ``j``, as the support walks read them)."""
        return [{} for _ in range(self.size)]

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
    def sees_pad(self) -> np.ndarray:
        """``(candidates, d)``: the candidates each one sees (`sees`), ascending, padded with
        the size (one past the last candidate)."""
        # read off the geometry's table of peers (a few per candidate) instead of the (L, L)
        # block of `sees`: each global peer mapped to its local index, the dropped ones (-1)
        # to the padding, which sorts last
        L = self.size
        local = np.append(self.local, np.int32(-1))
        out = local.take(_sees_table(self.geometry)[self.cands]).astype(np.int64)
        out[out < 0] = L
        out.sort(axis=1)
        width = int((out < L).sum(axis=1).max(initial=0))
        return np.ascontiguousarray(out[:, : max(width, 1)])

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
        """`members` as Python lists (read off `mem_pad` in one conversion, not one per set)."""
        n = (self.mem_pad < self.size).sum(axis=1).tolist()  # rows are sorted, padding last
        return [row[:m] for row, m in zip(self.mem_pad.tolist(), n)]

    @cached_property
    def cand_sets_list(self) -> list[list[int]]:
        """`cand_sets` as Python lists (read off `cs_pad` in one conversion)."""
        n = (self.cs_pad < len(self.sets)).sum(axis=1).tolist()  # rows are sorted, padding last
        return [row[:m] for row, m in zip(self.cs_pad.tolist(), n)]

    def set_text(self, j: int) -> str:
        return self._set_texts[0][j]

    def set_family(self, j: int) -> str:
        return self._set_texts[1][j]

    def index(self, cand: Candidate) -> int:
        """Local index of `cand`, -1 if it takes no part (dead or alone)."""
        return int(self.local[self.geometry.index(cand)])

    def patterns_targeting(self, k: int) -> list[int]:
        """Depth-2 patterns whose covers hold candidate `k` outside their bases."""
        return self._by_target.get(int(k), [])

    @cached_property
    def _by_target(self) -> dict[int, list[int]]:
        """Per target candidate, its patterns ascending: the (column, target) pairs ``T`` come
        by column, so by pattern; sorted by target (stably), each run of one target lists its
        patterns ascending, a pattern once."""
        pt = self._patterns
        cols, ks = pt["T"]
        if not len(ks):
            return {}
        order = np.argsort(ks, kind="stable")
        k = ks.take(order)
        p = pt["owner"].take(cols.take(order)).astype(np.int64)
        keep = np.flatnonzero(np.r_[True, (k[1:] != k[:-1]) | (p[1:] != p[:-1])])
        k, p = k.take(keep), p.take(keep)
        starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
        ps, bounds = p.tolist(), [*starts.tolist(), len(p)]
        return {kk: ps[a:b] for kk, a, b in zip(k.take(starts).tolist(), bounds, bounds[1:])}

    def pattern_places(self, p: int) -> tuple[list[int], list[int]]:
        """Depth-2 pattern `p`'s base members, base by base in member order, and the cover
        set of each (Python lists, made on first use from the flat base table: a base's
        members there are all of its members, in member order)."""
        got = self._places.get(p)
        if got is None:
            got = self._places[p] = self._patterns["pats"].places(p)
        return got

    @cached_property
    def member_sets(self) -> list[frozenset[int]]:
        """`members` as frozensets (membership tests one literal at a time)."""
        return [frozenset(m) for m in self.members_list]

    @cached_property
    def groups_targeting(self) -> list[list[int]]:
        """Per candidate, the depth-1 pairs (A, B) whose B outside A holds it, ascending."""
        by: list[list[int]] = [[] for _ in range(self.size)]
        ps, ks = self._groups["outB"]  # by pair, then candidate: each candidate's pairs ascend
        for p, k in zip(ps.tolist(), ks.tolist()):
            by[k].append(p)
        return by

    @cached_property
    def group_outside(self) -> list[list[int]]:
        """Per depth-1 pair (A, B), the members of A outside B (Python lists)."""
        return self._groups["outA"]

    # ---- depth 1: locked candidates ----------------------------------------
    def _build_groups(self):
        """Pairs (A, B) of same-digit sets sharing >= 2 live members, B with a member outside A,
        by digit (in the order the digits' first sets come), then A, then B: ``pairs``, and per
        pair ``inter`` (A & B), ``outA`` (A - B) as lists of local candidates ascending, ``outB`` (B - A)
        as sorted (pair, candidate) arrays; ``outA_flat`` is ``outA`` as the engine's tables
        read it (`linkgraph.nets.engine.Tables.groups`): where each list starts (and one past
        the last) and the lists end to end.

        Only sets of two houses that share 2 or more cells (`Geometry.intersections`) can share
        2 members; the pairs and their member lists come from one compiled call
        (`linkgraph.nets.kernel.group_pairs`, a merge of the two sets' ascending members).
        """
        g = self.geometry
        gl = np.full(g.number_of_sets, -1, dtype=np.int64)
        gl[self.sets] = np.arange(len(self.sets))
        ra, rb, iptr, ival, optr, oval, pb, kb = kernels().group_pairs(
            self.sets.astype(np.int64), self.mem_pad, self.size, g.size, g.number_of_cells, _partner_table(g), gl)
        optr_a, oval_a = optr, oval
        ival, oval = ival.tolist(), oval.tolist()
        iptr, optr = iptr.tolist(), optr.tolist()
        return {
            "pairs": list(zip(ra.tolist(), rb.tolist())),
            "outB": (pb, kb),
            "inter": [ival[x:y] for x, y in zip(iptr, iptr[1:])],
            "outA": [oval[x:y] for x, y in zip(optr, optr[1:])],
            "outA_flat": (optr_a, oval_a),  # "outA" end to end, and where each list starts
        }

    # ---- depth 2: subsets and fish ----------------------------------------
    def _build_patterns(self):
        """Sheets of (bases, covers): naked/hidden subsets per house, fish per digit (rows/cols).

        A pattern is a choice of n bases from one sheet; each base member belongs to one
        cover of the sheet. The pattern holds when the members not OFF of its bases touch
        at most n covers. The enumeration is one compiled call
        (`linkgraph.nets.kernel.patterns`, which lists the sheets and their order); the
        patterns as Python tuples (``pats``: family, bases with their member -> cover maps,
        covers) are made one at a time, for the proofs that read them.
        """
        g = self.geometry
        n = g.size
        gl = np.full(g.number_of_sets, -1, dtype=np.int64)
        gl[self.sets] = np.arange(len(self.sets))
        kinds = [h.kind for h in g.houses]
        rows = [h for h, kind in enumerate(kinds) if kind == "row"]
        cols = [h for h, kind in enumerate(kinds) if kind == "col"]
        width = max(len(rows), len(cols), 1)
        lines = np.full((2, width), -1, dtype=np.int64)
        lines[0, : len(rows)], lines[1, : len(cols)] = rows, cols
        (fam, bset, bptr, bk, bcov, psheet, bases, cptr, covs, a_cols, a_rows, owner, t_cols, t_ks,
         sizes) = kernels().patterns(n, g.number_of_cells, np.ascontiguousarray(g.house_cells, dtype=np.int64),
                                     lines, lines[::-1].copy(), gl, self.mem_pad, self.cands.astype(np.int64))
        P = len(psheet)
        pats = _Patterns(fam[psheet].tolist(), bases.tolist(), cptr.tolist(), covs.tolist(), bset.tolist(),
                         bptr.tolist(), bk.tolist(), bcov.tolist())
        return {"pats": pats, "A": (a_cols, a_rows), "owner": owner, "T": (t_cols, t_ks), "sizes": sizes,
                "P": P, "K": len(owner)}


class _Patterns:
    """The depth-2 patterns of a structure as ``(family, ((base, {member: cover}), ...),
    covers)`` tuples, each made on first use from the compiled enumeration's flat arrays
    (a search reads few of them)."""

    __slots__ = ("_fam", "_bases", "_cptr", "_covs", "_bset", "_bptr", "_bk", "_bcov", "_made")

    def __init__(self, fam, bases, cptr, covs, bset, bptr, bk, bcov):
        self._fam, self._bases, self._cptr, self._covs = fam, bases, cptr, covs
        self._bset, self._bptr, self._bk, self._bcov = bset, bptr, bk, bcov
        self._made: dict[int, tuple] = {}

    def __len__(self) -> int:
        return len(self._fam)

    def size(self, p: int) -> int:
        """The number of bases of pattern `p` (2 or 3)."""
        return 3 if self._bases[p][2] >= 0 else 2

    def places(self, p: int) -> tuple[list[int], list[int]]:
        """Pattern `p`'s base members, base by base, and the cover of each, read off the
        flat table without the per-base dictionaries."""
        bptr, bk, bcov = self._bptr, self._bk, self._bcov
        ms: list[int] = []
        cs: list[int] = []
        for b in self._bases[p]:
            if b >= 0:
                ms += bk[bptr[b] : bptr[b + 1]]
                cs += bcov[bptr[b] : bptr[b + 1]]
        return ms, cs

    def __getitem__(self, p: int) -> tuple:
        got = self._made.get(p)
        if got is None:
            bptr, bk, bcov = self._bptr, self._bk, self._bcov
            combo = tuple((self._bset[b], dict(zip(bk[bptr[b] : bptr[b + 1]], bcov[bptr[b] : bptr[b + 1]])))
                          for b in self._bases[p] if b >= 0)
            family = "fish" if self._fam[p] else "subset"
            got = self._made[p] = (family, combo, self._covs[self._cptr[p] : self._cptr[p + 1]])
        return got

    def __iter__(self):
        return (self[p] for p in range(len(self)))
