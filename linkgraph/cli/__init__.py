"""The ``linkgraph`` command line: `main` (in `linkgraph.cli.main`), one module per command.

The top layer: may import every layer below; only ``linkgraph.__main__`` (and
the console script) import it. A command module exposes
``add_parser(subparsers)`` and ``run(args) -> int``; `common` holds what the
commands share (reading PUZZLE, ``--format``, JSON output).
"""

from __future__ import annotations

from linkgraph.cli.main import main

__all__ = ["main"]
