"""Ruby: ``.rb`` (and ``.rake``, ``.gemspec``, rackup ``.ru``).

Ruby has no import that binds a name: ``require`` / ``require_relative`` only load files (they give
file-level ``imports`` edges: relative to the file, or through the project's ``lib/`` load path), and
constants are looked up the way Ruby does — the lexical nesting of ``module``/``class`` from the
inside out, then the ancestors of the innermost one, then the top level. Classes and modules may be
reopened in many files; a qualified name (``Rack::Utils``) stands for all of them.

Calls: a bare identifier is a method call unless a local variable of that name was assigned (or is a
parameter) earlier in the same ``def`` (Ruby's parser decides the same way). Bare calls and ``self.``
calls go to the enclosing class's methods (instance methods in ``def x``, singleton methods in
``def self.x`` / ``class << self``) through its ancestors: prepended and included modules, then the
superclass chain; ``extend`` adds a module's methods to the singleton side. ``Foo.new`` instantiates
``Foo``; ``Foo.bar`` calls a singleton method; a local or instance variable assigned ``Foo.new`` (or
the result of a method whose return is known) calls Foo's instance methods. Inside a module, a bare
call the module itself does not define belongs to whichever class includes it: no edge.
``Jobs::REGISTRY`` is what the module Jobs assigns the constant (``REGISTRY = Registry.new``);
``alias new old`` / ``alias_method :new, :old`` make ``new`` reach what ``old`` means from that class
up; ``method(:show)`` is a ``references`` edge to what a call ``show`` there would reach (issue 11).
Docs are the ``#`` comment lines right above a definition.
"""

from __future__ import annotations

from collections import defaultdict

from codegraph.index.encoding import pep263_encoding
from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import METHOD_CONTAINERS, LanguageModule, relative_file
from codegraph.model import Node

# Kernel / Object / Module methods and core constants: they never bind to project definitions
# unless the class chain (or the lexical scope, for constants) defines them.
BUILTINS = frozenset(
    """
puts print p pp require require_relative load autoload raise fail format sprintf printf lambda proc loop
rand srand sleep block_given? catch throw binding caller exit exit! abort at_exit gets open system warn
freeze frozen? send public_send __send__ respond_to? is_a? kind_of? instance_of? instance_variable_get
instance_variable_set instance_variable_defined? instance_variables method methods define_method
attr_reader attr_writer attr_accessor private protected public module_function include extend prepend
alias_method tap then yield_self dup clone nil? class hash inspect to_s object_id Integer Float String
Array Hash Rational Complex __method__ __dir__ define_singleton_method singleton_class instance_eval
instance_exec class_eval module_eval extend_object private_constant private_class_method
public_class_method attr include? const_get const_set const_defined? remove_const remove_method
undef_method trap spawn fork exec select sprintf putc readline readlines eval iterator? local_variables
global_variables caller_locations
Object BasicObject Module Class Kernel Comparable Enumerable Enumerator String Symbol Array Hash Integer
Float Numeric Rational Complex Range Regexp MatchData Proc Method UnboundMethod NilClass TrueClass
FalseClass Struct Time Math Process File Dir IO Thread Mutex Queue Fiber ObjectSpace GC Signal Marshal
Encoding Exception StandardError RuntimeError ArgumentError TypeError NameError NoMethodError KeyError
IndexError RangeError StopIteration IOError EOFError SystemExit Interrupt NotImplementedError
ScriptError LoadError FrozenError ZeroDivisionError FloatDomainError SecurityError Errno ENV ARGV
STDIN STDOUT STDERR RUBY_VERSION RUBY_PLATFORM Set JSON YAML URI Pathname Tempfile StringIO Date
DateTime Zlib Digest SecureRandom Base64 CGI Logger Timeout Socket OpenSSL Forwardable Singleton
Monitor MonitorMixin Benchmark ERB Shellwords FileUtils OptionParser Open3 Etc Ripper Coverage
""".split()
)
DECLARATIVE = frozenset(
    """
require require_relative load autoload include extend prepend attr_reader attr_writer attr_accessor attr
private protected public module_function private_constant private_class_method public_class_method
alias_method using
""".split()
)
ATTRIBUTES = frozenset({"attr_reader", "attr_writer", "attr_accessor"})
LOADS = frozenset({"require", "require_relative", "load", "autoload"})
MIXINS = frozenset({"include", "extend", "prepend"})
TYPE_KINDS = frozenset({"class", "module"})
CLASS_FACTORIES = frozenset({"Struct.new", "Class.new", "Data.define"})
PARAMETER_HOLDERS = frozenset(
    {"method_parameters", "block_parameters", "lambda_parameters", "destructured_parameter", "parameters"}
)


class _Locals:
    """Ruby's own rule for a bare identifier: a local variable once assigned (or a parameter) earlier
    in the same scope, otherwise a method call. Scopes: ``def`` / ``class`` / ``module`` start afresh;
    blocks and lambdas see the enclosing locals and add their own."""

    def __init__(self, src_text):
        self.text = src_text
        self.calls: set[int] = set()  # start bytes of identifiers that are calls
        self.call_nodes: list = []  # those identifiers

    def walk(self, node, scope: set[str]) -> None:
        stack = [(node, scope)]
        while stack:
            n, sc = stack.pop()
            t = n.type
            if t in ("method", "singleton_method"):
                inner: set[str] = set()
                params = n.child_by_field_name("parameters")
                if params is not None:
                    self.declare(params, inner)
                body = n.child_by_field_name("body")
                if body is not None:
                    stack.append((body, inner))
                continue
            if t in ("class", "module", "singleton_class"):
                for field in ("superclass", "value"):
                    c = n.child_by_field_name(field)
                    if c is not None:
                        stack.append((c, sc))
                body = n.child_by_field_name("body")
                if body is not None:
                    stack.append((body, set()))
                continue
            if t in ("block", "do_block", "lambda"):
                inner = set(sc)
                params = n.child_by_field_name("parameters")
                if params is not None:
                    self.declare(params, inner)
                for c in reversed(n.named_children):
                    if c != params:
                        stack.append((c, inner))
                continue
            if t in ("assignment", "operator_assignment"):
                left = n.child_by_field_name("left")
                right = n.child_by_field_name("right")
                # the right side runs first, but the parser has already seen the name on the left
                if left is not None:
                    self.declare_targets(left, sc)
                    if left.type not in ("identifier", "left_assignment_list"):
                        stack.append((left, sc))
                if right is not None:
                    stack.append((right, sc))
                continue
            if t == "exception_variable" or t == "for":
                target = n.child_by_field_name("pattern") if t == "for" else n
                if target is not None:
                    self.declare_targets(target, sc)
                if t == "for":
                    for field in ("value", "body"):
                        c = n.child_by_field_name(field)
                        if c is not None:
                            stack.append((c, sc))
                continue
            if t == "call":
                for field in ("receiver", "arguments", "block"):
                    c = n.child_by_field_name(field)
                    if c is not None:
                        stack.append((c, sc))
                continue
            if t in ("alias", "undef") or t in PARAMETER_HOLDERS:
                continue
            if t == "identifier":
                if self.text(n) not in sc:
                    self.calls.add(n.start_byte)
                    self.call_nodes.append(n)
                continue
            for c in reversed(n.named_children):
                stack.append((c, sc))

    def declare(self, params, scope: set[str]) -> None:
        for c in params.named_children:
            if c.type == "identifier":
                scope.add(self.text(c))
            elif c.type == "destructured_parameter":
                self.declare(c, scope)
            else:
                name = c.child_by_field_name("name")
                if name is not None and name.type == "identifier":
                    scope.add(self.text(name))

    def declare_targets(self, node, scope: set[str]) -> None:
        if node.type == "identifier":
            scope.add(self.text(node))
        elif node.type in (
            "left_assignment_list",
            "destructured_left_assignment",
            "rest_assignment",
            "exception_variable",
        ):
            for c in node.named_children:
                self.declare_targets(c, scope)


class RubyExtractor(Extractor):
    def begin(self, root) -> None:
        self.locals = _Locals(text)
        self.locals.walk(root, set())
        self.static_starts: set[int] = set()
        self.module_functions: set[int] = set()
        self.attribute_defs: dict[tuple[int, str], str] = {}
        self._sections: dict[int, dict[int, str]] = {}  # _visibility's memo for this tree

    def captures(self, found: dict[str, list]) -> dict[str, list]:
        """The query's captures, the bare identifiers the walk found to be calls (querying
        every identifier instead meant 44,000 of ruby-activerecord's 76,000 captures, for 3,200),
        and the loads and mixins among the calls."""
        if self.locals.call_nodes:
            found["reference.identifier"] = self.locals.call_nodes
        # loads and mixins are the calls whose method is one of those names: picked from the calls
        # here, where a ``#match?`` predicate per pattern was half of the query's time (0.06 of
        # 0.12 s on ruby-activerecord)
        loads, mixins = [], []
        for call in found.get("reference.call", ()):
            method = call.child_by_field_name("method")
            if method is not None and method.type == "identifier":
                name = text(method)
                if name in LOADS:
                    loads.append(call)
                elif name in MIXINS:
                    mixins.append(call)
        if loads:
            found["import"] = loads
        if mixins:
            found["reference.mixin"] = mixins
        return found

    # ---------------------------------------------------------------- expressions
    def expr(self, node) -> str | None:
        """A receiver in the resolver's notation: ``Foo::Bar``, ``self``, ``x`` (a local), ``@x``,
        ``helper()`` (a bare call), ``a.b()`` (a call's result); None when we do not follow it."""
        t = node.type
        if t in ("constant", "scope_resolution"):
            return text(node)
        if t == "self":
            return "self"
        if t == "identifier":
            return text(node) + ("()" if node.start_byte in self.locals.calls else "")
        if t == "instance_variable":
            return text(node)
        if t == "call":
            callee = self.callee(node)
            return callee + "()" if callee else None
        if t == "parenthesized_statements" and node.named_child_count == 1:
            return self.expr(node.named_children[0])
        return None

    def callee(self, node) -> str | None:
        method = node.child_by_field_name("method")
        if method is None:
            return None
        name = "super" if method.type == "super" else text(method)
        recv_node = node.child_by_field_name("receiver")
        if recv_node is None:
            return name
        recv = self.expr(recv_node)
        return f"{recv or '<expr>'}.{name}"

    # ---------------------------------------------------------------- captures
    def handle(self, capture: str, ts) -> None:
        if capture in ("definition.module", "definition.class"):
            self._type(ts, capture.split(".", 1)[1])
        elif capture == "definition.singleton_class":
            pass
        elif capture in ("definition.method", "definition.singleton_method"):
            self._method(ts, capture == "definition.singleton_method")
        elif capture == "definition.constant":
            self._constant(ts)
        elif capture == "import":
            self._load(ts)
        elif capture == "reference.mixin":
            self._mixin(ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.identifier":  # a bare identifier the walk found to be a call
            name = text(ts)
            if name == "module_function":
                self._module_function(ts)
            elif name not in DECLARATIVE:
                self.ref(ts, "calls", name, None)
        elif capture == "reference.super":
            parent = ts.parent
            if parent is None or parent.type != "call":
                self.ref(ts, "calls", "super", None)
        elif capture == "reference.alias":  # after the definitions (captures run sorted)
            new, old = ts.child_by_field_name("name"), ts.child_by_field_name("alias")
            if new is not None and old is not None:
                self._alias(ts, text(new).lstrip(":"), text(old).lstrip(":"))
        elif capture == "assign":
            self._assign(ts)
        elif capture == "return":
            value = ts.named_children[0] if ts.named_child_count else None
            if value is not None and value.type == "argument_list" and value.named_child_count == 1:
                value = value.named_children[0]
            self.returns_fact(ts, (self._value(value) if value is not None else None) or "unknown")

    def _type(self, ts, kind: str) -> None:
        name = ts.child_by_field_name("name")
        if name is None:
            return
        qualifier = None
        if name.type == "scope_resolution":
            full = text(name).lstrip(":")
            qualifier, _, simple = full.rpartition("::")
        else:
            simple = text(name)
        nested = any(d.start <= ts.start_byte < d.end and d.kind in TYPE_KINDS for d in self.defs)
        if qualifier and nested:  # `module A; class B::C` — keep the path in the name
            simple, qualifier = f"{qualifier}::{simple}", None
        d = self.add_def(ts, kind, None, name=simple)
        if d is None:
            return
        d.qualifier = qualifier or None
        sup = ts.child_by_field_name("superclass")
        if sup is not None and sup.named_child_count:
            base = sup.named_children[0]
            if base.type in ("constant", "scope_resolution"):
                self.base_ref(d, "extends", text(base), base)

    def _method(self, ts, singleton: bool) -> None:
        name = ts.child_by_field_name("name")
        if name is None:
            return
        if singleton:
            obj = ts.child_by_field_name("object")
            if obj is None or obj.type != "self":
                return  # `def obj.x`: a method of one object, not of a type we know
        d = self.add_def(ts, "function", name)
        if d is None:
            return
        p = ts.parent
        while p is not None and p.type not in ("class", "module", "program"):
            if p.type == "singleton_class":
                singleton = True
                break
            p = p.parent
        if singleton:
            self.static_starts.add(d.start)
        body = ts.child_by_field_name("body")
        last = _last_expression(body)
        if last is not None:
            self.returns_fact(body, self._value(last) or "unknown")

    def _module_function(self, ts) -> None:
        """Bare ``module_function``: the module's later ``def``s are module functions too."""
        body = ts.parent
        seen = False
        for c in body.named_children if body is not None else ():
            if c == ts:
                seen = True
            elif seen:
                stack = [c]
                while stack:  # defs under `if`/`unless` at module level count too
                    n = stack.pop()
                    if n.type == "method":
                        self.module_functions.add(n.start_byte)
                    elif n.type not in ("class", "module", "singleton_class", "singleton_method"):
                        stack.extend(n.named_children)

    def _constant(self, ts) -> None:
        parent = ts.parent
        if parent is None or parent.type not in ("program", "body_statement"):
            return
        if parent.type == "body_statement" and (
            parent.parent is None or parent.parent.type not in TYPE_KINDS
        ):
            return
        left = ts.child_by_field_name("left")
        right = ts.child_by_field_name("right")
        if left is None:
            return
        if right is not None and right.type == "call":
            callee = self.callee(right)
            if callee in CLASS_FACTORIES:  # `Point = Struct.new(:x, :y) do … end` is a class
                self.add_def(ts, "class", left)
                return
        self.add_def(ts, "constant", left)
        value = self._value(right)
        if value is not None:  # `PRELOADER = Preloader.new(...)`: the constant holds a Preloader
            self.type_fact(ts, f"self.<const>{text(left)}", value)

    def _load(self, ts) -> None:
        if ts.child_by_field_name("receiver") is not None:
            return
        method = text(ts.child_by_field_name("method"))
        args = ts.child_by_field_name("arguments")
        strings = [c for c in args.named_children if c.type == "string"] if args is not None else []
        if not strings:
            return
        lit = _string(strings[-1] if method == "autoload" else strings[0])
        if not lit:
            return
        if method == "require_relative" and not lit.startswith("."):
            lit = "./" + lit
        self.bind(ts, "", lit, "")

    def _container_def(self, ts) -> Def | None:
        best = None
        for d in self.defs:
            if d.kind in TYPE_KINDS and d.start <= ts.start_byte < d.end:
                if best is None or d.start >= best.start:
                    best = d
        return best

    def _mixin(self, ts) -> None:
        recv = ts.child_by_field_name("receiver")
        if recv is not None and recv.type != "self":
            return
        args = ts.child_by_field_name("arguments")
        d = self._container_def(ts)
        if args is None or d is None:
            return
        method = text(ts.child_by_field_name("method"))
        for a in args.named_children:
            if a.type in ("constant", "scope_resolution"):
                self.base_ref(d, "implements", text(a), a)
                self.type_fact(ts, f"<{method}>", text(a))
            elif a.type == "self" and method == "extend":
                self.type_fact(ts, "<extend>", "self")

    def _call(self, ts) -> None:
        method = ts.child_by_field_name("method")
        if method is None:
            return
        if (
            ts.child_by_field_name("receiver") is None
            and method.type == "identifier"
            and text(method) in DECLARATIVE
        ):
            if text(method) in ATTRIBUTES:
                self._attributes(ts, text(method))
            elif text(method) == "alias_method":
                args = ts.child_by_field_name("arguments")
                pair = [_symbol(a) for a in args.named_children] if args is not None else []
                if len(pair) == 2 and pair[0] and pair[1]:
                    self._alias(ts, pair[0], pair[1])
            elif text(method) == "module_function":
                args = ts.child_by_field_name("arguments")
                names = {text(a).lstrip(":") for a in args.named_children} if args is not None else set()
                body = ts.parent
                for c in body.named_children if body is not None else ():
                    if c.type == "method" and c.child_by_field_name("name") is not None:
                        if text(c.child_by_field_name("name")) in names:
                            self.module_functions.add(c.start_byte)
            return
        callee = self.callee(ts)
        if callee is not None:
            self.call_ref(ts, callee)
        if callee in ("method", "self.method"):  # `method(:show)`: the Method object of show
            args = ts.child_by_field_name("arguments")
            symbols = [_symbol(a) for a in args.named_children] if args is not None else []
            if len(symbols) == 1 and symbols[0]:
                recv = "self" if callee == "self.method" else None
                self.ref(ts, "references", f"self.{symbols[0]}" if recv else symbols[0], recv)

    def _alias(self, ts, new: str, old: str) -> None:
        """``alias new old`` / ``alias_method :new, :old`` in a class body: ``new`` calls what
        ``old`` means there (a fact of the class; ``<salias>`` inside ``class << self``)."""
        if self._container_def(ts) is None or new == old:
            return
        singleton = any(p.type == "singleton_class" for p in _ancestors(ts, stop=("class", "module")))
        self.type_fact(ts, f"<{'s' if singleton else ''}alias>{new}", old)

    def _attributes(self, ts, kind: str) -> None:
        """``attr_reader :x`` defines method ``x`` (``attr_writer`` ``x=``; ``attr_accessor`` both)."""
        if self._container_def(ts) is None:
            return
        args = ts.child_by_field_name("arguments")
        singleton = any(p.type == "singleton_class" for p in _ancestors(ts, stop=("class", "module")))
        for a in args.named_children if args is not None else ():
            if a.type != "simple_symbol":
                continue
            name = text(a)[1:]
            names = (
                [name]
                if kind == "attr_reader"
                else [f"{name}="]
                if kind == "attr_writer"
                else [name, f"{name}="]
            )
            for n in names:
                d = self.add_def(a, "function", None, name=n)
                if d is not None:
                    self.attribute_defs[d.start, n] = kind
                    if singleton:
                        self.static_starts.add(d.start)

    def _value(self, node) -> str | None:
        """An assigned or returned value as a type expression (``Foo.new()``, ``self``, ``@x``…)."""
        if node is None:
            return None
        if (
            node.type == "binary"
            and node.named_child_count == 2
            and any(c.type == "||" for c in node.children)
        ):
            return self._value(node.child_by_field_name("right"))  # `x = given || Default.new`
        if node.type in ("call", "self", "constant", "scope_resolution", "instance_variable", "identifier"):
            value = self.expr(node)
            if value is not None and node.type in ("constant", "scope_resolution"):
                return None  # a class object itself, not an instance
            return value
        if node.type in ("operator_assignment", "assignment"):
            return self._value(node.child_by_field_name("right"))
        if node.type == "parenthesized_statements" and node.named_child_count == 1:
            return self._value(node.named_children[0])
        return None

    def _assign(self, ts) -> None:
        left = ts.child_by_field_name("left")
        right = ts.child_by_field_name("right")
        if left is None or right is None:
            return
        if left.type == "identifier":
            var = text(left)
        elif left.type == "instance_variable":
            var = "self." + text(left)
        else:
            return
        value = self._value(right)
        if value is None or value == var:
            return
        if var.startswith("self."):
            self.type_fact(ts, var, value)
        else:  # a local: remember the line, so a use sees only the assignments above it
            self.type_fact(ts, var, f"@{ts.start_point[0] + 1}:{value}")

    # ---------------------------------------------------------------- node details
    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = _comment_doc(ts)
        if (d.start, d.name) in self.attribute_defs:
            node.signature = f"{self.attribute_defs[d.start, d.name]} :{d.name.rstrip('=')}"
            node.is_static = d.start in self.static_starts
            node.visibility = "public"
            return
        if node.kind in ("method", "function"):
            params = ts.child_by_field_name("parameters")
            node.signature = squash(text(params)) if params is not None else "()"
            if not node.signature.startswith("("):
                node.signature = f"({node.signature})"
            if d.start in self.static_starts:
                node.is_static = True
            if ts.start_byte in self.module_functions:
                node.is_static = True
                node.decorators = ["module_function"]
            node.visibility = _visibility(ts, self._sections)
        elif node.kind in ("class", "module"):
            node.is_exported = True
            sup = ts.child_by_field_name("superclass")
            if sup is not None:
                node.signature = squash(text(sup), 120)


def _ancestors(node, stop: tuple[str, ...]):
    p = node.parent
    while p is not None and p.type not in stop:
        yield p
        p = p.parent


def _last_expression(body):
    if body is None:
        return None
    if body.type != "body_statement":
        return body  # endless method: `def x = expr`
    kids = [c for c in body.named_children if c.type not in ("comment", "rescue", "ensure", "else")]
    return kids[-1] if kids else None


def _symbol(node) -> str | None:
    """The name a ``:sym`` or a plain ``"str"`` literal spells, else None."""
    if node.type == "simple_symbol":
        return text(node)[1:]
    return _string(node) if node.type == "string" else None


def _string(node) -> str | None:
    parts = node.named_children
    if len(parts) == 1 and parts[0].type == "string_content":
        return text(parts[0])
    return None


def _visibility(ts, sections: dict[int, dict[int, str]]) -> str:
    """``private`` / ``protected`` sections before a ``def`` in its class body, or ``private def``.
    ``sections`` memoises, per body node id, each child's section for one syntax tree."""
    if ts.parent is not None and ts.parent.type == "argument_list":
        call = ts.parent.parent
        m = call.child_by_field_name("method") if call is not None else None
        if m is not None and text(m) in ("private", "protected", "public"):
            return text(m)
    parent = ts.parent
    if parent is None:
        return "public"
    # one forward pass over the class body gives every definition in it the last section keyword
    # before it (walking back through previous siblings for each ``def`` was quadratic: 0.6 ms a
    # method on ActiveRecord, issue 12)
    table = sections.get(parent.id)
    if table is None:
        table = sections[parent.id] = {}
        vis = "public"
        for child in parent.named_children:
            table[child.id] = vis
            if child.type == "identifier" and text(child) in ("private", "protected", "public"):
                vis = text(child)
    return table.get(ts.id, "public")


def _comment_doc(ts) -> str | None:
    lines = []
    prev = ts.prev_sibling
    if prev is None and ts.parent is not None and ts.parent.type == "body_statement":
        prev = ts.parent.prev_sibling  # comments before a body's first statement sit outside it
    row = ts.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] >= row - 1:
        raw = text(prev)
        if raw.startswith("=begin"):
            break
        lines.append(raw.lstrip("#").strip())
        row = prev.start_point[0]
        prev = prev.prev_sibling
    lines = [
        line for line in reversed(lines) if line and not line.startswith(("frozen_string_literal", ":nodoc:"))
    ]
    return squash(" ".join(lines), MAX_DOCSTRING) or None


class _Index:
    """Per-project Ruby tables: every class/module by qualified name (a reopened class has several
    nodes), superclasses, mixins, and memo tables."""

    def __init__(self):
        self.types: dict[str, list[Node]] = defaultdict(list)  # qualified name -> class/module nodes
        self.functions: dict[str, list[Node]] = defaultdict(list)  # top-level defs by name
        self.super_ref: dict[str, list[tuple[str, str]]] = defaultdict(list)  # qname -> [(node id, written)]
        self.mixins: dict[str, list[tuple[str, str, str]]] = defaultdict(
            list
        )  # qname -> [(kind, node id, written)]
        self.const_memo: dict[tuple[str, tuple[str, ...]], str | None] = {}
        self.super_memo: dict[str, str | None] = {}
        self.returns_memo: dict[tuple[str, str | None, bool], tuple[Node, bool] | None] = {}
        self.ancestors_memo: dict[str, list[str]] = {}
        # (qname, constant) -> {(class/module node id, assigned value)}: _constant_value's facts
        self.const_facts: dict[tuple[str, str], frozenset[tuple[str, str]]] = {}
        # (qname, singleton side) -> {alias: aliased name}
        self.aliases: dict[tuple[str, bool], dict[str, str]] = defaultdict(dict)
        self.files: set[str] = set()
        self.lib_paths: dict[str, list[str]] = defaultdict(list)  # "rack/utils" -> files


class Ruby(LanguageModule):
    label = "ruby"
    constructor_names = ("initialize",)
    reopened_types = True
    instance_factories = frozenset({"new"})  # a ``def self.new`` of the class's own
    line_comment = "#"
    name = "Ruby"
    grammar = "ruby"
    extracts = (
        "classes, modules (reopened across files), methods, singleton methods, constants, requires, mixins"
    )
    resolution = (
        "constant lookup through the module nesting, self/implicit receivers, Foo.new, include/extend"
    )
    extensions = (".rb", ".rake", ".gemspec", ".ru")
    builtins = BUILTINS
    self_names = frozenset({"self"})
    super_names = frozenset({"super"})
    method_containers = METHOD_CONTAINERS | {"module"}
    unique_fallback = False
    test_suffixes = ("_test.rb", "_spec.rb")
    test_prefixes = ("test_",)
    extractor = RubyExtractor
    resolves_by_position = True  # call_target reads ref.line

    def declared_encoding(self, data: bytes) -> str | None:
        """A magic comment on line 1 (or 2, after a shebang): ``# encoding: latin-1``, ``# -*- coding: … -*-``
        — the same form as Python's PEP 263 cookie (adversarial pass 2026-12-01: ``def café`` was ``caf``)."""
        return pep263_encoding(data)

    def is_test_file(self, path: str) -> bool:
        return super().is_test_file(path) or "/spec/" in "/" + path.lower()

    # ------------------------------------------------------------ tables
    def prepare(self, project, files) -> None:
        idx = _Index()
        for f in files:
            idx.files.add(f.path)
            stem = f.path[:-3] if f.path.endswith(".rb") else None
            if stem is not None:
                idx.lib_paths[stem].append(f.path)
                parts = stem.split("/")
                for i, part in enumerate(parts[:-1]):
                    if part == "lib":
                        idx.lib_paths["/".join(parts[i + 1 :])].append(f.path)
            file_id = f"file:{f.path}"
            for n in f.nodes:
                if n.kind in TYPE_KINDS:
                    idx.types[n.qualified_name].append(n)
                elif n.kind == "function" and project.parent.get(n.id) == file_id:
                    idx.functions[n.name].append(n)
            for ref in f.refs:
                if ref.kind == "extends":
                    qn = project.nodes[ref.source].qualified_name
                    idx.super_ref[qn].append((ref.source, ref.name))
            for scope, var, value in f.assigned_types:
                if var in ("<include>", "<extend>", "<prepend>") and scope in project.nodes:
                    qn = project.nodes[scope].qualified_name
                    idx.mixins[qn].append((var[1:-1], scope, value))
                elif (
                    var.startswith(("<alias>", "<salias>"))
                    and scope in project.nodes
                    and project.nodes[scope].kind in TYPE_KINDS
                ):
                    side, _, new = var[1:].partition(">")
                    idx.aliases[project.nodes[scope].qualified_name, side == "salias"][new] = value
        project.lang_state["ruby"] = idx

    def resolve_module(self, project, from_path: str, spec: str):
        idx: _Index = project.lang_state["ruby"]
        spec = spec[:-3] if spec.endswith(".rb") else spec
        if spec.startswith("."):
            cand = relative_file(from_path, spec) + ".rb"
            return cand if cand in project.files else None
        hits = idx.lib_paths.get(spec, ())
        return hits[0] if len(hits) == 1 else None

    # ------------------------------------------------------------ constants
    def crefs(self, project, source_id: str, *, include_self: bool = True) -> list[str]:
        """The lexical nesting of ``source_id``, innermost first, as qualified names."""
        out = []
        for n in project.scopes(source_id):
            if n.kind in TYPE_KINDS and (include_self or n.id != source_id):
                out.append(n.qualified_name)
        return out

    def resolve_const(self, project, path_text: str, crefs: list[str], depth: int = 0) -> str | None:
        """The qualified name a constant path means from the lexical nesting ``crefs``, or None."""
        idx: _Index = project.lang_state["ruby"]
        key = (path_text, tuple(crefs))
        if key in idx.const_memo:
            return idx.const_memo[key]
        idx.const_memo[key] = None
        found = None
        if path_text.startswith("::"):
            found = path_text[2:] if path_text[2:] in idx.types else None
        else:
            head, _, rest = path_text.partition("::")
            base = None
            for c in crefs:
                if f"{c}::{head}" in idx.types:
                    base = f"{c}::{head}"
                    break
            if base is None and crefs and depth < 4:
                for anc in self.ancestors(project, crefs[0], depth + 1)[1:]:
                    if f"{anc}::{head}" in idx.types:
                        base = f"{anc}::{head}"
                        break
            if base is None and head in idx.types:
                base = head
            if base is not None:
                full = f"{base}::{rest}" if rest else base
                found = full if full in idx.types else None
        idx.const_memo[key] = found
        return found

    def representative(self, project, qname: str) -> Node | None:
        """The node an edge to a (possibly reopened) class or module points at: the definition in
        the file named after it (``Rack::Utils`` → ``…/rack/utils.rb``), else the one with a
        superclass, else the first."""
        idx: _Index = project.lang_state["ruby"]
        nodes = idx.types.get(qname)
        if not nodes:
            return None
        if len(nodes) == 1:
            return nodes[0]
        snake = "/".join(_snake(p) for p in qname.split("::")) + ".rb"
        for n in nodes:
            if n.file_path.endswith(snake):
                return n
        with_super = [n for n in nodes if n.signature]
        return (with_super or sorted(nodes, key=lambda n: (n.file_path, n.start_line)))[0]

    def superclass(self, project, qname: str, depth: int = 0) -> str | None:
        idx: _Index = project.lang_state["ruby"]
        if qname in idx.super_memo:
            return idx.super_memo[qname]
        idx.super_memo[qname] = None
        found = None
        for node_id, written in idx.super_ref.get(qname, ()):
            found = self.resolve_const(
                project, written, self.crefs(project, node_id, include_self=False), depth + 1
            )
            if found is not None:
                break
        idx.super_memo[qname] = found
        return found

    def mixins(self, project, qname: str, kind: str, depth: int = 0) -> list[str]:
        idx: _Index = project.lang_state["ruby"]
        out = []
        for k, node_id, written in idx.mixins.get(qname, ()):
            if k != kind:
                continue
            if written == "self":
                out.append(qname)
                continue
            hit = self.resolve_const(project, written, self.crefs(project, node_id), depth + 1)
            if hit is not None:
                out.append(hit)
        return out

    def ancestors(self, project, qname: str, depth: int = 0) -> list[str]:
        """Ruby's method resolution order for instances of ``qname``: prepends, itself, includes
        (last first), then the superclass's ancestors."""
        idx: _Index = project.lang_state["ruby"]
        if depth == 0 and qname in idx.ancestors_memo:
            return idx.ancestors_memo[qname]
        order: list[str] = []
        seen: set[str] = set()

        def module_chain(q: str, d: int) -> None:
            if q in seen or d > 16:
                return
            for p in reversed(self.mixins(project, q, "prepend", depth)):
                module_chain(p, d + 1)
            seen.add(q)
            order.append(q)
            for m in reversed(self.mixins(project, q, "include", depth)):
                module_chain(m, d + 1)

        current: str | None = qname
        hops = 0
        while current is not None and hops < 16 and current not in seen:
            module_chain(current, 0)
            current = self.superclass(project, current, depth) if depth < 4 else None
            hops += 1
        if depth == 0:
            idx.ancestors_memo[qname] = order
        return order

    def methods_named(self, project, qname: str, name: str, *, singleton: bool) -> Node | None:
        idx: _Index = project.lang_state["ruby"]
        found = None
        for n in idx.types.get(qname, ()):
            for m in project.children.get(n.id, {}).get(name, ()):
                if m.kind != "method":
                    continue
                mf = bool(m.decorators and "module_function" in m.decorators)
                if (singleton and m.is_static) or (not singleton and (not m.is_static or mf)):
                    found = m
        return found

    def instance_method(self, project, qname: str, name: str, depth: int = 0) -> Node | None:
        idx: _Index = project.lang_state["ruby"]
        for anc in self.ancestors(project, qname):
            hit = self.methods_named(project, anc, name, singleton=False)
            if hit is not None:
                return hit
            old = idx.aliases.get((anc, False), {}).get(name)
            if old is not None:  # `alias new old` copies what `old` meant from that class up
                return self.instance_method(project, anc, old, depth + 1) if depth < 8 else None
        return None

    def singleton_method(self, project, qname: str, name: str, depth: int = 0) -> Node | None:
        idx: _Index = project.lang_state["ruby"]
        current: str | None = qname
        hops = 0
        while current is not None and hops < 16:
            hit = self.methods_named(project, current, name, singleton=True)
            if hit is not None:
                return hit
            old = idx.aliases.get((current, True), {}).get(name)
            if old is not None:
                return self.singleton_method(project, current, old, depth + 1) if depth < 8 else None
            for ext in reversed(self.mixins(project, current, "extend")):
                hit = self.instance_method(project, ext, name)
                if hit is not None:
                    return hit
            current = self.superclass(project, current)
            hops += 1
        return None

    # ------------------------------------------------------------ types of expressions
    def context(self, project, source_id: str) -> tuple[Node | None, Node | None]:
        """(innermost method, innermost class/module) around ``source_id``."""
        method = cls = None
        for n in project.scopes(source_id):
            if method is None and n.kind in ("method", "function"):
                method = n
            if n.kind in TYPE_KINDS:
                cls = n
                break
        return method, cls

    def type_of(
        self, project, path: str, source_id: str, expr: str, depth: int = 0, line: int | None = None
    ) -> tuple[Node, bool] | None:
        """(class or module, is the class object itself) an expression evaluates to at ``line``."""
        if depth > 10 or not expr or expr.startswith("<"):
            return None
        method, cls = self.context(project, source_id)
        if expr == "self":
            if cls is None:
                return None
            return (cls, bool(method is not None and method.is_static) or method is None)
        if expr == "self.class()":
            return (cls, True) if cls is not None else None
        if expr.endswith("()"):
            callee = expr[:-2]
            recv, _, name = callee.rpartition(".")
            if name == "new":
                owner = (
                    self.type_of(project, path, source_id, recv, depth + 1, line)
                    if recv
                    else (
                        (cls, True) if cls is not None and method is not None and method.is_static else None
                    )
                )
                if owner is not None and owner[1] and owner[0].kind == "class":
                    return (owner[0], False)
                return None
            target, recv_type = self.call_target(project, path, source_id, callee, depth + 1, line)
            if target is None:
                return None
            return self.return_type(project, target, recv_type, depth + 1)
        if expr[0].isupper() or expr.startswith("::"):
            crefs = self.crefs(project, source_id)
            qn = self.resolve_const(project, expr, crefs)
            node = self.representative(project, qn) if qn else None
            if node is not None:
                return (node, True)
            if "::" not in expr:
                return self._constant_value(project, path, expr, crefs, depth)
            # `Jobs::REGISTRY`: a constant the module Jobs assigns (`REGISTRY = Registry.new`)
            owner_path, _, last = expr.rpartition("::")
            holder = self.resolve_const(project, owner_path, crefs) if owner_path else None
            return self._constant_value(project, path, last, [holder], depth) if holder else None
        var = "self." + expr if expr.startswith("@") else expr
        if var.startswith("self.@"):
            facts = set()
            if cls is None:
                return None
            for qn in self.ancestors(project, cls.qualified_name):
                for n in project.lang_state["ruby"].types.get(qn, ()):
                    facts |= {(n.id, v) for v in project.types.get(n.id, {}).get(var, ())}
                if facts:
                    break
            return self._agree(project, path, facts, depth)
        for scope in project.scopes(source_id):
            if scope.kind in ("method", "function"):
                facts = project.types.get(scope.id, {}).get(var)
                if facts:
                    return self._agree(project, path, {(scope.id, v) for v in facts}, depth, line)
                return None
        facts = project.types.get(f"file:{path}", {}).get(var)
        return (
            self._agree(project, path, {(f"file:{path}", v) for v in facts}, depth, line) if facts else None
        )

    def _constant_value(self, project, path: str, name: str, crefs: list[str], depth: int):
        """What a constant assigned in the lexical nesting holds (``X = Foo.new``), when known."""
        idx: _Index = project.lang_state["ruby"]
        for cref in crefs:
            facts = idx.const_facts.get((cref, name))
            if facts is None:
                # memoised: a module reopened in every file (ActiveRecord: 300 nodes) was walked
                # again for every constant looked up in it (563 lookups, 0.1 s on ruby-activerecord)
                var = f"self.<const>{name}"
                facts = frozenset(
                    (n.id, v)
                    for n in idx.types.get(cref, ())
                    for v in project.types.get(n.id, {}).get(var, ())
                )
                idx.const_facts[cref, name] = facts
            if facts:
                return self._agree(project, path, facts, depth)
        return None

    def _agree(self, project, path: str, facts, depth: int, line: int | None = None):
        """The one type every fact gives (each evaluated where it was stated), else None. With
        ``line`` (a use of a local), only the assignments on earlier lines count."""
        found = {}
        kept = []
        for scope_id, value in facts:
            at = None
            if value.startswith("@") and ":" in value and value[1 : value.index(":")].isdigit():
                head, _, value = value.partition(":")
                at = int(head[1:])
            if line is not None and at is not None and at >= line:
                continue
            kept.append((scope_id, value, at))
        if not kept:
            return None
        for scope_id, value, at in kept:
            t = self.type_of(project, project.nodes[scope_id].file_path, scope_id, value, depth + 1, at)
            if t is None:
                return None
            found[(t[0].qualified_name, t[1])] = t
        return next(iter(found.values())) if len(found) == 1 else None

    def return_type(self, project, fn: Node, recv_type, depth: int):
        idx: _Index = project.lang_state["ruby"]
        key = (fn.id, recv_type[0].qualified_name if recv_type else None, bool(recv_type and recv_type[1]))
        if key in idx.returns_memo:
            return idx.returns_memo[key]
        idx.returns_memo[key] = None
        found: dict[tuple[str, bool], tuple[Node, bool]] = {}
        for value in project.returns.get(fn.id, ()):
            if value == "self" and recv_type is not None:
                t = recv_type
            elif (
                value in ("new()", "self.class().new()")
                and recv_type is not None
                and recv_type[0].kind == "class"
            ):
                t = (recv_type[0], False)  # `new` in an inherited class method builds the receiver's class
            else:
                t = self.type_of(project, fn.file_path, fn.id, value, depth + 1)
            if t is None:
                found = {}
                break
            found[(t[0].qualified_name, t[1])] = t
        result = next(iter(found.values())) if len(found) == 1 else None
        idx.returns_memo[key] = result
        return result

    def call_target(
        self, project, path: str, source_id: str, callee: str, depth: int = 0, line: int | None = None
    ):
        """(method or class, the receiver's type) a callee names; (None, None) when unknown."""
        recv, _, name = callee.rpartition(".")
        method, cls = self.context(project, source_id)
        if not recv:
            if name == "super":
                return self._super(project, method, cls), None
            if cls is None:
                return self._function(project, path, name), None
            singleton = method is None or method.is_static
            if singleton:
                if name == "new":
                    return (cls if cls.kind == "class" else None), None
                hit = self.singleton_method(project, cls.qualified_name, name)
            else:
                hit = self.instance_method(project, cls.qualified_name, name)
            if hit is None and cls.kind == "class" and name not in self.builtins:
                hit = self._function(project, path, name)
            return hit, (cls, singleton)
        recv_type = self.type_of(project, path, source_id, recv, depth + 1, line)
        if recv_type is None:
            return None, None
        owner, is_class = recv_type
        if is_class:
            if name == "new":
                return (owner if owner.kind == "class" else None), recv_type
            return self.singleton_method(project, owner.qualified_name, name), recv_type
        return self.instance_method(project, owner.qualified_name, name), recv_type

    def _super(self, project, method: Node | None, cls: Node | None) -> Node | None:
        if method is None or cls is None:
            return None
        if method.is_static:
            parent = self.superclass(project, cls.qualified_name)
            return self.singleton_method(project, parent, method.name) if parent else None
        chain = self.ancestors(project, cls.qualified_name)
        for anc in chain[chain.index(cls.qualified_name) + 1 :] if cls.qualified_name in chain else ():
            hit = self.methods_named(project, anc, method.name, singleton=False)
            if hit is not None:
                return hit
        return None

    def _function(self, project, path: str, name: str) -> Node | None:
        """A top-level ``def`` (a private method of Object): this file's, else the project's only one."""
        if name in self.builtins:
            return None
        idx: _Index = project.lang_state["ruby"]
        hits = idx.functions.get(name, ())
        same = [n for n in hits if n.file_path == path]
        if same:
            return same[-1]
        return hits[0] if len(hits) == 1 else None

    # ------------------------------------------------------------ the hook
    def resolve_ref(self, project, path: str, ref):
        if ref.kind == "extends":
            qn = self.resolve_const(project, ref.name, self.crefs(project, ref.source, include_self=False))
            node = self.representative(project, qn) if qn else None
            return (node, "constant") if node is not None else (None, "")
        if ref.kind == "implements":
            qn = self.resolve_const(project, ref.name, self.crefs(project, ref.source))
            node = self.representative(project, qn) if qn else None
            return (node, "constant") if node is not None else (None, "")
        if ref.kind == "references":  # `method(:show)`: the method a call `show` there would reach
            target, _ = self.call_target(project, path, ref.source, ref.name, 0, ref.line)
            if target is None or target.kind not in ("method", "function"):
                return None, ""
            return target, "function" if target.kind == "function" else "self"
        if ref.kind != "calls":
            return None
        target, recv_type = self.call_target(project, path, ref.source, ref.name, 0, ref.line)
        if target is None:
            return None, ""
        if ref.receiver is None:
            how = "function" if target.kind == "function" else "self"
        elif ref.receiver == "self":
            how = "self"
        elif recv_type is not None and recv_type[1]:
            how = "constant"
        else:
            how = "type-inference"
        return target, how


def _snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if (
            ch.isupper()
            and i
            and (not name[i - 1].isupper() or (i + 1 < len(name) and name[i + 1].islower()))
        ):
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


LANGUAGES = (Ruby(),)
