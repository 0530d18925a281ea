"""The explorer page: plain HTML, CSS and JavaScript shipped in ``static/``, put together.

`page_html` inlines the stylesheet, the script and a JSON configuration into the HTML,
so the page is one document with nothing to fetch: the server (`linkgraph.explorer.app`)
sends it as it is, and `write_page` writes it as one self-contained file with a whole
solve inside (``linkgraph solve PUZZLE --html FILE``), which steps through the path
offline. In the server's page the script asks the JSON API for its data; in the
file it reads the data the file carries and the parts that need a server (the
simulator, implication paths, the link counts of later positions) say so.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

from linkgraph.errors import OptionError
from linkgraph.grid import Grid
from linkgraph.io import atomic_write, check_output

__all__ = ["page_html", "write_page"]

_STATIC = "static"


def _asset(name: str) -> str:
    return resources.files("linkgraph.explorer").joinpath(_STATIC, name).read_text(encoding="utf-8")


def _script_json(data: object) -> str:
    """`data` as JSON that is safe inside a ``<script>`` element (no ``</``, no ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def page_html(config: dict) -> str:
    """The page with its stylesheet, script and `config` inlined.

    `config` holds ``mode`` (``"serve"`` or ``"file"``), ``samples``, ``ladders``, and
    either ``initial`` (a puzzle to load first, serve mode) or ``data`` (the
    `linkgraph.explorer.data.explore` result, file mode).

    Examples
    --------
    >>> from linkgraph.explorer import page_html
    >>> import re
    >>> html = page_html({"mode": "serve", "samples": [], "ladders": [], "initial": None})
    >>> html.startswith("<!DOCTYPE html>"), "/*LG-" in html  # everything inlined
    (True, False)
    >>> sorted(set(re.findall("https?://[a-z0-9./]+", html)))  # no address but SVG's namespace
    ['http://www.w3.org/2000/svg']
    """
    html = _asset("explorer.html")
    parts = {
        "/*LG-STYLE*/": _asset("explorer.css"),
        "/*LG-SCRIPT*/": _asset("explorer.js"),
        "/*LG-CONFIG*/": _script_json(config),
    }
    for marker, text in parts.items():
        html = html.replace(marker, text.replace("</script", "<\\/script"), 1)
    return html


def page_config(mode: str, **extra) -> dict:
    """The configuration every page carries: `mode`, the samples and the ladders offered.

    >>> from linkgraph.explorer.page import page_config
    >>> config = page_config("serve", initial=None)
    >>> config["mode"], config["samples"][0]["ladder"], "se" in config["ladders"]
    ('serve', 'forcing-chains', True)
    """
    from linkgraph.explorer.data import LADDERS, SAMPLES

    return {
        "mode": mode,
        "samples": [{"name": n, "puzzle": p, "ladder": lad} for n, p, lad in SAMPLES],
        "ladders": list(LADDERS),
        **extra,
    }


def write_page(path: str | os.PathLike, grid: Grid, report, *, ladder: str = "default") -> Path:
    """Write the self-contained page of one solve to `path` (whole or not at all).

    `report` is `linkgraph.commands.solve.report` of `grid` with ``--proofs``. The file
    is written next to `path` and renamed into place, so `path` is either untouched or
    complete. Raises OptionError when the folder does not exist or cannot be written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from linkgraph.commands import solve
    >>> from linkgraph.explorer import write_page
    >>> from linkgraph.explorer.data import command_args
    >>> grid = lg.Grid.parse(lg.samples.EULER_01)
    >>> report = solve.report(grid, command_args(solve, ["--proofs"]))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     html = write_page(pathlib.Path(tmp) / "euler.html", grid, report).read_text()
    >>> '"mode":"file"' in html, html.count("<script")
    (True, 2)
    """
    from linkgraph.explorer.data import page_data

    target = Path(path)
    check_writable(target)
    data = page_data(grid, report, ladder=ladder)
    html = page_html(page_config("file", data=data))
    try:
        with atomic_write(target) as fh:  # the old page or the whole new one
            fh.write(html)
    except OSError as exc:
        raise OptionError(f"--html {target}: cannot write: {exc.strerror or exc}") from None
    return target


def check_writable(target: Path) -> None:
    """Raise OptionError unless `target` can be written as a file (`linkgraph.io.check_output`).

    >>> from pathlib import Path
    >>> from linkgraph.explorer.page import check_writable
    >>> check_writable(Path("no-such-folder/solve.html"))
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: --html no-such-folder/solve.html: no such folder no-such-folder
    """
    check_output(target, option="--html")