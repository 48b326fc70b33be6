"""Stopping an index run: Ctrl-C in a real terminal, `kill -9`, and a second command waiting on the lock
(issue 9: Ctrl-C hung with worker tracebacks, `kill -9` printed BrokenPipe tracebacks, a waiting
command said nothing for up to 600 s)."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codegraph.errors import IndexBusy
from codegraph.index.background import index_lock
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from tests.index.test_indexer import rows

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and a pty")


def make_repo(root: Path, files: int = 900) -> ProjectPaths:
    root.mkdir()
    for i in range(files):
        (root / f"m{i}.py").write_text(
            "".join(f"def f{i}_{j}(x):\n    return f{i}_{j - 1}(x) + {j}\n\n" for j in range(60))
        )
    return ProjectPaths(root.resolve())


def children(pid: int) -> set[int]:
    """Live processes whose parent is ``pid`` (from /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.add(int(entry.name))
    return out


def alive(pids: set[int]) -> set[int]:
    def up(pid: int) -> bool:
        try:
            return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    return {p for p in pids if up(p)}


class Terminal:
    """``codegraph ARGS`` running on a real pseudo-terminal (its own session, the pty its controlling
    terminal), so ^C written to it reaches the whole foreground process group as SIGINT."""

    def __init__(self, *args: str):
        # fork+exec in C (subprocess), not pty.fork(): no Python runs in the forked child, where at-fork
        # handlers of a busy test process once kept it from reaching exec; `setsid -c` makes the pty
        # the controlling terminal of a new session
        self.fd, tty = pty.openpty()
        # a test run whose SIGINT is ignored (started with `&` by a shell without job control, or
        # nohup) hands SIG_IGN to every child, and a child that inherits it keeps ignoring ^C, as it
        # should; exec resets a *handled* signal to the default, so a handler is held while spawning:
        # the CLI starts as it does from an interactive shell
        ignored = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            self.proc = subprocess.Popen(
                ["setsid", "-c", sys.executable, "-m", "codegraph", *args],
                stdin=tty,
                stdout=tty,
                stderr=tty,
                env={**os.environ, "PYTHONFAULTHANDLER": "1"},  # SIGABRT prints where a stuck run is
            )
        finally:
            signal.signal(signal.SIGINT, ignored)
        os.close(tty)
        self.pid = self.proc.pid
        self.output = b""
        self.status: int | None = None

    def read_until(self, text: bytes, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while text not in self.output and time.monotonic() < end:
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    self.output += os.read(self.fd, 65536)
                except OSError:  # the child closed the terminal
                    return text in self.output
        return text in self.output

    def wait(self, timeout: float) -> int | None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.read_until(b"\0", 0.05)
            if self.proc.poll() is not None:
                self.read_until(b"\0", 0.2)
                self.status = self.proc.returncode
                return self.status
        return None

    def close(self) -> None:
        if self.status is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.fd)


def test_ctrl_c_stops_an_index_run_within_a_second_keeping_the_last_index_and_releasing_the_lock(tmp_path):
    paths = make_repo(tmp_path / "big")
    index_project(paths, workers=1)
    before = rows(paths.root, "SELECT COUNT(*) FROM nodes") + rows(paths.root, "SELECT COUNT(*) FROM edges")
    term = Terminal("index", str(paths.root))
    try:
        assert term.read_until(b"files/s", 60), term.output  # a frame drawn while workers parse
        workers = children(term.pid)
        assert workers, "the run should parse in worker processes"
        os.write(term.fd, b"\x03")  # Ctrl-C, as the terminal sends it
        sent = time.monotonic()
        rc = term.wait(10)
        took = time.monotonic() - sent
    finally:
        term.close()
    text = term.output.decode(errors="replace")
    assert rc == 130, text
    assert took < 1.0, f"stopped after {took:.2f}s"
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert [ln for ln in text.splitlines() if ln.startswith("codegraph:")] == [
        "codegraph: interrupted; nothing was written, the index is as it was before this run "
        "(`codegraph sync` brings it up to date)"
    ]
    time.sleep(0.3)
    assert not alive(workers), "pool workers outlived the interrupted run"
    assert not paths.index_lock.exists()
    after = rows(paths.root, "SELECT COUNT(*) FROM nodes") + rows(paths.root, "SELECT COUNT(*) FROM edges")
    assert after == before


@pytest.mark.parametrize("moment", ["index folder created", "first worker forked"])
def test_ctrl_c_early_in_a_run_gets_the_same_one_line_answer(tmp_path, moment):
    paths = make_repo(tmp_path / "big", files=900)
    term = Terminal("init", str(paths.root))
    try:
        deadline = time.monotonic() + 120  # a loaded machine's fsyncs can take long; this only waits
        ready = (
            (lambda: paths.dir.exists())
            if moment == "index folder created"
            else (lambda: bool(children(term.pid)))
        )
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.002)
        if not ready():  # say where the run is, to debug a run that never got there
            proc = Path(f"/proc/{term.pid}")
            stack = (
                (proc / "wchan").read_text(),
                [ln for ln in (proc / "status").read_text().splitlines() if ln.startswith(("State", "Sig"))],
            )
            os.kill(term.pid, signal.SIGABRT)
            raise AssertionError((moment, stack, term.wait(5), term.output.decode(errors="replace")))
        os.write(term.fd, b"\x03")
        rc = term.wait(10)
    finally:
        term.close()
    text = term.output.decode(errors="replace")
    assert rc == 130 and "Traceback" not in text and "Aborted" not in text, text
    # the advice fits what is there: `sync` needs the database, which a very early ^C precedes
    said = (
        "interrupted; nothing was written" if paths.db.exists() else "interrupted before an index was created"
    )
    assert f"codegraph: {said}" in text
    assert not paths.index_lock.exists()


@pytest.mark.parametrize(
    "args, line",
    [
        (("status",), "codegraph: interrupted"),
        (("init", "--auto-background"), "codegraph: interrupted; nothing was written"),
        (("init",), "codegraph: interrupted before an index was created; `codegraph init "),
    ],
    ids=["query", "init before the lock", "first init"],
)
def test_ctrl_c_while_a_command_waits_on_git_is_one_line_and_130(tmp_path, args, line):
    """A first init stopped before its index existed said "`codegraph sync` brings it up to date", and
    sync then answered that there is no index."""
    import shutil

    from tests.conftest import git

    (tmp_path / "a.py").write_text("def a():\n    pass\n")
    git(tmp_path, "init", "-q")  # outside a repository no git process starts at all (issue 12)
    if args != ("init",):
        index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "git").write_text(f'#!/bin/sh\nsleep 30\nexec {shutil.which("git")} "$@"\n')
    (shim / "git").chmod(0o755)
    old_path = os.environ["PATH"]
    os.environ["PATH"] = f"{shim}:{old_path}"  # the pty child inherits it
    try:
        term = Terminal(*args, *(["-p", str(tmp_path)] if args[0] == "status" else [str(tmp_path)]))
    finally:
        os.environ["PATH"] = old_path
    try:
        deadline = time.monotonic() + 30
        while not children(term.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert children(term.pid), "the command should be waiting on git"
        os.write(term.fd, b"\x03")
        rc = term.wait(10)
    finally:
        term.close()
    text = term.output.decode(errors="replace")
    assert rc == 130 and "Traceback" not in text and "Aborted" not in text, text
    said = [ln for ln in text.splitlines() if ln.startswith("codegraph:")]
    assert len(said) == 1 and said[0].startswith(line), text


def test_kill_9_of_an_index_run_takes_its_workers_along_without_tracebacks(tmp_path):
    paths = make_repo(tmp_path / "big", files=1500)
    log = tmp_path / "stderr.txt"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "codegraph", "init", str(paths.root)],
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 30
        while len(children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = children(proc.pid)
        assert len(workers) >= 2, "the run should parse in worker processes"
        time.sleep(0.3)
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, as `kill -9 PID` does
        proc.wait()
        deadline = time.monotonic() + 5
        while alive(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(workers), "pool workers outlived their killed parent"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # whatever is left of the run's session
        except ProcessLookupError:
            pass
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "BrokenPipe" not in text, text


def test_a_command_waiting_on_the_index_lock_says_what_it_waits_for_and_how_long(tmp_path):
    (tmp_path / "a.py").write_text("def a():\n    pass\n")
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        paths.index_lock.write_text(f'{{"pid": {holder.pid}, "started": {time.time() - 42}}}')
        sync = subprocess.Popen(
            [sys.executable, "-m", "codegraph", "sync", str(tmp_path)],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        first = sync.stderr.readline()
        assert first.startswith(
            f"codegraph: waiting for the index run already going (pid {holder.pid}, started 4"
        )
        assert "up to 600 s" in first and "Ctrl-C" in first
        assert sync.poll() is None
        holder.kill()
        holder.wait()
        rest = sync.communicate(timeout=30)[1]
        assert sync.returncode == 0 and "up to date" in rest
    finally:
        holder.kill()
        holder.wait()


def test_waiting_on_the_lock_runs_out_with_index_busy(tmp_path):
    paths = ProjectPaths(tmp_path.resolve())
    paths.dir.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    told = []
    try:
        paths.index_lock.write_text(f'{{"pid": {holder.pid}, "started": {time.time()}}}')
        with pytest.raises(IndexBusy, match=f"pid {holder.pid}"):
            with index_lock(paths, wait_seconds=0.5, on_wait=lambda h, s: told.append((h["pid"], s))):
                pass
    finally:
        holder.kill()
        holder.wait()
    assert told == [(holder.pid, 0.5)]
    assert paths.index_lock.exists()  # someone else's lock is never removed


def test_removing_the_index_folder_during_a_run_is_reported_not_claimed_as_indexed(tmp_path):
    import shutil

    paths = make_repo(tmp_path / "big", files=600)
    proc = subprocess.Popen(
        [sys.executable, "-m", "codegraph", "init", str(paths.root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not children(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert children(proc.pid), "the run should be parsing in worker processes"
    shutil.rmtree(paths.dir)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 3, err
    assert "indexed:" not in err and "Traceback" not in err
    assert err.strip() == (
        f"codegraph: {paths.dir} was removed or replaced while indexing, so this run's index is gone; "
        f"run `codegraph init {paths.root}` again"
    )
