"""Keep an index current while a daemon serves it: a watchdog observer, debounced syncs.

- Only source files that discovery could index trigger a sync; ``.codegraph/`` and default-ignored
  trees (node_modules, .git, …) are never watched (no self-triggering). Each directory gets its own
  non-recursive watch, so ignored trees cost no inotify watches; new directories are added as they
  appear. Watches are bounded: past the bound a warning is logged and the rest is not watched.
- The OS is asked only for creates, writes, deletes and moves (watchdog's ``event_filter``): reading the
  tree (grep, find, git status, an agent's Read) costs the daemon nothing.
- A burst of events becomes one sync after ``debounce`` seconds of quiet (default 2 s,
  ``CODEGRAPH_WATCH_DEBOUNCE_MS``, 100 ms–60 s); events during a sync cause one more.
- A sync after nothing but writes to known files re-stats those files instead of walking the tree
  (issue 12); anything else (a create, delete or move, a directory, a rule, partial watching, a
  failed sync) walks, and so does a sync a minute after the last walk, for events the OS dropped.
- While it waits, the watcher parses the files written so far (each once its events have been quiet
  for PREPARSE_SETTLE s, at most PREPARSE_MAX_FILES a burst; ``indexer.preparse``), so that at the
  end of the wait only resolution and the write are left (issue 12: edit → visible without a query
  was debounce + 0.46 s on Django). Nothing is written before the sync; a result is used only while
  the file's stat facts are the ones it was read with.
- ``catch_up()`` reconciles with disk when the daemon opens an index; callers may wait for it
  (``wait_caught_up``) before the first answer.
- Off by default on WSL2 for projects under ``/mnt/<drive>`` (inotify misses Windows-side edits);
  ``CODEGRAPH_NO_WATCH=1`` / ``CODEGRAPH_FORCE_WATCH=1`` override both ways.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from codegraph.config import CONFIG_NAME, load_config
from codegraph.errors import ConfigUnparsable
from codegraph.index.discover import DEFAULT_IGNORED_DIRS
from codegraph.index.languages import is_manifest, language_for
from codegraph.paths import DIR_NAME, ProjectPaths

if TYPE_CHECKING:
    from watchdog.observers.api import BaseObserver

log = logging.getLogger("codegraph.watch")
DEFAULT_DEBOUNCE = 2.0
DEFAULT_MAX_WATCHES = 8192
FULL_SCAN_SECONDS = 60.0
PREPARSE_SETTLE = 0.15  # > discover.RACY_NS: a file this quiet can be trusted by its stat facts
PREPARSE_MAX_FILES = 40  # a bigger burst is parsed by the sync's worker processes


def debounce_seconds(env: dict[str, str] | None = None) -> float:
    """``CODEGRAPH_WATCH_DEBOUNCE_MS`` clamped to 100 ms–60 s (default 2 s)."""
    raw = (env if env is not None else os.environ).get("CODEGRAPH_WATCH_DEBOUNCE_MS")
    try:
        ms = float(raw) if raw else DEFAULT_DEBOUNCE * 1000
    except ValueError:
        ms = DEFAULT_DEBOUNCE * 1000
    return min(60.0, max(0.1, ms / 1000))


def _is_wsl() -> bool:
    try:
        return "microsoft" in Path("/proc/sys/kernel/osrelease").read_text().lower()
    except OSError:
        return False


def watch_decision(
    root: Path, env: Mapping[str, str] | None = None, *, wsl: bool | None = None
) -> tuple[bool, str]:
    """Whether to watch ``root`` and why (for status/tool answers)."""
    env = env if env is not None else os.environ
    if env.get("CODEGRAPH_NO_WATCH") == "1":
        return False, "auto-sync off: CODEGRAPH_NO_WATCH=1"
    if env.get("CODEGRAPH_FORCE_WATCH") == "1":
        return True, "auto-sync on (forced by CODEGRAPH_FORCE_WATCH=1)"
    wsl = _is_wsl() if wsl is None else wsl
    if wsl and re.match(r"^/mnt/[a-zA-Z](/|$)", str(root)):
        return False, (
            "auto-sync off: WSL2 project under /mnt/<drive> (inotify is unreliable there); "
            "set CODEGRAPH_FORCE_WATCH=1 to watch anyway, or run `codegraph sync`"
        )
    return True, "auto-sync on"


def relevant(root: Path, path: str, extensions: dict[str, str] | None = None) -> bool:
    """Would a change at ``path`` (absolute) matter to the index? ``extensions``: the project's
    ``codegraph.json`` map over the built-in one; a change to ``codegraph.json`` itself matters, and
    so does one to a manifest a language reads (``LanguageModule.manifests``) and one to a ``.gitignore``
    (issue 12: an edited rule waited for the next source edit)."""
    try:
        rel = Path(path).relative_to(root).as_posix()
    except ValueError:
        return False
    if rel == CONFIG_NAME:
        return True
    parts = rel.split("/")
    if parts[0] == DIR_NAME or any(p in DEFAULT_IGNORED_DIRS for p in parts[:-1]):
        return False
    if parts[-1] == ".gitignore" or is_manifest(parts[-1]):  # rules deciding what is indexed, how it resolves
        return True
    try:
        return language_for(rel, extensions) is not None
    except ConfigUnparsable:  # an unknown label: the sync this triggers reports it
        return language_for(rel) is not None


def project_extensions(root: Path) -> dict[str, str]:
    """The ``extensions`` of ``root``'s codegraph.json; none when it cannot be read (the next index
    run reports why)."""
    try:
        return load_config(root).extensions
    except ConfigUnparsable:
        return {}


def _graph_events() -> list:
    """The event classes that can change the graph, for ``Observer.schedule(event_filter=…)``.

    watchdog turns the list into the inotify mask, so opens, reads and closes without a write are never
    delivered to this process (watchdog ≥ 5). With the default mask a ``grep -r`` over Django woke the
    daemon ~10^4 times and cost it as much CPU as the grep itself (issue 9, FACTS.md).
    """
    from watchdog import events as ev

    return [
        ev.FileCreatedEvent,
        ev.FileModifiedEvent,
        ev.FileClosedEvent,  # close after a write
        ev.FileDeletedEvent,
        ev.FileMovedEvent,
        ev.DirCreatedEvent,
        ev.DirDeletedEvent,
        ev.DirMovedEvent,
    ]


class Watcher:
    """Watches one project and runs ``sync`` (default: an incremental index) after each burst.

    Attributes:
        syncs: completed sync runs (for tests and status).
        last_error: the last sync's exception text, or None.
    """

    def __init__(
        self,
        paths: ProjectPaths,
        *,
        debounce: float | None = None,
        max_watches: int | None = None,
        sync: Callable[[], object] | None = None,
    ):
        self.paths = paths
        self.root = paths.root
        self.debounce = debounce if debounce is not None else debounce_seconds()
        self.max_watches = max_watches or int(os.environ.get("CODEGRAPH_MAX_WATCHES", DEFAULT_MAX_WATCHES))
        self._sync_fn = sync or self._default_sync
        self._extensions = project_extensions(self.root)  # codegraph.json: re-read when it changes
        self.syncs = 0
        self.last_error: str | None = None
        self.partial = False
        self._observer: BaseObserver | None = None  # set by start(), never cleared
        self._watched: set[str] = set()
        self._dirty = threading.Event()
        self._last_event = 0.0
        self._stop = threading.Event()
        self._caught_up = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        # freshness at query time (issue 12): events are numbered; a query waits for the sync that
        # covers the newest one, and cuts the debounce short instead of answering from the old graph
        self._urgent = threading.Event()
        self._synced = threading.Condition()
        self._event_number = 0
        self._synced_number = 0
        # what the events since the last sync started say (issue 12): files whose content alone
        # changed, or that something else changed; a sync told only of writes re-stats those files
        # instead of walking the tree, with a full walk at least every FULL_SCAN_SECONDS
        self._written: set[str] = set()
        self._structural = False  # the catch-up sync on start walks the tree
        self._last_full_scan = 0.0
        self._sync_written: frozenset[str] | None = None
        # files written since the last sync started, to parse during the wait: path → last event time
        self._preparse = sync is None  # only the default sync reads the results
        self._to_preparse: dict[str, float] = {}
        self._burst_preparsed = 0
        self.preparsed = 0  # results kept for a sync (for tests and status)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Start watching and catch up with disk in the background."""
        from watchdog.observers import Observer

        self._observer = Observer()
        self._add_tree(str(self.root))
        self._observer.start()
        self._thread = threading.Thread(target=self._loop, name="codegraph-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._dirty.set()
        self._urgent.set()  # ends a debounce wait
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
        if self._thread is not None:
            self._thread.join(timeout=30)
        if self._preparse:
            from codegraph.index.indexer import drop_preparsed

            drop_preparsed(str(self.root))

    @property
    def alive(self) -> bool:
        """True while both the observer and the sync loop run."""
        return bool(
            self._observer is not None
            and self._observer.is_alive()
            and self._thread is not None
            and self._thread.is_alive()
            and not self._stop.is_set()
        )

    def wait_caught_up(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) for the start-up reconciliation with disk."""
        return self._caught_up.wait(timeout)

    # ------------------------------------------------------------------ watches
    def _add_tree(self, top: str) -> None:
        from watchdog.events import FileSystemEventHandler

        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event):
                watcher._on_event(event)

        handler = getattr(self, "_handler", None) or Handler()
        self._handler = handler
        for directory, dirs, _ in os.walk(top, followlinks=False):
            dirs[:] = [d for d in dirs if d not in DEFAULT_IGNORED_DIRS and d != DIR_NAME]
            if directory in self._watched:
                continue
            if len(self._watched) >= self.max_watches:
                if not self.partial:
                    log.warning(
                        "watch limit (%d directories) reached under %s: the rest is not watched; "
                        "run `codegraph sync` for changes there",
                        self.max_watches,
                        self.root,
                    )
                self.partial = True
                dirs[:] = []
                return
            # watches are added by start() after it creates the observer, then by its own events
            assert self._observer is not None
            try:
                self._observer.schedule(handler, directory, recursive=False, event_filter=_graph_events())
            except OSError as exc:  # e.g. inotify's max_user_watches
                log.warning("cannot watch %s (%s): partial watching from here on", directory, exc)
                self.partial = True
                dirs[:] = []
                return
            self._watched.add(directory)

    def _on_event(self, event) -> None:
        paths = [event.src_path, getattr(event, "dest_path", "") or ""]
        if event.is_directory:
            if event.event_type in ("created", "moved"):
                target = paths[1] or paths[0]
                rel_parts = (
                    Path(target).relative_to(self.root).parts if target.startswith(str(self.root)) else ()
                )
                if (
                    rel_parts
                    and rel_parts[0] != DIR_NAME
                    and not any(p in DEFAULT_IGNORED_DIRS for p in rel_parts)
                ):
                    with self._lock:
                        self._add_tree(target)
                    self._mark()  # files may have landed before the watch did
            return
        if any(p and Path(p) == self.root / CONFIG_NAME for p in paths):
            self._extensions = project_extensions(self.root)
        if any(p and relevant(self.root, p, self._extensions) for p in paths):
            content_only = event.event_type in ("modified", "closed") and not paths[1]
            name = Path(paths[0]).name
            if content_only and name not in (CONFIG_NAME, ".gitignore"):
                self._mark(Path(paths[0]).relative_to(self.root).as_posix())
            else:
                self._mark()

    def _mark(self, content_of: str | None = None) -> None:
        """Count an event; ``content_of``: the relative path of a file whose content alone changed
        (a write), None for anything else (a file created, deleted or moved, a directory, a rule)."""
        with self._synced:
            self._event_number += 1
            if content_of is None:
                self._structural = True
            else:
                self._written.add(content_of)
                if self._preparse:
                    from codegraph.index.indexer import drop_preparsed

                    self._to_preparse[content_of] = time.monotonic()
                    drop_preparsed(str(self.root), content_of)
        self._last_event = time.monotonic()
        self._dirty.set()

    def _next_preparse(self) -> tuple[str | None, float | None]:
        """(a written file quiet for PREPARSE_SETTLE s, to parse now, or None; seconds until the next
        one is due, or None when none is waiting)."""
        with self._synced:
            if not self._to_preparse or self._burst_preparsed >= PREPARSE_MAX_FILES:
                return None, None
            path, at = min(self._to_preparse.items(), key=lambda item: item[1])
            wait = at + PREPARSE_SETTLE - time.monotonic()
            if wait > 0:
                return None, wait
            del self._to_preparse[path]
            self._burst_preparsed += 1
            return path, None

    def _preparse_file(self, path: str) -> None:
        """Parse one written file for the coming sync (``indexer.preparse``); a result the file
        outdated meanwhile (a new event) is dropped."""
        from codegraph.index.indexer import drop_preparsed, preparse
        from codegraph.index.sensitive import is_secret

        try:
            language = language_for(path, self._extensions)
        except ConfigUnparsable:  # the sync reports it
            return
        if language is None or is_secret(path):
            return
        try:
            kept = preparse(str(self.root), path, *language)
        except Exception:  # the sync parses it and says what went wrong
            log.debug("pre-parse of %s failed", path, exc_info=True)
            return
        with self._synced:
            if path in self._to_preparse:  # written again while being parsed
                drop_preparsed(str(self.root), path)
            elif kept:
                self.preparsed += 1

    def rescan(self) -> None:
        """Count a change the watcher has not seen: a CLI query found the disk differing from a graph
        called current, the edit's events still on their way. The next sync walks the tree."""
        self._mark()

    def flush(self, timeout: float) -> bool:
        """Make the graph include every change seen so far: when events are waiting for their sync,
        start it now (no debounce) and wait for it, at most ``timeout`` s. True when the graph is
        current (nothing was pending, or the sync finished in time)."""
        with self._synced:
            wanted = self._event_number
            if self._synced_number >= wanted:
                return True
            self._urgent.set()
            self._dirty.set()
            return self._synced.wait_for(
                lambda: self._synced_number >= wanted or self._stop.is_set(), timeout
            )

    # ------------------------------------------------------------------ syncing
    def _default_sync(self):
        from codegraph.index.background import index_lock
        from codegraph.index.indexer import index_project

        if not self.paths.db.is_file():
            # The index was removed (`rm -rf .codegraph`): the daemon stops; rebuilding is the user's
            # or the next session's call, not a side effect of an edit (issue 9).
            log.info("no index at %s: not syncing", self.paths.db)
            return None
        with index_lock(self.paths, wait_seconds=300):
            return index_project(self.paths, memo=True, changed=self.written)

    @property
    def written(self) -> frozenset[str] | None:
        """For the sync starting now: the files whose content alone changed since the last sync, or
        None when it must walk the tree (anything else changed, watching is partial, the last sync
        failed, or the last full walk is FULL_SCAN_SECONDS old: a safety net for missed events)."""
        return self._sync_written

    def _run_sync(self) -> None:
        try:
            self._sync_fn()
            self.last_error = None
        except Exception as exc:
            self.last_error = f"{type(exc).__name__}: {exc}"
            log.exception("sync failed")
        self.syncs += 1

    def _loop(self) -> None:
        self._last_full_scan = time.monotonic()
        self._run_sync()  # catch up with disk on start
        self._caught_up.set()
        while not self._stop.is_set():
            self._dirty.wait()
            if self._stop.is_set():
                return
            # quiet period: wait until no event for `debounce` seconds, unless a query is waiting; a
            # query (or stop) wakes the wait at once instead of at the next 20 ms poll (issue 12)
            # the files written so far are parsed meanwhile
            while not self._stop.is_set() and not self._urgent.is_set():
                remaining = self._last_event + self.debounce - time.monotonic()
                if remaining <= 0:
                    break
                path, due = self._next_preparse()
                if path is not None:
                    self._preparse_file(path)
                    continue
                self._urgent.wait(remaining if due is None else min(remaining, due))
            self._dirty.clear()
            self._urgent.clear()
            with self._synced:
                covered = self._event_number  # events up to here are on disk for this sync to see
                written, self._written = self._written, set()
                structural, self._structural = self._structural, False
                self._to_preparse.clear()  # the sync parses what is left
                self._burst_preparsed = 0
            now = time.monotonic()
            if structural or self.partial or now - self._last_full_scan > FULL_SCAN_SECONDS:
                self._sync_written = None
                self._last_full_scan = now
            else:
                self._sync_written = frozenset(written)
            if not self._stop.is_set():
                self._run_sync()
                if self.last_error is not None:
                    self._last_full_scan = 0.0  # what that sync missed, the next walk finds
            with self._synced:
                self._synced_number = max(self._synced_number, covered)
                self._synced.notify_all()


# Watchers running in this process (the daemon), by project root: (watcher or None, why).
_ACTIVE: dict[str, tuple[Watcher | None, str]] = {}


def register(root: Path, watcher: Watcher | None, why: str) -> None:
    """Record this process's watch decision for ``root`` (the daemon calls it when it starts)."""
    _ACTIVE[str(root)] = (watcher, why)


def catch_up_wait(env: dict[str, str] | None = None) -> float:
    """``CODEGRAPH_CATCHUP_WAIT_MS`` in seconds (default 3 s, 0–60 s)."""
    raw = (env if env is not None else os.environ).get("CODEGRAPH_CATCHUP_WAIT_MS", "3000")
    try:
        return min(60.0, max(0.0, float(raw) / 1000))
    except ValueError:
        return 3.0


def before_answer(root: Path) -> str | None:
    """Called before a tool answer in this process: waits (bounded) for the start-up catch-up, and
    returns a line to show when auto-sync is off here, or None when the index is being kept current
    (or no watch decision was made in this process, e.g. a one-off CLI run)."""
    entry = _ACTIVE.get(str(root))
    if entry is None:
        return None
    watcher, why = entry
    if watcher is None:
        return f"Note: {why}; answers are as of the last sync."
    if not watcher.wait_caught_up(catch_up_wait()):
        return "Note: the index is still catching up with recent edits; this answer may miss the newest ones."
    if not watcher.flush(catch_up_wait()):
        return "Note: a sync of the newest edits is still running; this answer may miss them."
    if not watcher.alive:
        return (
            "Note: auto-sync is off (the file watcher stopped); answers are as of the last sync — run "
            "`codegraph sync`."
        )
    if watcher.last_error:
        return f"Note: the last automatic sync failed ({watcher.last_error}); answers are as of the sync before it."
    return None
