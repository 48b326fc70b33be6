"""The no-change fast path of discovery (issue 12): outside git a sync re-reads only the directories whose
inode, mtime or ctime changed since the last walk, and applies every rule (.gitignore contents,
codegraph.json ``exclude``/``include``/``extensions``) afresh. It must never miss a change: each test
below makes one change to real files after a real index and checks the next sync sees it."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from codegraph.index import discover as discover_mod
from codegraph.index import indexer
from codegraph.index.discover import RACY_NS, discover, load_listings
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.store.db import known_sound
from codegraph.store.reader import Reader


def _settle() -> None:
    """Let the tree's last change age past the racy window, so the walk may keep its listings."""
    time.sleep(RACY_NS / 1e9 + 0.05)


@pytest.fixture
def project(tmp_path: Path) -> ProjectPaths:
    root = tmp_path / "proj"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "a.py").write_text("def alpha():\n    return 1\n")
    (root / "pkg" / "sub" / "b.py").write_text("from pkg.a import alpha\n\ndef beta():\n    return alpha()\n")
    (root / "docs").mkdir()
    (root / "docs" / "notes.txt").write_text("not source\n")
    (root / ".gitignore").write_text("*.gen.py\n")
    (root / "pkg" / "made.gen.py").write_text("def generated():\n    pass\n")
    _settle()
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    _settle()  # init made .codegraph/ a moment before listing the root: the next sync lists it again
    index_project(paths, workers=1)
    return paths


def _files(paths: ProjectPaths) -> set[str]:
    with Reader(paths) as reader:
        return {row[0] for row in reader.conn.execute("SELECT path FROM files")}


def _names(paths: ProjectPaths) -> set[str]:
    with Reader(paths) as reader:
        return {row[0] for row in reader.conn.execute("SELECT name FROM nodes WHERE kind = 'function'")}


def _sync(paths: ProjectPaths):
    return index_project(paths, workers=1)


def test_a_no_change_walk_reads_no_directory_again_and_finds_what_a_fresh_walk_finds(project):
    listed = load_listings(project.listings)
    again = discover(project.root, listings=listed)
    fresh = discover(project.root)
    assert again.relisted == 0 and fresh.relisted == len(listed) == 4  # root, pkg, pkg/sub, docs
    assert again.files == fresh.files and again.skipped == fresh.skipped
    assert [f.path for f in again.files] == ["pkg/__init__.py", "pkg/a.py", "pkg/sub/b.py"]


def test_a_new_file_in_an_old_directory_is_found(project):
    (project.root / "pkg" / "sub" / "c.py").write_text("def gamma():\n    pass\n")
    summary = _sync(project)
    assert "pkg/sub/c.py" in _files(project) and "gamma" in _names(project)
    assert summary.parsed == 1


def test_a_new_directory_and_its_files_are_found(project):
    (project.root / "pkg" / "sub" / "deep" / "er").mkdir(parents=True)
    (project.root / "pkg" / "sub" / "deep" / "er" / "d.py").write_text("def delta():\n    pass\n")
    _sync(project)
    assert "pkg/sub/deep/er/d.py" in _files(project) and "delta" in _names(project)


def test_a_deleted_file_and_a_deleted_directory_leave_the_index(project):
    (project.root / "pkg" / "a.py").unlink()
    (project.root / "pkg" / "sub" / "b.py").unlink()
    (project.root / "pkg" / "sub").rmdir()
    summary = _sync(project)
    assert _files(project) == {"pkg/__init__.py"} and summary.removed == 2
    assert "pkg/sub/" not in load_listings(project.listings)


def test_a_gitignore_edited_in_place_takes_effect_though_its_directory_is_unchanged(project):
    root_dir = os.stat(project.root)
    with open(project.root / ".gitignore", "w") as fh:  # in place: the root's entries stay the same
        fh.write("pkg/sub/\n")
    assert os.stat(project.root).st_mtime_ns == root_dir.st_mtime_ns
    _sync(project)
    assert _files(project) == {"pkg/__init__.py", "pkg/a.py", "pkg/made.gen.py"}
    assert "generated" in _names(project) and "beta" not in _names(project)


def test_a_new_gitignore_in_a_subdirectory_takes_effect(project):
    (project.root / "pkg" / "sub" / ".gitignore").write_text("b.py\n")
    _sync(project)
    assert "pkg/sub/b.py" not in _files(project)


def test_a_changed_extensions_mapping_indexes_files_the_walk_had_listed_but_left_out(project):
    (project.root / "pkg" / "legacy.inc").write_text("def included():\n    pass\n")
    _sync(project)
    assert "pkg/legacy.inc" not in _files(project)
    _settle()
    _sync(project)  # the listing of pkg/ with legacy.inc in it is now the one reused
    (project.root / "codegraph.json").write_text(json.dumps({"extensions": {".inc": "python"}}))
    _sync(project)
    assert "pkg/legacy.inc" in _files(project) and "included" in _names(project)


def test_a_changed_include_rule_walks_a_build_directory_it_had_pruned(project):
    (project.root / "build").mkdir()
    (project.root / "build" / "out.py").write_text("def built():\n    pass\n")
    _sync(project)
    assert "build/out.py" not in _files(project)
    _settle()
    _sync(project)
    (project.root / "codegraph.json").write_text(json.dumps({"include": ["build/"]}))
    _sync(project)
    assert "build/out.py" in _files(project) and "built" in _names(project)


def test_a_changed_exclude_rule_drops_a_file_from_an_unchanged_directory(project):
    (project.root / "codegraph.json").write_text(json.dumps({"exclude": ["pkg/a.py"]}))
    _settle()
    _sync(project)
    assert "pkg/a.py" not in _files(project) and "pkg/sub/b.py" in _files(project)


def test_a_file_changed_within_the_same_mtime_with_another_size_is_parsed_again(project):
    target = project.root / "pkg" / "a.py"
    before = os.stat(target)
    target.write_text("def alpha():\n    return 1\n\ndef alpha_two():\n    return 2\n")
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))  # same mtime, another size
    summary = _sync(project)
    assert summary.parsed == 1 and "alpha_two" in _names(project)


def test_a_touch_without_a_content_change_parses_the_file_and_keeps_the_graph(project):
    names, files = _names(project), _files(project)
    later = time.time_ns() + 2_000_000_000
    os.utime(project.root / "pkg" / "a.py", ns=(later, later))
    summary = _sync(project)
    assert summary.parsed == 1 and _names(project) == names and _files(project) == files
    assert _sync(project).changed is False


def test_a_directory_changed_just_before_its_walk_is_read_again_next_time(tmp_path):
    root = tmp_path / "fresh"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("x = 1\n")
    found = discover(root)  # the directories changed a moment ago: a later change could share the tick
    assert "pkg/" not in found.listings and "" not in found.listings
    _settle()
    again = discover(root, listings=found.listings)
    assert again.relisted == 2 and set(again.listings) == {"", "pkg/"}
    assert discover(root, listings=again.listings).relisted == 0


def test_a_directory_replaced_by_another_is_read_again(project):
    sub = project.root / "pkg" / "sub"
    os.rename(sub, project.root / "pkg" / "old")
    (project.root / "pkg" / "sub").mkdir()
    (project.root / "pkg" / "sub" / "e.py").write_text("def epsilon():\n    pass\n")
    _sync(project)
    assert {"pkg/sub/e.py", "pkg/old/b.py"} <= _files(project) and "pkg/sub/b.py" not in _files(project)


def test_an_unreadable_or_damaged_listings_file_costs_a_full_walk_not_a_wrong_answer(project):
    project.listings.write_text('{"version": 1, "dirs": {"": [1, 2')
    assert load_listings(project.listings) == {}
    (project.root / "pkg" / "f.py").write_text("def zeta():\n    pass\n")
    _sync(project)
    assert "pkg/f.py" in _files(project)
    # a whole walk's listings again, but pkg/ (it changed a moment ago: it is read again next time)
    assert set(load_listings(project.listings)) == {"", "pkg/sub/", "docs/"}


def test_a_git_checkout_lists_its_files_through_git_and_keeps_no_listings(tmp_path):
    from tests.conftest import git

    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def a():\n    pass\n")
    git(root, "init", "-q")
    found = discover(root, listings={"": (0, 0, 0, ["stale.py"], [])})
    assert found.used_git and found.listings == {} and [f.path for f in found.files] == ["a.py"]


def test_a_no_change_sync_checks_the_database_only_when_it_changed_since_it_was_known_sound(
    project, monkeypatch
):
    checks = []
    real = indexer._verify
    monkeypatch.setattr(indexer, "_verify", lambda conn: (checks.append(1), real(conn)))
    assert known_sound(project.db)  # written by init from nothing: sound as its writer left it
    assert index_project(project, workers=1, check=True).changed is False
    assert checks == []
    import sqlite3

    time.sleep(0.05)  # past the timestamp tick of the record (see known_sound)
    other = sqlite3.connect(project.db)  # another program writes into the file
    other.execute("UPDATE project_metadata SET updated_at = updated_at + 1 WHERE key = 'index_state'")
    other.commit()
    other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    other.close()
    assert not known_sound(project.db)
    index_project(project, workers=1, check=True)
    assert checks == [1] and known_sound(project.db)  # the check passed: sound again
    index_project(project, workers=1, check=True)
    assert checks == [1]


def test_a_sync_that_writes_over_a_file_not_known_sound_does_not_vouch_for_it(project, monkeypatch):
    project.db.with_name("codegraph.db.sound").unlink()
    (project.root / "pkg" / "a.py").write_text("def alpha():\n    return 3\n")
    index_project(project, workers=1)
    assert not known_sound(project.db)


def test_listings_are_written_only_when_a_directory_was_read_again(project):
    before = os.stat(project.listings).st_mtime_ns
    _sync(project)
    assert os.stat(project.listings).st_mtime_ns == before
    (project.root / "docs" / "more.txt").write_text("x\n")
    time.sleep(0.01)
    _sync(project)
    assert os.stat(project.listings).st_mtime_ns != before
    assert discover_mod.LISTINGS_VERSION == json.loads(project.listings.read_text())["version"]


def test_a_tree_outside_git_starts_no_git_process(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    called = tmp_path / "git-was-called"
    (bin_dir / "git").write_text(f"#!/bin/sh\ntouch {called}\nexit 128\n")
    (bin_dir / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    root = tmp_path / "plain"
    root.mkdir()
    (root / "a.py").write_text("def a():\n    pass\n")
    summary = index_project(ProjectPaths(root.resolve()), workers=1)
    assert summary.files == 1 and not called.exists()
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere.git"))  # git could find a repository now
    discover(root)
    assert called.exists()


def test_a_project_inside_a_parent_repository_is_listed_by_git(tmp_path):
    from tests.conftest import git

    (tmp_path / "repo" / "sub").mkdir(parents=True)
    (tmp_path / "repo" / "sub" / "a.py").write_text("def a():\n    pass\n")
    (tmp_path / "repo" / "sub" / "ignored.py").write_text("def b():\n    pass\n")
    (tmp_path / "repo" / ".gitignore").write_text("ignored.py\n")
    git(tmp_path / "repo", "init", "-q")
    found = discover(tmp_path / "repo" / "sub")
    assert found.used_git and [f.path for f in found.files] == ["a.py"]


def test_a_kept_listings_file_is_parsed_again_only_after_it_was_replaced(project):
    first = load_listings(project.listings, keep=True)
    assert load_listings(project.listings, keep=True) is first
    (project.root / "docs" / "new.txt").write_text("x\n")
    _settle()
    index_project(project, workers=1, memo=True)
    again = load_listings(project.listings, keep=True)
    assert again is not first and again["docs/"][3] == ["new.txt", "notes.txt"]


def test_a_sync_told_which_files_were_written_parses_them_without_walking(project, monkeypatch):
    index_project(project, workers=1, memo=True)  # this process's last discovery
    walks = []
    real = indexer.discover
    monkeypatch.setattr(indexer, "discover", lambda *a, **k: (walks.append(1), real(*a, **k))[1])
    (project.root / "pkg" / "a.py").write_text("def alpha():\n    return 1\n\ndef written():\n    pass\n")
    summary = index_project(project, workers=1, memo=True, changed={"pkg/a.py"})
    assert walks == [] and summary.parsed == 1 and "written" in _names(project)
    assert index_project(project, workers=1, memo=True, changed=set()).changed is False and walks == []


def test_a_sync_told_of_a_file_it_does_not_know_walks_the_tree_instead(project, monkeypatch):
    index_project(project, workers=1, memo=True)
    (project.root / "pkg" / "a.py").unlink()
    (project.root / "pkg" / "new.py").write_text("def newer():\n    pass\n")
    summary = index_project(project, workers=1, memo=True, changed={"pkg/a.py"})  # gone: walk
    assert summary.removed == 1 and _files(project) == {"pkg/__init__.py", "pkg/new.py", "pkg/sub/b.py"}
    summary = index_project(project, workers=1, memo=True, changed={"pkg/made.gen.py"})  # ignored: walk
    assert summary.changed is False


def test_a_sync_told_of_writes_walks_when_the_rules_changed_since_its_last_walk(project):
    index_project(project, workers=1, memo=True)
    (project.root / "codegraph.json").write_text(json.dumps({"exclude": ["pkg/sub/"]}))
    index_project(project, workers=1, memo=True, changed=set())
    assert "pkg/sub/b.py" not in _files(project)


def test_a_no_change_sync_imports_no_language_module(project):
    """Issue 12: the registry's answers about names come from ``.codegraph/names.json``; a fresh
    process that finds nothing changed never imports a language module (a seventh of its work)."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from codegraph.index.indexer import index_project\n"
        "from codegraph.paths import ProjectPaths\n"
        "s = index_project(ProjectPaths(Path(sys.argv[1])), workers=1)\n"
        "loaded = [m for m in sys.modules if m.startswith('codegraph.index.languages.') and m[26:] != 'base']\n"
        "print(s.changed, sorted(loaded))\n"
    )
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", script, str(project.root)], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "[]"]
    assert json.loads(project.names.read_text())["suffixes"][".py"] == [["python", "python"], None]


def test_a_name_table_of_other_code_or_another_extensions_map_is_not_trusted(project, monkeypatch, tmp_path):
    """The table holds while codegraph's version, the ``extensions`` map and every language module file
    are the ones it was made with; then it is dropped whole and the registry asked again."""
    table = json.loads(project.names.read_text())
    table["suffixes"][".py"] = [None, None]  # a lie under the right fingerprint: the walk believes it
    project.names.write_text(json.dumps(table))
    assert discover(project.root, names=project.names).files == []
    (project.root / "codegraph.json").write_text('{"extensions": {".inc": "php"}}')
    found = discover(project.root, names=project.names, extensions={".inc": "php"})
    assert [f.path for f in found.files] == ["pkg/__init__.py", "pkg/a.py", "pkg/sub/b.py"]
    project.names.write_text(json.dumps(table))  # the lie again, now against changed code
    copied = tmp_path / "languages"
    copied.mkdir()
    (copied / "python.py").write_text("# stands in for the package\n")
    monkeypatch.setattr(discover_mod, "LANGUAGE_SOURCES", copied)
    found = discover(project.root, names=project.names)  # other module files: the lie is dropped
    assert [f.path for f in found.files] == ["pkg/__init__.py", "pkg/a.py", "pkg/sub/b.py"]
    table["fingerprint"] = discover_mod._code_fingerprint(None)
    project.names.write_text(json.dumps(table))
    assert discover(project.root, names=project.names).files == []  # made with these files: believed
    os.utime(copied / "python.py", ns=(time.time_ns(), time.time_ns() + 10**9))
    found = discover(project.root, names=project.names)
    assert [f.path for f in found.files] == ["pkg/__init__.py", "pkg/a.py", "pkg/sub/b.py"]


def test_a_name_met_for_the_first_time_is_asked_of_the_registry_and_kept(project):
    (project.root / "pkg" / "web.ts").write_text("export function served() { return 1 }\n")
    (project.root / "package.json").write_text('{"name": "proj"}\n')
    summary = _sync(project)
    assert "pkg/web.ts" in _files(project) and summary.parsed == 1
    table = json.loads(project.names.read_text())
    assert table["suffixes"][".ts"][0] == ["typescript", "typescript"]
    assert table["manifests"]["package.json"] is True and table["manifests"]["notes.txt"] is False


def test_a_no_change_sync_leaves_the_sound_record_as_it_was(project):
    """Issue 12: the record of a sound database is rewritten only when the database file changed."""
    record = project.db.with_name(project.db.name + ".sound")
    before = record.stat()
    time.sleep(0.05)
    assert _sync(project).changed is False
    after = record.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert known_sound(project.db)


def test_a_manifest_rewritten_with_the_same_size_and_mtime_is_seen_by_the_next_sync(tmp_path):
    """Manifests are read and hashed at every sync, never trusted by their stat facts (a tsconfig.json
    is a few hundred bytes: Django sdist's one costs ~1 ms): an edit that keeps size and mtime is
    still a manifest change, and resolution follows it."""
    root = tmp_path / "ts"
    files = {
        "tsconfig.json": '{"compilerOptions": {"paths": {"@u/*": ["one/*"]}}}',
        "one/u.ts": "export function u() { return 1; }\n",
        "two/u.ts": "export function u() { return 2; }\n",
        "main.ts": "import { u } from '@u/u';\nexport function main() { u(); }\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    manifest = root / "tsconfig.json"
    before = manifest.stat()
    manifest.write_text(files["tsconfig.json"].replace("one/*", "two/*"))
    os.utime(manifest, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert manifest.stat().st_size == before.st_size
    summary = _sync(paths)
    assert summary.resolution["reason"] == "manifest tsconfig.json changed"
    with Reader(paths) as reader:
        targets = {
            row[0]
            for row in reader.conn.execute(
                "SELECT t.file_path FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
                " WHERE s.name = 'main' AND e.kind = 'calls'"
            )
        }
    assert targets == {"two/u.ts"}
