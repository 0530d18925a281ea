"""One request of the explorer's JSON API: a route and its query parameters in, an answer out.

`answer(route, params)` runs in a worker process (`linkgraph.explorer.workers`) and
returns an `Answer`: the HTTP status, the JSON text and the exit status of the command.

- ``/api/<command>`` for ``solve``, ``links``, ``path``, ``chains`` and ``nets``:
  ``puzzle`` is the PUZZLE text (a puzzle string, a candidate grid or a SudokuWiki
  link, never a file); every other parameter is the command's option of the same name
  (``ladder=se`` is ``--ladder se``, ``max_steps`` or ``max-steps`` is ``--max-steps``,
  a flag such as ``hint`` takes ``1``/``true`` or ``0``/``false``); ``path`` takes its
  two literals as ``from`` and ``to``. The options are parsed by the command's own
  definitions (`linkgraph.commands`) and the JSON is built by the same function the
  CLI prints, so the body is byte for byte what ``linkgraph <command> --format json``
  prints. The command's exit status (0 found, 1 nothing found) is in the header
  ``X-Linkgraph-Status``.
- ``/api/propagate``: ``puzzle``, ``assert`` (``+r2c8#1,-r5c5#7``), ``depth``
  (0 plain, 1 +depth, 2 ++depth), ``level`` (nesting, 0 or 1) and ``explain`` (a
  literal, or ``contradiction``): `linkgraph.explorer.data.propagation`.
- ``/api/explore``: ``puzzle`` and ``ladder``: `linkgraph.explorer.data.explore`, what the
  page loads.

Bad input answers 400 with ``{"error": "<the CLI's message>"}`` (`linkgraph.errors.describe`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from linkgraph.commands import COMMANDS, json_text
from linkgraph.errors import LinkgraphError, OptionError, PuzzleFormatError, describe
from linkgraph.grid import Grid
from linkgraph.io import parse_puzzle

__all__ = ["MAX_PUZZLE", "ROUTES", "Answer", "answer", "error_answer"]

#: The routes under ``/api/`` that `answer` serves.
ROUTES = (*COMMANDS, "propagate", "explore")

#: The longest puzzle text the API reads (a 25x25 candidate grid fits).
MAX_PUZZLE = 16_000

_TRUE = ("", "1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True, slots=True)
class Answer:
    """An API answer: HTTP `status`, JSON `body` text, the command's `exit` status."""

    status: int
    body: str
    exit: int = 0
    headers: dict = field(default_factory=dict)


def error_answer(status: int, message: str) -> Answer:
    """``{"error": message}`` with HTTP `status`.

    >>> from linkgraph.explorer.api import error_answer
    >>> out = error_answer(400, "OptionError: depth: expected 0..2, found 3")
    >>> out.status
    400
    >>> print(out.body, end="")
    {
      "error": "OptionError: depth: expected 0..2, found 3"
    }
    """
    return Answer(status, json_text({"error": message}), 2)


def _grid(params: Mapping[str, str]) -> Grid:
    text = params.get("puzzle")
    if text is None or not text.strip():
        raise OptionError("puzzle: expected a puzzle string, a candidate grid or a SudokuWiki link, found nothing")
    if len(text) > MAX_PUZZLE:
        raise PuzzleFormatError(f"puzzle: {len(text)} characters, at most {MAX_PUZZLE}")
    return parse_puzzle(text)


def command_argv(command: str, params: Mapping[str, str]) -> list[str]:
    """The command-line options that the query `params` stand for (PUZZLE left out).

    >>> from linkgraph.explorer.api import command_argv
    >>> command_argv("nets", {"puzzle": "...", "depth": "1", "all": "true", "max_steps": "3"})
    ['--depth=1', '--all', '--max-steps=3']
    >>> command_argv("path", {"from": "+r2c8#1", "to": "-r2c4#1"})
    ['--', '+r2c8#1', '-r2c4#1']
    """
    flags = _flags(command)
    argv: list[str] = []
    for key, value in params.items():
        if key in ("puzzle", "from", "to"):
            continue
        if key == "format":
            if value != "json":
                raise OptionError(f"format: the API answers JSON only, found {value!r}")
            continue
        option = "--" + key.replace("_", "-")
        if option in flags:
            if value.strip().lower() in _TRUE:
                argv.append(option)
            elif value.strip().lower() not in _FALSE:
                raise OptionError(f"{option}: a flag takes 1/true or 0/false, found {value!r}")
        else:
            argv.append(f"{option}={value}")
    if command == "path":
        missing = [k for k in ("from", "to") if not params.get(k)]
        if missing:
            raise OptionError(f"path: expected the literals 'from' and 'to' (e.g. from=+r2c8#1), missing {', '.join(missing)}")
        argv += ["--", params["from"], params["to"]]
    return argv


def _flags(command: str) -> set[str]:
    """The options of `command` that take no value."""
    import argparse

    parser = argparse.ArgumentParser(add_help=False)
    COMMANDS[command].add_options(parser)
    return {opt for action in parser._actions if action.nargs == 0 for opt in action.option_strings}


def _number(params: Mapping[str, str], key: str, default: int, allowed: range) -> int:
    text = params.get(key)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise OptionError(f"{key}: expected a whole number, found {text!r}") from None
    if value not in allowed:
        raise OptionError(f"{key}: expected {allowed.start}..{allowed.stop - 1}, found {value}")
    return value


def answer(route: str, params: Mapping[str, str], *, check_limit: float | None = None) -> Answer:
    """The answer to ``GET /api/<route>?<params>``.

    `check_limit` (seconds, None: the commands' default) bounds the uniqueness check of
    the puzzle: the worker pool gives it half of the request's time, so that a check that
    does not settle answers 400 (SearchLimitError) instead of running into the request's
    timeout. A ``check_limit`` parameter may only lower it.

    Examples
    --------
    >>> from linkgraph.explorer.api import answer
    >>> out = answer("path", {"puzzle": lg.samples.GNPX_FORCECHAIN, "from": "+r2c8#1", "to": "-r2c4#1"})
    >>> out.status, out.exit, out.body.startswith("[")
    (200, 0, True)
    >>> bad = answer("solve", {"puzzle": "123"})
    >>> bad.status, bad.body.splitlines()[1]
    (400, '  "error": "PuzzleFormatError: expected 81 cells (or 16, 36, 64, 144, 256, 625), found 3"')
    """
    from linkgraph.explorer.data import command_args, command_flags, explore, parse_assertions, propagation

    flags = None  # the command's flags, so that an OptionError names them as the CLI does
    try:
        if route in COMMANDS:
            module = COMMANDS[route]
            flags = command_flags(module)
            args = command_args(module, command_argv(route, params))
            if check_limit is not None and hasattr(args, "check_limit"):
                args.check_limit = min(args.check_limit or check_limit, check_limit)
            report = module.report(_grid(params), args)
            return Answer(200, json_text(report.data), report.status)
        if route == "propagate":
            _known(params, ("puzzle", "assert", "depth", "level", "explain", "pictures"))
            grid = _grid(params)
            lits = parse_assertions(params.get("assert", ""), grid)
            data = propagation(grid, lits, depth=_number(params, "depth", 0, range(3)),
                               level=_number(params, "level", 0, range(2)),
                               explain=params.get("explain") or None,
                               pictures=params.get("pictures", "1").strip().lower() not in _FALSE)
            return Answer(200, json_text(data), 0)
        if route == "explore":
            _known(params, ("puzzle", "ladder", "pictures"))
            data = explore(_grid(params), ladder=params.get("ladder") or "default",
                           pictures=params.get("pictures", "1").strip().lower() not in _FALSE,
                           check_limit=check_limit)
            return Answer(200, json_text(data), data["status"])
    except LinkgraphError as exc:
        return error_answer(400, describe(exc, flags))
    return error_answer(404, f"OptionError: no API route {route!r}; routes: {', '.join(ROUTES)}")


def _known(params: Mapping[str, str], names: tuple[str, ...]) -> None:
    unknown = sorted(set(params) - set(names))
    if unknown:
        raise OptionError(f"unknown parameter {unknown[0]!r}; expected {', '.join(names)}")
