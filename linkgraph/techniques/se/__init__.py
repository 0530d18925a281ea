"""Sudoku Explainer 1.2.1's solve path and rating, rule for rule (``--ladder se``).

This subpackage re-implements the reasoning of Sudoku Explainer (SE) 1.2.1, the program
whose command-line rater, serate, rates the forum's hardest-puzzle lists: its basic rules
in its order, aligned pair and triplet exclusion, and the chaining producers with their
flags (multiple, dynamic, Nishio), nesting levels, complexity and choice of hint. Facts
(orders, flags, ratings, tie-breaking) come from SE's public source; the code is our own.

::

    Modules
    -------
    board     SE's grid model: cells and regions in SE's iteration orders, a mutable
              candidate state (bit masks), conversion from and to `linkgraph.grid.Grid`
    hints     the hint values every producer returns: rating, eliminations, placement, and
              what a nesting chain needs (the candidates a rule relies on)
    rules     the basic rules in SE's order (singles, intersections, subsets, fish, wings,
              aligned exclusion)
    chaining  the chaining producers: cycles and forcing chains, Nishio, multiple, dynamic,
              and nested forcing chains with their levels
    kernel    compiled (numba) reachability in SE's static links, the filters of the
              nested chains
    solver    the solve loop: the first producer that finds anything supplies the step;
              ER, EP and ED as serate reports them
    proof     a hint as a `linkgraph.steps.Step` whose proof graph the checker replays

It may import the foundation (`linkgraph.grid`, `model`, `steps`, `geometry`), numpy and numba, `nets`
(the propagation used to write a nested chain's sub-proof) and its own modules.
"""
