"""The file view over a real index built by codegraph's indexer in a tmp dir (real SQLite, real files).

Uses ``codegraph.store.reader.Reader`` when it provides the file-view methods; until then a small
adapter over the same database (below) stands in for it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from codegraph.errors import FileNotIndexed
from codegraph.model import Node
from codegraph.paths import ProjectPaths
from codegraph.query.file_view import FileViewRequest, file_view, render_file_view

index_project = pytest.importorskip("codegraph.index.indexer").index_project


class _SqliteStandIn:
    """Until the store's Reader lands: the FileViewReader methods over the reference-format tables."""

    def __init__(self, db: Path):
        self.conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.conn.row_factory = sqlite3.Row

    def indexed_paths(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT path FROM files ORDER BY path")]

    def file_symbols(self, path: str) -> list[Node]:
        rows = self.conn.execute("SELECT * FROM nodes WHERE file_path = ?", (path,)).fetchall()
        fields = set(Node.__slots__)
        out = []
        for r in rows:
            data = {k: r[k] for k in r.keys() if k in fields}
            for key in ("decorators", "type_parameters"):
                data[key] = json.loads(data[key]) if data.get(key) else None
            out.append(Node(**data))
        return out

    def dependents(self, path: str) -> list[str]:
        sql = (
            "SELECT DISTINCT s.file_path FROM edges e JOIN nodes t ON e.target = t.id "
            "JOIN nodes s ON e.source = s.id "
            "WHERE t.file_path = ? AND s.file_path != ? AND e.kind != 'contains'"
        )
        return [r[0] for r in self.conn.execute(sql, (path, path))]

    def skip_reason(self, path: str) -> str | None:
        try:
            row = self.conn.execute("SELECT reason FROM cgpy_skipped WHERE path = ?", (path,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return row[0] if row else None

    def close(self) -> None:
        self.conn.close()


def open_reader(paths: ProjectPaths):
    try:
        from codegraph.store.reader import Reader  # noqa: PLC0415 — optional until it lands on main
    except ImportError:
        Reader = None  # noqa: N806
    if Reader is not None and all(
        hasattr(Reader, m) for m in ("indexed_paths", "file_symbols", "dependents")
    ):
        return Reader.open(paths) if hasattr(Reader, "open") else Reader(paths.db)
    return _SqliteStandIn(paths.db)


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "lib.py").write_text(
        '"""Library."""\n\n\ndef helper(x):\n    # doubles\n    return x * 2\n\n\nclass Box:\n'
        "    def size(self):\n        return helper(1)\n"
    )
    (root / "app.py").write_text("from pkg.lib import helper\n\n\ndef main():\n    return helper(3)\n")
    (root / "other.py").write_text("import os\n\n\ndef unrelated():\n    return os.getcwd()\n")
    (root / ".env").write_text("TOKEN=hunter2\n")
    (root / "big.min.js").write_text("var a=1;" * 200_000)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    reader = open_reader(paths)
    yield paths.root, reader
    close = getattr(reader, "close", None)
    if close:
        close()


def test_indexed_file_is_shown_with_its_real_symbols_and_dependents(project):
    root, reader = project
    result = file_view(root, reader, FileViewRequest(file="lib.py"))
    assert result.path == "pkg/lib.py"
    assert result.body == "\n".join(
        f"{n}\t{line}" for n, line in enumerate((root / "pkg/lib.py").read_text().split("\n"), start=1)
    )
    assert "app.py" in result.dependents and "other.py" not in result.dependents
    assert result.symbol_count >= 3  # helper, Box, size
    header = render_file_view(result).split("\n", 1)[0]
    assert header.startswith("pkg/lib.py · 12 lines · ") and "app.py" in header


def test_symbol_map_comes_from_the_index_in_line_order(project):
    root, reader = project
    result = file_view(root, reader, FileViewRequest(file="pkg/lib.py", symbols_only=True))
    names = [(s.name, s.line) for s in result.symbols]
    assert ("helper", 4) in names and ("Box", 9) in names and ("size", 10) in names
    assert [line for _, line in names] == sorted(line for _, line in names)


def test_env_file_in_the_project_is_neither_indexed_nor_served(project):
    root, reader = project
    assert ".env" not in reader.indexed_paths()
    with pytest.raises(FileNotIndexed, match="secret") as err:
        file_view(root, reader, FileViewRequest(file=".env"))
    assert "hunter2" not in str(err.value)


def test_file_skipped_by_the_indexer_says_why(project):
    root, reader = project
    with pytest.raises(FileNotIndexed) as err:
        file_view(root, reader, FileViewRequest(file="big.min.js"))
    assert "exists but" in str(err.value)
