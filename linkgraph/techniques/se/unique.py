"""SE's uniqueness rules (unique loops, bivalue universal grave): placeholders until ported."""

from __future__ import annotations

from collections.abc import Iterator

from linkgraph.techniques.se.board import Board
from linkgraph.techniques.se.hints import Hint

__all__ = ["bug_hints", "unique_loop_hints"]


def unique_loop_hints(board: Board) -> Iterator[Hint]:
    return iter(())


def bug_hints(board: Board) -> Iterator[Hint]:
    return iter(())
