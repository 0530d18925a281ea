"""Bounds on work: a time limit for a block of code, and the checks of the options that set bounds.

Every command is bounded: ``solve --time-limit`` bounds the whole solve, the
uniqueness check included, and ``batch``/``verify`` ``--timeout`` bound each
puzzle. The engine's searches know nothing of time; `Deadline` stops them from
outside:

- in the main thread with ``SIGALRM`` (``signal.setitimer``), whose handler raises
  the deadline's exception;
- in any other thread (a web server's worker, say) with a helper thread that
  injects the exception (``PyThreadState_SetAsyncExc``).

Either way the exception is raised again every `REPEAT` seconds until the block
exits: one raised while Python finalises a generator or runs a ``__del__`` is
lost ("Exception ignored in ..."), and a single alarm would let the work run on.
Such a lost time-out is not printed (its traceback would only alarm the user).
Deadlines nest (a solve's own time limit inside a batch's per-puzzle limit): the
outer one still fires on time and raises its own exception through the inner block.

The exceptions derive from `TimeLimitExceeded`, a BaseException, so that
``except Exception`` in the engine cannot swallow them. Each user of a deadline
catches its own subclass: `JobTimeout` for a corpus run's puzzle, a private one
for the solver's ``time_limit``.

The option checks (`check_count`, `check_seconds`) are the one place where a count
or a time in seconds is checked, for the Python API and the command line alike;
their OptionError names the option (``max_steps``) and the command line shows
its flag (``--max-steps``).

Examples
--------
>>> import time
>>> from linkgraph.limits import Deadline, JobTimeout
>>> try:
...     with Deadline(0.05):
...         time.sleep(5)
... except JobTimeout:
...     print("stopped")
stopped
"""

from __future__ import annotations

import ctypes
import math
import signal
import sys
import threading
import time
from numbers import Integral, Real

from linkgraph.errors import OptionError

__all__ = ["REPEAT", "Deadline", "JobTimeout", "TimeLimitExceeded", "check_count", "check_seconds"]

#: Seconds between repeats of a time-out that has not yet stopped its block.
REPEAT = 0.05


class TimeLimitExceeded(BaseException):
    """Raised inside a block that runs past its `Deadline` (the base of the deadlines' exceptions).

    A BaseException, so that ``except Exception`` in the engine cannot swallow it.
    """


class JobTimeout(TimeLimitExceeded):
    """Raised inside a corpus run's job (one puzzle) that runs past its time limit."""


# ---- the deadline --------------------------------------------------------------------------


class Deadline:
    """Raise `exception` in the current thread after `seconds`; no limit when `seconds` is None or 0.

    Parameters
    ----------
    seconds : float or None
        The time limit of the block; None or 0 sets no limit.
    exception : type, optional
        A subclass of `TimeLimitExceeded` to raise (default `JobTimeout`).

    Raises
    ------
    TimeLimitExceeded
        The `exception` given, inside the block, once its time is up; again every
        `REPEAT` seconds until the block has exited.

    Examples
    --------
    >>> import time
    >>> from linkgraph.limits import Deadline, JobTimeout
    >>> try:
    ...     with Deadline(0.05):
    ...         while True:
    ...             time.sleep(0.01)
    ... except JobTimeout:
    ...     print("stopped")
    stopped
    """

    def __init__(self, seconds: float | None, exception: type[TimeLimitExceeded] = JobTimeout):
        if not (isinstance(exception, type) and issubclass(exception, TimeLimitExceeded)):
            raise TypeError(f"exception: expected a subclass of TimeLimitExceeded, found {exception!r}")
        self.seconds = seconds
        self.exception = exception
        self.expires = math.inf
        self._timer: threading.Thread | None = None
        self._stop = threading.Event()
        self._main = False

    def __enter__(self) -> Deadline:
        if not self.seconds:
            return self
        _quiet_unraisable()
        self.expires = time.monotonic() + float(self.seconds)
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            self._main = True
            _alarms.push(self)
        else:
            self._stop.clear()
            self._timer = threading.Thread(target=self._inject_until_stopped, args=(threading.get_ident(),),
                                           daemon=True)
            self._timer.start()
        return self

    def remaining(self) -> float:
        """Seconds left (``inf`` without a limit, 0 once past it)."""
        return max(self.expires - time.monotonic(), 0.0)

    def _inject_until_stopped(self, ident: int) -> None:
        wait = self.remaining()
        while not self._stop.wait(wait):
            _inject(ident, self.exception)
            wait = REPEAT

    def __exit__(self, *exc) -> None:
        if self._main:
            _alarms.pop(self)
            self._main = False
        elif self._timer is not None:
            self._stop.set()
            self._timer.join()
            self._timer = None


def _quiet_unraisable() -> None:
    """Keep Python from printing a time-out that lands in a finaliser ("Exception ignored in ...").

    Such a time-out is lost where it was raised, and the deadline raises it again `REPEAT`
    seconds later; its traceback on stderr would only alarm the user. Other unraisable
    exceptions go to the hook that was there before. Installed when a deadline is first
    entered (importing linkgraph changes nothing), and again if someone replaced it since.
    """
    previous = sys.unraisablehook
    if getattr(previous, "_linkgraph_quiet", False):
        return

    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, TimeLimitExceeded):
            return
        previous(unraisable)

    hook._linkgraph_quiet = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


def _inject(ident: int, exception: type[BaseException]) -> None:
    """Raise `exception` in the thread `ident` at its next bytecode."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exception))


class _Alarms:
    """The deadlines of the main thread, on one SIGALRM timer set for the earliest of them."""

    def __init__(self):
        self.active: list[Deadline] = []
        self.saved: tuple | None = None  # the handler and timer found before the first deadline

    def push(self, deadline: Deadline) -> None:
        if not self.active:
            handler = signal.signal(signal.SIGALRM, self._alarm)
            self.saved = (handler, signal.getitimer(signal.ITIMER_REAL), time.monotonic())
        self.active.append(deadline)
        self._arm()

    def pop(self, deadline: Deadline) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)  # no alarm while the list changes
        if deadline in self.active:
            self.active.remove(deadline)
        if self.active:
            self._arm()
            return
        handler, (delay, interval), since = self.saved
        self.saved = None
        signal.signal(signal.SIGALRM, handler)
        if delay:  # someone else's timer was running: let it go on
            signal.setitimer(signal.ITIMER_REAL, max(delay - (time.monotonic() - since), 1e-6), interval)

    def _arm(self) -> None:
        wait = min(d.expires for d in self.active) - time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, max(wait, 1e-6), REPEAT)

    def _alarm(self, signum, frame):  # noqa: ARG002
        now = time.monotonic()
        expired = [d for d in self.active if d.expires <= now]
        if expired:  # the outermost first: its block, and every block inside it, must stop
            raise expired[0].exception
        self._arm()  # early (clock granularity): wait for the rest


_alarms = _Alarms()


# ---- the option checks -----------------------------------------------------------------------


def check_count(option: str, value: object, *, minimum: int = 0, none: bool = True) -> int | None:
    """Return `value` if it is a whole number of at least `minimum` (or None, when `none`); else OptionError.

    Examples
    --------
    >>> from linkgraph.limits import check_count
    >>> check_count("max_steps", 3), check_count("max_steps", None)
    (3, None)
    >>> check_count("max_steps", -1)
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: max_steps: expected a whole number >= 0, found -1
    """
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise OptionError(f"{option}: expected a whole number >= {minimum}, found {value!r}")
    return int(value)


def check_seconds(option: str, value: object, *, none: bool = True) -> float | None:
    """Return `value` as float if it is a positive, finite number of seconds (or None, when `none`).

    Examples
    --------
    >>> from linkgraph.limits import check_seconds
    >>> check_seconds("time_limit", 2)
    2.0
    >>> check_seconds("time_limit", float("nan"))
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: time_limit: expected a positive number of seconds, found nan
    """
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 < value < math.inf:
        raise OptionError(f"{option}: expected a positive number of seconds, found {value!r}")
    return float(value)
