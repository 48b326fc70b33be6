"""Background indexing: detached run with a lock, progress in status, joining, crash leaves the last index."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from codegraph.index import background
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.status import status
from codegraph.render import render
from codegraph.store.reader import Reader


def big_repo(root: Path, files: int = 1500) -> ProjectPaths:
    root.mkdir()
    for i in range(files):
        (root / f"m{i}.py").write_text(
            "".join(
                f"def f{i}_{j}(x):\n    return f{i}_{j - 1}(x)\n\n"
                if j
                else f"def f{i}_{j}(x):\n    return x\n\n"
                for j in range(40)
            )
        )
    return ProjectPaths(root.resolve())


def wait_until(predicate, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_background_index_runs_detached_reports_progress_and_a_second_request_joins(tmp_path):
    paths = big_repo(tmp_path / "repo")
    (paths.root / "m0.py").write_text("def only():\n    return 1\n")
    index_project(ProjectPaths(paths.root), workers=1)
    for i in range(1500):
        (paths.root / f"m{i}.py").write_text(f"def g{i}():\n    return {i}\n" * 30)
    first = background.start_background(paths, "index")
    assert not first.joined
    assert wait_until(lambda: background.lock_holder(paths) is not None)
    second = background.start_background(paths, "index")
    assert second.joined and second.pid == first.pid
    with Reader(paths) as reader:
        running = status(reader)
    assert running.running is not None and running.running["pid"] == first.pid
    assert "indexing now" in render(running)
    assert wait_until(lambda: background.lock_holder(paths) is None, timeout=120)
    with Reader(paths) as reader:
        assert reader.metadata()["index_state"] == "complete"
        assert reader.nodes_named("g1499")


def test_cli_background_returns_at_once_and_the_index_appears(tmp_path):
    root = tmp_path / "small"
    root.mkdir()
    (root / "a.py").write_text("def a():\n    return 1\n")
    proc = subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(root), "--background"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "in the background" in proc.stderr
    paths = ProjectPaths(root.resolve())
    assert wait_until(lambda: paths.db.exists() and background.lock_holder(paths) is None)
    with Reader(paths) as reader:
        assert [n.name for n in reader.nodes_named("a")] == ["a"]


def test_a_killed_background_run_leaves_the_last_good_index_and_a_stale_lock_is_cleared(tmp_path):
    paths = big_repo(tmp_path / "repo")
    index_project(paths, workers=1)
    with Reader(paths) as reader:
        before = reader.counts()
    started = background.start_background(paths, "index")
    assert wait_until(lambda: (paths.dir / "index.progress").exists())
    os.killpg(started.pid, signal.SIGKILL)
    assert wait_until(lambda: background.lock_holder(paths) is None)
    with Reader(paths) as reader:
        assert reader.counts() == before
        text = render(status(reader))
    assert "did not finish" in text
    assert background.try_lock(paths)  # the stale lock does not block the next run
    background.release_lock(paths)
