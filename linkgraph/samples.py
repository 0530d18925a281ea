"""Named puzzle strings for examples, doctests and the CLI's default puzzle.

Sources: the GNPX ForceChain text (../shared/seeds/gnpx-forcechain.txt), Project
Euler problem 96 (grid 01), and named puzzles of the Enjoy Sudoku forum
hardest database. See ``linkgraph/data/README.md``.
"""

from __future__ import annotations

__all__ = ["EASTER_MONSTER", "EULER_01", "GNPX_FORCECHAIN", "GOLDEN_NUGGET", "SIX_BY_SIX_REGIONS"]

#: The puzzle on which the GNPX text shows its ForceChain results.
GNPX_FORCECHAIN = "1526.7.893...5...4...9.3..75.8...2.6.6.....9.9.3...4.14..5.6...6...3...573.4.1962"

#: Project Euler 96, grid 01: singles solve it.
EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

#: Easter Monster (JPF), one of the hardest known puzzles.
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"

#: Golden Nugget (tarek), SE 11.9.
GOLDEN_NUGGET = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."

#: A 6x6 jigsaw region map used in examples.
SIX_BY_SIX_REGIONS = "111222" "111222" "333444" "333444" "555666" "555666"
