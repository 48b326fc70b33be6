"""Two processes resolving one cold index (issue 12): ``resolve`` split with a forked helper.

On a 2-core machine a cold index of django-sdist resolved its 2,800 files' references in the main
process while the second core idled (the index-building thread of ``writer.FirstWrite`` took a
fifth of it). :class:`Forked` forks a helper once ``resolve`` has built the lookup tables (the
helper reads the parent's, copied on write); the parent inserts the files' rows meanwhile, then
both take chunks of files from one queue till it is empty, whichever process is free, so neither
waits for a slow half. The helper sends its files' results (``resolve.FileResult``, marshalled)
through a pipe and exits; the parent puts them in file order (``resolve._shared``), so the graph
is the one a single process writes.

Nothing may hang or be lost: when the helper dies, fails, sends something unreadable or is still
busy long after the parent ran out of chunks, the parent stops it and resolves its files itself.
The queue is a pipe pre-filled with 4-byte chunk numbers: each ``read`` of 4 bytes takes one
chunk, atomically, in either process.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import signal
import struct
import time
from collections.abc import Callable

from codegraph.index.resolve import FileResult, Share

CHUNK_FILES = 16  # files a process takes from the queue at a time
# A helper still busy this long after the parent took the last chunk is stopped (and its files
# resolved by the parent): a helper resolves one chunk and writes its results meanwhile, a small
# fraction of what the parent did, so only a helper that is stuck gets near it.
STALL_FACTOR = 2.0
STALL_MIN_SECONDS = 10.0
_CHUNK = struct.Struct("<I")
QUEUE_BYTES = 4096  # the queue is written whole before the fork: POSIX pipes buffer at least this


def available() -> bool:
    """Whether this platform can fork a helper (POSIX)."""
    return hasattr(os, "fork")


class Forked(Share):
    """A :class:`~codegraph.index.resolve.Share` with a forked helper, for ``resolve(share=)`` over
    ``count`` files; ``meanwhile`` runs in this process right after the fork (a cold index inserts
    its files' rows then). Use it as a context manager: on leaving, a helper still running is
    killed, and the helper is always waited for."""

    def __init__(self, count: int, meanwhile: Callable[[], None] | None = None, *, chunk: int = 0) -> None:
        chunk = chunk or CHUNK_FILES
        self.chunks = [list(range(i, min(i + chunk, count))) for i in range(0, count, chunk)]
        self.meanwhile = meanwhile
        self.pid = 0
        self.queue = self.results = -1
        self.started = 0.0
        self.left: list[int] | None = None  # the chunks this process hands itself (no helper)
        self.helped = 0  # the files whose results the helper sent

    def begin(self, helper: Callable[[], dict[str, FileResult]]) -> None:
        try:
            self._fork(helper)
        except OSError:  # no pipe, no fork: this process takes every chunk
            self.left = list(range(len(self.chunks)))
        if self.meanwhile is not None:
            self.meanwhile()

    def _fork(self, helper: Callable[[], dict[str, FileResult]]) -> None:
        queue = b"".join(_CHUNK.pack(i) for i in range(len(self.chunks)))
        if len(queue) > QUEUE_BYTES:
            raise OSError(f"{len(self.chunks)} chunks do not fit the queue's pipe")
        fds: list[int] = []
        try:
            read, write = os.pipe()
            fds += (read, write)
            os.write(write, queue)  # whole: it fits the pipe's buffer
            os.close(fds.pop())
            results, send = os.pipe()
            fds += (results, send)
            pid = os.fork()
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise
        if pid == 0:  # the helper: it never returns, so nothing of the parent's runs on here
            code = 1
            try:
                os.close(results)
                signal.signal(signal.SIGINT, signal.SIG_DFL)  # a Ctrl-C stops it without a traceback
                self.queue = read
                data = marshal.dumps(helper())
                view = memoryview(data)
                while view:
                    view = view[os.write(send, view) :]
                code = 0
            finally:
                os._exit(code)  # no exit handlers, no flushing of the parent's buffers
        os.close(send)
        self.pid, self.queue, self.results, self.started = pid, read, results, time.monotonic()

    def take(self) -> list[int] | None:
        if self.left is not None:
            return self.chunks[self.left.pop()] if self.left else None
        data = os.read(self.queue, _CHUNK.size)
        if len(data) < _CHUNK.size:
            return None
        return self.chunks[_CHUNK.unpack(data)[0]]

    def gathered(self) -> dict[str, FileResult]:
        """The helper's results; {} when it failed, died, sent something unreadable or stalled
        (still busy STALL_FACTOR times as long after the last chunk as the parent took till then)."""
        if not self.pid:
            return {}
        waited = STALL_FACTOR * (time.monotonic() - self.started)
        data = _read_all(self.results, time.monotonic() + max(STALL_MIN_SECONDS, waited))
        status = _reap(self.pid, time.monotonic() + STALL_MIN_SECONDS if data is not None else 0.0)
        self.pid = 0
        if data is None or status != 0:
            return {}
        try:
            found = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return {}
        if not isinstance(found, dict):
            return {}
        self.helped = len(found)
        return found

    def __enter__(self) -> Forked:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pid:
            _reap(self.pid, 0.0)
            self.pid = 0
        for fd in (self.results, self.queue):
            if fd >= 0:
                os.close(fd)
        self.queue = self.results = -1


def _read_all(fd: int, deadline: float) -> bytes | None:
    """Everything written to pipe ``fd`` till its writer closes it; None when that takes past
    ``deadline`` (monotonic)."""
    parts: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        part = os.read(fd, 1 << 20)
        if not part:
            return b"".join(parts)
        parts.append(part)


def _reap(pid: int, deadline: float) -> int:
    """Wait for ``pid`` till ``deadline`` (monotonic; 0: kill it at once); its exit status, or -1
    when it was killed."""
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.005)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return -1
