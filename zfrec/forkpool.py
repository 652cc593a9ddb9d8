"""Worker processes fed by one thread over pipes: tasks a few ahead, results in input order.

    with ForkPool(2) as pool:
        for result in pool.ordered(judge, items, ahead=4):   # items: argument tuples, or Passed
            ...

`zfrec validate --jobs` judges a file's pieces this way. multiprocessing.Pool moves every task
through two helper threads of the parent (one pickles and sends, one receives), and the thread
switches cost the parent 0.2 to 0.35 ms of CPU per task, as much as a quarter of what a worker
spends on a piece of eight games. Here the thread that wants the results sends the tasks and
reads the results itself: 0.03 to 0.08 ms per task.

A task's bytes go out without blocking (the parent keeps what a full pipe would not take and
sends it when the pipe drains), so a worker that is busy writing a large result can never be
waiting for a parent that is busy writing it a task. The workers are forked, so they start with
everything imported; where there is no fork, use multiprocessing instead (`fork_available`).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import select
import signal
import struct
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from typing import Any

_HEADER = struct.Struct("!Q")  # the length of the pickle that follows
_PIPE_SIZE = 1 << 20  # asked of Linux for the task pipes: a piece of a file goes in one write


def fork_available() -> bool:
    """Whether this platform can fork workers (Linux, macOS; not Windows)."""
    return "fork" in multiprocessing.get_all_start_methods()


@dataclass(frozen=True, slots=True)
class Passed:
    """An item that goes through `ForkPool.ordered` as it is, in its place among the results."""

    value: Any


class WorkerStopped(RuntimeError):
    """A worker process ended while it still had tasks."""


@dataclass(eq=False)
class _Worker:
    process: Any
    tasks: int  # the write end of its task pipe, non-blocking
    results: int  # the read end of its result pipe
    unsent: deque[memoryview] = field(default_factory=deque)
    busy: int = 0  # tasks sent and not yet answered

    def flush(self) -> None:
        """Write what the task pipe takes now."""
        while self.unsent:
            try:
                written = os.write(self.tasks, self.unsent[0])
            except BlockingIOError:
                return
            except BrokenPipeError:
                raise _stopped(self) from None
            if written == len(self.unsent[0]):
                self.unsent.popleft()
            else:
                self.unsent[0] = self.unsent[0][written:]


class ForkPool:
    """`jobs` forked worker processes, started at once and stopped when the block ends."""

    def __init__(self, jobs: int) -> None:
        context = multiprocessing.get_context("fork")
        self.workers: list[_Worker] = []
        self.numbered = 0  # tasks sent so far, by every call of `ordered`: each its own number
        # Frozen, the objects made before the fork are never scanned by a worker's garbage
        # collector, so their pages stay shared instead of being copied into every worker.
        gc.freeze()
        try:
            for _ in range(jobs):
                self._start(context)
        except BaseException:
            self.close(kill=True)
            raise
        finally:
            gc.unfreeze()

    def _start(self, context: Any) -> None:
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        try:
            _widen(task_w)
            # the parent's ends, of this worker and the ones before: the worker closes them, so
            # that each worker sees the end of its tasks when the parent closes its end
            theirs = [task_w, result_r, *(fd for w in self.workers for fd in (w.tasks, w.results))]
            process = context.Process(target=_serve, args=(task_r, result_w, theirs), daemon=True)
            process.start()
        except BaseException:
            for fd in (task_r, task_w, result_r, result_w):
                os.close(fd)
            raise
        os.close(task_r)
        os.close(result_w)
        os.set_blocking(task_w, False)
        self.workers.append(_Worker(process, task_w, result_r))

    def __enter__(self) -> ForkPool:
        return self

    def __exit__(self, kind: Any, *_: Any) -> None:
        self.close(kill=kind is not None)

    def close(self, *, kill: bool = False) -> None:
        """Stop the workers: at once with `kill`, or when tasks are still out (a worker may be
        writing an answer nobody will read), else once they have read their last task."""
        kill = kill or any(w.busy or w.unsent for w in self.workers)
        for w in self.workers:
            if kill:
                w.process.terminate()
            os.close(w.tasks)  # end of tasks: the worker returns
        for w in self.workers:
            w.process.join()
            os.close(w.results)
        self.workers = []

    def ordered(
        self, func: Callable[..., Any], items: Iterable[tuple[Any, ...] | Passed], ahead: int
    ) -> Generator[Any, None, None]:
        """func(*args) for each tuple of `items`, in a worker, and each Passed's value, in the
        order of `items`. At most `ahead` + 1 tasks per worker are out at once, and twice that
        taken from `items` and not yet given back, answered or not: memory stays bounded
        however slow one task is. A task that raised raises here, in its place."""
        pending: deque[int | Passed] = deque()  # task numbers, and values that pass through
        answers: dict[int, tuple[bool, Any]] = {}
        sent_to: dict[int, _Worker] = {}
        limit = len(self.workers) * (ahead + 1)
        source = iter(items)
        more = True
        while True:
            while more and len(sent_to) < limit and len(sent_to) + len(answers) < 2 * limit:
                item = next(source, None)
                if item is None:
                    more = False
                elif isinstance(item, Passed):
                    pending.append(item)
                else:
                    worker = min(self.workers, key=lambda w: w.busy)
                    self.numbered += 1
                    number = self.numbered
                    _send(worker, (number, func, item))
                    sent_to[number] = worker
                    pending.append(number)
            while pending and (isinstance(pending[0], Passed) or pending[0] in answers):
                head = pending.popleft()
                if isinstance(head, Passed):
                    yield head.value
                    continue
                ok, value = answers.pop(head)
                if not ok:
                    raise value
                yield value
            if not pending:
                if not more:
                    return
                continue
            self._wait(answers, sent_to)

    def _wait(self, answers: dict[int, tuple[bool, Any]], sent_to: dict[int, _Worker]) -> None:
        """Send what waits to be sent, and take the answers that are ready (waiting for one)."""
        poll = select.poll()  # not select(): it cannot watch a descriptor numbered over 1023
        for w in self.workers:
            if w.busy:
                poll.register(w.results, select.POLLIN)
            if w.unsent:
                poll.register(w.tasks, select.POLLOUT)
        ready = dict(poll.poll())
        for w in self.workers:
            if ready.get(w.tasks, 0) & (select.POLLOUT | select.POLLERR):
                w.flush()
            if ready.get(w.results, 0):
                frame = _read_frame(w.results)
                if frame is None:
                    raise _stopped(w)
                number, ok, value = pickle.loads(frame)
                w.busy -= 1
                if sent_to.pop(number, None) is not None:  # else a call given up on: dropped
                    answers[number] = (ok, value)


def _stopped(worker: _Worker) -> WorkerStopped:
    worker.process.join(5)  # it has closed its end of a pipe: it is ending, if not ended
    return WorkerStopped(f"a worker process stopped (exit code {worker.process.exitcode})")


def _send(worker: _Worker, task: tuple[int, Callable[..., Any], tuple[Any, ...]]) -> None:
    worker.unsent.append(memoryview(_frame(task)))
    worker.busy += 1
    worker.flush()


def _serve(tasks: int, results: int, theirs: list[int]) -> None:
    """A worker: run each task read from `tasks`, and write its answer to `results`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for fd in theirs:
        os.close(fd)
    while (frame := _read_frame(tasks)) is not None:
        number, func, args = pickle.loads(frame)
        try:
            answer = (number, True, func(*args))
        except Exception as exc:
            answer = (number, False, exc)
        try:
            data = _frame(answer)
            if not answer[1]:
                pickle.loads(data[_HEADER.size :])  # an exception must be rebuilt in the parent
        except Exception as exc:
            failure = WorkerStopped(f"a result could not be sent back: {answer[2]!r} ({exc})")
            data = _frame((number, False, failure))
        _write_all(results, data)


def _frame(message: Any) -> bytes:
    """`message` pickled, after its length."""
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _read_frame(fd: int) -> bytes | None:
    """One length-prefixed message, or None at the end of the pipe."""
    header = _read_exactly(fd, _HEADER.size)
    if header is None:
        return None
    return _read_exactly(fd, _HEADER.unpack(header)[0])


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, _PIPE_SIZE))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _widen(fd: int) -> None:
    """Ask for a larger pipe buffer where Linux allows it (nothing changes elsewhere)."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)
    except (ImportError, AttributeError, OSError):
        pass
