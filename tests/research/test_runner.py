"""The runner every corpus run shares: deadline, ordered window, local pool, interrupt."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

import pytest

from linkgraph.errors import OptionError
from linkgraph.research.runner import (
    Deadline, JobTimeout, interrupt_on_sigterm, local_map, ordered, worker_init,
)

# ---- the deadline -------------------------------------------------------------------


class _SlowFinaliser:
    """Spends 0.3 s in ``__del__``: a time-out raised there is reported as ignored and lost."""

    def __del__(self):
        end = time.perf_counter() + 0.3
        while time.perf_counter() < end:
            pass


def _swallow_then_spin():
    _SlowFinaliser()  # finalised at once: the first raise lands in __del__ and is swallowed
    end = time.perf_counter() + 3
    while time.perf_counter() < end:
        pass


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_deadline_repeats_a_swallowed_timeout():
    t0 = time.perf_counter()
    with pytest.raises(JobTimeout):
        with Deadline(0.1):
            _swallow_then_spin()
    assert time.perf_counter() - t0 < 2  # the repeat stopped it, not the end of the spin


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_deadline_repeats_a_swallowed_timeout_in_a_thread():
    caught = []

    def work():
        t0 = time.perf_counter()
        try:
            with Deadline(0.1):
                _swallow_then_spin()
        except JobTimeout:
            caught.append(time.perf_counter() - t0)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert len(caught) == 1 and caught[0] < 2


@pytest.mark.parametrize("seconds", [None, 0])
def test_no_deadline_without_seconds(seconds):
    before = signal.getsignal(signal.SIGALRM)
    with Deadline(seconds):
        time.sleep(0.1)
        assert signal.getsignal(signal.SIGALRM) is before


def test_a_finished_block_leaves_no_alarm_behind():
    before = signal.getsignal(signal.SIGALRM)
    with Deadline(0.1):
        pass
    time.sleep(0.3)  # past the limit and several repeats: nothing fires
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_job_timeout_is_no_exception_the_engine_could_swallow():
    with pytest.raises(JobTimeout):
        with Deadline(0.05):
            try:
                time.sleep(2)
            except Exception:  # noqa: BLE001 - what a careless engine does
                pass


# ---- the ordered window ----------------------------------------------------------------


class _Done:
    """A finished future of the fake executor below."""

    def __init__(self, value):
        self.value = value

    def result(self):
        if isinstance(self.value, Exception):
            raise self.value
        return self.value


class _HeadLast:
    """A fake executor on which the oldest item in flight always finishes last.

    It logs ``("submit", item)`` and, through `consume`, ``("yield", value)``, so a test
    sees how many items were in flight whenever one was submitted.
    """

    def __init__(self):
        self.log: list[tuple[str, object]] = []
        self.index: dict[_Done, int] = {}

    def submit(self, item):
        self.log.append(("submit", item))
        fut = _Done(ValueError(f"bad {item}") if item == "bad" else item * 10)
        self.index[fut] = len(self.index)
        return fut

    def wait_any(self, futs):
        head = min(futs, key=self.index.__getitem__)
        return (futs - {head}) or {head}

    def consume(self, results):
        out = []
        for value in results:
            self.log.append(("yield", value))
            out.append(value)
        return out

    def most_in_flight(self) -> int:
        count = most = 0
        for event, _ in self.log:
            count += 1 if event == "submit" else -1
            most = max(most, count)
        return most


def test_ordered_yields_in_input_order_whatever_finishes_first():
    ex = _HeadLast()
    assert ex.consume(ordered(ex.submit, range(10), window=3, wait_any=ex.wait_any)) == [i * 10 for i in range(10)]


def test_ordered_keeps_the_others_running_behind_a_slow_item():
    # the head holds up the output, not the work: every item is submitted before the first yield
    ex = _HeadLast()
    ex.consume(ordered(ex.submit, range(10), window=3, wait_any=ex.wait_any))
    assert [event for event, _ in ex.log[:10]] == ["submit"] * 10


def test_ordered_counting_waiting_results_bounds_what_is_held():
    ex = _HeadLast()
    assert ex.consume(ordered(ex.submit, range(10), window=3, wait_any=ex.wait_any, count_waiting=True)) == \
        [i * 10 for i in range(10)]
    assert ex.most_in_flight() == 3


def test_ordered_reads_its_items_lazily_and_raises_a_failure_in_its_turn():
    ex = _HeadLast()
    taken = []

    def items():
        for item in [1, 2, "bad", 4, 5, 6, 7]:
            taken.append(item)
            yield item

    results = ordered(ex.submit, items(), window=2, wait_any=ex.wait_any, count_waiting=True)
    assert next(results) == 10
    assert taken == [1, 2]  # the window is full: nothing more read
    assert next(results) == 20
    with pytest.raises(ValueError, match="bad bad"):
        next(results)


def test_ordered_refuses_an_empty_window():
    with pytest.raises(OptionError, match="window"):
        ordered(lambda x: _Done(x), [1], window=0)


# ---- the local pool ---------------------------------------------------------------------


def _pid_and_square(x):
    return os.getpid(), x * x


def _worker_signals(_):
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def _pid_or_sleep(x):
    if x == 0:
        return os.getpid()
    time.sleep(30)
    return None


def test_local_map_runs_in_order_in_other_processes():
    results = list(local_map(_pid_and_square, range(20), workers=2, window=3))
    assert [sq for _, sq in results] == [x * x for x in range(20)]
    assert os.getpid() not in {pid for pid, _ in results}


def test_local_map_with_one_worker_runs_here():
    assert list(local_map(_pid_and_square, [3, 1], workers=1)) == [(os.getpid(), 9), (os.getpid(), 1)]


def test_local_map_refuses_no_workers():
    with pytest.raises(OptionError, match="workers"):
        local_map(abs, [1], workers=0)


def test_workers_leave_the_interrupt_to_the_parent():
    # even forked from inside interrupt_on_sigterm, a worker ignores Ctrl-C and dies on SIGTERM
    with interrupt_on_sigterm():
        flags = list(local_map(_worker_signals, range(4), workers=2))
    assert flags == [(True, True)] * 4


def test_worker_init_sets_the_signals_it_says():
    saved = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        worker_init()
        assert _worker_signals(None) == (True, True)
    finally:
        signal.signal(signal.SIGINT, saved[0])
        signal.signal(signal.SIGTERM, saved[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_stopping_a_local_map_terminates_the_work_in_flight():
    # item 0 answers at once, the others would run 30 s: closing the map stops its workers,
    # which are gone (terminated and reaped) long before a sleeper could have finished
    results = local_map(_pid_or_sleep, range(4), workers=2)
    pid = next(results)
    workers = {p.pid for p in multiprocessing.active_children()}
    assert pid in workers and len(workers) == 2
    results.close()
    end = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(map(_alive, workers))


# ---- the interrupt ------------------------------------------------------------------------


def test_sigterm_stops_like_ctrl_c_inside_the_block_only():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        with interrupt_on_sigterm():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler runs at the next bytecode; never reached
    assert signal.getsignal(signal.SIGTERM) is before


def test_interrupt_on_sigterm_outside_the_main_thread_changes_nothing():
    before = signal.getsignal(signal.SIGTERM)
    seen = []

    def work():
        with interrupt_on_sigterm():
            seen.append(signal.getsignal(signal.SIGTERM))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen == [before]
