"""The independent proof checker: replays each step's proof graph as single inferences.

May import the foundation only: the checker must not share code with the
techniques it checks. Modules:

- `checker`: `check_step` and `check_steps`, the replay of one proof graph,
  each edge by the inference its kind stands for (weak, strong, group, ALS,
  pattern, net);
- `uniqueness`: the uniqueness techniques' proofs (unique rectangles, BUG+1),
  checked against the puzzle's unique solution.
"""

from __future__ import annotations

from linkgraph.check.checker import check_step, check_steps

__all__ = ["check_step", "check_steps"]
