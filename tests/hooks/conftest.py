from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

HOOK = Path(os.sys.executable).parent / "codegraph-hook"


def make_index(root: Path, files: dict[str, str], nodes: list[tuple[str, str, str]] = ()) -> Path:
    """A project with ``files`` on disk and a minimal index of them (the columns the hooks rely on:
    files(path, size, modified_at), nodes(file_path, name, kind))."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".codegraph").mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    db.execute("CREATE TABLE files (path TEXT PRIMARY KEY, language TEXT, size INTEGER, modified_at REAL)")
    db.execute("CREATE TABLE nodes (id INTEGER PRIMARY KEY, file_path TEXT, name TEXT, kind TEXT)")
    for rel in files:
        st = (root / rel).stat()
        db.execute("INSERT INTO files VALUES (?, 'python', ?, ?)", (rel, st.st_size, st.st_mtime))
    db.executemany("INSERT INTO nodes (file_path, name, kind) VALUES (?, ?, ?)", nodes)
    db.commit()
    db.close()
    return root


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".git").mkdir()
    big = "".join(f"def f{i}():\n    return {i}\n" for i in range(200))
    make_index(
        root,
        {
            "pkg/big.py": big,
            "pkg/a.py": "x = 1\n",
            "pkg/b.py": "y = 2\n",
            "pkg/c.py": "z = 3\n",
            "pkg/d.py": "w = 4\n",
            "settings.json": "{}\n",
        },
        [("pkg/big.py", "Engine", "class"), ("pkg/big.py", "f1", "function"), ("pkg/big.py", "os", "import")],
    )
    old = time.time() - 3600
    os.utime(root / ".codegraph" / "codegraph.db", (old, old))
    return root


@pytest.fixture(autouse=True)
def private_tmp(tmp_path, monkeypatch):
    """Per-test temp dir for the hooks' session counters."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder
