"""Almost-locked-set techniques: the ALS table, ALS-XZ and its kin, ALS chains.

Modules: `table` (every ALS of a position with its digits, places and sight,
as arrays; `kernel` its compiled per-pair digit matrices), `xz` (ALS-XZ, ALS-XY-Wing and Death Blossom: eliminations through
restricted common digits), `net` (the layered net the ALS chains run on),
`chains` (AICs whose nodes are ALSs: the search) and `chainproof` (the proof
graphs of those chains).
"""
