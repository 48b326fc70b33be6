"""An instantiation runs its type's constructor: ``callers``, ``node``, ``impact`` and explore's blast
radius count ``new Point(3)`` / ``Point(3)`` as a call of the constructor (stop 30: every language's
constructors answered "called by 0", since the graph points an instantiation at the type). A type
with more constructors than one (or one that is no node: a Kotlin primary constructor) gets each
instantiation as a guess, which ``--min-confidence`` drops. Real indexer, real files; each expected
caller is read off the sources below."""

from __future__ import annotations

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.impact import impact
from codegraph.query.node import node
from codegraph.query.relations import CONSTRUCTOR_GUESS, callers
from codegraph.render import render
from codegraph.store.reader import Reader

# language → files, the constructor asked for (qualified name), its caller by instantiation (name,
# line), and whether that is certain (one constructor node and nothing else builds the type)
CASES = {
    "python": (
        {
            "shapes.py": "class Point:\n    def __init__(self, x):\n        self.x = x\n\n\ndef make():\n"
            "    return Point(3)\n"
        },
        "Point::__init__",
        ("make", 7),
        True,
    ),
    "typescript": (
        {
            "box.ts": "export class Box {\n  constructor(public w: number) {}\n}\n"
            "export function build(): Box {\n  return new Box(2);\n}\n"
        },
        "Box::constructor",
        ("build", 5),
        True,
    ),
    "java-one": (
        {
            "src/a/Pt.java": "package a;\npublic class Pt {\n    public Pt(int x) {}\n}\n",
            "src/a/Use.java": "package a;\npublic class Use {\n    Pt run() {\n        return new Pt(1);\n"
            "    }\n}\n",
        },
        "Pt::Pt",
        ("run", 4),
        True,
    ),
    "java-overloads": (
        {
            "src/a/Pt.java": "package a;\npublic class Pt {\n    public Pt(int x) {}\n\n"
            "    public Pt() {\n        this(0);\n    }\n}\n",
            "src/a/Use.java": "package a;\npublic class Use {\n    Pt run() {\n        return new Pt(1);\n"
            "    }\n}\n",
        },
        "Pt::Pt",
        ("run", 4),
        False,
    ),
    "csharp": (
        {
            "shop.cs": "class Cart {\n    public Cart(int n) {}\n}\nclass Shop {\n"
            "    Cart Open() { return new Cart(3); }\n}\n"
        },
        "Cart::Cart",
        ("Open", 5),
        True,
    ),
    "cpp": (
        {"kp.cpp": "class Kp {\npublic:\n    Kp(int x) {}\n};\nKp* make_kp() {\n    return new Kp(3);\n}\n"},
        "Kp::Kp",
        ("make_kp", 6),
        False,  # the implicit copy and move constructors may be the one
    ),
    "php": (
        {
            "pp.php": "<?php\nclass Pp {\n    public function __construct($x) {}\n}\nfunction make_pp() {\n"
            "    return new Pp(3);\n}\n"
        },
        "Pp::__construct",
        ("make_pp", 6),
        True,
    ),
    "ruby": (
        {"rp.rb": "class Rp\n  def initialize(x)\n    @x = x\n  end\nend\n\ndef make_rp\n  Rp.new(3)\nend\n"},
        "Rp::initialize",
        ("make_rp", 8),
        True,
    ),
    "kotlin": (  # a secondary constructor beside the primary one (no node): which runs is the arguments'
        {
            "Pt.kt": "class Pt(val x: Int) {\n    constructor(a: Int, b: Int) : this(a + b)\n}\n"
            "fun mk(): Pt = Pt(1, 2)\n"
        },
        "Pt::Pt",
        ("mk", 4),
        False,
    ),
}


def _index(tmp_path, files: dict[str, str]) -> ProjectPaths:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)
    return paths


def _group(result, qualified_name: str):
    return [g for g in result.groups if g.definition.qualified_name == qualified_name]


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_instantiation_is_a_caller_of_the_constructor(tmp_path, case):
    files, ctor, (caller, line), certain = CASES[case]
    paths = _index(tmp_path, files)
    with Reader(paths) as r:
        groups = _group(callers(r, ctor.rsplit("::", 1)[1]), ctor)
        assert groups, [g.definition.qualified_name for g in callers(r, ctor.rsplit("::", 1)[1]).groups]
        for group in groups:
            sites = [(s.node.name, s.line, s.kind) for s in group.sites]
            assert (caller, line, "instantiates") in sites, sites
            site = next(s for s in group.sites if (s.node.name, s.line) == (caller, line))
            assert (site.doubt is None) == certain, site.doubt
            if not certain:
                assert site.confidence == CONSTRUCTOR_GUESS and site.resolved_by == "constructor-guess"
                sure = _group(callers(r, ctor.rsplit("::", 1)[1], min_confidence=0.9), ctor)
                assert all((caller, line) not in [(s.node.name, s.line) for s in g.sites] for g in sure)
        reached = impact(r, ctor.replace("::", "."))
        assert caller in {n.name for nodes in reached.by_depth.values() for n in nodes}


def test_node_and_callers_say_the_same(tmp_path):
    files, ctor, (caller, line), _ = CASES["java-overloads"]
    paths = _index(tmp_path, files)
    with Reader(paths) as r:
        answer = node(r, "Pt.Pt", file="src/a/Pt.java", line=3)  # the one-argument constructor
        assert (caller, line) in [(s.node.name, s.line) for s in answer.callers]
        assert "constructor" in render(answer)  # the guess is said, as callers says it
        # this(0) calls the one-argument constructor: a call edge, kept as it is
        one_arg = next(g for g in _group(callers(r, "Pt"), ctor) if g.definition.start_line == 3)
        assert ("Pt", 6, "calls") in [(s.node.name, s.line, s.kind) for s in one_arg.sites]


def test_only_a_constructor_of_the_instantiated_type_counts(tmp_path):
    files = {
        # Base's __init__ runs for Sub(1), but no rule here says so: left out, not guessed
        "a.py": "class Base:\n    def __init__(self, x):\n        self.x = x\n\n\nclass Sub(Base):\n    pass\n\n\n"
        "def make():\n    return Sub(1)\n\n\nclass Other:\n    def Other(self):\n        return 1\n\n\n"
        "def other():\n    return Other()\n",
        # a function named constructor outside any class is no constructor
        "b.ts": "export function constructor(): number {\n  return 1;\n}\nexport class Q {}\n"
        "export function q(): Q {\n  return new Q();\n}\n",
        # Dart: Ep(1) runs the unnamed constructor; Ep.zero() calls the named one by name
        "c.dart": "class Ep {\n  final int x;\n  Ep(this.x);\n  Ep.zero() : x = 0;\n}\n"
        "Ep one() => Ep(1);\nEp none() => Ep.zero();\n",
    }
    paths = _index(tmp_path, files)
    with Reader(paths) as r:
        (init,) = callers(r, "__init__").groups
        assert init.sites == []
        other = _group(callers(r, "Other"), "Other::Other")
        assert other and other[0].sites == []  # Python: a method named like its class is no constructor
        (function,) = [g for g in callers(r, "constructor").groups if g.definition.kind == "function"]
        assert function.sites == []
        unnamed = _group(callers(r, "Ep"), "Ep::Ep")  # a const or factory one may be no node: a guess
        assert [(s.node.name, s.kind, s.resolved_by) for s in unnamed[0].sites] == [
            ("one", "instantiates", "constructor-guess")
        ]
        (named,) = callers(r, "zero").groups
        assert [(s.node.name, s.kind) for s in named.sites] == [("none", "calls")]


def test_pythons_super_is_no_constructor_call(tmp_path):
    """Python's bare ``super()`` is the bases' proxy: ``super().area()`` calls Base.area, and nothing
    calls Base.__init__ (adversarial pass, stop 30: with ``__init__`` a constructor name, the
    ``super`` call was resolved as JS's ``super(…)``, to the base's constructor)."""
    files = {
        "a.py": "class Base:\n    def __init__(self):\n        self.x = 1\n\n    def area(self):\n        return 0\n"
        "\n\nclass Sq(Base):\n    def area(self):\n        return super().area() + 1\n"
    }
    paths = _index(tmp_path, files)
    with Reader(paths) as r:
        (init,) = callers(r, "__init__").groups
        assert init.sites == []
        targets = {
            n.qualified_name
            for n in r.nodes(e.target for e in r.outgoing([_id(r, "Sq::area")], ("calls",))).values()
        }
        assert targets == {"Base::area"}


def _id(r: Reader, qualified_name: str) -> str:
    (node,) = [
        n for n in r.nodes_named(qualified_name.rsplit("::", 1)[1]) if n.qualified_name == qualified_name
    ]
    return node.id


# language → files, the constructor (qualified name) and its instantiation's caller: never certain,
# since the type has a constructor that is no node, or more than one (adversarial pass, stop 30)
GUESSED = {
    "csharp-struct": (
        {"s.cs": "struct S {\n    public S(int x) {}\n}\nclass U {\n    S M() { return new S(); }\n}\n"},
        "S::S",
        "M",
    ),
    "csharp-primary": (
        {
            "p.cs": "class Prim(int x) {\n    public Prim() : this(0) {}\n}\n"
            "class U {\n    Prim M() { return new Prim(5); }\n}\n"
        },
        "Prim::Prim",
        "M",
    ),
    "csharp-record": (
        {
            "r.cs": "record Rec(int X) {\n    public Rec() : this(0) {}\n}\n"
            "class U {\n    Rec M() { return new Rec(1); }\n}\n"
        },
        "Rec::Rec",
        "M",
    ),
    "java-record": (
        {
            "src/a/Pt2.java": "package a;\nrecord Pt2(int x, int y) {\n"
            "    Pt2(int x) {\n        this(x, 0);\n    }\n}\n",
            "src/a/U.java": "package a;\nclass U {\n    Pt2 m() {\n        return new Pt2(1, 2);\n    }\n}\n",
        },
        "Pt2::Pt2",
        "m",
    ),
    "swift-extension": (
        {
            "p.swift": "struct Pt {\n    var x: Int\n}\n"
            "extension Pt {\n    init(both: Int) {\n        self.x = both\n    }\n}\n"
            "func mk() -> Pt {\n    return Pt(x: 1)\n}\n"
        },
        "Pt::init",
        "mk",
    ),
    "python-new": (
        {
            "n.py": "class Cust:\n    def __new__(cls, x):\n        return 42\n\n    def __init__(self, x):\n"
            "        self.x = x\n\n\ndef make():\n    return Cust(1)\n"
        },
        "Cust::__init__",
        "make",
    ),
    "ruby-self-new": (
        {
            "c.rb": "class Cust\n  def self.new(x)\n    42\n  end\n\n  def initialize(x)\n    @x = x\n  end\nend\n\n"
            "def make_cust\n  Cust.new(1)\nend\n"
        },
        "Cust::initialize",
        "make_cust",
    ),
    "csharp-partial": (
        {
            "p.cs": "partial class Part {\n    public Part(int x) {}\n}\n"
            "class U {\n    Part M() { return new Part(1); }\n}\n"
        },
        "Part::Part",
        "M",
    ),
    "ruby-reopened": (
        {
            "t.rb": "class Two\n  def initialize(a)\n    @a = a\n  end\nend\n\nclass Two\n  def initialize(a, b)\n"
            "    @a = a\n  end\nend\n\ndef make_two\n  Two.new(1)\nend\n"
        },
        "Two::initialize",
        "make_two",
    ),
}


@pytest.mark.parametrize("case", sorted(GUESSED))
def test_a_type_built_by_a_constructor_that_is_no_node_or_by_several_gets_guesses(tmp_path, case):
    files, ctor, caller = GUESSED[case]
    paths = _index(tmp_path, files)
    with Reader(paths) as r:
        name = ctor.rsplit("::", 1)[1]
        groups = _group(callers(r, name), ctor)
        assert groups
        for group in groups:
            assert [(s.node.name, s.resolved_by) for s in group.sites if s.kind == "instantiates"] == [
                (caller, "constructor-guess")
            ]


def test_static_members_and_methods_named_like_the_type_are_no_constructors(tmp_path):
    files = {
        "s.rb": "class Solo\n  def self.initialize\n    1\n  end\nend\n\ndef make_solo\n  Solo.new\nend\n",
        "o.ts": "export class Only {\n  static constructor() {\n    return 1;\n  }\n}\n"
        "export function only(): Only {\n  return new Only();\n}\n",
        "st.cs": "class Stat {\n    static Stat() {}\n}\nclass U {\n    Stat M() { return new Stat(); }\n}\n",
        "src/a/Foo.java": "package a;\npublic class Foo {\n    public void Foo() {}\n}\n",
        "src/a/UseFoo.java": "package a;\nclass UseFoo {\n    Foo m() {\n        return new Foo();\n    }\n}\n",
    }
    paths = _index(tmp_path, files)
    with Reader(paths) as r:
        for name, owner in (
            ("initialize", "Solo"),
            ("constructor", "Only"),
            ("Stat", "Stat"),
            ("Foo", "Foo"),
        ):
            groups = _group(callers(r, name), f"{owner}::{name}")
            assert groups, name
            assert [g.sites for g in groups] == [[]] * len(groups), name


def test_same_named_types_of_other_files_are_other_types(tmp_path):
    """Only a language that reopens types (Ruby) joins a type's declarations: two Python classes
    ``Cfg`` in two modules are two types, and ``run`` builds the imported one (adversarial pass)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "class Cfg:\n    def __init__(self, x):\n        self.x = x\n",
        "pkg/b.py": "class Cfg:\n    def __init__(self):\n        self.x = 0\n",
        "main.py": "from pkg.a import Cfg\n\n\ndef run():\n    return Cfg(1)\n",
    }
    paths = _index(tmp_path, files)
    with Reader(paths) as r:
        by_file = {g.definition.file_path: g for g in callers(r, "__init__").groups}
        assert [(s.node.name, s.resolved_by) for s in by_file["pkg/a.py"].sites] == [("run", "import")]
        assert by_file["pkg/b.py"].sites == []


def test_a_type_whose_file_changed_since_the_index_is_read_where_it_is_now(tmp_path):
    """The type's declaration header is read where the type is now: a record moved down by new
    lines is still a record (its instantiations guesses), and a deleted file is not read at all."""
    files = {
        "r.cs": "record Rec(int X) {\n    public Rec(string s) : this(1) {}\n}\n",
        "u.cs": 'class U {\n    Rec M() { return new Rec("a"); }\n}\n',
    }
    paths = _index(tmp_path, files)
    (tmp_path / "r.cs").write_text("\n" * 10 + files["r.cs"])
    with Reader(paths) as r:
        (group,) = _group(callers(r, "Rec"), "Rec::Rec")
        assert [(s.node.name, s.resolved_by) for s in group.sites] == [("M", "constructor-guess")]
    (tmp_path / "r.cs").unlink()
    with Reader(paths) as r:
        (group,) = _group(callers(r, "Rec"), "Rec::Rec")
        assert [(s.node.name, s.resolved_by) for s in group.sites] == [("M", "constructor-guess")]


def test_type_dot_member_names_the_member_before_a_type_in_a_file_named_like_it(tmp_path):
    """``node Pt.Pt`` answered the class Pt (its file Pt.java matched the qualifier as a module path)
    before its constructors; the enclosing scope is asked first, the module path only without one."""
    from codegraph.query.symbols import find_symbols

    files, _, _, _ = CASES["java-overloads"]
    paths = _index(tmp_path, files)
    with Reader(paths) as r:
        assert {(n.kind, n.qualified_name) for n in find_symbols(r, "Pt.Pt")} == {("method", "Pt::Pt")}
        assert [n.kind for n in find_symbols(r, "Pt")] == ["class", "method", "method"]  # the type first
        assert node(r, "Pt.Pt", file="src/a/Pt.java").definition.kind == "method"
