"""The shared per-project daemon: one detached process per project root that serves tool calls for
any number of handshake proxies over a Unix socket, keeping the index, parsers and caches warm.

Lifecycle (issue 4): the pid file, held with an exclusive ``flock``, is the lock (a stale one, left by
a dead daemon, is taken over); it exits on SIGTERM/SIGINT, after ``CODEGRAPH_DAEMON_IDLE`` seconds
with no client (default 300), and when its project's ``.codegraph/`` disappears or its pid file is no
longer the one it locked (the folder was deleted and recreated). It logs to
``.codegraph/daemon.log``. While it serves, it watches the tree and syncs the index after each burst of
edits (:mod:`codegraph.index.watch`; ``CODEGRAPH_NO_WATCH=1`` turns that off).

Run detached with :func:`spawn`; ``python -m codegraph.mcp.daemon ROOT`` runs it in the foreground.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from codegraph import __version__
from codegraph.mcp import protocol, wire
from codegraph.paths import ProjectPaths

if TYPE_CHECKING:
    from codegraph.index.watch import Watcher

log = logging.getLogger("codegraph.daemon")

IN_DAEMON = False  # True inside a daemon process (tests' fake handlers read it)
DEFAULT_IDLE_SECONDS = 300.0
WORKERS = 8
_TICK = 0.5


def idle_seconds(env: dict[str, str] | None = None) -> float:
    raw = (env if env is not None else os.environ).get("CODEGRAPH_DAEMON_IDLE", "")
    try:
        return float(raw) if raw else DEFAULT_IDLE_SECONDS
    except ValueError:
        return DEFAULT_IDLE_SECONDS


def read_pid(paths: ProjectPaths) -> int | None:
    try:
        return int(paths.daemon_pid.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _file_id(path: Path) -> tuple[int, int] | None:
    """(device, inode) of ``path``, or None when it is gone."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _acquire_lock(paths: ProjectPaths) -> int | None:
    """Take the daemon lock: the pid file, held with an exclusive ``flock`` for the daemon's life.

    A pid file left by a dead daemon is stale: its lock died with it, so it is taken over and
    rewritten. Returns the open file descriptor (keep it open), or None when a live daemon holds it.
    """
    import fcntl

    for _ in range(3):
        fd = os.open(paths.daemon_pid, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        try:
            same = os.fstat(fd).st_ino == os.stat(paths.daemon_pid).st_ino
        except FileNotFoundError:
            same = False  # the previous holder removed it while exiting: lock the new file
        if not same:
            os.close(fd)
            continue
        stale = os.read(fd, 64).decode(errors="replace").strip()
        if stale:
            log.info("taking over the lock of a daemon that is gone (pid %s)", stale)
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
        return fd
    return None


class Daemon:
    """Serves one project root. ``handler(name, arguments, default_root=...) -> CallToolResult dict``
    is resolved lazily from :func:`wire.resolve_handler` when not given."""

    def __init__(
        self,
        root: Path,
        *,
        handler: wire.Handler | None = None,
        idle: float | None = None,
        watch: bool = False,
    ):
        self.paths = ProjectPaths(Path(root).resolve())
        self.socket_path = self.paths.daemon_socket
        self._handler = handler
        self.idle = idle_seconds() if idle is None else idle
        self.started = time.time()
        self._clients = 0
        self._last_client_left = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="codegraph-call")
        self._listener: socket.socket | None = None
        self._lock_fd: int | None = None
        self._lock_id: tuple[int, int] | None = None  # (device, inode) of the pid file this daemon locked
        self._socket_id: tuple[int, int] | None = None  # and of the socket it bound
        self._watch = watch
        self.watcher: Watcher | None = None  # while the tree is watched
        self._watch_note = "not watching (started without a watcher)" if not watch else "starting"
        self.registry_file = wire.runtime_dir() / f"{os.getpid()}.json"

    # -- handler ---------------------------------------------------------------------------------
    @property
    def handler(self) -> wire.Handler:
        if self._handler is None:
            self._handler = wire.resolve_handler()
        return self._handler

    def status(self) -> dict:
        return {
            "pid": os.getpid(),
            "version": __version__,
            "root": str(self.paths.root),
            "socket": str(self.socket_path),
            "started": self.started,
            "uptime": round(time.time() - self.started, 1),
            "clients": self._clients,
            "watching": self.watcher is not None,
            "watch_note": self._watch_note,
        }

    # -- lifecycle -------------------------------------------------------------------------------
    def serve(self) -> int:
        """Take the lock, listen, serve until stopped. Returns the exit code (0; 1 when another
        daemon already serves this root, or the project has no index: see :func:`no_index`)."""
        missing = no_index(self.paths)
        if missing:
            log.info("%s; exiting", missing)
            return 1
        self._lock_fd = _acquire_lock(self.paths)
        if self._lock_fd is None:
            log.info("another daemon serves %s; exiting", self.paths.root)
            return 1
        lock = os.fstat(self._lock_fd)
        self._lock_id = (lock.st_dev, lock.st_ino)
        try:
            self._listen()
            self._register()
            log.info("daemon %s serving %s on %s", os.getpid(), self.paths.root, self.socket_path)
            threading.Thread(target=self._warm, name="codegraph-warm", daemon=True).start()
            self._accept_loop()
        finally:
            self._cleanup()
        return 0

    def stop(self) -> None:
        self._stop.set()

    def _listen(self) -> None:
        """Bind the first socket path that works (see :func:`wire.socket_paths`)."""
        candidates = wire.socket_paths(self.paths)
        for n, path in enumerate(candidates):
            for stale in candidates[n:]:
                try:
                    stale.unlink()  # we hold the lock: a socket file left here is a dead daemon's
                except OSError:
                    pass  # absent, or not ours to remove: bind reports it
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            old_umask = os.umask(0o077)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                listener.bind(os.fspath(path))
            except OSError:
                listener.close()
                if n == len(candidates) - 1:
                    raise
                log.warning("cannot listen on %s; trying %s", path, candidates[n + 1], exc_info=True)
                continue
            finally:
                os.umask(old_umask)
            listener.listen(64)
            listener.settimeout(_TICK)
            self._listener, self.socket_path = listener, path
            self._socket_id = _file_id(path)
            return

    def _register(self) -> None:
        try:
            self.registry_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = self.registry_file.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.status()))
            os.replace(tmp, self.registry_file)
        except OSError:
            log.warning("could not register in %s", self.registry_file, exc_info=True)

    def _warm(self) -> None:
        try:
            self.handler  # noqa: B018 - importing the handler loads the query layer before the first call
        except Exception:
            log.exception("could not load the tool handler")
        if self._watch and not self._stop.is_set():
            # at once: the start-up catch-up reconciles the index with disk; the first calls wait for it
            # (bounded by CODEGRAPH_CATCHUP_WAIT_MS, issue 6)
            self._start_watcher()

    def _start_watcher(self) -> None:
        """Keep the index current while serving: watch the tree, sync after each burst of edits."""
        try:
            from codegraph.index.watch import Watcher, register, watch_decision

            on, why = watch_decision(self.paths.root)
            self._watch_note = why
            log.info("%s", why)
            if on:
                watcher = Watcher(self.paths)
                watcher.start()
                self.watcher = watcher
            register(self.paths.root, self.watcher, why)
        except Exception:
            log.exception(
                "could not start watching %s; answers stay as fresh as the last sync", self.paths.root
            )

    def _should_exit(self) -> str | None:
        if self._stop.is_set():
            return "stop requested"
        if not self.paths.dir.is_dir():
            return f"project directory {self.paths.dir} is gone"
        if _file_id(self.paths.daemon_pid) != self._lock_id:
            # `rm -rf .codegraph && codegraph init` brings the folder back within one tick: without its
            # lock and socket this daemon is unreachable, and the next session would start a second one.
            return f"its lock file {self.paths.daemon_pid} was removed (the index folder was deleted)"
        with self._lock:
            if self._clients == 0 and self.idle > 0 and time.monotonic() - self._last_client_left > self.idle:
                return f"idle for {self.idle:g} s"
        return None

    def _accept_loop(self) -> None:
        assert self._listener is not None
        while True:
            reason = self._should_exit()
            if reason:
                log.info("exiting: %s", reason)
                return
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                if self._stop.is_set():
                    return
                raise
            conn.settimeout(None)
            threading.Thread(target=self._serve_client, args=(conn,), daemon=True).start()

    def _cleanup(self) -> None:
        if self._listener is not None:
            self._listener.close()
        if self.watcher is not None:
            # Bounded: a sync in progress is abandoned (index writes are atomic), never waited out.
            stopper = threading.Thread(target=self.watcher.stop, daemon=True)
            stopper.start()
            stopper.join(2)
        # Only the socket this daemon bound: after `rm -rf .codegraph` a newer daemon may own the name.
        if self._socket_id is not None and _file_id(self.socket_path) == self._socket_id:
            try:
                self.socket_path.unlink()
            except OSError:
                pass
        try:
            self.registry_file.unlink()
        except OSError:
            pass
        if read_pid(self.paths) == os.getpid():
            try:
                self.paths.daemon_pid.unlink()  # while still holding the lock
            except OSError:
                pass
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        self._pool.shutdown(wait=False, cancel_futures=True)

    # -- one client ------------------------------------------------------------------------------
    def _serve_client(self, conn: socket.socket) -> None:
        send_lock = threading.Lock()
        reader = conn.makefile("rb")

        def reply(message: dict) -> None:
            data = json.dumps(message, separators=(",", ":")).encode() + b"\n"
            with send_lock:
                try:
                    conn.sendall(data)
                except OSError:
                    pass  # the proxy went away; it re-answers in-process if it is still alive

        try:
            line = protocol.read_line(reader)  # LineTooLong is a ValueError: refused below
            theirs = json.loads(line) if line.strip() else {}
            reply(wire.hello(pid=os.getpid(), root=str(self.paths.root), started=self.started))
            if not isinstance(theirs, dict) or not wire.compatible(theirs):
                log.info("refusing client with hello %r", theirs)
                reader.close()
                conn.close()
                return
        except (OSError, ValueError):
            reader.close()
            conn.close()
            return
        with self._lock:
            self._clients += 1
        try:
            while True:
                try:
                    line = protocol.read_line(reader)
                except protocol.LineTooLong as exc:
                    reply(protocol.error(None, protocol.INVALID_REQUEST, str(exc)))
                    continue
                if not line:
                    break
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict):
                    self._dispatch(message, reply)
        except OSError:
            pass
        finally:
            with self._lock:
                self._clients -= 1
                self._last_client_left = time.monotonic()
            reader.close()  # the makefile() holds the socket open until closed too
            conn.close()

    def _call(self, message: dict, reply) -> None:
        """One tool call on a worker thread; always replies (a call never goes unanswered)."""
        try:
            handler = self.handler
        except Exception as exc:
            log.exception("could not load the tool handler")
            text = f"codegraph could not load its tools: {type(exc).__name__}: {exc}"
            reply(protocol.result(message.get("id"), protocol.text_result(text, is_error=True)))
            return
        reply(wire.run_handler(handler, message, self.paths.root))

    def _fresh(self, message: dict, reply) -> None:
        """``daemon/fresh``: bring the graph up to date for a CLI query (as an MCP call does first,
        ``watch.before_answer``); replies ``{"fresh": bool, "note": str | None}`` (issue 12). With
        ``params.rescan`` true, the sync walks the tree first (``Watcher.rescan``)."""
        if self.watcher is None:
            # not watching by decision (auto-sync off): nothing to sync, and no note either — the CLI's
            # own "changed on disk" banner says when an answer is stale, as without a daemon
            reply(protocol.result(message.get("id"), {"fresh": False, "note": None}))
            return
        try:
            from codegraph.index.watch import before_answer

            params = message.get("params")
            if isinstance(params, dict) and params.get("rescan") is True:
                self.watcher.rescan()
            note = before_answer(self.paths.root)
            fresh = note is None and self.watcher is not None  # not yet watching: nothing was synced
        except Exception as exc:
            log.exception("daemon/fresh failed")
            note, fresh = (
                f"Note: the daemon could not bring the index up to date ({type(exc).__name__}).",
                False,
            )
        reply(protocol.result(message.get("id"), {"fresh": fresh, "note": note}))

    def _dispatch(self, message: dict, reply) -> None:
        method, msg_id = message.get("method"), message.get("id")
        if method == "tools/call":
            self._pool.submit(self._call, message, reply)
        elif method == "daemon/fresh":
            self._pool.submit(self._fresh, message, reply)
        elif method == "daemon/status":
            reply(protocol.result(msg_id, {**self.status(), "clients": max(self._clients - 1, 0)}))
        elif method == "daemon/stop":
            reply(protocol.result(msg_id, {"stopping": True, "pid": os.getpid()}))
            self.stop()
        elif "id" in message:
            reply(protocol.error(msg_id, protocol.METHOD_NOT_FOUND, f"daemon: unknown method {method}"))


def spawn(root: Path) -> int:
    """Start a detached daemon for ``root`` (new session, stdio on /dev/null, log in
    ``.codegraph/daemon.log``) and return at once. Returns the launcher's exit status (0: forked).
    The daemon forks away from the launcher, so no zombie is left to the caller."""
    import subprocess

    env = dict(os.environ)
    # The proxy decides which tools its client may call; the shared daemon serves every tool.
    env["CODEGRAPH_MCP_TOOLS"] = "all"
    proc = subprocess.Popen(
        # -c, not -m: running the module as __main__ would import it twice.
        [sys.executable, "-c", "from codegraph.mcp.daemon import main; main()", "--detach", os.fspath(root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        env=env,
        cwd=os.fspath(root),
    )
    return proc.wait()


LOG_MAX_BYTES = 1 << 20


def no_index(paths: ProjectPaths) -> str | None:
    """Why a daemon must not serve ``paths.root``, or None: there is no index to serve. Starting
    anyway would recreate ``.codegraph/`` with only daemon.log/pid/sock after `rm -rf .codegraph`
    (found by a new user), and serve no index; rebuilding is the user's call (issue 9)."""
    if not paths.db.is_file():
        return f"no index at {paths.db} (run `codegraph init`)"
    return None


def _redirect_to_log(paths: ProjectPaths) -> None:
    paths.dir.mkdir(parents=True, exist_ok=True)
    try:
        if paths.daemon_log.stat().st_size > LOG_MAX_BYTES:  # keep one previous log, bounded
            os.replace(paths.daemon_log, paths.daemon_log.with_suffix(".log.1"))
    except OSError:
        pass
    fd = os.open(paths.daemon_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)  # nothing a library prints may reach a socket or a terminal
    os.dup2(fd, 2)
    os.close(fd)
    os.close(devnull)


def main(argv: list[str] | None = None) -> int:
    global IN_DAEMON
    args = list(sys.argv[1:] if argv is None else argv)
    detach = "--detach" in args
    args = [a for a in args if a != "--detach"]
    root = Path(args[0] if args else os.getcwd()).resolve()
    paths = ProjectPaths(root)
    missing = no_index(paths)
    if missing:  # before the log is opened: that would create .codegraph/
        print(f"codegraph daemon: {missing}; not starting", file=sys.stderr)
        raise SystemExit(1)  # spawn runs main() from -c, where a returned code would be dropped
    if detach:
        if os.fork() > 0:
            os._exit(0)  # the launcher returns at once; the daemon is reparented (no zombie)
        os.setsid()
        _redirect_to_log(paths)
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format=f"%(asctime)s daemon[{os.getpid()}] %(message)s"
    )
    IN_DAEMON = True
    daemon = Daemon(root, watch=True)

    def on_signal(signum, _frame):
        log.info("signal %d", signum)
        daemon.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        code = daemon.serve()
    except Exception:
        log.exception("daemon crashed")
        code = 2
    logging.shutdown()
    os._exit(code)  # a call still running in a worker must not keep a stopped daemon alive


if __name__ == "__main__":
    # Run the imported module's main, not this __main__ copy's, so IN_DAEMON is set where importers see it.
    from codegraph.mcp.daemon import main as _main

    sys.exit(_main())
