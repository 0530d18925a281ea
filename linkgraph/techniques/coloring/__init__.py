"""Coloring: simple coloring and 3D Medusa, weak hinges, almost-locked ranges.

Modules: `medusa` (the color clusters of a position and the two coloring
techniques), `hinges` (Medusa weak hinges), `rangetable` (the ranges of a
position as tables) and `ranges` (almost-locked ranges, SudokuAssistant).
"""
