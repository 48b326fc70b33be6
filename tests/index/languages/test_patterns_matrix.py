# The fixtures below are source files written as string literals, one statement per literal where
# it fits; wrapping them further would split statements mid-line, so long lines are allowed here.
# ruff: noqa: E501
"""Issue 11's resolution patterns in every mainstream language: a matrix of pattern × language.

Patterns (issue 11, "Done when"):

- ``a`` inherited members: a method of a base type called on an instance of a subtype (a new
  instance, a local holding one, a typed field); an override in the subtype wins.
- ``b`` typed attributes: fields typed where declared or assigned (constructor assignment, field
  declarations, class-level and module/package-level instances, used from other files too).
- ``c`` return types: calls on what a call returns, through declared return types, properties, getters.
- ``d`` functions passed as values: a ``references`` edge from the place that passes them.
- ``e`` shadowing: locals, parameters, loop/catch/pattern bindings shadow project definitions.
- ``f`` aliases: type aliases, renamed imports, re-exports, function aliases.
- ``g`` confidence: the bare-name fallback is the lowest tier and says so; a language without that
  fallback leaves a name nothing explains unresolved rather than guess.

Each row is a small fixture written for it, indexed by the real indexer (real tree-sitter, real
SQLite). Every expectation was read off the snippet, not off the tool's output. A cell the language
has no construct for is listed in ``NOT_APPLICABLE`` with the reason. A row the resolver does not
meet yet is marked ``fails=`` with what is missing: it runs as a strict xfail, so fixing it turns
the suite red until the mark goes. ``python -m tests.index.languages.test_patterns_matrix`` prints
the matrix.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader
from tests.index.languages.fixture_graph import rows

LANGUAGES = (
    "go",
    "java",
    "kotlin",
    "dart",
    "c",
    "cpp",
    "csharp",
    "php",
    "rust",
    "ruby",
    "zig",
    "swift",
    "scala",
)
PATTERNS = {
    "a": "inherited members",
    "b": "typed attributes",
    "c": "return types",
    "d": "functions as values",
    "e": "shadowing",
    "f": "aliases",
    "g": "lowest tier",
}


@dataclass(frozen=True)
class Row:
    """One cell of the matrix: a fixture and what must (and must not) come out of it.

    ``expect`` lines: ``KIND SOURCE -> FILE:TARGET`` (an edge that must exist), the same prefixed
    with ``!`` (must not exist; KIND ``*`` means any kind), ``unresolved FILE NAME`` (a reference
    left without an edge), ``tier SOURCE -> FILE:TARGET CONFIDENCE HOW`` (the edge's metadata).
    """

    lang: str
    pattern: str
    behaviour: str
    files: dict[str, str]
    expect: tuple[str, ...]
    fails: str = ""
    extra: dict = field(default_factory=dict)


ROWS: list[Row] = []


def row(lang, pattern, behaviour, files, *expect, fails=""):
    ROWS.append(Row(lang, pattern, behaviour, files, expect, fails))


# ---------------------------------------------------------------------------------------------- Go


def go_module(*packages: str) -> dict[str, str]:
    """go.mod and a main package importing ``packages``: the indexer infers the module path from
    import paths, and one lone import of a sub-package is not trusted to name it."""
    imports = "".join(f'\t_ "example.com/shop/{p}"\n' for p in packages)
    return {
        "go.mod": "module example.com/shop\n\ngo 1.21\n",
        "main.go": f"package main\n\nimport (\n{imports})\n",
    }


row(
    "go",
    "a",
    "a method promoted from an embedded struct resolves on the outer struct and an own method wins",
    {
        **go_module("repo", "svc"),
        "repo/repo.go": "package repo\n\ntype Repo struct{}\n\nfunc (r *Repo) Save() {}\n\nfunc (r *Repo) Delete() {}\n",
        "repo/user.go": "package repo\n\ntype UserRepo struct {\n\tRepo\n}\n\nfunc (u *UserRepo) Delete() {}\n",
        "svc/svc.go": (
            'package svc\n\nimport "example.com/shop/repo"\n\ntype Service struct {\n\trepo *repo.UserRepo\n}\n\n'
            "func (s *Service) Run() {\n\t(&repo.UserRepo{}).Save()\n\tu := &repo.UserRepo{}\n\tu.Delete()\n"
            "\ts.repo.Save()\n}\n"
        ),
    },
    "calls Service::Run -> repo/repo.go:Repo::Save",
    "calls Service::Run -> repo/user.go:UserRepo::Delete",
    "!calls Service::Run -> repo/repo.go:Repo::Delete",
)
row(
    "go",
    "b",
    "struct fields and package-level variables type their uses, from another package too",
    {
        **go_module("clock", "job"),
        "clock/clock.go": (
            "package clock\n\ntype Clock struct{}\n\nfunc (c *Clock) Now() int { return 0 }\n\n"
            "type Registry struct{}\n\nfunc (r *Registry) Add(name string) {}\n\nvar Default = &Registry{}\n"
        ),
        "job/job.go": (
            'package job\n\nimport "example.com/shop/clock"\n\ntype Job struct {\n\tclock *clock.Clock\n}\n\n'
            'func (j *Job) Tick() int {\n\tclock.Default.Add("tick")\n\treturn j.clock.Now()\n}\n'
        ),
    },
    "calls Job::Tick -> clock/clock.go:Clock::Now",
    "calls Job::Tick -> clock/clock.go:Registry::Add",
)
row(
    "go",
    "c",
    "calls chain through declared return types",
    {
        **go_module(),
        "db/db.go": (
            "package db\n\ntype Stmt struct{}\n\nfunc (s *Stmt) Run() {}\n\ntype Conn struct{}\n\n"
            "func (c *Conn) Prepare() *Stmt { return &Stmt{} }\n\ntype Pool struct{}\n\n"
            "func (p *Pool) Get() *Conn { return &Conn{} }\n\nfunc NewPool() *Pool { return &Pool{} }\n\n"
            "func Exec() {\n\tNewPool().Get().Prepare().Run()\n\tc := NewPool().Get()\n\tc.Prepare()\n}\n"
        ),
    },
    "calls Exec -> db/db.go:Pool::Get",
    "calls Exec -> db/db.go:Conn::Prepare",
    "calls Exec -> db/db.go:Stmt::Run",
)
row(
    "go",
    "d",
    "a function or method value passed as an argument is a reference from the passing function",
    {
        **go_module(),
        "web/web.go": (
            "package web\n\ntype Server struct{}\n\nfunc (s *Server) Health(path string) {}\n\n"
            "func handle(path string) {}\n\nfunc register(path string, h func(string)) { h(path) }\n\n"
            'func Setup(s *Server) {\n\tregister("/", handle)\n\tregister("/health", s.Health)\n}\n'
        ),
    },
    "references Setup -> web/web.go:handle",
    "references Setup -> web/web.go:Server::Health",
    "calls Setup -> web/web.go:register",
)
row(
    "go",
    "e",
    "a called parameter, loop variable or local shadows the package function of that name",
    {
        **go_module(),
        "ui/ui.go": (
            "package ui\n\nfunc render() {}\n\nfunc Draw(render func()) {\n\trender()\n}\n\n"
            "func Each(fs []func()) {\n\tfor _, render := range fs {\n\t\trender()\n\t}\n}\n\n"
            "func Local() {\n\trender := func() {}\n\trender()\n}\n\nfunc Plain() {\n\trender()\n}\n"
        ),
    },
    "!calls Draw -> ui/ui.go:render",
    "!calls Each -> ui/ui.go:render",
    "!calls Local -> ui/ui.go:render",
    "calls Plain -> ui/ui.go:render",
)
row(
    "go",
    "f",
    "a type alias and a renamed import reach the aliased type's methods and the package",
    {
        **go_module("repo", "svc"),
        "repo/repo.go": "package repo\n\ntype Repo struct{}\n\nfunc (r *Repo) Save() {}\n\ntype Store = Repo\n",
        "svc/svc.go": (
            'package svc\n\nimport r "example.com/shop/repo"\n\nfunc Run() {\n\tvar s r.Store\n\ts.Save()\n}\n'
        ),
    },
    "calls Run -> repo/repo.go:Repo::Save",
)
row(
    "go",
    "g",
    "a name no package import explains stays unresolved instead of a name-only guess",
    {
        **go_module("a", "b"),
        "a/a.go": "package a\n\nfunc Run() {\n\thelper()\n}\n",
        "b/b.go": "package b\n\nfunc helper() {}\n",
    },
    "!calls Run -> b/b.go:helper",
    "unresolved a/a.go helper",
)

# -------------------------------------------------------------------------------------------- Java
J = "src/shop/"
row(
    "java",
    "a",
    "an inherited method resolves on a new subclass instance, a local and a field; the override wins",
    {
        J + "Repo.java": "package shop;\n\nclass Repo {\n    void save() {}\n    void delete() {}\n}\n",
        J
        + "UserRepo.java": "package shop;\n\nclass UserRepo extends Repo {\n    @Override\n    void delete() {}\n}\n",
        J + "Service.java": (
            "package shop;\n\nclass Service {\n    private UserRepo repo = new UserRepo();\n\n    void run() {\n"
            "        new UserRepo().save();\n        UserRepo r = new UserRepo();\n        r.delete();\n"
            "        this.repo.save();\n    }\n}\n"
        ),
    },
    f"calls Service::run -> {J}Repo.java:Repo::save",
    f"calls Service::run -> {J}UserRepo.java:UserRepo::delete",
    f"!calls Service::run -> {J}Repo.java:Repo::delete",
)
row(
    "java",
    "b",
    "declared fields, constructor-assigned fields and static instances type their uses, from another class too",
    {
        J + "Clock.java": "package shop;\n\nclass Clock {\n    long now() { return 0; }\n}\n",
        J + "Log.java": "package shop;\n\nclass Log {\n    void write(String s) {}\n}\n",
        J + "Registry.java": "package shop;\n\nclass Registry {\n    void add(Object o) {}\n}\n",
        J + "Job.java": (
            "package shop;\n\nclass Job {\n    static final Registry REGISTRY = new Registry();\n"
            "    private Clock clock;\n    private final Log log;\n\n    Job() {\n        this.log = new Log();\n    }\n\n"
            '    long tick() {\n        log.write("x");\n        REGISTRY.add(this);\n        return clock.now();\n    }\n}\n'
        ),
        J
        + "Main.java": "package shop;\n\nclass Main {\n    void boot() {\n        Job.REGISTRY.add(this);\n    }\n}\n",
    },
    f"calls Job::tick -> {J}Log.java:Log::write",
    f"calls Job::tick -> {J}Registry.java:Registry::add",
    f"calls Job::tick -> {J}Clock.java:Clock::now",
    f"calls Main::boot -> {J}Registry.java:Registry::add",
)
row(
    "java",
    "c",
    "calls chain through declared return types",
    {
        J + "Db.java": (
            "package shop;\n\nclass Stmt {\n    void run() {}\n}\n\nclass Conn {\n    Stmt prepare() { return new Stmt(); }\n}\n\n"
            "class Pool {\n    Conn get() { return new Conn(); }\n}\n\n"
            "class Db {\n    void exec(Pool p) {\n        p.get().prepare().run();\n        Conn c = p.get();\n"
            "        c.prepare();\n    }\n}\n"
        ),
    },
    f"calls Db::exec -> {J}Db.java:Pool::get",
    f"calls Db::exec -> {J}Db.java:Conn::prepare",
    f"calls Db::exec -> {J}Db.java:Stmt::run",
)
row(
    "java",
    "d",
    "a method reference passed as an argument is a reference from the passing method",
    {
        J
        + "Printer.java": "package shop;\n\nclass Printer {\n    static void print(String s) {}\n    void show(String s) {}\n}\n",
        J + "Report.java": (
            "package shop;\n\nimport java.util.List;\n\nclass Report {\n    void emit(List<String> lines, Printer p) {\n"
            "        lines.forEach(Printer::print);\n        lines.forEach(p::show);\n    }\n}\n"
        ),
    },
    f"references Report::emit -> {J}Printer.java:Printer::print",
    f"references Report::emit -> {J}Printer.java:Printer::show",
)
row(
    "java",
    "e",
    "a parameter, loop, catch and pattern binding's own type wins over a field of the same name",
    {
        J + "Types.java": (
            "package shop;\n\nclass Repo {\n    void save() {}\n}\n\nclass Draft {\n    void save() {}\n}\n\n"
            "class AppError extends RuntimeException {\n    void report() {}\n}\n"
        ),
        J + "Service.java": (
            "package shop;\n\nimport java.util.List;\n\nclass Service {\n    private Repo repo = new Repo();\n\n"
            "    void run(Draft repo) {\n        repo.save();\n    }\n\n"
            "    void each(List<Draft> drafts) {\n        for (Draft repo : drafts) {\n            repo.save();\n        }\n    }\n\n"
            "    void guard() {\n        try {\n            each(null);\n        } catch (AppError repo) {\n"
            "            repo.report();\n        }\n    }\n\n"
            "    void match(Object o) {\n        if (o instanceof Draft repo) {\n            repo.save();\n        }\n    }\n}\n"
        ),
    },
    f"calls Service::run -> {J}Types.java:Draft::save",
    f"!calls Service::run -> {J}Types.java:Repo::save",
    f"calls Service::each -> {J}Types.java:Draft::save",
    f"!calls Service::each -> {J}Types.java:Repo::save",
    f"calls Service::guard -> {J}Types.java:AppError::report",
    f"calls Service::match -> {J}Types.java:Draft::save",
    f"!calls Service::match -> {J}Types.java:Repo::save",
)
row(
    "java",
    "g",
    "a method name no scope or import explains stays unresolved instead of a name-only guess",
    {
        "src/a/Run.java": "package a;\n\nclass Run {\n    void go() {\n        helper();\n    }\n}\n",
        "src/b/Util.java": "package b;\n\npublic class Util {\n    public static void helper() {}\n}\n",
    },
    "!calls Run::go -> src/b/Util.java:Util::helper",
    "unresolved src/a/Run.java helper",
)

# ------------------------------------------------------------------------------------------ Kotlin
K = "src/shop/"
row(
    "kotlin",
    "a",
    "an inherited method resolves on a new subclass instance, a local and a property; the override wins",
    {
        K + "Repo.kt": "package shop\n\nopen class Repo {\n    fun save() {}\n    open fun delete() {}\n}\n",
        K + "UserRepo.kt": "package shop\n\nclass UserRepo : Repo() {\n    override fun delete() {}\n}\n",
        K + "Service.kt": (
            "package shop\n\nclass Service {\n    private val repo = UserRepo()\n\n    fun run() {\n"
            "        UserRepo().save()\n        val r = UserRepo()\n        r.delete()\n        this.repo.save()\n    }\n}\n"
        ),
    },
    f"calls Service::run -> {K}Repo.kt:Repo::save",
    f"calls Service::run -> {K}UserRepo.kt:UserRepo::delete",
    f"!calls Service::run -> {K}Repo.kt:Repo::delete",
)
row(
    "kotlin",
    "b",
    "constructor properties, initialised properties, objects and top-level instances type their uses",
    {
        K + "Types.kt": (
            "package shop\n\nclass Clock {\n    fun now(): Long = 0\n}\n\nclass Log {\n    fun write(s: String) {}\n}\n\n"
            "class Registry {\n    fun add(o: Any) {}\n}\n\nval registry = Registry()\n"
        ),
        K + "Job.kt": (
            "package shop\n\nclass Job(private val clock: Clock) {\n    private val log = Log()\n\n    fun tick(): Long {\n"
            '        log.write("x")\n        registry.add(this)\n        return clock.now()\n    }\n}\n'
        ),
    },
    f"calls Job::tick -> {K}Types.kt:Log::write",
    f"calls Job::tick -> {K}Types.kt:Registry::add",
    f"calls Job::tick -> {K}Types.kt:Clock::now",
)
row(
    "kotlin",
    "c",
    "calls chain through declared return types and property getters",
    {
        K + "Db.kt": (
            "package shop\n\nclass Stmt {\n    fun run() {}\n}\n\nclass Conn {\n    fun prepare(): Stmt = Stmt()\n}\n\n"
            "class Pool {\n    val conn: Conn\n        get() = Conn()\n\n    fun get(): Conn = Conn()\n}\n\n"
            "fun exec(p: Pool) {\n    p.get().prepare().run()\n    p.conn.prepare()\n}\n"
        ),
    },
    f"calls exec -> {K}Db.kt:Pool::get",
    f"calls exec -> {K}Db.kt:Conn::prepare",
    f"calls exec -> {K}Db.kt:Stmt::run",
)
row(
    "kotlin",
    "d",
    "a callable reference passed as an argument is a reference from the passing function",
    {
        K + "Report.kt": (
            "package shop\n\nfun show(s: String) {}\n\nclass Printer {\n    fun print(s: String) {}\n}\n\n"
            "fun emit(lines: List<String>, p: Printer) {\n    lines.forEach(::show)\n    lines.forEach(p::print)\n}\n"
        ),
    },
    f"references emit -> {K}Report.kt:show",
    f"references emit -> {K}Report.kt:Printer::print",
)
row(
    "kotlin",
    "e",
    "a called parameter, loop variable or lambda parameter shadows the top-level function of that name",
    {
        K + "Ui.kt": (
            "package shop\n\nfun render() {}\n\nfun draw(render: () -> Unit) {\n    render()\n}\n\n"
            "fun each(fs: List<() -> Unit>) {\n    for (render in fs) {\n        render()\n    }\n"
            "    fs.forEach { render -> render() }\n}\n\nfun plain() {\n    render()\n}\n"
        ),
    },
    f"!calls draw -> {K}Ui.kt:render",
    f"!calls each -> {K}Ui.kt:render",
    f"calls plain -> {K}Ui.kt:render",
)
row(
    "kotlin",
    "f",
    "a typealias and a renamed import reach the aliased class",
    {
        K + "Repo.kt": "package shop\n\nclass Repo {\n    fun save() {}\n}\n\ntypealias Store = Repo\n",
        "src/app/App.kt": (
            "package app\n\nimport shop.Repo as Bin\nimport shop.Store\n\nfun run(s: Store, b: Bin) {\n"
            "    s.save()\n    Bin().save()\n}\n"
        ),
    },
    f"calls run -> {K}Repo.kt:Repo::save",
    f"instantiates run -> {K}Repo.kt:Repo",
)
row(
    "kotlin",
    "g",
    "a name no scope or import explains stays unresolved instead of a name-only guess",
    {
        "src/a/Run.kt": "package a\n\nfun go() {\n    helper()\n}\n",
        "src/b/Util.kt": "package b\n\nfun helper() {}\n",
    },
    "!calls go -> src/b/Util.kt:helper",
    "unresolved src/a/Run.kt helper",
)

# -------------------------------------------------------------------------------------------- Dart
DART_PUB = {"pubspec.yaml": "name: shop\n"}
row(
    "dart",
    "a",
    "an inherited method resolves on a new subclass instance, a local and a field; the override wins",
    {
        **DART_PUB,
        "lib/repo.dart": (
            "class Repo {\n  void save() {}\n  void delete() {}\n}\n\nclass UserRepo extends Repo {\n"
            "  @override\n  void delete() {}\n}\n"
        ),
        "lib/service.dart": (
            "import 'repo.dart';\n\nclass Service {\n  final UserRepo repo = UserRepo();\n\n  void run() {\n"
            "    UserRepo().save();\n    final r = UserRepo();\n    r.delete();\n    this.repo.save();\n  }\n}\n"
        ),
    },
    "calls Service::run -> lib/repo.dart:Repo::save",
    "calls Service::run -> lib/repo.dart:UserRepo::delete",
    "!calls Service::run -> lib/repo.dart:Repo::delete",
)
row(
    "dart",
    "b",
    "initialising formals, initialised fields and top-level instances type their uses, from another file too",
    {
        **DART_PUB,
        "lib/types.dart": (
            "class Clock {\n  int now() => 0;\n}\n\nclass Log {\n  void write(String s) {}\n}\n\n"
            "class Registry {\n  void add(Object o) {}\n}\n\nfinal registry = Registry();\n"
        ),
        "lib/job.dart": (
            "import 'types.dart';\n\nclass Job {\n  final Clock clock;\n  final Log log = Log();\n\n  Job(this.clock);\n\n"
            "  int tick() {\n    log.write('x');\n    registry.add(this);\n    return clock.now();\n  }\n}\n"
        ),
    },
    "calls Job::tick -> lib/types.dart:Log::write",
    "calls Job::tick -> lib/types.dart:Registry::add",
    "calls Job::tick -> lib/types.dart:Clock::now",
)
row(
    "dart",
    "c",
    "calls chain through declared return types and getters",
    {
        **DART_PUB,
        "lib/db.dart": (
            "class Stmt {\n  void run() {}\n}\n\nclass Conn {\n  Stmt prepare() => Stmt();\n}\n\n"
            "class Pool {\n  Conn get conn => Conn();\n  Conn get() => Conn();\n}\n\n"
            "void exec(Pool p) {\n  p.get().prepare().run();\n  p.conn.prepare();\n}\n"
        ),
    },
    "calls exec -> lib/db.dart:Pool::get",
    "calls exec -> lib/db.dart:Conn::prepare",
    "calls exec -> lib/db.dart:Stmt::run",
)
row(
    "dart",
    "d",
    "a function or method tear-off passed as an argument is a reference from the passing function",
    {
        **DART_PUB,
        "lib/report.dart": (
            "void show(String s) {}\n\nclass Printer {\n  void print(String s) {}\n}\n\n"
            "void emit(List<String> lines, Printer p) {\n  lines.forEach(show);\n  lines.forEach(p.print);\n}\n"
        ),
    },
    "references emit -> lib/report.dart:show",
    "references emit -> lib/report.dart:Printer::print",
)
row(
    "dart",
    "e",
    "a called parameter, loop variable or local shadows the top-level function of that name",
    {
        **DART_PUB,
        "lib/ui.dart": (
            "void render() {}\n\nvoid draw(void Function() render) {\n  render();\n}\n\n"
            "void each(List<void Function()> fs) {\n  for (final render in fs) {\n    render();\n  }\n}\n\n"
            "void local() {\n  final render = () {};\n  render();\n}\n\nvoid plain() {\n  render();\n}\n"
        ),
    },
    "!calls draw -> lib/ui.dart:render",
    "!calls each -> lib/ui.dart:render",
    "!calls local -> lib/ui.dart:render",
    "calls plain -> lib/ui.dart:render",
)
row(
    "dart",
    "f",
    "a typedef alias, an import prefix and an export re-export reach the class",
    {
        **DART_PUB,
        "lib/src/repo.dart": "class Repo {\n  void save() {}\n}\n\ntypedef Store = Repo;\n",
        "lib/shop.dart": "export 'src/repo.dart';\n",
        "lib/app.dart": (
            "import 'shop.dart' as shop;\n\nvoid run(shop.Store s) {\n  s.save();\n  shop.Repo().save();\n}\n"
        ),
    },
    "calls run -> lib/src/repo.dart:Repo::save",
    "instantiates run -> lib/src/repo.dart:Repo",
)
row(
    "dart",
    "g",
    "a name-only match is the lowest tier and says so",
    {
        **DART_PUB,
        "lib/a.dart": "void go() {\n  helper();\n}\n",
        "lib/b.dart": "void helper() {}\n",
        "lib/c.dart": "import 'b.dart';\n\nvoid sure() {\n  helper();\n}\n",
    },
    "tier go -> lib/b.dart:helper 0.5 exact-match",
    "tier sure -> lib/b.dart:helper 0.9 import",
)

# ----------------------------------------------------------------------------------------------- C
row(
    "c",
    "d",
    "a function passed as a callback or its address is a reference from the passing function",
    {
        "cmp.h": "int compare(const void *a, const void *b);\nvoid on_event(int code);\n",
        "cmp.c": '#include "cmp.h"\n\nint compare(const void *a, const void *b) { return 0; }\n\nvoid on_event(int code) {}\n',
        "main.c": (
            '#include <stdlib.h>\n#include "cmp.h"\n\nvoid subscribe(void (*cb)(int));\n\n'
            "void sort_all(int *xs, size_t n) {\n    qsort(xs, n, sizeof(int), compare);\n    subscribe(&on_event);\n}\n"
        ),
    },
    "references sort_all -> cmp.c:compare",
    "references sort_all -> cmp.c:on_event",
)
row(
    "c",
    "e",
    "a called function-pointer parameter shadows the project function of that name",
    {
        "ui.h": "void render(void);\n",
        "ui.c": '#include "ui.h"\n\nvoid render(void) {}\n',
        "draw.c": (
            '#include "ui.h"\n\nvoid draw(void (*render)(void)) {\n    render();\n}\n\n'
            "void local(void) {\n    void (*render)(void) = 0;\n    render();\n}\n\nvoid plain(void) {\n    render();\n}\n"
        ),
    },
    "!calls draw -> ui.c:render",
    "!calls local -> ui.c:render",
    "calls plain -> ui.c:render",
)
row(
    "c",
    "g",
    "a function no included header declares stays unresolved instead of a name-only guess",
    {
        "a.c": "void go(void) {\n    helper();\n}\n",
        "lib/b.c": "void helper(void) {}\n",
    },
    "!calls go -> lib/b.c:helper",
    "unresolved a.c helper",
)

# --------------------------------------------------------------------------------------------- C++
row(
    "cpp",
    "a",
    "an inherited method resolves on a temporary, a local and a member of the subclass; the override wins",
    {
        "repo.h": (
            "struct Repo {\n    void save() {}\n    virtual void remove() {}\n};\n\n"
            "struct UserRepo : Repo {\n    void remove() override {}\n};\n"
        ),
        "service.cpp": (
            '#include "repo.h"\n\nclass Service {\n    UserRepo repo_;\n\npublic:\n    void run() {\n'
            "        UserRepo().save();\n        UserRepo r;\n        r.remove();\n        this->repo_.save();\n    }\n};\n"
        ),
    },
    "calls Service::run -> repo.h:Repo::save",
    "calls Service::run -> repo.h:UserRepo::remove",
    "!calls Service::run -> repo.h:Repo::remove",
)
row(
    "cpp",
    "b",
    "members, pointer members and globals declared extern in a header type their uses",
    {
        "types.h": (
            "class Clock {\npublic:\n    long now() { return 0; }\n};\n\nclass Log {\npublic:\n    void write(const char *s) {}\n};\n\n"
            "class Registry {\npublic:\n    void add(void *o) {}\n};\n\nextern Registry g_registry;\n"
        ),
        "types.cpp": '#include "types.h"\n\nRegistry g_registry;\n',
        "job.cpp": (
            '#include "types.h"\n\nclass Job {\n    Clock clock_;\n    Log *log_;\n\npublic:\n    Job() : log_(new Log()) {}\n'
            '    long tick() {\n        log_->write("x");\n        g_registry.add(this);\n        return clock_.now();\n    }\n};\n'
        ),
    },
    "calls Job::tick -> types.h:Log::write",
    "calls Job::tick -> types.h:Registry::add",
    "calls Job::tick -> types.h:Clock::now",
)
row(
    "cpp",
    "c",
    "calls chain through declared return types, references and auto locals",
    {
        "db.h": (
            "class Stmt {\npublic:\n    void run() {}\n};\n\nclass Conn {\npublic:\n    Stmt prepare() { return Stmt(); }\n};\n\n"
            "class Pool {\npublic:\n    Conn &get();\n};\n"
        ),
        "db.cpp": (
            '#include "db.h"\n\nvoid exec(Pool &p) {\n    p.get().prepare().run();\n    auto c = p.get();\n'
            "    c.prepare();\n}\n"
        ),
    },
    "calls exec -> db.h:Pool::get",
    "calls exec -> db.h:Conn::prepare",
    "calls exec -> db.h:Stmt::run",
)
row(
    "cpp",
    "d",
    "a function, its address or a member pointer passed as an argument is a reference",
    {
        "cb.h": (
            "bool less_than(int a, int b);\nvoid on_event(int code);\n\n"
            "class Printer {\npublic:\n    void print(int x) {}\n};\n"
        ),
        "cb.cpp": '#include "cb.h"\n\nbool less_than(int a, int b) { return a < b; }\n\nvoid on_event(int code) {}\n',
        "main.cpp": (
            '#include <algorithm>\n#include <vector>\n#include "cb.h"\n\ntemplate <class F> void subscribe(F f) {}\n\n'
            "void setup(std::vector<int> &v) {\n    std::sort(v.begin(), v.end(), less_than);\n"
            "    subscribe(&on_event);\n    subscribe(&Printer::print);\n}\n"
        ),
    },
    "references setup -> cb.cpp:less_than",
    "references setup -> cb.cpp:on_event",
    "references setup -> cb.h:Printer::print",
)
row(
    "cpp",
    "e",
    "a called std::function parameter, loop variable or lambda local shadows the project function",
    {
        "ui.h": "void render();\n",
        "ui.cpp": '#include "ui.h"\n\nvoid render() {}\n',
        "draw.cpp": (
            '#include <functional>\n#include <vector>\n#include "ui.h"\n\nvoid draw(std::function<void()> render) {\n    render();\n}\n\n'
            "void each(std::vector<std::function<void()>> &fs) {\n    for (auto &render : fs) {\n        render();\n    }\n}\n\n"
            "void local() {\n    auto render = [] {};\n    render();\n}\n\nvoid plain() {\n    render();\n}\n"
        ),
    },
    "!calls draw -> ui.cpp:render",
    "!calls each -> ui.cpp:render",
    "!calls local -> ui.cpp:render",
    "calls plain -> ui.cpp:render",
)
row(
    "cpp",
    "f",
    "using and typedef aliases reach the aliased class's methods",
    {
        "repo.h": "class Repo {\npublic:\n    void save() {}\n};\n\nusing Store = Repo;\ntypedef Repo Bin;\n",
        "app.cpp": '#include "repo.h"\n\nvoid run() {\n    Store s;\n    s.save();\n    Bin b;\n    b.save();\n}\n',
    },
    "calls run -> repo.h:Repo::save",
)
row(
    "cpp",
    "g",
    "a function no included header declares stays unresolved instead of a name-only guess",
    {
        "a.cpp": "void go() {\n    helper();\n}\n",
        "lib/b.cpp": "void helper() {}\n",
    },
    "!calls go -> lib/b.cpp:helper",
    "unresolved a.cpp helper",
)

# ------------------------------------------------------------------------------------------ C#
row(
    "csharp",
    "a",
    "an inherited method resolves on a new subclass instance, a local and a field; the override wins",
    {
        "Repo.cs": (
            "namespace Shop\n{\n    public class Repo\n    {\n        public void Save() {}\n        public virtual void Delete() {}\n    }\n\n"
            "    public class UserRepo : Repo\n    {\n        public override void Delete() {}\n    }\n}\n"
        ),
        "Service.cs": (
            "namespace Shop\n{\n    public class Service\n    {\n        private readonly UserRepo _repo = new UserRepo();\n\n"
            "        public void Run()\n        {\n            new UserRepo().Save();\n            var r = new UserRepo();\n"
            "            r.Delete();\n            this._repo.Save();\n        }\n    }\n}\n"
        ),
    },
    "calls Shop::Service::Run -> Repo.cs:Shop::Repo::Save",
    "calls Shop::Service::Run -> Repo.cs:Shop::UserRepo::Delete",
    "!calls Shop::Service::Run -> Repo.cs:Shop::Repo::Delete",
)
row(
    "csharp",
    "b",
    "fields assigned in the constructor, auto-properties and static instances type their uses, from another class too",
    {
        "Types.cs": (
            "namespace Shop\n{\n    public class Clock { public long Now() { return 0; } }\n"
            "    public class Log { public void Write(string s) {} }\n"
            "    public class Registry\n    {\n        public static readonly Registry Default = new Registry();\n"
            "        public void Add(object o) {}\n    }\n}\n"
        ),
        "Job.cs": (
            "namespace Shop\n{\n    public class Job\n    {\n        private readonly Clock _clock;\n"
            "        public Log Log { get; } = new Log();\n\n        public Job() { _clock = new Clock(); }\n\n"
            '        public long Tick()\n        {\n            Log.Write("x");\n            Registry.Default.Add(this);\n'
            "            return _clock.Now();\n        }\n    }\n}\n"
        ),
    },
    "calls Shop::Job::Tick -> Types.cs:Shop::Log::Write",
    "calls Shop::Job::Tick -> Types.cs:Shop::Registry::Add",
    "calls Shop::Job::Tick -> Types.cs:Shop::Clock::Now",
)
row(
    "csharp",
    "c",
    "calls chain through declared return types and expression-bodied properties",
    {
        "Db.cs": (
            "namespace Shop\n{\n    public class Stmt { public void Run() {} }\n"
            "    public class Conn { public Stmt Prepare() { return new Stmt(); } }\n"
            "    public class Pool\n    {\n        public Conn Conn => new Conn();\n        public Conn Get() { return new Conn(); }\n    }\n\n"
            "    public static class Db\n    {\n        public static void Exec(Pool p)\n        {\n"
            "            p.Get().Prepare().Run();\n            p.Conn.Prepare();\n        }\n    }\n}\n"
        ),
    },
    "calls Shop::Db::Exec -> Db.cs:Shop::Pool::Get",
    "calls Shop::Db::Exec -> Db.cs:Shop::Conn::Prepare",
    "calls Shop::Db::Exec -> Db.cs:Shop::Stmt::Run",
)
row(
    "csharp",
    "d",
    "a method group passed as an argument is a reference from the passing method",
    {
        "Report.cs": (
            "using System.Collections.Generic;\n\nnamespace Shop\n{\n    public static class Printer\n    {\n"
            "        public static void Print(string s) {}\n    }\n\n    public class Report\n    {\n"
            "        private void Show(string s) {}\n\n        public void Emit(List<string> lines)\n        {\n"
            "            lines.ForEach(Printer.Print);\n            lines.ForEach(Show);\n        }\n    }\n}\n"
        ),
    },
    "references Shop::Report::Emit -> Report.cs:Shop::Printer::Print",
    "references Shop::Report::Emit -> Report.cs:Shop::Report::Show",
)
row(
    "csharp",
    "e",
    "a called delegate parameter, loop variable or local shadows the method of that name",
    {
        "Ui.cs": (
            "using System;\nusing System.Collections.Generic;\n\nnamespace Shop\n{\n    public class Ui\n    {\n"
            "        void render() {}\n\n        void Draw(Action render)\n        {\n            render();\n        }\n\n"
            "        void Each(List<Action> fs)\n        {\n            foreach (var render in fs)\n            {\n"
            "                render();\n            }\n        }\n\n        void Local()\n        {\n"
            "            Action render = () => {};\n            render();\n        }\n\n"
            "        void Plain()\n        {\n            render();\n        }\n    }\n}\n"
        ),
    },
    "!calls Shop::Ui::Draw -> Ui.cs:Shop::Ui::render",
    "!calls Shop::Ui::Each -> Ui.cs:Shop::Ui::render",
    "!calls Shop::Ui::Local -> Ui.cs:Shop::Ui::render",
    "calls Shop::Ui::Plain -> Ui.cs:Shop::Ui::render",
)
row(
    "csharp",
    "f",
    "a using alias reaches the aliased class",
    {
        "Repo.cs": "namespace Shop.Data\n{\n    public class Repo\n    {\n        public void Save() {}\n    }\n}\n",
        "App.cs": (
            "using Store = Shop.Data.Repo;\n\nnamespace Shop\n{\n    public class App\n    {\n"
            "        public void Run(Store s)\n        {\n            s.Save();\n            new Store().Save();\n        }\n    }\n}\n"
        ),
    },
    "calls Shop::App::Run -> Repo.cs:Shop.Data::Repo::Save",
    "instantiates Shop::App::Run -> Repo.cs:Shop.Data::Repo",
)
row(
    "csharp",
    "g",
    "a type of a namespace no using opens stays unresolved instead of a name-only guess",
    {
        "A.cs": "namespace A\n{\n    public class Run\n    {\n        public void Go() { Util.Helper(); }\n    }\n}\n",
        "B.cs": "namespace B\n{\n    public static class Util\n    {\n        public static void Helper() {}\n    }\n}\n",
    },
    "!calls A::Run::Go -> B.cs:B::Util::Helper",
    "unresolved A.cs Util.Helper",
)

# --------------------------------------------------------------------------------------------- PHP
row(
    "php",
    "a",
    "an inherited method resolves on a new subclass instance, a local and a typed property; the override wins",
    {
        "src/Repo.php": (
            "<?php\nnamespace Shop;\n\nclass Repo\n{\n    public function save() {}\n    public function delete() {}\n}\n"
        ),
        "src/UserRepo.php": (
            "<?php\nnamespace Shop;\n\nclass UserRepo extends Repo\n{\n    public function delete() {}\n}\n"
        ),
        "src/Service.php": (
            "<?php\nnamespace Shop;\n\nclass Service\n{\n    private UserRepo $repo;\n\n    public function run()\n    {\n"
            "        (new UserRepo())->save();\n        $r = new UserRepo();\n        $r->delete();\n"
            "        $this->repo->save();\n    }\n}\n"
        ),
    },
    "calls Shop::Service::run -> src/Repo.php:Shop::Repo::save",
    "calls Shop::Service::run -> src/UserRepo.php:Shop::UserRepo::delete",
    "!calls Shop::Service::run -> src/Repo.php:Shop::Repo::delete",
)
row(
    "php",
    "b",
    "promoted constructor properties, constructor-assigned properties and static instances type their uses",
    {
        "src/Types.php": (
            "<?php\nnamespace Shop;\n\nclass Clock\n{\n    public function now(): int { return 0; }\n}\n\n"
            "class Log\n{\n    public function write(string $s): void {}\n}\n\n"
            "class Registry\n{\n    public static Registry $default;\n\n    public function add($o): void {}\n}\n"
        ),
        "src/Job.php": (
            "<?php\nnamespace Shop;\n\nclass Job\n{\n    private $log;\n\n    public function __construct(private Clock $clock)\n"
            "    {\n        $this->log = new Log();\n    }\n\n    public function tick(): int\n    {\n"
            "        $this->log->write('x');\n        Registry::$default->add($this);\n"
            "        return $this->clock->now();\n    }\n}\n"
        ),
    },
    "calls Shop::Job::tick -> src/Types.php:Shop::Log::write",
    "calls Shop::Job::tick -> src/Types.php:Shop::Registry::add",
    "calls Shop::Job::tick -> src/Types.php:Shop::Clock::now",
)
row(
    "php",
    "c",
    "calls chain through declared return types",
    {
        "src/Db.php": (
            "<?php\nnamespace Shop;\n\nclass Stmt\n{\n    public function run(): void {}\n}\n\n"
            "class Conn\n{\n    public function prepare(): Stmt { return new Stmt(); }\n}\n\n"
            "class Pool\n{\n    public function get(): Conn { return new Conn(); }\n}\n\n"
            "function exec(Pool $p): void\n{\n    $p->get()->prepare()->run();\n    $c = $p->get();\n    $c->prepare();\n}\n"
        ),
    },
    "calls Shop::exec -> src/Db.php:Shop::Pool::get",
    "calls Shop::exec -> src/Db.php:Shop::Conn::prepare",
    "calls Shop::exec -> src/Db.php:Shop::Stmt::run",
)
row(
    "php",
    "d",
    "a first-class callable passed as an argument is a reference from the passing method",
    {
        "src/Report.php": (
            "<?php\nnamespace Shop;\n\nfunction show(string $s): string { return $s; }\n\n"
            "class Report\n{\n    private function line(string $s): string { return $s; }\n\n"
            "    public function emit(array $lines): array\n    {\n        array_map(show(...), $lines);\n"
            "        return array_map($this->line(...), $lines);\n    }\n}\n"
        ),
    },
    "references Shop::Report::emit -> src/Report.php:Shop::show",
    "references Shop::Report::emit -> src/Report.php:Shop::Report::line",
    "!calls Shop::Report::emit -> src/Report.php:Shop::show",
)
row(
    "php",
    "e",
    "a called closure variable is not a call to the function of that name",
    {
        "src/ui.php": (
            "<?php\nnamespace Shop;\n\nfunction render() {}\n\nfunction draw(callable $render)\n{\n    $render();\n}\n\n"
            "function each(array $fs)\n{\n    foreach ($fs as $render) {\n        $render();\n    }\n}\n\n"
            "function plain()\n{\n    render();\n}\n"
        ),
    },
    "!calls Shop::draw -> src/ui.php:Shop::render",
    "!calls Shop::each -> src/ui.php:Shop::render",
    "calls Shop::plain -> src/ui.php:Shop::render",
)
row(
    "php",
    "f",
    "a use-as alias reaches the aliased class",
    {
        "src/Data/Repo.php": "<?php\nnamespace Shop\\Data;\n\nclass Repo\n{\n    public function save() {}\n}\n",
        "src/App.php": (
            "<?php\nnamespace Shop;\n\nuse Shop\\Data\\Repo as Store;\n\nclass App\n{\n    public function run(Store $s)\n"
            "    {\n        $s->save();\n        (new Store())->save();\n    }\n}\n"
        ),
    },
    "calls Shop::App::run -> src/Data/Repo.php:Shop\\Data::Repo::save",
    "instantiates Shop::App::run -> src/Data/Repo.php:Shop\\Data::Repo",
)
row(
    "php",
    "g",
    "a function of another namespace not imported stays unresolved instead of a name-only guess",
    {
        "src/a.php": "<?php\nnamespace A;\n\nfunction go()\n{\n    helper();\n}\n",
        "src/b.php": "<?php\nnamespace B;\n\nfunction helper() {}\n",
    },
    "!calls A::go -> src/b.php:B::helper",
    "unresolved src/a.php helper",
)

# -------------------------------------------------------------------------------------------- Rust
CARGO = {"Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n'}
row(
    "rust",
    "a",
    "a trait's default method resolves on an implementing type and the impl's own method wins",
    {
        **CARGO,
        "src/lib.rs": "pub mod repo;\npub mod service;\n",
        "src/repo.rs": (
            "pub trait Repo {\n    fn save(&self) {}\n    fn delete(&self) {}\n}\n\npub struct UserRepo;\n\n"
            "impl Repo for UserRepo {\n    fn delete(&self) {}\n}\n"
        ),
        "src/service.rs": (
            "use crate::repo::{Repo, UserRepo};\n\npub struct Service {\n    repo: UserRepo,\n}\n\nimpl Service {\n"
            "    pub fn run(&self) {\n        UserRepo.save();\n        let r = UserRepo;\n        r.delete();\n"
            "        self.repo.save();\n    }\n}\n"
        ),
    },
    "calls Service::run -> src/repo.rs:Repo::save",
    "calls Service::run -> src/repo.rs:UserRepo::delete",
    "!calls Service::run -> src/repo.rs:Repo::delete",
)
row(
    "rust",
    "b",
    "struct fields and statics type their uses, from another module too",
    {
        **CARGO,
        "src/lib.rs": "pub mod types;\npub mod job;\n",
        "src/types.rs": (
            "pub struct Clock;\n\nimpl Clock {\n    pub fn now(&self) -> u64 {\n        0\n    }\n}\n\n"
            "pub struct Registry;\n\nimpl Registry {\n    pub fn add(&self, name: &str) {}\n}\n\n"
            "pub static REGISTRY: Registry = Registry;\n"
        ),
        "src/job.rs": (
            "use crate::types::{self, Clock};\n\npub struct Job {\n    clock: Clock,\n}\n\nimpl Job {\n"
            '    pub fn tick(&self) -> u64 {\n        types::REGISTRY.add("tick");\n        self.clock.now()\n    }\n}\n'
        ),
    },
    "calls Job::tick -> src/types.rs:Clock::now",
    "calls Job::tick -> src/types.rs:Registry::add",
)
row(
    "rust",
    "c",
    "calls chain through declared return types, Self included",
    {
        **CARGO,
        "src/lib.rs": (
            "pub struct Stmt;\n\nimpl Stmt {\n    pub fn run(&self) {}\n}\n\npub struct Conn;\n\nimpl Conn {\n"
            "    pub fn prepare(&self) -> Stmt {\n        Stmt\n    }\n}\n\npub struct Pool;\n\nimpl Pool {\n"
            "    pub fn new() -> Self {\n        Pool\n    }\n\n    pub fn get(&self) -> Conn {\n        Conn\n    }\n}\n\n"
            "pub fn exec() {\n    Pool::new().get().prepare().run();\n    let c = Pool::new().get();\n    c.prepare();\n}\n"
        ),
    },
    "calls exec -> src/lib.rs:Pool::new",
    "calls exec -> src/lib.rs:Pool::get",
    "calls exec -> src/lib.rs:Conn::prepare",
    "calls exec -> src/lib.rs:Stmt::run",
)
row(
    "rust",
    "d",
    "a function or associated function passed as a value is a reference from the passing function",
    {
        **CARGO,
        "src/lib.rs": (
            "pub struct Item;\n\nimpl Item {\n    pub fn price(&self) -> u32 {\n        1\n    }\n}\n\n"
            "fn parse(s: &str) -> u32 {\n    0\n}\n\npub fn total(xs: &[&str], items: &[Item]) -> u32 {\n"
            "    let a: u32 = xs.iter().map(|s| parse(s)).sum();\n    let b: Vec<u32> = xs.iter().copied().map(parse).collect();\n"
            "    a + items.iter().map(Item::price).sum::<u32>() + b.len() as u32\n}\n"
        ),
    },
    "references total -> src/lib.rs:parse",
    "references total -> src/lib.rs:Item::price",
    "calls total -> src/lib.rs:parse",
)
row(
    "rust",
    "e",
    "a called parameter, closure local or loop variable shadows the function of that name",
    {
        **CARGO,
        "src/lib.rs": (
            "fn render() {}\n\npub fn draw(render: impl Fn()) {\n    render();\n}\n\n"
            "pub fn each(fs: Vec<Box<dyn Fn()>>) {\n    for render in fs {\n        render();\n    }\n}\n\n"
            "pub fn local() {\n    let render = || {};\n    render();\n}\n\npub fn plain() {\n    render();\n}\n"
        ),
    },
    "!calls draw -> src/lib.rs:render",
    "!calls each -> src/lib.rs:render",
    "!calls local -> src/lib.rs:render",
    "calls plain -> src/lib.rs:render",
)
row(
    "rust",
    "f",
    "a type alias, a renamed use and a pub use re-export reach the item",
    {
        **CARGO,
        "src/lib.rs": "mod repo;\npub mod app;\npub use repo::Repo;\npub type Store = repo::Repo;\n",
        "src/repo.rs": "pub struct Repo;\n\nimpl Repo {\n    pub fn save(&self) {}\n}\n\npub fn helper() {}\n",
        "src/app.rs": (
            "use crate::Store;\nuse crate::repo::helper as assist;\n\npub fn run(s: Store) {\n    s.save();\n"
            "    assist();\n    crate::Repo.save();\n}\n"
        ),
    },
    "calls run -> src/repo.rs:Repo::save",
    "calls run -> src/repo.rs:helper",
)
row(
    "rust",
    "g",
    "a name no use or module path explains stays unresolved instead of a name-only guess",
    {
        **CARGO,
        "src/lib.rs": "pub mod a;\npub mod b;\n",
        "src/a.rs": "pub fn go() {\n    helper();\n}\n",
        "src/b.rs": "pub fn helper() {}\n",
    },
    "!calls go -> src/b.rs:helper",
    "unresolved src/a.rs helper",
)

# -------------------------------------------------------------------------------------------- Ruby
row(
    "ruby",
    "a",
    "an inherited method resolves on a new subclass instance, a local and an instance variable; the override wins",
    {
        "lib/repo.rb": (
            "class Repo\n  def save\n  end\n\n  def delete\n  end\nend\n\nclass UserRepo < Repo\n  def delete\n  end\nend\n"
        ),
        "lib/service.rb": (
            "require_relative 'repo'\n\nclass Service\n  def initialize\n    @repo = UserRepo.new\n  end\n\n  def run\n"
            "    UserRepo.new.save\n    r = UserRepo.new\n    r.delete\n    @repo.save\n  end\nend\n"
        ),
    },
    "calls Service::run -> lib/repo.rb:Repo::save",
    "calls Service::run -> lib/repo.rb:UserRepo::delete",
    "!calls Service::run -> lib/repo.rb:Repo::delete",
)
row(
    "ruby",
    "b",
    "instance variables assigned in initialize and constants holding instances type their uses, from another file too",
    {
        "lib/types.rb": (
            "class Clock\n  def now\n    0\n  end\nend\n\nclass Registry\n  def add(o)\n  end\nend\n\n"
            "module Jobs\n  REGISTRY = Registry.new\nend\n"
        ),
        "lib/job.rb": (
            "require_relative 'types'\n\nclass Job\n  def initialize\n    @clock = Clock.new\n  end\n\n"
            "  def tick\n    Jobs::REGISTRY.add(self)\n    @clock.now\n  end\nend\n"
        ),
    },
    "calls Job::tick -> lib/types.rb:Clock::now",
    "calls Job::tick -> lib/types.rb:Registry::add",
)
row(
    "ruby",
    "d",
    "a method object passed as an argument is a reference from the passing method",
    {
        "lib/report.rb": (
            "class Report\n  def show(line)\n    line\n  end\n\n  def emit(lines)\n    lines.each(&method(:show))\n  end\nend\n"
        ),
    },
    "references Report::emit -> lib/report.rb:Report::show",
)
row(
    "ruby",
    "e",
    "a block parameter or local named like a method is not a call to it",
    {
        "lib/ui.rb": (
            "class Ui\n  def render\n  end\n\n  def draw(render)\n    render.call\n  end\n\n"
            "  def each(fs)\n    fs.each { |render| render.call }\n  end\n\n  def local\n    render = -> {}\n    render.call\n  end\n\n"
            "  def plain\n    render\n  end\nend\n"
        ),
    },
    "!calls Ui::draw -> lib/ui.rb:Ui::render",
    "!calls Ui::each -> lib/ui.rb:Ui::render",
    "!calls Ui::local -> lib/ui.rb:Ui::render",
    "calls Ui::plain -> lib/ui.rb:Ui::render",
)
row(
    "ruby",
    "f",
    "a method alias and alias_method reach the aliased method",
    {
        "lib/repo.rb": (
            "class Repo\n  def save\n  end\n  alias store save\n  alias_method :keep, :save\nend\n\n"
            "class App\n  def run\n    r = Repo.new\n    r.store\n    r.keep\n  end\nend\n"
        ),
    },
    "calls App::run -> lib/repo.rb:Repo::save",
)
row(
    "ruby",
    "g",
    "a receiverless method no scope or mixin explains stays unresolved instead of a name-only guess",
    {
        "lib/a.rb": "class Run\n  def go\n    helper(1)\n  end\nend\n",
        "lib/b.rb": "class Util\n  def helper(x)\n  end\nend\n",
    },
    "!calls Run::go -> lib/b.rb:Util::helper",
    "unresolved lib/a.rb helper",
)

# --------------------------------------------------------------------------------------------- Zig
row(
    "zig",
    "b",
    "struct fields and container-level instances type their uses, from another file too",
    {
        "src/types.zig": (
            "pub const Clock = struct {\n    pub fn now(self: *Clock) u64 {\n        _ = self;\n        return 0;\n    }\n};\n\n"
            "pub const Registry = struct {\n    pub fn add(self: *Registry, name: []const u8) void {\n"
            "        _ = self;\n        _ = name;\n    }\n};\n\npub var registry = Registry{};\n"
        ),
        "src/job.zig": (
            'const types = @import("types.zig");\n\npub const Job = struct {\n    clock: types.Clock,\n\n'
            '    pub fn tick(self: *Job) u64 {\n        types.registry.add("tick");\n        return self.clock.now();\n    }\n};\n'
        ),
    },
    "calls Job::tick -> src/types.zig:Clock::now",
    "calls Job::tick -> src/types.zig:Registry::add",
)
row(
    "zig",
    "c",
    "calls chain through declared return types",
    {
        "src/db.zig": (
            "const Stmt = struct {\n    fn run(self: Stmt) void {\n        _ = self;\n    }\n};\n\n"
            "const Conn = struct {\n    fn prepare(self: Conn) Stmt {\n        _ = self;\n        return Stmt{};\n    }\n};\n\n"
            "const Pool = struct {\n    fn get(self: Pool) Conn {\n        _ = self;\n        return Conn{};\n    }\n};\n\n"
            "pub fn exec(p: Pool) void {\n    p.get().prepare().run();\n    const c = p.get();\n    _ = c.prepare();\n}\n"
        ),
    },
    "calls exec -> src/db.zig:Pool::get",
    "calls exec -> src/db.zig:Conn::prepare",
    "calls exec -> src/db.zig:Stmt::run",
)
row(
    "zig",
    "d",
    "a function passed as an argument is a reference from the passing function",
    {
        "src/sort.zig": (
            'const std = @import("std");\n\nfn lessThan(_: void, a: u32, b: u32) bool {\n    return a < b;\n}\n\n'
            "pub fn sortAll(xs: []u32) void {\n    std.mem.sort(u32, xs, {}, lessThan);\n}\n"
        ),
    },
    "references sortAll -> src/sort.zig:lessThan",
)
row(
    "zig",
    "e",
    "a called parameter shadows the function of that name",
    {
        "src/ui.zig": (
            "fn render() void {}\n\npub fn draw(comptime render: fn () void) void {\n    render();\n}\n\n"
            "pub fn plain() void {\n    render();\n}\n"
        ),
    },
    "!calls draw -> src/ui.zig:render",
    "calls plain -> src/ui.zig:render",
)
row(
    "zig",
    "f",
    "a const alias of a type or a function reaches it",
    {
        "src/repo.zig": (
            "pub const Repo = struct {\n    pub fn save(self: Repo) void {\n        _ = self;\n    }\n};\n\n"
            "pub fn helper() void {}\n"
        ),
        "src/app.zig": (
            'const repo = @import("repo.zig");\nconst Store = repo.Repo;\nconst assist = repo.helper;\n\n'
            "pub fn run(s: Store) void {\n    s.save();\n    assist();\n}\n"
        ),
    },
    "calls run -> src/repo.zig:Repo::save",
    "calls run -> src/repo.zig:helper",
)
row(
    "zig",
    "g",
    "a name no import or container explains stays unresolved instead of a name-only guess",
    {
        "src/a.zig": "pub fn go() void {\n    helper();\n}\n",
        "src/b.zig": "pub fn helper() void {}\n",
    },
    "!calls go -> src/b.zig:helper",
    "unresolved src/a.zig helper",
)

# ------------------------------------------------------------------------------------------- Swift
S = "Sources/Shop/"
row(
    "swift",
    "a",
    "an inherited method resolves on a new subclass instance, a local and a property; the override wins",
    {
        S + "Repo.swift": (
            "class Repo {\n    func save() {}\n    func delete() {}\n}\n\nclass UserRepo: Repo {\n    override func delete() {}\n}\n"
        ),
        S + "Service.swift": (
            "class Service {\n    let repo = UserRepo()\n\n    func run() {\n        UserRepo().save()\n"
            "        let r = UserRepo()\n        r.delete()\n        self.repo.save()\n    }\n}\n"
        ),
    },
    f"calls Service::run -> {S}Repo.swift:Repo::save",
    f"calls Service::run -> {S}Repo.swift:UserRepo::delete",
    f"!calls Service::run -> {S}Repo.swift:Repo::delete",
)
row(
    "swift",
    "b",
    "declared and initialised properties, static and global instances type their uses",
    {
        S + "Types.swift": (
            "class Clock {\n    func now() -> Int { 0 }\n}\n\nclass Log {\n    func write(_ s: String) {}\n}\n\n"
            "class Registry {\n    static let shared = Registry()\n    func add(_ o: AnyObject) {}\n}\n\n"
            "let bus = Registry()\n"
        ),
        S + "Job.swift": (
            "class Job {\n    let clock: Clock\n    var log = Log()\n\n    init(clock: Clock) {\n        self.clock = clock\n    }\n\n"
            '    func tick() -> Int {\n        log.write("x")\n        Registry.shared.add(self)\n        bus.add(self)\n'
            "        return clock.now()\n    }\n}\n"
        ),
    },
    f"calls Job::tick -> {S}Types.swift:Log::write",
    f"calls Job::tick -> {S}Types.swift:Registry::add",
    f"calls Job::tick -> {S}Types.swift:Clock::now",
)
row(
    "swift",
    "c",
    "calls chain through declared return types and computed properties",
    {
        S + "Db.swift": (
            "class Stmt {\n    func run() {}\n}\n\nclass Conn {\n    func prepare() -> Stmt { Stmt() }\n}\n\n"
            "class Pool {\n    var conn: Conn { Conn() }\n    func get() -> Conn { Conn() }\n}\n\n"
            "func exec(_ p: Pool) {\n    p.get().prepare().run()\n    p.conn.prepare()\n}\n"
        ),
    },
    f"calls exec -> {S}Db.swift:Pool::get",
    f"calls exec -> {S}Db.swift:Conn::prepare",
    f"calls exec -> {S}Db.swift:Stmt::run",
)
row(
    "swift",
    "d",
    "a function passed as an argument is a reference from the passing function",
    {
        S + "Report.swift": (
            "func show(_ s: String) {}\n\nfunc emit(_ lines: [String]) {\n    lines.forEach(show)\n}\n"
        ),
    },
    f"references emit -> {S}Report.swift:show",
)
row(
    "swift",
    "e",
    "a called closure parameter, loop variable or local shadows the function of that name",
    {
        S + "Ui.swift": (
            "func render() {}\n\nfunc draw(render: () -> Void) {\n    render()\n}\n\n"
            "func each(_ fs: [() -> Void]) {\n    for render in fs {\n        render()\n    }\n}\n\n"
            "func local() {\n    let render = {}\n    render()\n}\n\nfunc plain() {\n    render()\n}\n"
        ),
    },
    f"!calls draw -> {S}Ui.swift:render",
    f"!calls each -> {S}Ui.swift:render",
    f"!calls local -> {S}Ui.swift:render",
    f"calls plain -> {S}Ui.swift:render",
)
row(
    "swift",
    "f",
    "a typealias reaches the aliased class",
    {
        S + "Repo.swift": "class Repo {\n    func save() {}\n}\n\ntypealias Store = Repo\n",
        S + "App.swift": "func run(_ s: Store) {\n    s.save()\n    Store().save()\n}\n",
    },
    f"calls run -> {S}Repo.swift:Repo::save",
)
row(
    "swift",
    "g",
    "a name of another module no import brings stays unresolved instead of a name-only guess",
    {
        "Package.swift": (
            '// swift-tools-version:5.5\nimport PackageDescription\n\nlet package = Package(name: "Shop", targets: ['
            '.target(name: "A"), .target(name: "B")])\n'
        ),
        "Sources/A/Run.swift": "func go() {\n    helper()\n}\n",
        "Sources/B/Util.swift": "func helper() {}\n",
    },
    "!calls go -> Sources/B/Util.swift:helper",
    "unresolved Sources/A/Run.swift helper",
)

# ------------------------------------------------------------------------------------------- Scala
C = "src/main/scala/shop/"
row(
    "scala",
    "a",
    "an inherited method resolves on a new subclass instance, a local and a field; the override wins",
    {
        C + "Repo.scala": (
            "package shop\n\nclass Repo {\n  def save(): Unit = ()\n  def delete(): Unit = ()\n}\n\n"
            "class UserRepo extends Repo {\n  override def delete(): Unit = ()\n}\n"
        ),
        C + "Service.scala": (
            "package shop\n\nclass Service {\n  private val repo = new UserRepo\n\n  def run(): Unit = {\n"
            "    new UserRepo().save()\n    val r = new UserRepo\n    r.delete()\n    this.repo.save()\n  }\n}\n"
        ),
    },
    f"calls Service::run -> {C}Repo.scala:Repo::save",
    f"calls Service::run -> {C}Repo.scala:UserRepo::delete",
    f"!calls Service::run -> {C}Repo.scala:Repo::delete",
)
row(
    "scala",
    "b",
    "constructor parameters, initialised vals and object members type their uses, from another file too",
    {
        C + "Types.scala": (
            "package shop\n\nclass Clock {\n  def now(): Long = 0\n}\n\nclass Log {\n  def write(s: String): Unit = ()\n}\n\n"
            "class Registry {\n  def add(o: Any): Unit = ()\n}\n\nobject Registry {\n  val default = new Registry\n}\n"
        ),
        C + "Job.scala": (
            'package shop\n\nclass Job(clock: Clock) {\n  private val log = new Log\n\n  def tick(): Long = {\n    log.write("x")\n'
            "    Registry.default.add(this)\n    clock.now()\n  }\n}\n"
        ),
    },
    f"calls Job::tick -> {C}Types.scala:Log::write",
    f"calls Job::tick -> {C}Types.scala:Registry::add",
    f"calls Job::tick -> {C}Types.scala:Clock::now",
)
row(
    "scala",
    "c",
    "calls chain through declared return types",
    {
        C + "Db.scala": (
            "package shop\n\nclass Stmt {\n  def run(): Unit = ()\n}\n\nclass Conn {\n  def prepare(): Stmt = new Stmt\n}\n\n"
            "class Pool {\n  def get(): Conn = new Conn\n}\n\nobject Db {\n  def exec(p: Pool): Unit = {\n"
            "    p.get().prepare().run()\n    val c = p.get()\n    c.prepare()\n  }\n}\n"
        ),
    },
    f"calls Db::exec -> {C}Db.scala:Pool::get",
    f"calls Db::exec -> {C}Db.scala:Conn::prepare",
    f"calls Db::exec -> {C}Db.scala:Stmt::run",
)
row(
    "scala",
    "d",
    "a method passed as a function value is a reference from the passing method",
    {
        C + "Report.scala": (
            "package shop\n\nobject Printer {\n  def print(s: String): Unit = ()\n}\n\nobject Report {\n"
            "  def show(s: String): Unit = ()\n\n  def emit(lines: List[String]): Unit = {\n    lines.foreach(show)\n"
            "    lines.foreach(Printer.print)\n  }\n}\n"
        ),
    },
    f"references Report::emit -> {C}Report.scala:Report::show",
    f"* Report::emit -> {C}Report.scala:Printer::print",  # a field access: Scala's a.b is a call
)
row(
    "scala",
    "e",
    "a called parameter, generator variable or local shadows the method of that name",
    {
        C + "Ui.scala": (
            "package shop\n\nobject Ui {\n  def render(): Unit = ()\n\n  def draw(render: () => Unit): Unit = {\n    render()\n  }\n\n"
            "  def each(fs: List[() => Unit]): Unit = {\n    for (render <- fs) render()\n  }\n\n"
            "  def local(): Unit = {\n    val render = () => ()\n    render()\n  }\n\n  def plain(): Unit = {\n    render()\n  }\n}\n"
        ),
    },
    f"!calls Ui::draw -> {C}Ui.scala:Ui::render",
    f"!calls Ui::each -> {C}Ui.scala:Ui::render",
    f"!calls Ui::local -> {C}Ui.scala:Ui::render",
    f"calls Ui::plain -> {C}Ui.scala:Ui::render",
)
row(
    "scala",
    "f",
    "a type alias and a renaming import reach the aliased class",
    {
        C
        + "Repo.scala": "package shop\n\nclass Repo {\n  def save(): Unit = ()\n}\n\nobject Aliases {\n  type Store = Repo\n}\n",
        "src/main/scala/app/App.scala": (
            "package app\n\nimport shop.{Repo => Bin}\nimport shop.Aliases.Store\n\nobject App {\n"
            "  def run(s: Store, b: Bin): Unit = {\n    s.save()\n    new Bin().save()\n  }\n}\n"
        ),
    },
    f"calls App::run -> {C}Repo.scala:Repo::save",
    f"instantiates App::run -> {C}Repo.scala:Repo",
)
row(
    "scala",
    "g",
    "a name of a package no import opens stays unresolved instead of a name-only guess",
    {
        "src/main/scala/a/Run.scala": "package a\n\nobject Run {\n  def go(): Unit = helper()\n}\n",
        "src/main/scala/b/Util.scala": "package b\n\nobject Util {\n  def helper(): Unit = ()\n}\n",
    },
    "!calls Run::go -> src/main/scala/b/Util.scala:Util::helper",
    "unresolved src/main/scala/a/Run.scala helper",
)

NOT_APPLICABLE = {
    ("java", "f"): "Java has no alias declarations (no type alias, no renamed import)",
    ("c", "a"): "C has no classes or inheritance",
    ("c", "b"): "C has no methods to call through a typed field",
    ("c", "c"): "C has no methods to call on a returned value",
    ("c", "f"): "a typedef names a type, and C has no methods to reach through it",
    ("ruby", "c"): "Ruby declares no return types",
    ("zig", "a"): "Zig has no inheritance",
}


# ------------------------------------------------------------------------------------------ checks
def _parse_edge(text: str) -> tuple[str, str, str]:
    kind, rest = text.split(" ", 1)
    source, target = rest.split(" -> ")
    return kind, source, target


def _graph(root) -> tuple[set[tuple[str, str, str]], dict, set[tuple[str, str]]]:
    with Reader(root) as reader:
        found = rows(
            reader,
            "SELECT e.kind, s.qualified_name, t.file_path, t.qualified_name, e.metadata FROM edges e"
            " JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target",
        )
        unresolved = set(rows(reader, "SELECT file_path, reference_name FROM unresolved_refs"))
    edges = {(kind, src, f"{path}:{dst}") for kind, src, path, dst, _ in found}
    meta = {
        (src, f"{path}:{dst}"): json.loads(m or "{}")
        for kind, src, path, dst, m in found
        if kind != "contains"
    }
    return edges, meta, unresolved


def _check(found, meta, unresolved, expect: str) -> str | None:
    """None when the expectation holds, else what was wrong."""
    if expect.startswith("unresolved "):
        _, path, name = expect.split(" ", 2)
        return None if (path, name) in unresolved else f"not unresolved: {path} {name}"
    if expect.startswith("tier "):
        edge, confidence, how = expect[5:].rsplit(" ", 2)
        source, target = edge.split(" -> ")
        got = meta.get((source, target))
        if got is None:
            return f"no edge {edge}"
        if (got.get("confidence"), got.get("resolvedBy")) != (float(confidence), how):
            return f"{edge}: {got}"
        return None
    negate = expect.startswith("!")
    kind, source, target = _parse_edge(expect.lstrip("!"))
    present = any(
        k == kind or kind == "*" for k, s, t in found if (s, t) == (source, target) and k != "contains"
    )
    if negate and present:
        return f"wrong edge {expect[1:]}"
    if not negate and not present:
        return f"missing edge {expect}"
    return None


def _id(r: Row) -> str:
    return f"{r.lang}-{r.pattern}-" + re.sub(r"[^A-Za-z0-9]+", "_", r.behaviour).strip("_")


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(r, id=_id(r), marks=[pytest.mark.xfail(strict=True, reason=r.fails)] if r.fails else [])
        for r in ROWS
    ],
)
def test_pattern(case: Row, tmp_path):
    for rel, text in case.files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    found, meta, unresolved = _graph(tmp_path)
    problems = [p for e in case.expect if (p := _check(found, meta, unresolved, e))]
    guesses = {k for k, m in meta.items() if m.get("resolvedBy") == "exact-match"}
    problems += [
        f"a name-only match above the lowest tier: {k} {meta[k]}"
        for k in guesses
        if meta[k]["confidence"] != 0.5
    ]
    if case.pattern != "g" or case.lang != "dart":
        problems += [f"unexpected name-only guess {k}" for k in guesses if k not in _tiered(case)]
    assert not problems, problems


def _tiered(case: Row) -> set[tuple[str, str]]:
    return {tuple(e[5:].rsplit(" ", 2)[0].split(" -> ")) for e in case.expect if e.startswith("tier ")}


def test_every_mainstream_language_has_a_row_or_a_reason_for_every_pattern():
    covered = {(r.lang, r.pattern) for r in ROWS}
    missing = [
        (lang, p)
        for lang in LANGUAGES
        for p in PATTERNS
        if (lang, p) not in covered and (lang, p) not in NOT_APPLICABLE
    ]
    assert not missing, missing
    assert not covered & set(NOT_APPLICABLE), covered & set(NOT_APPLICABLE)


def matrix() -> str:
    """The pattern × language table: ``ok``, ``xfail`` (a row the resolver does not meet yet) or ``n/a``."""
    cells = {(r.lang, r.pattern): "xfail" if r.fails else "ok" for r in ROWS}
    cells.update({k: "n/a" for k in NOT_APPLICABLE})
    langs = sorted(
        {r.lang for r in ROWS} | {k[0] for k in NOT_APPLICABLE}, key=lambda x: (x not in LANGUAGES, x)
    )
    head = "pattern".ljust(23) + "".join(lang.ljust(8) for lang in langs)
    body = [
        f"{p} {name}".ljust(23) + "".join(cells.get((lang, p), "-").ljust(8) for lang in langs)
        for p, name in PATTERNS.items()
    ]
    return "\n".join([head, *body])


if __name__ == "__main__":
    print(matrix())
