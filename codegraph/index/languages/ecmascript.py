"""JavaScript, JSX, TypeScript and TSX: one family with four labels.

Modules are files addressed by relative specifiers (``./util`` → ``util.ts``, ``util/index.js``…);
a bare specifier goes through the nearest tsconfig/jsconfig ``paths`` and ``baseUrl`` and the
package.json ``workspaces`` (``_js_project``), else names a package outside the project. ES imports,
``export … from`` re-exports, ``export default`` and CommonJS ``require`` bind names. ``this`` is the
enclosing class, ``super`` its base. Docs are the ``/** … */`` comment before a declaration.

Issue 11 added: an untyped callback parameter takes the type the callee's declared signature gives
it (``operate((source, subscriber) => …)``, see ``base.PARAM_OF``); ``this.x = param`` takes the
parameter's annotation or ``= new X()`` default; the functions of an object literal held by a
variable, ``export default`` or ``module.exports`` (or returned by a factory) are nodes of their
holder, found through ``api.go()``, ``{go: compute}``, ``api.go = compute`` and ``new Factory()``.

A JSX element whose name starts with a capital (``<Labeled …>``, ``<Dialog.Root />``; the javascript
and tsx grammars parse JSX, typescript's does not) is an ``instantiates`` reference from the enclosing
function, resolved like a call (import, local, unique definition; ``Dialog`` then its member
``Root``) and kept ``instantiates`` whatever the target (a function component too); a lower-case tag
is a DOM element and gives nothing. ``<Layout.Tab />`` also follows a top-level ``Layout.Tab = Tab``
(react-admin's compound components). Measured: react-admin's ``callers Labeled`` went from 0 to 36
sites, in its stories and in the 7 non-story files that render it.
"""

from __future__ import annotations

import posixpath
import re
from typing import ClassVar

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, dotted, squash, text
from codegraph.index.languages import _js_project
from codegraph.index.languages.base import METHOD_CONTAINERS, PARAM_OF, LanguageModule
from codegraph.model import ELEMENT_USE, Node

BUILTINS = frozenset(
    """
Array Boolean Date Error EvalError Function JSON Map Math Number Object Promise Proxy RangeError ReferenceError
Reflect RegExp Set String Symbol SyntaxError TypeError URIError WeakMap WeakSet BigInt parseInt parseFloat
isNaN isFinite setTimeout setInterval clearTimeout clearInterval queueMicrotask structuredClone fetch
console require encodeURIComponent decodeURIComponent encodeURI decodeURI escape unescape eval alert
Buffer process globalThis window document
""".split()
)
MODULE_EXTS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
CLASS_KINDS = {
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "class": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "type_alias_declaration": "type_alias",
    "internal_module": "namespace",
}


class EcmaScriptExtractor(Extractor):
    def handle(self, capture: str, ts) -> None:
        if capture == "class":
            self._class(ts)
        elif capture == "function":
            if ts.type == "pair" and _holder(ts.parent) is None:
                return  # a function in an argument's or a nested object: no symbol of its own
            name = (
                ts.child_by_field_name("name")
                or ts.child_by_field_name("property")
                or ts.child_by_field_name("key")
            )
            if name is None or name.type == "computed_property_name":
                return
            self.add_def(ts, "function", name, name=_key(name) if ts.type == "pair" else None)
            params = ts.child_by_field_name("parameters")
            if params is None and ts.type in ("variable_declarator", "public_field_definition", "pair"):
                v = ts.child_by_field_name("value")
                params = v.child_by_field_name("parameters") if v is not None else None
            if params is not None:
                self._param_types(params)
        elif capture == "field":
            self._field(ts)
        elif capture == "arrow":  # an inline callback is no symbol, but its typed parameters are facts
            params = ts.child_by_field_name("parameters")
            if params is not None and ts.parent is not None and ts.parent.type != "variable_declarator":
                self._param_types(params)
            self._callback_params(ts)
        elif capture == "callback":  # function (s) { … } passed to a call: typed by the callee
            self._callback_params(ts)
        elif capture == "call":
            self._call(ts)
        elif capture == "new":
            ctor = ts.child_by_field_name("constructor")
            name = dotted(ctor) if ctor is not None else None
            if name:
                self.ref(ts, "instantiates", name, name.rsplit(".", 1)[0] if "." in name else None)
        elif capture == "element":
            self._element(ts)
        elif capture == "import":
            self._import(ts)
        elif capture == "return":
            value = ts.named_children[0] if ts.named_child_count else None
            while value is not None and value.type == "parenthesized_expression" and value.named_child_count:
                value = value.named_children[0]
            if value is not None and value.type == "object":  # a factory: return { start() {…} }
                (l1, c1), (l2, c2) = value.start_point, value.end_point
                self.returns_fact(ts, f"{RETURNED_OBJECT}{l1 + 1}.{c1}-{l2 + 1}.{c2}")
            else:
                self.returned_expr(ts)
        elif capture == "export":
            self._export(ts)
        elif capture == "assign":
            self._assign(ts)
        elif capture == "assign_expr":
            self._assignment(ts)
        elif capture == "params":
            for p in ts.named_children:
                self._local_binding(p)
        elif capture == "target":
            self._local_binding(ts)
        elif capture == "typeref":
            parent = ts.parent
            if parent is not None and parent.child_by_field_name("name") == ts:
                return
            if parent is not None and parent.type in (
                "type_parameter",
                "implements_clause",
                "extends_type_clause",
            ):
                return
            self.ref(ts, "references", text(ts), None)

    def _element(self, name_node) -> None:
        """The name of a JSX element: ``<Foo …>``, ``<Foo />`` and ``<Foo.Bar />`` (a member of
        ``Foo``) instantiate a component; a lower-case tag is a DOM element and a namespaced one
        (``<svg:rect>``) no name of the program, so neither is a reference."""
        name = dotted(name_node)
        if not name or not name[:1].isupper():
            return
        self.ref(
            name_node, "instantiates", name, name.rsplit(".", 1)[0] if "." in name else None, ELEMENT_USE
        )

    def _class(self, ts) -> None:
        kind = CLASS_KINDS.get(ts.type)
        if kind is None:
            return
        d = self.add_def(ts, kind, ts.child_by_field_name("name"))
        if d is None:
            return
        for c in ts.children:
            if c.type == "class_heritage":
                for clause in c.children:
                    if clause.type in ("identifier", "member_expression"):  # javascript: extends X
                        name = dotted(clause)
                        if name:
                            self.base_ref(d, "extends", name, clause)
                    elif clause.type == "extends_clause":
                        for v in clause.children_by_field_name("value"):
                            name = dotted(v)
                            if name:
                                self.base_ref(d, "extends", name, v)
                    elif clause.type == "implements_clause":
                        for t in clause.named_children:
                            self.base_ref(d, "implements", text(t).split("<")[0], t)
            elif c.type == "extends_type_clause":
                for t in c.named_children:
                    self.base_ref(d, "extends", text(t).split("<")[0], t)
            elif c.type == "extends_clause":  # javascript grammar: class A extends B
                for v in c.named_children:
                    name = dotted(v)
                    if name:
                        self.base_ref(d, "extends", name, v)

    def _field(self, ts) -> None:
        value = ts.child_by_field_name("value")
        if value is not None and value.type in ("arrow_function", "function_expression"):
            return
        name = ts.child_by_field_name("name") or ts.child_by_field_name("property")
        if name is None or name.type == "computed_property_name":
            return
        self.add_def(ts, "property", name)
        tname = _type_name(ts.child_by_field_name("type"))
        if tname:
            self.type_fact(ts, f"this.{text(name)}", tname)
        elif value is not None and value.type == "new_expression":
            ctor = dotted(value.child_by_field_name("constructor"))
            if ctor:
                self.type_fact(ts, f"this.{text(name)}", ctor)

    def _call(self, ts) -> None:
        fn = ts.child_by_field_name("function")
        if fn is None:
            return
        args = ts.child_by_field_name("arguments")
        if args is not None:  # functions passed as values: arr.map(transform), on('x', this.handle)
            for a in args.named_children:
                if a.type in ("identifier", "member_expression"):
                    name = dotted(a)
                    if name:
                        self.call_ref(a, name, "value")
        if fn.type == "identifier":
            name = text(fn)
            if name == "require":
                return
            self.ref(ts, "calls", name, None)
        elif fn.type == "super":  # super(...) in a constructor: the base class's constructor
            self.ref(ts, "calls", "super", None)
        elif fn.type == "member_expression":
            name = dotted(fn)
            if name is None:
                prop = fn.child_by_field_name("property")
                obj = fn.child_by_field_name("object")
                inner = None
                if obj is not None and obj.type == "new_expression":
                    inner = dotted(obj.child_by_field_name("constructor"))
                elif obj is not None and obj.type == "call_expression":
                    inner = dotted(obj.child_by_field_name("function"))
                    module = _required_module(obj) if inner == "require" else None
                    if module is not None and prop is not None:  # require('./m').a(): a of that module
                        local = f"$require{len(self.out.imports)}"
                        self.bind(obj, local, module, "*")
                        self.ref(ts, "calls", f"{local}.{text(prop)}", local)
                        return
                if prop is not None and inner:  # new Foo().bar(), make().bar(): what the call gives
                    self.ref(ts, "calls", f"{inner}().{text(prop)}", f"{inner}()")
                elif prop is not None:
                    self.ref(ts, "calls", f"<expr>.{text(prop)}", "<expr>")
            else:
                self.ref(ts, "calls", name, name.rsplit(".", 1)[0])

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        """TS overload signatures add nothing next to their implementation: keep the implementation."""
        implemented = {
            (d.name, d.ts.type) for d in defs if d.ts.type in ("function_declaration", "method_definition")
        }
        return [
            d
            for d in defs
            if not (
                (d.ts.type == "function_signature" and (d.name, "function_declaration") in implemented)
                or (
                    d.ts.type == "method_signature"
                    and d.ts.parent is not None
                    and d.ts.parent.type == "class_body"
                    and (d.name, "method_definition") in implemented
                )
            )
        ]

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        outer = ts
        # lexical_declaration → export_statement; declaration → export_statement
        p = ts.parent
        for _ in range(3):
            if p is None:
                break
            if p.type == "export_statement":
                node.is_exported = True
                outer = p
                break
            if p.type not in ("lexical_declaration", "variable_declaration", "variable_declarator"):
                break
            p = p.parent
        decos = [c for c in ts.children if c.type == "decorator"]
        if decos:
            node.decorators = [squash(text(c)[1:], 120) for c in decos]
        node.docstring = node.docstring or _doc_comment(outer)
        tp = ts.child_by_field_name("type_parameters")
        if tp is not None:
            node.type_parameters = [squash(text(c), 80) for c in tp.named_children]

    def _assignment(self, ts) -> None:
        """``this.m = new M()`` (a type fact), ``this.render = function`` (a method of the class),
        ``Foo.prototype.bar = function`` (a method of Foo), CommonJS ``exports.a = …`` and
        ``module.exports = {a, b}``."""
        left, right = ts.child_by_field_name("left"), ts.child_by_field_name("right")
        if left is None or right is None or left.type != "member_expression":
            return
        target = dotted(left)
        if target is None:
            return
        parts = target.split(".")
        is_function = right.type in ("function_expression", "arrow_function", "generator_function")
        if parts[0] == "this" and len(parts) == 2:
            if right.type == "new_expression":
                ctor = dotted(right.child_by_field_name("constructor"))
                if ctor:
                    self.type_fact(ts, target, ctor)
            elif right.type == "identifier":  # constructor(normal = new Vector3()) { this.normal = normal }
                tname = _parameter_type(ts, text(right))
                if tname:
                    self.type_fact(ts, target, tname)
            elif is_function:
                d = self.add_def(ts, "function", left.child_by_field_name("property"))
                if d is not None:
                    d.hoist = True
        elif len(parts) == 3 and parts[1] == "prototype" and is_function:
            d = self.add_def(ts, "function", left.child_by_field_name("property"))
            if d is not None:
                d.owner = parts[0]
        elif target in ("module.exports", "exports") and right.type == "object":
            for c in right.named_children:
                if c.type == "shorthand_property_identifier":
                    self.out.exports.append((text(c), text(c)))
                elif c.type == "pair":
                    k, v = c.child_by_field_name("key"), c.child_by_field_name("value")
                    if k is not None and v is not None and v.type == "identifier":
                        self.out.exports.append((text(k), text(v)))
        elif (
            len(parts) == 2
            and right.type == "identifier"
            and parts[0] not in ("module", "exports")
            and self._at_top(ts)
        ):  # api.go = compute: a member of the object api is that function
            self.out.exports.append((f"{FIELD}{target}", text(right)))
        elif len(parts) >= 2 and ".".join(parts[:-1]) in ("module.exports", "exports"):
            name = left.child_by_field_name("property")
            if is_function and self._at_top(ts):
                self.add_def(ts, "function", name)
            elif right.type == "identifier" and name is not None:
                self.out.exports.append((text(name), text(right)))

    def _literal_aliases(self, holder: str, obj) -> None:
        """``{go: compute}`` held by the top-level name ``holder``: ``holder.go`` is ``compute``."""
        for c in obj.named_children:
            if c.type == "pair":
                k, v = c.child_by_field_name("key"), c.child_by_field_name("value")
                if k is not None and v is not None and k.type in NAME_TYPES and v.type == "identifier":
                    self.out.exports.append((f"{FIELD}{holder}.{_key(k)}", text(v)))
            elif c.type == "shorthand_property_identifier":  # {compute}
                self.out.exports.append((f"{FIELD}{holder}.{text(c)}", text(c)))

    @staticmethod
    def _at_top(ts) -> bool:
        p = ts.parent
        return (
            p is not None
            and p.type == "expression_statement"
            and p.parent is not None
            and p.parent.type == "program"
        )

    def _local_binding(self, p) -> None:
        """The names a parameter or declaration target binds (not its default value or type)."""
        if p.type in ("required_parameter", "optional_parameter"):
            p = p.child_by_field_name("pattern")
        elif p.type == "assignment_pattern":
            p = p.child_by_field_name("left")
        if p is None:
            return
        if p.type == "identifier":
            self.local_name(p, text(p))
        elif p.type in ("object_pattern", "array_pattern", "rest_pattern"):
            for c in p.named_children:
                if c.type == "pair_pattern":
                    c = c.child_by_field_name("value")
                elif c.type == "object_assignment_pattern":
                    c = c.child_by_field_name("left")
                if c is not None:
                    self._local_binding(c)
        elif p.type == "shorthand_property_identifier_pattern":
            self.local_name(p, text(p))

    def _export(self, ts) -> None:
        """``export default X`` / ``export default class X`` / ``export { a as b }`` (no ``from``)."""
        if ts.child_by_field_name("source") is not None:
            return
        if any(c.type == "default" for c in ts.children):
            target = ts.child_by_field_name("declaration") or ts.child_by_field_name("value")
            if target is not None and target.type == "object":
                # export default { go: compute, run() {…} }: an object named ``default`` holds them
                # (not in a component's script, whose default export is the component itself)
                if self.lang.label == self.language and self.add_def(
                    target, "constant", None, name="default"
                ):
                    self.out.exports.append(("default", "default"))
                    self._literal_aliases("default", target)
                return
            if target is not None:
                name = target.child_by_field_name("name") if target.type != "identifier" else target
                if name is not None:
                    self.out.exports.append(("default", text(name)))
            return
        for c in ts.named_children:
            if c.type == "export_clause":
                for spec in c.named_children:
                    n, a = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                    if n is not None:
                        self.out.exports.append((text(a or n), text(n)))

    def _param_types(self, params) -> None:
        for i, p in enumerate(_positional(params)):
            pat, tname = _param_name_and_type(p)
            if pat is None:
                continue
            if tname and pat.type == "identifier":
                self.type_fact(params, text(pat), tname)
            # constructor(private readonly repo: Repo) declares this.repo
            if (
                tname
                and any(c.type in ("accessibility_modifier", "readonly") for c in p.children)
                and pat.type == "identifier"
            ):
                self.type_fact(params, f"this.{text(pat)}", tname)
            self._signature_callback(params, i, p)

    def _signature_callback(self, params, index: int, p) -> None:
        """``init: (source: Observable<T>, subscriber: Subscriber<R>) => void``: the types this
        function's parameter ``index`` gives the parameters of a callback passed there, as facts
        ``PARAM_OF index:j`` of this function (a type parameter counts by its ``extends`` bound; an
        unbounded one is left out, the callback's parameter then stays untyped)."""
        if p.type not in ("required_parameter", "optional_parameter"):
            return
        typ = p.child_by_field_name("type")
        inner = typ.named_children[0] if typ is not None and typ.named_child_count else None
        while inner is not None and inner.type == "parenthesized_type" and inner.named_child_count:
            inner = inner.named_children[0]
        if inner is None or inner.type != "function_type":
            return
        fn_params = inner.child_by_field_name("parameters")
        if fn_params is None:
            return
        bounds = _type_bounds(params.parent)
        for j, q in enumerate(_positional(fn_params)):
            _, tname = _param_name_and_type(q)
            if tname in bounds:
                tname = bounds[tname]
            if tname:
                self.type_fact(params, f"{PARAM_OF}{index}:{j}", tname)

    def _callback_params(self, fn) -> None:
        """The untyped parameters of a function passed straight to a call (``operate((source,
        subscriber) => …)``, ``new Observable((subscriber) => …)``) take the types the callee's
        declared signature gives them (``_signature_callback``), resolved when the callee is."""
        args = fn.parent
        call = args.parent if args is not None and args.type == "arguments" else None
        if call is None or call.type not in ("call_expression", "new_expression"):
            return
        callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
        name = dotted(callee) if callee is not None else None
        if not name:
            return
        index = next(
            i for i, a in enumerate(c for c in args.named_children if c.type != "comment") if a == fn
        )
        params = fn.child_by_field_name("parameters")
        if params is None:
            single = fn.child_by_field_name("parameter")  # x => …
            if single is not None and single.type == "identifier":
                self.type_fact(single, text(single), f"{PARAM_OF}{name}:{index}:0")
            return
        for j, p in enumerate(_positional(params)):
            pat, tname = _param_name_and_type(p)
            if pat is not None and pat.type == "identifier" and not tname:
                self.type_fact(params, text(pat), f"{PARAM_OF}{name}:{index}:{j}")

    def _assign(self, ts) -> None:
        parent = ts.parent
        top = parent is not None and (
            parent.type == "program"
            or (
                parent.type == "export_statement"
                and parent.parent is not None
                and parent.parent.type == "program"
            )
        )
        is_const = any(c.type == "const" for c in ts.children)
        for decl in ts.named_children:
            if decl.type != "variable_declarator":
                continue
            name = decl.child_by_field_name("name")
            value = decl.child_by_field_name("value")
            if value is not None and value.type == "call_expression":
                fn = value.child_by_field_name("function")
                if fn is not None and fn.type == "identifier" and text(fn) == "require":
                    self._require(decl, name, value)
                    continue
            if value is not None and value.type == "this" and name is not None and name.type == "identifier":
                self.type_fact(decl, text(name), "this.constructor")  # const scope = this
            elif (
                value is not None
                and value.type == "new_expression"
                and name is not None
                and name.type == "identifier"
            ):
                ctor = dotted(value.child_by_field_name("constructor"))
                if ctor:
                    self.type_fact(decl, text(name), ctor)
            elif name is not None and name.type == "identifier":
                tname = _type_name(decl.child_by_field_name("type"))
                if tname:
                    self.type_fact(decl, text(name), tname)
            is_function = value is not None and value.type in (
                "arrow_function",
                "function_expression",
                "generator_function",
            )
            if not top and name is not None and not is_function:  # a function value is a nested def
                self._local_binding(name)  # kept only inside a function (see Extractor.local_name)
            if not top or name is None or name.type != "identifier":
                continue
            if value is not None and value.type in (
                "arrow_function",
                "function_expression",
                "generator_function",
            ):
                continue  # captured as @function
            self.add_def(decl, "constant" if is_const else "variable", name)
            if value is not None and value.type == "object":
                self._literal_aliases(text(name), value)
            if value is not None and value.type == "identifier" and text(value) != text(name):
                # `const c = a` / `export const b = a`: the name is an alias of a (also when imported)
                self.out.exports.append((text(name), text(value)))

    def _require(self, decl, name, call) -> None:
        args = call.child_by_field_name("arguments")
        if args is None or args.named_child_count == 0 or args.named_children[0].type != "string":
            return
        module = text(args.named_children[0])[1:-1]
        nid = self.import_node(decl, module)
        if name is None:
            return
        if name.type == "identifier":
            self.bind(decl, text(name), module, "*", node=nid)
        elif name.type == "object_pattern":
            for p in name.named_children:
                if p.type == "shorthand_property_identifier_pattern":
                    self.bind(decl, text(p), module, text(p), node=nid)
                elif p.type == "pair_pattern":
                    k, v = p.child_by_field_name("key"), p.child_by_field_name("value")
                    if k is not None and v is not None and v.type == "identifier":
                        self.bind(decl, text(v), module, text(k), node=nid)

    def _import(self, ts) -> None:
        src = ts.child_by_field_name("source")
        if src is None:
            return
        module = text(src)[1:-1]
        nid = self.import_node(ts, module)

        def add(local: str, imported: str, reexport: bool = False) -> None:
            self.bind(ts, local, module, imported, reexport=reexport, node=nid)

        if ts.type == "import_statement":
            for clause in ts.named_children:
                if clause.type != "import_clause":
                    continue
                for c in clause.named_children:
                    if c.type == "identifier":
                        add(text(c), "default")
                    elif c.type == "namespace_import":
                        ident = c.named_children[0] if c.named_child_count else None
                        if ident is not None:
                            add(text(ident), "*")
                    elif c.type == "named_imports":
                        for spec in c.named_children:
                            if spec.type != "import_specifier":
                                continue
                            n, a = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                            add(text(a or n), text(n))
            if not any(c.type == "import_clause" for c in ts.named_children):
                add("", "")  # side-effect import: file edge only
        else:  # export ... from
            clause = next((c for c in ts.named_children if c.type == "export_clause"), None)
            ns = next((c for c in ts.named_children if c.type == "namespace_export"), None)
            if clause is not None:
                for spec in clause.named_children:
                    if spec.type != "export_specifier":
                        continue
                    n, a = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                    add(text(a or n), text(n), True)
            elif ns is not None:
                ident = ns.named_children[0] if ns.named_child_count else None
                if ident is not None:
                    add(text(ident), "*", True)
            else:
                add("*", "*", True)


# exports key of an object literal's member that names another function (``api.go`` → ``compute``)
FIELD = "<field>"
# what a factory returns: an object literal written there (``object:12.8-40.2``, line.column)
RETURNED_OBJECT = "object:"
NAME_TYPES = frozenset({"identifier", "property_identifier", "private_property_identifier", "string"})


def _key(name) -> str:
    """A member name as written: ``go``, ``'go'`` → ``go``."""
    value = text(name)
    return value[1:-1] if name.type == "string" else value


def _holder(obj):
    """The statement that gives an object literal a name its members are found by (a variable's
    initial value, ``export default``, ``module.exports = …``), else None."""
    parent = obj.parent if obj is not None and obj.type == "object" else None
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is None:
        return None
    if parent.type in ("variable_declarator", "export_statement", "return_statement"):
        return parent
    if parent.type == "assignment_expression" and dotted(parent.child_by_field_name("left")) in (
        "module.exports",
        "exports",
    ):
        return parent
    return None


def _required_module(call) -> str | None:
    """The module string of ``require('./m')``, else None."""
    args = call.child_by_field_name("arguments")
    if args is None or args.named_child_count != 1 or args.named_children[0].type != "string":
        return None
    return text(args.named_children[0])[1:-1]


def _positional(params) -> list:
    """The parameters of a parameter list that take arguments (TS's ``this:`` pseudo-parameter is none)."""
    out = []
    for p in params.named_children:
        if p.type in ("comment", "decorator"):
            continue
        pat = (
            p.child_by_field_name("pattern") if p.type in ("required_parameter", "optional_parameter") else p
        )
        if pat is not None and pat.type == "this":
            continue
        out.append(p)
    return out


def _param_name_and_type(p) -> tuple:
    """(the name node, the type name) of one parameter: its annotation, else the class its default
    value constructs (``normal = new Vector3()``); (None, None) for a pattern with no name."""
    value = None
    if p.type in ("required_parameter", "optional_parameter"):
        pat, value = p.child_by_field_name("pattern"), p.child_by_field_name("value")
        tname = _type_name(p.child_by_field_name("type"))
    elif p.type == "assignment_pattern":  # javascript: normal = new Vector3()
        pat, value, tname = p.child_by_field_name("left"), p.child_by_field_name("right"), None
    else:
        pat, tname = p, None
    if pat is None:
        return None, None
    if not tname and value is not None and value.type == "new_expression":
        tname = dotted(value.child_by_field_name("constructor"))
    return pat, tname


FUNCTION_TYPES = frozenset(
    {
        "function_declaration",
        "function_expression",
        "arrow_function",
        "method_definition",
        "generator_function",
    }
)


def _parameter_type(at, name: str) -> str | None:
    """The type the innermost function around ``at`` states for its parameter ``name``, if any."""
    fn = at.parent
    while fn is not None and fn.type not in FUNCTION_TYPES:
        fn = fn.parent
    params = fn.child_by_field_name("parameters") if fn is not None else None
    for p in _positional(params) if params is not None else ():
        pat, tname = _param_name_and_type(p)
        if pat is not None and pat.type == "identifier" and text(pat) == name:
            return tname
    return None


def _type_bounds(decl) -> dict[str, str | None]:
    """Type parameters of a declaration and of those around it → the type their ``extends`` bound
    names (None: unbounded, so a parameter of that type says nothing)."""
    out: dict[str, str | None] = {}
    while decl is not None:
        tp = decl.child_by_field_name("type_parameters")
        for t in tp.named_children if tp is not None else ():
            name = t.child_by_field_name("name")
            constraint = t.child_by_field_name("constraint")
            bound = (
                constraint.named_children[0]
                if constraint is not None and constraint.named_child_count
                else None
            )
            if name is not None and text(name) not in out:
                out[text(name)] = _type_name(bound)
        decl = decl.parent
    return out


def _type_name(typ) -> str | None:
    if typ is None:
        return None
    inner = typ.named_children[0] if typ.type == "type_annotation" and typ.named_child_count else typ
    if inner.type == "generic_type":
        inner = inner.child_by_field_name("name")
    if inner is not None and inner.type in ("type_identifier", "nested_type_identifier"):
        return text(inner)
    return None


def _doc_comment(outer) -> str | None:
    prev = outer.prev_named_sibling
    if prev is not None and prev.type == "comment" and prev.end_point[0] >= outer.start_point[0] - 1:
        doc = text(prev)
        if doc.startswith("/**"):
            doc = re.sub(r"^/\*\*|\*/$", "", doc)
            doc = "\n".join(line.strip().lstrip("*").strip() for line in doc.splitlines())
            return squash(doc, MAX_DOCSTRING) or None
    return None


class EcmaScript(LanguageModule):
    """Shared facts of the four dialects; each label differs in grammar, extensions and query."""

    family = "ecmascript"
    extracts = "classes, interfaces, enums, type aliases, namespaces, functions, methods, fields, JSDoc"
    resolution = (
        "ES imports and re-exports, export default, CommonJS require, tsconfig paths/baseUrl, package.json"
        " workspaces, this/super, typed and new-ed locals, callbacks typed by the callee's signature"
    )
    builtins = BUILTINS
    # ``self`` too: the ``const self = this`` idiom (rxjs, three.js examples, Django's admin JS)
    self_names = frozenset({"this", "self"})
    super_names = frozenset({"super"})
    self_type_exprs = frozenset({"this.constructor"})
    self_type_annotations = frozenset({"this"})
    constructor_names = ("constructor",)
    super_calls_constructor = True
    method_containers = METHOD_CONTAINERS | {"namespace"}
    test_suffixes: ClassVar[tuple[str, ...]] = (
        ".test.ts",
        ".spec.ts",
        ".test.js",
        ".spec.js",
        ".test.tsx",
        ".spec.tsx",
    )
    generated_suffixes: ClassVar[tuple[str, ...]] = (".generated.ts", ".generated.js", ".gen.ts")
    extractor: ClassVar[type[Extractor]] = EcmaScriptExtractor

    # tsconfig paths/baseUrl (extends chains, jsconfig too) and package.json workspaces (issue 11)
    manifests: ClassVar[tuple[str, ...]] = (
        "tsconfig.json",
        "tsconfig.*.json",
        "jsconfig.json",
        "package.json",
    )

    def read_manifests(self, project, manifests: dict[str, str | None]) -> dict[str, str]:
        """Reads them once per resolution for the whole family (``_js_project``)."""
        if _js_project.STATE not in project.lang_state:
            project.lang_state[_js_project.STATE] = _js_project.load(manifests)
        return dict(project.lang_state[_js_project.STATE].problems)

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """A relative spec from the importing file; a bare one through the nearest tsconfig's
        ``paths`` and ``baseUrl``, then a workspace package's entry; else None (a package outside
        the project)."""
        if spec.startswith("."):
            return _probe(
                project.files, posixpath.normpath(posixpath.join(posixpath.dirname(from_path), spec))
            )
        state = project.lang_state.get(_js_project.STATE)
        if state is None or spec.startswith("/"):
            return None
        for base in _js_project.mapped(state, from_path, spec):
            hit = _probe(project.files, base)
            if hit is not None:
                return hit
        for base in _js_project.package_entries(state, spec):
            hit = _probe(project.files, base)
            if hit is not None:
                return hit
        return None

    def resolve_ref(self, project, path: str, ref) -> tuple[Node | None, str] | None:
        """Members of an object literal (issue 11): ``api.go()`` / ``api.run()`` where ``api`` (here
        or imported) is ``{go: compute, run() {…}}`` or had ``api.go = compute``, and ``this.run()``
        inside one of its functions; a JSX element ``<Dialog.Root />`` the same way. None (the generic
        rules) for everything else."""
        if ref.kind == "calls" and ref.receiver is None:
            return _bare_past_literals(project, path, ref)
        member = ref.kind == "calls" or ref.args == ELEMENT_USE
        if not member or ref.receiver is None or "." in ref.name[len(ref.receiver) + 1 :]:
            return None
        recv, method = ref.receiver, ref.name[len(ref.receiver) + 1 :]
        if recv in self.self_names:
            fn = project.nodes.get(ref.source)
            holder = project.nodes.get(project.parent.get(ref.source, "")) if fn is not None else None
            if fn is None or fn.kind != "function" or holder is None or holder.kind not in LITERAL_HOLDERS:
                return None
        elif recv.replace(".", "").replace("_", "").replace("$", "").isalnum():
            if recv.split(".", 1)[0] in self.self_names:
                return None
            holder = project.resolve_dotted(path, ref.source, recv)
            if holder is None and "." not in recv:
                return _made_member(project, path, ref, method)
            if isinstance(holder, Node) and holder.kind == "function" and ref.args == ELEMENT_USE:
                return _assigned_member(project, holder, method)  # <Layout.Tab />, Layout.Tab = Tab
            if not isinstance(holder, Node) or holder.kind not in LITERAL_HOLDERS:
                return None
        else:
            return None
        return _literal_member(project, holder, method)


LITERAL_HOLDERS = frozenset({"constant", "variable"})


Position = tuple[int, int]  # (line 1-based, column in bytes)


def _returned_spans(project, fn_id: str) -> list[tuple[Position, Position]]:
    """Where the object literals ``fn_id`` returns are written (``object:L.C-L.C`` facts)."""
    spans = []
    for expr in project.returns.get(fn_id, ()):
        if expr.startswith(RETURNED_OBJECT):
            first, _, last = expr[len(RETURNED_OBJECT) :].partition("-")
            (l1, _, c1), (l2, _, c2) = first.partition("."), last.partition(".")
            spans.append(((int(l1), int(c1 or 0)), (int(l2), int(c2 or 0))))
    return spans


def _within(node: Node, span: tuple[Position, Position]) -> bool:
    return span[0] <= (node.start_line, node.start_column) <= span[1]


def _bare_past_literals(project, path: str, ref) -> tuple[Node | None, str] | None:
    """A bare call never means a member of an object literal a function returns (``return {start()
    {…}}`` binds no ``start`` in any scope): when such a member is what the enclosing scopes would
    find first, look past it — a real nested function, a local, else the file's names. None (the
    generic rules) when no such member is in the way."""
    chain = [s for s in project.scopes(ref.source) if s.kind in ("function", "method")]

    def members(scope) -> tuple[list[Node], list[Node]]:
        hits = project.children.get(scope.id, {}).get(ref.name, ())
        spans = _returned_spans(project, scope.id) if hits else []
        inside = [n for n in hits if any(_within(n, span) for span in spans)]
        return [n for n in hits if n not in inside], inside

    if not any(members(s)[1] for s in chain):
        return None
    for scope in chain:
        real, _ = members(scope)
        if real:
            return real[-1], "local"
        if ref.name in project.locals.get(scope.id, ()):
            return None, ""
    target, how = project.lookup_bare(
        path, f"file:{path}", ref.name, allow_unique=True, wanted=frozenset({"function", "class", "struct"})
    )
    if isinstance(target, Node) and target.kind in ("function", "method", "class", "struct"):
        return target, how
    return None, ""


def _made_member(project, path: str, ref, name: str) -> tuple[Node, str] | None:
    """``const a = new Factory(); a.start()`` where ``Factory`` returns an object literal (three.js's
    ``WebGLAnimation``: ``return { start: function () {…}, … }``): that literal's ``start``. The
    variable's scope must state exactly one constructor, and the factory return only that literal."""
    scopes = [n.id for n in project.scopes(ref.source)] + [f"file:{path}"]
    names = next(
        (project.types[s][ref.receiver] for s in scopes if project.types.get(s, {}).get(ref.receiver)), None
    )
    if not names or len(names) != 1:
        return None
    factory = project.resolve_dotted(path, ref.source, next(iter(names)))
    if not isinstance(factory, Node) or factory.kind != "function":
        return None
    spans = _returned_spans(project, factory.id)
    if len(spans) != 1 or len(project.returns.get(factory.id, ())) != 1:
        return None
    hits = [
        n
        for n in project.children.get(factory.id, {}).get(name, ())
        if n.kind == "function" and _within(n, spans[0])
    ]
    return (hits[-1], "return-type") if hits else None


def _literal_member(project, holder: Node, name: str) -> tuple[Node, str] | None:
    """``name`` of the object literal a top-level constant or variable holds: a function written in
    it, or the function a member names (``{go: compute}``, ``api.go = compute``)."""
    hits = [n for n in project.children.get(holder.id, {}).get(name, ()) if n.kind in ("function", "method")]
    if hits:
        return hits[-1], "object-literal"
    return _assigned_member(project, holder, name)


def _assigned_member(project, holder: Node, name: str) -> tuple[Node, str] | None:
    """``name`` of a top-level ``holder`` that a top-level ``holder.name = f`` (or ``{name: f}``
    when it holds an object literal) made the function or class ``f`` (react-admin's compound
    component: ``TabbedShowLayout.Tab = Tab``)."""
    if project.parent.get(holder.id) != f"file:{holder.file_path}":
        return None
    local = project.exports.get(holder.file_path, {}).get(f"{FIELD}{holder.name}.{name}")
    target = project.export_of(holder.file_path, local) if local else None
    if isinstance(target, Node) and target.kind in ("function", "method", "class"):
        return target, "alias"
    return None


def _probe(files, base: str) -> str | None:
    """The indexed file a module path names: itself, with a source extension (``./a.js`` may be
    ``a.ts``), or its folder's ``index`` file."""
    stem = base
    for ext in (".js", ".jsx", ".mjs", ".cjs", ".d.ts"):
        if base.endswith(ext):
            stem = base[: -len(ext)]
            break
    candidates = [base] + [stem + e for e in MODULE_EXTS] + [f"{base}/index{e}" for e in MODULE_EXTS]
    for c in candidates:
        if c in files:
            return c
    return None


# what the grammars that parse JSX (javascript, tsx; typescript has none) resolve besides
JSX_RESOLUTION = ", JSX elements of components (`<Foo />`, `<Foo.Bar />`)"


class TypeScript(EcmaScript):
    name = "TypeScript"
    label = "typescript"
    lazy_resolution = True  # no prepare; module lookups probe paths
    grammar = "typescript"
    extensions = (".ts", ".mts", ".cts", ".d.ts")
    query = "typescript.scm"


class Tsx(EcmaScript):
    name = "TSX"
    label = "tsx"
    lazy_resolution = True  # no prepare; module lookups probe paths
    grammar = "tsx"
    extensions = (".tsx",)
    query = "typescript.scm"
    query_parts = ("jsx.scm",)
    resolution = EcmaScript.resolution + JSX_RESOLUTION


class JavaScript(EcmaScript):
    name = "JavaScript"
    label = "javascript"
    lazy_resolution = True  # no prepare; module lookups probe paths
    grammar = "javascript"
    extensions = (".js", ".mjs", ".cjs")
    query = "javascript.scm"
    query_parts = ("jsx.scm",)
    resolution = EcmaScript.resolution + JSX_RESOLUTION


class Jsx(EcmaScript):
    name = "JSX"
    label = "jsx"
    lazy_resolution = True  # no prepare; module lookups probe paths
    grammar = "javascript"
    extensions = (".jsx",)
    query = "javascript.scm"
    query_parts = ("jsx.scm",)
    resolution = EcmaScript.resolution + JSX_RESOLUTION


LANGUAGES = (TypeScript(), Tsx(), JavaScript(), Jsx())
