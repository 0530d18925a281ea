"""Step: the one result type every technique returns, and its proof graph.

A `Step` is a frozen value: the technique's registry name, the placements and
eliminations it proves, the premise literals it starts from, and its proof, a
frozen `networkx.DiGraph` that notation, rendering, verification and metrics
all read (none of them re-derives it). Build steps only with `make_step`.

Proof graph conventions
-----------------------
Nodes are `Literal` values with a ``role`` attribute: ``premise``, ``inner``,
``conclusion`` or ``contradiction``. An edge ``u -> v`` is one inference and
carries ``kind``, ``family`` and ``via`` (the text of the set X or ALS behind
it):

- ``kind="weak"``: ``u`` is ON, ``v`` is OFF, and their nodes share set ``via``
  (for a group node: every member shares it).
- ``kind="strong"``: ``v`` is ON because every other live member of set
  ``via`` is OFF; the OFF literals of those members are ``v``'s in-edges with
  that ``via`` (one for a chain's strong link, several at a net's join).
- ``family="als"``: ``via`` is an ALS (``r2468c4{1237}``). ``u -> v`` with ``v``
  ON: ``u``'s digit is OFF in every ALS cell (the in-edges hold those OFF
  literals), so the ALS is locked on its other digits and ``v``'s digit has
  one place left in it. With ``v`` OFF: ``v`` sees every ALS cell holding its
  digit, which the locked ALS must take.

A net joining several branches (verity, double) tags each edge with its
``branches`` and may list further readings of the same edge in ``also`` (see
`linkgraph.nets.search`).

Every node also carries its ``round``: for a net, the propagation round in which
its literal was derived (premises 0); for every other proof, its distance from the
premises (0 for a node with no in-edge, else one more than its farthest parent),
which `make_step` fills in where the technique left it out.

Graph attributes (``P.graph``) hold the technique's specifics: ``kind``
(``chain``, ``net`` or ``pattern``), and for pattern techniques the ``base``
and ``cover`` sets X (as text), fins, the ALS used, and the like.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import networkx as nx

from linkgraph.model import Candidate, Literal, sort_key

__all__ = ["Step", "make_step", "proof_graph"]


def _empty_proof() -> nx.DiGraph:
    return nx.freeze(nx.DiGraph())


def _blank_parts() -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The instance attributes of an empty ``nx.DiGraph()``, the names whose values are one
    dict (the successors are ``_adj`` and ``_succ`` both), or None when networkx makes its
    graphs otherwise than as dicts."""
    blank = vars(nx.DiGraph())
    if not all(type(v) is dict and not v for v in blank.values()):
        return None
    first: dict[int, str] = {}
    for name, value in blank.items():
        first.setdefault(id(value), name)
    return tuple(blank), tuple(first[id(v)] for v in blank.values())


_BLANK = _blank_parts()
#: What `nx.freeze` sets on a graph (the mutators replaced, ``frozen``), set in one update.
_FROZEN = {k: v for k, v in vars(nx.freeze(nx.DiGraph())).items() if k not in vars(nx.DiGraph())}


def proof_graph(**attrs: object) -> nx.DiGraph:
    """A new empty proof graph with graph attributes `attrs`: what ``nx.DiGraph(**attrs)``
    makes without a backend, its dicts set directly.

    Every step of a solve builds one, and networkx's constructor (its backend dispatch and
    the descriptors that keep ``_adj`` and ``_succ`` one dict) costs as much as a single's
    whole proof; a proof is always networkx's own graph. Where networkx's graphs are not
    plain dicts, this is ``nx.DiGraph(**attrs)``.

    >>> P = lg.steps.proof_graph(kind="pattern")
    >>> P.graph, P.number_of_nodes(), P._succ is P._adj
    ({'kind': 'pattern'}, 0, True)
    """
    if _BLANK is None or "backend" in attrs:
        return nx.DiGraph(**attrs)
    names, sources = _BLANK
    made: dict[str, dict] = {}
    values = [made.setdefault(src, {}) for src in sources]
    P = object.__new__(nx.DiGraph)
    d = P.__dict__
    d.update(zip(names, values))
    d["graph"].update(attrs)
    return P


def _freeze(P: nx.DiGraph) -> nx.DiGraph:
    """`nx.freeze(P)` in one update of P's attributes."""
    P.__dict__.update(_FROZEN)
    return P


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One deduction: what it proves and why.

    >>> step = lg.make_step("naked-single", placements=[lg.Candidate.parse("r1c1#5")])
    >>> str(step)
    'naked-single: +r1c1#5'
    """

    technique: str
    placements: frozenset[Candidate] = frozenset()
    eliminations: frozenset[Candidate] = frozenset()
    premises: tuple[Literal, ...] = ()
    proof: nx.DiGraph = field(default_factory=_empty_proof, compare=False, repr=False)
    notation: str = ""

    @property
    def conclusions(self) -> list[Literal]:
        """Placements as ON literals and eliminations as OFF literals, sorted."""
        lits = [Literal(c, on=True) for c in self.placements]
        lits += [Literal(c, on=False) for c in self.eliminations]
        return sorted(lits, key=sort_key)

    def __str__(self) -> str:
        text = f"{self.technique}: {' '.join(map(str, self.conclusions))}"
        if self.premises:
            text += f" (from {' | '.join(map(str, self.premises))})"
        return text

    def to_dict(self) -> dict:
        """Plain JSON-ready form: technique, placements, eliminations, premises, notation."""
        return {
            "technique": self.technique,
            "placements": [str(c) for c in sorted(self.placements)],
            "eliminations": [str(c) for c in sorted(self.eliminations)],
            "premises": [str(p) for p in self.premises],
            "notation": self.notation,
        }

    def _repr_svg_(self) -> str | None:
        """The proof as an SVG picture, for Jupyter, drawn by the function `DISPLAY` holds.

        None, so that Jupyter shows the text, when no drawing is registered, the proof
        has no links or Graphviz's ``dot`` is missing. For the board layout use `linkgraph.show`.
        """
        draw = DISPLAY.get("image/svg+xml")
        return None if draw is None else draw(self)


#: How a Step draws itself in Jupyter: ``{"image/svg+xml": function(step) -> SVG text or None}``.
#: `linkgraph.draw` fills it when it is imported (``import linkgraph`` imports it); left
#: empty, a Step displays as its text. A hook, not an import: drawing is a higher layer.
DISPLAY: dict[str, Callable[[Step], str | None]] = {}


def _fill_rounds(P: nx.DiGraph) -> None:
    """Give each node without a ``round`` its distance from the premises (acyclic proofs)."""
    # networkx's node and adjacency dicts, read directly: this runs for every step found, and
    # a fresh graph's first `P.nodes` or `P.number_of_edges()` makes a cached view under a
    # lock (some 6 us of a single's 15)
    attrs = P._node
    if all("round" in d for d in attrs.values()):
        return
    pred, succ = P._pred, P._succ
    if not any(succ.values()):  # no edge: a pattern's conclusions, a single's placement: all premises
        for d in attrs.values():
            d.setdefault("round", 0)
        return
    # a topological order (Kahn's), none if P has a cycle: then no round is filled
    waiting = {n: len(ps) for n, ps in pred.items()}
    order = [n for n, k in waiting.items() if not k]
    for n in order:  # grows as nodes become ready
        for m in succ[n]:
            waiting[m] -= 1
            if not waiting[m]:
                order.append(m)
    if len(order) < len(waiting):
        return
    for n in order:  # a node's round is its distance from the premises: the same in any such order
        d = attrs[n]
        if "round" not in d:
            d["round"] = 1 + max((attrs[u].get("round", 0) for u in pred[n]), default=-1)


def make_step(
    technique: str,
    *,
    placements: Iterable[Candidate] = (),
    eliminations: Iterable[Candidate] = (),
    premises: Iterable[Literal] = (),
    proof: nx.DiGraph | None = None,
    notation: str | None = None,
) -> Step:
    """Build a Step: freeze its proof and fill its notation.

    When `notation` is None the notation is the conclusions in Eureka's
    result form (``r6c6=2``, ``r2c4<>2``).
    """
    placements = frozenset(placements)
    eliminations = frozenset(eliminations)
    P = proof if proof is not None else nx.DiGraph()
    P.graph.setdefault("technique", technique)
    _fill_rounds(P)
    if not nx.is_frozen(P):
        P = _freeze(P) if type(P) is nx.DiGraph else nx.freeze(P)
    if notation is None:
        parts = [f"{c.cell}={c.digit}" for c in sorted(placements)]
        parts += [f"{c.cell}<>{c.digit}" for c in sorted(eliminations)]
        notation = ", ".join(parts)
    return Step(
        technique=technique,
        placements=placements,
        eliminations=eliminations,
        premises=tuple(premises),
        proof=P,
        notation=notation,
    )
