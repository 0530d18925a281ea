"""Alternating inference chains: X-chains, XY-chains, AICs with and without group nodes.

Modules: `net` (the strong and weak links of a position as bit rows, for
candidates and for groups), `search` (the breadth-first chain search over
them, and the steps it yields) and `kernel` (one level of that search,
compiled with numba; imported on the first level searched).
"""
