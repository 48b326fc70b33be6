"""A cold index resolved by two processes (codegraph.index.fork, issue 12) writes the graph one
process writes, whatever happens to the forked helper."""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from codegraph.index import fork, indexer
from codegraph.index.extract import extract
from codegraph.index.indexer import index_project
from codegraph.index.resolve import resolve
from codegraph.paths import ProjectPaths

pytestmark = pytest.mark.skipif(not fork.available(), reason="needs os.fork")

FILES = 48  # three chunks of CHUNK_FILES and more


def _project(root: Path) -> None:
    """FILES modules that import, subclass and call each other, with calls that resolve to nothing."""
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for i in range(FILES):
        prev = (i - 1) % FILES
        body = [
            f"from pkg.m{prev} import C{prev}, f{prev}",
            "import pkg.m0 as first",
            "",
            "",
            f"class C{i}(C{prev}):" if i else "class C0:",
            "    def run(self):",
            f"        self.step{i}()",
            f"        return f{prev}()",
            "",
            f"    def step{i}(self):",
            "        missing_everywhere()",
            "        return first.f0()",
            "",
            "",
            f"def f{i}():",
            f"    c = C{i}()",
            "    c.run()",
            "    return undefined_name(c)",
        ]
        (pkg / f"m{i}.py").write_text("\n".join(body) + "\n")


def _dump(root: Path) -> dict[str, list]:
    """Every row resolution decides, ids included (an edge's row id too), sorted."""
    conn = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    try:
        return {
            table: sorted(map(repr, conn.execute(f"SELECT {columns} FROM {table}")))
            for table, columns in (
                ("nodes", "id, kind, name, qualified_name, file_path, start_line"),
                ("edges", "id, source, target, kind, line, col, metadata"),
                ("unresolved_refs", "id, from_node_id, reference_name, reference_kind, line, col, file_path"),
                ("cgpy_resolved", "*"),
                ("project_metadata", "key, value"),
            )
        }
    finally:
        conn.close()


def _index(root: Path, monkeypatch, *, forks: int | None, failing: bool = False) -> tuple[dict, int]:
    """Index ``root`` afresh with the fork threshold at ``forks`` files (None: never); the dump and
    how many helpers were forked (``failing``: one that sends nothing)."""
    monkeypatch.setattr(indexer, "FORK_MIN_FILES", forks if forks is not None else 10**9)
    monkeypatch.setattr(indexer, "FORK_MIN_CORES", 0.0)  # however loaded the machine is
    started = []
    real = fork.Forked._fork

    def counted(self, helper):
        started.append(1)
        return real(self, helper)

    monkeypatch.setattr(fork.Forked, "_fork", counted)
    summary = index_project(ProjectPaths(root.resolve()), full=True, workers=2)
    assert bool(summary.resolution.get("helper_files")) == (forks is not None and not failing)
    dump = _dump(root)
    for path in (root / ".codegraph").iterdir():
        path.unlink()
    dump["project_metadata"] = [row for row in dump["project_metadata"] if "indexed_at'" not in row]
    return dump, len(started)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    _project(root)
    return root


@pytest.fixture
def serial(project: Path, monkeypatch) -> dict:
    dump, forks = _index(project, monkeypatch, forks=None)
    assert forks == 0
    assert any("'calls'" in row for row in dump["edges"]) and dump["unresolved_refs"]
    return dump


def test_a_cold_index_resolved_with_a_forked_helper_writes_the_graph_one_process_writes(
    project, serial, monkeypatch
):
    dump, forks = _index(project, monkeypatch, forks=1)
    assert forks == 1
    assert dump == serial


def _in_helper(monkeypatch, tmp_path: Path, act) -> dict[str, list]:
    """Make the helper (not this process) ``act`` when it asks for a chunk after its first, with
    chunks of one file; the parent takes none till the helper has one. What the parent took and
    gathered is kept."""
    parent = os.getpid()
    flag = tmp_path / "helper-took-one"
    real_take, real_gathered = fork.Forked.take, fork.Forked.gathered
    seen: dict[str, list] = {"asked": [], "taken": [], "gathered": []}

    def take(self):
        if os.getpid() != parent:
            seen["asked"].append(1)
            if len(seen["asked"]) == 2:
                act()
            chunk = real_take(self)
            flag.touch()
            return chunk
        for _ in range(3000):
            if flag.exists():
                break
            time.sleep(0.01)
        chunk = real_take(self)
        if chunk is not None:
            seen["taken"].append(chunk)
        return chunk

    def gathered(self):
        seen["gathered"].append(real_gathered(self))
        return seen["gathered"][-1]

    monkeypatch.setattr(fork, "CHUNK_FILES", 1)
    monkeypatch.setattr(fork.Forked, "take", take)
    monkeypatch.setattr(fork.Forked, "gathered", gathered)
    return seen


def _raise() -> None:
    raise RuntimeError("the helper fails")


@pytest.mark.parametrize(
    "act",
    [
        pytest.param(_raise, id="raises"),
        pytest.param(lambda: os.kill(os.getpid(), signal.SIGKILL), id="killed"),
        pytest.param(lambda: os._exit(0), id="exits-without-sending"),
    ],
)
def test_a_helper_that_fails_leaves_its_files_to_the_parent_and_the_graph_whole(
    project, serial, monkeypatch, tmp_path, act
):
    seen = _in_helper(monkeypatch, tmp_path, act)
    dump, forks = _index(project, monkeypatch, forks=1, failing=True)
    assert forks == 1
    assert seen["gathered"] == [{}]  # nothing came back
    assert len(seen["taken"]) < FILES + 1  # the helper took some files: the parent resolved them after
    assert dump == serial


def test_a_helper_that_stalls_is_stopped_and_its_files_resolved_by_the_parent(
    project, serial, monkeypatch, tmp_path
):
    monkeypatch.setattr(fork, "STALL_MIN_SECONDS", 0.5)
    monkeypatch.setattr(fork, "STALL_FACTOR", 0.0)
    seen = _in_helper(monkeypatch, tmp_path, lambda: time.sleep(3600))
    began = time.monotonic()
    dump, forks = _index(project, monkeypatch, forks=1, failing=True)
    assert time.monotonic() - began < 60
    assert forks == 1
    assert seen["gathered"] == [{}]
    assert len(seen["taken"]) < FILES + 1
    assert dump == serial
    with pytest.raises(ChildProcessError):  # the helper was waited for: no child is left
        os.waitpid(-1, os.WNOHANG)


def test_an_interrupted_parent_stops_its_helper(project, monkeypatch):
    monkeypatch.setattr(indexer, "FORK_MIN_FILES", 1)
    monkeypatch.setattr(indexer, "FORK_MIN_CORES", 0.0)
    helpers: list[int] = []

    def interrupted(self):
        helpers.append(self.pid)
        raise KeyboardInterrupt

    monkeypatch.setattr(fork.Forked, "gathered", interrupted)
    with pytest.raises(KeyboardInterrupt):
        index_project(ProjectPaths(project.resolve()), workers=2)
    assert len(helpers) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(helpers[0], os.WNOHANG)


def test_small_projects_and_a_single_worker_resolve_in_one_process(project, monkeypatch):
    forked = []
    monkeypatch.setattr(fork.Forked, "_fork", lambda self, helper: forked.append(1))
    monkeypatch.setattr(indexer, "FORK_MIN_CORES", 0.0)
    index_project(ProjectPaths(project.resolve()), workers=2)  # 49 files: under FORK_MIN_FILES
    monkeypatch.setattr(indexer, "FORK_MIN_FILES", 1)
    index_project(ProjectPaths(project.resolve()), full=True, workers=1)
    assert forked == []


def test_a_resolution_after_a_parse_that_got_about_one_core_stays_in_one_process(project, monkeypatch):
    forked = []
    monkeypatch.setattr(fork.Forked, "_fork", lambda self, helper: forked.append(1))
    monkeypatch.setattr(indexer, "FORK_MIN_FILES", 1)
    monkeypatch.setattr(indexer, "FORK_MIN_CORES", 64.0)  # more than the workers can have had
    summary = index_project(ProjectPaths(project.resolve()), workers=2)
    assert forked == [] and "helper_files" not in summary.resolution


class _Chunks:
    """An in-process Share handing out the chunks at ``taken`` of ``chunks``. As the helper
    (``others`` None) it runs the helper's work at once and keeps its results, then hands out no
    chunk; otherwise ``gathered`` gives ``others``."""

    def __init__(self, chunks: list[list[int]], taken: list[int], others=None) -> None:
        self.left = [chunks[i] for i in taken]
        self.others = others
        self.results: dict = {}

    def begin(self, helper) -> None:
        if self.others is None:
            self.results = helper()

    def take(self):
        return self.left.pop(0) if self.left else None

    def gathered(self):
        return self.others or {}


def test_shared_resolution_puts_both_runs_results_in_file_order_and_resolves_what_neither_did(project):
    files = sorted(
        (extract(p.relative_to(project).as_posix(), p.read_bytes(), "python") for p in project.rglob("*.py")),
        key=lambda fx: fx.path,
    )
    whole = resolve(files)
    chunks = [list(range(i, min(i + 5, len(files)))) for i in range(0, len(files), 5)]
    helper = _Chunks(chunks, [1, 2, 5, 6, 8])
    resolve(files, share=helper)
    assert set(helper.results) == {files[i].path for c in (1, 2, 5, 6, 8) for i in chunks[c]}
    merged = resolve(files, share=_Chunks(chunks, [0, 4, 9], others=helper.results))  # 3 and 7: neither
    assert merged.edges == whole.edges
    assert merged.unresolved == whole.unresolved
    assert merged.per_file == whole.per_file
    assert list(merged.per_file) == list(whole.per_file)
    assert merged.unresolved_by_language == whole.unresolved_by_language
    assert merged.resolved_refs == whole.resolved_refs
