"""Forcing nets: contradiction, verity and double nets over one propagation of every premise.

A net search propagates every open candidate ON and OFF at once
(`linkgraph.nets.propagate.propagate_many`) and reads three kinds of result off the
final states:

- **contradiction** (``forcing-net-contradiction``): a premise whose branch
  fails is false: ``+x`` failing eliminates ``x``, ``-x`` failing places it;
- **verity** (``forcing-net-verity``): every member of one set X (a cell's
  digits or a digit's places in a house), assumed ON in turn, leads to the same
  literal ``Y``, which is therefore true;
- **double** (``forcing-net-double``): ``+x`` and ``-x`` both lead to ``Y``.

With ``level >= 1`` the technique is ``forcing-net-nested`` (the kind is in
``P.graph["net"]``). A verity or double proof joins one branch per premise;
each edge carries ``branches``, the texts of the premises whose branch uses
it, and ``P.graph["branches"]`` lists them all: the subgraph of one branch's
edges is a net from that premise alone to the conclusion. When two branches
infer the same literal from the same one by different reasons (another set,
pattern or sub-net), the edge keeps the first and lists the others in
``also`` (dicts of ``kind``, ``family``, ``via``, ``branches``); branches may
also derive two literals in opposite orders, so only each branch's edges are
acyclic.

Selection (``select``): ``"shortest"`` yields the proof with the fewest
literals first (ties by kind, then the conclusion's total order);
``"first"`` yields in search order (candidates in index order, ON starts
before OFF starts, contradictions before verities before doubles);
``"sudokuwiki"`` is SudokuWiki's policy: the shortest contradiction from an
ON start, contradictions from OFF starts only when no ON start fails, then
the other kinds, shortest first. With ``chunk`` the premises are propagated a
chunk at a time (ON starts first) and the search stops at the first chunk in
which a premise fails: the order above then applies to the contradictions
found so far (the nested ladder rungs do this; a sub-net search from every
premise is the expensive part).

The proof of each conclusion found (its size, lower bounds, proof graph and
notation) is built by `linkgraph.nets.steps`.

References
----------
SudokuWiki, "Forcing Nets" (../shared/seeds/sudokuwiki-forcing-nets.txt).
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterator
from functools import cached_property
from itertools import count

import numpy as np

from linkgraph.bitops import sparse_nonzero
from linkgraph.errors import OptionError, check_choice
from linkgraph.grid import Grid, as_grid, cached, cached_only
from linkgraph.model import Literal, sort_key
from linkgraph.nets.notation import sudokuwiki
from linkgraph.nets.engine import kernels
from linkgraph.nets.propagate import Propagation, SinglePremises, Structure, check_depth_level, propagate_singles
from linkgraph.nets.steps import KIND_ORDER, KINDS, build_step, size_bound, size_exceeds  # the steps of the candidates found
from linkgraph.steps import Step

__all__ = ["forcing_nets", "net_search", "structure", "sudokuwiki"]

STARTS = ("on", "off", "both")
SELECTS = ("shortest", "first", "sudokuwiki")


def forcing_nets(
    grid: Grid,
    *,
    depth: int = 0,
    level: int = 0,
    start: str = "both",
    select: str = "shortest",
    kinds: Collection[str] = KINDS,
    chunk: int | None = None,
) -> Iterator[Step]:
    """Yield forcing-net steps in `grid`, one per proven placement or elimination.

    Parameters
    ----------
    grid : Grid
        The position to search (usually after the basic ladder).
    depth : int, optional
        Inferences inside the propagation: 0 sets X, 1 also locked candidates,
        2 also subsets and basic fish (see `linkgraph.nets.propagate`).
    level : int, optional
        Nesting: with 1, a candidate whose own depth-`depth` net fails inside a
        branch counts as OFF there.
    start : {"on", "off", "both"}, optional
        Which premises to try: every open candidate ON, OFF, or both.
    select : {"shortest", "first", "sudokuwiki"}, optional
        Order of the steps (see the module docstring).
    kinds : collection of str, optional
        ``"contradiction"``, ``"verity"``, ``"double"``.
    chunk : int, optional
        Propagate the premises in chunks of this many branches (ON starts
        first, in index order) and stop at the first chunk after which some
        premise has failed: the steps are then the contradictions of the
        premises propagated so far, in `select` order (with "shortest", the
        shortest net within the first productive chunk, not the global
        shortest). When no premise fails, every premise has been propagated
        and the search goes on as without chunks (verities and doubles).
        Meant for nesting, where each branch runs sub-nets; None (default):
        every premise at once.

    Yields
    ------
    Step
        Proof graph: the support DAG (``P.graph["kind"] == "net"``).

    Raises
    ------
    OptionError
        A bad option, at the call.

    Examples
    --------
    >>> from linkgraph.solver import prepare
    >>> grid = prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> step = next(lg.forcing_nets(grid, start="on"))
    >>> step.technique, step.proof.graph["kind"]
    ('forcing-net-contradiction', 'net')
    """
    check_depth_level(depth, level)
    check_choice("start", start, STARTS)
    check_choice("select", select, SELECTS)
    if isinstance(kinds, str):
        kinds = [kinds]
    kinds = tuple(kinds)
    check_choice("kinds", kinds, KINDS)
    if not kinds:
        raise OptionError("kinds: expected at least one of " + ", ".join(KINDS))
    if "double" in kinds and start != "both" and set(kinds) == {"double"}:
        raise OptionError("kinds: double nets need start='both'")
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise OptionError(f"chunk: expected a positive int or None, found {chunk!r}")
    return _forcing_nets(as_grid(grid), depth, level, start, select, frozenset(kinds), chunk)


def net_search(
    grid: Grid, *, depth: int = 0, level: int = 0, start: str = "both", kinds: Collection[str] = KINDS
) -> list[tuple[str, Literal]]:
    """Every net conclusion of `grid` as ``(kind, literal)``, without building proofs.

    The search `forcing_nets` runs first (every premise propagated at once);
    proofs are built only for the steps a caller takes from `forcing_nets`.
    This is the part the benchmark times as "one complete net search".

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> found = lg.nets.net_search(grid, kinds=["contradiction"])
    >>> ("contradiction", lg.Literal.parse("-r2c8#1")) in found  # r2c8 is 2 in the solution
    True
    """
    check_depth_level(depth, level)
    check_choice("start", start, STARTS)
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    check_choice("kinds", kinds, KINDS)
    st = structure(grid, depth)
    if st.size == 0:
        return []
    ks, ons = _premises(st, start)
    prop = propagate_singles(st, ks, ons, depth=depth, level=level)
    seen, out = set(), []
    for kind, _, _, (k, on), _ in _candidates(prop, ks, ons, frozenset(kinds), bounds=False):
        if (kind, k, on) not in seen:
            seen.add((kind, k, on))
            out.append((kind, Literal(st.candidate(k), on=on)))
    return out


# ---- search ------------------------------------------------------------------

def _premises(st: Structure, start: str) -> tuple[np.ndarray, np.ndarray]:
    """(local candidate, sign) of each branch: every candidate ON, then every candidate OFF."""
    signs = {"on": [True], "off": [False], "both": [True, False]}[start]
    L = st.size
    return np.tile(np.arange(L), len(signs)), np.repeat(np.array(signs, dtype=bool), L)


def _candidates(prop: Propagation, ks: np.ndarray, ons: np.ndarray, kinds, *, bounds: bool = True) -> list:
    """Every (kind, lower bound, order key, conclusion key, branches) found, in search order.

    Without `bounds` the lower bounds of verity and double nets are left 0
    (`net_search` lists conclusions only and needs no rounds).
    """
    st = prop.structure
    run = prop.run
    L = st.size
    out = []
    order = count()
    failed = prop.failed
    if "contradiction" in kinds:
        for b in np.flatnonzero(failed >= 0).tolist():
            out.append(("contradiction", int(failed[b]) + 1, next(order), (int(ks[b]), not ons[b]), (b,)))
    # branch of +k and of -k (ON starts come first)
    on_rows = np.arange(L) if ons[0] else None
    off_rows = None if ons[-1] else (np.arange(L) + (L if ons[0] else 0))
    mem = st.mem_pad
    verity = "verity" in kinds and on_rows is not None and len(mem) > 0
    double = "double" in kinds and on_rows is not None and off_rows is not None
    if not (verity or double):
        return out
    found = _found_words if hasattr(run, "tail_pos") else _found_bools
    (vf, vs, vy), (dk, df, dy) = found(prop, L, verity, double)
    if len(vf):
        gm = mem[vs]
        nb = (gm < L).sum(axis=1)
        lbs = np.zeros(len(vf), dtype=np.int64)
        if bounds:
            for f, flag in ((0, True), (1, False)):
                sel = vf == f
                mm = gm[sel]
                vm = mm < L
                r = run.round_of(flag, np.where(vm, mm, 0).ravel(), np.repeat(vy[sel], mm.shape[1]))
                r = np.where(vm.ravel(), r, -1).reshape(mm.shape).max(axis=1)
                lbs[sel] = np.maximum(nb[sel] + 1, r + 1)
        gl, nl = gm.tolist(), nb.tolist()
        for f, y, lb, members, n in zip(vf.tolist(), vy.tolist(), lbs.tolist(), gl, nl):
            out.append(("verity", lb, next(order), (y, f == 0), tuple(members[:n])))
    if len(dk):
        lbs = np.zeros(len(dk), dtype=np.int64)
        for f, flag in ((0, True), (1, False)) if bounds else ():
            sel = df == f
            r1 = run.round_of(flag, on_rows[dk[sel]], dy[sel])
            r2 = run.round_of(flag, off_rows[dk[sel]], dy[sel])
            lbs[sel] = np.maximum(3, np.maximum(r1, r2) + 1)
        for k, f, y, lb in zip(dk.tolist(), df.tolist(), dy.tolist(), lbs.tolist()):
            out.append(("double", lb, next(order), (y, f == 0), (int(on_rows[k]), int(off_rows[k]))))
    return out


def _found_words(prop: Propagation, L: int, verity: bool, double: bool):
    """The verity and double conclusions of a `Run` from its end words, in one compiled
    call (`linkgraph.nets.kernel.verity_double`) over each branch's end state transposed
    (`linkgraph.nets.kernel.end_rows`, level by level down the run's compacted tails):
    ``((flags, sets, candidates), (premise candidates, flags, candidates))``, as
    `_found_bools` finds them, in the same order."""
    run = prop.run
    B = len(prop.failed)
    rows = np.zeros((B, 2, max(1, -(-L // 64))), dtype=np.uint64)
    end_rows, verity_double = kernels().end_rows, kernels().verity_double
    orig = np.arange(B, dtype=np.int64)
    while True:  # each level writes the ends of its branches that stop in it (not in its tail)
        write = np.ones(len(orig), dtype=bool) if run.tail is None else run.tail_pos < 0
        end_rows(np.ascontiguousarray(run.ON, dtype=np.uint64), np.ascontiguousarray(run.OFF, dtype=np.uint64), orig,
                 write, rows)
        if run.tail is None:
            break
        sel = np.flatnonzero(run.tail_pos >= 0)
        nxt = np.empty(run.tail.B, dtype=np.int64)
        nxt[run.tail_pos[sel]] = orig[sel]
        orig, run = nxt, run.tail
    v, d = verity_double(rows, np.ascontiguousarray(prop.failed < 0), prop.structure.mem_pad, L, verity, double)
    return (v[0], v[1], v[2]), (d[0], d[1], d[2])


def _found_bools(prop: Propagation, L: int, verity: bool, double: bool):
    """`_found_words` from the branches' end states as bool rows (``prop.on``, ``prop.off``):
    numpy, for the chunked runs of nested searches (`_Chunks`), and the oracle of
    `_found_words` in tests/nets/test_search.py."""
    ok = prop.failed < 0
    mem = prop.structure.mem_pad
    empty = np.zeros(0, dtype=np.int64)
    vf, vs, vy = [empty], [empty], [empty]
    if verity:
        okp = np.r_[ok[:L], True]
        valid = mem < L
        good = np.flatnonzero(okp[mem].all(axis=1) & (valid.sum(axis=1) >= 2))
        gm = mem[good]
        for f, state in ((0, prop.on), (1, prop.off)):
            sp = np.vstack([state[:L], np.ones((1, L), dtype=bool)])
            every = sp[gm[:, 0]]
            for c in range(1, gm.shape[1]):
                every &= sp[gm[:, c]]
            jj, yy = sparse_nonzero(every)
            vf.append(np.full(len(jj), f, dtype=np.int64))
            vs.append(good[jj].astype(np.int64))
            vy.append(yy.astype(np.int64))
    dk, df, dy = empty, empty, empty
    if double:
        okpair = ok[:L] & ok[L : 2 * L]
        both = np.stack([prop.on[:L] & prop.on[L : 2 * L], prop.off[:L] & prop.off[L : 2 * L]], axis=1)
        both &= okpair[:, None, None]
        dk, df, dy = (x.astype(np.int64) for x in sparse_nonzero(both))
    return (np.concatenate(vf), np.concatenate(vs), np.concatenate(vy)), (dk, df, dy)


class _Chunks:
    """The Runs of consecutive chunks of branches read as one Run (what Propagation and
    `_candidates` use: ``failed``, ``on``, ``off``, ``rounds``, ``rows_many``, ``round_of``)."""

    def __init__(self, runs, sizes):
        self.runs = runs
        self.starts = np.r_[0, np.cumsum(sizes)].astype(np.int64)
        self.failed = np.concatenate([r.failed for r in runs])

    def _split(self, bs):
        c = np.searchsorted(self.starts, bs, side="right") - 1
        return c, bs - self.starts[c]

    @cached_property
    def on(self):
        return np.vstack([r.on for r in self.runs])

    @cached_property
    def off(self):
        return np.vstack([r.off for r in self.runs])

    def rounds(self, b):
        c, i = self._split(np.array([int(b)]))
        return self.runs[int(c[0])].rounds(int(i[0]))

    def rows_many(self, bs) -> np.ndarray:
        c, i = self._split(np.asarray(bs, dtype=np.int64))
        out = np.empty((len(c), 2, self.runs[0].ON.shape[0]), dtype=np.int64)
        for j in np.unique(c).tolist():
            sel = np.flatnonzero(c == j)
            out[sel] = self.runs[j].rows_many(i[sel])
        return out

    def round_of(self, on: bool, bs, ks) -> np.ndarray:
        bs = np.asarray(bs, dtype=np.int64)
        ks = np.asarray(ks, dtype=np.int64)
        out = np.full(len(bs), -1, dtype=np.int64)
        c, i = self._split(bs)
        for j in np.unique(c).tolist():
            sel = c == j
            out[sel] = self.runs[j].round_of(on, i[sel], ks[sel])
        return out


def _propagate_chunked(st: Structure, ks, ons, depth: int, level: int, chunk: int, kinds):
    """(Propagation of the premises up to the first chunk where one fails (all if none), complete)."""
    runs, sizes = [], []
    for a in range(0, len(ks), chunk):
        part = propagate_singles(st, ks[a : a + chunk], ons[a : a + chunk], depth=depth, level=level)
        runs.append(part.run)
        sizes.append(len(part.premises))
        if "contradiction" in kinds and (part.failed >= 0).any() and a + chunk < len(ks):
            n = a + len(part.premises)
            return Propagation(st, SinglePremises(st, ks[:n], ons[:n]), _Chunks(runs, sizes), depth, level), False
    return Propagation(st, SinglePremises(st, ks, ons), _Chunks(runs, sizes), depth, level), True


def structure(grid: Grid, depth: int) -> Structure:
    """The `Structure` of `grid` at `depth`, kept per grid (`linkgraph.grid.cached`): the net
    rungs of one depth (contradiction, double, verity; nested at that depth) read the same one.

    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> lg.nets.search.structure(grid, 1) is lg.nets.search.structure(grid, 1)
    True
    """
    def make(g: Grid) -> Structure:
        # the rungs of the depths below looked at this grid first: their tables are lent
        base = next((b for d in range(depth - 1, -1, -1) if (b := cached_only(("net-structure", d), g)) is not None),
                    None)
        return Structure(g, depth=depth, base=base)

    return cached(("net-structure", depth), grid, make)


class _Search:
    """One propagation of every premise of a grid (no nesting, no chunks) and the branch
    proofs explained so far: the contradiction, verity and double rungs look at the same
    grid in turn and share it (`linkgraph.grid.cached`)."""

    def __init__(self, grid: Grid, depth: int, start: str):
        self.st = st = structure(grid, depth)
        self.ks, self.ons = _premises(st, start)
        self.prop = propagate_singles(st, self.ks, self.ons, depth=depth) if st.size else None
        self.cache: dict = {}


def _forcing_nets(grid: Grid, depth: int, level: int, start: str, select: str, kinds, chunk=None) -> Iterator[Step]:
    if level == 0 and chunk is None:
        search = cached(("forcing-nets", depth, start), grid, lambda g: _Search(g, depth, start))
        st, ks, ons, prop, cache = search.st, search.ks, search.ons, search.prop, search.cache
        if st.size == 0:
            return
    else:
        st = structure(grid, depth)
        if st.size == 0:
            return
        ks, ons = _premises(st, start)
        if chunk is None or chunk >= len(ks):
            prop = propagate_singles(st, ks, ons, depth=depth, level=level)
        else:
            prop, complete = _propagate_chunked(st, ks, ons, depth, level, chunk, kinds)
            if not complete:
                kinds = frozenset({"contradiction"})
        cache = {}
    prem = prop.premises
    cands = _candidates(prop, ks[: len(prem)], ons[: len(prem)], kinds)
    done: set = set()
    if select == "first":
        cands.sort(key=lambda c: (KIND_ORDER[c[0]], c[2]))
        for c in cands:
            if c[3] not in done:
                built = build_step(prop, c, cache, level)
                if built is not None:
                    done.add(c[3])
                    yield built[2]()
        return
    if select == "sudokuwiki":
        on_first = [c for c in cands if c[0] == "contradiction" and prem[c[4][0]][0].on]
        off = [c for c in cands if c[0] == "contradiction" and not prem[c[4][0]][0].on]
        rest = [c for c in cands if c[0] != "contradiction"]
        groups = [on_first, off, rest] if on_first else [off, rest]
    else:
        groups = [cands]
    for group in groups:
        for step in _shortest(prop, group, cache, level):
            key = step.conclusions[0]
            if key not in done:
                done.add(key)
                yield step


def _shortest(prop, cands, cache, level) -> Iterator[Step]:
    """Best-first over lower bounds: explain only what could still be the shortest.

    `pending` holds (lower bound, order key, refined, candidate), `built` (size, tie
    key, n, maker of the Step). A pending candidate is built only as far as it could
    still beat the smallest net built so far: past that it goes back, unbuilt, with
    that size + 1 as its bound. Whatever is built when, the steps come in (size, tie
    key) order. Nesting (`level` >= 1), where explaining a net runs a sub-net per
    nested inference, changes three things: each bound is first refined by the
    supports without sub-nets (`size_bound`), the pending are ordered by the tie key and
    come before a built net only if ahead of it in (bound, tie key) order (not at any
    equal bound), and the branches' rounds are not prefetched.
    """
    nested = level >= 1
    if nested:
        st = prop.structure
        pending = [(c[1], (KIND_ORDER[c[0]], sort_key(Literal(st.candidate(c[3][0]), on=c[3][1])), c[2]), False, c)
                   for c in cands]
    else:
        pending = [(c[1], (KIND_ORDER[c[0]], c[2]), True, c) for c in cands]
    heapq.heapify(pending)
    built: list = []
    tiebreak = count()
    fetched = None  # the smallest size for which the rounds of every branch to check were found
    while pending or built:
        if built and (not pending or (pending[0][:2] >= built[0][:2] if nested else pending[0][0] > built[0][0])):
            yield heapq.heappop(built)[3]()
            continue
        if built and not nested and built[0][0] != fetched:
            fetched = built[0][0]
            prop.prefetch([b for e in pending if e[0] <= fetched for b in e[3][4]])
        bound, key, refined, c = heapq.heappop(pending)
        if not refined:
            heapq.heappush(pending, (max(bound, size_bound(prop, c, cache)), key, True, c))
            continue
        if built and size_exceeds(prop, c, cache, built[0][0]):
            heapq.heappush(pending, (built[0][0] + 1, key, True, c))
            continue
        made = build_step(prop, c, cache, level)
        if made is not None:
            size, tie, make = made
            heapq.heappush(built, (size, tie, next(tiebreak), make))
