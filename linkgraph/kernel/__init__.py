"""Compiled loops of the foundation modules (numba), one module per foundation module they serve.

Part of the foundation layer: its modules import only numpy and numba, and the foundation
module they serve imports them on first use. Modules:

- `grid`: the candidate state's bookkeeping on every step of a solve (`Grid.apply`'s copy
  with a step's eliminations and placements made, `Grid.contradiction`'s common case).
"""
