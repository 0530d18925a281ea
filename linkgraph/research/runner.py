"""What every corpus run shares: the per-puzzle deadline, the ordered window, the interrupt.

A corpus run (`linkgraph.research.batch` behind ``linkgraph batch``,
`linkgraph.research.soundness` behind ``linkgraph verify``) calls one function per
puzzle, or per chunk of puzzles, and wants the results back in file order:

- `Deadline` bounds one call: past its time it raises `JobTimeout` inside the call,
  again and again until the call has stopped (both live in `linkgraph.limits`, below
  the solver, which bounds its own ``time_limit`` with them; this module re-exports them);
- `ordered` keeps a window of calls in flight on any executor (a local process
  pool, a Dask client) and yields their results in input order; `local_map` runs
  it on a local process pool (or in this process for one worker) whose workers
  (`worker_init`) leave Ctrl-C and SIGTERM to the parent, which stops them;
- `interrupt_on_sigterm` makes SIGTERM stop a run like Ctrl-C (`KeyboardInterrupt`),
  so the results already written are kept and a resumed run carries on.

Examples
--------
>>> from linkgraph.research.runner import local_map
>>> list(local_map(abs, [-3, 1, -2], workers=1))
[3, 1, 2]
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar

from linkgraph.errors import OptionError
from linkgraph.limits import REPEAT, Deadline, JobTimeout, hidden_cause  # noqa: F401 - re-exported

__all__ = ["REPEAT", "Deadline", "JobTimeout", "first_completed", "hidden_interrupt", "interrupt",
           "interrupt_on_sigterm", "local_map", "ordered", "worker_init"]

T = TypeVar("T")
R = TypeVar("R")

# ---- the per-puzzle deadline: `linkgraph.limits` (Deadline, JobTimeout, REPEAT), re-exported here --------------


# ---- the ordered window over an executor ----------------------------------------


def first_completed(futures: set) -> set:
    """The finished ones of `futures` (`concurrent.futures`), waiting until there is one."""
    return wait(futures, return_when=FIRST_COMPLETED).done


def ordered(submit: Callable[[T], Any], items: Iterable[T], *, window: int,
            wait_any: Callable[[set], set] = first_completed, count_waiting: bool = False) -> Iterator[Any]:
    """Submit `items` with at most `window` in flight; yield their results in input order.

    Parameters
    ----------
    submit : callable
        Starts the work on one item and returns its future (anything with ``result()``:
        a `concurrent.futures.Future`, a Dask future).
    items : iterable
        Read lazily: an item is taken only when a place in the window is free.
    window : int
        How many items may be running at once.
    wait_any : callable, optional
        Takes a set of futures and returns those finished, waiting until there is one
        (`first_completed` for `concurrent.futures`; a Dask run passes its own).
    count_waiting : bool, optional
        Whether a finished result still waiting for an earlier one counts against
        the window. If so, at most `window` items are submitted and not yet yielded,
        which bounds memory and the work an interrupt loses, at the cost of idle
        workers behind a slow item; if not (the default), the other items keep
        running while a slow one holds up the output.

    Yields
    ------
    object
        ``future.result()`` of each item, in the order of `items`; an exception of
        the work is raised here, in its turn.

    Raises
    ------
    OptionError
        For a window below 1, at the call.

    Examples
    --------
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> from linkgraph.research.runner import ordered
    >>> with ThreadPoolExecutor(2) as pool:
    ...     list(ordered(lambda x: pool.submit(pow, x, 2), range(5), window=2))
    [0, 1, 4, 9, 16]
    """
    if window < 1:
        raise OptionError(f"window: expected a positive number, found {window}")
    return _ordered(submit, iter(items), window, wait_any, count_waiting)


def _ordered(submit: Callable[[T], Any], items: Iterator[T], window: int,
             wait_any: Callable[[set], set], count_waiting: bool) -> Iterator[Any]:
    """The generator behind `ordered`."""
    pending: dict[Any, int] = {}
    done: dict[int, Any] = {}
    next_out = 0
    submitted = 0
    exhausted = False
    while True:
        while not exhausted and len(pending) + (len(done) if count_waiting else 0) < window:
            item = next(items, _END)
            if item is _END:
                exhausted = True
                break
            pending[submit(item)] = submitted
            submitted += 1
        if not pending and next_out == submitted:
            return
        if pending:
            for fut in wait_any(set(pending)):
                done[pending.pop(fut)] = fut.result()
        while next_out in done:
            yield done.pop(next_out)
            next_out += 1


_END = object()


def worker_init() -> None:
    """Set up a local worker process: it ignores Ctrl-C and dies on SIGTERM, the parent stops it.

    The parent owns the interrupt: on Ctrl-C (sent to the whole process group) or
    SIGTERM it drops the work in flight and terminates its workers (`local_map`),
    which must not run the parent's SIGTERM handler (`interrupt_on_sigterm`) they
    inherited when forked.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def local_map(fn: Callable[[T], R], items: Iterable[T], *, workers: int,
              window: int | None = None, count_waiting: bool = False) -> Iterator[R]:
    """Yield ``fn(item)`` for every item, in input order, in `workers` local processes.

    With ``workers=1`` everything runs in this process, one item after another.
    Otherwise a `concurrent.futures.ProcessPoolExecutor` whose workers start with
    `worker_init` runs at most `window` items at once (`ordered`). When the
    consumer stops early (an interrupt, an exception, ``close()``) the work in
    flight is dropped and the workers are terminated.

    Parameters
    ----------
    fn : callable
        Called on each item; in a worker, so it and the items must pickle.
    items : iterable
        Read lazily, as places in the window free up.
    workers : int
        Number of processes, 1 or more.
    window : int, optional
        Items running at once (default: four per worker).
    count_waiting : bool, optional
        Whether finished results waiting for an earlier one count against the
        window (see `ordered`).

    Yields
    ------
    object
        ``fn(item)``, in the order of `items`.

    Raises
    ------
    OptionError
        For fewer than one worker, at the call.

    Examples
    --------
    >>> from linkgraph.research.runner import local_map
    >>> list(local_map(len, ["ab", "", "abc"], workers=2))
    [2, 0, 3]
    """
    if workers < 1:
        raise OptionError(f"workers: expected a positive number, found {workers}")
    return _local_map(fn, items, workers, window or 4 * workers, count_waiting)


def _local_map(fn: Callable[[T], R], items: Iterable[T], workers: int, window: int,
               count_waiting: bool) -> Iterator[R]:
    """The generator behind `local_map`."""
    if workers == 1:
        for item in items:
            yield fn(item)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=worker_init)
    try:
        yield from ordered(lambda item: pool.submit(fn, item), items, window=window, count_waiting=count_waiting)
    except BaseException:  # interrupted (or the consumer stopped): drop the work in flight
        procs = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            proc.terminate()
        raise
    finally:
        pool.shutdown(wait=True)


# ---- the interrupt -------------------------------------------------------------------


def interrupt(signum, frame):  # noqa: ARG001
    """A signal handler that stops the run like Ctrl-C: raise `KeyboardInterrupt`."""
    raise KeyboardInterrupt


def hidden_interrupt(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C (or SIGTERM made one) behind an exception: itself, or the first
    `KeyboardInterrupt` among its causes; else None.

    A signal whose handler raises while a compiled (numba) function is being called comes
    out of the call as ``SystemError: ... returned a result with an exception set``, caused
    by the `KeyboardInterrupt`; code that turns every ``Exception`` of a job into a row asks
    this first and stops the run instead (as `linkgraph.limits.hidden_time_out` does for
    time-outs).

    Examples
    --------
    >>> from linkgraph.research.runner import hidden_interrupt
    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as exc:
    ...         raise SystemError("returned a result with an exception set") from exc
    ... except SystemError as exc:
    ...     print(type(hidden_interrupt(exc)).__name__, hidden_interrupt(ValueError("x")))
    KeyboardInterrupt None
    """
    return hidden_cause(exc, KeyboardInterrupt)


@contextmanager
def interrupt_on_sigterm() -> Iterator[None]:
    """Within the block SIGTERM raises `KeyboardInterrupt`, like Ctrl-C (in the main thread only).

    A run stopped either way keeps the results it has written, and its
    ``--resume`` carries on. Outside the main thread (where no handler can be set)
    nothing changes. The previous handler is put back when the block exits.

    Examples
    --------
    >>> import os, signal
    >>> from linkgraph.research.runner import interrupt_on_sigterm
    >>> try:
    ...     with interrupt_on_sigterm():
    ...         os.kill(os.getpid(), signal.SIGTERM)
    ... except KeyboardInterrupt:
    ...     print("stopped")
    stopped
    """
    old = None
    if threading.current_thread() is threading.main_thread():
        old = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
