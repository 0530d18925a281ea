"""The chaining producers of `linkgraph.techniques.se.chaining`, with the work levels share.

`Chaining` follows SE's search literally: every level propagates every premise from scratch,
and at every quiescence runs its nested rules again. The results here are the same (same
hints, complexities and order: `tests/techniques/se/test_fast.py` compares them on many
positions), with four kinds of saving:

- **Continuation across levels.** A nested level runs, at each quiescence, its rules in a
  fixed order and uses the first that yields something. The rule lists of levels 2 and 3
  extend level 1's, level 3's extends level 2's, level 4's extends level 1's and level 5's
  extends level 4's (`PARENT`). So on one grid, the propagation of a premise at level L is
  the propagation at its parent level up to that propagation's last quiescence (where every
  parent rule found nothing), and goes on from there with L's extra rules only. SE runs the
  levels in order on the same grid, each only when the previous found nothing, so the
  parent's propagations are always there to go on from; level 1 goes on from the dynamic
  chains (level 0), which have no nested rules.
- **Nested rule results by grid state.** What a nested rule yields depends only on the grid
  the outer chain started from and the reduced grid; results are kept per (rule, reduced
  grid) for the whole of one grid's search, shared by premises and levels.
- **Searching only where SE can find something.** A nested rule runs on a grid reduced from
  one where the same rule, run at the outer level, found nothing. Nested Forcing Chains &
  Cycles (`NestedStatic`) start only from potentials that reach a strong link the outer grid
  lacks; nested Multiple Forcing Chains (`NestedMultiple`) first find, from every
  candidate's closure at once, the cells and regions whose premises share a consequence.
- **Compiled graph walks.** Those filters, and SE's static cycle and forcing-chain searches
  (nested and top-level), run in `linkgraph.techniques.se.kernel` (numba); Python builds
  SE's potentials only for the chains they return.
- **Compiled dynamic propagation.** The nested Dynamic Forcing Chains of levels 4 and 5
  (`KernelDynamic`) run whole in `kernel.dynamic_chains`: every premise's propagation in
  SE's order with SE's parents, the chains, their complexity, SE's sort and de-duplication;
  Python builds potentials only for the hints that come back.

Examples
--------
>>> from linkgraph.techniques.se.board import Board
>>> from linkgraph.techniques.se.fast import FastChaining, Shared
>>> board = Board.from_grid(lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)))
>>> shared = Shared()
>>> hint = FastChaining(multiple=True, dynamic=True, shared=shared).hints(board)[0]
>>> hint.name, round(hint.difficulty, 1)
('Dynamic Region Forcing Chains', 8.5)
"""

from __future__ import annotations

from collections import deque

import numpy as np

from linkgraph.techniques.se import bitrules, kernel
from linkgraph.techniques.se.board import CELL_REGIONS, PEER_CAUSES, REGION_CELLS, Board, bits, popcount
from linkgraph.techniques.se.chaining import (
    ADVANCED, CELL, ChainHint, Chaining, Potential, Source, StaticLinks, reaching_new_links, reversed_cycle,
)
from linkgraph.techniques.se.hints import Hint, length_bonus

__all__ = ["PARENT", "FastChaining", "KernelDynamic", "Shared", "aligned_exclusions", "multiple_starts_reference",
           "static_starts_reference"]

#: For each cell, its regions (block, row, column) as (SE's cause of a place forced there,
#: ``region * 10``, the region's cells).
_REGION_WAYS = tuple(tuple((t + 1, r * 10, REGION_CELLS[r]) for t, r in enumerate(CELL_REGIONS[c])) for c in range(81))

#: For each cell, its peers (`PEER_CAUSES`' order) as (cell, cause, the cell's first key).
_PEER_KEYS = tuple(tuple((o, cause, o * 20) for o, cause in PEER_CAUSES[c]) for c in range(81))

#: The level whose rule list each nested level extends, and how many rules they share.
PARENT: dict[int, tuple[int, int]] = {1: (0, 0), 2: (1, 4), 3: (2, 5), 4: (1, 4), 5: (4, 5)}


class _Run:
    """One finished propagation: the ON and OFF potentials (dicts key -> Potential, in SE's
    order), the contradiction (None or the (ON, OFF) pair) and the candidates at the end."""

    __slots__ = ("to_on", "to_off", "absurd", "cands", "count")

    def __init__(self, to_on: dict, to_off: dict, absurd, cands: list[int] | None, count: list[int] | None):
        self.to_on = to_on
        self.to_off = to_off
        self.absurd = absurd
        self.cands = cands
        self.count = count


class Shared:
    """What the dynamic producers of one search share on one grid: each level's finished
    propagations by premise key (for the next level to go on from), and the nested rules'
    results by reduced grid, then rule name. Everything is dropped when the grid changes."""

    def __init__(self) -> None:
        self.state: tuple | None = None
        self.runs: dict[int, dict[int, _Run]] = {}
        self.rules: dict[tuple, dict[str, list]] = {}

    def enter(self, state: tuple) -> None:
        if state != self.state:
            self.state = state
            self.runs.clear()
            self.rules.clear()


class _KernelMultiple:
    """SE's static Multiple Forcing Chains that first find, from every candidate's closure
    at once (`kernel.multiple_starts`), the cells and regions whose premises share a
    consequence; SE's propagations run only for those, and its hints are built from them as
    SE builds them.

    The closures are exact when no premise leads to a contradiction (SE stops a premise's
    propagation at its first contradiction, in its own order); if one does (its closure
    holds its own negation), SE's whole search runs."""

    def _multiple_chains(self, board: Board) -> list[ChainHint]:
        if self.dynamic or self.nishio:
            return super()._multiple_chains(board)
        cands = board.cands
        values = board.values
        absurd, cell_ok, place_ok = kernel.multiple_starts(cands, board.count)
        if absurd:
            return super()._multiple_chains(board)
        cell_ok = cell_ok.tolist()
        place_ok = place_ok.tolist()
        result: list[ChainHint] = []
        memo: dict[int, tuple] = {}
        for cell in range(81):
            if values[cell] != 0 or popcount(cands[cell]) <= 2:
                continue
            for value in bits(cands[cell]):
                for r in CELL_REGIONS[cell]:
                    if not place_ok[r * 10 + value]:
                        continue
                    pos = board.positions(r, value)
                    if len(pos) < 2 or pos[0] != cell:
                        continue
                    self._one_region(board, result, cell, value, r, pos, memo)
            if cell_ok[cell]:
                value_to_on, value_to_off = {}, {}
                cell_to_on = cell_to_off = None
                for value in bits(cands[cell]):
                    on_to_on, on_to_off, _ = self._propagate_on(board, cell, value, memo)
                    value_to_on[value] = on_to_on
                    value_to_off[value] = on_to_off
                    if cell_to_on is None:
                        cell_to_on, cell_to_off = dict(on_to_on), dict(on_to_off)
                    else:
                        cell_to_on = {k: v for k, v in cell_to_on.items() if k in on_to_on}
                        cell_to_off = {k: v for k, v in cell_to_off.items() if k in on_to_off}
                for outcomes, chosen in ((value_to_on, cell_to_on), (value_to_off, cell_to_off)):
                    for p in chosen.values():
                        targets = [outcomes[v][p.key] for v in bits(cands[cell])]
                        hint = self._reduction_hint(board, "cell", p, targets, house=None)
                        if hint is not None:
                            result.append(hint)
        return result

    def _one_region(self, board, result, cell, value, r, pos, memo) -> None:
        """`Chaining._region_chains` for one region."""
        pos_on, pos_off = {}, {}
        region_on = region_off = None
        for c in pos:
            o_on, o_off, _ = self._propagate_on(board, c, value, memo)
            pos_on[c], pos_off[c] = o_on, o_off
            if region_on is None:
                region_on, region_off = dict(o_on), dict(o_off)
            else:
                region_on = {k: v for k, v in region_on.items() if k in o_on}
                region_off = {k: v for k, v in region_off.items() if k in o_off}
        for outcomes, chosen in ((pos_on, region_on), (pos_off, region_off)):
            for p in chosen.values():
                targets = [outcomes[c][p.key] for c in pos]
                hint = self._reduction_hint(board, "region", p, targets, house=r, digit=value)
                if hint is not None:
                    result.append(hint)


def _chains(found) -> dict[int, list[Potential]]:
    """The chains of `kernel.static_cycles` or `kernel.static_forcing` as SE's potentials
    (each its end, parents down to the source), by source key."""
    sources, offsets, keys, causes = found
    out: dict[int, list[Potential]] = {}
    keys, causes, offsets = keys.tolist(), causes.tolist(), offsets.tolist()
    for i, src in enumerate(sources.tolist()):
        a, b = offsets[i], offsets[i + 1]
        k = keys[b - 1]
        p = Potential((k >> 1) // 10, (k >> 1) % 10, bool(k & 1), [], None)
        for j in range(b - 2, a - 1, -1):
            k = keys[j]
            p = Potential((k >> 1) // 10, (k >> 1) % 10, bool(k & 1), [p], causes[j])
        out.setdefault(src, []).append(p)
    return out


class _KernelLoops:
    """SE's Forcing Chains & Cycles with the cycles found by `kernel.static_cycles`: the
    search of `Chaining._loops` and `Chaining._unary`, same hints in the same order."""

    def _kernel_cycles(self, board: Board, y: bool, x: bool, srcs: list[int]) -> dict[int, list[Potential]]:
        """The cycles that remove something from each ON key of `srcs`, as SE's potentials."""
        if not srcs:
            return {}
        return _chains(kernel.static_cycles(board.cands, board.count, y, x, srcs))

    def _kernel_forcing(self, board: Board, y: bool, srcs: list[int]) -> dict[int, list[Potential]]:
        """The forcing chain from each key of `srcs` (ON or OFF) to its opposite, if any."""
        if not srcs:
            return {}
        return _chains(kernel.static_forcing(board.cands, board.count, y, srcs))


class FastChaining(_KernelLoops, _KernelMultiple, Chaining):
    """A `Chaining` producer that shares work through `shared` (see the module docstring).

    Without `shared`, or for the static and Nishio producers, it is `Chaining` with the
    nested producers' existence test only."""

    def __init__(self, *, multiple: bool = False, dynamic: bool = False, nishio: bool = False, level: int = 0,
                 shared: Shared | None = None):
        super().__init__(multiple=multiple, dynamic=dynamic, nishio=nishio, level=level)
        self.shared = shared
        self._parent: dict[int, _Run] | None = None
        self._store: dict[int, _Run] | None = None
        self._rule_cache: dict | None = None
        self._named_rules = None

    # ---- entry ------------------------------------------------------------------------
    def hints(self, board: Board, *, source: list[int] | None = None) -> list[ChainHint]:
        shared = self.shared
        if shared is None or not (self.multiple and self.dynamic) or self.nishio:
            return super().hints(board, source=source)
        state = board.state()
        cached = self._cache.get(state)
        if cached is not None:
            return cached
        shared.enter(state)
        if self.level >= 1:
            self._parent = shared.runs.get(PARENT[self.level][0])
        self._store = shared.runs[self.level] = {}
        self._rule_cache = shared.rules
        try:
            return super().hints(board, source=source)
        finally:
            self._parent = self._store = self._rule_cache = None

    # ---- static chains and cycles --------------------------------------------------------
    def _loops(self, board: Board, y: bool, x: bool, reach=None) -> list[ChainHint]:
        if reach is not None:
            return super()._loops(board, y, x, reach)
        result: list[ChainHint] = []
        cands = board.cands
        starts = []
        for cell in range(81):
            if board.values[cell] == 0:
                card = popcount(cands[cell])
                if card > 1 and (card == 2 or x):
                    starts.extend((cell * 10 + value) * 2 + 1 for value in bits(cands[cell]))
        cycles = self._kernel_cycles(board, y, x, starts)
        forcing = self._kernel_forcing(board, y, [k for on in starts for k in (on, on - 1)]) if x else {}
        for on in starts:
            self._unary_hints(board, result, y, x, cycles.get(on, ()), forcing.get(on, []) + forcing.get(on - 1, []))
        return result

    # ---- premises -----------------------------------------------------------------------
    def _premise(self, board: Board, cell: int, value: int, on: bool) -> _Run:
        """The propagation of (cell, value) ON or OFF, going on from the parent level's."""
        key = (cell * 10 + value) * 2 + on
        parent = self._parent.get(key) if self._parent is not None else None
        if parent is not None:
            if parent.absurd is not None:
                run = parent
            else:
                run = self._go_on(board, parent)
        else:
            p = Potential(cell, value, on)
            to_on, to_off = ({p.key: p}, {}) if on else ({}, {p.key: p})
            run = _Run(to_on, to_off, *self._propagate(board, to_on, to_off))
        if self._store is not None:
            self._store[key] = run
        return run

    def _propagate_on(self, board, cell, value, memo):
        key = cell * 10 + value
        got = memo.get(key)
        if got is None:
            run = self._premise(board, cell, value, True)
            got = memo[key] = (run.to_on, run.to_off, run.absurd)
        return got

    def _binary(self, board, p_on, p_off, result, do_double, do_contra, memo):
        on_to_on, on_to_off, absurd = self._propagate_on(board, p_on.cell, p_on.value, memo)
        p_on = on_to_on[p_on.key]
        if do_contra and absurd is not None:
            result.append(ChainHint(self, "binary", {p_on.cell: 1 << p_on.value}, [absurd[0], absurd[1]],
                                    source=p_on, absurd=True))
        run = self._premise(board, p_off.cell, p_off.value, False)
        off_to_on, off_to_off, absurd = run.to_on, run.to_off, run.absurd
        p_off = off_to_off[p_off.key]
        if do_contra and absurd is not None:
            removable = board.cands[p_off.cell] & ~(1 << p_off.value)
            if removable:
                result.append(ChainHint(self, "binary", {p_off.cell: removable}, [absurd[0], absurd[1]],
                                        source=p_off, absurd=True, cell=p_off.cell, value=p_off.value))
        if do_double:
            for k, p in on_to_on.items():
                q = off_to_on.get(k)
                if q is not None:
                    removable = board.cands[p.cell] & ~(1 << p.value)
                    if removable:
                        result.append(ChainHint(self, "binary", {p.cell: removable}, [p, q], source=p_on,
                                                cell=p.cell, value=p.value))
            for k, p in on_to_off.items():
                q = off_to_off.get(k)
                if q is not None:
                    result.append(ChainHint(self, "binary", {q.cell: 1 << q.value}, [p, q], source=p_off))
        return on_to_on, on_to_off

    # ---- the propagation ------------------------------------------------------------------
    def propagate(self, board: Board, to_on: dict, to_off: dict):
        return self._propagate(board, to_on, to_off)[0]

    def _go_on(self, board: Board, parent: _Run) -> _Run:
        """The parent level's finished propagation `parent`, continued with this level's rules
        that its own list lacks, from its last quiescence."""
        save, save_count = list(board.cands), list(board.count)
        board.load(parent.cands, parent.count)
        try:
            extra = self._advanced(board, save, parent.to_off, PARENT[self.level][1])
        finally:
            board.load(save, save_count)
        fresh = [q for q in extra if q.key not in parent.to_off]
        if not fresh:
            return parent
        to_on, to_off = dict(parent.to_on), dict(parent.to_off)
        pending_off = deque()
        for q in fresh:
            if q.key not in to_off:
                to_off[q.key] = q
                pending_off.append(q)
        return _Run(to_on, to_off, *self._propagate(board, to_on, to_off, start=(parent, pending_off)))

    def _propagate(self, board: Board, to_on: dict, to_off: dict, start=None):
        """SE's ``doChaining`` (see `Chaining.propagate`); returns (contradiction or None, the
        candidates and place counts at the end). `start`: (the `_Run` whose final candidates
        to start from, pending OFF queue) to go on from."""
        save, save_count = list(board.cands), list(board.count)
        y = not self.nishio
        dynamic = self.dynamic
        level = self.level
        cands = board.cands
        count = board.count
        fast_off = dynamic and y
        try:
            if start is None:
                pending_on = deque(to_on.values())
                pending_off = deque(to_off.values())
            else:
                board.load(start[0].cands, start[0].count)
                pending_on = deque()
                pending_off = start[1]
            push_on, push_off = pending_on.append, pending_off.append
            peers = _PEER_KEYS
            while pending_on or pending_off:
                if pending_on:
                    p = pending_on.popleft()
                    cell, value = p.cell, p.value
                    if y:
                        base = cell * 20
                        for v in bits(cands[cell]):
                            if v != value:
                                k = base + v * 2
                                if k + 1 in to_on:
                                    return (to_on[k + 1], Potential(cell, v, False, [p], CELL)), None, None
                                if k not in to_off:
                                    q = to_off[k] = Potential(cell, v, False, [p], CELL)
                                    push_off(q)
                    bit = 1 << value
                    v2 = value * 2
                    for c, cause, base in peers[cell]:
                        if cands[c] & bit:
                            k = base + v2
                            if k + 1 in to_on:
                                return (to_on[k + 1], Potential(c, value, False, [p], cause)), None, None
                            if k not in to_off:
                                q = to_off[k] = Potential(c, value, False, [p], cause)
                                push_off(q)
                elif not fast_off:
                    p = pending_off.popleft()
                    ons = self._off_to_on(board, p, save if dynamic else None, to_off, y, True)
                    if dynamic:
                        board.remove(p.cell, p.value)
                    for q in ons:
                        k = q.key - 1
                        if k in to_off:
                            return (q, to_off[k]), None, None
                        if q.key not in to_on:
                            to_on[q.key] = q
                            push_on(q)
                else:
                    # `Chaining._off_to_on` (dynamic, Y- and X-links) and `Board.remove`, inlined
                    p = pending_off.popleft()
                    cell, value = p.cell, p.value
                    bit = 1 << value
                    m = cands[cell]
                    ons = []
                    keys = ()
                    rest = m & (m - 1)
                    if rest and not rest & (rest - 1):  # two digits left
                        other = ((m ^ bit) if m & bit else m & -m).bit_length() - 1
                        parents = [p]
                        for v in bits(save[cell] & ~m):
                            parent = to_off.get((cell * 10 + v) * 2)
                            if parent is None:
                                raise RuntimeError("Parent not found")
                            parents.append(parent)
                        q = Potential(cell, other, True, parents, CELL)
                        ons.append(q)
                        keys = (q.key,)
                    for t, base, region in _REGION_WAYS[cell]:
                        if count[base + value] == 2:
                            for other in region:
                                if other != cell and cands[other] & bit:
                                    break
                            key = (other * 10 + value) * 2 + 1
                            if key in keys:
                                continue
                            parents = [p]
                            for c in region:
                                if save[c] & bit and not cands[c] & bit:
                                    parent = to_off.get((c * 10 + value) * 2)
                                    if parent is None:
                                        raise RuntimeError("Parent not found")
                                    parents.append(parent)
                            q = Potential(other, value, True, parents, t)
                            ons.append(q)
                            keys += (key,)
                    if m & bit:
                        cands[cell] = m & ~bit
                        for _, base, _ in _REGION_WAYS[cell]:
                            count[base + value] -= 1
                    for q in ons:
                        k = q.key - 1
                        if k in to_off:
                            return (q, to_off[k]), None, None
                        if q.key not in to_on:
                            to_on[q.key] = q
                            pending_on.append(q)
                if level > 0 and not pending_on and not pending_off:
                    for q in self._advanced(board, save, to_off):
                        if q.key not in to_off:
                            to_off[q.key] = q
                            pending_off.append(q)
            return None, list(cands), list(count)
        finally:
            board.load(save, save_count)

    # ---- nested rules ------------------------------------------------------------------------
    def _rule_list(self):
        """The nested rules as (name, function (board, source, changed keys, changed cells))."""
        if self._named_rules is None:
            rules = [
                ("lock", lambda b, s, ch, cc: bitrules.lockings(b, changed=ch)),
                ("hidden2", lambda b, s, ch, cc: bitrules.hidden_pairs(b, changed=ch)),
                ("naked2", lambda b, s, ch, cc: bitrules.naked_pairs(b, changed_cells=cc)),
                ("fish2", lambda b, s, ch, cc: bitrules.fish2(b, changed=ch)),
            ]
            top = self.level <= 4
            if self.level < 4:
                if self.level >= 2:
                    inner = NestedStatic() if top else Chaining()
                    rules.append(("fc", lambda b, s, ch, cc, inner=inner: inner.hints(b, source=s if top else None)))
                if self.level >= 3:
                    inner3 = NestedMultiple(multiple=True)
                    rules.append(("mfc", lambda b, s, ch, cc, inner=inner3: inner.hints(b)))
            else:
                inner4 = KernelDynamic()
                rules.append(("dfc", lambda b, s, ch, cc, inner=inner4: inner.hints(b)))
                if self.level >= 5:
                    inner5 = FastChaining(multiple=True, dynamic=True, level=self.level - 3)
                    rules.append((f"dfc{self.level - 3}", lambda b, s, ch, cc, inner=inner5: inner.hints(b)))
            self._named_rules = rules
        return self._named_rules

    def _advanced(self, board: Board, save: list[int], to_off: dict, start: int = 0) -> list[Potential]:
        """OFF potentials from the nested rules from index `start` on (SE's
        ``getAdvancedPotentials``; the rules before `start` are known to find nothing)."""
        result: list[Potential] = []
        cache = self._rule_cache
        source = Source(save)
        cands = board.cands
        known = None
        if cache is not None:
            # one hash of the (outer, reduced) grid pair per call, not one per rule
            state = (tuple(save), tuple(cands))
            known = cache.get(state)
            if known is None:
                known = cache[state] = {}
        changed = changed_cells = None
        basic = None
        for index, (name, rule) in enumerate(self._rule_list()[start:], start):
            found = None if known is None else known.get(name)
            if found is None and index < 4:
                # the basic rules: skip those with no hint at all on the grid
                if basic is None:
                    basic = kernel.basic_rules_found(cands, board.values)
                if not basic >> index & 1:
                    found = []
                    if known is not None:
                        known[name] = found
            if found is None:
                if changed is None:
                    changed_cells = {c for c in range(81) if save[c] != cands[c]}
                    changed = set()
                    for c in changed_cells:
                        for v in bits(save[c] & ~cands[c]):
                            for r in CELL_REGIONS[c]:
                                changed.add(r * 10 + v)
                found = []
                for hint in rule(board, save, changed, changed_cells):
                    parents = hint.rule_parents(source, board)
                    if parents:
                        found.append((hint, parents))
                if known is not None:
                    known[name] = found
            if found:
                for hint, parents in found:
                    nested = hint if isinstance(hint, ChainHint) else None
                    real = [to_off[(c * 10 + v) * 2] for c, v in parents if (c * 10 + v) * 2 in to_off]
                    for c in sorted(hint.removable, key=lambda c: (c % 9, c // 9)):
                        for v in bits(hint.removable[c]):
                            result.append(Potential(c, v, False, list(real), ADVANCED, nested,
                                                    None if nested is not None else hint))
                break
        return result


def _from_new_links(board: Board, source: list[int], links: StaticLinks, y: bool, x: bool) -> set[int]:
    """The potential keys reached, in the static links of `board` (Y-links with `y`, strong
    X-links with `x`), from an ON potential that a strong link `source` lacks turns on."""
    cands = board.cands
    count = board.count
    heads = []
    if y:
        for c in range(81):
            m = cands[c]
            if popcount(m) == 2 and popcount(source[c]) > 2:
                heads.extend((c * 10 + v) * 2 + 1 for v in bits(m))
    if x:
        for r in range(27):
            for v in range(1, 10):
                if count[r * 10 + v] == 2:
                    bit = 1 << v
                    if sum(1 for c in REGION_CELLS[r] if source[c] & bit) > 2:
                        heads.extend((c * 10 + v) * 2 + 1 for c in REGION_CELLS[r] if cands[c] & bit)
    seen = set(heads)
    todo = list(heads)
    while todo:
        k = todo.pop()
        nxt = links.on_next(k, y) if k & 1 else links.off_next(k, y, x)
        for q, _ in nxt:
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def static_starts_reference(board: Board, source: list[int], y: bool, x: bool) -> dict[int, int]:
    """`linkgraph.techniques.se.kernel.static_starts` in Python, kept as its oracle: the
    flags (``kernel.CYCLE | FROM_ON | FROM_OFF``) of every ON key that has any, from the
    graph walks of `reaching_new_links`, `_from_new_links` and `_OnReach`."""
    out: dict[int, int] = {}
    back = reaching_new_links(board, source, y, x)
    if not back:
        return out
    links = StaticLinks(board)
    ahead = _from_new_links(board, source, links, y, x)
    reach = _OnReach(board, links, y, x)
    for cell in range(81):
        card = popcount(board.cands[cell])
        if card > 1 and (card == 2 or x):
            for value in bits(board.cands[cell]):
                on = (cell * 10 + value) * 2 + 1
                f = (kernel.CYCLE * (on in back and on in ahead and reach.on_cycle(on))
                     | kernel.FROM_ON * (x and on in back and on - 1 in ahead and reach.on_forcing(on))
                     | kernel.FROM_OFF * (x and on - 1 in back and on in ahead and reach.off_forcing(on)))
                if f:
                    out[on] = f
    return out


class NestedStatic(_KernelLoops, Chaining):
    """Forcing Chains & Cycles nested in a chain whose search started from a grid (`source`)
    on which they found nothing: every chain or cycle with eliminations on the reduced grid
    then passes a strong link `source` lacks (else it would have been found on `source`), so
    a search starts only from a potential that reaches such a link and whose chain end can be
    reached from one. Without `source` it is `Chaining`."""

    def hints(self, board: Board, *, source: list[int] | None = None) -> list[ChainHint]:
        if source is None:
            return super().hints(board)
        state = board.state()
        cached = self._cache.get(state)
        if cached is not None:
            return cached
        # every hint as (rating, complexity, kind, removed, the hint or how to build it): the
        # forcing chains' potentials are built only for those kept (one per set of eliminations)
        result: list[tuple] = []
        cands = board.cands
        # the grid as arrays once for the three modes' kernels
        cands_a = np.asarray(cands, dtype=np.int64)
        count_a = np.asarray(board.count, dtype=np.int64)
        source_a = np.asarray(source, dtype=np.int64)
        for y, x in ((False, True), (True, False), (True, True)):
            flags = kernel.static_starts(cands_a, count_a, source_a, y, x)
            starts = [on for on in np.flatnonzero(flags).tolist() if board.values[on // 20] == 0]
            if not starts:
                continue
            srcs = [on for on in starts if flags[on] & kernel.CYCLE]
            cycles = _chains(kernel.static_cycles(cands_a, count_a, y, x, srcs)) if srcs else {}
            forcing: dict[int, list[tuple[int, int]]] = {}
            if x:
                srcs = [k for on in starts for k, f in ((on, kernel.FROM_ON), (on - 1, kernel.FROM_OFF))
                        if flags[on] & f]
                if srcs:
                    found = kernel.static_forcing(cands_a, count_a, y, srcs)
                    keys = found[2].tolist()
                    offsets = found[1].tolist()
                    for i, src in enumerate(found[0].tolist()):
                        forcing.setdefault(src, []).append((offsets[i], offsets[i + 1]))
            base = 7.0 if (x and y) else 6.6
            sort_key = 4 if (x and y) else (3 if y else 2)
            for on in starts:
                for dst_on in cycles.get(on, ()):
                    hint = self._cycle_hint(board, dst_on, reversed_cycle(dst_on), y, x)
                    if hint.is_worth():
                        result.append((hint.difficulty, hint.complexity, hint.sort_key, hint.removable_key(), hint))
                for a, b in forcing.get(on, []) + forcing.get(on - 1, []):
                    end = keys[a]
                    cell, value = divmod(end >> 1, 10)
                    if end & 1:
                        mask = cands[cell] & ~(1 << value)
                        if not mask:
                            continue
                    else:
                        mask = 1 << value
                    complexity = len(set(keys[a:b]))
                    result.append((base + length_bonus(complexity), complexity, sort_key, frozenset(((cell, mask),)),
                                   (found, a, b, y, x, cell, mask, bool(end & 1), value, complexity)))
        result.sort(key=lambda r: r[:3])
        seen = set()
        out = []
        for *_, k, hint in result:
            if k not in seen:
                seen.add(k)
                if isinstance(hint, tuple):
                    hint = self._forcing_hint(*hint)
                out.append(hint)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[state] = out
        return out


    def _forcing_hint(self, found, a, b, y, x, cell, mask, placed, value, complexity) -> ChainHint:
        """The hint of the forcing chain ``found[2][a:b]`` (see `_chains`)."""
        keys, causes = found[2][a:b].tolist(), found[3][a:b].tolist()
        k = keys[-1]
        p = Potential((k >> 1) // 10, (k >> 1) % 10, bool(k & 1), [], None)
        for j in range(len(keys) - 2, -1, -1):
            k = keys[j]
            p = Potential((k >> 1) // 10, (k >> 1) % 10, bool(k & 1), [p], causes[j])
        if placed:
            return ChainHint(self, "forcing", {cell: mask}, [p], is_x=x, is_y=y, cell=cell, value=value,
                             complexity=complexity)
        return ChainHint(self, "forcing", {cell: mask}, [p], is_x=x, is_y=y, complexity=complexity)


class _OnReach:
    """Reachability between ON potentials in the static links of one grid and mode: the graph
    whose edges go from an ON potential to each ON potential that an OFF one it turns off turns
    on, cut into strongly connected components (Tarjan), with each component's descendants
    as a bit mask. It answers, for every start at once, whether SE's searches can find
    anything: a forcing chain needs the start's negation to be reachable, a cycle needs the
    start on a cycle of at least two such steps."""

    def __init__(self, board: Board, links: StaticLinks, y: bool, x: bool, potentials: bool = False):
        self.links, self.y, self.x = links, y, x
        cands = board.cands
        count = board.count
        # the OFF potentials that turn something on: a digit of a cell holding two (Y), a
        # place of a digit holding two places in a region (X)
        strong: dict[int, None] = {}
        if y:
            for c in range(81):
                m = cands[c]
                if m and m & (m - 1) and not (m & (m - 1)) & ((m & (m - 1)) - 1):
                    for v in bits(m):
                        strong[(c * 10 + v) * 2] = None
        if x:
            for r in range(27):
                base = r * 10
                for v in range(1, 10):
                    if count[base + v] == 2:
                        bit = 1 << v
                        for c in REGION_CELLS[r]:
                            if cands[c] & bit:
                                strong[(c * 10 + v) * 2] = None
        # an ON potential turns an OFF one off exactly when the OFF one's ON turns the first
        # one off (weak links go both ways)
        succ: dict[int, list[int]] = {}
        for o in strong:
            heads = [v for v, _ in links.off_next(o, y, x)]
            for u, _ in links.on_next(o | 1, y):
                got = succ.get(u | 1)
                if got is None:
                    succ[u | 1] = list(heads)
                else:
                    got.extend(heads)
        self.succ = succ
        nodes = list(succ)
        # Tarjan's components, iteratively; components come out sinks first
        index: dict[int, int] = {}
        low: dict[int, int] = {}
        comp: dict[int, int] = {}
        sizes: list[int] = []
        stack: list[int] = []
        on_stack: set[int] = set()
        counter = 0
        for root in nodes:
            if root in index:
                continue
            work = [(root, 0)]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack.add(root)
            while work:
                u, i = work[-1]
                nxt = succ.get(u, ())
                if i < len(nxt):
                    work[-1] = (u, i + 1)
                    v = nxt[i]
                    if v not in index:
                        index[v] = low[v] = counter
                        counter += 1
                        stack.append(v)
                        on_stack.add(v)
                        work.append((v, 0))
                    elif v in on_stack and index[v] < low[u]:
                        low[u] = index[v]
                    continue
                work.pop()
                if work:
                    w = work[-1][0]
                    if low[u] < low[w]:
                        low[w] = low[u]
                if low[u] == index[u]:
                    cid = len(sizes)
                    n = 0
                    while True:
                        v = stack.pop()
                        on_stack.discard(v)
                        comp[v] = cid
                        n += 1
                        if v == u:
                            break
                    sizes.append(n)
        # descendants of each component (sinks first, so successors are done before)
        desc = [0] * len(sizes)
        members: list[list[int]] = [[] for _ in sizes]
        for v, cid in comp.items():
            members[cid].append(v)
        for cid in range(len(sizes)):
            d = 1 << cid
            for v in members[cid]:
                for w in succ.get(v, ()):
                    cw = comp[w]
                    if cw != cid:
                        d |= desc[cw]
            desc[cid] = d
        self.comp, self.sizes, self.desc = comp, sizes, desc
        if potentials:
            # the potentials each component reaches, as bits at their keys: its ON members,
            # what they turn off, and what its successor components reach
            pots = [0] * len(sizes)
            for cid in range(len(sizes)):
                d = 0
                for v in members[cid]:
                    d |= 1 << v
                    for o, _ in links.on_next(v, y):
                        d |= 1 << o
                    for w in succ.get(v, ()):
                        cw = comp[w]
                        if cw != cid:
                            d |= pots[cw]
                pots[cid] = d
            self.pots = pots

    def closure(self, on: int) -> int:
        """The potentials (bits at their keys) that ON `on` leads to, itself included."""
        cid = self.comp.get(on)
        if cid is not None:
            return self.pots[cid]
        d = 1 << on
        for o, _ in self.links.on_next(on, self.y):
            d |= 1 << o
        return d

    def reaches(self, u: int, v: int) -> bool:
        """Whether ON `v` is reachable from ON `u` (in zero or more steps)."""
        if u == v:
            return True
        comp = self.comp
        cu = comp.get(u)
        cv = comp.get(v)
        return cu is not None and cv is not None and bool(self.desc[cu] >> cv & 1)

    def on_cycle(self, on: int) -> bool:
        cid = self.comp.get(on)
        return cid is not None and self.sizes[cid] > 1

    def on_forcing(self, on: int) -> bool:
        """Whether ON `on` reaches an ON potential that turns it off: the ON potentials that
        turn its candidate off are those whose candidates it turns off (weak links go both
        ways)."""
        for o, _ in self.links.on_next(on, self.y):
            if self.reaches(on, o | 1):
                return True
        return False

    def off_forcing(self, on: int) -> bool:
        """Whether OFF `on - 1` reaches ON `on`: an ON potential it turns on reaches it."""
        for v, _ in self.links.off_next(on - 1, self.y, self.x):
            if self.reaches(v, on):
                return True
        return False


def multiple_starts_reference(board: Board) -> tuple[int | None, list[int], list[int]]:
    """`linkgraph.techniques.se.kernel.multiple_starts` in Python, kept as its oracle, from
    the closures of `_OnReach`: (the first ON key whose closure holds its own OFF, or None;
    the cells; the ``region * 10 + digit`` places)."""
    reach = _OnReach(board, StaticLinks(board), True, True, potentials=True)
    cands = board.cands
    closure: dict[int, int] = {}
    for c in range(81):
        for v in bits(cands[c]):
            on = (c * 10 + v) * 2 + 1
            got = closure[on] = reach.closure(on)
            if got >> (on - 1) & 1:
                return on, [], []
    cells = []
    for cell in range(81):
        if popcount(cands[cell]) > 2:
            common = -1
            for v in bits(cands[cell]):
                common &= closure[(cell * 10 + v) * 2 + 1]
            if common:
                cells.append(cell)
    places = []
    for r in range(27):
        for v in range(1, 10):
            pos = board.positions(r, v)
            if len(pos) >= 2:
                inter = -1
                for c in pos:
                    inter &= closure[(c * 10 + v) * 2 + 1]
                if inter:
                    places.append(r * 10 + v)
    return None, cells, places


class NestedMultiple(_KernelMultiple, Chaining):
    """Multiple Forcing Chains (static) nested in the chains of level 3, searched as
    `_KernelMultiple` searches. The grid does not change during a static search, so its
    propagations walk the grid's links (`StaticLinks`, each key's links made once per grid)
    instead of reading the candidates again for every potential; same order, same parents."""

    _links: StaticLinks | None = None

    def _multiple_chains(self, board: Board) -> list[ChainHint]:
        self._links = StaticLinks(board)
        try:
            return super()._multiple_chains(board)
        finally:
            self._links = None

    def propagate(self, board: Board, to_on: dict, to_off: dict):
        links = self._links
        if links is None or self.dynamic or self.nishio or self.level:
            return super().propagate(board, to_on, to_off)
        on_next, off_next = links.on_next, links.off_next
        pending_on = deque(to_on.values())
        pending_off = deque(to_off.values())
        while pending_on or pending_off:
            if pending_on:
                p = pending_on.popleft()
                for k, cause in on_next(p.key, True):
                    if k + 1 in to_on:
                        return to_on[k + 1], Potential((k >> 1) // 10, (k >> 1) % 10, False, [p], cause)
                    if k not in to_off:
                        q = to_off[k] = Potential((k >> 1) // 10, (k >> 1) % 10, False, [p], cause)
                        pending_off.append(q)
            else:
                p = pending_off.popleft()
                for k, cause in off_next(p.key, True, True):
                    q = Potential((k >> 1) // 10, (k >> 1) % 10, True, [p], cause)
                    if k - 1 in to_off:
                        return q, to_off[k - 1]
                    if k not in to_on:
                        to_on[k] = q
                        pending_on.append(q)
        return None


def _arena_potentials(keys: list, causes: list, pstart: list, plen: list, parents: list,
                      need: list) -> dict[int, Potential]:
    """The `Potential` of every arena index in `need` (increasing, closed under parents, as
    `kernel.dynamic_chains` gives it), by index."""
    made: dict[int, Potential] = {}
    for i in need:
        a = pstart[i]
        k = keys[i]
        cause = causes[i]
        made[i] = Potential((k >> 1) // 10, (k >> 1) % 10, bool(k & 1), [made[j] for j in parents[a:a + plen[i]]],
                            None if cause < 0 else cause)
    return made


class KernelDynamic(Chaining):
    """Dynamic Forcing Chains (level 0) searched by `kernel.dynamic_chains`: every premise's
    propagation compiled, in SE's order with SE's parents; Python builds SE's potentials
    only for the chains of the hints that come back (sorted and one per set of eliminations,
    as `Chaining.hints` keeps them). The nested rule of levels 4 and 5; where SE's search
    would fail ("Parent not found") `Chaining`'s own search runs."""

    def __init__(self):
        super().__init__(multiple=True, dynamic=True)

    def _multiple_chains(self, board: Board) -> list[ChainHint]:
        error, rows, starts, targets, keys, causes, pstart, plen, parents, need = kernel.dynamic_chains(
            board.cands, board.count)
        if error:
            return super()._multiple_chains(board)
        rows, starts, targets = rows.tolist(), starts.tolist(), targets.tolist()
        made = _arena_potentials(keys.tolist(), causes.tolist(), pstart.tolist(), plen.tolist(), parents.tolist(),
                                 need.tolist())
        out: list[ChainHint] = []
        for i, (kind, sort_key, cell, mask, placed, value, house, digit, src, complexity, _) in enumerate(rows):
            ends = targets[starts[i]:starts[i + 1]]
            common = dict(cell=None if placed < 0 else placed, value=value, complexity=complexity)
            ends = [made[j] for j in ends]
            if kind == 0:
                hint = ChainHint(self, "binary", {cell: mask}, ends, source=made[src], absurd=sort_key == 7,
                                 **common)
            else:
                hint = ChainHint(self, "cell" if kind == 1 else "region", {cell: mask}, ends,
                                 house=None if house < 0 else house, digit=digit, **common)
            out.append(hint)
        return out


def aligned_exclusions(board: Board, degree: int):
    """`linkgraph.techniques.se.rules.aligned_exclusions` searched by `kernel.aligned_exclusions`:
    the same hints in the same order."""
    pair = degree == 2
    for removable in kernel.aligned_exclusions(board.cands, degree):
        yield Hint("Aligned Pair Exclusion" if pair else "Aligned Triplet Exclusion",
                   "aligned-pair-exclusion" if pair else "aligned-triplet-exclusion", 6.2 if pair else 7.5, removable)
