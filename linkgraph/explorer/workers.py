"""Worker processes for the explorer's API: work off the event loop, each request bounded.

`WorkerPool` keeps a few worker processes (started with ``spawn``, so no state of the
server leaks into them). A request takes an idle worker, sends it the route and the
parameters, and awaits the answer without blocking the event loop (the pipe's file
descriptor is watched by the loop). A request has one deadline, `timeout` seconds
after it arrived: waiting for a worker past it answers 503, computing past it stops
that worker (SIGKILL to its own process id) and answers 504, and a new worker takes
its place. At most `max_waiting` requests wait for a worker; more answer 503 at once.
The uniqueness check of a request's puzzle gets half the time left when a worker takes
it (``check_limit`` of `linkgraph.explorer.api.answer`): a big puzzle whose check does not
settle in time answers 400 with the check's one-line message, and the worker lives on.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Mapping

from linkgraph.explorer.api import Answer, answer, error_answer

__all__ = ["WorkerPool", "worker_main"]


def worker_main(conn) -> None:
    """A worker's loop: answer ``(route, params)`` messages until ``None`` or a closed pipe."""
    import linkgraph.explorer.data  # noqa: F401 - load the engine before saying ready
    from linkgraph.grid import Grid
    from linkgraph.oracle import count_solutions
    from linkgraph.samples import GNPX_FORCECHAIN

    count_solutions(Grid.parse(GNPX_FORCECHAIN))  # the compiled check loads now, not in a request's check limit
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if job is None:
            return
        route, params, *rest = job
        try:
            result = answer(route, params, check_limit=rest[0] if rest else None)
        except Exception as exc:  # noqa: BLE001 - a bug answers 500, the worker lives on
            result = error_answer(500, f"internal error: {type(exc).__name__}: {exc}")
        try:
            conn.send(result)
        except (OSError, ValueError):
            return


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, ctx):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=worker_main, args=(child,), daemon=True, name="linkgraph-explorer-worker")
        self.process.start()
        child.close()

    def stop(self, *, kill: bool = False) -> None:
        if kill and self.process.is_alive():
            self.process.kill()  # this worker's own pid, started by this pool
        else:
            try:
                self.conn.send(None)
            except (OSError, ValueError):
                pass
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=2)
        self.conn.close()


class WorkerPool:
    """A few worker processes answering API requests, each within `timeout` seconds.

    Parameters
    ----------
    size : int
        Number of worker processes (at least 1).
    timeout : float
        Seconds from a request's arrival to its answer, waiting included.
    max_waiting : int
        Requests that may wait for a worker; more are turned away (503).
    """

    def __init__(self, size: int = 2, *, timeout: float = 10.0, max_waiting: int = 256):
        self.size = max(1, int(size))
        self.timeout = float(timeout)
        self.max_waiting = int(max_waiting)
        self._ctx = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._workers: set[_Worker] = set()
        self._waiting = 0
        self._closed = False
        self.replaced = 0

    async def start(self) -> None:
        """Start the workers and wait until each has loaded the engine."""
        self._idle = asyncio.Queue()
        await asyncio.gather(*(self._spawn() for _ in range(self.size)))

    async def _spawn(self) -> None:
        loop = asyncio.get_running_loop()
        worker = await loop.run_in_executor(None, _Worker, self._ctx)
        self._workers.add(worker)
        try:
            ready = await self._receive(worker, 120.0)
        except (asyncio.TimeoutError, EOFError, OSError):
            ready = None
        if ready != "ready" or self._closed:
            self._workers.discard(worker)
            worker.stop(kill=True)
            return
        assert self._idle is not None
        self._idle.put_nowait(worker)

    async def _receive(self, worker: _Worker, timeout: float):
        """The next message of `worker`, awaited on the event loop; TimeoutError after `timeout`."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = worker.conn.fileno()
        loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
        try:
            await asyncio.wait_for(ready, timeout)
        finally:
            loop.remove_reader(fd)
        return worker.conn.recv()

    async def call(self, route: str, params: Mapping[str, str]) -> Answer:
        """The answer to one API request, within the pool's timeout."""
        if self._idle is None or self._closed:
            return error_answer(503, "the explorer is not running")
        deadline = time.monotonic() + self.timeout
        if self._waiting >= self.max_waiting:
            return error_answer(503, f"busy: {self._waiting} requests are waiting; try again shortly")
        self._waiting += 1
        try:
            worker = await asyncio.wait_for(self._idle.get(), max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            return error_answer(503, f"busy: no worker was free within the {self.timeout:g} s request timeout")
        finally:
            self._waiting -= 1
        try:
            # the uniqueness check gets half the time left, so that a big puzzle it cannot settle
            # answers 400 with the check's own message instead of a killed worker's 504
            # (in tenths of a second, so that the message reads "4.9 s", not "4.99997 s")
            check_limit = max(0.1, int((deadline - time.monotonic()) * 5) / 10)
            worker.conn.send((route, dict(params), check_limit))
            result = await self._receive(worker, max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            self._replace(worker)
            return error_answer(504, f"timeout: the request took more than {self.timeout:g} s "
                                     "(start the server with a larger --request-timeout)")
        except (EOFError, OSError) as exc:
            self._replace(worker)
            return error_answer(500, f"internal error: the worker stopped ({type(exc).__name__})")
        self._idle.put_nowait(worker)
        return result

    def _replace(self, worker: _Worker) -> None:
        """Stop `worker` (it is past its deadline or gone) and start another in its place."""
        self._workers.discard(worker)
        worker.stop(kill=True)
        self.replaced += 1
        if not self._closed:
            asyncio.get_running_loop().create_task(self._spawn())

    async def close(self) -> None:
        """Stop every worker."""
        self._closed = True
        workers, self._workers = list(self._workers), set()
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(None, w.stop) for w in workers))
