"""Java: ``.java``.

A file's ``package`` plus a type's name is its address (``org.jsoup.nodes.Element``); a package spans
every file that declares it, wherever they sit. Imports name a type (``import a.b.C``), every type of
a package (``a.b.*``), or static members (``import static a.b.C.m`` / ``a.b.C.*``); types of the
same package are visible without an import. Methods of the enclosing classes (and their bases) are
visible by bare name. ``new Foo()`` instantiates; ``this(…)`` / ``super(…)`` call a constructor, and
overloads are told apart by argument count (see ``_jvm``). Javadoc is the ``/** … */`` before a
declaration.
"""

from __future__ import annotations

import re

from codegraph.index.extract import Def, Extractor, squash, text
from codegraph.index.languages._jvm import JvmLanguage, doc_comment
from codegraph.model import Node

_RECORD = re.compile(r"\brecord\s+\w+")

# java.lang, which every file imports on demand; none of these names binds to a project type
# unless the project declares or imports one (a same-package type shadows java.lang).
BUILTINS = frozenset(
    """
Object String StringBuilder StringBuffer Math StrictMath System Runtime Thread ThreadLocal Runnable Class
ClassLoader Enum Record Iterable Comparable CharSequence Cloneable AutoCloseable Appendable Readable Number
Integer Long Short Byte Double Float Boolean Character Void Process ProcessBuilder Throwable Exception
RuntimeException Error AssertionError IllegalArgumentException IllegalStateException NullPointerException
IndexOutOfBoundsException ArrayIndexOutOfBoundsException StringIndexOutOfBoundsException ClassCastException
UnsupportedOperationException ArithmeticException NumberFormatException CloneNotSupportedException
InterruptedException ReflectiveOperationException ClassNotFoundException SecurityException StackOverflowError
OutOfMemoryError LinkageError Override Deprecated SuppressWarnings FunctionalInterface SafeVarargs
""".split()
)
CLASS_KINDS = {
    "class_declaration": "class",
    "record_declaration": "class",
    "interface_declaration": "interface",
    "annotation_type_declaration": "interface",
    "enum_declaration": "enum",
}
BASE_CLAUSES = {"superclass": "extends", "super_interfaces": "implements", "extends_interfaces": "extends"}
TYPE_NODES = ("type_identifier", "generic_type", "scoped_type_identifier")
COMMENTS = ("line_comment", "block_comment")
TEST_FILE = re.compile(r"(Test|Tests|TestCase|IT)\.java$|^Test[A-Z].*\.java$")


def type_text(node) -> str | None:
    """``Foo``, ``a.b.Foo``, ``Outer.Inner`` for a type node (generic arguments dropped); None for
    primitives, arrays, wildcards and anything else no member call can be made on."""
    if node is None:
        return None
    t = node.type
    if t == "type_identifier":
        return text(node)
    if t == "generic_type":
        return type_text(node.named_children[0]) if node.named_child_count else None
    if t == "scoped_type_identifier":
        parts = [type_text(c) for c in node.named_children if c.type in TYPE_NODES]
        return ".".join(p for p in parts if p) or None
    if t == "annotated_type":
        inner = [c for c in node.named_children if c.type in TYPE_NODES]
        return type_text(inner[-1]) if inner else None
    return None


def expr_chain(node) -> str | None:
    """The receiver chain of a call as the resolver reads it: identifiers and field accesses joined
    by ``.``, a call segment written ``name()`` (``Jsoup.connect().userAgent()``), ``Outer.this``;
    None when some part is not a plain name (a cast, an array element, a literal…)."""
    t = node.type
    if t in ("identifier", "this", "super", "type_identifier"):
        return text(node)
    if t == "field_access":
        obj = node.child_by_field_name("object")
        field = node.child_by_field_name("field")
        head = expr_chain(obj) if obj is not None else None
        return f"{head}.{text(field)}" if head and field is not None else None
    if t == "scoped_identifier":
        return text(node).replace(" ", "")
    if t == "method_invocation":
        obj = node.child_by_field_name("object")
        name = text(node.child_by_field_name("name"))
        if obj is None:
            return f"{name}()"
        head = expr_chain(obj)
        return f"{head}.{name}()" if head else None
    if t == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_children[0]
        if inner.type == "object_creation_expression":
            typ = type_text(inner.child_by_field_name("type"))
            return f"new {typ}()" if typ else None
        return expr_chain(inner)
    if t == "object_creation_expression" and not any(c.type == "class_body" for c in node.children):
        typ = type_text(node.child_by_field_name("type"))
        return f"new {typ}()" if typ else None
    return None


def arg_count(args) -> int | None:
    if args is None:
        return None
    return sum(1 for c in args.named_children if c.type not in COMMENTS)


class JavaExtractor(Extractor):
    def begin(self, root) -> None:
        self.class_defs: dict[tuple[int, int], Def] = {}
        for c in root.children:
            if c.type == "package_declaration":
                name = next(
                    (n for n in c.named_children if n.type in ("scoped_identifier", "identifier")), None
                )
                if name is not None:
                    self.out.package = text(name).replace(" ", "")

    def handle(self, capture: str, ts) -> None:
        if capture in ("definition.class", "definition.interface", "definition.enum"):
            d = self.add_def(ts, CLASS_KINDS[ts.type], ts.child_by_field_name("name"))
            if d is not None:
                self.class_defs[(ts.start_byte, ts.end_byte)] = d
                if ts.type == "record_declaration":
                    self._record_components(ts)
        elif capture == "definition.method" or capture == "definition.constructor":
            d = self.add_def(ts, "function", ts.child_by_field_name("name"))
            body = ts.child_by_field_name("body")
            owner = ts.parent.parent if ts.parent is not None else None
            if (
                d is not None
                and body is not None
                and owner is not None
                and owner.type == "object_creation_expression"
            ):
                typ = type_text(owner.child_by_field_name("type"))
                if typ:  # a method of an anonymous class: what it extends says what bare names mean
                    self.type_fact(body, "<anon>", typ)
        elif capture == "definition.field":
            self._field(ts)
        elif capture == "definition.constant":
            self.add_def(ts, "enum_member", ts.child_by_field_name("name"))
        elif capture == "import":
            self._import(ts)
        elif capture == "reference.inheritance":
            d = (
                self.class_defs.get((ts.parent.start_byte, ts.parent.end_byte))
                if ts.parent is not None
                else None
            )
            if d is None:
                return
            kind = BASE_CLAUSES[ts.type]
            holder = next((c for c in ts.named_children if c.type == "type_list"), ts)
            for t in holder.named_children:
                name = type_text(t)
                if name:
                    self.base_ref(d, kind, name, t)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.new":
            name = type_text(ts.child_by_field_name("type"))
            if name:
                self._ref(ts, "instantiates", name, None, arg_count(ts.child_by_field_name("arguments")))
        elif capture == "reference.method_ref":
            self._method_ref(ts)
        elif capture == "local":
            self._local(ts)
        elif capture == "lambda":
            params = ts.child_by_field_name("parameters")
            if params is not None and params.type == "identifier":
                self.type_fact(ts, text(params), "?")
            elif params is not None and params.type == "inferred_parameters":
                for p in params.named_children:
                    self.type_fact(ts, text(p), "?")

    # ------------------------------------------------------------------ pieces
    def _ref(self, ts, kind: str, name: str, recv: str | None, arity: int | None) -> None:
        self.ref(ts, kind, name, recv)
        if arity is not None:
            self.call_arity(ts, name, arity)

    def _call(self, ts) -> None:
        if ts.type == "explicit_constructor_invocation":
            ctor = ts.child_by_field_name("constructor")
            if ctor is not None and ctor.type in ("this", "super"):
                self._ref(ts, "calls", ctor.type, None, arg_count(ts.child_by_field_name("arguments")))
            return
        name_node = ts.child_by_field_name("name")
        if name_node is None:
            return
        name = text(name_node)
        arity = arg_count(ts.child_by_field_name("arguments"))
        obj = ts.child_by_field_name("object")
        if obj is None:
            self._ref(ts, "calls", name, None, arity)
            return
        recv = expr_chain(obj)
        if recv is None:
            self._ref(ts, "calls", f"<expr>.{name}", "<expr>", arity)
        elif "(" in recv:
            self._ref(ts, "calls", f"<expr>.{name}", recv, arity)
        else:
            self._ref(ts, "calls", f"{recv}.{name}", recv, arity)

    def _method_ref(self, ts) -> None:
        parts = [c for c in ts.children if c.is_named]
        if len(parts) < 2 or parts[-1].type != "identifier":
            return  # Foo::new and friends
        recv = expr_chain(parts[0]) if parts[0].type != "type_identifier" else text(parts[0])
        if recv is None and parts[0].type in TYPE_NODES:
            recv = type_text(parts[0])
        if recv:
            self._ref(ts, "references", f"{recv}.{text(parts[-1])}", recv, None)

    def _record_components(self, ts) -> None:
        params = ts.child_by_field_name("parameters")
        body = ts.child_by_field_name("body")
        if params is None or body is None:
            return
        for p in params.named_children:
            if p.type == "formal_parameter":
                typ = type_text(p.child_by_field_name("type"))
                name = p.child_by_field_name("name")
                if typ and name is not None:
                    self.type_fact(body, text(name), "T:" + typ)
                    self.type_fact(body, "this." + text(name), "T:" + typ)

    def _field(self, ts) -> None:
        parent = ts.parent
        if parent is None or parent.type not in ("class_body", "interface_body", "enum_body_declarations"):
            return
        if (
            parent.type == "class_body"
            and parent.parent is not None
            and parent.parent.type not in CLASS_KINDS
        ):
            return  # fields of anonymous classes and enum constant bodies are no symbols
        declarators = ts.children_by_field_name("declarator")
        typ = type_text(ts.child_by_field_name("type"))  # None for primitives and arrays
        for decl in declarators:
            name = decl.child_by_field_name("name")
            if name is None:
                continue
            self.add_def(ts, "field", name, span=ts if len(declarators) == 1 else decl)
            fact = "T:" + typ if typ and decl.child_by_field_name("dimensions") is None else "?"
            # facts of the class body: the class is their scope (fields are read by bare name)
            self.type_fact(parent, text(name), fact)
            self.type_fact(parent, "this." + text(name), fact)

    def _local(self, ts) -> None:
        t = ts.type
        if t == "local_variable_declaration":
            typ_node = ts.child_by_field_name("type")
            typ = type_text(typ_node)
            for decl in ts.children_by_field_name("declarator"):
                name = decl.child_by_field_name("name")
                if name is None:
                    continue
                if typ == "var":
                    value = decl.child_by_field_name("value")
                    chain = expr_chain(value) if value is not None else None
                    self.type_fact(ts, text(name), "E:" + chain if chain else "?")
                elif typ and decl.child_by_field_name("dimensions") is None:
                    self.type_fact(ts, text(name), "T:" + typ)
                else:
                    self.type_fact(ts, text(name), "?")
        elif t in ("formal_parameter", "catch_formal_parameter", "enhanced_for_statement", "resource"):
            name = ts.child_by_field_name("name")
            if t == "catch_formal_parameter":
                types = [c for c in ts.named_children if c.type == "catch_type"]
                alts = [c for c in types[0].named_children] if types else []
                typ = type_text(alts[0]) if len(alts) == 1 else None
            else:
                typ_node = ts.child_by_field_name("type")
                typ = type_text(typ_node)
                if ts.child_by_field_name("dimensions") is not None:
                    typ = None
            if name is not None and name.type == "identifier":
                if typ == "var" and t == "resource":
                    value = ts.child_by_field_name("value")
                    chain = expr_chain(value) if value is not None else None
                    self.type_fact(ts, text(name), "E:" + chain if chain else "?")
                else:
                    self.type_fact(ts, text(name), "T:" + typ if typ and typ != "var" else "?")
        elif t == "spread_parameter":
            for decl in ts.named_children:
                if decl.type == "variable_declarator":
                    name = decl.child_by_field_name("name")
                    if name is not None:
                        self.type_fact(ts, text(name), "?")  # an array
        elif t == "instanceof_expression":
            name = ts.child_by_field_name("name")
            typ = type_text(ts.child_by_field_name("right"))
            if name is not None and typ:
                self.type_fact(ts, text(name), "T:" + typ)

    def _import(self, ts) -> None:
        path_node = next(
            (c for c in ts.named_children if c.type in ("scoped_identifier", "identifier")), None
        )
        if path_node is None:
            return
        full = text(path_node).replace(" ", "")
        static = any(c.type == "static" for c in ts.children)
        star = any(c.type == "asterisk" for c in ts.children)
        prefix = "static " if static else ""
        nid = self.import_node(ts, full + (".*" if star else ""))
        if star:
            self.bind(ts, "*", prefix + full, "*", node=nid)
        elif "." in full:
            module, name = full.rsplit(".", 1)
            self.bind(ts, name, prefix + module, name, node=nid)

    # ------------------------------------------------------------------ node details
    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = doc_comment(ts)
        mods = next((c for c in ts.children if c.type == "modifiers"), None)
        if mods is not None:
            words = {c.type for c in mods.children}
            for v in ("public", "protected", "private"):
                if v in words:
                    node.visibility = v
            node.is_static = "static" in words
            node.is_abstract = "abstract" in words
            annotations = [
                squash(text(c)[1:], 120)
                for c in mods.named_children
                if c.type in ("marker_annotation", "annotation")
            ]
            node.decorators = annotations or None
        node.is_exported = node.visibility == "public"
        if node.kind in ("method", "function"):
            params = ts.child_by_field_name("parameters")
            if params is not None:
                node.signature = squash(text(params))
            elif ts.type == "compact_constructor_declaration":
                node.signature = None
            ret = ts.child_by_field_name("type")
            if ret is not None:
                node.return_type = squash(text(ret), 120)
            if ts.type == "method_declaration" and ts.child_by_field_name("body") is None:
                parent = ts.parent
                if (
                    parent is not None
                    and parent.type == "interface_body"
                    and "default" not in {c.type for c in (mods.children if mods is not None else ())}
                    and not node.is_static
                ):
                    node.is_abstract = True
        elif node.kind == "field":
            node.signature = squash(text(ts.child_by_field_name("type") or ts), 120)
        tp = ts.child_by_field_name("type_parameters")
        if tp is not None:
            node.type_parameters = [squash(text(c), 80) for c in tp.named_children]


class Java(JvmLanguage):
    label = "java"
    grammar = "java"
    extensions = (".java",)
    builtins = BUILTINS
    self_names = frozenset({"this"})
    super_names = frozenset({"super"})
    name = "Java"
    extracts = (
        "classes, interfaces, enums, records, annotation types, methods, constructors, fields, enum "
        "constants; calls, `new`, `this(…)`/`super(…)`, method references, extends/implements"
    )
    resolution = (
        "package + class name, single/wildcard/static imports, same-package types, members of enclosing "
        "classes and their bases, typed locals/fields/parameters and return types; overloads by argument count"
    )
    implicit_members = True
    constructors_named_like_type = True
    generated_suffixes = ("_.java",)  # JPA metamodel classes
    extractor = JavaExtractor

    def implicit_constructor(self, owner: Node, header: str, members: list[Node]) -> bool:
        """A record's canonical constructor is implicit (declaring another one keeps it)."""
        return _RECORD.search(header) is not None

    def is_test_file(self, path: str) -> bool:
        """``FooTest.java``, ``FooTests.java``, ``FooTestCase.java``, ``FooIT.java``, ``TestFoo.java``
        (the Maven Surefire/Failsafe patterns); ``src/test/`` is covered by the generic rule."""
        return bool(TEST_FILE.search(path.rsplit("/", 1)[-1]))

    def is_generated(self, path: str, head: str) -> bool:
        """Android's ``R.java`` / ``BuildConfig.java``, JPA ``Foo_.java``, or a generated banner."""
        name = path.rsplit("/", 1)[-1]
        return name in ("R.java", "BuildConfig.java", "Manifest.java") or super().is_generated(path, head)


LANGUAGES = (Java(),)
