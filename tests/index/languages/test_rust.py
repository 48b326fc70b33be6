"""Rust over fixtures/repos/rust (a Cargo workspace: crate `shapes` and binary `app`), indexed by the
real indexer. Expectations come from reading the fixture's source."""

from __future__ import annotations

import pytest

from codegraph.index.languages import is_test_path, language_for
from codegraph.mcp.dispatch import call_tool
from tests.index.languages import fixture_graph


def edges(reader, kind: str) -> set[tuple[str, str, str]]:
    """(source qualified name, target file, target qualified name) of every ``kind`` edge."""
    rows = reader.conn.execute(
        "SELECT s.qualified_name, t.file_path, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
        (kind,),
    )
    return {tuple(r) for r in rows}


def unresolved(reader, path: str) -> set[str]:
    rows = reader.conn.execute("SELECT reference_name FROM unresolved_refs WHERE file_path = ?", (path,))
    return {r[0] for r in rows}


@pytest.fixture
def rust(indexed):
    return indexed("rust")


def test_use_of_a_workspace_crate_reaches_its_definitions(rust):
    calls = edges(rust, "calls")
    assert ("build", "shapes/src/circle.rs", "Circle::new") in calls
    assert ("main", "shapes/src/lib.rs", "total_area") in calls
    # use shapes::square::Square; Square::new(3.0)
    assert ("build", "shapes/src/square.rs", "Square::new") in calls


def test_crate_self_and_super_paths_walk_the_mod_tree(rust):
    calls = edges(rust, "calls")
    # crate::geo::origin() from circle.rs reaches geo/mod.rs
    assert ("Circle::unit", "shapes/src/geo/mod.rs", "origin") in calls
    # super::super::util::hypot from geo/point.rs
    assert ("Point::distance", "shapes/src/util.rs", "hypot") in calls
    # use super::util::clamp in circle.rs
    assert ("Circle::new", "shapes/src/util.rs", "clamp") in calls
    # mod report; + use crate::report::Report in the binary crate
    assert ("main", "app/src/report.rs", "Report::new") in calls


def test_impl_blocks_give_their_functions_to_the_type(rust):
    new = [n for n in rust.nodes_named("new") if n.file_path == "shapes/src/circle.rs"]
    assert [(n.kind, n.qualified_name) for n in new] == [("method", "Circle::new")]
    parent = rust.parent(new[0].id)
    assert (parent.kind, parent.name) == ("struct", "Circle")


def test_impl_trait_for_type_implements_and_supertraits_extend(rust):
    assert ("Circle", "shapes/src/lib.rs", "Area") in edges(rust, "implements")
    assert ("Circle", "shapes/src/lib.rs", "Named") in edges(rust, "implements")
    assert ("Square", "shapes/src/lib.rs", "Area") in edges(rust, "implements")
    assert ("Named", "shapes/src/lib.rs", "Area") in edges(rust, "extends")


def test_self_and_self_type_mean_the_impl_type(rust):
    calls = edges(rust, "calls")
    assert ("Circle::unit", "shapes/src/circle.rs", "Circle::new") in calls  # Self::new
    assert ("Circle::fmt", "shapes/src/circle.rs", "Circle::name") in calls  # self.name() in write!
    # self in a trait's default method is the trait
    assert ("Area::double_area", "shapes/src/lib.rs", "Area::area") in calls
    assert ("Point::shifted", "shapes/src/geo/point.rs", "Point::new") in calls


def test_typed_fields_params_and_lets_pick_the_method(rust):
    calls = edges(rust, "calls")
    assert ("Circle::gap", "shapes/src/geo/point.rs", "Point::distance") in calls  # self.center: Point
    assert ("Square::describe", "shapes/src/square.rs", "Kind::label") in calls  # self.kind: Kind
    assert ("build", "shapes/src/circle.rs", "Circle::grow") in calls  # let c = Circle::new(..) -> Circle
    assert ("main", "app/src/report.rs", "Report::line") in calls  # Report::new(..) -> Self
    assert (
        "unit_circle_has_area_pi",
        "shapes/src/circle.rs",
        "Circle::area",
    ) in calls  # Circle::unit() -> Self


def test_struct_expressions_instantiate_the_struct(rust):
    inst = edges(rust, "instantiates")
    assert ("Circle::new", "shapes/src/circle.rs", "Circle") in inst
    assert ("Report::new", "app/src/report.rs", "Report") in inst
    assert ("Point::new", "shapes/src/geo/point.rs", "Point") in inst  # Self { x, y } in impl Point


def test_calls_inside_macro_arguments_are_read(rust):
    calls = edges(rust, "calls")
    # println!("{}", s.describe()) and vec![Box::new(c), ...]
    assert ("build", "shapes/src/square.rs", "Square::describe") in calls
    assert "Box.new" in unresolved(rust, "app/src/main.rs")


def test_prelude_names_never_bind_to_a_project_function_of_that_name(rust):
    calls = edges(rust, "calls")
    # util.rs defines drop and calls it itself; main.rs's drop(report) is the prelude's
    assert ("forget_label", "shapes/src/util.rs", "drop") in calls
    assert not [c for c in calls if c[0] == "main" and c[2] == "drop"]
    assert "drop" in unresolved(rust, "app/src/main.rs")


def test_calls_on_untyped_receivers_stay_unresolved(rust):
    calls = edges(rust, "calls")
    assert not [c for c in calls if c[0] == "total_area"]  # `for shape in shapes { shape.area() }`
    assert {"shape.area"} <= unresolved(rust, "shapes/src/lib.rs")
    assert {"w.frobnicate"} <= unresolved(rust, "app/src/main.rs")


def test_a_call_on_what_a_call_returns_resolves_through_the_declared_return_type(rust):
    # app/src/main.rs:21 `Point::new(1.0, 1.0).shifted(2.0)`: new returns Self (Point)
    assert ("main", "shapes/src/geo/point.rs:Point::shifted") in fixture_graph.edges(rust, "calls")
    # self.iter().map(...): iter is std's, so the chain stays unresolved, spelled as written
    assert "self.iter().map" in unresolved(rust, "shapes/src/geo/point.rs")


def test_reexports_through_mod_rs_import_the_definition(rust):
    imports = edges(rust, "imports")
    # circle.rs: use crate::geo::Point, where geo/mod.rs does pub use self::point::Point
    assert ("shapes/src/circle.rs", "shapes/src/geo/point.rs", "Point") in imports


def test_doc_comments_signatures_and_visibility(rust):
    (node,) = [n for n in rust.nodes_named("new") if n.file_path == "shapes/src/circle.rs"]
    assert node.docstring == "Builds a circle; the radius is clamped to [0, 100]."
    assert node.signature == "(center: Point, radius: f64)"
    assert node.return_type == "Circle"
    assert node.is_exported
    (union,) = rust.nodes_named("Bits")
    assert (union.kind, union.docstring) == ("union", "Raw bits of a side length.")
    variants = {n.qualified_name for n in rust.nodes_named("Frame")}
    assert variants == {"Kind::Frame"}


def test_rust_files_and_test_files_are_recognised():
    assert language_for("src/lib.rs") == ("rust", "rust")
    assert is_test_path("shapes/tests/circle_test.rs")
    assert is_test_path("src/parser_test.rs")
    assert not is_test_path("src/parser.rs")


CASES = {
    "codegraph_search": ({"query": "Circle"}, "Circle"),
    "codegraph_node": ({"symbol": "Circle.new"}, "radius"),
    "codegraph_callers": ({"symbol": "Circle.new"}, "build"),
    "codegraph_callees": ({"symbol": "Circle.new"}, "clamp"),
    "codegraph_impact": ({"symbol": "Point.distance"}, "Circle"),
    "codegraph_trace": ({"from": "build", "to": "clamp"}, "clamp"),
    "codegraph_files": ({"path": "shapes/src"}, "circle.rs"),
    "codegraph_status": ({}, "rust"),
    "codegraph_explore": ({"query": "how is a circle's radius clamped"}, "clamp"),
    "codegraph_context": ({"task": "grow a circle"}, "grow"),
}


@pytest.mark.parametrize("tool", sorted(CASES))
def test_every_operation_answers_on_the_rust_fixture(rust, tool, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = CASES[tool]
    result = call_tool(tool, args, default_root=rust.root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert expected in text, text[:1500]


def test_items_inside_cfg_macro_blocks_are_definitions(rust):
    (node,) = rust.nodes_named("fast_hypot")
    assert (node.kind, node.start_line) == ("function", 34)
    assert node.docstring == "A hypotenuse behind a feature flag: the items of a cfg_*! block are items."
    assert ("fast_hypot", "shapes/src/util.rs", "hypot") in edges(rust, "calls")


def test_impl_of_a_project_trait_for_a_std_type_is_not_guessed_on_that_type(rust):
    # impl Locate for Vec<Point>; corners.centroid() on a Vec<Point> stays unresolved: a std type's
    # own methods (unknown here) win over trait methods of the same name (tokio's StdChild::kill)
    calls = edges(rust, "calls")
    assert not [c for c in calls if c[0] == "main" and c[2].endswith("centroid")]
    # impl Locate for [Point] is spelled the way Rust does, and stays a member
    (slice,) = [n for n in rust.nodes_named("centroid") if n.qualified_name.startswith("<")]
    assert (slice.kind, slice.qualified_name) == ("method", "<[Point] as Locate>::centroid")
    (vec,) = [n for n in rust.nodes_named("centroid") if n.qualified_name == "Vec::centroid"]
    assert vec.kind == "method"


def test_impl_of_a_trait_in_another_file_than_the_type_still_implements(rust):
    # lib.rs: use crate::square::Square; impl Named for Square { .. }
    assert ("Square", "shapes/src/lib.rs", "Named") in edges(rust, "implements")
    (name,) = [
        n
        for n in rust.nodes_named("name")
        if n.file_path == "shapes/src/lib.rs" and n.kind == "method" and n.qualified_name == "Square::name"
    ]
    assert rust.parent(name.id).qualified_name == "Square"


def test_trait_objects_impl_trait_and_generic_bounds_call_the_trait_method(rust):
    calls = edges(rust, "calls")
    assert ("compare", "shapes/src/lib.rs", "Area::area") in calls  # &dyn Area, impl Area
    assert ("name_twice", "shapes/src/lib.rs", "Named::name") in calls  # T: Named + Clone
    assert ("halve", "shapes/src/lib.rs", "Area::double_area") in calls  # where S: Area + Send


def test_a_glob_reexport_compiled_only_for_tests_does_not_win(rust):
    # lib.rs re-exports clock::* normally and clock_mock::* under cfg(all(test, loom))
    calls = edges(rust, "calls")
    assert ("stamp", "shapes/src/clock.rs", "ticks") in calls
    assert not [c for c in calls if c[1] == "shapes/src/clock_mock.rs"]


def test_impl_inside_an_inline_module_belongs_to_the_module_type(rust):
    (value,) = rust.nodes_named("value")
    assert value.qualified_name == "units::Meters::value"
    assert rust.parent(value.id).qualified_name == "units::Meters"


def test_statics_and_consts_type_calls_through_their_paths(tmp_path):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    files = {
        "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\n',
        "src/lib.rs": "pub mod types;\npub mod job;\n",
        "src/types.rs": (
            "use std::sync::Mutex;\n\npub struct Registry;\n\nimpl Registry {\n"
            "    pub const EMPTY: Registry = Registry;\n\n    pub fn add(&self) {}\n\n    pub fn lock(&self) {}\n}\n\n"
            "pub static REGISTRY: Registry = Registry;\npub static GUARDED: Mutex<Registry> = Mutex::new(Registry);\n"
        ),
        "src/job.rs": (
            "pub fn tick() {\n    crate::types::REGISTRY.add();\n    crate::types::GUARDED.lock();\n}\n\n"
            "pub fn reset() {\n    crate::types::Registry::EMPTY.add();\n}\n"
        ),
    }
    for rel, body in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        calls = edges(reader, "calls")
        left = unresolved(reader, "src/job.rs")
    # a static's declared type, reached through a crate:: path no use statement binds
    assert ("tick", "src/types.rs", "Registry::add") in calls
    # a Mutex<Registry> is a Mutex: its lock() is std's, never Registry::lock
    assert ("tick", "src/types.rs", "Registry::lock") not in calls
    assert "crate.types.GUARDED.lock" in left
    # an associated const's declared type
    assert ("reset", "src/types.rs", "Registry::add") in calls


CHAIN_AFTER_FIELD = """\
pub struct Exec;
pub struct ExecNoSyncStr<'c>(&'c Exec);
pub struct Other;

pub trait Search {
    fn is_match_at(&self, at: usize) -> bool;
}

impl Exec {
    pub fn searcher_str(&self) -> ExecNoSyncStr<'_> {
        ExecNoSyncStr(self)
    }
    pub fn boxed(&self) -> Box<dyn Search> {
        Box::new(Other)
    }
}

impl<'c> ExecNoSyncStr<'c> {
    pub fn is_match_at(&self, at: usize) -> bool {
        at == 0
    }
}

impl Search for Other {
    fn is_match_at(&self, at: usize) -> bool {
        at == 1
    }
}

pub struct Regex(Exec);

pub struct Named {
    exec: Exec,
}

impl Regex {
    pub fn is_match_at(&self, at: usize) -> bool {
        self.0.searcher_str().is_match_at(at)
    }
    pub fn through_a_box(&self) -> bool {
        self.0.boxed().is_match_at(0)
    }
}

impl Named {
    pub fn check(&self) -> bool {
        self.exec.searcher_str().is_match_at(0)
    }
}
"""


def test_a_call_chained_after_a_field_access_resolves_through_the_field_type_and_return_type(tmp_path):
    # shaped like rust-regex's re_unicode.rs: `self.0.searcher_str().is_match_at(text, start)` where
    # `pub struct Regex(Exec)` and `fn searcher_str(&self) -> ExecNoSyncStr<'_>`
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "Cargo.toml").write_text('[package]\nname = "chain"\nversion = "0.1.0"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(CHAIN_AFTER_FIELD)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        calls = {(s, t) for s, _, t in edges(reader, "calls")}
    assert ("Regex::is_match_at", "Exec::searcher_str") in calls  # tuple field 0 is an Exec
    assert ("Regex::is_match_at", "ExecNoSyncStr::is_match_at") in calls  # what searcher_str returns
    assert ("Named::check", "Exec::searcher_str") in calls
    assert ("Named::check", "ExecNoSyncStr::is_match_at") in calls  # a named field alike
    # Box<dyn Search> names no project type: is_match_at stays unresolved, never a guess at one of
    # the two methods of that name
    assert ("Regex::through_a_box", "Exec::boxed") in calls
    assert not {t for s, t in calls if s == "Regex::through_a_box"} - {"Exec::boxed", "Box::new"}


def _tree(root, files: dict[str, str]) -> None:
    for rel, body in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)


def _calls(root) -> set[tuple[str, str]]:
    from codegraph.store.reader import Reader

    with Reader(root) as reader:
        rows = reader.conn.execute(
            "SELECT s.file_path, t.file_path FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls'"
        )
        return {tuple(r) for r in rows}


def test_a_workspace_crate_is_named_by_its_cargo_toml_not_its_folder(tmp_path):
    # crates/util-dir/Cargo.toml says `name = "fancy_util"`: `use fancy_util::go` in app is that crate's
    # go (the folder name util_dir names nothing); read from the manifests below
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.query.status import status
    from codegraph.store.reader import Reader

    _tree(
        tmp_path,
        {
            "Cargo.toml": '[workspace]\nmembers = ["crates/util-dir", "app", "broken"]\n',
            "crates/util-dir/Cargo.toml": '[package]\nname = "fancy-util"\nversion = "0.1.0"\n',
            "crates/util-dir/src/lib.rs": "pub fn go() {}\n",
            "app/Cargo.toml": '[package]\nname = "app"\n',
            "app/src/main.rs": "use fancy_util::go;\n\nfn main() {\n    go();\n    util_dir::go();\n}\n",
            "broken/Cargo.toml": "[package\nname = 1\n",
            "broken/src/lib.rs": "pub fn f() {}\n",
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert _calls(tmp_path) == {("app/src/main.rs", "crates/util-dir/src/lib.rs")}
    with Reader(tmp_path) as reader:
        problems = status(reader).manifests
    assert list(problems) == ["broken/Cargo.toml"] and problems["broken/Cargo.toml"].startswith(
        "not parseable"
    )


def test_a_crate_root_added_later_is_found_by_its_cargo_name_on_sync(tmp_path):
    # the crate's lib.rs arrives after the first index: a sync gives the full index's edge
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths

    _tree(
        tmp_path,
        {
            "lib/Cargo.toml": '[package]\nname = "core_bits"\n',
            "app/Cargo.toml": '[package]\nname = "app"\n',
            "app/src/main.rs": "fn main() {\n    core_bits::go();\n}\n",
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert _calls(tmp_path) == set()
    _tree(tmp_path, {"lib/src/lib.rs": "pub fn go() {}\n"})
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert _calls(tmp_path) == {("app/src/main.rs", "lib/src/lib.rs")}
