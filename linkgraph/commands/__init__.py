"""What the graph commands compute, as plain data: one module per command.

May import every layer below the explorer (the foundation up to `research/`). Each
module here holds one command's options and its result, shared by the command line
(`linkgraph.cli`) and the explorer's JSON API (`linkgraph.explorer`), so that
``GET /api/<command>`` returns what ``linkgraph <command> --format json`` prints by
construction:

- ``add_options(parser)`` adds the command's options (not PUZZLE, not ``--format``) to
  an argparse parser; the CLI and the API parse with the same definitions;
- ``report(grid, args) -> Report``: the command's JSON data, its exit status (0 found,
  1 nothing found), the computed objects the text output prints, and an optional note
  for stderr. It reads and writes no files.

Modules: `common` (`Report`, `json_text`, `FILE_OPTIONS`), `solve`, `links`, `path`,
`chains`, `nets`.
"""

from __future__ import annotations

from linkgraph.commands import chains, links, nets, path, solve
from linkgraph.commands.common import Report, json_text

#: The commands whose JSON the explorer's API serves, by name.
COMMANDS = {"solve": solve, "links": links, "path": path, "chains": chains, "nets": nets}

__all__ = ["COMMANDS", "Report", "json_text"]
