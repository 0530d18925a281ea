"""Errors that linkgraph raises on purpose.

Inside the engine a contradiction is a result, never an exception; these are
raised only for bad input or a missing tool::

    LinkgraphError             base of every error we raise on purpose
    ├── PuzzleFormatError      (also ValueError)    text that is not a puzzle
    ├── InvalidPuzzleError     (also ValueError)    repeated given; 0 or 2+ solutions
    ├── NotationError          (also ValueError)    "r10c1#3" on 9x9, "r2c8#x"
    ├── OptionError            (also ValueError)    variants=["cel"], depth=-1
    ├── UnknownTechniqueError  (also KeyError)
    ├── GraphvizError          (also RuntimeError)  `dot` missing or failing
    ├── ProofError             (also ValueError)    a step's proof does not hold
    └── SearchLimitError       (also RuntimeError)  a search too big for its bound

Every message says where, what was expected and what was found, e.g.
``line 3: expected 81 cells, found 80`` or ``r4c4: given 7 repeats r4c9``.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping

__all__ = [
    "GraphvizError",
    "InvalidPuzzleError",
    "LinkgraphError",
    "NotationError",
    "OptionError",
    "ProofError",
    "PuzzleFormatError",
    "SearchLimitError",
    "UnknownTechniqueError",
    "check_choice",
    "describe",
    "option_flags",
]


class LinkgraphError(Exception):
    """Base of every error linkgraph raises on purpose."""


class PuzzleFormatError(LinkgraphError, ValueError):
    """Text that cannot be read as a puzzle or a candidate grid."""


class InvalidPuzzleError(LinkgraphError, ValueError):
    """A readable puzzle that breaks the rules: a repeated given, no or several solutions."""


class NotationError(LinkgraphError, ValueError):
    """A cell, candidate, literal or house written wrongly, or outside the grid."""


class OptionError(LinkgraphError, ValueError):
    """An option with a value outside its documented range."""


class UnknownTechniqueError(LinkgraphError, KeyError):
    """A technique name that is not in the registry."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class GraphvizError(LinkgraphError, RuntimeError):
    """The Graphviz `dot` program is missing or failed."""


class ProofError(LinkgraphError, ValueError):
    """A step's proof graph does not prove it (raised by `linkgraph.check.checker.check_step`)."""


class SearchLimitError(LinkgraphError, RuntimeError):
    """A position too big for a search's documented bound (see `check_search_size`)."""


#: Forcing-chain and forcing-net searches keep state per (premise, literal) pair,
#: so they refuse positions with more live candidates than this (a 9x9 grid has
#: at most 729; a 16x16 puzzle after the basic ladder usually has well under it).
MAX_SEARCH_CANDIDATES = 2000


def check_search_size(what: str, live: int, limit: int = MAX_SEARCH_CANDIDATES) -> None:
    """Raise SearchLimitError when a position has more than `limit` live candidates.

    >>> check_search_size("forcing-chain search", 4096)
    Traceback (most recent call last):
    ...
    linkgraph.errors.SearchLimitError: forcing-chain search: the position has 4096 live candidates, more than the bound of 2000 (apply the basic ladder first, or search a smaller grid)
    """
    if live > limit:
        raise SearchLimitError(
            f"{what}: the position has {live} live candidates, more than the bound of {limit} "
            "(apply the basic ladder first, or search a smaller grid)"
        )


def check_choice(option: str, values: Iterable[str], allowed: Iterable[str]) -> None:
    """Raise OptionError naming the first value of `values` not in `allowed`."""
    allowed = list(allowed)
    if isinstance(values, str):
        values = [values]
    for value in values:
        if value not in allowed:
            close = difflib.get_close_matches(str(value), allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise OptionError(
                f"{option}: unknown value {value!r}, expected one of {', '.join(allowed)}{hint}"
            )


def describe(exc: BaseException, flags: Mapping[str, str] | None = None) -> str:
    r"""The one line that names an error to a user: ``PuzzleFormatError: line 3: ...``.

    The command line prints it after ``linkgraph: ``; the explorer's API answers it as
    ``{"error": ...}``. An OptionError names an option as Python spells it
    (``max_steps: ...``); given `flags` (`option_flags` of the command's parser) the
    line names the command line's flag instead (``--max-steps: ...``).

    >>> lg.errors.describe(lg.OptionError("--depth: expected 0, 1 or 2, found 9"))
    'OptionError: --depth: expected 0, 1 or 2, found 9'
    >>> lg.errors.describe(lg.OptionError("max_steps: expected a whole number >= 0, found -1"),
    ...                    {"max_steps": "--max-steps"})
    'OptionError: --max-steps: expected a whole number >= 0, found -1'

    User text a message quotes is shown with its control characters and line separators
    escaped, so the line stays one line for any reader (``str.splitlines`` also breaks at
    ``\x1c``-``\x1e``, ``\x85``, ``\u2028``):

    >>> print(lg.errors.describe(lg.PuzzleFormatError("a\x1eb\u2028c: not a puzzle")))
    PuzzleFormatError: a\x1eb\u2028c: not a puzzle
    """
    message = str(exc)
    if flags and isinstance(exc, OptionError):
        m = re.match(r"([a-z][a-z_]*)(:| )", message)
        if m and m.group(1) in flags:
            message = flags[m.group(1)] + message[len(m.group(1)):]
    return f"{type(exc).__name__}: {_one_line(message)}"


def _one_line(text: str) -> str:
    """`text` with its control characters and line or paragraph separators written as escapes."""
    if text.isprintable():
        return text
    return "".join(ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in ("Cc", "Zl", "Zp")
                   else ch for ch in text)


def option_flags(parser) -> dict[str, str]:
    """{option name as Python spells it: its longest flag} of an argparse parser (for `describe`)."""
    return {a.dest: max(a.option_strings, key=len) for a in parser._actions if a.option_strings}

