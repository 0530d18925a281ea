"""The default ladder: one `Technique` record per technique, in one explicit `LADDER`.

The ladder runs from the easiest technique to the hardest; the solver applies
the first one that makes progress. Modules never register themselves: the
order is written here once. Ratings are estimates on the Sudoku Explainer (SE)
scale; chain and net steps add a length bonus (see `linkgraph.solver.step_rating`).
`linkgraph.techniques.serate` builds the ``se`` ladder from these records, and
`linkgraph.techniques.resolve_ladder` picks a ladder by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from linkgraph.grid import Grid
from linkgraph.techniques.base import Change
from linkgraph.steps import Step
from linkgraph.techniques import finned, screens, singledigit, uniqueness, wings
from linkgraph.techniques.aic import search as aic
from linkgraph.techniques.als import chains as alschains
from linkgraph.techniques.als import xz as alsets
from linkgraph.techniques.coloring import hinges, ranges
from linkgraph.techniques.coloring import medusa as coloring
from linkgraph.techniques.forcing import forcing_chain_finder, forcing_net_finder
from linkgraph.techniques.fish import basic_fish
from linkgraph.techniques.intersections import locked_claiming, locked_pointing
from linkgraph.techniques.singles import full_houses, hidden_singles, naked_singles
from linkgraph.techniques.subsets import hidden_subsets, naked_subsets

__all__ = ["BASIC", "LADDER", "TECHNIQUES", "Technique"]


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
    #: How the rung rates its steps, given the grid a step applies to; None: `rating` and the
    #: length bonus (`linkgraph.solver.step_rating`). The ``se`` ladder rates as SE does.
    rate: Callable[[Grid, Step], float] | None = None
    #: The technique names of the steps the rung yields, when not its own name (an ``se``
    #: ladder rung that takes X-chains, XY-chains and AICs yields steps of all three).
    step_names: tuple[str, ...] = ()
    #: A cheap necessary condition ``screen(grid, change) -> bool`` for the rung to find a step
    #: that makes progress, given what changed since a grid where it found none
    #: (`linkgraph.techniques.base.changes`); see `linkgraph.techniques.screens`. The solver
    #: skips the rung when it says no.
    screen: Callable[[Grid, Change], bool] | None = None

    @property
    def yields(self) -> tuple[str, ...]:
        """The technique names of this rung's steps."""
        return self.step_names or (self.name,)


_RUNGS: tuple[Technique, ...] = (
    Technique("full-house", "Full House", "singles", 1.0, full_houses),
    Technique("hidden-single", "Hidden Single", "singles", 1.5, hidden_singles),
    Technique("naked-single", "Naked Single", "singles", 2.3, naked_singles),
    Technique("locked-pointing", "Locked Candidates (Pointing)", "intersections", 2.6, locked_pointing, screen=screens.locked_screen(True)),
    Technique("locked-claiming", "Locked Candidates (Claiming)", "intersections", 2.8, locked_claiming, screen=screens.locked_screen(False)),
    Technique("naked-pair", "Naked Pair", "subsets", 3.0, partial(naked_subsets, size=2),
              screen=screens.subset_screen(2)),
    Technique("x-wing", "X-Wing", "fish", 3.2, partial(basic_fish, size=2), screen=screens.fish_screen(2)),
    Technique("hidden-pair", "Hidden Pair", "subsets", 3.4, partial(hidden_subsets, size=2),
              screen=screens.hidden_subset_screen(2)),
    Technique("naked-triple", "Naked Triple", "subsets", 3.6, partial(naked_subsets, size=3),
              screen=screens.subset_screen(3)),
    Technique("swordfish", "Swordfish", "fish", 3.8, partial(basic_fish, size=3), screen=screens.fish_screen(3)),
    Technique("hidden-triple", "Hidden Triple", "subsets", 4.0, partial(hidden_subsets, size=3),
              screen=screens.hidden_subset_screen(3)),
    Technique("naked-quad", "Naked Quad", "subsets", 5.0, partial(naked_subsets, size=4),
              screen=screens.subset_screen(4)),
    Technique("jellyfish", "Jellyfish", "fish", 5.2, partial(basic_fish, size=4), screen=screens.fish_screen(4)),
    Technique("hidden-quad", "Hidden Quad", "subsets", 5.4, partial(hidden_subsets, size=4),
              screen=screens.hidden_subset_screen(4)),
    # finned and sashimi fish: between the basic fish of the same size and the next size up
    Technique("finned-x-wing", "Finned X-Wing", "fish", 3.4, finned.finder(2, False)),
    Technique("sashimi-x-wing", "Sashimi X-Wing", "fish", 3.5, finned.finder(2, True)),
    Technique("finned-swordfish", "Finned Swordfish", "fish", 4.0, finned.finder(3, False)),
    Technique("sashimi-swordfish", "Sashimi Swordfish", "fish", 4.1, finned.finder(3, True)),
    # single-digit patterns: the shortest X-chains
    Technique("skyscraper", "Skyscraper", "single-digit", 4.0, singledigit.skyscrapers, screen=screens.four_chain_screen),
    Technique("2-string-kite", "2-String Kite", "single-digit", 4.1, singledigit.two_string_kites, screen=screens.four_chain_screen),
    Technique("turbot-fish", "Turbot Fish", "single-digit", 4.2, singledigit.turbot_fish, screen=screens.four_chain_screen),
    Technique("empty-rectangle", "Empty Rectangle", "single-digit", 4.5, singledigit.empty_rectangles, screen=screens.empty_rectangle_screen),
    # bent naked subsets and the W-wing
    Technique("xy-wing", "XY-Wing", "wings", 4.2, wings.xy_wings, screen=screens.bivalue_screen),
    Technique("xyz-wing", "XYZ-Wing", "wings", 4.4, wings.xyz_wings, screen=screens.subset_screen(3)),
    Technique("w-wing", "W-Wing", "wings", 4.4, wings.w_wings),
    Technique("wxyz-wing", "WXYZ-Wing", "wings", 4.6, wings.wxyz_wings, screen=screens.subset_screen(4)),
    # bent naked quintuples and sextuples: opt-in (Sukaku Explainer's base ratings)
    Technique("vwxyz-wing", "VWXYZ-Wing", "wings", 6.2, wings.vwxyz_wings, default=False,
              screen=screens.subset_screen(5)),
    Technique("uvwxyz-wing", "UVWXYZ-Wing", "wings", 6.6, wings.uvwxyz_wings, default=False,
              screen=screens.subset_screen(6)),
    Technique("finned-jellyfish", "Finned Jellyfish", "fish", 5.4, finned.finder(4, False)),
    Technique("sashimi-jellyfish", "Sashimi Jellyfish", "fish", 5.5, finned.finder(4, True)),
    # chains over the link graph (length bonus added per step)
    Technique("x-chain", "X-Chain", "chains", 6.5, aic.x_chains, screen=screens.chain_screen("x")),
    Technique("xy-chain", "XY-Chain", "chains", 6.6, aic.xy_chains, screen=screens.chain_screen("xy")),
    Technique("aic", "Alternating Inference Chain", "chains", 7.0, partial(aic.aics, groups=False),
              screen=screens.chain_screen("aic")),
    Technique("grouped-aic", "Grouped AIC", "chains", 7.1, aic.aics, screen=screens.chain_screen("grouped")),
    # forcing chains (GNPX) and forcing nets, as Sudoku Explainer rates their kin
    Technique("forcing-chain-contradiction", "Forcing Chain (Contradiction)", "forcing-chains", 7.5,
              forcing_chain_finder("contradiction")),
    Technique("forcing-chain-cell", "Forcing Chain (Cell)", "forcing-chains", 8.3, forcing_chain_finder("cell")),
    Technique("forcing-chain-house", "Forcing Chain (House)", "forcing-chains", 8.4, forcing_chain_finder("house")),
    Technique("forcing-net-contradiction", "Forcing Net (Contradiction)", "forcing-nets", 8.5,
              forcing_net_finder("contradiction")),
    Technique("forcing-net-double", "Forcing Net (Double)", "forcing-nets", 8.6, forcing_net_finder("double")),
    Technique("forcing-net-verity", "Forcing Net (Verity)", "forcing-nets", 8.7, forcing_net_finder("verity")),
    Technique("forcing-net-plus", "Forcing Net, +depth (locked candidates inside)", "forcing-nets", 9.0,
              forcing_net_finder("plus", depth=1)),
    Technique("forcing-net-plus-plus", "Forcing Net, ++depth (subsets and fish inside)", "forcing-nets", 9.3,
              forcing_net_finder("plus-plus", depth=2)),
    Technique("forcing-net-nested", "Nested Forcing Net", "forcing-nets", 9.5, forcing_net_finder("nested", level=1)),
    Technique("forcing-net-nested-plus", "Nested Forcing Net, +depth", "forcing-nets", 10.0,
              forcing_net_finder("nested-plus", depth=1, level=1)),
    Technique("forcing-net-nested-2", "Doubly Nested Forcing Net", "forcing-nets", 10.5,
              forcing_net_finder("nested-2", level=2)),
    # colouring (ratings are estimates: SE has no colouring rule; HoDoKu ranks simple colours with the kite)
    Technique("simple-coloring", "Simple Coloring", "coloring", 4.5, coloring.simple_coloring, screen=screens.simple_coloring_screen),
    Technique("3d-medusa", "3D Medusa", "coloring", 6.0, coloring.medusa),
    # the strong hinge is 3D Medusa's unit-emptied rule; the weak hinge adds a weak node (hinges.py)
    Technique("medusa-weak-hinge", "3D Medusa Weak Hinge", "coloring", 6.2, hinges.weak_hinges),
    # a box pushed onto one line by a premise, against a Medusa cluster (ranges.py)
    Technique("almost-locked-range", "Almost-Locked Range", "coloring", 6.3, ranges.almost_locked_ranges),
    # uniqueness: opt-in (they assume one solution); SE-style estimates (SE: UR 4.5-4.8, BUG+1 5.6)
    Technique("unique-rectangle-1", "Unique Rectangle Type 1", "uniqueness", 4.5,
              partial(uniqueness.unique_rectangles, types=(1,)), default=False),
    Technique("unique-rectangle-2", "Unique Rectangle Type 2", "uniqueness", 4.6,
              partial(uniqueness.unique_rectangles, types=(2,)), default=False),
    Technique("unique-rectangle-3", "Unique Rectangle Type 3", "uniqueness", 4.7,
              partial(uniqueness.unique_rectangles, types=(3,)), default=False),
    Technique("unique-rectangle-4", "Unique Rectangle Type 4", "uniqueness", 4.6,
              partial(uniqueness.unique_rectangles, types=(4,)), default=False),
    Technique("bug+1", "BUG+1", "uniqueness", 5.6, uniqueness.bug_plus_one, default=False),
    # almost-locked sets (estimates: SE has no ALS rule; ALS-XZ generalises the wings and sits above
    # the jellyfish, the ALS-XY-wing between the XY-chain and the AIC, death blossom above grouped AICs)
    Technique("als-xz", "ALS-XZ", "als", 5.9, alsets.als_xz),
    Technique("als-xy-wing", "ALS-XY-Wing", "als", 6.8, alsets.als_xy_wings),
    Technique("death-blossom", "Death Blossom", "als", 7.2, alsets.death_blossoms),
    # AICs with ALS nodes (estimate: above death blossom, below the forcing chains)
    Technique("als-chain", "ALS Chain", "als", 7.3, alschains.als_chains),
)

#: Every technique, easiest first (by rating; equal ratings keep the order above).
LADDER: tuple[Technique, ...] = tuple(sorted(_RUNGS, key=lambda t: t.rating))

#: The foundation rungs: ``--ladder basic``.
BASIC: tuple[str, ...] = (
    "full-house", "hidden-single", "naked-single", "locked-pointing", "locked-claiming",
    "naked-pair", "x-wing", "hidden-pair", "naked-triple", "swordfish", "hidden-triple",
    "naked-quad", "jellyfish", "hidden-quad",
)

TECHNIQUES: Mapping[str, Technique] = {t.name: t for t in LADDER}
