"""Why a file is not indexed, or its source not shown, is one reason in the same words in every command
(issue 9: an unreadable .py was told to be read "directly" as a config/docs file; a symlink leading out
was "not an indexed file" in the file view but "symlink outside root" in `files`)."""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
import traceback
from pathlib import Path

import pytest

from codegraph.errors import CodegraphError
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query import file_view
from codegraph.query.files import files
from codegraph.query.node import node
from codegraph.render import render
from codegraph.store.reader import Reader

NOBODY = 65534


def as_unprivileged(fn):
    """``fn()`` as a user file permissions apply to: here when not root; as root, in a forked child that
    drops to uid/gid 65534 (it cannot import anything new: the interpreter lives under /root)."""
    if os.geteuid() != 0:
        return fn()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            out = pickle.dumps(("ok", fn()))
        except BaseException as exc:
            out = pickle.dumps(("error", f"{exc!r}\n{traceback.format_exc()}"))
        with os.fdopen(write_end, "wb") as fh:
            fh.write(out)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as fh:
        data = fh.read()
    os.waitpid(pid, 0)
    status, value = pickle.loads(data)
    if status != "ok":
        raise AssertionError(f"in the unprivileged child: {value}")
    return value


def answers(root: Path) -> dict[str, str]:
    """What `files`, the file view of locked.py / link.py and `node a_func` say (each as rendered)."""
    out = {}
    with Reader(root) as reader:
        out["files"] = render(files(reader))
        for name in ("locked.py", "link.py"):
            try:
                out[name] = render(
                    file_view.file_view(reader.root, reader, file_view.FileViewRequest(file=name))
                )
            except CodegraphError as exc:
                out[name] = str(exc)
        out["node"] = render(node(reader, "a_func"))
    return out


@pytest.fixture
def project():
    base = Path(tempfile.mkdtemp(prefix="cg-skip-"))  # not under pytest's 0700 tmp: nobody must enter
    root = base / "p"
    root.mkdir()
    (root / "a.py").write_text("def a_func():\n    return 1\n")
    (root / "locked.py").write_text("def locked_func():\n    return 2\n")
    (base / "outside.py").write_text("def outside_func():\n    return 3\n")
    (root / "link.py").symlink_to(base / "outside.py")
    for path in (base, root):
        path.chmod(0o777)
    yield root
    shutil.rmtree(base)


def test_an_unreadable_file_and_an_outward_symlink_get_one_reason_everywhere(project):
    index_project(ProjectPaths(project.resolve()), workers=1)  # first as we are: imports warmed up
    answers(project)
    shutil.rmtree(project / ".codegraph")
    (project / "locked.py").chmod(0)

    def run() -> dict[str, str]:
        index_project(ProjectPaths(project.resolve()), workers=1)
        return answers(project)

    try:
        said = as_unprivileged(run)
        (project / "a.py").chmod(0)  # indexed, then unreadable
        said["node after"] = as_unprivileged(lambda: answers(project)["node"])
    finally:
        (project / "a.py").chmod(0o644)
        (project / "locked.py").chmod(0o644)
    assert "skipped: locked.py — unreadable (Permission denied)" in said["files"]
    assert "skipped: link.py — symlink outside root" in said["files"]
    assert said["locked.py"] == "locked.py exists but was not indexed (unreadable (Permission denied))."
    assert said["link.py"] == "link.py exists but was not indexed (symlink outside root)."
    assert "directly" not in said["locked.py"] + said["link.py"]
    assert "1\tdef a_func():" in said["node"]
    assert "source not shown: a.py — unreadable (Permission denied)" in said["node after"]


@pytest.mark.parametrize("use_git", [True, False])
def test_source_in_a_language_not_supported_yet_is_counted_not_silently_absent(tmp_path, use_git):
    # adversarial pass 2026-12-01: a C project indexed as "0 files … skipped: none" (before C had a
    # module), the same silence issue 9 reported for .go/.rs/.java; Nim and Crystal have none yet.
    import subprocess
    import sys

    (tmp_path / "main.nim").write_text("proc f(): int = 0\n")
    (tmp_path / "f.cr").write_text("def f\n  0\nend\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "dep.nim").write_text("echo 1\n")
    (tmp_path / "README.md").write_text("# not source\n")
    if use_git:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.skipped == {"language not supported yet": 2}
    with Reader(tmp_path) as reader:
        assert reader.skipped() == {
            "main.nim": "language not supported yet (Nim)",
            "f.cr": "language not supported yet (Crystal)",
        }

    def cg(*args):
        return subprocess.run(
            [sys.executable, "-m", "codegraph", *args, "-p", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert "skipped: 2 files (language not supported yet" in cg("status").stdout
    explore = cg("explore", "what calls f")
    assert (
        "2 source files here are in languages codegraph does not support yet (Crystal 1, Nim 1)"
        in explore.stdout
    )


def test_a_fifo_named_like_source_is_skipped_with_its_reason_in_files_and_the_file_view(tmp_path):
    # adversarial pass 2026-12-01: fifo.go was silently absent from `files`, and the file view called it
    # "not an indexed file … read config and docs files directly".
    os.mkfifo(tmp_path / "fifo.go")
    (tmp_path / "ok.go").write_text("package main\nfunc ok() {}\n")
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.skipped == {"not a regular file": 1}
    with Reader(tmp_path) as reader:
        with pytest.raises(CodegraphError) as err:
            file_view.file_view(tmp_path, reader, file_view.FileViewRequest("fifo.go"))
    assert str(err.value) == "fifo.go exists but was not indexed (not a regular file)."
