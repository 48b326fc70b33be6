"""Dart over fixtures/repos/dart (a library with parts, an export, a package: import from a test)."""

from __future__ import annotations

import pytest

from codegraph.index.extract import extract
from codegraph.query.relations import callees, callers
from tests.index.languages.fixture_graph import answers


def caller_names(reader, symbol):
    return sorted({s.node.qualified_name for g in callers(reader, symbol).groups for s in g.sites})


def callee_names(reader, symbol):
    return sorted({s.node.qualified_name for g in callees(reader, symbol).groups for s in g.sites})


def edges_of(reader, kind):
    return set(
        tuple(row)
        for row in reader.conn.execute(
            "SELECT s.qualified_name, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
            (kind,),
        )
    )


@pytest.fixture
def dart(indexed):
    return indexed("dart")


def test_dart_bodies_that_follow_their_signature_belong_to_the_function():
    src = (
        b"int add(int a, int b) {\n  return a + b;\n}\n\nclass A {\n  void run() {\n    add(1, 2);\n  }\n}\n"
    )
    fx = extract("lib/a.dart", src, "dart")
    spans = {
        n.qualified_name: (n.start_line, n.end_line) for n in fx.nodes if n.kind in ("function", "method")
    }
    assert spans == {"add": (1, 3), "A::run": (6, 8)}
    assert [(r.name, r.line) for r in fx.refs if r.kind == "calls"] == [("add", 7)]


def test_dart_part_files_share_their_library_scope(dart):
    # circle.dart (a part) constructs nothing it imports: Shape comes from the sibling part
    assert ("Circle", "Shape") in edges_of(dart, "extends")
    assert ("Shape", "Describable") in edges_of(dart, "extends")  # `with Describable`


def test_dart_package_import_reaches_names_the_library_exports(dart):
    # test/registry_test.dart imports package:shapes/shapes.dart, which exports src/registry.dart
    assert ("main", "Registry") in edges_of(dart, "instantiates")
    assert "Registry::add" in callee_names(dart, "main")
    assert "Registry::total" in callee_names(dart, "main")


def test_dart_bare_call_inside_a_class_means_its_member_or_a_base_member(dart):
    assert callee_names(dart, "Shape.describe") == ["Shape::area", "Shape::name"]
    assert "Circle::area" in callee_names(dart, "Circle.compareTo")


def test_dart_constructor_named_after_its_class_instantiates_the_class(dart):
    assert ("Circle::scaled", "Circle") in edges_of(dart, "instantiates")
    assert ("Circle::scaled", "Circle::Circle") not in edges_of(dart, "calls")


def test_dart_typed_fields_parameters_and_locals_type_their_receivers(dart):
    # final Counter counter = Counter(); shape: Shape parameter; final bigger = Circle(...)
    assert callee_names(dart, "Registry.add") == ["Counter::bump", "Shape::describe"]
    assert "Shape::describe" in callee_names(dart, "Circle.scaled")
    assert "Circle::scaled" in callee_names(dart, "main")
    assert "Circle::unit" in callee_names(dart, "main")  # a named constructor


def test_dart_builtins_external_and_untyped_calls_stay_unresolved(dart):
    unresolved = {r[0] for r in dart.conn.execute("SELECT reference_name FROM unresolved_refs")}
    assert {"print", "math.sqrt", "unknownHelper", "s.area"} <= unresolved
    assert caller_names(dart, "log") == ["Counter::bump"]


def test_every_operation_answers_on_the_dart_fixture(dart, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    root = dart.root
    cases = {
        "codegraph_search": ({"query": "Registry"}, "lib/src/registry.dart"),
        "codegraph_node": ({"symbol": "Circle.scaled"}, "Circle scaled(double factor)"),
        "codegraph_callers": ({"symbol": "Shape.describe"}, "Registry::add"),
        "codegraph_callees": ({"symbol": "Registry.add"}, "Counter::bump"),
        "codegraph_impact": ({"symbol": "Counter.bump"}, "Registry::add"),
        "codegraph_trace": ({"from": "main", "to": "Counter.bump"}, "Registry::add"),
        "codegraph_files": ({"path": "lib/src"}, "circle.dart"),
        "codegraph_explore": (
            {"query": "how does the registry total the areas of its shapes"},
            "double total()",
        ),
        "codegraph_status": ({}, "dart"),
    }
    answers(root, cases)


def test_top_level_variables_are_nodes_whose_stated_or_constructed_type_types_their_uses(tmp_path):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader
    from tests.index.languages import fixture_graph

    reg = "class Registry {\n  void add(Object o) {}\n}\n"
    files = {
        "pubspec.yaml": "name: shop\n",
        "lib/a.dart": f"{reg}\nfinal registry = Registry();\nconst int limit = 3;\n",
        "lib/b.dart": "Object load() => 1;\n\nfinal pending = load();\n",
        # through a prefix: t.registry is a.dart's
        "lib/one.dart": "import 'a.dart' as t;\n\nvoid one() {\n  t.registry.add(1);\n}\n",
        # a variable holding what a function of no project type returns types nothing
        "lib/two.dart": (
            "import 'a.dart';\nimport 'b.dart';\n\nvoid two() {\n  pending.add(1);\n  registry.add(2);\n}\n"
        ),
    }
    for rel, body in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert fixture_graph.kinds(reader, "lib/a.dart") == {
            "lib/a.dart": "file",
            "Registry": "class",
            "Registry::add": "method",
            "registry": "variable",
            "limit": "constant",
        }
        calls = fixture_graph.edges(reader, "calls")
        assert ("one", "lib/a.dart:Registry::add") in calls
        assert {c for c in calls if c[0] == "two"} == {("two", "lib/a.dart:Registry::add")}


# ---------------------------------------------------------------- pubspec.yaml (issue 10)
def _tree(root, files: dict[str, str]) -> None:
    for rel, body in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)


def _calls(root) -> set[tuple[str, str, str]]:
    from codegraph.store.reader import Reader

    with Reader(root) as reader:
        return {
            tuple(r)
            for r in reader.conn.execute(
                "SELECT s.file_path, t.name, t.file_path FROM edges e JOIN nodes s ON s.id = e.source"
                " JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls'"
            )
        }


MONOREPO = {
    # packages/core_dir's pubspec names the package `core`; packages/extras (`extras`) also has a
    # lib/util.dart with a helper, and the only lib/only.dart of the tree is core's
    "packages/core_dir/pubspec.yaml": "name: core\nversion: 1.0.0\n",
    "packages/core_dir/lib/util.dart": "int helper() => 1;\n",
    "packages/core_dir/lib/only.dart": "int lonely() => 3;\n",
    "packages/extras/pubspec.yaml": "name: extras\n",
    "packages/extras/lib/util.dart": "int helper() => 2;\n",
    "packages/app/pubspec.yaml": "name: app\ndependencies:\n  core:\n    path: ../core_dir\n",
    "packages/app/lib/main.dart": (
        "import 'package:core/util.dart';\nimport 'package:ext/only.dart';\n\nvoid run() {\n  helper();\n}\n"
    ),
}


def test_package_imports_go_to_the_lib_of_the_pubspec_that_names_the_package(tmp_path):
    # main.dart imports package:core, which is packages/core_dir (its pubspec's name:, not its folder):
    # helper() is core's, not extras'. package:ext names no package of the tree: its only.dart is
    # not core's only.dart (the one file ending lib/only.dart), so that import links no file
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader
    from tests.index.languages import fixture_graph

    _tree(tmp_path, MONOREPO)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert {c for c in _calls(tmp_path) if c[0] == "packages/app/lib/main.dart"} == {
        ("packages/app/lib/main.dart", "helper", "packages/core_dir/lib/util.dart")
    }
    with Reader(tmp_path) as reader:
        assert fixture_graph.imported_files(reader, "packages/app/lib/main.dart") == {
            "packages/core_dir/lib/util.dart"
        }


def test_a_package_import_climbing_out_of_the_packages_lib_links_no_file(tmp_path):
    # package:core/../../extras/lib/util.dart was packages/extras/lib/util.dart and
    # package:core/../only.dart packages/core_dir/only.dart: a package: URI names files under the
    # package's lib/ only (Dart removes the dot segments, and above lib/ is no package path). A dot
    # segment staying inside lib/ (src/../util.dart) is still core's util.dart
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader
    from tests.index.languages import fixture_graph

    files = {
        **MONOREPO,
        "packages/core_dir/only.dart": "int outside() => 4;\n",
        "packages/app/lib/main.dart": (
            "import 'package:core/../../extras/lib/util.dart';\nimport 'package:core/../only.dart';\n"
            "\nvoid run() {\n  helper();\n  outside();\n}\n"
        ),
        "packages/app/lib/ok.dart": "import 'package:core/src/../util.dart';\n\nvoid go() {\n  helper();\n}\n",
    }
    _tree(tmp_path, files)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert fixture_graph.imported_files(reader, "packages/app/lib/main.dart") == set()
        assert fixture_graph.imported_files(reader, "packages/app/lib/ok.dart") == {
            "packages/core_dir/lib/util.dart"
        }
    # helper is declared twice, so only an import can pick one
    assert {c for c in _calls(tmp_path) if c[1] == "helper"} == {
        ("packages/app/lib/ok.dart", "helper", "packages/core_dir/lib/util.dart")
    }


def test_a_pubspec_that_changes_re_resolves_and_sync_equals_a_full_index(tmp_path):
    # pre.dart imports core under a prefix (a plain import brings in any name: every change to the
    # files it imports re-resolves the project), so util.dart leaving and coming back is incremental
    from tests.index.test_incremental_resolution import run_steps

    start = {
        **{p: body for p, body in MONOREPO.items() if not p.endswith("main.dart")},
        "packages/app/lib/pre.dart": "import 'package:core/util.dart' as c;\n\nvoid pre() {\n  c.helper();\n}\n",
        "tool/gen.dart": "void gen() {}\n",
    }
    util = MONOREPO["packages/core_dir/lib/util.dart"]
    renamed = {"packages/core_dir/pubspec.yaml": "name: core2\n"}
    runs = {
        # core renamed core2: package:core names nothing in the tree any more
        "renamed": [(renamed, "full")],
        # and back; then core's util.dart goes away and comes back
        "back": [
            (renamed, "full"),
            ({"packages/core_dir/pubspec.yaml": MONOREPO["packages/core_dir/pubspec.yaml"]}, "full"),
            ({"packages/core_dir/lib/util.dart": None}, "incremental"),
            ({"packages/core_dir/lib/util.dart": util}, "incremental"),
        ],
    }
    helpers = {}
    for name, steps in runs.items():
        (tmp_path / name).mkdir()
        run_steps(tmp_path / name, start, steps)
        helpers[name] = {t for _, n, t in _calls(tmp_path / name / "live") if n == "helper"}
    assert helpers == {"renamed": set(), "back": {"packages/core_dir/lib/util.dart"}}


def test_an_unusable_pubspec_is_listed_in_status_and_its_package_found_by_folder(tmp_path):
    # broken/pubspec.yaml is no YAML and nameless/pubspec.yaml has no name:; without a name the
    # package `broken` is found as in a tree without pubspecs (its folder, the one lib/ holding the file)
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.query.status import status
    from codegraph.store.reader import Reader

    _tree(
        tmp_path,
        {
            "broken/pubspec.yaml": "name: [broken\n",
            "broken/lib/b.dart": "int fromBroken() => 1;\n",
            "nameless/pubspec.yaml": "version: 1.0.0\n",
            # YAML, but its timestamp is no date: building the value raises ValueError
            "dated/pubspec.yaml": "name: dated\nreleased: 2020-13-45\n",
            "app/pubspec.yaml": "name: app\n",
            "app/lib/main.dart": "import 'package:broken/b.dart';\n\nvoid run() {\n  fromBroken();\n}\n",
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        problems = status(reader).manifests
    assert sorted(problems) == ["broken/pubspec.yaml", "dated/pubspec.yaml", "nameless/pubspec.yaml"]
    assert problems["broken/pubspec.yaml"].startswith("not parseable")
    assert problems["dated/pubspec.yaml"] == "not parseable: month must be in 1..12"
    assert problems["nameless/pubspec.yaml"] == "no name: field"
    assert _calls(tmp_path) == {("app/lib/main.dart", "fromBroken", "broken/lib/b.dart")}
