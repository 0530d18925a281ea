"""SE's chaining producers: cycles, forcing chains, Nishio, multiple, dynamic and nested chains.

A *potential* is a candidate with a state, ON or OFF, and the potentials it was deduced
from (its parents). Propagation follows SE's rules exactly, in SE's order, so that every
potential gets the parents SE gives it (the complexity of a chain, and hence its rating,
counts them):

- an ON potential turns OFF the other digits of its cell (Y-links, not in Nishio mode)
  and the other places of its digit in its block, row and column (X-links);
- an OFF potential turns ON the last digit of a cell holding two, and the last place of a
  digit holding two places in a block, row or column. In *dynamic* mode every OFF
  potential is removed from the working grid once processed, so "two" counts what is left,
  and the removed candidates of that cell or region join as extra parents;
- ON potentials are processed before OFF ones, each queue first in, first out; a
  contradiction is a potential that is both ON and OFF;
- at level >= 1, when both queues are empty, the nested rules run on the reduced grid:
  intersections, hidden pair, naked pair, X-Wing, then (level 2) static forcing chains
  and cycles, (level 3) static multiple forcing chains, (level 4) dynamic forcing chains,
  (level 5) dynamic chains of level 2. The first rule that finds a hint relying on
  something the outer chain removed supplies OFF potentials for all such hints; their
  parents are those removed candidates, and a nested chain's potentials point to it.

A hint's complexity is the number of distinct potentials among the ancestors of each of its
chain ends, summed over the ends, plus the complexity of every distinct nested chain among
them; its rating is the producer's base plus `length_bonus(complexity)`. A producer sorts
its hints by rating, then complexity, then kind, keeps the first of those with equal
eliminations, and the solver takes the first.

Examples
--------
>>> from linkgraph.techniques.se.board import Board
>>> from linkgraph.techniques.se.chaining import Chaining
>>> board = Board.from_grid(lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)))
>>> hint = Chaining(multiple=True, dynamic=True).hints(board)[0]
>>> hint.name, round(hint.difficulty, 1)
('Dynamic Region Forcing Chains', 8.5)
"""

from __future__ import annotations

from collections import deque

from linkgraph.techniques.se.board import CELL_REGIONS, HOUSE_CELLS, PEER_CAUSES, REGION_CELLS, Board, bits, popcount
from linkgraph.techniques.se.hints import Hint, length_bonus
from linkgraph.techniques.se.rules import fish, hidden_sets, lockings, naked_sets

__all__ = ["CHAINING_PRODUCERS", "ChainHint", "Chaining", "Potential"]

#: Causes of a potential (SE's ``Potential.Cause``): the set that forced it.
CELL, BLOCK_CAUSE, ROW_CAUSE, COLUMN_CAUSE, ADVANCED = 0, 1, 2, 3, 4


class Potential:
    """A candidate ON or OFF with its parents, cause and (nested) chain."""

    __slots__ = ("cell", "value", "on", "parents", "cause", "nested", "key", "rule")

    def __init__(self, cell: int, value: int, on: bool, parents=None, cause=None, nested=None, rule=None):
        self.cell = cell
        self.value = value
        self.on = on
        self.parents = parents if parents is not None else []
        self.cause = cause
        self.nested = nested  # the nested ChainHint behind an ADVANCED potential
        self.rule = rule  # the basic hint behind an ADVANCED potential
        self.key = (cell * 10 + value) * 2 + on

    def __repr__(self) -> str:
        return f"{'+' if self.on else '-'}r{self.cell // 9 + 1}c{self.cell % 9 + 1}#{self.value}"


def _region_of(cause: int, cell: int) -> int:
    return CELL_REGIONS[cell][cause - 1]


def ancestors(target: Potential) -> list[Potential]:
    """SE's ``getChain``: the potentials reachable through parents, each key once, breadth first."""
    out = []
    done = set()
    todo = [target]
    while todo:
        nxt = []
        for p in todo:
            if p.key not in done:
                done.add(p.key)
                out.append(p)
                nxt.extend(p.parents)
        todo = nxt
    return out


def ancestor_count(target: Potential) -> int:
    done = set()
    todo = [target]
    while todo:
        nxt = []
        for p in todo:
            if p.key not in done:
                done.add(p.key)
                nxt.extend(p.parents)
        todo = nxt
    return len(done)


class ChainHint(Hint):
    """A chaining hint: its kind, its chain ends (targets) and what it rates."""

    __slots__ = ("kind", "targets", "sort_key", "rule", "is_x", "is_y", "source", "absurd", "house", "_complexity",
                 "_signature", "digit")

    def __init__(self, rule: Chaining, kind: str, removable: dict[int, int], targets: list[Potential], *,
                 is_x=True, is_y=True, source=None, absurd=False, house=None, digit=0, cell=None, value=0,
                 complexity=None):
        super().__init__("", "", 0.0, removable, cell, value)
        self.rule = rule
        self.kind = kind
        self.targets = targets
        self.is_x = is_x
        self.is_y = is_y
        self.source = source
        self.absurd = absurd
        self.house = house
        self.digit = digit
        self._complexity = complexity  # when the caller counted it already
        self._signature = None
        self.sort_key = {"cycle": 0, "forcing": 0, "binary": 7 if absurd else 1, "cell": 5, "region": 6}[kind]
        if kind in ("cycle", "forcing"):
            self.sort_key = 4 if (is_x and is_y) else (3 if is_y else 2)
        self.name, self.technique = self._names()
        self.difficulty = self._base() + length_bonus(self.complexity)

    # ---- naming and rating ------------------------------------------------
    def _names(self) -> tuple[str, str]:
        rule = self.rule
        if self.kind == "cycle":
            if self.is_x and self.is_y:
                return "Bidirectional Cycle", "bidirectional-cycle"
            return ("Bidirectional Y-Cycle", "bidirectional-y-cycle") if self.is_y else (
                "Bidirectional X-Cycle", "bidirectional-x-cycle")
        if self.kind == "forcing":
            if self.is_x and self.is_y:
                return "Forcing Chain", "forcing-chain"
            return ("Forcing Y-Chain", "forcing-y-chain") if self.is_y else ("Forcing X-Chain", "forcing-x-chain")
        prefix = "Dynamic " if (rule.level > 0 or rule.dynamic) and not rule.nishio else ("Nishio " if rule.nishio else "")
        suffix = " Chains" + nested_suffix(rule.level)
        tech_suffix = "" if rule.level == 0 else f"-level-{rule.level}"
        tech_prefix = "dynamic-" if prefix == "Dynamic " else ""
        if self.kind == "binary":
            if rule.nishio:
                return "Nishio Forcing Chains", "nishio-forcing-chain"
            what = "Contradiction Forcing" if self.absurd else "Double Forcing"
            tech = "contradiction-forcing-chain" if self.absurd else "double-forcing-chain"
            return prefix + what + suffix, tech_prefix + tech + tech_suffix
        what = "Cell Forcing" if self.kind == "cell" else "Region Forcing"
        return prefix + what + suffix, tech_prefix + self.kind + "-forcing-chain" + tech_suffix

    def _base(self) -> float:
        if self.kind == "cycle":
            return 7.0 if (self.is_x and self.is_y) else 6.5
        if self.kind == "forcing":
            return 7.0 if (self.is_x and self.is_y) else 6.6
        return self.rule.base_difficulty()

    @property
    def flat_complexity(self) -> int:
        if self.kind == "cycle":
            return ancestor_count(self.targets[0])
        return sum(ancestor_count(t) for t in self.targets)

    @property
    def complexity(self) -> int:
        if self._complexity is None:
            self._complexity = self.flat_complexity + self.nested_complexity()
        return self._complexity

    def nested_chains(self) -> list[ChainHint]:
        """The distinct nested chains among the ancestors of the targets (SE's FullChain)."""
        seen = set()
        out = []
        for t in self.targets:
            for p in ancestors(t):
                if p.nested is not None:
                    sig = p.nested.signature()
                    if sig not in seen:
                        seen.add(sig)
                        out.append(p.nested)
        return out

    def nested_complexity(self) -> int:
        return sum(n.complexity for n in self.nested_chains())

    def signature(self) -> tuple:
        if self._signature is None:
            self._signature = tuple((t.key, tuple(p.key for p in ancestors(t))) for t in self.targets)
        return self._signature

    # ---- nesting ------------------------------------------------------------
    def rule_parents(self, source, current) -> list[tuple[int, int]]:
        """The candidates removed from `source` in `current` that this chain's ON potentials
        rely on (SE's ``collectRuleParents``), in SE's order."""
        out: dict[tuple[int, int], None] = {}
        for t in self.targets:
            done = set()
            todo = [t]
            while todo:
                nxt = []
                for p in todo:
                    if p.key in done:
                        continue
                    done.add(p.key)
                    cause = p.cause
                    if cause is None:
                        if self.kind == "cell":
                            cause = CELL
                        elif self.kind == "region":
                            cause = self.house // 9 + 1
                    if p.on and cause is not None:
                        if cause == CELL:
                            for v in bits(source.cands[p.cell] & ~current.cands[p.cell]):
                                out.setdefault((p.cell, v), None)
                        elif cause != ADVANCED:
                            bit = 1 << p.value
                            for c in REGION_CELLS[_region_of(cause, p.cell)]:
                                if source.cands[c] & bit and not current.cands[c] & bit:
                                    out.setdefault((c, p.value), None)
                    nxt.extend(p.parents)
                todo = nxt
        return list(out)


def nested_suffix(level: int) -> str:
    if level == 1:
        return " (+)"
    if level == 2:
        return " (+ Forcing Chains)"
    if level == 3:
        return " (+ Multiple Forcing Chains)"
    if level == 4:
        return " (+ Dynamic Forcing Chains)"
    if level >= 5:
        return " (+ Dynamic Forcing Chains" + nested_suffix(level - 3) + ")"
    return ""


class Source:
    __slots__ = ("cands",)

    def __init__(self, cands):
        self.cands = cands


class Chaining:
    """One of SE's chaining producers.

    Parameters
    ----------
    multiple : bool
        Cell and region forcing chains.
    dynamic : bool
        Removed candidates leave the working grid; contradiction and double chains.
    nishio : bool
        One digit only (with `dynamic`).
    level : int
        Nesting level, 0-5.
    """

    def __init__(self, *, multiple: bool = False, dynamic: bool = False, nishio: bool = False, level: int = 0):
        self.multiple = multiple
        self.dynamic = dynamic
        self.nishio = nishio
        self.level = level
        self._other_rules = None
        self._cache: dict = {}

    def __repr__(self) -> str:
        return f"Chaining({self.name})"

    @property
    def name(self) -> str:
        if self.nishio:
            return "Nishio Forcing Chains"
        if self.dynamic:
            return "Dynamic Forcing Chains" + nested_suffix(self.level)
        if self.multiple:
            return "Multiple Forcing Chains"
        return "Forcing Chains & Cycles"

    def base_difficulty(self) -> float:
        if self.level >= 2:
            return 9.5 + 0.5 * (self.level - 2)
        if self.level > 0:
            return 8.5 + 0.5 * self.level
        if self.nishio:
            return 7.5
        if self.dynamic:
            return 8.5
        if self.multiple:
            return 8.0
        raise ValueError("static chains rate themselves")

    # ---- entry --------------------------------------------------------------
    def hints(self, board: Board, *, source: list[int] | None = None) -> list[ChainHint]:
        """Every hint of this producer on `board`, sorted and without repeats (SE's
        ``getHints``); the results are cached by grid state.

        `source` (static chains nested in a chain whose own search started from a grid on
        which Forcing Chains & Cycles found nothing): the candidates of that grid. A worth
        chain must then pass through a strong link that `source` lacks, so only the starts
        from which such a link can be reached are searched."""
        state = board.state()
        cached = self._cache.get(state)
        if cached is not None:
            return cached
        if self.multiple or self.dynamic:
            result = self._multiple_chains(board)
        else:
            reach = None
            if source is not None:
                reach = {mode: reaching_new_links(board, source, *mode) for mode in
                         ((False, True), (True, False), (True, True))}
            result = self._loops(board, False, True, reach)
            result += self._loops(board, True, False, reach)
            result += self._loops(board, True, True, reach)
        result.sort(key=lambda h: (h.difficulty, h.complexity, h.sort_key))
        seen = set()
        out = []
        for h in result:
            k = h.removable_key()
            if k not in seen:
                seen.add(k)
                out.append(h)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[state] = out
        return out

    # ---- elementary links -----------------------------------------------------
    def _on_to_off(self, board: Board, p: Potential, y: bool) -> list[Potential]:
        out = []
        cell, value = p.cell, p.value
        cands = board.cands
        if y:
            for v in bits(cands[cell]):
                if v != value:
                    out.append(Potential(cell, v, False, [p], CELL))
        bit = 1 << value
        block = CELL_REGIONS[cell][0]
        for t, r in enumerate(CELL_REGIONS[cell]):
            for c in REGION_CELLS[r]:
                if c != cell and cands[c] & bit and (t == 0 or CELL_REGIONS[c][0] != block):
                    out.append(Potential(c, value, False, [p], t + 1))
        return out

    def _off_to_on(self, board: Board, p: Potential, source, to_off, y: bool, x: bool) -> list[Potential]:
        out = []
        cell, value = p.cell, p.value
        cands = board.cands
        keys = ()
        if y:
            m = cands[cell]
            rest = m & (m - 1)
            if rest and not rest & (rest - 1):  # two digits left
                # the other digit (the lower one if `value` has gone already)
                other = ((m ^ (1 << value)) if m >> value & 1 else m & -m).bit_length() - 1
                q = Potential(cell, other, True, [p], CELL)
                if source is not None:
                    for v in bits(source[cell] & ~m):
                        parent = to_off.get((cell * 10 + v) * 2)
                        if parent is None:
                            raise RuntimeError("Parent not found")
                        q.parents.append(parent)
                out.append(q)
                keys = (q.key,)
        if x:
            count = board.count
            bit = 1 << value
            t = 0
            for r in CELL_REGIONS[cell]:
                t += 1
                if count[r * 10 + value] == 2:
                    for other in REGION_CELLS[r]:
                        if other != cell and cands[other] & bit:
                            break
                    key = (other * 10 + value) * 2 + 1
                    if key in keys:
                        continue
                    q = Potential(other, value, True, [p], t)
                    if source is not None:
                        for c in REGION_CELLS[r]:
                            if source[c] & bit and not cands[c] & bit:
                                parent = to_off.get((c * 10 + value) * 2)
                                if parent is None:
                                    raise RuntimeError("Parent not found")
                                q.parents.append(parent)
                    out.append(q)
                    keys += (key,)
        return out

    # ---- static cycles and forcing chains ---------------------------------------
    def _loops(self, board: Board, y: bool, x: bool, reach=None) -> list[ChainHint]:
        result: list[ChainHint] = []
        live = None if reach is None else reach[(y, x)]
        if live is not None and not live:
            return result
        links = StaticLinks(board)
        for cell in range(81):
            if board.values[cell] == 0:
                card = popcount(board.cands[cell])
                if card > 1:
                    for value in bits(board.cands[cell]):
                        self._unary(board, links, cell, value, result, y, x, card, live)
        return result

    def _unary(self, board, links, cell, value, result, y, x, card, live=None) -> None:
        if card > 2 and not x:
            return
        src_on = (cell * 10 + value) * 2 + 1
        on_ok = live is None or src_on in live
        off_ok = live is None or src_on - 1 in live
        cycles: list[Potential] = []
        chains: list[Potential] = []
        if on_ok:
            static_cycles(links, src_on, y, x, cycles)
        if x:
            found: set[int] = set()
            if on_ok:
                static_forcing(links, src_on, y, chains, found)
            if off_ok:
                static_forcing(links, src_on - 1, y, chains, found)
        self._unary_hints(board, result, y, x, cycles, chains)

    def _unary_hints(self, board, result, y, x, cycles, chains) -> None:
        """The hints of one start: a cycle hint per cycle that removes something, a forcing
        hint per chain end (its target placed, or removed)."""
        for dst_on in cycles:
            hint = self._cycle_hint(board, dst_on, reversed_cycle(dst_on), y, x)
            if hint.is_worth():
                result.append(hint)
        for target in chains:
            if target.on:
                removable = {target.cell: board.cands[target.cell] & ~(1 << target.value)}
                if not removable[target.cell]:
                    continue
                hint = ChainHint(self, "forcing", removable, [target], is_x=x, is_y=y, cell=target.cell,
                                 value=target.value)
            else:
                hint = ChainHint(self, "forcing", {target.cell: 1 << target.value}, [target], is_x=x, is_y=y)
            result.append(hint)

    def _cycle_hint(self, board, dst_on, dst_off, y, x) -> ChainHint:
        cells = {}
        p = dst_on
        while p.parents:
            cells.setdefault(p.cell, None)
            p = p.parents[0]
        forward, back = set(), set()
        p = dst_on
        cands = board.cands
        while p.parents:
            bit = 1 << p.value
            for c in HOUSE_CELLS[p.cell]:
                if c not in cells and cands[c] & bit:
                    (forward if p.on else back).add((c, p.value))
            p = p.parents[0]
        removable: dict[int, int] = {}
        for c, v in forward & back:
            removable[c] = removable.get(c, 0) | 1 << v
        return ChainHint(self, "cycle", removable, [dst_on, dst_off], is_x=x, is_y=y)

    # ---- multiple and dynamic chains -----------------------------------------------
    def _multiple_chains(self, board: Board) -> list[ChainHint]:
        result: list[ChainHint] = []
        memo: dict[int, tuple] = {}
        for cell in range(81):
            if board.values[cell] != 0:
                continue
            card = popcount(board.cands[cell])
            if not (card > 2 or (card > 1 and self.dynamic)):
                continue
            value_to_on, value_to_off = {}, {}
            cell_to_on = cell_to_off = None
            for value in bits(board.cands[cell]):
                p_on = Potential(cell, value, True)
                p_off = Potential(cell, value, False)
                do_double = card >= 3 and not self.nishio and self.dynamic
                do_contra = self.dynamic or self.nishio
                on_to_on, on_to_off = self._binary(board, p_on, p_off, result, do_double, do_contra, memo)
                if not self.nishio:
                    self._region_chains(board, result, cell, value, on_to_on, on_to_off, memo)
                value_to_on[value] = on_to_on
                value_to_off[value] = on_to_off
                if cell_to_on is None:
                    cell_to_on, cell_to_off = dict(on_to_on), dict(on_to_off)
                else:
                    cell_to_on = {k: v for k, v in cell_to_on.items() if k in on_to_on}
                    cell_to_off = {k: v for k, v in cell_to_off.items() if k in on_to_off}
            if not self.nishio and (card == 2 or (self.multiple and card > 2)):
                for outcomes, chosen in ((value_to_on, cell_to_on), (value_to_off, cell_to_off)):
                    for p in chosen.values():
                        targets = [outcomes[v][p.key] for v in bits(board.cands[cell])]
                        hint = self._reduction_hint(board, "cell", p, targets, house=None)
                        if hint is not None:
                            result.append(hint)
        return result

    def _propagate_on(self, board, cell, value, memo):
        """The outcome of assuming (cell, value) ON: (to_on, to_off, absurd), memoised."""
        key = cell * 10 + value
        got = memo.get(key)
        if got is None:
            p = Potential(cell, value, True)
            to_on, to_off = {p.key: p}, {}
            absurd = self.propagate(board, to_on, to_off)
            got = memo[key] = (to_on, to_off, absurd)
        return got

    def _binary(self, board, p_on, p_off, result, do_double, do_contra, memo):
        on_to_on, on_to_off, absurd = self._propagate_on(board, p_on.cell, p_on.value, memo)
        p_on = on_to_on[p_on.key]
        if do_contra and absurd is not None:
            result.append(ChainHint(self, "binary", {p_on.cell: 1 << p_on.value}, [absurd[0], absurd[1]],
                                    source=p_on, absurd=True))
        off_to_on, off_to_off = {}, {p_off.key: p_off}
        absurd = self.propagate(board, off_to_on, off_to_off)
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

    def _region_chains(self, board, result, cell, value, on_to_on, on_to_off, memo) -> None:
        for r in CELL_REGIONS[cell]:
            pos = board.positions(r, value)
            n = len(pos)
            if not (n == 2 or (self.multiple and n > 2)) or pos[0] != cell:
                continue
            pos_on, pos_off = {}, {}
            region_on, region_off = dict(on_to_on), dict(on_to_off)
            for c in pos:
                if c == cell:
                    pos_on[c], pos_off[c] = on_to_on, on_to_off
                else:
                    o_on, o_off, _ = self._propagate_on(board, c, value, memo)
                    pos_on[c], pos_off[c] = o_on, o_off
                    region_on = {k: v for k, v in region_on.items() if k in o_on}
                    region_off = {k: v for k, v in region_off.items() if k in o_off}
            for outcomes, chosen in ((pos_on, region_on), (pos_off, region_off)):
                for p in chosen.values():
                    targets = [outcomes[c][p.key] for c in pos]
                    hint = self._reduction_hint(board, "region", p, targets, house=r, digit=value)
                    if hint is not None:
                        result.append(hint)

    def _reduction_hint(self, board, kind, p, targets, *, house, digit=0):
        if p.on:
            removable = board.cands[p.cell] & ~(1 << p.value)
            if not removable:
                return None
            first = targets[0]
            placed = first.on
            return ChainHint(self, kind, {p.cell: removable}, targets, house=house, digit=digit,
                             cell=first.cell if placed else None, value=first.value if placed else 0)
        return ChainHint(self, kind, {p.cell: 1 << p.value}, targets, house=house, digit=digit)

    # ---- the propagation ------------------------------------------------------------
    def propagate(self, board: Board, to_on: dict, to_off: dict):
        """Complete `to_on` and `to_off` (dicts key -> Potential, in insertion order) with
        every consequence; return None, or the (ON, OFF) pair of the first contradiction
        (SE's ``doChaining``). The board is restored on return."""
        save = list(board.cands)
        y = not self.nishio
        dynamic = self.dynamic
        level = self.level
        cands = board.cands
        try:
            pending_on = deque(to_on.values())
            pending_off = deque(to_off.values())
            while pending_on or pending_off:
                if pending_on:
                    p = pending_on.popleft()
                    cell, value = p.cell, p.value
                    if y:
                        for v in bits(cands[cell]):
                            if v != value:
                                k = (cell * 10 + v) * 2
                                if k + 1 in to_on:
                                    return to_on[k + 1], Potential(cell, v, False, [p], CELL)
                                if k not in to_off:
                                    q = Potential(cell, v, False, [p], CELL)
                                    to_off[k] = q
                                    pending_off.append(q)
                    bit = 1 << value
                    for c, cause in PEER_CAUSES[cell]:
                        if cands[c] & bit:
                            k = (c * 10 + value) * 2
                            if k + 1 in to_on:
                                return to_on[k + 1], Potential(c, value, False, [p], cause)
                            if k not in to_off:
                                q = Potential(c, value, False, [p], cause)
                                to_off[k] = q
                                pending_off.append(q)
                else:
                    p = pending_off.popleft()
                    ons = self._off_to_on(board, p, save if dynamic else None, to_off, y, True)
                    if dynamic:
                        board.remove(p.cell, p.value)
                    for q in ons:
                        k = q.key - 1
                        if k in to_off:
                            return q, to_off[k]
                        if q.key not in to_on:
                            to_on[q.key] = q
                            pending_on.append(q)
                if level > 0 and not pending_on and not pending_off:
                    for q in self._advanced(board, save, to_off):
                        if q.key not in to_off:
                            to_off[q.key] = q
                            pending_off.append(q)
            return None
        finally:
            board.restore(save)

    def _rules(self):
        """The nested rules, each a function (board, source cands, changed keys, changed cells)."""
        if self._other_rules is None:
            rules = [
                lambda b, s, ch, cc: lockings(b, changed=ch),
                lambda b, s, ch, cc: hidden_sets(b, 2, changed=ch),
                lambda b, s, ch, cc: naked_sets(b, 2, changed_cells=cc),
                lambda b, s, ch, cc: fish(b, 2, changed=ch),
            ]
            top = self.level <= 4
            if self.level < 4:
                if self.level >= 2:
                    inner = Chaining()
                    rules.append(lambda b, s, ch, cc, inner=inner: inner.hints(b, source=s if top else None))
                if self.level >= 3:
                    inner3 = Chaining(multiple=True)
                    rules.append(lambda b, s, ch, cc, inner=inner3: inner.hints(b))
            else:
                inner4 = Chaining(multiple=True, dynamic=True)
                rules.append(lambda b, s, ch, cc, inner=inner4: inner.hints(b))
                if self.level >= 5:
                    inner5 = Chaining(multiple=True, dynamic=True, level=self.level - 3)
                    rules.append(lambda b, s, ch, cc, inner=inner5: inner.hints(b))
            self._other_rules = rules
        return self._other_rules

    def _advanced(self, board: Board, save: list[int], to_off: dict) -> list[Potential]:
        """OFF potentials from the nested rules (SE's ``getAdvancedPotentials``)."""
        result: list[Potential] = []
        source = Source(save)
        cands = board.cands
        changed_cells = {c for c in range(81) if save[c] != cands[c]}
        changed = set()
        for c in changed_cells:
            for v in bits(save[c] & ~cands[c]):
                for r in CELL_REGIONS[c]:
                    changed.add(r * 10 + v)
        for rule in self._rules():
            if result:
                break
            for hint in rule(board, save, changed, changed_cells):
                parents = hint.rule_parents(source, board)
                if not parents:
                    continue
                nested = hint if isinstance(hint, ChainHint) else None
                real = [to_off[(c * 10 + v) * 2] for c, v in parents if (c * 10 + v) * 2 in to_off]
                for c in sorted(hint.removable, key=lambda c: (c % 9, c // 9)):
                    for v in bits(hint.removable[c]):
                        result.append(Potential(c, v, False, list(real), ADVANCED, nested,
                                                None if nested is not None else hint))
        return result


def reaching_new_links(board: Board, source: list[int], y: bool, x: bool) -> set[int]:
    """The potential keys (ON and OFF) from which, in the static links of `board` (Y-links
    with `y`, X-links with `x`), an OFF potential can be reached that turns a candidate ON
    through a cell or region holding two candidates on `board` and more in `source`."""
    cands = board.cands
    count = board.count
    entries = []
    if y:
        for c in range(81):
            m = cands[c]
            if popcount(m) == 2 and popcount(source[c]) > 2:
                entries.extend((c * 10 + v) * 2 for v in bits(m))
    if x:
        for r in range(27):
            for v in range(1, 10):
                if count[r * 10 + v] == 2:
                    bit = 1 << v
                    if sum(1 for c in REGION_CELLS[r] if source[c] & bit) > 2:
                        entries.extend((c * 10 + v) * 2 for c in REGION_CELLS[r] if cands[c] & bit)
    seen = set(entries)
    todo = list(entries)
    while todo:
        k = todo.pop()
        cv, on = divmod(k, 2)
        c, v = divmod(cv, 10)
        if not on:
            # OFF (c, v) comes from ON of another digit of c (Y) or of a peer holding v (SE's
            # weak links in a region are on in every mode)
            preds = []
            if y:
                preds.extend((c * 10 + w) * 2 + 1 for w in bits(cands[c]) if w != v)
            bit = 1 << v
            preds.extend((o * 10 + v) * 2 + 1 for o in HOUSE_CELLS[c] if cands[o] & bit)
        else:
            # ON (c, v) comes from OFF of the other digit of a bivalue cell (Y) or of the
            # other place of a two-place region (X)
            preds = []
            if y and popcount(cands[c]) == 2:
                preds.extend((c * 10 + w) * 2 for w in bits(cands[c]) if w != v)
            if x:
                bit = 1 << v
                for r in CELL_REGIONS[c]:
                    if count[r * 10 + v] == 2:
                        preds.extend((o * 10 + v) * 2 for o in REGION_CELLS[r] if o != c and cands[o] & bit)
        for q in preds:
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


class StaticLinks:
    """The links of a fixed grid as key lists, built on demand: the OFF potentials an ON one
    gives (with their causes, in SE's order) and the ON potentials an OFF one gives."""

    __slots__ = ("board", "_on", "_off")

    def __init__(self, board: Board):
        self.board = board
        self._on: dict = {}
        self._off: dict = {}

    def on_next(self, key: int, y: bool) -> list[tuple[int, int]]:
        k = key << 1 | y
        got = self._on.get(k)
        if got is None:
            cell, value = divmod(key >> 1, 10)
            cands = self.board.cands
            got = []
            if y:
                got.extend(((cell * 10 + v) * 2, CELL) for v in bits(cands[cell]) if v != value)
            bit = 1 << value
            for c, cause in PEER_CAUSES[cell]:
                if cands[c] & bit:
                    got.append(((c * 10 + value) * 2, cause))
            self._on[k] = got
        return got

    def off_next(self, key: int, y: bool, x: bool) -> list[tuple[int, int]]:
        k = key << 2 | y << 1 | x
        got = self._off.get(k)
        if got is None:
            cell, value = divmod(key >> 1, 10)
            cands = self.board.cands
            got = []
            if y:
                m = cands[cell]
                rest = m & (m - 1)
                if rest and not rest & (rest - 1):  # two digits left
                    other = ((m ^ (1 << value)) if m >> value & 1 else m & -m).bit_length() - 1
                    got.append(((cell * 10 + other) * 2 + 1, CELL))
            if x:
                count = self.board.count
                bit = 1 << value
                t = 0
                for r in CELL_REGIONS[cell]:
                    t += 1
                    if count[r * 10 + value] == 2:
                        for other in REGION_CELLS[r]:
                            if other != cell and cands[other] & bit:
                                break
                        q = (other * 10 + value) * 2 + 1
                        if all(q != u for u, _ in got):
                            got.append((q, t))
            self._off[k] = got
        return got


def _pot(key: int, parents: list, cause) -> Potential:
    cell, value = divmod(key >> 1, 10)
    return Potential(cell, value, bool(key & 1), parents, cause)


def static_forcing(links: StaticLinks, src: int, y: bool, chains: list, found: set) -> None:
    """SE's ``doForcingChains`` from the potential `src` (a key) over fixed links: breadth first,
    ON layers then OFF layers; a potential opposite to the source is a chain end."""
    parent: dict[int, int] = {}
    cause_of: dict[int, int] = {}
    pending_on: deque = deque()
    pending_off: deque = deque()
    if src & 1:
        pending_on.append(src)
        to_on, to_off = {src}, set()
    else:
        pending_off.append(src)
        to_on, to_off = set(), {src}
    target = src ^ 1

    def build(key: int) -> Potential:
        chain = []
        while True:
            chain.append(key)
            if key not in parent:
                break
            key = parent[key]
        p = _pot(chain[-1], [], None)
        for k in reversed(chain[:-1]):
            p = _pot(k, [p], cause_of[k])
        return p

    while pending_on or pending_off:
        while pending_on:
            p = pending_on.popleft()
            for q, cause in links.on_next(p, y):
                if q == target and q not in found:
                    found.add(q)
                    end = _pot(q, [build(p)], cause)
                    chains.append(end)
                if q not in to_off:
                    # SE's isParent filter: q is never an ancestor of p that is not already in to_off
                    pending_off.append(q)
                    to_off.add(q)
                    parent[q] = p
                    cause_of[q] = cause
        while pending_off:
            p = pending_off.popleft()
            for q, cause in links.off_next(p, y, True):
                if q == target and q not in found:
                    found.add(q)
                    chains.append(_pot(q, [build(p)], cause))
                if q not in to_on:
                    pending_on.append(q)
                    to_on.add(q)
                    parent[q] = p
                    cause_of[q] = cause


def static_cycles(links: StaticLinks, src: int, y: bool, x: bool, cycles: list) -> None:
    """SE's ``doCycles`` from the ON potential `src` over fixed links: OFF potentials are not
    merged (each keeps the ON potential it came from), ON ones are; an ON potential equal to
    the source reached after at least four half-steps closes a cycle."""
    on_parent: dict[int, tuple] = {}  # ON key -> (OFF key, that OFF's ON parent, OFF cause, ON cause)
    pending_on: deque = deque([src])
    pending_off: deque = deque()
    to_on = {src}
    made: dict[int, Potential] = {}

    def on_pot(key: int) -> Potential:
        got = made.get(key)
        if got is None:
            if key not in on_parent:
                got = _pot(key, [], None)
            else:
                off, off_parent, off_cause, on_cause = on_parent[key]
                got = _pot(key, [_pot(off, [on_pot(off_parent)], off_cause)], on_cause)
            made[key] = got
        return got

    def is_parent(p: int, q: int) -> bool:
        while p in on_parent:
            off, p = on_parent[p][0], on_parent[p][1]
            if off == q:
                return True
        return False

    length = 0
    while pending_on or pending_off:
        length += 1
        while pending_on:
            p = pending_on.popleft()
            for q, cause in links.on_next(p, y):
                if not is_parent(p, q):
                    pending_off.append((q, p, cause))
        length += 1
        while pending_off:
            off, off_parent, off_cause = pending_off.popleft()
            for q, cause in links.off_next(off, y, x):
                if length >= 4 and q == src:
                    cycles.append(_pot(q, [_pot(off, [on_pot(off_parent)], off_cause)], cause))
                if q not in to_on:
                    pending_on.append(q)
                    to_on.add(q)
                    on_parent[q] = (off, off_parent, off_cause, cause)


def _is_parent(child: Potential, parent: Potential) -> bool:
    p = child
    key = parent.key
    while p.parents:
        p = p.parents[0]
        if p.key == key:
            return True
    return False


def reversed_cycle(org: Potential) -> Potential:
    chain = []
    explanations = None
    while org is not None:
        chain.insert(0, Potential(org.cell, org.value, not org.on, None, org.cause))
        org = org.parents[0] if org.parents else None
    for prev, rev in zip(chain, chain[1:]):
        prev.parents.append(rev)
    return chain[0]


#: SE's chaining producers after the basic rules, in order; aligned triplet exclusion sits
#: between the first two (`linkgraph.techniques.se.solver`).
CHAINING_PRODUCERS = (
    Chaining(),
    Chaining(nishio=True, dynamic=True),
    Chaining(multiple=True),
    Chaining(multiple=True, dynamic=True),
    Chaining(multiple=True, dynamic=True, level=1),
    Chaining(multiple=True, dynamic=True, level=2),
    Chaining(multiple=True, dynamic=True, level=3),
    Chaining(multiple=True, dynamic=True, level=4),
    Chaining(multiple=True, dynamic=True, level=5),
)
