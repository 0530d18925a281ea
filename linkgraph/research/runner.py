"""What every corpus run shares: the per-puzzle deadline, the ordered window, the interrupt.

A corpus run (`linkgraph.research.batch` behind ``linkgraph batch``,
`linkgraph.research.soundness` behind ``linkgraph verify``) calls one function per
puzzle, or per chunk of puzzles, and wants the results back in file order:

- `Deadline` bounds one call: past its time it raises `JobTimeout` inside the call,
  again and again until the call has stopped;
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

import ctypes
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar

from linkgraph.errors import OptionError

__all__ = ["REPEAT", "Deadline", "JobTimeout", "first_completed", "interrupt", "interrupt_on_sigterm",
           "local_map", "ordered", "worker_init"]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds between repeats of a time-out that has not yet stopped its job.
REPEAT = 0.05


# ---- the per-puzzle deadline ---------------------------------------------------


class JobTimeout(BaseException):
    """Raised inside a job that runs past its time limit.

    A BaseException, so that ``except Exception`` in the engine cannot swallow it.
    """


class Deadline:
    """Raise `JobTimeout` in the current thread after `seconds`; no limit when `seconds` is None or 0.

    In the main thread the alarm is SIGALRM (``signal.setitimer``); in any other
    thread a helper thread injects the exception (``PyThreadState_SetAsyncExc``).
    The exception is raised again every `REPEAT` seconds until the block exits: one
    raised while Python finalises a generator or runs a ``__del__`` is reported as
    "ignored" and lost, and a single alarm would then let the job run on unbounded.

    Parameters
    ----------
    seconds : float or None
        The time limit of the block.

    Raises
    ------
    JobTimeout
        Inside the block, once its time is up.

    Examples
    --------
    >>> import time
    >>> from linkgraph.research.runner import Deadline, JobTimeout
    >>> try:
    ...     with Deadline(0.05):
    ...         time.sleep(5)
    ... except JobTimeout:
    ...     print("stopped")
    stopped
    """

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self._timer: threading.Thread | None = None
        self._stop = threading.Event()
        self._old = None

    def __enter__(self) -> Deadline:
        if not self.seconds:
            return self
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            self._old = signal.signal(signal.SIGALRM, self._alarm)
            signal.setitimer(signal.ITIMER_REAL, self.seconds, REPEAT)
        else:
            self._stop.clear()
            self._timer = threading.Thread(target=self._inject_until_stopped, args=(threading.get_ident(),),
                                           daemon=True)
            self._timer.start()
        return self

    @staticmethod
    def _alarm(signum, frame):  # noqa: ARG004
        raise JobTimeout

    def _inject_until_stopped(self, ident: int) -> None:
        wait = self.seconds
        while not self._stop.wait(wait):
            _inject(ident)
            wait = REPEAT

    def __exit__(self, *exc) -> None:
        if self._old is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)
            self._old = None
        elif self._timer is not None:
            self._stop.set()
            self._timer.join()
            self._timer = None


def _inject(ident: int) -> None:
    """Raise JobTimeout in the thread `ident` at its next bytecode."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(JobTimeout))


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
