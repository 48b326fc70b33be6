"""Kotlin: ``.kt`` and ``.kts``.

Packages and imports as in Java (``_jvm``), plus top-level functions and properties, ``import … as``
aliases, ``object`` declarations and companion objects (their members are reached through the
class name), and extension functions (``fun Shape.label()``, matched by the receiver's type). There
is no ``new``: a call to a capitalised name that resolves to a class is a constructor call
(``instantiates``). The grammar (fwcd) has almost no field names, so this module reads children by
type. Calls inside an ``apply {}`` / ``with(x) {}`` / ``x.run {}`` block have another implicit
receiver: their bare names are left unresolved rather than guessed.
"""

from __future__ import annotations

import re

from codegraph.index.extract import Def, Extractor, squash, text
from codegraph.index.languages._jvm import JvmLanguage, doc_comment
from codegraph.index.languages._shadow import ancestors, shadowed
from codegraph.model import Node

# Kotlin's default imports (kotlin.*, kotlin.collections.*, kotlin.io.*, …) that code calls by bare
# name; none binds to a project definition unless the project declares or imports one.
BUILTINS = frozenset(
    """
println print readLine readln listOf listOfNotNull mutableListOf arrayListOf emptyList setOf mutableSetOf
hashSetOf linkedSetOf emptySet mapOf mutableMapOf hashMapOf linkedMapOf emptyMap arrayOf arrayOfNulls
emptyArray intArrayOf longArrayOf doubleArrayOf floatArrayOf booleanArrayOf charArrayOf byteArrayOf
shortArrayOf sequenceOf emptySequence generateSequence buildList buildMap buildSet buildString lazy
lazyOf require requireNotNull check checkNotNull error TODO assert repeat run with apply also let
takeIf takeUnless maxOf minOf synchronized runCatching Pair Triple Result to until downTo step
Any Unit Nothing String Int Long Short Byte Double Float Boolean Char Array List Map Set MutableList
MutableMap MutableSet Collection Iterable Sequence Comparable Exception RuntimeException Error Throwable
IllegalArgumentException IllegalStateException UnsupportedOperationException NullPointerException
IndexOutOfBoundsException NoSuchElementException ClassCastException ArithmeticException
NumberFormatException ConcurrentModificationException Lazy Regex StringBuilder Suppress Deprecated
JvmStatic JvmField JvmOverloads JvmName Volatile Synchronized Throws ReplaceWith
""".split()
)
# Calls whose trailing lambda runs with another `this`.
RECEIVER_BLOCKS = frozenset({"apply", "with", "run", "buildString", "buildList", "buildMap", "buildSet"})
# Calls whose trailing lambda gets the receiver itself (`x.let { it }`) or each element of it.
SELF_PASSING = frozenset({"let", "also", "takeIf", "takeUnless"})
ELEMENT_PASSING = frozenset(
    {
        "forEach",
        "map",
        "mapNotNull",
        "filter",
        "filterNot",
        "any",
        "all",
        "none",
        "first",
        "firstOrNull",
        "find",
        "onEach",
        "flatMap",
        "sumOf",
        "count",
        "associateWith",
        "groupBy",
        "sortedBy",
    }
)
# what binds a name a call may mean (_shadow.shadowed): parameters, lambda and loop variables, locals
BINDERS = frozenset(
    {
        "function_value_parameters",
        "parameter",
        "lambda_parameters",
        "variable_declaration",
        "multi_variable_declaration",
        "property_declaration",
    }
)
IDENTS = frozenset({"simple_identifier"})
SCOPE_STOPS = frozenset({"class_body", "enum_class_body", "source_file"})
TYPE_CHILDREN = ("user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type")
TEST_FILE = re.compile(r"(Test|Tests|TestCase|IT)\.kts?$|^Test[A-Z].*\.kts?$")


def first(node, *types):
    for c in node.children:
        if c.type in types:
            return c
    return None


def type_text(node) -> str | None:
    """``Foo``, ``a.b.Foo``, ``List<Shape>`` (type arguments kept, ``?`` dropped) for a user type;
    None for function types and anything else."""
    if node is None:
        return None
    if node.type in ("nullable_type", "parenthesized_type", "non_nullable_type"):
        inner = first(node, "user_type", "nullable_type", "parenthesized_type")
        return type_text(inner)
    if node.type != "user_type":
        return None
    return re.sub(r"\s+", "", text(node)).rstrip("?") or None


def base_name(node) -> str | None:
    """A user type without its type arguments: ``B.C`` for ``B.C<T>``."""
    if node is None or node.type != "user_type":
        return None
    parts = [text(c) for c in node.children if c.type == "type_identifier"]
    return ".".join(parts) or None


def chain(node) -> str | None:
    """The receiver chain of a call as the resolver reads it (see ``java.expr_chain``)."""
    t = node.type
    if t in ("simple_identifier", "type_identifier"):
        return text(node)
    if t == "this_expression":
        label = first(node, "type_identifier")
        return f"this@{text(label)}" if label is not None else "this"
    if t == "super_expression":
        return "super"
    if t == "postfix_expression" and node.child_count == 2 and node.children[1].type == "!!":
        return chain(node.children[0])
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return chain(node.named_children[0])
    if t == "navigation_expression":
        head = chain(node.children[0])
        suffix = node.children[-1]
        name = first(suffix, "simple_identifier") if suffix.type == "navigation_suffix" else None
        if head is None or name is None or any(c.type == "::" for c in suffix.children):
            return None
        return f"{head}.{text(name)}"
    if t == "call_expression":
        callee = node.children[0]
        if callee.type not in ("simple_identifier", "navigation_expression"):
            return None
        head = chain(callee)
        return f"{head}()" if head else None
    return None


def arg_count(call) -> int | None:
    suffix = first(call, "call_suffix")
    if suffix is None:
        return None
    n = 0
    for c in suffix.children:
        if c.type == "value_arguments":
            n += sum(1 for a in c.children if a.type == "value_argument")
        elif c.type == "annotated_lambda":
            n += 1
    return n


def with_member_semis(source: bytes, tree) -> tuple[bytes, dict[int, list[int]]] | None:
    """``source`` with a ``;`` inserted before each ``}`` that follows code on its line (``class A {
    val a = 1 }``, ``fun f() { g() }}}}``), and where the inserted ``;`` sit (0-based row → columns in
    the rewritten text); None when there is no such ``}``.

    The grammar (fwcd, tree-sitter-language-pack 0.13.0) ends every class member with a semicolon or a
    newline, which Kotlin does not require before ``}``: a balanced file with several ``}`` on one line
    parsed with the outer class in an ERROR node and lost it (a bad-input finding). A ``;`` before a
    closing ``}`` is legal Kotlin wherever that ``}`` closes a block or body, so the extractor parses
    the rewritten text when the file has syntax errors and keeps it only if it then has none. The
    ``}`` are the brace tokens of the first tree (so none inside a string or comment), except those of
    a string template, where a ``;`` is not legal.
    """
    spots: list[int] = []
    stack = [tree.root_node]
    while stack:  # every "}" token; explicit stack: the tree may nest thousands deep
        n = stack.pop()
        if n.child_count:
            stack.extend(n.children)
        elif n.type == "}" and (n.parent is None or "string" not in n.parent.type):
            j = n.start_byte - 1
            while j >= 0 and source[j] in b" \t":
                j -= 1
            if j >= 0 and source[j] not in b"\n\r{;":
                spots.append(n.start_byte)
    if not spots:
        return None
    spots.sort()
    out = bytearray()
    where: dict[int, list[int]] = {}
    prev = row = 0
    for at in spots:
        row += source.count(b"\n", prev, at)
        out += source[prev:at]
        where.setdefault(row, []).append(len(out) - (out.rfind(b"\n") + 1))
        out += b";"
        prev = at
    out += source[prev:]
    return bytes(out), where


class KotlinExtractor(Extractor):
    def begin(self, root) -> None:
        self.class_defs: dict[tuple[int, int], Def] = {}
        self.shadow_memo: dict = {}  # _shadow.shadowed's, for this tree
        self.shadow_root = root  # _shadow.shadowed finds a call's ancestors from it
        self.file_facts: list[tuple[str, str]] = []
        header = first(root, "package_header")
        if header is not None:
            ident = first(header, "identifier")
            if ident is not None:
                self.out.package = re.sub(r"\s+", "", text(ident))

    def __init__(self, path: str, source: bytes, lang) -> None:
        super().__init__(path, source, lang)
        self.semis: dict[int, list[int]] = {}  # 0-based row → columns of inserted ``;`` (rewritten source)
        from codegraph.index.languages import parser_for

        parser = parser_for(lang.grammar)
        tree = parser.parse(source)
        rewritten = with_member_semis(source, tree) if tree.root_node.has_error else None
        if rewritten is not None:
            fixed = parser.parse(rewritten[0])
            if not fixed.root_node.has_error:
                self.source, self.tree, self.semis = rewritten[0], fixed, rewritten[1]
        if self.tree is None:
            self.tree = tree

    def run(self):
        out = super().run()
        out.assigned_types.extend((self.file_id, var, fact) for var, fact in self.file_facts)
        if self.semis:
            self._unshift(out)
        return out

    def _unshift(self, out) -> None:
        """Columns of the rewritten source (see :func:`with_member_semis`) back to the file's own: a
        column past an inserted ``;`` on its line moves left by one per such ``;``."""

        def col(line: int, c: int) -> int:
            return c - sum(1 for s in self.semis.get(line - 1, ()) if s < c)

        for n in out.nodes:
            n.start_column = col(n.start_line, n.start_column)
            n.end_column = col(n.end_line, n.end_column)
        for r in out.refs:
            r.col = col(r.line, r.col)
        for b in out.imports:
            b.col = col(b.line, b.col)

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.class":
            self._class(ts)
        elif capture == "definition.object":
            name = first(ts, "type_identifier")
            d = self.add_def(ts, "class", name, name="Companion" if name is None else None)
            if d is not None:
                self.class_defs[(ts.start_byte, ts.end_byte)] = d
        elif capture == "definition.function":
            self._function(ts)
        elif capture == "definition.constructor":
            cls = ts.parent.parent if ts.parent is not None else None
            name = first(cls, "type_identifier") if cls is not None else None
            if name is not None:
                self.add_def(ts, "function", name)
        elif capture == "definition.property":
            self._property(ts)
        elif capture == "definition.type_alias":
            self.add_def(ts, "type_alias", first(ts, "type_identifier"))
        elif capture == "definition.constant":
            self.add_def(ts, "enum_member", first(ts, "simple_identifier"))
        elif capture == "import":
            self._import(ts)
        elif capture == "reference.inheritance":
            self._base(ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.method_ref":
            self._callable_ref(ts)
        elif capture == "local":
            self._local(ts)
        elif capture == "lambda":
            self._lambda(ts)

    # ------------------------------------------------------------------ definitions
    def _class(self, ts) -> None:
        kind = "class"
        if first(ts, "interface") is not None:
            kind = "interface"
        mods = first(ts, "modifiers")
        if mods is not None and any(c.type == "class_modifier" and text(c) == "enum" for c in mods.children):
            kind = "enum"
        if first(ts, "enum") is not None:
            kind = "enum"
        name = first(ts, "type_identifier")
        d = self.add_def(ts, kind, name)
        if d is None:
            return
        self.class_defs[(ts.start_byte, ts.end_byte)] = d
        ctor = first(ts, "primary_constructor")
        if ctor is not None:
            for p in ctor.children:
                if p.type != "class_parameter":
                    continue
                pname = first(p, "simple_identifier")
                typ = type_text(first(p, *TYPE_CHILDREN))
                if pname is None:
                    continue
                fact = "T:" + typ if typ else "?"
                self.type_fact(name, text(pname), fact)
                self.type_fact(name, "this." + text(pname), fact)

    def _function(self, ts) -> None:
        d = self.add_def(ts, "function", first(ts, "simple_identifier"))
        if d is None:
            return
        body = first(ts, "function_body")
        anchor = body or first(ts, "function_value_parameters")
        receiver = first(ts, "receiver_type")
        if receiver is not None and anchor is not None:
            rec = type_text(first(receiver, *TYPE_CHILDREN)) or squash(text(receiver), 80)
            self.type_fact(anchor, "<receiver>", rec)
        holder = ts.parent.parent if ts.parent is not None else None
        if holder is not None and holder.type == "object_literal" and anchor is not None:
            spec = first(holder, "delegation_specifier")
            sup = (
                base_name(
                    first(spec, "user_type")
                    or first(first(spec, "constructor_invocation") or spec, "user_type")
                )
                if spec is not None
                else None
            )
            if sup:
                self.type_fact(anchor, "<anon>", sup)
        if body is not None and first(ts, *TYPE_CHILDREN) is None:
            expr = next((c for c in body.named_children), None)
            if expr is not None and expr.type != "statements":
                c = chain(expr)
                if c:
                    self.type_fact(body, "<return>", "E:" + c)

    def _property(self, ts) -> None:
        if ts.type == "class_parameter":
            if first(ts, "binding_pattern_kind") is not None:
                self.add_def(ts, "property", first(ts, "simple_identifier"))
            return
        var = first(ts, "variable_declaration")
        if var is None:
            return  # destructuring
        name = first(var, "simple_identifier")
        if name is None:
            return
        typ = type_text(first(var, *TYPE_CHILDREN))
        value = next(
            (
                c
                for c in ts.named_children
                if c.type
                not in (
                    "modifiers",
                    "binding_pattern_kind",
                    "variable_declaration",
                    "type_constraints",
                    "getter",
                    "setter",
                    "property_delegate",
                    "type_parameters",
                )
            ),
            None,
        )
        fact = "T:" + typ if typ else None
        if fact is None and value is not None:
            c = chain(value)
            fact = "E:" + c if c else "?"
        parent = ts.parent
        where = parent.type if parent is not None else ""
        if where in ("class_body", "enum_class_body"):
            holder = parent.parent
            if holder is not None and holder.type == "object_literal":
                return
            self.add_def(ts, "variable", name)
            if fact:
                self.type_fact(parent, text(name), fact)
                self.type_fact(parent, "this." + text(name), fact)
        elif where == "source_file":
            const = any(
                text(m) == "const"
                for m in (first(ts, "modifiers") or ts).children
                if m.type == "property_modifier"
            )
            self.add_def(ts, "constant" if const else "variable", name)
            if fact:
                self.file_facts.append((text(name), fact))
        else:
            self.type_fact(ts, text(name), fact or "?")

    def _base(self, ts) -> None:
        cls = ts.parent
        d = self.class_defs.get((cls.start_byte, cls.end_byte)) if cls is not None else None
        if d is None:
            return
        inv = first(ts, "constructor_invocation")
        if inv is not None:
            name = base_name(first(inv, "user_type"))
            if name:
                self.base_ref(d, "extends", name, inv)
            return
        node = first(ts, "user_type") or first(first(ts, "explicit_delegation") or ts, "user_type")
        name = base_name(node)
        if name:
            self.base_ref(d, "implements", name, node)

    def _lambda(self, ts) -> None:
        """Lambda parameters: typed ones by their declaration; the one parameter (or ``it``) of
        ``x.let {}`` / ``x.also {}`` is ``x``, of ``xs.forEach {}`` / ``xs.map {}``… an element of
        ``xs``; any other is unknown (and shadows a same-named variable around it)."""
        params = first(ts, "lambda_parameters")
        declared = (
            [v for v in params.children if v.type == "variable_declaration"] if params is not None else []
        )
        implied = self._implied_parameter(ts)
        if not declared:
            self.type_fact(ts, "it", implied or "?")
            return
        for v in declared:
            name = first(v, "simple_identifier")
            typ = type_text(first(v, *TYPE_CHILDREN))
            if name is not None:
                fact = "T:" + typ if typ else (implied if len(declared) == 1 else None)
                self.type_fact(ts, text(name), fact or "?")

    def _implied_parameter(self, ts) -> str | None:
        holder = ts.parent
        if holder is None or holder.type != "annotated_lambda":
            return None
        suffix = holder.parent
        call = suffix.parent if suffix is not None else None
        if call is None or call.type != "call_expression" or call.children[0].type != "navigation_expression":
            return None
        nav = call.children[0]
        ident = first(nav.children[-1], "simple_identifier")
        recv = chain(nav.children[0])
        if ident is None or recv is None:
            return None
        name = text(ident)
        if name in SELF_PASSING:
            return "E:" + recv
        if name in ELEMENT_PASSING and "." not in recv and "(" not in recv:
            return "I:" + recv
        return None

    # ------------------------------------------------------------------ references
    def _ref(self, ts, kind: str, name: str, recv: str | None, arity: int | None) -> None:
        self.ref(ts, kind, name, recv)
        if arity is not None:
            self.call_arity(ts, name, arity)

    def _call(self, ts) -> None:
        if ts.type == "constructor_delegation_call":
            which = "super" if first(ts, "super") is not None else "this"
            args = first(ts, "value_arguments")
            n = sum(1 for a in args.children if a.type == "value_argument") if args is not None else 0
            self._ref(ts, "calls", which, None, n)
            return
        callee = ts.children[0] if ts.child_count else None
        if callee is None:
            return
        arity = arg_count(ts)
        if callee.type == "simple_identifier":
            name = text(callee)
            if shadowed(
                ts,
                name,
                binders=BINDERS,
                idents=IDENTS,
                stop=SCOPE_STOPS,
                memo=self.shadow_memo,
                root=self.shadow_root,
            ):
                self.local_name(ts, name)  # fun draw(render: () -> Unit) { render() }
            self._ref(ts, "calls", name, "<scope>" if self._in_receiver_block(ts) else None, arity)
        elif callee.type == "navigation_expression":
            suffix = callee.children[-1]
            ident = first(suffix, "simple_identifier") if suffix.type == "navigation_suffix" else None
            if ident is None:
                return
            method = text(ident)
            recv = chain(callee.children[0])
            if recv is None:
                self._ref(ts, "calls", f"<expr>.{method}", "<expr>", arity)
            elif "(" in recv:
                self._ref(ts, "calls", f"<expr>.{method}", recv, arity)
            else:
                self._ref(ts, "calls", f"{recv}.{method}", recv, arity)

    def _in_receiver_block(self, ts) -> bool:
        """Is ``ts`` inside a lambda that runs with another ``this`` (``x.apply {}``, ``with(x) {}``)?"""
        # found from the root down: node.parent costs the node's depth (_shadow.ancestors)
        chain = ancestors(ts, self.shadow_root) if self.shadow_root is not None else None
        if chain is None:
            chain, up = [], ts.parent
            while up is not None:
                chain.append(up)
                up = up.parent
        for i, node in enumerate(chain):
            if node.type in ("function_declaration", "class_body", "source_file"):
                break
            if node.type == "annotated_lambda":
                call = chain[i + 2] if i + 2 < len(chain) else None
                if call is not None and call.type == "call_expression":
                    callee = call.children[0]
                    if callee.type == "simple_identifier" and text(callee) in (
                        "with",
                        "buildString",
                        "buildList",
                        "buildMap",
                        "buildSet",
                    ):
                        return True
                    if callee.type == "navigation_expression":
                        ident = first(callee.children[-1], "simple_identifier")
                        if ident is not None and text(ident) in RECEIVER_BLOCKS:
                            return True
        return False

    def _callable_ref(self, ts) -> None:
        ident = first(ts, "simple_identifier")
        if ident is None or text(ident) == "class":
            return
        head = ts.children[0] if ts.child_count else None
        if head is not None and head.type == "::":
            self._ref(ts, "references", text(ident), None, None)
        elif head is not None and head.type == "type_identifier":
            self._ref(ts, "references", f"{text(head)}.{text(ident)}", text(head), None)

    def _local(self, ts) -> None:
        if ts.type == "parameter":
            name = first(ts, "simple_identifier")
            typ = type_text(first(ts, *TYPE_CHILDREN))
            if name is not None:
                self.type_fact(ts, text(name), "T:" + typ if typ else "?")
        elif ts.type == "for_statement":
            var = first(ts, "variable_declaration")
            if var is None:
                for m in ts.children:
                    if m.type == "multi_variable_declaration":
                        for v in m.children:
                            n = first(v, "simple_identifier") if v.type == "variable_declaration" else None
                            if n is not None:
                                self.type_fact(ts, text(n), "?")
                return
            name = first(var, "simple_identifier")
            typ = type_text(first(var, *TYPE_CHILDREN))
            seen_in = False
            source = None
            for c in ts.children:
                if c.type == "in":
                    seen_in = True
                elif seen_in and c.is_named:
                    source = c
                    break
            if name is None:
                return
            if typ:
                self.type_fact(ts, text(name), "T:" + typ)
            elif source is not None and source.type == "simple_identifier":
                self.type_fact(ts, text(name), "I:" + text(source))
            else:
                self.type_fact(ts, text(name), "?")
        elif ts.type == "catch_block":
            name = first(ts, "simple_identifier")
            typ = type_text(first(ts, *TYPE_CHILDREN))
            if name is not None:
                self.type_fact(ts, text(name), "T:" + typ if typ else "?")

    def _import(self, ts) -> None:
        ident = first(ts, "identifier")
        if ident is None:
            return
        full = re.sub(r"\s+", "", text(ident))
        star = first(ts, "wildcard_import") is not None
        alias = first(ts, "import_alias")
        nid = self.import_node(ts, full + (".*" if star else ""))
        if star:
            self.bind(ts, "*", full, "*", node=nid)
        elif "." in full:
            module, name = full.rsplit(".", 1)
            local = text(first(alias, "type_identifier") or alias)[2:].strip() if alias is not None else name
            if alias is not None:
                local = (
                    text(first(alias, "type_identifier"))
                    if first(alias, "type_identifier") is not None
                    else local
                )
            self.bind(ts, local, module, name, node=nid)

    # ------------------------------------------------------------------ node details
    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = doc_comment(ts)
        mods = first(ts, "modifiers")
        words = set()
        if mods is not None:
            for c in mods.named_children:
                if c.type == "annotation":
                    node.decorators = (node.decorators or []) + [squash(text(c)[1:], 120)]
                else:
                    words.add(text(c))
        for v in ("public", "protected", "private", "internal"):
            if v in words:
                node.visibility = v
        node.is_abstract = "abstract" in words
        node.is_async = "suspend" in words
        node.is_exported = node.visibility in (None, "public")
        if ts.type == "class_declaration":
            ctor = first(ts, "primary_constructor")
            params = first(ctor, "class_parameters") if ctor is not None else None
            if ctor is not None:
                node.signature = squash(
                    text(params) if params is not None else "(" + text(ctor).split("(", 1)[-1]
                )
        elif ts.type == "object_declaration":
            node.signature = "object " + d.name
        elif ts.type == "companion_object":
            node.signature = "companion object" + ("" if d.name == "Companion" else " " + d.name)
        elif node.kind in ("function", "method"):
            params = first(ts, "function_value_parameters")
            if params is not None:
                node.signature = squash(text(params))
            ret = first(ts, *TYPE_CHILDREN)
            if ret is not None:
                node.return_type = squash(text(ret), 120)
            else:
                body = first(ts, "function_body")
                facts = None
                if body is not None:
                    expr = next((c for c in body.named_children), None)
                    facts = chain(expr) if expr is not None and expr.type == "call_expression" else None
                if facts and facts.endswith("()") and facts[:1].isupper() and "." not in facts:
                    node.return_type = facts[:-2]  # `fun unit() = Circle(1.0)` returns a Circle
        elif node.kind in ("property", "variable", "constant"):
            var = first(ts, "variable_declaration") or ts
            typ = first(var, *TYPE_CHILDREN)
            if typ is not None:
                node.signature = squash(text(typ), 120)
        tp = first(ts, "type_parameters")
        if tp is not None:
            node.type_parameters = [squash(text(c), 80) for c in tp.named_children]


class Kotlin(JvmLanguage):
    label = "kotlin"
    constructors_named_like_type = True  # secondary ones; the primary one is no node of its own
    unlisted_constructors = True
    grammar = "kotlin"
    name = "Kotlin"
    extracts = (
        "classes, interfaces, enums, objects and companions, functions (extension functions too), "
        "properties, secondary constructors; calls, constructor calls, callable references, supertypes"
    )
    resolution = (
        "package + name, single/wildcard/aliased imports, same-package declarations, members of enclosing "
        "classes and their bases, typed properties/parameters/locals and return types, extension "
        "receivers; overloads by argument count"
    )
    extensions = (".kt", ".kts")
    builtins = BUILTINS
    self_names = frozenset({"this"})
    super_names = frozenset({"super"})
    implicit_members = True
    constructor_calls_bare = True
    extractor = KotlinExtractor

    def is_test_file(self, path: str) -> bool:
        """``FooTest.kt``, ``FooTests.kt``, ``TestFoo.kt`` (``src/test/``, ``src/androidTest/``
        directories: the generic ``test/`` rule and this one)."""
        return bool(TEST_FILE.search(path.rsplit("/", 1)[-1])) or "/androidTest/" in "/" + path


LANGUAGES = (Kotlin(),)
