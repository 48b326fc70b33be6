"""Files with old Mac line endings (a lone ``\\r``, no ``\\n``) and other stray ``\\r``: the index's line
numbers, the symbol view and the file view all count lines where Claude Code's Read does.

Read (2.1.197, recorded in tests/query/test_file_view_read_parity.py) splits only at ``\\n``: a bare-CR
file is one line, so every symbol in it is on line 1 (tree-sitter's rows also count only ``\\n``, so no
mapping is needed). Read also drops a ``\\r`` ending the last line, as it drops the ``\\r`` of a
``\\r\\n``; the symbol view must show that line as the file view does.
"""

from __future__ import annotations

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.file_view import FileViewRequest, file_view
from codegraph.query.node import node
from codegraph.store.reader import Reader

BARE_CR = {
    "mac.py": b"import os\r\rdef foo():\r    return bar()\r\rdef bar():\r    return 1\r\rclass K:\r"
    b"    def m(self):\r        foo()\r",
    "mac.js": b"function foo() {\r  return bar();\r}\rfunction bar() {\r  return 1;\r}\r",
}


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    for name, data in BARE_CR.items():
        (root / name).write_bytes(data)
    (root / "tail.py").write_bytes(b"def tail():\n    return 2\r")
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    with Reader(paths) as reader:
        yield paths.root, reader


@pytest.mark.parametrize("name", sorted(BARE_CR))
def test_bare_cr_file_is_one_line_in_the_file_view_and_in_every_symbol_span(project, name):
    root, reader = project
    view = file_view(root, reader, FileViewRequest(file=name))
    # Read's line: the whole file, inner CRs kept, the CR ending the last line dropped
    assert view.body == "1\t" + BARE_CR[name].decode()[:-1]
    symbols = reader.file_symbols(name)
    assert {s.name for s in symbols} >= {"foo", "bar"}
    assert all(s.start_line == 1 and s.end_line == 1 for s in symbols)


@pytest.mark.parametrize("name", sorted(BARE_CR))
def test_symbol_view_of_a_bare_cr_file_shows_the_file_views_line(project, name):
    root, reader = project
    view = file_view(root, reader, FileViewRequest(file=name))
    assert node(reader, "foo", file=name).source == view.body
    assert node(reader, "bar", file=name).source == view.body


def test_symbol_view_drops_the_cr_ending_the_last_line_as_the_file_view_does(project):
    root, reader = project
    view = file_view(root, reader, FileViewRequest(file="tail.py"))
    assert view.body == "1\tdef tail():\n2\t    return 2"
    assert node(reader, "tail").source == view.body


def test_calls_in_a_bare_cr_file_resolve_on_line_one(project):
    _, reader = project
    result = node(reader, "bar", file="mac.py")
    assert [(c.node.name, c.line) for c in result.callers] == [("foo", 1)]
