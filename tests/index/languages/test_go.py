"""Go over fixtures/repos/go (a go.mod module, three packages) through the real indexer.

Every expected edge below was read off the fixture's source, not off the tool's output."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import answers


def edges(reader, kind: str) -> set[tuple[str, str]]:
    """(source qualified name, target file:qualified name) of every ``kind`` edge."""
    rows = reader.conn.execute(
        "SELECT s.qualified_name, t.file_path, t.qualified_name FROM edges e"
        " JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
        (kind,),
    )
    return {(src, f"{path}:{dst}") for src, path, dst in rows}


def rows(reader, sql: str, *args) -> list[tuple]:
    return [tuple(r) for r in reader.conn.execute(sql, args)]


def unresolved(reader) -> set[tuple[str, str]]:
    rows = reader.conn.execute("SELECT file_path, reference_name FROM unresolved_refs")
    return {(path, name) for path, name in rows}


@pytest.fixture
def go(indexed):
    return indexed("go")


def test_a_method_written_in_another_file_belongs_to_its_receiver_type(go):
    owner = rows(
        go,
        "SELECT p.qualified_name, p.file_path FROM edges e JOIN nodes p ON p.id = e.source"
        " JOIN nodes c ON c.id = e.target WHERE e.kind = 'contains' AND c.qualified_name = 'Item::Total'",
    )
    assert owner == [("Item", "model/item.go")]
    kinds = dict(rows(go, "SELECT qualified_name, kind FROM nodes WHERE file_path = 'model/totals.go'"))
    assert kinds["Item::Total"] == "method" and kinds["Sum"] == "function"


def test_methods_of_named_slice_types_and_methods_named_like_their_type_are_members(go):
    contained = set(
        rows(
            go,
            "SELECT p.qualified_name, c.qualified_name FROM edges e JOIN nodes p ON p.id = e.source"
            " JOIN nodes c ON c.id = e.target WHERE e.kind = 'contains' AND c.file_path = 'model/totals.go'",
        )
    )
    assert ("Items", "Items::Total") in contained  # type Items []*Item
    assert ("Error", "Error::Error") in contained  # func (e *Error) Error() string
    calls = edges(go, "calls")
    assert ("main", "model/totals.go:Items::Total") in calls  # var basket m.Items
    assert ("main", "model/totals.go:Error::Error") in calls  # soldOut := &m.Error{...}
    assert ("Items::Total", "model/totals.go:Sum") in calls


def test_imports_resolve_through_the_module_path_to_the_package_files_used(go):
    imported = {
        dst
        for src, path, dst in go.conn.execute(
            "SELECT s.file_path, e.kind, t.file_path FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = 'imports' AND s.file_path = 'store/store.go'"
        )
    }
    assert imported == {"model/item.go", "model/totals.go"}


def test_package_qualified_and_aliased_calls_reach_the_package_function(go):
    calls = edges(go, "calls")
    assert ("main", "store/store.go:New") in calls  # store.New
    assert ("main", "model/item.go:NewItem") in calls  # m "example.com/shop/model"; m.NewItem
    assert ("Store::Value", "model/totals.go:Sum") in calls


def test_same_package_call_needs_no_import(go):
    assert ("Store::bonus", "store/helpers.go:clampBonus") in edges(go, "calls")


def test_receivers_parameters_and_locals_type_member_calls(go):
    calls = edges(go, "calls")
    assert ("Item::Describe", "model/totals.go:Item::Total") in calls  # receiver i Item
    assert ("report", "store/store.go:Store::Value") in calls  # parameter s *store.Store
    assert ("main", "store/store.go:Store::Add") in calls  # st := store.New(5)
    assert ("main", "model/item.go:Item::Describe") in calls  # item := m.Item{...}
    assert ("Sum", "model/totals.go:Item::Total") in calls  # for _, it := range items ([]*Item)
    assert ("Store::Add", "store/store.go:Stack::Push") in calls  # undo := &Stack[string]{}


def test_interface_typed_variable_calls_the_interface_method(go):
    calls = edges(go, "calls")
    assert ("main", "model/item.go:Priced::Price") in calls  # var p m.Priced = it
    assert ("main", "model/item.go:Labeled::Label") in calls


def test_embedded_struct_promotes_its_methods(go):
    assert ("Store", "store/base.go:Base") in edges(go, "extends")
    calls = edges(go, "calls")
    assert ("Store::Add", "store/base.go:Base::Log") in calls  # s.Log on *Store
    assert ("main", "store/base.go:Base::Log") in calls  # st.Log


def test_embedded_interface_is_an_extends_edge(go):
    assert ("Labeled", "model/item.go:Priced") in edges(go, "extends")


def test_composite_literals_and_new_instantiate(go):
    inst = edges(go, "instantiates")
    assert ("NewItem", "model/item.go:Item") in inst  # &Item{...}
    assert ("New", "store/store.go:Store") in inst
    assert ("New", "store/base.go:Base") in inst  # &Base{prefix: ...} inside the literal
    assert ("main", "model/item.go:Item") in inst  # m.Item{...}


def test_builtin_is_shadowed_only_inside_the_package_that_defines_it(go):
    calls = edges(go, "calls")
    assert ("Store::Add", "store/base.go:max") in calls  # package store defines max
    assert not any(src == "main" and dst.endswith(":max") for src, dst in calls)  # main's max is the builtin
    assert ("main.go", "max") in unresolved(go)


def test_a_parameter_shadows_the_package_function_of_that_name(go):
    assert not any(src == "apply" for src, _ in edges(go, "calls"))  # clampBonus(n) is the parameter
    assert ("store/helpers.go", "clampBonus") in unresolved(go)


def test_untyped_receivers_func_values_and_stdlib_stay_unresolved(go):
    calls = edges(go, "calls")
    assert not any(dst.endswith("Base::Close") for _, dst in calls)  # resp.Body.Close is net/http's
    missing = unresolved(go)
    assert ("store/store.go", "resp.Body.Close") in missing
    assert ("main.go", "handler") in missing  # handler := st.Add; handler(...)
    assert ("main.go", "fmt.Println") in missing
    assert ("store/store.go", "http.Get") in missing


def test_signatures_docs_and_export_flags(go):
    (row,) = rows(
        go,
        "SELECT signature, docstring, is_exported, return_type FROM nodes WHERE qualified_name = 'NewItem'",
    )
    assert row == ("(name string, cents int) *Item", "NewItem builds an item with quantity one.", 1, "*Item")
    assert rows(go, "SELECT is_exported FROM nodes WHERE qualified_name = 'clampBonus'") == [(0,)]
    kinds = dict(rows(go, "SELECT qualified_name, kind FROM nodes WHERE file_path = 'model/item.go'"))
    assert kinds["Priced"] == "interface" and kinds["Item"] == "struct" and kinds["Item::Name"] == "field"


def test_test_and_generated_files_are_recognised(go):
    from codegraph.index.languages import is_generated_path, is_test_path

    assert is_test_path("store/store_test.go") and not is_test_path("store/store.go")
    assert is_test_path("go/analysis/testdata/src/a/a.go")
    head = "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage gen\n"
    assert is_generated_path("gen/api.go", head)
    assert is_generated_path("api/v1/service.pb.go", "package v1\n")
    assert not is_generated_path("store/store.go", "package store\n\n// do not edit this by hand, please\n")
    assert not is_generated_path(
        "cmd/gen/gen.go", "// The generator of tables.go; run go generate.\npackage main\n"
    )
    # the banner counts only above the package clause: below it, it is text about generated code
    banner = "// Code generated by stringer. DO NOT EDIT.\n"
    assert is_generated_path("kind_string.go", f"// Copyright 2026.\n\n{banner}\npackage kind\n")
    assert not is_generated_path("emit.go", f"package gen\n\nconst header = `\n{banner}`\n")
    assert not is_generated_path("emit.go", f"package gen\n\n{banner}func f() {{}}\n")


def test_build_constrained_twin_does_not_hide_the_default_build(tmp_path):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "go.mod").write_text("module example.com/tw\n")
    (tmp_path / "a.go").write_text("//go:build !tiny\n\npackage tw\n\nfunc check() int { return 1 }\n")
    (tmp_path / "b.go").write_text("//go:build tiny\n\npackage tw\n\nfunc check() int { return 2 }\n")
    (tmp_path / "c_windows.go").write_text("package tw\n\nfunc size() int { return 1 }\n")
    (tmp_path / "c_linux.go").write_text("package tw\n\nfunc size() int { return 2 }\n")
    (tmp_path / "use.go").write_text("package tw\n\nfunc Use() int { return check() + size() }\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert edges(reader, "calls") == {("Use", "a.go:check"), ("Use", "c_linux.go:size")}


ROUTER_TREE_GO = """package rt

type node struct{ path string }

func (n *node) getValue(p string) string { return n.path + p }

type methodTree struct {
	method string
	root   *node
}

type methodTrees []methodTree

type byName map[string]*node

type List[T any] []T

type T struct{}

func (T) getValue(p string) string { return p }

func (trees methodTrees) get(method string) *node {
	for _, tree := range trees {
		if tree.method == method {
			return tree.root
		}
	}
	return nil
}
"""

ROUTER_ENGINE_GO = """package rt

type Engine struct {
	trees methodTrees
	one   methodTree
	named byName
	ptr   *methodTrees
	list  List[methodTree]
	raw   []methodTree
}

func (e *Engine) handle(p string) string {
	t := e.trees
	for i := 0; i < len(t); i++ {
		root := t[i].root
		root.getValue(p)
	}
	e.trees[0].root.getValue(p)
	for _, tree := range e.trees {
		tree.root.getValue(p)
	}
	e.one.root.getValue(p)
	e.named["x"].getValue(p)
	v, ok := e.named["y"]
	if ok {
		v.getValue(p)
	}
	(*e.ptr)[0].root.getValue(p)
	e.list[0].getValue(p)
	e.raw[0].root.getValue(p)
	return ""
}

type link struct{ next *link }

func (l *link) getValue(p string) string { return p }

var head *link

func shadow(p string) {
	head := head.next
	head.getValue(p)
}
"""


def test_index_and_range_take_the_element_type_of_named_slice_and_map_types(tmp_path):
    # gin's router: trees methodTrees, type methodTrees []methodTree, methodTree.root *node
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "go.mod").write_text("module example.com/rt\n")
    (tmp_path / "tree.go").write_text(ROUTER_TREE_GO)
    (tmp_path / "engine.go").write_text(ROUTER_ENGINE_GO)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        calls = rows(
            reader,
            "SELECT e.line, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls' AND s.qualified_name = 'Engine::handle'",
        )
        missing = unresolved(reader)
    # 16 root := t[i].root (t := e.trees), 18 e.trees[0].root, 20 range e.trees, 22 e.one.root,
    # 23 e.named["x"] (map[string]*node), 26 v, ok := e.named["y"], 28 (*e.ptr)[0] (ptr *methodTrees)
    assert sorted(calls) == [(line, "node::getValue") for line in (16, 18, 20, 22, 23, 26, 28)]
    # 41 head := head.next: the local's one fact goes through itself: unknown, and no endless loop
    assert ("engine.go", "head.getValue") in missing
    # List[T any] []T: the element is the type parameter, never the package's type T;
    # raw []methodTree: an unnamed slice type states no element
    assert ("engine.go", "e.list.[].getValue") in missing
    assert ("engine.go", "e.raw.[].root.getValue") in missing


def test_every_operation_answers_on_the_go_fixture(go, monkeypatch):
    root = go.root
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    cases = {
        "codegraph_search": ({"query": "Store"}, "store/store.go"),
        "codegraph_node": ({"symbol": "Item.Total"}, "func (i *Item) Total() int"),
        "codegraph_callers": ({"symbol": "Item.Total"}, "Describe"),
        "codegraph_callees": ({"symbol": "Store.Add"}, "Log"),
        "codegraph_impact": ({"symbol": "Base"}, "Store"),
        "codegraph_trace": ({"from": "main", "to": "Item.Total"}, "Describe"),
        "codegraph_files": ({"path": "store"}, "store.go"),
        "codegraph_status": ({}, "go"),
        "codegraph_context": ({"task": "add a discount when an item is added to the store"}, "Store::Add"),
        "codegraph_explore": ({"query": "how does the store add an item and log it"}, "func (s *Store) Add"),
    }
    answers(root, cases)


def _go_tree(root, files: dict[str, str]) -> None:
    for rel, body in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)


def test_the_module_path_comes_from_go_mod_even_for_a_single_import(tmp_path):
    # A minimal module: one import of its own package. Inference from import paths alone does not
    # trust one lone import; go.mod says the module is example.com/m, so sub.S() is sub/s.go's S
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    _go_tree(
        tmp_path,
        {
            "go.mod": "// the app\nmodule example.com/m // its path\n\ngo 1.21\n",
            "m.go": 'package main\n\nimport "example.com/m/sub"\n\nfunc main() {\n\tsub.S()\n}\n',
            "sub/s.go": "package sub\n\nfunc S() {}\n",
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert edges(reader, "calls") == {("main", "sub/s.go:S")}
    # another module path in go.mod: example.com/m/sub is no project package any more, on a sync too
    (tmp_path / "go.mod").write_text("module example.com/other\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert edges(reader, "calls") == set()
        assert ("m.go", "sub.S") in unresolved(reader)


def test_a_nested_go_mod_is_another_module(tmp_path):
    # tools/go.mod declares example.com/tools: its packages are imported by that path, and the outer
    # module's path into that directory names no package of the outer module (read from the go.mod files)
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    _go_tree(
        tmp_path,
        {
            "go.mod": "module example.com/m\n",
            "m.go": (
                'package main\n\nimport (\n\t"example.com/m/tools/gen"\n\tother "example.com/tools/gen"\n)\n\n'
                "func main() {\n\tgen.Run()\n\tother.Run()\n}\n"
            ),
            "tools/go.mod": 'module "example.com/tools"\n',
            "tools/gen/gen.go": "package gen\n\nfunc Run() {}\n",
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        calls = rows(
            reader,
            "SELECT e.line, t.file_path FROM edges e JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls'",
        )
        assert calls == [(10, "tools/gen/gen.go")]
        assert ("m.go", "gen.Run") in unresolved(reader)


def test_a_go_mod_without_a_module_line_is_reported_and_inference_takes_over(tmp_path):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.query.status import status
    from codegraph.store.reader import Reader

    _go_tree(
        tmp_path,
        {
            "go.mod": "go 1.21\n",
            "a.go": 'package a\n\nimport (\n\t"example.com/a/x"\n\t"example.com/a/y"\n)\n\nfunc A() { x.X(); y.Y() }\n',
            "x/x.go": "package x\n\nfunc X() {}\n",
            "y/y.go": "package y\n\nfunc Y() {}\n",
        },
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        # two imports agree on example.com/a at the root: the inferred module path
        assert edges(reader, "calls") == {("A", "x/x.go:X"), ("A", "y/y.go:Y")}
        assert status(reader).manifests == {"go.mod": "no module directive"}
