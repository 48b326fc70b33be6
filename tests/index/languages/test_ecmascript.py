"""JavaScript / TypeScript resolution added for issue 11: callbacks typed by the callee's signature,
parameters typed by their default value, object literals of functions, tsconfig ``paths`` /
``baseUrl`` and package.json ``workspaces``. Each test indexes a small project written here (real
files, the real indexer, real SQLite); every expected edge was read off the fixture's code."""

from __future__ import annotations

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader
from tests.index.languages.fixture_graph import edges, unresolved


def index(root, files: dict[str, str]):
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    index_project(ProjectPaths(root.resolve()), workers=1)
    return Reader(root)


def calls_from(reader, source: str) -> set[str]:
    """``file:qualified name`` of everything ``source`` (a qualified name) calls."""
    return {target for src, target in edges(reader, "calls") if src == source}


OBSERVABLE = """\
export class Subscriber<T> { next(v: T) {} complete() {} }
export class Observable<T> {
  constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => void) {}
  subscribe(s: Subscriber<T>) {}
}
export function operate<T, R>(init: (liftedSource: Observable<T>, subscriber: Subscriber<R>) => void) {}
export function loose<T>(cb: (value: T) => void) {}
export function bounded<T extends Subscriber<number>>(cb: (value: T) => void) {}
"""


def test_callback_parameters_take_the_types_of_the_callees_declared_signature(tmp_path):
    with index(
        tmp_path,
        {
            "obs.ts": OBSERVABLE,
            "use.ts": "import { operate } from './obs';\n"
            "export function every() {\n"
            "  return operate((source, subscriber) => {\n"
            "    source.subscribe(subscriber);\n"
            "    subscriber.next(1);\n"
            "  });\n"
            "}\n",
        },
    ) as reader:
        assert calls_from(reader, "every") == {
            "obs.ts:operate",
            "obs.ts:Observable::subscribe",
            "obs.ts:Subscriber::next",
        }


def test_a_callback_passed_to_a_constructor_takes_the_constructors_parameter_types(tmp_path):
    # Observable's constructor: (this: Observable<T>, subscriber: Subscriber<T>) — `this:` takes no argument
    with index(
        tmp_path,
        {
            "obs.ts": OBSERVABLE,
            "make.ts": "import { Observable } from './obs';\n"
            "export function make() {\n"
            "  return new Observable<number>(function (subscriber) { subscriber.complete(); });\n"
            "}\n",
        },
    ) as reader:
        assert calls_from(reader, "make") == {"obs.ts:Subscriber::complete"}


def test_a_callback_parameter_typed_by_a_bounded_type_parameter_takes_the_bound(tmp_path):
    with index(
        tmp_path,
        {
            "obs.ts": OBSERVABLE,
            "b.ts": "import { bounded } from './obs';\n"
            "export function useBound() { bounded(value => value.complete()); }\n",
        },
    ) as reader:
        assert calls_from(reader, "useBound") == {"obs.ts:bounded", "obs.ts:Subscriber::complete"}


def test_a_callback_parameter_of_an_unbounded_type_parameter_stays_unresolved(tmp_path):
    with index(
        tmp_path,
        {
            "obs.ts": OBSERVABLE,
            "l.ts": "import { loose } from './obs';\nexport function useLoose() { loose((value) => value.next(1)); }\n",
        },
    ) as reader:
        assert calls_from(reader, "useLoose") == {"obs.ts:loose"}
        unresolved = {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}
        assert "value.next" in unresolved


def test_a_callback_parameter_with_two_possible_callee_types_in_one_scope_stays_unresolved(tmp_path):
    # both callbacks name their parameter `value`: the function's scope holds two facts, so neither wins
    with index(
        tmp_path,
        {
            "obs.ts": OBSERVABLE,
            "two.ts": "import { operate, bounded } from './obs';\n"
            "export function both() {\n"
            "  operate((value) => value.subscribe(null));\n"
            "  bounded((value) => value.complete());\n"
            "}\n",
        },
    ) as reader:
        assert calls_from(reader, "both") == {"obs.ts:operate", "obs.ts:bounded"}


def test_a_field_assigned_from_a_parameter_takes_the_parameters_default_constructor_type(tmp_path):
    # three.js Plane: constructor(normal = new Vector3(1, 0, 0)) { this.normal = normal; }
    with index(
        tmp_path,
        {
            "vec.js": "export class Vector3 { copy(v) { return this; } }\n",
            "plane.js": "import { Vector3 } from './vec.js';\n"
            "export class Plane {\n"
            "  constructor(normal = new Vector3(1, 0, 0), constant = 0) { this.normal = normal; }\n"
            "  set(n) { this.normal.copy(n); }\n"
            "}\n",
        },
    ) as reader:
        assert calls_from(reader, "Plane::set") == {"vec.js:Vector3::copy"}


def test_a_field_assigned_from_an_annotated_parameter_takes_its_type(tmp_path):
    with index(
        tmp_path,
        {
            "repo.ts": "export class Repo { save() {} }\n",
            "svc.ts": "import { Repo } from './repo';\n"
            "export class Service {\n"
            "  constructor(repo: Repo) { this.repo = repo; }\n"
            "  run() { this.repo.save(); }\n"
            "}\n",
        },
    ) as reader:
        assert calls_from(reader, "Service::run") == {"repo.ts:Repo::save"}


# ---------------------------------------------------------------- manifests (tsconfig, package.json)
def imports_of(reader, path: str) -> set[str]:
    from tests.index.languages.fixture_graph import imported_files

    return imported_files(reader, path)


def test_tsconfig_paths_reached_through_an_extends_chain_map_a_bare_import(tmp_path):
    # the base config has comments and trailing commas; paths are relative to the base's baseUrl ".."
    with index(
        tmp_path,
        {
            "config/tsconfig.base.json": '{\n  // shared\n  "compilerOptions": {"baseUrl": "..",'
            ' "paths": {"@lib/*": ["packages/util/src/*"],},},\n}\n',
            "tsconfig.json": '{"extends": "./config/tsconfig.base.json", "compilerOptions": {"strict": true}}',
            "packages/util/src/fmt.ts": "export function fmt() { return 1; }\n",
            "app/main.ts": "import { fmt } from '@lib/fmt';\nexport function run() { fmt(); }\n",
        },
    ) as reader:
        assert calls_from(reader, "run") == {"packages/util/src/fmt.ts:fmt"}
        assert imports_of(reader, "app/main.ts") == {"packages/util/src/fmt.ts"}


def test_jsconfig_base_url_maps_a_bare_import_to_a_project_file(tmp_path):
    with index(
        tmp_path,
        {
            "jsconfig.json": '{"compilerOptions": {"baseUrl": "src"}}',
            "src/lib/math.js": "export function add(a, b) { return a + b; }\n",
            "src/main.js": "import { add } from 'lib/math';\nexport function main() { return add(1, 2); }\n",
        },
    ) as reader:
        assert calls_from(reader, "main") == {"src/lib/math.js:add"}


def test_each_tsconfig_of_a_monorepo_maps_the_files_under_its_own_directory(tmp_path):
    alias = '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}'
    with index(
        tmp_path,
        {
            "web/tsconfig.json": alias,
            "web/src/util.ts": "export function util() { return 'web'; }\n",
            "web/src/page.ts": "import { util } from '@/util';\nexport function page() { util(); }\n",
            "api/tsconfig.json": alias,
            "api/src/util.ts": "export function util() { return 'api'; }\n",
            "api/src/handler.ts": "import { util } from '@/util';\nexport function handler() { util(); }\n",
        },
    ) as reader:
        assert calls_from(reader, "page") == {"web/src/util.ts:util"}
        assert calls_from(reader, "handler") == {"api/src/util.ts:util"}


WORKSPACE = {
    "package.json": '{"name": "mono", "private": true, "workspaces": ["packages/*"]}',
    # exports point at built output (not indexed): the source under src/ is what the import means
    "packages/core/package.json": '{"name": "@acme/core", "exports": {".": {"types": "./dist/index.d.ts",'
    ' "import": "./dist/index.js"}, "./sub": "./dist/sub.js"}}',
    "packages/core/src/index.ts": "export function coreMain() { return 1; }\n",
    "packages/core/src/sub.ts": "export function coreSub() { return 1; }\n",
    # no exports, no main: src/index.*
    "packages/plain/package.json": '{"name": "plain"}',
    "packages/plain/src/index.js": "export function plainMain() { return 1; }\n",
    # a package.json outside the workspaces names no importable package
    "fixtures/react/package.json": '{"name": "react", "main": "index.js"}',
    "fixtures/react/index.js": "export function useState() { return 1; }\n",
    "packages/app/src/main.ts": "import { coreMain } from '@acme/core';\n"
    "import { coreSub } from '@acme/core/sub';\nimport { plainMain } from 'plain';\n"
    "import { useState } from 'react';\n"
    "export function run() { coreMain(); coreSub(); plainMain(); useState(); }\n",
}


def test_a_workspace_package_import_resolves_to_the_packages_source_through_its_exports(tmp_path):
    with index(tmp_path, WORKSPACE) as reader:
        assert calls_from(reader, "run") == {
            "packages/core/src/index.ts:coreMain",
            "packages/core/src/sub.ts:coreSub",
            "packages/plain/src/index.js:plainMain",
        }


def test_a_package_outside_the_workspaces_is_not_a_target_of_bare_imports(tmp_path):
    with index(tmp_path, WORKSPACE) as reader:
        assert not {t for t in calls_from(reader, "run") if t.startswith("fixtures/")}
        unresolved = {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}
        assert "useState" in unresolved


def test_a_broken_manifest_is_named_by_status_and_resolution_goes_on_without_it(tmp_path):
    from codegraph.query.status import status
    from codegraph.render import render

    with index(
        tmp_path,
        {
            "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["src/*"]',  # cut short
            "src/a.ts": "export function a() { return 1; }\n",
            "src/b.ts": "import { a } from './a';\nexport function b() { a(); }\n",
        },
    ) as reader:
        assert calls_from(reader, "b") == {"src/a.ts:a"}
        result = status(reader)
        assert list(result.manifests) == ["tsconfig.json"]
        assert result.manifests["tsconfig.json"].startswith("not parseable")
        assert "manifest not read: tsconfig.json — not parseable" in render(result)


def test_a_manifest_over_the_size_limit_is_named_by_status_and_read_once_it_fits(tmp_path):
    # before, discovery dropped a manifest over max_bytes without a word: imports it maps stayed
    # unresolved and status said nothing of why
    from codegraph.query.status import status
    from codegraph.render import render

    mapping = '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}}}'
    with index(
        tmp_path,
        {
            "tsconfig.json": mapping + " " * 1_000_001,  # over the default 1,000,000 bytes
            "src/a.ts": "export function a() { return 1; }\n",
            "src/b.ts": "import { a } from '@/a';\nexport function b() { a(); }\n",
        },
    ) as reader:
        assert calls_from(reader, "b") == set()
        result = status(reader)
        assert list(result.manifests) == ["tsconfig.json"]
        assert result.manifests["tsconfig.json"].startswith("too large (1000067 bytes > 1000000)")
        assert "manifest not read: tsconfig.json — too large" in render(result)
    (tmp_path / "tsconfig.json").write_text(mapping)
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.manifest_problems == {}
    with Reader(tmp_path) as reader:
        assert calls_from(reader, "b") == {"src/a.ts:a"}
        assert status(reader).manifests == {}


def test_a_manifest_nested_too_deep_to_parse_is_named_by_status_not_a_traceback(tmp_path):
    # json5's parser recurses per bracket: 100,000 of them raise RecursionError, not ValueError
    from codegraph.query.status import status

    with index(
        tmp_path,
        {
            "tsconfig.json": "[" * 100_000,
            "web/package.json": '{"name": "web", "x": ' + "[" * 100_000,
            "src/a.ts": "export function a() { return 1; }\n",
            "src/b.ts": "import { a } from './a';\nexport function b() { a(); }\n",
        },
    ) as reader:
        assert calls_from(reader, "b") == {"src/a.ts:a"}
        problems = status(reader).manifests
        assert sorted(problems) == ["tsconfig.json", "web/package.json"]
        assert all(why.startswith("not parseable") for why in problems.values())


def test_a_manifest_in_an_ignored_directory_is_not_read(tmp_path):
    import subprocess

    from codegraph.query.status import status

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("generated/\n")
    with index(
        tmp_path,
        {
            "node_modules/lib/tsconfig.json": "{ broken",
            "generated/tsconfig.json": "{ broken",
            "src/a.ts": "export function a() { return 1; }\n",
        },
    ) as reader:
        assert status(reader).manifests == {}


def test_a_manifest_change_resolves_everything_again_and_the_sync_says_why(tmp_path):
    files = {
        "tsconfig.json": '{"compilerOptions": {"paths": {"@u/*": ["one/*"]}}}',
        "one/u.ts": "export function u() { return 1; }\n",
        "two/u.ts": "export function u() { return 2; }\n",
        "main.ts": "import { u } from '@u/u';\nexport function main() { u(); }\n",
    }
    with index(tmp_path, files) as reader:
        assert calls_from(reader, "main") == {"one/u.ts:u"}
    again = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert again.changed is False
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {"paths": {"@u/*": ["two/*"]}}}')
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.resolution["mode"] == "full"
    assert summary.resolution["reason"] == "manifest tsconfig.json changed"
    with Reader(tmp_path) as reader:
        assert calls_from(reader, "main") == {"two/u.ts:u"}
    # a source edit with the manifests unchanged stays incremental, and still reads them
    (tmp_path / "main.ts").write_text("import { u } from '@u/u';\nexport function main() { u(); u(); }\n")
    edit = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert edit.resolution["mode"] == "incremental"
    with Reader(tmp_path) as reader:
        assert calls_from(reader, "main") == {"two/u.ts:u"}


def test_the_watcher_counts_a_manifest_edit_as_relevant_but_not_one_in_node_modules(tmp_path):
    from codegraph.index.watch import relevant

    assert relevant(tmp_path, str(tmp_path / "packages/a/tsconfig.json"))
    assert relevant(tmp_path, str(tmp_path / "package.json"))
    assert relevant(tmp_path, str(tmp_path / "tsconfig.build.json"))
    assert not relevant(tmp_path, str(tmp_path / "node_modules/x/package.json"))
    assert not relevant(tmp_path, str(tmp_path / "data.json"))


# ---------------------------------------------------------------- object literals of functions
LITERAL = """\
function compute() { return 1; }
function helper() { return 2; }
export const api = {
  go: compute,
  run() { return helper(); },
  stop: () => helper(),
  halt: function () { return this.run(); },
};
api.later = compute;
export default { start() { return compute(); }, go: compute };
export function local() { api.go(); api.run(); api.stop(); api.later(); }
"""


def test_an_object_literals_functions_are_nodes_of_the_object_with_their_own_calls(tmp_path):
    from tests.index.languages.fixture_graph import kinds

    with index(tmp_path, {"m.js": LITERAL}) as reader:
        found = kinds(reader, "m.js")
        assert {q for q in found if q.startswith("api::")} == {"api::run", "api::stop", "api::halt"}
        assert found["default::start"] == "function"
        assert calls_from(reader, "api::stop") == {"m.js:helper"}
        assert calls_from(reader, "api::run") == {"m.js:helper"}
        assert calls_from(reader, "api") == set()  # the arrow's call is no longer the constant's


def test_calls_through_an_object_literal_reach_its_functions_and_the_functions_it_names(tmp_path):
    with index(tmp_path, {"m.js": LITERAL}) as reader:
        # api.go → compute ({go: compute}); api.later → compute (api.later = compute)
        assert calls_from(reader, "local") == {"m.js:compute", "m.js:api::run", "m.js:api::stop"}
        later = reader.conn.execute(
            "SELECT COUNT(*) FROM edges e JOIN nodes s ON s.id = e.source WHERE s.name = 'local'"
            " AND e.kind = 'calls' AND json_extract(e.metadata, '$.refName') = 'api.later'"
        ).fetchone()[0]
        assert later == 1
        assert calls_from(reader, "api::halt") == {"m.js:api::run"}  # this.run() inside the literal


def test_an_imported_object_literal_and_a_default_exported_one_resolve_their_members(tmp_path):
    with index(
        tmp_path,
        {
            "m.js": LITERAL,
            "use.js": "import { api } from './m.js';\nimport tools from './m.js';\n"
            "export function main() { api.go(); api.halt(); tools.start(); tools.go(); }\n",
        },
    ) as reader:
        assert calls_from(reader, "main") == {"m.js:compute", "m.js:api::halt", "m.js:default::start"}


def test_an_object_passed_as_an_argument_gives_its_functions_no_symbols(tmp_path):
    # on({click: () => …}): the arrow is a callback, not a member anything can call by name
    with index(
        tmp_path,
        {"w.js": "function on(o) {}\nexport function wire() { on({ click: () => on(null) }); }\n"},
    ) as reader:
        from tests.index.languages.fixture_graph import kinds

        assert "wire::click" not in kinds(reader, "w.js")
        assert calls_from(reader, "wire") == {"w.js:on"}


def test_a_member_an_object_literal_lacks_stays_unresolved(tmp_path):
    with index(
        tmp_path,
        {"m.js": "function run() {}\nexport const api = { go() {} };\nexport function f() { api.run(); }\n"},
    ) as reader:
        assert calls_from(reader, "f") == set()
        unresolved = {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}
        assert "api.run" in unresolved


FACTORY = """\
function WebGLAnimation() {
  let context = null;
  function onFrame() { context.request(onFrame); }
  return {
    start: function () { onFrame(); },
    setContext: function (value) { context = value; },
    stop() {},
  };
}
function twoWays(flag) {
  if (flag) return { start() {} };
  return { start() {} };
}
export { WebGLAnimation, twoWays };
"""


def test_an_instance_of_a_factory_reaches_the_functions_of_the_object_literal_it_returns(tmp_path):
    # three.js WebGLAnimation: `const animation = new WebGLAnimation(); animation.start()`
    with index(
        tmp_path,
        {
            "anim.js": FACTORY,
            "use.js": "import { WebGLAnimation } from './anim.js';\nexport function main() {\n"
            "  const animation = new WebGLAnimation();\n  animation.setContext(1);\n  animation.start();\n"
            "  animation.stop();\n  animation.onFrame();\n}\n",
        },
    ) as reader:
        assert calls_from(reader, "main") == {
            "anim.js:WebGLAnimation",
            "anim.js:WebGLAnimation::setContext",
            "anim.js:WebGLAnimation::start",
            "anim.js:WebGLAnimation::stop",
        }
        # onFrame is the factory's own helper, not a member of what it returns
        unresolved = {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}
        assert "animation.onFrame" in unresolved


def test_a_factory_with_several_returns_gives_its_instances_no_members(tmp_path):
    with index(
        tmp_path,
        {
            "anim.js": FACTORY,
            "use.js": "import { twoWays } from './anim.js';\n"
            "export function main() { const t = new twoWays(true); t.start(); }\n",
        },
    ) as reader:
        assert calls_from(reader, "main") == {"anim.js:twoWays"}


def test_a_bare_call_inside_a_factory_never_means_a_member_of_the_literal_it_returns(tmp_path):
    # `return { save: () => save(), load() { return load(); } }`: save is the local const, load the import
    # (before: each member called itself)
    with index(
        tmp_path,
        {
            "io.js": "export function load() { return 1; }\n",
            "store.js": "import { load } from './io.js';\n"
            "export function makeStore() {\n"
            "  const save = () => 2;\n"
            "  return {\n"
            "    save: () => save(),\n"
            "    load() { return load(); },\n"
            "  };\n"
            "}\n",
        },
    ) as reader:
        lines = reader.conn.execute(
            "SELECT s.start_line, t.file_path, t.start_line FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls' ORDER BY s.start_line"
        ).fetchall()
        # the member save (line 5) calls the const save (line 3), not itself; load calls io.js's load
        assert [tuple(r) for r in lines] == [(5, "store.js", 3), (6, "io.js", 1)]


def test_a_callback_parameter_and_a_declared_one_of_the_same_name_and_class_agree(tmp_path):
    # `source: Observable<number>` and operate's callback `source` (Observable by the signature)
    with index(
        tmp_path,
        {
            "obs.ts": OBSERVABLE,
            "same.ts": "import { Observable, operate } from './obs';\n"
            "export function same(source: Observable<number>) {\n"
            "  source.subscribe(null);\n"
            "  return operate((/* lifted */ source, subscriber) => subscriber.next(1));\n"
            "}\n",
        },
    ) as reader:
        assert calls_from(reader, "same") == {
            "obs.ts:operate",
            "obs.ts:Observable::subscribe",
            "obs.ts:Subscriber::next",
        }


def test_an_object_literal_in_a_vue_script_resolves_its_members(tmp_path):
    with index(
        tmp_path,
        {
            "Comp.vue": "<template><div/></template>\n<script>\nfunction compute() { return 1; }\n"
            "const api = { go: compute, run() { return compute(); } };\n"
            "export default { methods: { click() { api.go(); api.run(); } } };\n</script>\n",
        },
    ) as reader:
        targets = {t for _, t in edges(reader, "calls")}
        assert {"Comp.vue:compute", "Comp.vue:api::run"} <= targets


def test_on_one_line_a_factorys_own_helper_is_still_no_member_of_the_literal_it_returns(tmp_path):
    # draco's minified wrapper: function(){function f(z){…}return{resolve:f(1)}} — f is the helper
    with index(
        tmp_path,
        {"w.js": "export function make(){function f(z){return z}return{resolve:f(1),go(){return f(2)}}}\n"},
    ) as reader:
        assert calls_from(reader, "make") == {"w.js:make::f"}
        assert calls_from(reader, "make::go") == {"w.js:make::f"}


def instantiated_by(reader, source: str) -> set[str]:
    """``file:qualified name`` of everything ``source`` (a qualified name) instantiates."""
    return {target for src, target in edges(reader, "instantiates") if src == source}


def test_jsx_elements_of_components_instantiate_them_and_dom_tags_do_not(tmp_path):
    with index(
        tmp_path,
        {
            "Labeled.tsx": "export const Labeled = (props) => <label>{props.children}</label>;\n",
            "Dialog.tsx": "function Root() { return <div />; }\n"
            "export class Panel extends Object { render() { return <section />; } }\n"
            "export const Dialog = { Root };\n",
            "Form.tsx": "import { Labeled } from './Labeled';\n"
            "import { Dialog, Panel } from './Dialog';\n"
            "import { Box } from '@mui/material';\n"
            "function Hint() { return <span>hint</span>; }\n"
            "export function Form() {\n"
            "  return (\n"
            "    <Box>\n"
            "      <Labeled label='x'><input /></Labeled>\n"
            "      <Dialog.Root />\n"
            "      <Panel />\n"
            "      <Hint />\n"
            "      <div><Missing /></div>\n"
            "    </Box>\n"
            "  );\n"
            "}\n",
            "legacy.js": "import { Labeled } from './Labeled';\n"
            "export function Old() { return <Labeled><a.b /></Labeled>; }\n",
        },
    ) as reader:
        assert instantiated_by(reader, "Form") == {
            "Labeled.tsx:Labeled",  # an imported function component: instantiates, not calls
            "Dialog.tsx:Root",  # <Dialog.Root />: Dialog, then its member (here Root, by shorthand)
            "Dialog.tsx:Panel",
            "Form.tsx:Hint",  # a component of the same file
        }
        assert instantiated_by(reader, "Old") == {"Labeled.tsx:Labeled"}  # JSX in a .js file
        assert not {t for s, t in edges(reader, "calls") if s in ("Form", "Old")}
        # Box (a package's) and Missing (bound nowhere) stay unresolved; no DOM tag is a reference
        names = {name for _, name in unresolved(reader)}
        assert {"Box", "Missing"} <= names
        assert not names & {"div", "span", "input", "label", "section", "a.b"}
        from codegraph.query.impact import impact
        from codegraph.query.relations import callers
        from codegraph.render import render

        said = render(callers(reader, "Labeled"))
        assert "called by 2" in said and "Form" in said and "Old" in said
        assert "Form" in render(impact(reader, "Labeled"))


def test_a_jsx_member_assigned_onto_a_function_component_reaches_the_assigned_component(tmp_path):
    with index(
        tmp_path,
        {
            "Tab.tsx": "export const Tab = () => <div />;\n",
            "Layout.tsx": "import { Tab } from './Tab';\n"
            "export const Layout = (props) => {\n"
            "  const Pane = () => <span />;\n"
            "  return <div>{props.children}</div>;\n"
            "};\n"
            "Layout.Tab = Tab;\n",
            "Show.tsx": "import { Layout } from './Layout';\n"
            "export const Show = () => <Layout><Layout.Tab /><Layout.Pane /></Layout>;\n",
        },
    ) as reader:
        # Layout.Pane is a local of Layout's body, no member of it: unresolved
        assert instantiated_by(reader, "Show") == {"Layout.tsx:Layout", "Tab.tsx:Tab"}
        assert ("Show.tsx", "Layout.Pane") in unresolved(reader)
