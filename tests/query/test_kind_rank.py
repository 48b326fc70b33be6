"""Which definition a bare name gives first: a type before a member of the same name (gin's ``Engine``
struct, not the ``StructValidator.Engine`` method; leveldb's ``Options`` struct, not its constructor).
Real indexer, real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.node import node
from codegraph.query.symbols import _KIND_RANK, find_symbols
from codegraph.store.reader import Reader

FILES = {
    "go.mod": "module example.com/shop\n\ngo 1.21\n",
    # the method comes first in the file and in the path order: only the kind can put the struct first
    "a_validator.go": (
        "package shop\n\ntype StructValidator interface {\n\tEngine() any\n}\n\n"
        "type defaultValidator struct{}\n\nfunc (v *defaultValidator) Engine() any {\n\treturn nil\n}\n"
    ),
    "b_engine.go": "package shop\n\n// Engine is the instance.\ntype Engine struct {\n\tname string\n}\n",
    "options.h": ("namespace db {\nstruct Options {\n  Options();\n  int size;\n};\n}\n"),
}


@pytest.fixture
def reader(tmp_path):
    for rel, text in FILES.items():
        (tmp_path / rel).write_text(text)
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)
    with Reader(paths) as r:
        yield r


def test_node_of_a_name_shared_by_a_struct_and_a_method_shows_the_struct(reader):
    result = node(reader, "Engine")
    assert (result.definition.kind, result.definition.file_path) == ("struct", "b_engine.go")
    assert find_symbols(reader, "Engine")[0].start_line == 4


def test_node_of_a_struct_with_a_constructor_shows_the_struct_not_the_constructor(reader):
    result = node(reader, "Options")
    assert result.definition.kind == "struct" and result.definition.start_line == 2


def test_every_kind_the_golden_fixtures_hold_has_a_rank_with_types_before_members():
    kinds = set()
    for golden in (Path(__file__).resolve().parents[2] / "fixtures" / "golden").glob("*.json"):
        for n in json.loads(golden.read_text())["nodes"]:
            kinds.add(n["key"].split(":", 2)[1])  # path:kind:name@line
    kinds -= {"file", "import"}
    assert kinds and kinds <= set(_KIND_RANK), sorted(kinds - set(_KIND_RANK))
    members = ("function", "method", "constructor", "property", "field", "constant", "variable")
    types = ("class", "struct", "interface", "trait", "protocol", "enum", "union", "record", "object")
    assert max(_KIND_RANK[k] for k in types) < min(_KIND_RANK[k] for k in members)
    assert max(_KIND_RANK[k] for k in ("module", "namespace")) < _KIND_RANK["function"]
