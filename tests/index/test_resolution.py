"""Resolution on small fixtures that reproduce what was checked by hand on Django and rxjs."""

from __future__ import annotations

from codegraph.query.relations import callees, callers


def caller_names(reader, symbol):
    return sorted({s.node.qualified_name for g in callers(reader, symbol).groups for s in g.sites})


def callee_names(reader, symbol):
    return sorted({s.node.qualified_name for g in callees(reader, symbol).groups for s in g.sites})


def test_builtin_filter_call_is_not_a_caller_of_queryset_filter(indexed):
    reader = indexed("python")
    assert caller_names(reader, "QuerySet.filter") == ["QuerySet::get"]
    unresolved = reader.conn.execute(
        "SELECT COUNT(*) FROM unresolved_refs WHERE reference_name = 'filter' AND file_path = 'shop/db/query.py'"
    ).fetchone()[0]
    assert unresolved == 1


def test_dict_items_call_is_not_a_caller_of_sitemap_items(indexed):
    reader = indexed("python")
    assert caller_names(reader, "Sitemap.items") == []


def test_self_attribute_typed_by_constructor_resolves_through_base_class(indexed):
    reader = indexed("python")
    # self.where = WhereNode(); WhereNode(tree.Node) inherits add: the call goes to Node.add, not Collector.add
    assert "Node::add" in callee_names(reader, "Query.add_q")
    assert caller_names(reader, "Collector.add") == []
    assert caller_names(reader, "Node.add") == ["Query::add_q"]


def test_self_method_call_resolves_inside_the_enclosing_class(indexed):
    reader = indexed("python")
    assert "Query::build_filter" in callee_names(reader, "Query.add_q")


def test_import_through_package_reexport_resolves_instantiation(indexed):
    reader = indexed("python")
    # views: `from shop import db`; db.QuerySet(...) → shop/db/__init__ re-exports QuerySet from .query
    assert "QuerySet" in callee_names(reader, "list_products")
    assert "active_only" in callee_names(reader, "list_products")
    # query.py: `from shop.db import sql`; sql.Query(...) → the submodule's re-export of Query
    assert callee_names(reader, "QuerySet.__init__") == ["Query"]
    # self._query = query or sql.Query(...) types self._query: filter → Query.add_q
    assert callee_names(reader, "QuerySet.filter") == ["Query::add_q"]


def test_extends_edges_link_python_subclass_to_imported_base(indexed):
    reader = indexed("python")
    rows = reader.conn.execute(
        "SELECT s.name, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source "
        "JOIN nodes t ON t.id = e.target WHERE e.kind = 'extends'"
    ).fetchall()
    assert [tuple(r) for r in rows] == [("WhereNode", "Node")]


def test_typescript_named_import_through_index_reexport_resolves(indexed):
    reader = indexed("typescript")
    assert callee_names(reader, "double") == ["Observable::pipe", "map"]


def test_typescript_this_call_and_new_expression_resolve(indexed):
    reader = indexed("typescript")
    assert callee_names(reader, "Subscriber.next") == ["Subscriber::emit"]
    assert caller_names(reader, "Subscriber") == ["Observable::subscribe"]
    # `const subscriber = new Subscriber()` types the local: subscriber.next → Subscriber.next
    assert "Subscriber::next" in callee_names(reader, "Observable.subscribe")


def test_typescript_untyped_receiver_and_builtins_stay_unresolved(indexed):
    reader = indexed("typescript")
    # `fns.reduce(...)` and `values.set(...)` name no project method; `new Map()` is the builtin
    names = {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}
    assert {"fns.reduce", "values.set", "Map"} <= names
    assert caller_names(reader, "Subscription.unsubscribe") == []


def test_typescript_extends_and_implements_edges(indexed):
    reader = indexed("typescript")
    rows = {
        tuple(r)
        for r in reader.conn.execute(
            "SELECT s.name, e.kind, t.name FROM edges e JOIN nodes s ON s.id = e.source "
            "JOIN nodes t ON t.id = e.target WHERE e.kind IN ('extends', 'implements')"
        )
    }
    assert rows == {
        ("Subscriber", "extends", "Subscription"),
        ("Subscription", "implements", "Unsubscribable"),
    }


def test_src_layout_package_imported_by_its_own_name_resolves(tmp_path):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "src" / "pkg" / "__init__.py").write_text("from .core import make\n")
    (tmp_path / "src" / "pkg" / "core.py").write_text("def make():\n    return 1\n")
    (tmp_path / "tests" / "test_core.py").write_text(
        "import pkg\nfrom pkg import make\n\n\ndef test_a():\n    make()\n\n\ndef test_b():\n    pkg.make()\n"
    )
    # a top-level module of the same name as a stdlib one must not be captured by the alias
    (tmp_path / "tests" / "test_json.py").write_text("import json\n\n\ndef test_c():\n    json.dumps(1)\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert caller_names(reader, "make") == ["test_a", "test_b"]
        names = {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}
        assert "json.dumps" in names


def test_attribute_typed_in_an_inherited_init_types_calls_in_the_subclass(tmp_path):
    """Django's BaseCommand sets ``self.stdout = OutputWrapper(...)``; subclasses call ``self.stdout.write``."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "base.py").write_text(
        "class Wrapper:\n    def write(self, msg):\n        return msg\n\n\n"
        "class Base:\n    def __init__(self):\n        self.out = Wrapper()\n"
    )
    (tmp_path / "cmd.py").write_text(
        "from base import Base\n\n\nclass Command(Base):\n    def handle(self):\n        self.out.write('x')\n"
        "        self.err.write('y')\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert callee_names(reader, "Command.handle") == ["Wrapper::write"]
        assert caller_names(reader, "Wrapper.write") == ["Command::handle"]


def test_called_parameters_and_locals_shadow_project_definitions(tmp_path):
    """Issue 11: ``def f(default): default()`` bound to an unrelated project function ``default``."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "filters.py").write_text(
        "def default(value):\n    return value\n\n\ndef render():\n    return 1\n"
    )
    (tmp_path / "cache.py").write_text(
        "def get(key, default=None):\n    return default()\n\n\n"
        "def each(items):\n    for render in items:\n        render()\n    with open('x') as condition:\n"
        "        condition()\n    try:\n        pass\n    except Exception as function:\n        function()\n"
        "    return [f() for f in items]\n\n\n"
        "def plain():\n    return render()\n"
    )
    (tmp_path / "ui.js").write_text(
        "function render() { return 1; }\n"
        "export function draw(render, { paint }) {\n  render();\n  paint();\n  for (const x of []) { x(); }\n}\n"
        "export function redraw() {\n  return render();\n}\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert caller_names(reader, "default") == []
        assert caller_names(reader, "filters.py:render") == ["plain"]
        assert caller_names(reader, "ui.js:render") == ["redraw"]


def test_module_level_instances_class_attributes_and_properties_type_their_uses(tmp_path):
    """Issue 11: ``pre_save = Signal()`` used from another module, ``objects = Manager()``, a
    ``@property`` that returns a constructed object, and JS ``const _v = new Vector3()``."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "dispatch.py").write_text(
        "class Signal:\n    def connect(self, receiver):\n        return receiver\n\n\npre_save = Signal()\n"
    )
    (tmp_path / "models.py").write_text(
        "from dispatch import pre_save\n\n\nclass Manager:\n    def filter(self, **kw):\n        return kw\n\n\n"
        "class Query:\n    def where(self):\n        return 1\n\n\n"
        "class Model:\n    objects = Manager()\n\n    @property\n    def query(self):\n        return Query()\n\n"
        "    def save(self):\n        pre_save.connect(self)\n        self.objects.filter(a=1)\n"
        "        return self.query.where()\n\n\n"
        "def lookup():\n    return Model.objects.filter(pk=1)\n"
    )
    (tmp_path / "math.js").write_text(
        "class Vector3 {\n  dot(v) { return 0; }\n}\nconst _v = new Vector3();\n"
        "export function project(v) {\n  return _v.dot(v);\n}\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert callee_names(reader, "Model.save") == ["Manager::filter", "Query::where", "Signal::connect"]
        assert callee_names(reader, "lookup") == ["Manager::filter"]
        assert callee_names(reader, "project") == ["Vector3::dot"]


def test_methods_defined_by_assignment_are_methods_of_their_class_with_their_own_calls(tmp_path):
    """three.js: ``this.render = function`` in a constructor, ``Foo.prototype.bar = function``,
    ``this.matrix = new Matrix4()``; CommonJS ``exports.a = function`` / ``module.exports = {…}``."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "m.js").write_text(
        "class Matrix4 {\n  compose() { return this; }\n}\n"
        "class Renderer {\n  constructor() {\n    this.matrix = new Matrix4();\n"
        "    this.render = function (scene) {\n      this.matrix.compose();\n      this.clear();\n    };\n  }\n"
        "  clear() {}\n}\n"
        "function Loader() {}\nLoader.prototype.load = function (url) {\n  return fetchIt(url);\n};\n"
        "function fetchIt(url) { return url; }\n"
        "exports.helper = function () { return fetchIt('x'); };\n"
        "function area() { return 1; }\nmodule.exports = { area, size: area };\n"
    )
    (tmp_path / "use.js").write_text(
        "const m = require('./m');\nconst { helper } = require('./m');\n"
        "function main() {\n  m.area();\n  m.size();\n  helper();\n}\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert callee_names(reader, "Renderer.render") == ["Matrix4::compose", "Renderer::clear"]
        assert callee_names(reader, "Renderer.constructor") == ["Matrix4"]  # render's calls are its own
        assert callee_names(reader, "Loader.load") == ["fetchIt"]
        assert callee_names(reader, "main") == ["area", "helper"]


def test_name_only_matches_are_the_lowest_tier_shown_and_filterable(tmp_path):
    """Issue 11: confidence you can see — callers say when an edge is a name-only guess, --json
    always carries confidence, min_confidence drops guesses; status counts likely-internal misses."""
    import json
    import subprocess
    import sys

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.query.impact import impact
    from codegraph.query.relations import callers
    from codegraph.render import render, to_data
    from codegraph.store.reader import Reader

    (tmp_path / "util.py").write_text("def helper():\n    return 1\n")
    (tmp_path / "app.py").write_text(
        "from util import helper\n\n\ndef run():\n    return helper()\n\n\nclass A:\n    def go(self):\n"
        "        self.missing()\n        nowhere()\n        return [].append(1)\n"
    )
    (tmp_path / "loose.py").write_text("def guess():\n    return helper()\n")  # no import: a name-only match
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.unresolved_likely_internal == 2  # self.missing() and nowhere(); not [].append
    with Reader(tmp_path) as reader:
        result = callers(reader, "helper")
        text = render(result)
        assert "run (function)" in text and "confidence" not in text.split("run (function)")[1].split("\n")[0]
        assert "guess (function)" in text and "[confidence 0.5: name-only match" in text
        sites = to_data(result)["groups"][0]["sites"]
        assert {s["node"]["name"]: (s["confidence"], s["resolved_by"]) for s in sites} == {
            "run": (0.9, "import"),
            "guess": (0.5, "exact-match"),
        }
        sure = callers(reader, "helper", min_confidence=0.9)
        assert [s.node.name for g in sure.groups for s in g.sites] == ["run"]
        assert [n.name for n in impact(reader, "helper", min_confidence=0.9).by_depth[1]] == ["app.py", "run"]
    out = subprocess.run(
        [sys.executable, "-m", "codegraph", "status", "--json", "--path", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)["unresolved"]["python"] == {"unresolved": 3, "likely_internal": 2}


def test_functions_passed_as_values_are_references_that_impact_finds(tmp_path):
    """Issue 11: ``partial(f, 1)``, ``signal.connect(handler)``, ``arr.map(transform)`` — a
    ``references`` edge from the place that passes the function; stray arguments bind nothing."""
    from functools import partial  # noqa: F401 - the fixture below uses it by name

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.query.impact import impact
    from codegraph.store.reader import Reader

    (tmp_path / "handlers.py").write_text(
        "def on_save(sender):\n    return sender\n\n\ndef data():\n    return 1\n"
    )
    (tmp_path / "wire.py").write_text(
        "from functools import partial\n\nfrom handlers import on_save\n\n\n"
        "def setup(signal, data):\n    signal.connect(on_save)\n    return partial(on_save, 1), print(data)\n"
    )
    (tmp_path / "ui.js").write_text(
        "function transform(x) { return x; }\nexport function run(xs) {\n  return xs.map(transform);\n}\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        refs = {
            tuple(r)
            for r in reader.conn.execute(
                "SELECT s.name, t.name FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
                " WHERE e.kind = 'references'"
            )
        }
        assert refs == {("setup", "on_save"), ("run", "transform")}  # `data` is a parameter: no edge
        assert "setup" in [n.name for n in impact(reader, "on_save").by_depth[1]]
        unresolved = {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}
        assert "data" not in unresolved  # a plain argument is not an unresolved reference


def test_inherited_methods_resolve_in_method_resolution_order_and_overrides_win(tmp_path):
    """Issue 11: ``UserRepo().save()``, ``r = UserRepo(); r.save()``, ``self.repo.save()`` through the
    class hierarchy, in C3 order: class D(B, C) with B(A), C(A) finds C.save before A.save."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "repo.py").write_text(
        "class Repo:\n    def save(self):\n        return 1\n\n    def delete(self):\n        return 0\n\n\n"
        "class UserRepo(Repo):\n    def delete(self):\n        return 2\n\n\n"
        "class A:\n    def save(self):\n        return 'a'\n\n\nclass B(A):\n    pass\n\n\n"
        "class C(A):\n    def save(self):\n        return 'c'\n\n\nclass D(B, C):\n    pass\n"
    )
    (tmp_path / "service.py").write_text(
        "from repo import D, UserRepo\n\n\nclass Service:\n    def __init__(self):\n        self.repo = UserRepo()\n\n"
        "    def run(self):\n        UserRepo().save()\n        r = UserRepo()\n        r.delete()\n"
        "        self.repo.save()\n"
        "        return D().save()\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert callee_names(reader, "Service.run") == [
            "C::save",
            "D",
            "Repo::save",
            "UserRepo",
            "UserRepo::delete",
        ]


def test_js_aliases_and_required_module_members_resolve(tmp_path):
    """Issue 11: ``export const b = a``, ``const c = a; c()``, ``require('./m').a()``."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "m.js").write_text(
        "function compute() { return 1; }\nexport const run = compute;\nconst again = compute;\n"
        "export function local() { return again(); }\nexports.helper = function () { return 2; };\n"
    )
    (tmp_path / "use.js").write_text(
        "import { run } from './m.js';\nexport function main() {\n  run();\n  return require('./m').helper();\n}\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert callee_names(reader, "main") == ["compute", "helper"]
        assert callee_names(reader, "local") == ["compute"]


def test_python_module_level_aliases_and_partials_resolve_to_the_function(tmp_path):
    """Django's ``path = partial(_path, Pattern=RoutePattern)`` and ``x = y`` aliases."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "conf.py").write_text(
        "from functools import partial\n\n\ndef _path(route, view, Pattern=None):\n    return route\n\n\n"
        "path = partial(_path, Pattern=1)\nre_path = _path\n"
    )
    (tmp_path / "urls.py").write_text(
        "from conf import path, re_path\n\n\ndef patterns():\n    return [path('a', 1), re_path('b', 2)]\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert callee_names(reader, "patterns") == ["_path"]
        assert len(callers(reader, "_path").groups[0].sites) == 2


def test_two_calls_on_one_line_are_one_caller_row_with_a_count(tmp_path):
    """Found by a new user on rxjs: ``switchMapTo`` was listed twice for two calls on one line."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.render import render
    from codegraph.store.reader import Reader

    (tmp_path / "a.py").write_text("def f(x):\n    return x\n\n\ndef g():\n    return f(f(1))\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        text = render(callers(reader, "f"))
    assert text.count("g (function)") == 1 and "a.py:6  ×2" in text


def _c_project() -> list:
    """A C tree whose includes form a cycle (a.h <-> b.h), declare one name twice (f in a.h and
    b.h) and chain ten headers deep (h1.h -> ... -> h10.h)."""
    from codegraph.index.extract import extract

    files = {
        "main.c": '#include "a.h"\n#include "b.h"\n#include "h1.h"\n'
        "int main(void) { f(); g(); shallow(); deep(); return 0; }\n",
        "a.h": '#include "b.h"\nint f(void);\n',
        "b.h": '#include "a.h"\nint f(void);\nint g(void);\n',
        "h9.h": '#include "h10.h"\nint shallow(void);\n',
        "h10.h": "int deep(void);\n",
    }
    for i in range(1, 9):
        files[f"h{i}.h"] = f'#include "h{i + 1}.h"\n'
    return [extract(path, text.encode(), "c") for path, text in sorted(files.items())]


def test_c_include_lookups_take_the_first_header_in_include_order_and_stop_past_the_hop_limit():
    from codegraph.index.resolve import resolve

    files = _c_project()
    where = {n.id: f"{n.file_path}:{n.name}" for fx in files for n in fx.nodes}
    out = resolve(files)
    targets = {where[e.target] for e in out.edges if e.kind == "calls"}
    # main.c sees a.h first: its f; g only in b.h (through a.h's include); shallow is 8 hops down
    # (h1.h at hop 0 … h9.h at hop 8), deep one hop further, past MAX_HOPS: no edge
    assert targets == {"a.h:f", "b.h:g", "h9.h:shallow"}
    assert {r.name for r, _, _ in out.unresolved} == {"deep"}


def test_plain_include_lookups_answer_as_the_per_name_walk(monkeypatch):
    from codegraph.index.resolve import _Project, resolve

    fast = resolve(_c_project())
    monkeypatch.setattr(_Project, "_star_order", lambda self, path: None)  # every module "not plain"
    slow = resolve(_c_project())
    assert fast.edges == slow.edges and fast.unresolved == slow.unresolved
