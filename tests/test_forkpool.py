"""The forked worker pool of `validate --jobs`: order, errors, large messages, stopping."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator

import pytest

from zfrec.forkpool import ForkPool, Passed, WorkerStopped, fork_available

pytestmark = pytest.mark.skipif(not fork_available(), reason="the pool forks its workers")


def square_after(n: int, pause: float) -> int:
    time.sleep(pause)
    return n * n


def fail_on(n: int, bad: int) -> int:
    if n == bad:
        raise ValueError(f"task {n} fails")
    return n


def echo_size(data: bytes, answer_size: int) -> bytes:
    return bytes([len(data) % 251]) * answer_size


def exit_now(code: int) -> None:
    os._exit(code)


def worker_pid(_: int) -> int:
    return os.getpid()


def test_results_come_in_input_order_with_passed_items_in_their_places() -> None:
    # Later tasks finish first (shorter pauses), and the output keeps the input order.
    items: list[tuple[int, float] | Passed] = []
    for n in range(30):
        items.append((n, (30 - n) * 0.001))
        if n % 7 == 0:
            items.append(Passed(f"marker {n}"))
    expected = [i.value if isinstance(i, Passed) else i[0] ** 2 for i in items]
    with ForkPool(3) as pool:
        assert list(pool.ordered(square_after, items, ahead=2)) == expected


def test_every_worker_takes_tasks() -> None:
    with ForkPool(2) as pool:
        pids = set(pool.ordered(worker_pid, [(n,) for n in range(40)], ahead=4))
    assert len(pids) == 2
    assert os.getpid() not in pids


def test_a_task_that_raises_raises_in_its_place_after_the_results_before_it() -> None:
    seen: list[int] = []
    with ForkPool(2) as pool, pytest.raises(ValueError, match="task 5 fails"):
        for value in pool.ordered(fail_on, [(n, 5) for n in range(20)], ahead=4):
            seen.append(value)
    assert seen == [0, 1, 2, 3, 4]


def _finishes(run: Callable[[], None], seconds: float = 120) -> bool:
    """Whether `run` returns within `seconds` (a hang, not a speed, is what is checked); what
    it raises is raised here."""
    failed: list[BaseException] = []

    def guarded() -> None:
        try:
            run()
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=guarded, daemon=True)
    thread.start()
    thread.join(seconds)
    if failed:
        raise failed[0]
    return not thread.is_alive()


def test_large_tasks_and_large_answers_at_once_never_deadlock() -> None:
    # Tasks and answers far over a pipe's buffer: a parent blocked writing a task to a worker
    # that is blocked writing its answer would hang here.
    size = 6 << 20
    tasks = [(bytes([n]) * size, size) for n in range(8)]
    out: list[bytes] = []

    def run() -> None:
        with ForkPool(2) as pool:
            out.extend(pool.ordered(echo_size, tasks, ahead=3))

    assert _finishes(run)
    assert [len(b) for b in out] == [size] * 8
    assert [b[0] for b in out] == [size % 251] * 8


def test_a_worker_that_dies_is_reported_instead_of_waited_for() -> None:
    def run() -> None:
        with ForkPool(2) as pool, pytest.raises(WorkerStopped, match="exit code 3"):
            list(pool.ordered(exit_now, [(3,)], ahead=1))

    assert _finishes(run)


def _children() -> set[int]:
    with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as f:
        return {int(p) for p in f.read().split()}


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc")
def test_stopping_early_leaves_no_worker_behind() -> None:
    before = _children()
    with ForkPool(2) as pool:
        results: Generator[int, None, None] = pool.ordered(
            square_after, [(n, 0.01) for n in range(50)], 4
        )
        assert next(results) == 0
        started = _children() - before
        assert len(started) == 2
        results.close()  # stop reading: the pool is left with tasks out
    assert not (_children() & started)


def test_ctrl_c_is_left_to_the_parent() -> None:
    with ForkPool(1) as pool:
        pid = next(iter(pool.ordered(worker_pid, [(0,)], ahead=1)))
        os.kill(pid, signal.SIGINT)  # as a terminal's Ctrl-C reaches the whole group
        assert list(pool.ordered(square_after, [(4, 0.0)], ahead=1)) == [16]


class _Fussy(Exception):
    """Pickles, but cannot be rebuilt from its pickle (its __init__ wants two arguments)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def raise_fussy(n: int) -> int:
    if n == 2:
        raise _Fussy(f"task {n} is fussy", "ZF999")
    return n


def test_an_exception_the_parent_cannot_rebuild_is_reported_in_its_place() -> None:
    seen: list[int] = []
    with ForkPool(2) as pool, pytest.raises(WorkerStopped, match="task 2 is fussy"):
        for value in pool.ordered(raise_fussy, [(n,) for n in range(6)], ahead=2):
            seen.append(value)
    assert seen == [0, 1]


def test_a_slow_task_holds_back_what_is_taken_from_the_input() -> None:
    # While the first task is slow, the others' answers wait; no more tasks are taken than
    # twice the look-ahead, answered or not.
    taken: list[int] = []

    def items() -> Iterator[tuple[int, float]]:
        for n in range(60):
            taken.append(n)
            yield (n, 0.5 if n == 0 else 0.0)

    with ForkPool(2) as pool:
        results = pool.ordered(square_after, items(), ahead=2)
        assert next(results) == 0
        assert len(taken) <= 2 * (2 * 3) + 1
        assert list(results) == [n * n for n in range(1, 60)]


def test_a_pool_serves_a_second_run_after_one_given_up() -> None:
    with ForkPool(2) as pool:
        first = pool.ordered(square_after, [(n, 0.02) for n in range(20)], ahead=3)
        assert next(first) == 0
        first.close()  # its tasks still out: their answers are dropped when they come
        assert list(pool.ordered(square_after, [(n, 0.0) for n in range(10)], ahead=3)) == [
            n * n for n in range(10)
        ]


def test_leaving_the_block_with_large_answers_unread_does_not_hang() -> None:
    def run() -> None:
        with ForkPool(2) as pool:
            for _ in pool.ordered(echo_size, [(b"x", 1 << 20) for _ in range(8)], ahead=3):
                break  # a clean exit, answers of a megabyte still being written

    assert _finishes(run)
