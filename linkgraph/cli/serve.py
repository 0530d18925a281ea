"""``linkgraph serve [PUZZLE]``: the explorer, a local web page and its JSON API.

Listens on 127.0.0.1 (the loopback) unless ``--host`` says otherwise, and prints the
address to open. The page steps through a solve with each proof drawn on the board
and as a flow graph, grows forcing nets round by round in the simulator, finds
implication paths and counts links; ``GET /api/<command>?puzzle=...`` answers what
``linkgraph <command> --format json`` prints. Needs the ``serve`` extra (Starlette and
uvicorn), which ``./setup.sh`` installs.
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import read_grid


def add_parser(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="the explorer: a local web page to step through solves and grow nets",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument("puzzle", metavar="PUZZLE", nargs="?", default=None,
                   help="puzzle to open first: string, candidate grid, SudokuWiki link, file or '-' "
                   "(default: the GNPX example)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--request-timeout", type=float, default=10.0, metavar="S",
                   help="answer every API request within S seconds, waiting for a worker included (default 10)")
    p.add_argument("--workers", type=int, default=2, metavar="N",
                   help="worker processes answering API requests (default 2)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from linkgraph.errors import OptionError
    from linkgraph.explorer.app import is_loopback, serve

    if not args.request_timeout > 0:
        raise OptionError(f"--request-timeout: expected a positive number of seconds, found {args.request_timeout}")
    if not 1 <= args.workers <= 64:
        raise OptionError(f"--workers: expected 1..64, found {args.workers}")
    initial = None
    if args.puzzle is not None:
        grid = read_grid(args.puzzle)
        initial = grid.to_puzzle() if grid.placed.sum() == grid.givens.sum() and _is_start(grid) else grid.to_candidates()
    if not is_loopback(args.host):
        print(f"linkgraph serve: listening on {args.host}: anyone who can reach this machine can use the explorer",
              file=sys.stderr)
    try:
        serve(initial=initial, host=args.host, port=args.port, request_timeout=args.request_timeout,
              workers=args.workers)
    except KeyboardInterrupt:
        pass
    return 0


def _is_start(grid) -> bool:
    """True when `grid` is a plain puzzle: its candidates are what its givens leave."""
    from linkgraph.grid import Grid

    return Grid.parse(grid.to_puzzle()) == grid
