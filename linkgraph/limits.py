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
A time-out that lands while compiled code (numba) runs one of its Python callbacks
comes out of the compiled call as ``SystemError: ... returned a result with an
exception set``, caused by the time-out: the block's exit turns it back into the
time-out (`hidden_time_out` finds it for code that catches ``Exception`` inside a
block). A time-out never lands in the deadlines' own bookkeeping (entering and
leaving a block): it waits for the next repeat, so a block always leaves its timer
as it found it.
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
from typing import TypeVar

from linkgraph.errors import OptionError

__all__ = ["REPEAT", "Deadline", "JobTimeout", "TimeLimitExceeded", "check_count", "check_seconds",
           "hidden_cause", "hidden_time_out"]

E = TypeVar("E", bound=BaseException)

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
            frame = sys._current_frames().get(ident)
            if frame is None:  # the thread has ended
                return
            if not _in_bookkeeping(frame):
                _inject(ident, self.exception)
            wait = REPEAT

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._main:
            _alarms.pop(self)
            self._main = False
        elif self._timer is not None:
            self._stop.set()
            self._timer.join()
            self._timer = None
            _inject(threading.get_ident(), None)  # drop a time-out injected but not yet raised
        if exc is not None and not isinstance(exc, TimeLimitExceeded):
            hidden = hidden_time_out(exc)
            if hidden is not None:
                raise type(hidden)() from None


def hidden_time_out(exc: BaseException) -> TimeLimitExceeded | None:
    """The time-out behind an exception: itself, or the first time-out among its causes; else None.

    Compiled code (numba) that calls back into Python reports an exception raised in the
    callback as ``SystemError: ... returned a result with an exception set``, caused by it;
    a time-out that lands there comes out of the compiled call in that wrapping. Code that
    catches ``Exception`` inside a `Deadline` block asks this before treating the exception
    as a fault (a `Deadline` unwraps such an exception itself when it leaves the block).

    Examples
    --------
    >>> try:
    ...     try:
    ...         raise JobTimeout
    ...     except JobTimeout as exc:
    ...         raise SystemError("returned a result with an exception set") from exc
    ... except SystemError as exc:
    ...     print(type(hidden_time_out(exc)).__name__, hidden_time_out(ValueError("x")))
    JobTimeout None
    """
    return hidden_cause(exc, TimeLimitExceeded)


def hidden_cause(exc: BaseException, kind: type[E]) -> E | None:
    """`exc` if it is a `kind`, else the first `kind` among its causes (``__cause__``,
    followed until it ends or loops); None when there is none.

    The walk behind `hidden_time_out` and `linkgraph.research.runner.hidden_interrupt`:
    compiled code reports an exception raised in a Python callback as a SystemError
    caused by it.

    >>> try:
    ...     raise SystemError("returned a result with an exception set") from KeyError("k")
    ... except SystemError as exc:
    ...     print(repr(hidden_cause(exc, KeyError)), hidden_cause(exc, ValueError))
    KeyError('k') None
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, kind):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__
    return None


def _in_bookkeeping(frame) -> bool:
    """Whether `frame`, or a frame it was called from, runs this module's code (a deadline being
    entered or left): a time-out raised there would leave the timers half updated."""
    while frame is not None:
        if frame.f_code.co_filename == __file__:
            return True
        frame = frame.f_back
    return False


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


def _inject(ident: int, exception: type[BaseException] | None) -> None:
    """Raise `exception` in the thread `ident` at its next bytecode (None: cancel one pending)."""
    pending = ctypes.py_object(exception) if exception is not None else ctypes.py_object()  # NULL cancels
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), pending)


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
        if _in_bookkeeping(frame):  # a deadline is being entered or left: the repeat comes back
            return
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
