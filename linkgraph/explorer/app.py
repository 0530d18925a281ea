"""The explorer's web application: Starlette routes, served by uvicorn (the ``serve`` extra).

Routes:

- ``GET /``: the page (`linkgraph.explorer.page`), one document with nothing to fetch;
- ``GET /api/<route>``: the JSON API (`linkgraph.explorer.api`), answered by worker
  processes (`linkgraph.explorer.workers`) within ``request_timeout`` seconds;
- ``GET /healthz``: ``{"ok": true}`` from the event loop itself.

Every answer carries a Content-Security-Policy that lets the page load nothing from
anywhere (its script and style are inline, its API is this server). A query longer
than `MAX_QUERY` characters answers 400. When the server listens on the loopback only
(the default), requests must name a loopback host (``Host: 127.0.0.1:8000``), which
keeps other web pages from reaching the API through DNS rebinding.
"""

from __future__ import annotations

import ipaddress
import socket
from contextlib import asynccontextmanager

from linkgraph.errors import OptionError
from linkgraph.explorer.api import ROUTES
from linkgraph.explorer.page import page_config, page_html

__all__ = ["MAX_QUERY", "create_app", "is_loopback", "serve"]

#: The longest query string (characters) a request may carry.
MAX_QUERY = 32_000

CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]", "::1")


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and addresses of the loopback range (127.0.0.0/8, ::1).

    >>> from linkgraph.explorer.app import is_loopback
    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def create_app(*, initial: str | None = None, request_timeout: float = 10.0, workers: int = 2,
               loopback_only: bool = True):
    """The Starlette application of the explorer.

    Parameters
    ----------
    initial : str, optional
        A puzzle (text) the page loads first.
    request_timeout : float
        Seconds within which every API request is answered (503 or 504 past it).
    workers : int
        Worker processes that answer API requests.
    loopback_only : bool
        Refuse requests whose Host header is not a loopback name (400).
    """
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    from linkgraph.explorer.workers import WorkerPool

    if not request_timeout > 0:
        raise OptionError(f"--request-timeout: expected a positive number of seconds, found {request_timeout}")
    pool = WorkerPool(workers, timeout=request_timeout)
    html = page_html(page_config("serve", initial=initial, timeout=request_timeout)).encode("utf-8")
    headers = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
               "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}

    def _host_ok(request: Request) -> bool:
        if not loopback_only:
            return True
        host = request.headers.get("host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return is_loopback(name)

    def _error(status: int, message: str) -> Response:
        return JSONResponse({"error": message}, status_code=status, headers=headers)

    async def index(request: Request) -> Response:
        if not _host_ok(request):
            return _error(400, "OptionError: this server answers requests to the loopback only")
        return HTMLResponse(html, headers=headers)

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "workers": pool.size, "replaced": pool.replaced}, headers=headers)

    async def api(request: Request) -> Response:
        if not _host_ok(request):
            return _error(400, "OptionError: this server answers requests to the loopback only")
        route = request.path_params["route"]
        if route not in ROUTES:
            return _error(404, f"OptionError: no API route {route!r}; routes: {', '.join(ROUTES)}")
        query = request.url.query
        if len(query) > MAX_QUERY:
            return _error(400, f"OptionError: query string of {len(query)} characters, at most {MAX_QUERY}")
        params = {}
        for key, value in request.query_params.multi_items():
            if key in params:
                return _error(400, f"OptionError: parameter {key!r} given twice")
            params[key] = value
        result = await pool.call(route, params)
        return Response(result.body, status_code=result.status, media_type="application/json",
                        headers={**headers, "X-Linkgraph-Status": str(result.exit)})

    @asynccontextmanager
    async def lifespan(app):
        await pool.start()
        try:
            yield
        finally:
            await pool.close()

    app = Starlette(
        routes=[Route("/", index), Route("/healthz", health), Route("/api/{route}", api)],
        lifespan=lifespan,
    )
    app.state.pool = pool
    return app


def serve(*, initial: str | None = None, host: str = "127.0.0.1", port: int = 8000,
          request_timeout: float = 10.0, workers: int = 2, announce=None) -> None:
    """Run the explorer until interrupted (uvicorn); `announce(url)` is called once it listens.

    Raises OptionError when Starlette or uvicorn is missing (the ``serve`` extra) or the
    port cannot be opened.
    """
    try:
        import uvicorn
        import starlette  # noqa: F401
    except ImportError as exc:
        raise OptionError(f"serve: {exc.name} is not installed; install the extra: pip install 'linkgraph[serve]'") from None
    if not 0 <= port <= 65535:
        raise OptionError(f"--port: expected 0..65535, found {port}")
    app = create_app(initial=initial, request_timeout=request_timeout, workers=workers,
                     loopback_only=is_loopback(host))

    class _Server(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            if self.should_exit or not self.servers:
                return
            bound = self.servers[0].sockets[0].getsockname()
            shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
            url = f"http://{shown}:{bound[1]}/"
            (announce or (lambda u: print(f"linkgraph explorer on {u}  (Ctrl-C stops it)", flush=True)))(url)

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                            limit_concurrency=512, timeout_keep_alive=5, h11_max_incomplete_event_size=64 * 1024)
    server = _Server(config)
    listening = _bind(host, port)  # before the workers start: a busy port fails at once
    try:
        with listening:
            server.run(sockets=[listening])
    except SystemExit:  # uvicorn exits when its start-up fails
        if server.started:
            raise
    if not server.started:
        raise OptionError(f"--host {host} --port {port}: the explorer did not start (see the messages above)")


def _bind(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port), as uvicorn would bind it; OptionError when it cannot be."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        reason = exc.strerror or type(exc).__name__
        raise OptionError(f"--host {host} --port {port}: could not listen there ({reason})") from None
    sock.set_inheritable(True)
    return sock
