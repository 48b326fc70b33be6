"""The shared daemon's lifecycle as a real process: lock, stale lock, idle exit, SIGTERM, deleted
project, and the ``codegraph daemon start|list|stop`` commands."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys

from codegraph.mcp import daemon, service, wire
from codegraph.paths import ProjectPaths
from tests.mcp.helpers import CODEGRAPH


def _foreground(root, env, **extra_env):
    """A daemon in the foreground (not detached), its stderr in ``root/../daemon-<n>.err``."""
    err = root.parent / f"daemon-{len(list(root.parent.glob('daemon-*.err')))}.err"
    with open(err, "wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "codegraph.mcp.daemon", str(root)],
            env={**env, **extra_env},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    proc.err_path = err
    return proc


def _wait_listening(root) -> dict:
    assert wire.wait_until(lambda: service.status(root) is not None, 10), "daemon never answered"
    return service.status(root)


def test_a_second_daemon_for_the_same_project_exits_and_leaves_the_first_serving(project, server_env):
    first = _foreground(project, server_env)
    try:
        info = _wait_listening(project)
        assert info["pid"] == first.pid
        second = _foreground(project, server_env)
        assert second.wait(10) == 1
        assert service.status(project)["pid"] == first.pid
    finally:
        first.terminate()
        first.wait(10)


def test_a_stale_lock_left_by_a_dead_daemon_is_cleared(project, server_env):
    paths = ProjectPaths(project)
    dead = subprocess.Popen(["true"])
    dead.wait()
    paths.daemon_pid.write_text(f"{dead.pid}\n")
    proc = _foreground(project, server_env)
    try:
        assert _wait_listening(project)["pid"] == proc.pid
        assert daemon.read_pid(paths) == proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


def test_sigterm_stops_the_daemon_and_removes_its_lock_socket_and_registration(project, server_env, runtime):
    proc = _foreground(project, server_env)
    _wait_listening(project)
    assert list(runtime.glob("*.json"))
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(5) == 0
    paths = ProjectPaths(project)
    assert not paths.daemon_pid.exists() and not paths.daemon_socket.exists()
    assert not list(runtime.glob("*.json"))


def test_an_idle_daemon_exits_on_its_own(project, server_env):
    proc = _foreground(project, server_env, CODEGRAPH_DAEMON_IDLE="0.5")
    _wait_listening(project)
    assert proc.wait(10) == 0
    assert b"idle" in proc.err_path.read_bytes()


def test_the_daemon_exits_when_its_project_directory_is_deleted(project, server_env):
    proc = _foreground(project, server_env)
    _wait_listening(project)
    shutil.rmtree(project / ".codegraph")
    assert proc.wait(10) == 0
    assert not (project / ".codegraph").exists()  # nothing recreated on the way out


def test_a_daemon_for_a_project_without_an_index_refuses_and_creates_nothing(no_index_dir, server_env):
    # after `rm -rf .codegraph` a new daemon (spawned by a session's proxy) recreated .codegraph/ with
    # only daemon.log/pid/sock and served no index; now it says why and exits 1, detached or not
    for detach in ([], ["--detach"]):
        proc = subprocess.run(
            [sys.executable, "-m", "codegraph.mcp.daemon", *detach, str(no_index_dir)],
            env=server_env, capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert proc.returncode == 1
        assert "no index at" in proc.stderr and "codegraph init" in proc.stderr
        assert not (no_index_dir / ".codegraph").exists()


def test_daemon_start_without_an_index_raises_index_missing_and_starts_nothing(no_index_dir):
    import pytest

    from codegraph.errors import IndexMissing

    with pytest.raises(IndexMissing, match="no daemon started"):
        service.start(no_index_dir, timeout=1)
    assert not (no_index_dir / ".codegraph").exists()


def test_a_project_path_too_long_for_a_socket_gets_a_short_socket_path(tmp_path):
    deep = tmp_path.joinpath(*["a-rather-long-directory-name"] * 5)
    sock = ProjectPaths(deep).daemon_socket
    assert len(os.fsencode(sock)) <= 107 and not str(sock).startswith(str(deep))


def test_daemon_commands_start_list_and_stop_a_project_daemon(project, server_env):
    run = lambda *args: subprocess.run(  # noqa: E731 - a local shorthand
        [CODEGRAPH, "daemon", *args], env=server_env, capture_output=True, text=True, timeout=30
    )
    started = run("start", str(project), "--json")
    assert started.returncode == 0, started.stderr
    pid = json.loads(started.stdout)[0]["pid"]
    listed = run("list", "--all")
    assert str(pid) in listed.stdout and str(project) in listed.stdout and "uptime" in listed.stdout
    rows = json.loads(run("list", "--path", str(project), "--json").stdout)
    assert [(r["pid"], r["version"], r["root"]) for r in rows] == [(pid, daemon.__version__, str(project))]
    stopped = run("stop", str(project))
    assert "stopped" in stopped.stdout and str(pid) in stopped.stdout
    assert not wire.pid_alive(pid)
    assert "no codegraph daemon running" in run("list", "--all").stdout


def test_a_daemon_that_cannot_bind_in_the_project_listens_on_the_short_temp_path(project, server_env):
    paths = ProjectPaths(project)
    paths.daemon_socket.mkdir()  # something that is not a socket holds the name
    proc = _foreground(project, server_env)
    try:
        info = _wait_listening(project)
        assert info["socket"] == str(paths.daemon_socket_short)
    finally:
        proc.terminate()
        proc.wait(10)
    assert not paths.daemon_socket_short.exists()


def test_daemons_started_at_the_same_moment_leave_exactly_one_serving(project, server_env):
    procs = [_foreground(project, server_env) for _ in range(3)]
    try:
        serving = _wait_listening(project)["pid"]
        losers = [p for p in procs if p.pid != serving]
        assert len(losers) == 2 and all(p.wait(10) == 1 for p in losers)
        assert service.status(project)["pid"] == serving
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(10)


def test_daemon_stop_also_ends_a_daemon_of_another_version(project, server_env):
    old = (
        "import sys, codegraph; codegraph.__version__ = '0.0.1-old'\n"
        "from codegraph.mcp.daemon import main; sys.exit(main(sys.argv[1:]))\n"
    )
    subprocess.run(
        [sys.executable, "-c", old, "--detach", str(project)], env=server_env, timeout=10, check=True
    )
    paths = ProjectPaths(project)
    assert wire.wait_until(lambda: paths.daemon_socket.exists(), 10)
    pid = daemon.read_pid(paths)
    rows = service.running()
    assert [(r["pid"], r["version"], r.get("answering")) for r in rows] == [(pid, "0.0.1-old", False)]
    assert [r["pid"] for r in service.stop(project)] == [pid]
    assert not wire.pid_alive(pid)


def test_daemon_list_and_stop_default_to_the_current_project_and_all_reaches_the_others(
    project, server_env, tmp_path, runtime
):
    from tests.mcp.conftest import _kill_daemons

    other = (tmp_path / "other").resolve()
    (other / ".codegraph").mkdir(parents=True)
    (other / ".codegraph" / "codegraph.db").write_bytes(b"")
    run = lambda *args, cwd=project: subprocess.run(  # noqa: E731 - a local shorthand
        [CODEGRAPH, "daemon", *args], env=server_env, capture_output=True, text=True, timeout=30, cwd=cwd
    )
    try:
        mine = json.loads(run("start", "--json").stdout)[0]["pid"]
        theirs = json.loads(run("start", "--json", cwd=other).stdout)[0]["pid"]
        listed = run("list", cwd=project / ".codegraph").stdout  # anywhere inside the project
        assert str(mine) in listed and str(theirs) not in listed
        assert "1 more for other projects: `codegraph daemon list --all`" in listed
        everything = run("list", "--all").stdout
        assert str(mine) in everything and str(theirs) in everything
        stopped = run("stop").stdout
        assert str(mine) in stopped and str(theirs) not in stopped
        assert not wire.pid_alive(mine) and wire.pid_alive(theirs)
        assert "no codegraph daemon for" in run("stop").stdout
        assert str(theirs) in run("stop", "--all").stdout and not wire.pid_alive(theirs)
    finally:
        _kill_daemons(runtime, [other])


def test_removing_and_rebuilding_the_index_under_a_running_daemon_leaves_one_daemon(tmp_path, runtime):
    """issue 9: `rm -rf .codegraph && codegraph init` under a running daemon: the folder was back
    before the daemon's check saw it gone, so the old daemon kept running without its lock and socket,
    and the next session started a second daemon for the same project."""
    import time

    from codegraph.index.indexer import index_project
    from tests.conftest import copy_fixture
    from tests.mcp.conftest import _kill_daemons

    root = copy_fixture("python", tmp_path).resolve()
    index_project(ProjectPaths(root), workers=1)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "CODEGRAPH_RUNTIME_DIR": str(runtime),
        "CODEGRAPH_DAEMON_IDLE": "60",
    }
    first = _foreground(root, env)
    try:
        _wait_listening(root)
        time.sleep(0.5)  # the start-up catch-up sync is done
        shutil.rmtree(root / ".codegraph")
        (root / ".codegraph").mkdir()  # `codegraph init` recreates it at once
        index_project(ProjectPaths(root), workers=1)
        assert first.wait(10) == 0, "the old daemon kept running after its index was removed"
        second = _foreground(root, env)  # the next session's daemon
        assert _wait_listening(root)["pid"] == second.pid
        assert [r["pid"] for r in service.running(root)] == [second.pid]
        second.terminate()
        second.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(10)
        _kill_daemons(runtime, [root])
