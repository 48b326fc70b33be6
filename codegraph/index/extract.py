"""Source bytes → symbols and unresolved references for one file. Pure: no I/O, no database.

The query files in ``queries/`` say which syntax nodes matter; this module turns each captured node
into :class:`~codegraph.model.Node` rows (with nesting worked out from byte ranges), import bindings
and references for the resolver. Lines are 1-based, columns are byte offsets (tree-sitter points).
"""

from __future__ import annotations

import bisect
import re

from codegraph.model import FileExtraction, ImportBinding, Node, Ref, node_id

MAX_SIGNATURE = 200
MAX_DOCSTRING = 1000
MAX_REF_NAME = 200
_SPACE = re.compile(r"\s+")
_CONSTANT = re.compile(r"^_*[A-Z][A-Z0-9_]*$")

TS_CLASS_KINDS = {
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "class": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "type_alias_declaration": "type_alias",
    "internal_module": "namespace",
}
CONTAINER_KINDS = {"class", "interface", "enum", "namespace"}


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _squash(text: str, limit: int = MAX_SIGNATURE) -> str:
    text = _SPACE.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _dotted(node) -> str | None:
    """``a.b.c`` for a chain of plain identifiers (Python attribute / JS member expression), else None."""
    parts = []
    while node is not None:
        t = node.type
        if t in ("identifier", "this", "super", "property_identifier", "private_property_identifier"):
            parts.append(_text(node))
            break
        if t == "attribute":
            parts.append(_text(node.child_by_field_name("attribute")))
            node = node.child_by_field_name("object")
        elif t == "member_expression":
            prop = node.child_by_field_name("property")
            if prop is None:
                return None
            parts.append(_text(prop))
            node = node.child_by_field_name("object")
        elif (
            t == "call"
            and node.child_by_field_name("function") is not None
            and _text(node.child_by_field_name("function")) == "super"
        ):
            parts.append("super()")
            break
        else:
            return None
    return ".".join(reversed(parts))


class _Def:
    __slots__ = ("node", "start", "end", "kind", "name", "parent", "ts", "line", "col")

    def __init__(self, ts, kind: str, name: str, span):
        self.ts = ts
        self.kind = kind
        self.name = name
        self.start = span.start_byte
        self.end = span.end_byte
        self.line = span.start_point[0] + 1  # decorators included: the span is the decorated definition
        self.col = span.start_point[1]
        self.node: Node | None = None
        self.parent: _Def | None = None


class _Extractor:
    def __init__(self, path: str, source: bytes, language: str, grammar: str):
        self.path = path
        self.source = source
        self.language = language
        self.grammar = grammar
        self.is_python = grammar == "python"
        self.out = FileExtraction(path=path, language=language)
        self.file_id = node_id(path, "file", "", 0)
        self.defs: list[_Def] = []
        self.pending_refs: list[
            tuple[int, str, str, int, int, str | None]
        ] = []  # (byte, kind, name, line, col, recv)
        self.typed: list[tuple[int, str, str]] = []  # (byte, variable, type/constructor name)
        self._import_ids: set[str] = set()
        self.returned: list[tuple[int, str]] = []  # (byte, "self" | "var:x" | "call:a.b")
        self.class_refs: list[tuple[_Def, str, str, object]] = []  # (class def, kind, name, ts node)

    # ---------------------------------------------------------------- driver
    def run(self) -> FileExtraction:
        from tree_sitter import QueryCursor

        from codegraph.index.languages import parser_for, query_for

        tree = parser_for(self.grammar).parse(self.source)
        root = tree.root_node
        line_count = self.source.count(b"\n") + 1
        self.out.nodes.append(
            Node(
                id=self.file_id,
                kind="file",
                name=self.path.rsplit("/", 1)[-1],
                qualified_name=self.path,
                file_path=self.path,
                language=self.language,
                start_line=1,
                end_line=line_count,
            )
        )
        if root.has_error:
            self.out.errors.append("syntax errors (partial extraction)")
        captures = QueryCursor(query_for(self.grammar)).captures(root)
        handle = self._python if self.is_python else self._ecmascript
        # tree-sitter's capture lists are not always in document order (seen with 0.26 on repeated
        # patterns); sort so the same bytes always give the same extraction
        for capture in sorted(captures):
            for ts in sorted(captures[capture], key=lambda n: (n.start_byte, n.end_byte)):
                handle(capture, ts)
        self._nest()
        self._emit_refs()
        return self.out

    # ---------------------------------------------------------------- nesting
    def _nest(self) -> None:
        """Assign each definition its innermost enclosing definition and build nodes + contains edges."""
        # TS overload signatures add nothing next to their implementation: keep the implementation only
        implemented = {
            (d.name, d.ts.type)
            for d in self.defs
            if d.ts.type in ("function_declaration", "method_definition")
        }
        self.defs = [
            d
            for d in self.defs
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
        self.defs.sort(key=lambda d: (d.start, -d.end))
        stack: list[_Def] = []
        seen: set[str] = set()
        for d in self.defs:
            while stack and stack[-1].end <= d.start:
                stack.pop()
            d.parent = stack[-1] if stack else None
            kind = d.kind
            if kind == "function" and d.parent is not None and d.parent.kind in CONTAINER_KINDS:
                kind = "method"
            if kind in ("variable", "constant") and d.parent is not None and d.parent.kind in CONTAINER_KINDS:
                kind = "property"
            d.kind = kind
            chain = []
            p = d.parent
            while p is not None:
                chain.append(p.name)
                p = p.parent
            qualified = "::".join([*reversed(chain), d.name])
            nid = node_id(self.path, kind, d.name, d.line)
            if nid in seen:  # same kind+name on the same line (e.g. overload signatures): keep the first
                d.node = None
                stack.append(d)
                continue
            seen.add(nid)
            d.node = self._make_node(d, nid, kind, qualified)
            self.out.nodes.append(d.node)
            parent_id = (
                d.parent.node.id if d.parent is not None and d.parent.node is not None else self.file_id
            )
            self.out.contains.append((parent_id, nid))
            stack.append(d)

    def _enclosing(self, byte: int) -> _Def | None:
        """Innermost emitted definition whose range holds ``byte`` (``defs`` sorted by ``_nest``)."""
        d = None
        idx = bisect.bisect_right(self._starts, byte)
        if idx:
            d = self.defs[idx - 1]
            while d is not None and not (d.start <= byte < d.end and d.node is not None):
                d = d.parent
        return d

    def _emit_refs(self) -> None:
        self._starts = [d.start for d in self.defs]
        for byte, kind, name, line, col, recv in self.pending_refs:
            d = self._enclosing(byte)
            source = d.node.id if d is not None else self.file_id
            self.out.refs.append(Ref(source, kind, name[:MAX_REF_NAME], line, col, recv))
        for d, kind, name, ts in self.class_refs:
            if d.node is None:
                continue
            self.out.refs.append(
                Ref(
                    d.node.id,
                    kind,
                    name[:MAX_REF_NAME],
                    ts.start_point[0] + 1,
                    ts.start_point[1],
                    name.rsplit(".", 1)[0] if "." in name else None,
                )
            )
        for byte, expr in self.returned:
            d = self._enclosing(byte)
            if d is not None and d.kind in ("function", "method"):
                self.out.returns.append((d.node.id, expr))
        for byte, var, type_name in self.typed:
            d = self._enclosing(byte)
            if var.startswith(("self.", "this.")):
                while d is not None and d.kind not in CONTAINER_KINDS:
                    d = d.parent
            scope = d.node.id if d is not None else self.file_id
            self.out.assigned_types.append((scope, var, type_name))

    def _make_node(self, d: _Def, nid: str, kind: str, qualified: str) -> Node:
        ts = d.ts
        outer = ts
        parent = ts.parent
        decorators = None
        exported = False
        if self.is_python:
            if parent is not None and parent.type == "decorated_definition":
                outer = parent
                decorators = [_squash(_text(c)[1:], 120) for c in parent.children if c.type == "decorator"]
        else:
            # lexical_declaration → export_statement; declaration → export_statement
            p = parent
            for _ in range(3):
                if p is None:
                    break
                if p.type == "export_statement":
                    exported = True
                    outer = p
                    break
                if p.type not in ("lexical_declaration", "variable_declaration", "variable_declarator"):
                    break
                p = p.parent
            decos = [c for c in ts.children if c.type == "decorator"]
            if decos:
                decorators = [_squash(_text(c)[1:], 120) for c in decos]
        node = Node(
            id=nid,
            kind=kind,
            name=d.name,
            qualified_name=qualified,
            file_path=self.path,
            language=self.language,
            start_line=d.line,
            end_line=ts.end_point[0] + 1,
            start_column=d.col,
            end_column=ts.end_point[1],
            decorators=decorators or None,
            is_exported=exported,
        )
        if kind in ("function", "method"):
            self._function_details(node, ts)
        elif kind == "class" and self.is_python:
            node.docstring = self._py_docstring(ts.child_by_field_name("body"))
        if not self.is_python:
            node.docstring = node.docstring or self._js_doc(outer)
            tp = ts.child_by_field_name("type_parameters")
            if tp is not None:
                node.type_parameters = [_squash(_text(c), 80) for c in tp.named_children]
        return node

    def _function_details(self, node: Node, ts) -> None:
        fn = ts
        if ts.type in ("variable_declarator", "public_field_definition", "field_definition"):
            fn = ts.child_by_field_name("value") or ts
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        if params is not None:
            sig = _squash(_text(params))
            node.signature = sig if sig.startswith("(") else f"({sig})"
        ret = fn.child_by_field_name("return_type")
        if ret is not None:
            node.return_type = _squash(_text(ret).lstrip(":").strip(), 120)
        for c in fn.children:
            if c.type == "async":
                node.is_async = True
            elif c.type == "static":
                node.is_static = True
            elif c.type == "accessibility_modifier":
                node.visibility = _text(c)
            elif c.type == "abstract":
                node.is_abstract = True
        if ts.type == "abstract_method_signature":
            node.is_abstract = True
        for c in ts.children:
            if c.type == "static":
                node.is_static = True
            elif c.type == "accessibility_modifier":
                node.visibility = _text(c)
        if self.is_python:
            node.docstring = self._py_docstring(fn.child_by_field_name("body"))
            if node.decorators:
                node.is_static = "staticmethod" in node.decorators
                node.is_abstract = (
                    "abc.abstractmethod" in node.decorators or "abstractmethod" in node.decorators
                )
            if node.name.startswith("_") and not node.name.endswith("__"):
                node.visibility = "private"

    def _py_docstring(self, body) -> str | None:
        if body is None or body.named_child_count == 0:
            return None
        first = body.named_children[0]
        if first.type == "expression_statement" and first.named_child_count:
            first = first.named_children[0]
        if first.type != "string":
            return None
        raw = _text(first)
        raw = raw.lstrip("rRbBuU")
        for q in ('"""', "'''", '"', "'"):
            if raw.startswith(q) and raw.endswith(q) and len(raw) >= 2 * len(q):
                raw = raw[len(q) : -len(q)]
                break
        return _squash(raw, MAX_DOCSTRING) or None

    def _js_doc(self, outer) -> str | None:
        prev = outer.prev_named_sibling
        if prev is not None and prev.type == "comment" and prev.end_point[0] >= outer.start_point[0] - 1:
            text = _text(prev)
            if text.startswith("/**"):
                text = re.sub(r"^/\*\*|\*/$", "", text)
                text = "\n".join(line.strip().lstrip("*").strip() for line in text.splitlines())
                return _squash(text, MAX_DOCSTRING) or None
        return None

    def _add_def(self, ts, kind: str, name_node, span=None) -> _Def | None:
        if name_node is None:
            return None
        name = _text(name_node)
        if not name:
            return None
        span = span or ts
        d = _Def(ts, kind, name, span)
        self.defs.append(d)
        return d

    def _ref(self, ts, kind: str, name: str, recv: str | None) -> None:
        self.pending_refs.append((ts.start_byte, kind, name, ts.start_point[0] + 1, ts.start_point[1], recv))

    # ---------------------------------------------------------------- python
    def _python(self, capture: str, ts) -> None:
        if capture == "class":
            span = ts.parent if ts.parent is not None and ts.parent.type == "decorated_definition" else ts
            d = self._add_def(ts, "class", ts.child_by_field_name("name"), span)
            bases = ts.child_by_field_name("superclasses")
            if d is not None and bases is not None:
                for b in bases.named_children:
                    name = _dotted(b)
                    if name:
                        self.class_refs.append((d, "extends", name, b))
        elif capture == "function":
            span = ts.parent if ts.parent is not None and ts.parent.type == "decorated_definition" else ts
            self._add_def(ts, "function", ts.child_by_field_name("name"), span)
            params = ts.child_by_field_name("parameters")
            if params is not None:
                body = ts.child_by_field_name("body")
                for p in params.named_children:
                    if p.type in ("typed_parameter", "typed_default_parameter"):
                        ident = (
                            p.named_children[0]
                            if p.type == "typed_parameter"
                            else p.child_by_field_name("name")
                        )
                        typ = p.child_by_field_name("type")
                        tname = (
                            _dotted(typ.named_children[0])
                            if typ is not None and typ.named_child_count
                            else None
                        )
                        if ident is not None and ident.type == "identifier" and tname and body is not None:
                            self.typed.append((body.start_byte, _text(ident), tname))
        elif capture == "call":
            fn = ts.child_by_field_name("function")
            if fn is None:
                return
            if fn.type == "identifier":
                self._ref(ts, "calls", _text(fn), None)
            elif fn.type == "attribute":
                name = _dotted(fn)
                if name is None:
                    tail = _text(fn.child_by_field_name("attribute"))
                    self._ref(ts, "calls", f"<expr>.{tail}", "<expr>")
                else:
                    self._ref(ts, "calls", name, name.rsplit(".", 1)[0])
        elif capture == "import":
            self._python_import(ts)
        elif capture == "assign":
            self._python_assign(ts)
        elif capture == "return":
            self._returned(ts)

    def _returned(self, ts) -> None:
        """What a ``return`` gives back, when it can name a type: the instance itself, a local
        variable (typed elsewhere), or a call (a constructor or another function's return)."""
        expr = ts.named_children[0] if ts.named_child_count else None
        if expr is None:
            self.returned.append((ts.start_byte, "none"))
            return
        t = expr.type
        if t in ("identifier", "this"):
            name = _text(expr)
            self.returned.append((ts.start_byte, "self" if name in ("self", "this") else f"var:{name}"))
        elif t in ("call", "call_expression", "new_expression"):
            fn = expr.child_by_field_name("function") or expr.child_by_field_name("constructor")
            callee = _dotted(fn) if fn is not None else None
            if callee in ("self.__class__", "type", "cls"):
                self.returned.append((ts.start_byte, "self"))
            elif callee:
                self.returned.append((ts.start_byte, f"call:{callee}"))
            else:
                self.returned.append((ts.start_byte, "unknown"))
        else:
            self.returned.append((ts.start_byte, "unknown"))

    def _python_assign(self, ts) -> None:
        left = ts.child_by_field_name("left")
        right = ts.child_by_field_name("right")
        parent = ts.parent
        if parent is not None and parent.type == "expression_statement":
            parent = parent.parent
        if left is None:
            return
        if right is not None and right.type in ("boolean_operator", "conditional_expression"):
            # ``self.q = query or sql.Query(model)``: the constructor call among the operands
            right = next((c for c in right.named_children if c.type == "call"), right)
        if right is not None and right.type == "call":
            fn = right.child_by_field_name("function")
            callee = _dotted(fn) if fn is not None else None
            target = _dotted(left) if left.type in ("identifier", "attribute") else None
            if callee and target and (left.type == "identifier" or target.startswith("self.")):
                self.typed.append((ts.start_byte, target, callee))
        if left.type != "identifier" or parent is None:
            return
        at_module = parent.type == "module"
        in_class = (
            parent.type == "block" and parent.parent is not None and parent.parent.type == "class_definition"
        )
        if not (at_module or in_class):
            return
        name = _text(left)
        kind = "constant" if _CONSTANT.match(name) else "variable"
        self._add_def(ts, kind, left)

    def _python_import(self, ts) -> None:
        line, col = ts.start_point[0] + 1, ts.start_point[1]
        if ts.type == "import_statement":
            names = ts.children_by_field_name("name")
            module = None
            items = []
            for n in names:
                if n.type == "aliased_import":
                    mod = _text(n.child_by_field_name("name"))
                    items.append((_text(n.child_by_field_name("alias")), mod, "*"))
                else:
                    mod = _text(n)
                    items.append((mod, mod, "*"))
                module = module or mod
        else:
            mod_node = ts.child_by_field_name("module_name")
            module = _text(mod_node) if mod_node is not None else ""
            items = []
            for n in ts.children_by_field_name("name"):
                if n.type == "aliased_import":
                    items.append(
                        (_text(n.child_by_field_name("alias")), module, _text(n.child_by_field_name("name")))
                    )
                else:
                    items.append((_text(n), module, _text(n)))
            if any(c.type == "wildcard_import" for c in ts.children):
                items.append(("*", module, "*"))
        if not module:
            return
        nid = self._import_node(ts, module)
        for local, mod, imported in items:
            self.out.imports.append(ImportBinding(local, mod, imported, line, col, nid))

    # ---------------------------------------------------------------- ecmascript (js, jsx, ts, tsx)
    def _ecmascript(self, capture: str, ts) -> None:
        if capture == "class":
            kind = TS_CLASS_KINDS.get(ts.type)
            if kind is None:
                return
            d = self._add_def(ts, kind, ts.child_by_field_name("name"))
            if d is None:
                return
            for c in ts.children:
                if c.type == "class_heritage":
                    for clause in c.children:
                        if clause.type == "extends_clause":
                            for v in clause.children_by_field_name("value"):
                                name = _dotted(v)
                                if name:
                                    self.class_refs.append((d, "extends", name, v))
                        elif clause.type == "implements_clause":
                            for t in clause.named_children:
                                self.class_refs.append((d, "implements", _text(t).split("<")[0], t))
                elif c.type == "extends_type_clause":
                    for t in c.named_children:
                        self.class_refs.append((d, "extends", _text(t).split("<")[0], t))
                elif c.type == "extends_clause":  # javascript grammar: class A extends B
                    for v in c.named_children:
                        name = _dotted(v)
                        if name:
                            self.class_refs.append((d, "extends", name, v))
        elif capture == "function":
            name = ts.child_by_field_name("name") or ts.child_by_field_name("property")
            if name is None or name.type == "computed_property_name":
                return
            self._add_def(ts, "function", name)
            params = ts.child_by_field_name("parameters")
            if params is None and ts.type in ("variable_declarator", "public_field_definition"):
                v = ts.child_by_field_name("value")
                params = v.child_by_field_name("parameters") if v is not None else None
            if params is not None:
                self._ts_param_types(params)
        elif capture == "field":
            value = ts.child_by_field_name("value")
            if value is not None and value.type in ("arrow_function", "function_expression"):
                return
            name = ts.child_by_field_name("name") or ts.child_by_field_name("property")
            if name is None or name.type == "computed_property_name":
                return
            self._add_def(ts, "property", name)
            typ = ts.child_by_field_name("type")
            tname = self._type_name(typ)
            if tname:
                self.typed.append((ts.start_byte, f"this.{_text(name)}", tname))
            elif value is not None and value.type == "new_expression":
                ctor = _dotted(value.child_by_field_name("constructor"))
                if ctor:
                    self.typed.append((ts.start_byte, f"this.{_text(name)}", ctor))
        elif capture == "arrow":  # an inline callback is no symbol, but its typed parameters are facts
            params = ts.child_by_field_name("parameters")
            if params is not None and ts.parent is not None and ts.parent.type != "variable_declarator":
                self._ts_param_types(params)
        elif capture == "call":
            fn = ts.child_by_field_name("function")
            if fn is None:
                return
            if fn.type == "identifier":
                name = _text(fn)
                if name == "require":
                    return
                self._ref(ts, "calls", name, None)
            elif fn.type == "member_expression":
                name = _dotted(fn)
                if name is None:
                    prop = fn.child_by_field_name("property")
                    if prop is not None:
                        self._ref(ts, "calls", f"<expr>.{_text(prop)}", "<expr>")
                else:
                    self._ref(ts, "calls", name, name.rsplit(".", 1)[0])
        elif capture == "new":
            ctor = ts.child_by_field_name("constructor")
            name = _dotted(ctor) if ctor is not None else None
            if name:
                self._ref(ts, "instantiates", name, name.rsplit(".", 1)[0] if "." in name else None)
        elif capture == "import":
            self._es_import(ts)
        elif capture == "return":
            self._returned(ts)
        elif capture == "export":
            self._es_export(ts)
        elif capture == "assign":
            self._es_assign(ts)
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
            self._ref(ts, "references", _text(ts), None)

    def _es_export(self, ts) -> None:
        """``export default X`` / ``export default class X`` / ``export { a as b }`` (no ``from``)."""
        if ts.child_by_field_name("source") is not None:
            return
        is_default = any(c.type == "default" for c in ts.children)
        if is_default:
            target = ts.child_by_field_name("declaration") or ts.child_by_field_name("value")
            if target is not None:
                name = target.child_by_field_name("name") if target.type != "identifier" else target
                if name is not None:
                    self.out.exports.append(("default", _text(name)))
            return
        for c in ts.named_children:
            if c.type == "export_clause":
                for spec in c.named_children:
                    n, a = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                    if n is not None:
                        self.out.exports.append((_text(a or n), _text(n)))

    def _type_name(self, typ) -> str | None:
        if typ is None:
            return None
        inner = typ.named_children[0] if typ.type == "type_annotation" and typ.named_child_count else typ
        if inner.type == "generic_type":
            inner = inner.child_by_field_name("name")
        if inner is not None and inner.type in ("type_identifier", "nested_type_identifier"):
            return _text(inner)
        return None

    def _ts_param_types(self, params) -> None:
        for p in params.named_children:
            if p.type not in ("required_parameter", "optional_parameter"):
                continue
            pat = p.child_by_field_name("pattern")
            tname = self._type_name(p.child_by_field_name("type"))
            if pat is None or not tname:
                continue
            if pat.type == "identifier":
                self.typed.append((params.start_byte, _text(pat), tname))
            # constructor(private readonly repo: Repo) declares this.repo
            if (
                any(c.type in ("accessibility_modifier", "readonly") for c in p.children)
                and pat.type == "identifier"
            ):
                self.typed.append((params.start_byte, f"this.{_text(pat)}", tname))

    def _es_assign(self, ts) -> None:
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
                if fn is not None and fn.type == "identifier" and _text(fn) == "require":
                    self._require(decl, name, value)
                    continue
            if (
                value is not None
                and value.type == "new_expression"
                and name is not None
                and name.type == "identifier"
            ):
                ctor = _dotted(value.child_by_field_name("constructor"))
                if ctor:
                    self.typed.append((decl.start_byte, _text(name), ctor))
            elif name is not None and name.type == "identifier":
                tname = self._type_name(decl.child_by_field_name("type"))
                if tname:
                    self.typed.append((decl.start_byte, _text(name), tname))
            if not top or name is None or name.type != "identifier":
                continue
            if value is not None and value.type in (
                "arrow_function",
                "function_expression",
                "generator_function",
            ):
                continue  # captured as @function
            self._add_def(decl, "constant" if is_const else "variable", name)

    def _import_node(self, statement, module: str) -> str:
        """One ``import`` node per import statement (``name`` is the module as written); its id."""
        line = statement.start_point[0] + 1
        nid = node_id(self.path, "import", module, line)
        if nid in self._import_ids:  # two statements for one module on one line: one node
            return nid
        self._import_ids.add(nid)
        self.out.nodes.append(
            Node(
                id=nid,
                kind="import",
                name=module,
                qualified_name=module,
                file_path=self.path,
                language=self.language,
                start_line=line,
                end_line=statement.end_point[0] + 1,
                start_column=statement.start_point[1],
                end_column=statement.end_point[1],
                signature=_squash(_text(statement)),
            )
        )
        self.out.contains.append((self.file_id, nid))
        return nid

    def _require(self, decl, name, call) -> None:
        args = call.child_by_field_name("arguments")
        if args is None or args.named_child_count == 0 or args.named_children[0].type != "string":
            return
        module = _text(args.named_children[0])[1:-1]
        line, col = decl.start_point[0] + 1, decl.start_point[1]
        nid = self._import_node(decl, module)
        if name is None:
            return
        if name.type == "identifier":
            self.out.imports.append(ImportBinding(_text(name), module, "*", line, col, nid))
        elif name.type == "object_pattern":
            for p in name.named_children:
                if p.type == "shorthand_property_identifier_pattern":
                    self.out.imports.append(ImportBinding(_text(p), module, _text(p), line, col, nid))
                elif p.type == "pair_pattern":
                    k, v = p.child_by_field_name("key"), p.child_by_field_name("value")
                    if k is not None and v is not None and v.type == "identifier":
                        self.out.imports.append(ImportBinding(_text(v), module, _text(k), line, col, nid))

    def _es_import(self, ts) -> None:
        src = ts.child_by_field_name("source")
        if src is None:
            return
        module = _text(src)[1:-1]
        line, col = ts.start_point[0] + 1, ts.start_point[1]
        nid = self._import_node(ts, module)
        add = self.out.imports.append
        if ts.type == "import_statement":
            for clause in ts.named_children:
                if clause.type != "import_clause":
                    continue
                for c in clause.named_children:
                    if c.type == "identifier":
                        add(ImportBinding(_text(c), module, "default", line, col, nid))
                    elif c.type == "namespace_import":
                        ident = c.named_children[0] if c.named_child_count else None
                        if ident is not None:
                            add(ImportBinding(_text(ident), module, "*", line, col, nid))
                    elif c.type == "named_imports":
                        for spec in c.named_children:
                            if spec.type != "import_specifier":
                                continue
                            n, a = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                            add(ImportBinding(_text(a or n), module, _text(n), line, col, nid))
            if not any(c.type == "import_clause" for c in ts.named_children):
                add(ImportBinding("", module, "", line, col, nid))  # side-effect import: file edge only
        else:  # export ... from
            clause = next((c for c in ts.named_children if c.type == "export_clause"), None)
            ns = next((c for c in ts.named_children if c.type == "namespace_export"), None)
            if clause is not None:
                for spec in clause.named_children:
                    if spec.type != "export_specifier":
                        continue
                    n, a = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                    add(ImportBinding(_text(a or n), module, _text(n), line, col, nid, reexport=True))
            elif ns is not None:
                ident = ns.named_children[0] if ns.named_child_count else None
                if ident is not None:
                    add(ImportBinding(_text(ident), module, "*", line, col, nid, reexport=True))
            else:
                add(ImportBinding("*", module, "*", line, col, nid, reexport=True))


def extract(path: str, source: bytes, language: str, grammar: str) -> FileExtraction:
    """Extract symbols, contains pairs, import bindings and references from one file.

    Args:
        path: POSIX path relative to the project root (used in ids and qualified names).
        source: the file's bytes (decoded by tree-sitter as UTF-8; invalid bytes are tolerated).
        language: the label stored in ``nodes.language`` (python, typescript, tsx, javascript, jsx).
        grammar: the tree-sitter grammar name (see ``languages.EXTENSIONS``).

    Returns:
        A :class:`FileExtraction`; ``errors`` notes syntax errors (extraction is then partial).
    """
    return _Extractor(path, source, language, grammar).run()
