"""Watch mode with a real watchdog observer on temp repos."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.index.watch import Watcher, debounce_seconds, watch_decision
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture

DEBOUNCE = 0.3


def names(root: Path, name: str) -> list[str]:
    with Reader(root) as r:
        return [n.file_path for n in r.nodes_named(name)]


def eventually(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.fixture
def watched(tmp_path):
    root = copy_fixture("python", tmp_path)
    (root / "node_modules" / "pkg").mkdir(parents=True)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    watcher = Watcher(paths, debounce=DEBOUNCE)
    watcher.start()
    assert watcher.wait_caught_up(10)
    yield paths.root, watcher
    watcher.stop()


def test_edit_add_delete_and_rename_reach_the_graph_within_debounce_plus_a_second(watched):
    root, watcher = watched
    budget = DEBOUNCE + 1.0
    views = root / "shop" / "views.py"
    views.write_text(views.read_text() + "\n\ndef edited_in():\n    return 1\n")
    assert eventually(lambda: names(root, "edited_in") == ["shop/views.py"], budget)
    (root / "shop" / "fresh.py").write_text("def brand_new():\n    return 2\n")
    assert eventually(lambda: names(root, "brand_new") == ["shop/fresh.py"], budget)
    (root / "shop" / "fresh.py").rename(root / "shop" / "moved.py")
    assert eventually(lambda: names(root, "brand_new") == ["shop/moved.py"], budget)
    (root / "shop" / "moved.py").unlink()
    assert eventually(lambda: names(root, "brand_new") == [], budget)
    assert watcher.alive and watcher.last_error is None


def test_new_directories_are_watched_as_they_appear(watched):
    root, _ = watched
    sub = root / "shop" / "newpkg"
    sub.mkdir()
    time.sleep(0.1)
    (sub / "inner.py").write_text("def deep_one():\n    return 3\n")
    assert eventually(lambda: names(root, "deep_one") == ["shop/newpkg/inner.py"], DEBOUNCE + 1.0)


def test_writes_to_codegraph_dir_and_ignored_trees_trigger_no_sync(watched):
    root, watcher = watched
    time.sleep(DEBOUNCE + 0.3)
    before = watcher.syncs
    (root / ".codegraph" / "scratch.py").write_text("x = 1\n")
    (root / "node_modules" / "pkg" / "index.js").write_text("function f() {}\n")
    (root / "README.md").write_text("docs\n")
    time.sleep(DEBOUNCE + 0.7)
    assert watcher.syncs == before
    assert not any("node_modules" in w or ".codegraph" in w for w in watcher._watched)


def test_a_burst_of_100_edits_becomes_one_or_two_syncs(watched):
    root, watcher = watched
    time.sleep(DEBOUNCE + 0.3)
    before = watcher.syncs
    target = root / "shop" / "views.py"
    base = target.read_text()
    for i in range(100):
        target.write_text(base + f"\n\ndef burst_{i}():\n    return {i}\n")
        time.sleep(0.002)
    assert eventually(lambda: names(root, "burst_99") == ["shop/views.py"], DEBOUNCE + 2.0)
    time.sleep(DEBOUNCE + 0.3)
    assert 1 <= watcher.syncs - before <= 2


def test_watch_limit_gives_partial_watching_with_a_warning(tmp_path, caplog):
    root = tmp_path / "r"
    for i in range(5):
        (root / f"d{i}").mkdir(parents=True)
        (root / f"d{i}" / "m.py").write_text("def f():\n    pass\n")
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    watcher = Watcher(paths, debounce=DEBOUNCE, max_watches=3)
    with caplog.at_level(logging.WARNING, logger="codegraph.watch"):
        watcher.start()
    try:
        assert watcher.partial and len(watcher._watched) == 3
        assert "watch limit" in caplog.text
    finally:
        watcher.stop()


def test_watch_is_off_on_wsl_drive_mounts_unless_forced_and_env_overrides():
    assert watch_decision(Path("/mnt/c/src/app"), {}, wsl=True)[0] is False
    assert watch_decision(Path("/mnt/c/src/app"), {"CODEGRAPH_FORCE_WATCH": "1"}, wsl=True)[0] is True
    assert watch_decision(Path("/home/u/app"), {}, wsl=True)[0] is True
    assert watch_decision(Path("/home/u/app"), {"CODEGRAPH_NO_WATCH": "1"}, wsl=False)[0] is False


def test_debounce_setting_is_clamped():
    assert debounce_seconds({}) == 2.0
    assert debounce_seconds({"CODEGRAPH_WATCH_DEBOUNCE_MS": "5"}) == 0.1
    assert debounce_seconds({"CODEGRAPH_WATCH_DEBOUNCE_MS": "999999"}) == 60.0
    assert debounce_seconds({"CODEGRAPH_WATCH_DEBOUNCE_MS": "abc"}) == 2.0


def test_tool_answers_say_when_auto_sync_is_off_or_the_watcher_died(tmp_path, monkeypatch):
    from codegraph.index import watch
    from codegraph.mcp.dispatch import call_tool

    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    monkeypatch.setattr(watch, "_ACTIVE", {})

    def text() -> str:
        return call_tool("codegraph_explore", {"query": "Query.add_q"}, default_root=paths.root)["content"][
            0
        ]["text"]

    assert not text().startswith("Note:")  # no watch decision in this process: nothing to say
    watch.register(paths.root, None, "auto-sync off: CODEGRAPH_NO_WATCH=1")
    assert text().startswith("Note: auto-sync off: CODEGRAPH_NO_WATCH=1")
    watcher = Watcher(paths, debounce=DEBOUNCE)
    watcher.start()
    watch.register(paths.root, watcher, "auto-sync on")
    assert watcher.wait_caught_up(10)
    assert not text().startswith("Note:")
    watcher.stop()
    assert text().startswith("Note: auto-sync is off (the file watcher stopped)")


def test_the_first_answer_waits_for_the_start_up_catch_up(tmp_path, monkeypatch):
    from codegraph.index import watch

    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    (root / "shop" / "late.py").write_text("def edited_while_no_daemon_ran():\n    return 1\n")
    monkeypatch.setattr(watch, "_ACTIVE", {})
    watcher = Watcher(paths, debounce=DEBOUNCE)
    watcher.start()
    watch.register(paths.root, watcher, "auto-sync on")
    try:
        assert watch.before_answer(paths.root) is None  # returns once caught up
        assert names(root, "edited_while_no_daemon_ran") == ["shop/late.py"]
    finally:
        watcher.stop()


def test_reading_the_tree_delivers_no_events_to_the_handler(watched):
    """grep/find/cat open and close every file: the OS is asked only for events that can change the
    graph, so none of those reach Python (issue 9: a `grep -r` over Django cost the daemon 0.68 s)."""
    import subprocess

    root, watcher = watched
    time.sleep(DEBOUNCE + 0.3)
    seen = []
    original = watcher._on_event
    watcher._on_event = lambda event: (seen.append(event), original(event))
    subprocess.run(["grep", "-r", "def", str(root)], capture_output=True, check=True)
    subprocess.run(["find", str(root), "-name", "*.py"], capture_output=True, check=True)
    subprocess.run(["cat", str(root / "shop" / "views.py")], capture_output=True, check=True)
    time.sleep(0.3)
    assert [(e.event_type, e.src_path) for e in seen] == []
    (root / "shop" / "views.py").write_text("def after_reading():\n    return 1\n")
    assert eventually(lambda: any(e.event_type == "modified" for e in seen), 2.0)  # writes still arrive


def test_an_edit_after_the_index_was_removed_does_not_rebuild_it(watched):
    """`rm -rf .codegraph` is the user's call: the watcher's next sync must not quietly recreate an
    index (the daemon stops, the next session rebuilds it; issue 9)."""
    import shutil

    root, watcher = watched
    time.sleep(DEBOUNCE + 0.3)
    before = watcher.syncs
    shutil.rmtree(root / ".codegraph")
    (root / "shop" / "views.py").write_text("def after_removal():\n    return 1\n")
    assert eventually(lambda: watcher.syncs > before, DEBOUNCE + 2.0)
    assert not (root / ".codegraph").exists() and watcher.last_error is None


def test_a_query_right_after_an_edit_waits_for_its_sync_instead_of_the_debounce(tmp_path):
    """Issue 12: freshness at query time — with a long debounce, flush() starts the sync at once and
    returns when the edit is in the graph; with nothing pending it returns at once."""
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    watcher = Watcher(paths, debounce=30.0)  # no sync would happen on its own within the test
    watcher.start()
    try:
        assert watcher.wait_caught_up(10)
        started = time.monotonic()
        assert watcher.flush(5) is True and time.monotonic() - started < 0.5  # nothing pending
        views = root / "shop" / "views.py"
        views.write_text(views.read_text() + "\n\ndef right_after():\n    return 1\n")
        assert eventually(lambda: watcher._event_number > 0, 5)  # the watcher saw the write
        started = time.monotonic()
        assert watcher.flush(10) is True
        assert time.monotonic() - started < 10
        assert names(paths.root, "right_after") == ["shop/views.py"]
    finally:
        watcher.stop()


def test_a_query_sees_a_new_file_in_an_old_directory_a_deletion_and_an_edited_gitignore(tmp_path):
    """Issue 12: the daemon's syncs re-list only changed directories; each change below reaches the
    graph through the real watcher when a query flushes (the debounce alone would take 30 s)."""
    root = copy_fixture("python", tmp_path)
    (root / ".gitignore").write_text("*.log\n")
    paths = ProjectPaths(root.resolve())
    time.sleep(0.15)  # past the racy window: the walk keeps its listings
    index_project(paths, workers=1)
    watcher = Watcher(paths, debounce=30.0)
    watcher.start()
    try:
        assert watcher.wait_caught_up(10)
        (root / "shop" / "later.py").write_text("def came_later():\n    return 1\n")
        assert eventually(lambda: watcher._event_number > 0, 5)
        assert watcher.flush(10) and names(paths.root, "came_later") == ["shop/later.py"]
        seen = watcher._event_number
        (root / "shop" / "later.py").unlink()
        assert eventually(lambda: watcher._event_number > seen, 5)
        assert watcher.flush(10) and names(paths.root, "came_later") == []
        seen = watcher._event_number
        with open(root / ".gitignore", "a") as fh:  # in place: no directory changes
            fh.write("\nshop/views.py\n")
        assert eventually(lambda: watcher._event_number > seen, 5)
        assert watcher.flush(10)
        with Reader(paths.root) as r:
            assert "shop/views.py" not in {row[0] for row in r.conn.execute("SELECT path FROM files")}
    finally:
        watcher.stop()


def test_a_sync_after_writes_alone_is_told_which_files_and_any_other_change_walks(tmp_path, monkeypatch):
    """Issue 12: the watcher hands the sync the files whose content alone changed; a created file (or a
    move, a delete, a directory) makes it walk, and so does the periodic full walk."""
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    told: list[frozenset[str] | None] = []
    watcher = Watcher(paths, debounce=30.0, sync=lambda: told.append(watcher.written))
    watcher.start()
    try:
        assert watcher.wait_caught_up(10) and told == [None]  # the catch-up walks

        def change(action) -> None:
            seen = watcher._event_number
            action()
            assert eventually(lambda: watcher._event_number > seen, 5)
            time.sleep(0.1)  # the close that follows the write
            assert watcher.flush(10)

        views = root / "shop" / "views.py"
        change(lambda: views.write_text(views.read_text() + "\n# one more line\n"))
        assert told[-1] == frozenset({"shop/views.py"})
        change(lambda: (root / "shop" / "new.py").write_text("x = 1\n"))
        assert told[-1] is None
        monkeypatch.setattr("codegraph.index.watch.FULL_SCAN_SECONDS", 0.0)
        change(lambda: views.write_text(views.read_text() + "\n# and another\n"))
        assert told[-1] is None
    finally:
        watcher.stop()


def _wait_for(watcher: Watcher, attribute: str, value: int, timeout: float = 10) -> bool:
    return eventually(lambda: getattr(watcher, attribute) >= value, timeout)


def test_a_written_file_is_parsed_during_the_debounce_and_the_sync_only_resolves_and_writes(
    tmp_path, monkeypatch
):
    """Issue 12: edit → visible without a query was debounce + 0.46 s on Django; the parse now happens
    while the watcher waits, and the sync after the wait parses nothing itself."""
    from codegraph.index import indexer

    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    watcher = Watcher(paths, debounce=2.0)
    watcher.start()
    try:
        assert watcher.wait_caught_up(10)
        syncs = watcher.syncs
        views = root / "shop" / "views.py"
        views.write_text(views.read_text() + "\n\ndef parsed_early():\n    return 1\n")
        assert _wait_for(watcher, "preparsed", 1)
        assert watcher.syncs == syncs  # parsed before the sync, still within the wait
        parsed_by_sync: list[str] = []
        real = indexer._parse_one
        monkeypatch.setattr(indexer, "_parse_one", lambda job: parsed_by_sync.append(job[1]) or real(job))
        assert eventually(lambda: names(paths.root, "parsed_early") == ["shop/views.py"], 10)
        assert parsed_by_sync == [] and not [key for key in indexer._PREPARSED if key[0] == str(paths.root)]
    finally:
        watcher.stop()


def test_a_write_after_the_preparse_with_the_same_size_and_mtime_is_what_the_graph_shows(tmp_path):
    """The pre-parsed result is used only while the file's inode, size, mtime and ctime are the ones
    it was read with: a rewrite of the same size with its mtime set back still changes ctime."""
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    watcher = Watcher(paths, debounce=30.0)
    watcher.start()
    try:
        assert watcher.wait_caught_up(10)
        views = root / "shop" / "views.py"
        base = views.read_text()
        views.write_text(base + "\n\ndef alpha_first():\n    return 1\n")
        assert _wait_for(watcher, "preparsed", 1)
        before = views.stat()
        # the watcher sees nothing of this rewrite: the sync must tell by the stat facts alone
        watcher._preparse = False
        views.write_text(base + "\n\ndef omega_later():\n    return 1\n")
        os.utime(views, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert views.stat().st_size == before.st_size and views.stat().st_mtime_ns == before.st_mtime_ns
        assert eventually(lambda: watcher._event_number > 0, 5)
        assert watcher.flush(10)
        assert names(paths.root, "omega_later") == ["shop/views.py"]
        assert names(paths.root, "alpha_first") == []
    finally:
        watcher.stop()


def test_a_file_still_being_written_within_the_racy_window_is_not_kept(tmp_path):
    """A result is kept only when the file's last change is older than discover.RACY_NS: a second
    write in the same timestamp tick would leave every stat fact unchanged."""
    from codegraph.index import indexer

    root = copy_fixture("python", tmp_path)
    views = root / "shop" / "views.py"
    views.write_text(views.read_text() + "\n# fresh\n")
    assert indexer.preparse(str(root), "shop/views.py", "python", "python") is False
    time.sleep(0.15)
    assert indexer.preparse(str(root), "shop/views.py", "python", "python") is True
    assert (str(root), "shop/views.py") in indexer._PREPARSED
    indexer.drop_preparsed(str(root), "shop/views.py")
    assert (str(root), "shop/views.py") not in indexer._PREPARSED


def test_a_burst_over_many_files_is_one_sync_and_parses_at_most_a_bounded_number_early(tmp_path):
    """A checkout-sized burst (120 files written in place) stays one sync after the quiet period;
    at most PREPARSE_MAX_FILES of them are parsed during the wait, the rest by the sync."""
    from codegraph.index.watch import PREPARSE_MAX_FILES

    root = copy_fixture("python", tmp_path)
    many = root / "many"
    many.mkdir()
    (many / "__init__.py").write_text("")
    for i in range(120):
        (many / f"m{i}.py").write_text(f"def before_{i}():\n    return {i}\n")
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    watcher = Watcher(paths, debounce=1.0)
    watcher.start()
    try:
        assert watcher.wait_caught_up(10)
        time.sleep(0.3)
        syncs = watcher.syncs
        for i in range(120):
            (many / f"m{i}.py").write_text(f"def after_{i}():\n    return {i}\n")
            time.sleep(0.003)
        assert eventually(lambda: names(paths.root, "after_119") == ["many/m119.py"], 20)
        time.sleep(1.3)
        assert watcher.syncs - syncs == 1
        assert watcher.preparsed <= PREPARSE_MAX_FILES
        assert all(names(paths.root, f"after_{i}") == [f"many/m{i}.py"] for i in range(120))
        assert names(paths.root, "before_0") == []
    finally:
        watcher.stop()
