"""PHP over fixtures/repos/php, indexed by the real indexer; every expectation comes from reading
the fixture's source (the comments say which line)."""

from __future__ import annotations

import pytest

from codegraph.index.indexer import index_project
from codegraph.index.languages import is_test_path, language_for
from codegraph.mcp.dispatch import call_tool
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture

NS = "Acme\\Shapes"


@pytest.fixture(scope="module")
def php(tmp_path_factory):
    root = copy_fixture("php", tmp_path_factory.mktemp("php")).resolve()
    index_project(ProjectPaths(root), workers=1)
    reader = Reader(root)
    yield reader, root
    reader.close()


def edges(reader, kind: str) -> set[tuple[str, str]]:
    rows = reader.conn.execute(
        "SELECT s.qualified_name, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
        (kind,),
    )
    return {(a, b) for a, b in rows}


def calls_from(reader, qualified: str) -> set[str]:
    return {t for s, t in edges(reader, "calls") | edges(reader, "instantiates") if s == qualified}


def unresolved(reader, qualified: str) -> set[str]:
    rows = reader.conn.execute(
        "SELECT u.reference_name FROM unresolved_refs u JOIN nodes n ON n.id = u.from_node_id"
        " WHERE n.qualified_name = ?",
        (qualified,),
    )
    return {r[0] for r in rows}


def test_classes_and_members_are_qualified_by_their_namespace(php):
    reader, _ = php
    names = {r[0] for r in reader.conn.execute("SELECT qualified_name FROM nodes WHERE language = 'php'")}
    assert f"{NS}\\Shapes::Circle::area" in names
    assert f"{NS}\\Support::Loggable" in names  # a trait
    assert f"{NS}\\Shapes::Kind::Circle" in names  # an enum case
    assert f"{NS}\\Support::format_area" in names  # a namespaced function
    assert "legacy_boot" in names  # global namespace: no qualifier
    kinds = dict(
        reader.conn.execute("SELECT qualified_name, kind FROM nodes WHERE language = 'php'").fetchall()
    )
    assert kinds[f"{NS}\\Support::Loggable"] == "trait"
    assert kinds[f"{NS}\\Shapes::Kind"] == "enum"
    assert kinds[f"{NS}\\Shapes::Circle::edge"] == "property"


def test_use_imports_and_aliases_bind_class_names(php):
    reader, _ = php
    # Registry.php: use ...\Geometry\Point as P; use ...\Shapes\{Circle, Square}; new Circle(2.0, new P(..))
    assert {f"{NS}\\Shapes::Circle", f"{NS}\\Shapes::Square", f"{NS}\\Geometry::Point"} <= calls_from(
        reader, f"{NS}::Registry::defaults"
    )


def test_class_in_the_same_namespace_needs_no_use(php):
    reader, _ = php
    # Kind.php (namespace ...\Shapes) builds Circle and Square without importing them
    assert calls_from(reader, f"{NS}\\Shapes::Kind::make") == {
        f"{NS}\\Shapes::Circle",
        f"{NS}\\Shapes::Square",
    }


def test_relative_qualified_names_expand_from_the_current_namespace(php):
    reader, _ = php
    # Registry::others: \Acme\Shapes\Geometry\Point::origin(); Shapes\Circle::unit(); Shapes\Kind::Circle->make()
    assert calls_from(reader, f"{NS}::Registry::others") == {
        f"{NS}\\Geometry::Point::origin",
        f"{NS}\\Shapes::Circle::unit",
        f"{NS}\\Shapes::Kind::make",
    }
    assert "missing_function" in unresolved(reader, f"{NS}::Registry::others")


def test_use_function_imports_a_namespaced_function(php):
    reader, _ = php
    assert f"{NS}\\Support::format_area" in calls_from(reader, f"{NS}\\Shapes::AbstractShape::describe")
    assert f"{NS}\\Support::format_area" in calls_from(reader, f"{NS}::Registry::report")


def test_unqualified_function_prefers_the_namespace_over_the_builtin(php):
    reader, _ = php
    # helpers.php and Loggable.php live in ...\Support, which defines count(): PHP calls that one
    assert calls_from(reader, f"{NS}\\Support::summary") == {f"{NS}\\Support::count"}
    assert f"{NS}\\Support::count" in calls_from(reader, f"{NS}\\Support::Loggable::trim")


def test_builtins_outside_that_namespace_never_bind(php):
    reader, _ = php
    # Registry.php (namespace Acme\Shapes) calls strlen() and count(): PHP's builtins
    assert f"{NS}\\Support::count" not in calls_from(reader, f"{NS}::Registry::defaults")
    assert {"strlen", "count"} <= unresolved(reader, f"{NS}::Registry::defaults")
    # \count() is the global builtin even inside ...\Support
    assert "\\count" in unresolved(reader, f"{NS}\\Support::count")


def test_this_calls_resolve_through_traits_and_the_class_itself(php):
    reader, _ = php
    # AbstractShape::describe: $this->log() (trait Loggable), $this->name(), $this->area() (abstract here)
    assert {
        f"{NS}\\Support::Loggable::log",
        f"{NS}\\Shapes::AbstractShape::name",
        f"{NS}\\Shapes::AbstractShape::area",
    } <= calls_from(reader, f"{NS}\\Shapes::AbstractShape::describe")
    assert calls_from(reader, f"{NS}\\Support::Loggable::log") == {f"{NS}\\Support::Loggable::trim"}


def test_parent_calls_go_to_the_parent_class(php):
    reader, _ = php
    assert f"{NS}\\Shapes::AbstractShape::__construct" in calls_from(
        reader, f"{NS}\\Shapes::Circle::__construct"
    )
    assert calls_from(reader, f"{NS}\\Shapes::Square::name") == {f"{NS}\\Shapes::AbstractShape::name"}


def test_new_self_and_new_static_instantiate_the_enclosing_class(php):
    reader, _ = php
    assert calls_from(reader, f"{NS}\\Shapes::Circle::unit") == {f"{NS}\\Shapes::Circle"}
    assert calls_from(reader, f"{NS}\\Shapes::Circle::scaled") == {f"{NS}\\Shapes::Circle"}
    assert calls_from(reader, f"{NS}\\Geometry::Point::origin") == {f"{NS}\\Geometry::Point"}


def test_typed_properties_type_their_receivers_even_when_declared_in_the_parent(php):
    reader, _ = php
    # Circle::__construct: $this->center->moved(...) — `protected Point $center` is in AbstractShape
    assert f"{NS}\\Geometry::Point::moved" in calls_from(reader, f"{NS}\\Shapes::Circle::__construct")
    # Circle::edgeDistance: `private Point $edge`
    assert calls_from(reader, f"{NS}\\Shapes::Circle::edgeDistance") == {f"{NS}\\Geometry::Point::distanceTo"}


def test_return_types_carry_through_locals_properties_and_chains(php):
    reader, _ = php
    # $this->unit = Circle::unit() (returns static) → $this->unit->scaled(2.0)
    assert f"{NS}\\Shapes::Circle::scaled" in calls_from(reader, f"{NS}::Registry::defaults")
    # $circle = new Circle(...); $circle->describe() is inherited from AbstractShape
    assert f"{NS}\\Shapes::AbstractShape::describe" in calls_from(reader, f"{NS}::Registry::defaults")
    # bootstrap.php: $registry = new \Acme\Shapes\Registry(); $registry->defaults()
    assert calls_from(reader, "legacy_boot") == {f"{NS}::Registry", f"{NS}::Registry::defaults"}


def test_untyped_receivers_stay_unresolved(php):
    reader, _ = php
    # foreach ($this->shapes as $shape) $shape->area(): no stated type, and two classes define area()
    assert calls_from(reader, f"{NS}::Registry::total") == set()
    assert "$shape.area" in unresolved(reader, f"{NS}::Registry::total")
    assert "$out.write" in unresolved(reader, f"{NS}::Registry::report")


def test_extends_implements_and_trait_use_edges(php):
    reader, _ = php
    assert edges(reader, "extends") == {
        (f"{NS}\\Shapes::Circle", f"{NS}\\Shapes::AbstractShape"),
        (f"{NS}\\Shapes::Square", f"{NS}\\Shapes::AbstractShape"),
        (f"{NS}\\Contracts::Shape", f"{NS}\\Contracts::HasName"),
    }
    assert edges(reader, "implements") == {
        (f"{NS}\\Shapes::AbstractShape", f"{NS}\\Contracts::Shape"),
        (f"{NS}\\Shapes::AbstractShape", f"{NS}\\Support::Loggable"),
    }


def test_use_and_require_once_give_imports_edges(php):
    reader, _ = php
    rows = reader.conn.execute(
        "SELECT s.file_path, t.file_path FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE e.kind = 'imports' AND t.kind = 'file'"
    ).fetchall()
    files = {(a, b) for a, b in rows}
    assert ("src/Legacy/bootstrap.php", "src/Support/helpers.php") in files  # require_once __DIR__ . '/..'
    assert ("src/Registry.php", "src/Shapes/Circle.php") in files  # use ...\Shapes\{Circle, Square}


def test_a_php_file_without_the_open_tag_is_skipped_with_a_reason(php):
    reader, _ = php
    assert (
        reader.conn.execute("SELECT 1 FROM nodes WHERE file_path = 'templates/page.php'").fetchone() is None
    )
    reason = reader.conn.execute(
        "SELECT reason FROM cgpy_skipped WHERE path = 'templates/page.php'"
    ).fetchone()
    assert reason is not None and "<?php" in reason[0]


def test_php_file_rules():
    assert language_for("src/Foo.php") == ("php", "php")
    assert is_test_path("src/Shapes/CircleTest.php")
    assert is_test_path("tests/Unit/Helpers.php")
    assert not is_test_path("src/Shapes/Circle.php")


def test_docs_signatures_and_return_types_are_kept(php):
    reader, _ = php
    row = reader.conn.execute(
        "SELECT docstring, signature, return_type, visibility, is_static FROM nodes WHERE qualified_name = ?",
        (f"{NS}\\Shapes::Circle::unit",),
    ).fetchone()
    assert tuple(row) == (None, "()", "static", "public", 1)
    doc = reader.conn.execute(
        "SELECT docstring FROM nodes WHERE qualified_name = ?", (f"{NS}\\Contracts::Shape::area",)
    ).fetchone()[0]
    assert doc == "The area in square units."


OPERATIONS = {
    "codegraph_search": ({"query": "Circle"}, "Circle"),
    "codegraph_node": ({"symbol": "Circle.scaled"}, "function scaled"),
    "codegraph_callers": ({"symbol": "Point.moved"}, "__construct"),
    "codegraph_callees": ({"symbol": "Registry.defaults"}, "AbstractShape::describe"),
    "codegraph_impact": ({"symbol": "AbstractShape", "depth": 2}, "Circle"),
    "codegraph_trace": ({"from": "Registry.defaults", "to": "Loggable.log"}, "AbstractShape::describe"),
    "codegraph_files": ({"path": "src/Shapes"}, "Circle.php"),
    "codegraph_explore": ({"query": "how does a circle compute its area"}, "function area"),
    "codegraph_status": ({}, "php"),
    "codegraph_context": ({"task": "change how shapes are described"}, "describe"),
}


@pytest.mark.parametrize("tool", sorted(OPERATIONS))
def test_every_operation_answers_on_the_php_fixture(php, tool, monkeypatch):
    _, root = php
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = OPERATIONS[tool]
    result = call_tool(tool, args, default_root=root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert "No symbol named" not in text, text[:300]
    assert expected in text, text[:1500]


def test_a_local_is_typed_by_the_assignments_above_each_use(php):
    reader, _ = php
    # Registry::reuse: $item = new Circle; $item->area(); $item = new Square; … $item->area()
    rows = reader.conn.execute(
        "SELECT e.line, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        " WHERE s.qualified_name = ? AND e.kind = 'calls'",
        (f"{NS}::Registry::reuse",),
    ).fetchall()
    got = {(line, target) for line, target in rows}
    assert (66, f"{NS}\\Shapes::Circle::area") in got
    assert not any(line == 72 and target.endswith(("Circle::area", "Square::area")) for line, target in got)
    assert "$item.area" in unresolved(reader, f"{NS}::Registry::reuse")  # line 72: Circle or Square


def test_instanceof_narrows_a_parameter_inside_the_if_body(php):
    reader, _ = php
    # `if ($shape instanceof Circle) { $shape->scaled(2.0); }`; after it, $shape is the declared Shape
    targets = calls_from(reader, f"{NS}::Registry::reuse")
    assert f"{NS}\\Shapes::Circle::scaled" in targets
    assert f"{NS}\\Contracts::Shape::area" in targets


def test_new_self_is_the_declaring_class_and_new_static_the_receivers():
    from codegraph.index.extract import extract
    from codegraph.index.resolve import resolve

    src = b"""<?php
namespace A;
class Base {
    public function copy() { return new self(); }
    public function fresh() { return new static(); }
    public function hello() {}
}
class Child extends Base {
    public function hello() {}
    public function run() {
        $this->copy()->hello();
        $this->fresh()->hello();
    }
}
"""
    fx = extract("src/A.php", src, "php")
    names = {n.id: n.qualified_name for n in fx.nodes}
    calls = {(e.line, names[e.target]) for e in resolve([fx]).edges if e.kind == "calls"}
    assert (11, "A::Base::hello") in calls  # copy() returns new self: a Base
    assert (12, "A::Child::hello") in calls  # fresh() returns new static: the receiver's class


def test_a_class_declared_twice_resolves_to_the_file_psr4_would_load():
    from codegraph.index.extract import extract
    from codegraph.index.resolve import resolve

    real = b"<?php\nnamespace App\\Models;\nclass User { public function save() {} }\n"
    stub = b"<?php\nnamespace App\\Models;\nclass User { public function save() {} }\n"
    use = b"<?php\nnamespace App;\nuse App\\Models\\User;\nfunction f() { (new User())->save(); }\n"
    files = [
        extract("src/Models/User.php", real, "php"),
        extract("stubs/legacy.php", stub, "php"),
        extract("src/f.php", use, "php"),
    ]
    nodes = {n.id: n for fx in files for n in fx.nodes}
    targets = {
        (e.kind, nodes[e.target].file_path)
        for e in resolve(files).edges
        if e.kind in ("calls", "instantiates")
    }
    assert targets == {("instantiates", "src/Models/User.php"), ("calls", "src/Models/User.php")}


def test_a_static_propertys_declared_type_types_calls_through_it(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "Registry.php").write_text(
        "<?php\nnamespace Shop;\n\nclass Log\n{\n    public function write(): void {}\n}\n\n"
        "class Registry\n{\n    public static ?self $instance = null;\n    public static $log;\n"
        "\n    public function add(): void {}\n\n"
        "    public static function boot(): void\n    {\n        self::$instance->add();\n"
        "        static::$instance->add();\n        Registry::$log->write();\n    }\n}\n"
    )
    (src / "Job.php").write_text(
        "<?php\nnamespace Jobs;\n\nuse Shop\\Registry;\n\nclass Job\n{\n    public function run(): void\n"
        "    {\n        Registry::$instance->add();\n    }\n}\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        calls = edges(reader, "calls")
        left = {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}
    # ?self is the declaring class: self::, static:: and an imported name's static property
    assert ("Shop::Registry::boot", "Shop::Registry::add") in calls
    assert ("Jobs::Job::run", "Shop::Registry::add") in calls
    # an untyped static property says nothing about what it holds
    assert not [t for s, t in calls if s == "Shop::Registry::boot" and t == "Shop::Log::write"]
    assert "\\Shop\\Registry.$log.write" in left


def _doc_line_by_line(body: str) -> str | None:
    """The docblock rule as first written: each line's leading ``*`` run (and one space) removed,
    blank lines dropped, the rest joined and squashed."""
    import re

    from codegraph.index.extract import MAX_DOCSTRING, squash

    lines = [re.sub(r"^\s*\*+ ?", "", line).rstrip() for line in body.splitlines()]
    return squash(" ".join(line for line in lines if line), MAX_DOCSTRING) or None


_DOC_PIECES = [
    "\n",
    "\r\n",
    "\r",
    "\x0c",
    "\u2028",
    " ",
    "\t",
    "*",
    "**",
    " * ",
    "word",
    "@param int $x",
    "é",
]


@pytest.mark.parametrize(
    "body",
    [
        "\n * Run the job.\n *\n * @return void\n ",
        "\r\n * CRLF lines.\r\n *\r\n   ** two stars\r\n ",
        "\n\n\n * after blank lines\n\n *\n",
        "* first line starts with a star\n*no space\n ***   three",
        "\r * a lone CR\r * breaks lines\x0c * and a form feed",
        " one line ",
        "\n * " + "long " * 400,
    ],
)
def test_php_docblock_text_is_the_line_by_line_rule(body):
    from codegraph.index.languages import parser_for
    from codegraph.index.languages.php import _doc_comment

    src = f"<?php\n/**{body}*/\nfunction f() {{}}\n".encode()
    fn = parser_for("php").parse(src).root_node.named_children[-1]
    assert fn.type == "function_definition"
    assert _doc_comment(fn) == _doc_line_by_line(body)


def test_php_docblock_text_is_the_line_by_line_rule_for_any_mix_of_breaks_and_stars():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from codegraph.index.languages.php import _doc_text

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(_DOC_PIECES), max_size=30))
    def check(pieces):
        body = "".join(pieces)
        assert _doc_text(body) == _doc_line_by_line(body)

    check()


# ---------------------------------------------------------------- composer.json (issue 10)
def _tree(root, files: dict[str, str]) -> None:
    for rel, body in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)


def _targets(root) -> set[tuple[str, str, str, str]]:
    """(kind, source file, target name, target file) of the calls, instantiates and imports edges."""
    with Reader(root) as reader:
        return {
            tuple(r)
            for r in reader.conn.execute(
                "SELECT e.kind, s.file_path, t.name, t.file_path FROM edges e JOIN nodes s ON s.id = e.source"
                " JOIN nodes t ON t.id = e.target WHERE e.kind IN ('calls', 'instantiates', 'imports')"
                " AND t.kind != 'file'"
            )
        }


USER = "<?php\nnamespace App\\Models;\n\nclass User\n{\n    public function save(): void {}\n}\n"
COMPOSER_APP = '{\n  "name": "acme/app",\n  "autoload": {"psr-4": {"App\\\\": "src/"}}\n}\n'
RUN = (
    "<?php\nnamespace App;\n\nuse App\\Models\\User;\nuse App\\Models\\Post;\n\nfunction run(): void\n{\n"
    "    $u = new User();\n    $u->save();\n    new Post();\n    new \\App\\Models\\Order();\n}\n"
)


def test_composer_psr4_picks_the_autoloaded_file_among_classes_declared_twice(tmp_path):
    # src/Models/User.php and stubs/Models/User.php both declare App\Models\User (the path heuristic
    # ties: two segments each); composer.json maps App\ to src/, so run()'s new User, $u->save() and
    # the use go to src/. Post is declared outside its PSR-4 path (app/Post.php) and is still found
    # by its namespace; src/Models/Order.php sits where App\Models\Order would load from but declares
    # Other\Models\Order, so `new \App\Models\Order` stays unresolved
    _tree(
        tmp_path,
        {
            "composer.json": COMPOSER_APP,
            "src/Models/User.php": USER,
            "stubs/Models/User.php": USER,
            "app/Post.php": "<?php\nnamespace App\\Models;\n\nclass Post\n{\n}\n",
            "src/Models/Order.php": "<?php\nnamespace Other\\Models;\n\nclass Order\n{\n}\n",
            "src/run.php": RUN,
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    found = {t for t in _targets(tmp_path) if t[1] == "src/run.php"}
    assert found == {
        ("instantiates", "src/run.php", "User", "src/Models/User.php"),
        ("calls", "src/run.php", "save", "src/Models/User.php"),
        ("imports", "src/run.php", "User", "src/Models/User.php"),
        ("instantiates", "src/run.php", "Post", "app/Post.php"),
        ("imports", "src/run.php", "Post", "app/Post.php"),
    }
    with Reader(tmp_path) as reader:
        assert "\\App\\Models\\Order" in {
            r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")
        }


def test_composer_dir_lists_autoload_dev_the_empty_prefix_and_psr0_follow_composers_order(tmp_path):
    # packages/clock/composer.json (its dirs are relative to its folder): App\ -> [lib/, src/] (lib/
    # has no Util/Clock.php, so src/'s), autoload-dev "" -> tests/ (every namespace); the root's
    # psr-0 Legacy_ -> old/ (Legacy_Mailer in old/Legacy/Mailer.php). The decoys each sit where the
    # path heuristic alone prefers them (more matching segments) or ties with the real file
    _tree(
        tmp_path,
        {
            "composer.json": '{"autoload": {"psr-0": {"Legacy_": "old/"}}}\n',
            "packages/clock/composer.json": (
                '{"autoload": {"psr-4": {"App\\\\": ["lib/", "src/"]}},'
                ' "autoload-dev": {"psr-4": {"": "tests/"}}}\n'
            ),
            "packages/clock/src/Util/Clock.php": (
                "<?php\nnamespace App\\Util;\n\nclass Clock\n{\n    public function now(): int { return 1; }\n}\n"
            ),
            "copies/App/Util/Clock.php": (
                "<?php\nnamespace App\\Util;\n\nclass Clock\n{\n    public function now(): int { return 2; }\n}\n"
            ),
            "packages/clock/tests/Fixtures/Fake.php": "<?php\nnamespace Fixtures;\n\nclass Fake\n{\n}\n",
            "fakes/Fixtures/Fake.php": "<?php\nnamespace Fixtures;\n\nclass Fake\n{\n}\n",
            "old/Legacy/Mailer.php": "<?php\n\nclass Legacy_Mailer\n{\n}\n",
            "compat/Legacy_Mailer.php": "<?php\n\nclass Legacy_Mailer\n{\n}\n",
            "run.php": (
                "<?php\n\nfunction go(): void\n{\n    (new \\App\\Util\\Clock())->now();\n"
                "    new \\Fixtures\\Fake();\n    new \\Legacy_Mailer();\n}\n"
            ),
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    found = {t for t in _targets(tmp_path) if t[1] == "run.php"}
    assert found == {
        ("instantiates", "run.php", "Clock", "packages/clock/src/Util/Clock.php"),
        ("calls", "run.php", "now", "packages/clock/src/Util/Clock.php"),
        ("instantiates", "run.php", "Fake", "packages/clock/tests/Fixtures/Fake.php"),
        ("instantiates", "run.php", "Legacy_Mailer", "old/Legacy/Mailer.php"),
    }


def test_an_absolute_composer_directory_names_no_folder_of_the_tree(tmp_path):
    # Composer keeps an absolute path as it is (/stubs/ on the disk, not the project's stubs/); it was
    # read as stubs/ and picked stubs/Models/User.php. Nothing in the tree decides now: the two tie
    _tree(
        tmp_path,
        {
            "composer.json": COMPOSER_APP.replace("src/", "/stubs/"),
            "src/Models/User.php": USER,
            "stubs/Models/User.php": USER,
            "src/run.php": RUN,
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert {t for t in _targets(tmp_path) if t[2] == "User"} == set()


def test_a_composer_json_that_changes_re_resolves_and_sync_equals_a_full_index(tmp_path):
    from tests.index.test_incremental_resolution import edge_names, run_steps

    start = {
        "composer.json": COMPOSER_APP,
        "src/Models/User.php": USER,
        "stubs/Models/User.php": USER,
        "src/run.php": RUN,
        "src/Lone.php": "<?php\nnamespace Lone;\n\nfunction lone(): void {}\n",
    }
    runs = {
        # App\ now loads from stubs/: the duplicate there is the one
        "stubs": [({"composer.json": COMPOSER_APP.replace("src/", "stubs/")}, "full")],
        # without composer.json the two files tie again: no edge
        "none": [({"composer.json": None}, "full")],
        # back, then the stub going away leaves one User: an incremental sync finds it
        "src": [
            ({"composer.json": None}, "full"),
            ({"composer.json": COMPOSER_APP}, "full"),
            ({"stubs/Models/User.php": None}, "incremental"),
        ],
    }
    saves = {}
    for name, steps in runs.items():
        (tmp_path / name).mkdir()
        run_steps(tmp_path / name, start, steps)
        saves[name] = {t for s, m, t in edge_names(tmp_path / name / "live", "calls") if m == "save"}
    assert saves == {"stubs": {"stubs/Models/User.php"}, "none": set(), "src": {"src/Models/User.php"}}


def test_an_unusable_composer_json_is_listed_in_status_and_namespaces_still_resolve(tmp_path):
    from codegraph.query.status import status

    _tree(
        tmp_path,
        {
            "composer.json": '{"autoload": {"psr-4": {"App\\\\": "src/"}\n',  # unclosed
            "lib/composer.json": '{"autoload": {"psr-4": ["src/"]}}\n',  # a list, not a map
            "deep/composer.json": "[" * 100_000,  # json.loads gives up with a RecursionError
            # what PHP's json_encode writes for an empty map: nothing to report
            "empty/composer.json": '{"autoload": [], "autoload-dev": {"psr-4": []}}\n',
            "src/Models/User.php": USER,
            "src/run.php": RUN,
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        problems = status(reader).manifests
    assert sorted(problems) == ["composer.json", "deep/composer.json", "lib/composer.json"]
    assert problems["composer.json"].startswith("not parseable")
    assert problems["deep/composer.json"].startswith("not parseable")
    assert problems["lib/composer.json"] == "not usable: autoload.psr-4 is not an object"
    assert ("calls", "src/run.php", "save", "src/Models/User.php") in _targets(tmp_path)
