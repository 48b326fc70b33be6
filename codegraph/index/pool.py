"""The parse workers' process pool: :class:`multiprocessing.pool.Pool` without its busy worker handler.

The standard pool's worker-handler thread (it replaces exited workers and, once the pool is closed
and its tasks are done, tells the workers to stop) waits on the workers' sentinels, its change
notifier *and the result pipe*. It never reads that pipe, so while results wait in it unread (the
result-handler thread waits for the GIL while the main thread turns results into extractions) each
wait returns at once and the thread spins: on a cold index of django-sdist it woke 11,287 times and
took 0.55-0.78 s of the parent's CPU, beside two workers that want both cores, taking the GIL from
the two threads that do the work.

Nothing it does needs a result: the pool's task cache notifies the change notifier when it drains
(``_PoolCache.__delitem__``), and close/terminate notify it too. So here it waits on the sentinels
and the change notifier only, as the standard library's own ``ThreadPool`` does (the same override
of ``_get_sentinels``, CPython 3.10-3.13).
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from multiprocessing.pool import Pool

log = logging.getLogger(__name__)

STOP_SECONDS = 10.0  # how long stop_pool waits for the pool's threads before it leaves them


class QuietPool(Pool):
    """A :class:`~multiprocessing.pool.Pool` whose worker handler does not wake for results."""

    def _get_sentinels(self):
        return [self._change_notifier._reader]


def fork_pool(workers: int, initializer, initargs: tuple) -> QuietPool:
    """A pool of ``workers`` processes forked from this one, each started with ``initializer``."""
    return QuietPool(workers, initializer, initargs, context=multiprocessing.get_context("fork"))


def stop_pool(pool: Pool, timeout: float = STOP_SECONDS) -> bool:
    """Stop ``pool`` now, dropping its queued tasks (Ctrl-C or an error during the parse), waiting at
    most ``timeout`` s. Returns whether it stopped in time.

    ``Pool.terminate`` joins the pool's result-handler thread, which never returns when a worker died
    halfway through writing a result: the thread waits for the rest of the message (a Ctrl-C during
    ``init`` hung once in about 150 tries, adversarial pass, stop 28). So it runs on a daemon thread,
    and a pool still stopping after ``timeout`` is left to the process's exit (the CLI does not wait
    for daemon threads, ``codegraph.cli.entry.leave``)."""

    def stop() -> None:
        pool.terminate()
        pool.join()

    stopper = threading.Thread(target=stop, name="codegraph-pool-stop", daemon=True)
    stopper.start()
    stopper.join(timeout)
    if stopper.is_alive():
        for worker in getattr(pool, "_pool", ()):  # what terminate could not reach: no worker outlives it
            if worker.is_alive():
                worker.kill()
        log.warning("the parse workers' pool did not stop in %.0f s; left to the process's exit", timeout)
        return False
    return True
