"""The technique registry: one `Technique` record per technique, in one explicit `LADDER`.

The ladder runs from the easiest technique to the hardest; the solver applies
the first one that makes progress. Modules never register themselves: the
order is written here once. Ratings are estimates on the Sudoku Explainer (SE)
scale; chain and net steps add a length bonus (see `linkgraph.solver.step_rating`).

Ladder specs, as taken by `resolve_ladder` and ``--ladder``:

- ``"default"`` (or None): every technique with ``default=True``, in ladder order;
- ``"basic"``: the foundation rungs (singles, locked candidates, naked and
  hidden subsets of 2-4, basic fish of 2-4);
- ``"all"``: every technique, opt-in ones (uniqueness) included;
- a comma-separated list or sequence of names and of the specs above,
  applied in ladder order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from functools import partial

from linkgraph.errors import UnknownTechniqueError
from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.fish import basic_fish
from linkgraph.techniques.intersections import locked_claiming, locked_pointing
from linkgraph.techniques.singles import full_houses, hidden_singles, naked_singles
from linkgraph.techniques.subsets import hidden_subsets, naked_subsets

__all__ = ["BASIC", "LADDER", "TECHNIQUES", "Technique", "resolve_ladder"]


@dataclass(frozen=True, slots=True)
class Technique:
    """One rung of the ladder.

    >>> t = lg.techniques.TECHNIQUES["x-wing"]
    >>> t.title, t.family, t.rating
    ('X-Wing', 'fish', 3.2)
    """

    name: str  # stable id for the CLI, JSON and test cases
    title: str  # for people
    family: str
    rating: float  # estimate on the SE scale
    find: Callable[[Grid], Iterator[Step]]
    default: bool = True  # in the default ladder (False: opt-in, e.g. uniqueness)


LADDER: tuple[Technique, ...] = (
    Technique("full-house", "Full House", "singles", 1.0, full_houses),
    Technique("hidden-single", "Hidden Single", "singles", 1.5, hidden_singles),
    Technique("naked-single", "Naked Single", "singles", 2.3, naked_singles),
    Technique("locked-pointing", "Locked Candidates (Pointing)", "intersections", 2.6, locked_pointing),
    Technique("locked-claiming", "Locked Candidates (Claiming)", "intersections", 2.8, locked_claiming),
    Technique("naked-pair", "Naked Pair", "subsets", 3.0, partial(naked_subsets, size=2)),
    Technique("x-wing", "X-Wing", "fish", 3.2, partial(basic_fish, size=2)),
    Technique("hidden-pair", "Hidden Pair", "subsets", 3.4, partial(hidden_subsets, size=2)),
    Technique("naked-triple", "Naked Triple", "subsets", 3.6, partial(naked_subsets, size=3)),
    Technique("swordfish", "Swordfish", "fish", 3.8, partial(basic_fish, size=3)),
    Technique("hidden-triple", "Hidden Triple", "subsets", 4.0, partial(hidden_subsets, size=3)),
    Technique("naked-quad", "Naked Quad", "subsets", 5.0, partial(naked_subsets, size=4)),
    Technique("jellyfish", "Jellyfish", "fish", 5.2, partial(basic_fish, size=4)),
    Technique("hidden-quad", "Hidden Quad", "subsets", 5.4, partial(hidden_subsets, size=4)),
)

#: The foundation rungs: ``--ladder basic``.
BASIC: tuple[str, ...] = (
    "full-house", "hidden-single", "naked-single", "locked-pointing", "locked-claiming",
    "naked-pair", "x-wing", "hidden-pair", "naked-triple", "swordfish", "hidden-triple",
    "naked-quad", "jellyfish", "hidden-quad",
)

TECHNIQUES: Mapping[str, Technique] = {t.name: t for t in LADDER}

_SPECS = ("default", "basic", "all")


def resolve_ladder(spec: str | Sequence[str] | None = None) -> tuple[Technique, ...]:
    """The techniques named by `spec`, in ladder order.

    Parameters
    ----------
    spec : str, sequence of str, or None
        ``"default"`` (also None), ``"basic"``, ``"all"``, or technique names,
        comma-separated or as a sequence; the specs can be mixed with names.

    Raises
    ------
    UnknownTechniqueError
        For a name that is neither a technique nor a spec, with the closest names.

    Examples
    --------
    >>> [t.name for t in lg.techniques.resolve_ladder("x-wing,hidden-single")]
    ['hidden-single', 'x-wing']
    >>> lg.techniques.resolve_ladder("x-wnig")
    Traceback (most recent call last):
    ...
    linkgraph.errors.UnknownTechniqueError: unknown technique 'x-wnig' (did you mean 'x-wing'?)
    """
    if spec is None:
        spec = "default"
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    wanted: set[str] = set()
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        if name == "default":
            wanted |= {t.name for t in LADDER if t.default}
        elif name == "basic":
            wanted |= set(BASIC)
        elif name == "all":
            wanted |= set(TECHNIQUES)
        elif name in TECHNIQUES:
            wanted.add(name)
        else:
            close = get_close_matches(name, [*TECHNIQUES, *_SPECS], n=3)
            hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
            raise UnknownTechniqueError(f"unknown technique {name!r}{hint}")
    if not wanted:
        raise UnknownTechniqueError(f"empty ladder {spec!r}: name at least one technique")
    return tuple(t for t in LADDER if t.name in wanted)
