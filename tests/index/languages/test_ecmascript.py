"""JavaScript / TypeScript resolution added for issue 11: callbacks typed by the callee's signature,
parameters typed by their default value, object literals of functions, tsconfig ``paths`` /
``baseUrl`` and package.json ``workspaces``. Each test indexes a small project written here (real
files, the real indexer, real SQLite); every expected edge was read off the fixture's code."""

from __future__ import annotations

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader
from tests.index.languages.fixture_graph import edges


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
