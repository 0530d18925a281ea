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
(`linkgraph.chaingraph.LiteralGraph`) advances them all, level by level,
recording each literal's distance from each premise as ints (the kernel is
`linkgraph.chainbfs`). Chains are built only for the results reported:
walking back from the conclusion, each step takes the smallest predecessor
(in `sort_key` order) one level closer, so the chain is a shortest one and
never depends on set order.

Proof graphs follow `linkgraph.steps`: one chain per premise (a contradictory
premise: its two chains to X ON and X OFF, role ``contradiction``), where
chains of different premises share their tail once they meet. ``P.graph``
holds ``kind="chain"``, ``variant``, ``premise_set`` (``r2c8`` or
``row2#1``), ``conclusion`` and ``length`` (links in the proof).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import NamedTuple

import networkx as nx
import numpy as np

from linkgraph.chainbfs import INF, _bfs, _segment_sums
from linkgraph.chaingraph import FAMILIES, LiteralGraph, compile_grid
from linkgraph.errors import OptionError, check_choice
from linkgraph.grid import Grid
from linkgraph.model import Literal, Role
from linkgraph.steps import Step, make_step

__all__ = ["VARIANTS", "ChainResult", "ChainSearch", "chain_search", "forcing_chains"]

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
        # predecessor lists (sorted by destination, then source)
        # edges are sorted by (src, dst): a stable sort by dst gives (dst, src)
        order = np.argsort(LG.dst.astype(np.int16) if L <= 1 << 15 else LG.dst, kind="stable")
        self.pred_src = LG.src[order]
        self.pred_eid = order
        self.pred_ptr = np.zeros(L + 1, dtype=np.int64)
        np.cumsum(np.bincount(LG.dst, minlength=L), out=self.pred_ptr[1:])
        self.dist, self.depth = _bfs(LG, self.premises, self.pred_src, LG.dst[order])
        self._contradictions()

    # ---- contradictions ---------------------------------------------------------
    def _contradictions(self) -> None:
        LG, dist = self.graph, self.dist
        P = len(self.premises)
        pr = np.arange(P)
        if len(dist):
            both = dist[0::2] + dist[1::2]  # (nodes, P); 2 * INF still fits int16
            how = both.argmin(axis=0)
            best = both[how, pr].astype(np.int64)
        else:
            how = np.zeros(P, dtype=np.int64)
            best = np.full(P, 2 * INF, dtype=np.int64)
        # a set X of 3+ members all OFF: every such set at once, in (size, set) order so the
        # first minimum is the smallest set, then the lowest
        g = self.geometry
        sm = g.set_members
        lsm = LG.grid.live[sm]
        cnt = lsm.sum(axis=1)
        sets = np.flatnonzero(cnt >= 3)
        sets = sets[np.argsort(cnt[sets], kind="stable")]
        lsm = lsm[sets]
        nodes = LG.cand_node[sm[sets][lsm]]  # live members, set by set
        starts = np.r_[0, np.cumsum(cnt[sets])[:-1]]
        if len(sets) and nodes.min() < 0:  # a member without a node: not a contradiction here
            ok = np.minimum.reduceat(nodes, starts) >= 0
            nodes = nodes[np.repeat(ok, cnt[sets])]
            sets = sets[ok]
            starts = np.r_[0, np.cumsum(cnt[sets])[:-1]]
        if len(sets) and P:
            # distances capped at `cap`: an unreached member makes the total >= cap, reached
            # ones (each at most depth) sum below it; int16 sums when they cannot overflow
            n = g.size
            if n * self.depth < 1 << 11 and n << 11 < 1 << 15:
                cap = 1 << 11
                off, dt = np.minimum(dist[1::2], np.int16(cap)), None
            else:
                cap = BIG
                off, dt = np.where(dist[1::2] < INF, dist[1::2], np.int32(BIG)), np.int64
            tot = _segment_sums(off, nodes, starts, cnt[sets], dt)  # (sets, P)
            j = tot.argmin(axis=0)
            t = tot[j, pr].astype(np.int64)
            better = (t < best) & (t < cap)
            best = np.where(better, t, best)
            how = np.where(better, -(sets[j] + 1), how)
        self.contra_len = np.where(best < INF, best, BIG)
        self.contra_how = how.astype(np.int64)

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

    def steps(self, variants: Collection[str] = VARIANTS) -> Iterator[Step]:
        """The `Step` of each result of `results(variants)`, in that order, built as consumed."""
        for result in self.results(variants):
            yield self.step(result)

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

    def _set_results(self, variants: Collection[str]) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """For "cell" and "house" among `variants`: (premise set, target, score) of each target's best set.

        Every premise set of both variants is scored against every target in one pass.
        """
        chosen = [v for v in ("cell", "house") if v in variants]
        blocks = [self._premise_sets(v) for v in chosen]
        out = {}
        e = np.zeros(0, np.int64)
        nsets = sum(len(b[0]) for b in blocks)
        if not nsets:
            return {v: (e, e, e) for v in chosen}
        tl, cost, K = self._cost()
        offs = np.cumsum([0] + [len(b[1]) for b in blocks])
        flat = np.concatenate([b[1] for b in blocks])
        starts = np.concatenate([b[2] + o for b, o in zip(blocks, offs)])
        sizes = np.diff(np.r_[starts, len(flat)])
        total = _segment_sums(cost, flat, starts, sizes)  # (sets, targets)
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

    def _contradiction_targets(self, p: int) -> list[int]:
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

    def step(self, result: ChainResult) -> Step:
        """The `Step` (with its proof graph) of one result."""
        LG = self.graph
        P = nx.DiGraph()
        roles: dict[int, Role] = {}
        variant = result.variant
        if variant == "contradiction":
            p = result.premise_set
            premise_ps = [p]
            self._add_contradiction(P, p, roles)
            cand = self.geometry.candidate(self.premise_cands[p])
            placements, eliminations = [], [cand]
            P.graph["contradiction"] = self.contradiction_text(p)
            P.graph["contradiction_kind"] = "both" if self.contra_how[p] >= 0 else "empty"
            premise_set = str(cand)
        else:
            s = result.premise_set
            premise_ps = self._set_premises(s)
            target = result.target
            tree: set[int] = set()
            excluded = []
            for p in premise_ps:
                if self.dist[target, p] < INF:
                    edges = self.chain(p, target)
                    path_nodes = [int(self.premises[p])] + [int(LG.dst[e]) for e in edges]
                    cut = next((i for i, v in enumerate(path_nodes) if v in tree), len(path_nodes))
                    self._add_edges(P, edges[:cut])
                    tree.update(path_nodes[: cut + 1])
                    P.add_node(LG.literal(path_nodes[0]))
            for p in premise_ps:
                if self.dist[target, p] >= INF:
                    excluded.append(str(LG.literal(int(self.premises[p]))))
                    self._add_contradiction(P, p, roles)
            roles[target] = Role.CONCLUSION
            lit = LG.literal(target)
            placements, eliminations = ([lit.cand], []) if lit.on else ([], [lit.cand])
            sx = self.geometry.setx(s)
            premise_set = str(sx) if sx.cell is not None else f"{sx.house.long_name}#{sx.digit}"
            if excluded:
                P.graph["excluded"] = excluded
        for p in premise_ps:
            roles[int(self.premises[p])] = Role.PREMISE
        for node in P.nodes:
            P.nodes[node]["role"] = Role.INNER
        for i, role in roles.items():
            lit = LG.literal(i)
            if lit in P:
                P.nodes[lit]["role"] = role
        premises = tuple(LG.literal(int(self.premises[p])) for p in premise_ps)
        P.graph.update(
            kind="chain",
            variant=variant,
            technique=TECHNIQUES[variant],
            premise_set=premise_set,
            conclusion=str(Literal(eliminations[0], on=False) if eliminations else Literal(placements[0])),
            length=P.number_of_edges(),
            premises=[str(p) for p in premises],
        )
        from linkgraph.notation import eureka_proof

        return make_step(
            TECHNIQUES[variant],
            placements=placements,
            eliminations=eliminations,
            premises=premises,
            proof=P,
            notation=eureka_proof(P),
        )

    def _set_premises(self, s: int) -> list[int]:
        live = self.graph.grid.live
        return [int(self.premise_of[k]) for k in self.geometry.set_members[s].tolist() if live[k] and self.premise_of[k] >= 0]

    def _add_edges(self, P: nx.DiGraph, edges: list[int]) -> None:
        LG = self.graph
        for e in edges:
            P.add_edge(LG.literal(int(LG.src[e])), LG.literal(int(LG.dst[e])), **LG.edge_attrs(e))

    def _add_contradiction(self, P: nx.DiGraph, p: int, roles: dict) -> None:
        P.add_node(self.graph.literal(int(self.premises[p])))
        for t in self._contradiction_targets(p):
            self._add_edges(P, self.chain(p, t))
            roles[t] = Role.CONTRADICTION

    def prove(self, variant: str, premise_set, target: Literal) -> Step | None:
        """The step proving `target` from one premise set (`SetX`, or a premise `Literal` for
        ``"contradiction"``), or None if that set does not prove it."""
        check_choice("variant", [variant], VARIANTS)
        LG = self.graph
        if variant == "contradiction":
            p = int(self.premise_of[self.geometry.index(premise_set.cand)])
            if p < 0 or self.contra_len[p] >= BIG:
                return None
            return self.step(ChainResult(int(self.contra_len[p]), 0, int(self.premises[p]) + 1, variant, p))
        s = self.geometry.set_index(premise_set)
        ps = self._set_premises(s)
        try:
            t = LG.literal_index(target)
        except KeyError:
            return None
        if not ps or any(self.premises[p] in (t, t ^ 1) for p in ps):
            return None
        d = self.dist[t, ps]
        if not ((d < INF) | (self.contra_len[ps] < BIG)).all() or (d < INF).sum() < max(len(ps) - 1, 1):
            return None
        score = int(np.where(d < INF, d, self.contra_len[ps]).sum())
        return self.step(ChainResult(score, VARIANTS.index(variant), t, variant, s))


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


def forcing_chains(
    grid: Grid,
    *,
    variants: Collection[str] = ("cell", "house", "contradiction"),
    families: Collection[str] = FAMILIES,
) -> Iterator[Step]:
    """Yield every forcing-chain step in `grid`, shortest proof first.

    One step per proven placement or elimination and variant: of the premise
    sets that prove it, the one with the fewest links (then the first in set
    order).

    Parameters
    ----------
    grid : Grid
        The candidate state to search.
    variants : collection of str, optional
        Which chains to look for: ``"cell"``, ``"house"``, ``"contradiction"``.
    families : collection of str, optional
        Link families used: ``"cell"``, ``"house"``, ``"group"``, ``"als"``.

    Yields
    ------
    Step
        Technique ``forcing-chain-cell``, ``-house`` or ``-contradiction``.

    Raises
    ------
    OptionError
        An unknown variant or family (raised at the call).

    References
    ----------
    GNPX, "Sudoku Algorithm 4: ForceChain" (seeds/gnpx-forcechain.txt).

    Examples
    --------
    >>> grid = lg.solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> steps = list(lg.forcing_chains(grid, variants=["cell"]))
    >>> "r6c6#2" in {str(c) for s in steps for c in s.placements}
    True
    >>> lg.forcing_chains(grid, variants=["cel"])
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: variants: unknown value 'cel', expected one of cell, house, contradiction, all; did you mean 'cell'?
    """
    variants = _check_variants(variants)
    check_choice("families", families, FAMILIES)
    return _forcing_chains(grid, variants, tuple(families))


def _check_variants(variants: Collection[str]) -> frozenset[str]:
    if isinstance(variants, str):
        variants = [variants]
    variants = list(variants)
    check_choice("variants", variants, ("cell", "house", "contradiction", "all"))
    if not variants:
        raise OptionError("variants: expected at least one of cell, house, contradiction")
    return frozenset(VARIANTS) if "all" in variants else frozenset(variants)


def _forcing_chains(grid: Grid, variants: frozenset[str], families: tuple[str, ...]) -> Iterator[Step]:
    yield from chain_search(grid, families=families).steps(variants)
