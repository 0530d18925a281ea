"""The pattern techniques and the ladder: one module (or subpackage) per family.

May import the foundation, `linkgraph.graph`, `linkgraph.chains` and
`linkgraph.nets`; nothing above (not `linkgraph.solver`). `ladder` holds one
`Technique` record per technique in one explicit `LADDER`; `serate` the ``se``
ladder; `resolve_ladder` (here) picks one by name. Subpackages: `als` (the
ALS table, ALS-XZ and its kin, ALS chains), `aic` (X-chains, XY-chains, AICs)
and `coloring` (simple coloring, 3D Medusa, hinges, almost-locked ranges).

The ladder runs from the easiest technique to the hardest; the solver applies
the first one that makes progress. Modules never register themselves: the
order is written here once. Ratings are estimates on the Sudoku Explainer (SE)
scale; chain and net steps add a length bonus (see `linkgraph.solver.step_rating`).

Ladder specs, as taken by `resolve_ladder` and ``--ladder``:

- ``"default"`` (or None): every technique with ``default=True``, in ladder order;
- ``"basic"``: the foundation rungs (singles, locked candidates, naked and
  hidden subsets of 2-4, basic fish of 2-4);
- ``"all"``: every technique, opt-in ones (uniqueness, the big wings) included;
- ``"se"``: Sudoku Explainer 1.2.1's path and rating (`linkgraph.techniques.serate`);
- ``"sukaku"``: Sukaku Explainer's path and rating, emulated with our rungs (`linkgraph.techniques.sukaku`);
  it stands alone, not mixed with names;
- a comma-separated list or sequence of names and of the specs above,
  applied in ladder order.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import get_close_matches

from linkgraph.errors import UnknownTechniqueError
from linkgraph.techniques.ladder import BASIC, LADDER, TECHNIQUES, Technique
from linkgraph.techniques.serate import SE_LADDER
from linkgraph.techniques.sukaku import SUKAKU_LADDER

__all__ = ["BASIC", "LADDER", "SE_LADDER", "SUKAKU_LADDER", "TECHNIQUES", "Technique", "resolve_ladder"]

_SPECS = ("default", "basic", "all", "se", "sukaku")


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
    linkgraph.errors.UnknownTechniqueError: unknown technique 'x-wnig' (did you mean 'x-wing' or ...?)
    """
    if spec is None:
        spec = "default"
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    if "se" in (n.strip() for n in names):
        if len([n for n in names if n.strip()]) > 1:
            raise UnknownTechniqueError(f"ladder {spec!r}: 'se' is a whole ladder of its own, not to be mixed with names")
        return SE_LADDER
    if "sukaku" in (n.strip() for n in names):
        if len([n for n in names if n.strip()]) > 1:
            raise UnknownTechniqueError(f"ladder {spec!r}: 'sukaku' is a whole ladder of its own, not to be mixed with names")
        return SUKAKU_LADDER
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
