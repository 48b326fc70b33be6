"""session-start: a detached daemon (or background index) and one line of index status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from codegraph_hooks import session_start
from codegraph_hooks.index_info import index_state

from tests.hooks.conftest import HOOK

FAKE_CODEGRAPH = """#!{python}
import json, os, sys, time
fds = sorted(int(n) for n in os.listdir('/proc/self/fd'))
record = {{"argv": sys.argv[1:], "sid": os.getsid(0), "pid": os.getpid(), "fds": fds, "cwd": os.getcwd(),
          "stdout": os.readlink('/proc/self/fd/1'), "stdin": os.readlink('/proc/self/fd/0')}}
with open({out!r}, "a") as f:
    f.write(json.dumps(record) + "\\n")
time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
"""


def _fake(tmp_path: Path) -> tuple[Path, Path]:
    out = tmp_path / "spawned.jsonl"
    script = tmp_path / "fake-codegraph"
    script.write_text(FAKE_CODEGRAPH.format(python=sys.executable, out=str(out)))
    script.chmod(0o755)
    return script, out


def _wait_for(path: Path, timeout: float = 10.0) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().endswith("\n"):
            return [json.loads(line) for line in path.read_text().splitlines()]
        time.sleep(0.05)
    raise AssertionError(f"{path} never written")


def test_fresh_index_starts_the_daemon_and_reports_file_count(project):
    decision = session_start.decide({"cwd": str(project)}, index_state(project))
    assert decision.spawn == ["daemon", "start", "--path", str(project)]
    line = decision.response["hookSpecificOutput"]["additionalContext"]
    assert line.startswith("codegraph: index of 6 files") and "fresh" in line


def test_old_index_with_changed_sources_starts_a_background_sync_instead(project):
    (project / "pkg" / "a.py").write_text("x = 100\n")
    decision = session_start.decide({"cwd": str(project)}, index_state(project))
    assert decision.spawn == ["sync", "--background", str(project)]
    assert "out of date (1 changed" in decision.response["hookSpecificOutput"]["additionalContext"]


def test_recent_index_with_changes_keeps_the_daemon_which_syncs(project):
    (project / "pkg" / "a.py").write_text("x = 100\n")
    state = index_state(project)
    state.age = 30
    decision = session_start.decide({"cwd": str(project)}, state)
    assert decision.spawn[:2] == ["daemon", "start"]
    assert "1 changed since" in decision.response["hookSpecificOutput"]["additionalContext"]


def test_missing_index_in_a_git_project_starts_a_background_index(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    decision = session_start.decide({"cwd": str(repo)}, None, home=tmp_path / "home")
    assert decision.spawn == ["index", "--background", str(repo)]


def test_no_index_in_home_or_a_plain_folder_does_nothing(tmp_path):
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)
    assert session_start.decide({"cwd": str(home)}, None, home=home) == session_start.Decision(None)
    assert session_start.decide({"cwd": str(tmp_path)}, None, home=home) == session_start.Decision(None)


def test_an_index_being_built_is_reported_with_its_progress_without_spawning_another(project):
    lock = project / ".codegraph" / "index.lock"
    lock.write_text(json.dumps({"pid": os.getpid(), "started": 0}))
    (project / ".codegraph" / "index.progress").write_text(json.dumps({"done": 40, "total": 120}))
    decision = session_start.decide({"cwd": str(project)}, index_state(project))
    assert decision.spawn is None
    assert "(40/120 files parsed)" in decision.response["hookSpecificOutput"]["additionalContext"]


def test_a_stale_index_lock_left_by_a_dead_run_is_ignored(project):
    child = subprocess.Popen(["true"])
    child.wait()
    (project / ".codegraph" / "index.lock").write_text(json.dumps({"pid": child.pid}))
    decision = session_start.decide({"cwd": str(project)}, index_state(project))
    assert decision.spawn[:2] == ["daemon", "start"]


def test_hook_spawns_a_fully_detached_child_and_returns_before_it_ends(project, tmp_path):
    script, out = _fake(tmp_path)
    env = {**os.environ, "CODEGRAPH_BIN": str(script), "FAKE_SLEEP": "5"}
    payload = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name": "SessionStart"})
    leaked_read, leaked_write = os.pipe()  # an inheritable descriptor the agent might hand its hooks
    started = time.monotonic()
    # capture_output makes run() wait for EOF on stdout/stderr: an attached child would hold them 5 s.
    try:
        result = subprocess.run(
            [HOOK, "session-start"],
            input=payload,
            capture_output=True,
            text=True,
            timeout=20,
            env=env,
            pass_fds=(leaked_write,),
        )
    finally:
        os.close(leaked_read)
        os.close(leaked_write)
    elapsed = time.monotonic() - started
    assert result.returncode == 0 and elapsed < 2.5, elapsed
    assert "index of 6 files" in json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    (child,) = _wait_for(out)
    assert child["argv"] == ["daemon", "start", "--path", str(project)]
    assert child["sid"] == child["pid"]  # leader of a new session
    assert child["stdin"] == child["stdout"] == "/dev/null"
    assert child["fds"] == [0, 1, 2, 3]  # 3 is the listdir handle itself
    assert child["cwd"] == str(project)


def test_hook_fails_open_when_codegraph_cannot_start(project):
    env = {**os.environ, "CODEGRAPH_BIN": str(project / "no-such-binary")}
    payload = json.dumps({"cwd": str(project)})
    result = subprocess.run(
        [HOOK, "session-start"], input=payload, capture_output=True, text=True, timeout=20, env=env
    )
    assert result.returncode == 0
    assert "index of 6 files" in result.stdout


def test_session_start_in_an_unindexed_git_project_builds_the_index_in_the_background(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "app.py").write_text("def main():\n    return helper()\n\n\ndef helper():\n    return 1\n")
    env = {k: v for k, v in os.environ.items() if k != "CODEGRAPH_BIN"}
    env["HOME"] = str(tmp_path / "home")
    result = subprocess.run(
        [HOOK, "session-start"],
        input=json.dumps({"cwd": str(repo)}),
        capture_output=True,
        text=True,
        timeout=20,
        env=env,
    )
    assert "building one in the background" in result.stdout
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if index_state(repo).files == 1 and not index_state(repo).indexing:
                break
        except Exception:  # the database is being created
            pass
        time.sleep(0.2)
    assert index_state(repo).files == 1


def test_after_a_no_change_sync_the_line_says_when_the_index_last_changed(tmp_path):
    """issue 9: the line said "updated just now" about an index last changed hours ago, because a
    no-change sync (or any open connection, such as the daemon's) leaves a fresh ``-wal`` file."""
    import sqlite3

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader
    from tests.conftest import copy_fixture

    root = copy_fixture("python", tmp_path).resolve()
    index_project(ProjectPaths(root), workers=1)
    two_hours = 7200
    db = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    db.execute("UPDATE project_metadata SET updated_at = updated_at - ?", (two_hours * 1000,))
    db.execute("UPDATE files SET indexed_at = indexed_at - ?", (two_hours * 1000,))
    db.commit()
    db.close()
    for path in (root / ".codegraph").iterdir():
        os.utime(path, (time.time() - two_hours, time.time() - two_hours))
    with Reader(root):  # a daemon holds the index open while sessions start
        subprocess.run(
            [sys.executable, "-m", "codegraph", "sync", str(root)], check=True, capture_output=True
        )
        line = session_start.decide({"cwd": str(root)}, index_state(root)).response["hookSpecificOutput"]
    assert "updated 2 h ago, fresh" in line["additionalContext"], line
