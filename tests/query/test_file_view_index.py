"""The file view over a real index built by codegraph's indexer in a tmp dir (real SQLite, real files,
the store's Reader)."""

from __future__ import annotations

import pytest

from codegraph.errors import FileNotIndexed
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.file_view import FileViewRequest, file_view
from codegraph.render import render
from codegraph.store.reader import Reader


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
    with Reader(paths) as reader:
        yield paths.root, reader


def test_indexed_file_is_shown_with_its_real_symbols_and_dependents(project):
    root, reader = project
    result = file_view(root, reader, FileViewRequest(file="lib.py"))
    assert result.path == "pkg/lib.py"
    assert result.body == "\n".join(
        f"{n}\t{line}" for n, line in enumerate((root / "pkg/lib.py").read_text().split("\n"), start=1)
    )
    assert "app.py" in result.dependents and "other.py" not in result.dependents
    assert result.symbol_count >= 3  # helper, Box, size
    header = render(result).split("\n", 1)[0]
    assert header.startswith("pkg/lib.py · 12 lines (the last is empty, after the final newline) · ")
    assert "app.py" in header


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
    assert "exists but was not indexed (too large" in str(err.value)
