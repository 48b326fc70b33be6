"""The parse workers' pool (codegraph/index/pool.py): its worker handler sleeps while results wait
unread, and a pool closed with tasks pending still finishes them and joins."""

from __future__ import annotations

import multiprocessing.pool
import os
import struct
import threading
import time

import pytest

from codegraph.index.pool import QuietPool, fork_pool, stop_pool


def _square(x: int) -> int:
    return x * x


def _slow_square(x: int) -> int:
    time.sleep(0.01)
    return x * x


def _noop() -> None:
    pass


def _handler_wakes(monkeypatch, pool_class) -> int:
    """How often the worker handler of a ``pool_class`` pool woke while a busy main thread read
    6,000 results (the GIL-bound reader lets results pile up in the pipe, as the indexer does)."""
    wakes = [0]
    real_wait = multiprocessing.pool.wait

    def counting_wait(*args, **kwargs):
        if "_handle_workers" in threading.current_thread().name:
            wakes[0] += 1
        return real_wait(*args, **kwargs)

    monkeypatch.setattr(multiprocessing.pool, "wait", counting_wait)
    pool = pool_class(2, _noop, (), context=multiprocessing.get_context("fork"))
    try:
        got = []
        for value in pool.imap_unordered(_square, range(6_000), chunksize=8):
            end = time.perf_counter() + 0.0002  # Python work holding the GIL, like _keep_results
            while time.perf_counter() < end:
                pass
            got.append(value)
        assert sorted(got) == [x * x for x in range(6_000)]
    finally:
        pool.close()
        pool.join()
    return wakes[0]


def test_worker_handler_sleeps_while_results_wait_unread(monkeypatch):
    quiet = _handler_wakes(monkeypatch, QuietPool)
    standard = _handler_wakes(monkeypatch, multiprocessing.pool.Pool)
    # the start and the close/drain notices; the standard handler woke hundreds of times here
    assert quiet <= 5, quiet
    if standard <= 50:
        pytest.skip(f"the standard pool did not spin on this run ({standard} wakes): nothing to compare")
    assert quiet < standard


def test_a_pool_closed_with_tasks_pending_finishes_them_and_joins():
    pool = fork_pool(2, _noop, ())
    results = pool.imap_unordered(_slow_square, range(60), chunksize=2)
    pool.close()  # tasks still queued: the drained cache's notice must wake the worker handler
    done = threading.Event()
    joiner = threading.Thread(target=lambda: (pool.join(), done.set()), daemon=True)
    joiner.start()
    assert sorted(results) == [x * x for x in range(60)]
    assert done.wait(5), "join did not return after the last result"


def _pause(seconds: float) -> None:
    time.sleep(seconds)


def test_stop_pool_stops_a_busy_pool_at_once():
    pool = fork_pool(2, _noop, ())
    pending = pool.map_async(_pause, [5.0] * 8)
    started = time.monotonic()
    assert stop_pool(pool, timeout=10)
    assert time.monotonic() - started < 5  # the queued sleeps were dropped, the running ones killed
    assert not pending.ready() or not pending.successful()
    assert not any(w.is_alive() for w in pool._pool)


def test_stop_pool_is_bounded_when_a_result_was_half_written():
    # a worker killed halfway through writing its result leaves the result-handler thread waiting for
    # the rest of the message, and Pool.terminate joins that thread: Ctrl-C during init hung (once in
    # about 150 tries, adversarial pass, stop 28). The half-written message is written here by hand:
    # the length header of a 1,000-byte message, then 10 bytes of it.
    pool = fork_pool(2, _noop, ())
    assert pool.apply(_square, (3,)) == 9  # workers and handlers up
    writer = pool._outqueue._writer
    os.write(writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
    time.sleep(0.2)  # the result handler is in the read now
    started = time.monotonic()
    assert stop_pool(pool, timeout=2) is False
    assert time.monotonic() - started < 5
    deadline = time.monotonic() + 5
    while any(w.is_alive() for w in pool._pool) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(w.is_alive() for w in pool._pool)
