"""The explorer: a web page to step through a solve and watch a net grow, and its JSON API.

May import every layer below the package ``__init__`` (the foundation up to
`linkgraph.commands`); only `linkgraph.cli` imports it. Importing this package needs
only linkgraph's own dependencies: Starlette and uvicorn (the ``serve`` extra) are
imported by `app` alone. Modules:

- `data`: what the page shows, as JSON-ready data: the solve path with proofs,
  pictures and hints (`explore`), the simulator's rounds (`propagation`), samples;
- `api`: one request of the JSON API as plain data in, status and JSON text out
  (``/api/<command>`` parsed with the command's own options, so its JSON is the
  CLI's); it reads no files;
- `workers`: the worker processes that run the requests off the event loop, each
  request bounded in time (a worker past the deadline is stopped and replaced);
- `page`: the page itself (HTML, CSS and JavaScript shipped in ``static/``) for the
  server, or as one self-contained file (``linkgraph solve --html``);
- `app`: the Starlette application and `serve` (uvicorn, loopback by default).
"""

from __future__ import annotations

from linkgraph.explorer.data import explore, propagation
from linkgraph.explorer.page import page_html, write_page

__all__ = ["explore", "page_html", "propagation", "write_page"]
