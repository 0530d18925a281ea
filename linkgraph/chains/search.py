"""Forcing chains: breadth-first search over the literal digraph (GNPX ForceChain).

A *premise* assumes one candidate ON; following implications (weak, strong,
group and ALS links) from it gives every literal it forces, and parent
pointers give the shortest chain to each. Three results come from one search
(seeds/gnpx-forcechain.txt):

- **cell** (``forcing-chain-cell``): the premises are the candidates of one
  cell; a literal reached from every premise is proven (placement if ON,
  elimination if OFF);
- **house** (``forcing-chain-house``): the premises are the cells of one house
  holding digit d (set X ``r2#1``, GNPX ``row2#1``);
- **contradiction** (``forcing-chain-contradiction``): a premise that reaches
  both X ON and X OFF, or every member of a set X OFF, is false. (Two members
  of a set ON is the first case one weak link later.)

As in GNPX, a contradictory premise does not hold back a cell or house result:
its proof there is its contradiction instead of a chain (at most one such
premise per result, so the proof stays a set of chains, not a net).

The search runs every premise at once (DESIGN.md §3): premises are packed 64
to a machine word, and one breadth-first pass over the compiled graph
(`linkgraph.graph.compiler.LiteralGraph`) advances them all, level by level,
recording each literal's distance from each premise as ints (the kernel is
`linkgraph.chains.bfs`). Chains are built only for the results reported:
walking back from the conclusion, each step takes the smallest predecessor
(in `sort_key` order) one level closer, so the chain is a shortest one and
never depends on set order.

The Steps and their proof graphs are built in `linkgraph.chains.steps`.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cached_property
from typing import NamedTuple

import numpy as np

from linkgraph.chains.bfs import INF, bfs, segment_sums
from linkgraph.graph.compiler import FAMILIES, LiteralGraph, compile_grid
from linkgraph.errors import check_choice
from linkgraph.grid import Grid

__all__ = ["VARIANTS", "ChainResult", "ChainSearch", "chain_search"]

VARIANTS = ("contradiction", "cell", "house")
TECHNIQUES = {v: f"forcing-chain-{v}" for v in VARIANTS}
BIG = 1 << 20


class ChainResult(NamedTuple):
    """One result of a search, before its proof is built (ordered as its fields).

    ``score`` is the number of links in the proof; ``premise_set`` is the set X
    index of the premises (cell and house) or the premise's index
    (contradiction); ``target`` the literal index proven.
    """

    score: int
    rank: int
    target: int
    variant: str
    premise_set: int


class ChainSearch:
    """The batched breadth-first search of every premise of a position.

    Build it with `chain_search`; `results` lists what it proves and `step`
    builds the proof of one result.

    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> S = lg.chains.chain_search(grid)
    >>> len(S.premises) == sum(len(grid.digits(c)) for c in map(grid.geometry.cell, range(81)) if len(grid.digits(c)) > 1)
    True
    """

    def __init__(self, LG: LiteralGraph):
        self.graph = LG
        g = LG.grid.geometry
        self.geometry = g
        n = g.size
        L = LG.number_of_literals
        unsolved = LG.grid.counts >= 2
        pc = LG.node_cands[unsolved[LG.node_cands // n]]  # premise candidates, ascending
        self.premise_cands = pc
        self.premises = 2 * LG.cand_node[pc]  # ON literal of each premise
        P = len(pc)
        self.premise_of = np.full(g.number_of_candidates, -1, dtype=np.int64)
        self.premise_of[pc] = np.arange(P)
        self.dist, self.depth, self.seen = bfs(L, self.premises, LG.src, LG.dst)  # the edges are sorted by source
        self._contradictions()

    # ---- predecessor lists (made for the first chain read back: a search that finds nothing needs none)
    @cached_property
    def _preds(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        LG = self.graph
        L = LG.number_of_literals
        # edges are sorted by (src, dst): a stable sort by dst gives (dst, src)
        order = np.argsort(LG.dst.astype(np.int16) if L <= 1 << 15 else LG.dst, kind="stable")
        ptr = np.zeros(L + 1, dtype=np.int64)
        np.cumsum(np.bincount(LG.dst, minlength=L), out=ptr[1:])
        return ptr, LG.src[order], order

    @property
    def pred_ptr(self) -> np.ndarray:
        """Where each literal's in-edges start in `pred_src` and `pred_eid` (one entry past the last)."""
        return self._preds[0]

    @property
    def pred_src(self) -> np.ndarray:
        """The sources of the in-edges, by destination, then source."""
        return self._preds[1]

    @property
    def pred_eid(self) -> np.ndarray:
        """The edge ids of the in-edges, in `pred_src` order."""
        return self._preds[2]

    # ---- contradictions ---------------------------------------------------------
    def _contradictions(self) -> None:
        """Each premise's shortest contradiction (`contra_len`, `contra_how`): reaching both
        literals of a node, or every live member of a set X of 3+ members OFF (the sets in
        (size, set) order, so the first minimum is the smallest set, then the lowest), in one
        compiled pass over the premises that reach them (`linkgraph.chains.kernel.contradictions`);
        `contra_how` is 0 for a premise without one."""
        LG = self.graph
        P = len(self.premises)
        best = np.empty(P, dtype=np.int64)
        how = np.empty(P, dtype=np.int64)
        if P:
            _kernel().contradictions(self.dist, self.seen, self.geometry.set_members, LG.grid.live,
                                     LG.cand_node, best, how)
        self.contra_len = np.where(best < INF, best, BIG)
        self.contra_how = how

    # ---- results --------------------------------------------------------------------
    def results(self, variants: Collection[str] = VARIANTS) -> list[ChainResult]:
        """Every result of the chosen variants, best first (fewest links, then variant, then conclusion)."""
        rows: list[ChainResult] = []
        if "contradiction" in variants:
            ps = np.flatnonzero(self.contra_len < BIG)
            rows += map(ChainResult, self.contra_len[ps].tolist(), [0] * len(ps), (self.premises[ps] + 1).tolist(),
                        ["contradiction"] * len(ps), ps.tolist())
        for variant, (sets, targets, scores) in self._set_results(variants).items():
            r = VARIANTS.index(variant)
            rows += map(ChainResult, scores.tolist(), [r] * len(sets), targets.tolist(), [variant] * len(sets), sets.tolist())
        rows.sort()
        return rows

    def _premise_sets(self, variant: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(set X indices, concatenated premise indices, start offsets) of a variant's premise sets."""
        g = self.geometry
        n = g.size
        pc = self.premise_cands
        if variant == "cell":
            cells = pc // n
            first = np.ones(len(pc), dtype=bool)
            np.not_equal(cells[1:], cells[:-1], out=first[1:])
            starts = np.flatnonzero(first)
            return cells[starts], np.arange(len(pc)), starts
        sm = g.set_members[g.number_of_cells :]
        live = self.graph.grid.live
        prem = self.premise_of[sm]  # (H*n, n), -1 for a dead candidate or one that is no premise
        ispremise = prem >= 0
        cnt = live[sm].sum(axis=1)
        sets = np.flatnonzero((cnt >= 2) & (ispremise.sum(axis=1) == cnt))  # every live member a premise
        flat = prem[sets][ispremise[sets]]  # set by set (the order inside a set does not matter)
        sizes = cnt[sets]
        starts = np.zeros(len(sets), dtype=np.int64)
        np.cumsum(sizes[:-1], out=starts[1:])
        return sets + g.number_of_cells, flat, starts

    def _cost(self) -> tuple[np.ndarray, np.ndarray, int]:
        """(target literal indices, cost (P, targets), K), premise-major.

        Cost of a premise for a target: its links to the target when it reaches it;
        ``K`` plus the links of its contradiction when it does not but is
        contradictory; ``2 * K`` otherwise. A premise set's sum is below ``2 * K``
        exactly when at most one member is unreached and that one is
        contradictory, and then its low bits (``sum % K``) are the proof's links.
        ``K`` is as small as the longest chains allow, so the sums are uint16
        (less to move) on all but freak positions.
        """
        if not hasattr(self, "_cost_cache"):
            tl = np.column_stack((self.premises, self.premises + 1)).ravel()  # premises ascend
            contra = self.contra_len < BIG
            n = self.geometry.size
            worst = n * self.depth + int(self.contra_len[contra].max(initial=0))  # depth: the longest chain
            K, dt = (1 << 10, np.uint16) if worst < 1 << 10 and n <= 31 else (1 << 20, np.int64)
            cost = self.dist[tl].T.astype(dt)  # (P, targets)
            unreached = np.where(contra, K + self.contra_len, 2 * K).astype(dt)
            np.copyto(cost, unreached[:, None], where=cost >= INF)
            self._cost_cache = (tl, cost, K)
        return self._cost_cache

    def sets_may_prove(self, cells: bool, houses: bool) -> bool:
        """Whether any cell premise set (with `cells`) or house premise set (with `houses`)
        proves something when no premise is contradictory: every member of the set reaches one
        target and none of them is its premise (`linkgraph.chains.kernel.sets_prove`, compiled,
        from the premises' packed reach rows; no premise set is built)."""
        g = self.geometry
        return bool(_kernel().sets_prove(self.seen, self.premises, self.premise_of, g.set_members, self.graph.grid.live,
                                         g.number_of_cells, cells, houses))

    def _set_results(self, variants: Collection[str]) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """For "cell" and "house" among `variants`: (premise set, target, score) of each target's best set.

        Both variants are scored on the first call that asks for either and kept: the ladder's
        cell rung and house rung ask in turn about one search, and one pass over every premise
        set costs less than two (`_score_sets`; a variant's rows do not depend on the other's).
        """
        chosen = [v for v in ("cell", "house") if v in variants]
        if not chosen:
            return {}
        if not hasattr(self, "_sets_cache"):
            self._sets_cache = self._score_sets(("cell", "house"))
        return {v: self._sets_cache[v] for v in chosen}

    def _score_sets(self, variants: Collection[str]) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """`_set_results` of `variants`, computed: every premise set of both variants is scored
        against every target in one pass."""
        chosen = [v for v in ("cell", "house") if v in variants]
        e = np.zeros(0, np.int64)
        if not (self.contra_len < BIG).any():
            # without a contradictory premise a set proves a target exactly when every member
            # reaches it and none is its premise: a compiled test on the premises' reach, before
            # the premise sets and the tables are made, says whether there is any result
            # (on the ladder the contradiction rung has just found none: the common case)
            if not self.sets_may_prove("cell" in chosen, "house" in chosen):
                return {v: (e, e, e) for v in chosen}
        blocks = [self._premise_sets(v) for v in chosen]
        out = {}
        nsets = sum(len(b[0]) for b in blocks)
        if not nsets:
            return {v: (e, e, e) for v in chosen}
        offs = np.cumsum([0] + [len(b[1]) for b in blocks])
        flat = np.concatenate([b[1] for b in blocks])
        starts = np.concatenate([b[2] + o for b, o in zip(blocks, offs)])
        sizes = np.diff(np.r_[starts, len(flat)])
        tl, cost, K = self._cost()
        total = segment_sums(cost, flat, starts, sizes)  # (sets, targets)
        valid = total < 2 * K
        if sizes.min() < 2:  # a lone premise must reach
            valid &= (total < K) | (sizes >= 2)[:, None]
        # a set's own members are not its conclusions
        tpos = np.searchsorted(tl, self.premises[flat])
        col = np.repeat(np.arange(nsets), sizes)
        valid[col, tpos] = False
        valid[col, tpos + 1] = False
        score = np.where(valid, total & (K - 1), K)
        lo = 0
        for v, (sets, _, _) in zip(chosen, blocks):
            sc = score[lo : lo + len(sets)]
            lo += len(sets)
            if not len(sets):
                out[v] = (e, e, e)
                continue
            low = sc.min(axis=0)
            keep = np.flatnonzero(low < K)
            best = (sc[:, keep] == low[keep]).argmax(axis=0)  # the first set with the lowest score
            out[v] = (sets[best], tl[keep], low[keep].astype(np.int64))
        return out

    # ---- proofs --------------------------------------------------------------------------
    def chain(self, p: int, target: int) -> list[int]:
        """Edge ids of the shortest chain from premise `p` to literal `target` (ties: smallest predecessor)."""
        dcol = self.dist[:, p]
        d = int(dcol[target])
        if d >= INF:
            raise ValueError("target not reached from premise")
        edges = []
        k = target
        ptr, src, eid = self.pred_ptr, self.pred_src, self.pred_eid
        while d > 0:
            lo, hi = ptr[k], ptr[k + 1]
            js = src[lo:hi]
            i = int((dcol[js] == d - 1).argmax())  # the first one (there is one)
            edges.append(int(eid[lo + i]))
            k = int(js[i])
            d -= 1
        edges.reverse()
        return edges

    def contradiction_targets(self, p: int) -> list[int]:
        how = int(self.contra_how[p])
        if how >= 0:
            return [2 * how, 2 * how + 1]
        s = -how - 1
        live = self.graph.grid.live
        members = [k for k in self.geometry.set_members[s].tolist() if live[k]]
        return [2 * int(self.graph.cand_node[k]) + 1 for k in members]

    def contradiction_text(self, p: int) -> str:
        """What premise `p` contradicts: ``r2c8#1`` (reached ON and OFF) or a set X emptied."""
        how = int(self.contra_how[p])
        if how >= 0:
            return str(self.graph.node(how))
        return str(self.geometry.setx(-how - 1))

    def set_premises(self, s: int) -> list[int]:
        """The premises (indices into `premises`) of premise set `s`: its live members."""
        live = self.graph.grid.live
        return [int(self.premise_of[k]) for k in self.geometry.set_members[s].tolist() if live[k] and self.premise_of[k] >= 0]



def _kernel():
    """`linkgraph.chains.kernel`, imported on the first search (numba is slow to import; the
    breadth-first search has imported it by then)."""
    from linkgraph.chains import kernel  # noqa: PLC0415

    return kernel


def chain_search(grid: Grid, *, families: Collection[str] = FAMILIES, links: LiteralGraph | None = None) -> ChainSearch:
    """Run the batched forcing-chain search of `grid` (every premise, one pass).

    Parameters
    ----------
    grid : Grid
        The candidate state.
    families : collection of str, optional
        Link families: ``"cell"``, ``"house"``, ``"group"``, ``"als"``.
    links : LiteralGraph, optional
        A compiled graph to reuse (``compile_grid(grid)`` by default).

    Returns
    -------
    ChainSearch

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> S = lg.chains.chain_search(grid)
    >>> best = S.results(["cell"])[0]
    >>> best.variant
    'cell'
    """
    check_choice("families", families, FAMILIES)
    return ChainSearch(links if links is not None else compile_grid(grid, families=families))
