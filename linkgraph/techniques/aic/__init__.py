"""Alternating inference chains: X-chains, XY-chains, AICs with and without group nodes.

Modules: `net` (the strong and weak links of a position as bit rows, for
candidates and for groups) and `search` (the breadth-first chain search over
them, and the steps it yields).
"""
