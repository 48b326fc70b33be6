"""Source bytes → symbols and unresolved references for one file. Pure: no I/O, no database.

The generic driver: a language's query (``queries/<label>.scm``) says which syntax nodes matter, and
the language's :class:`Extractor` subclass (in its module under ``languages/``) turns each captured
node into definitions, references, import bindings and type facts through the helpers here. The
driver then works out nesting from byte ranges, builds :class:`~codegraph.model.Node` rows and
``contains`` pairs, and attaches each reference to its innermost enclosing symbol. Lines are
1-based, columns are byte offsets (tree-sitter points).

Embedded blocks (issue 13): a host language whose files hold code of another language (the
``<script>`` of a ``.vue``/``.svelte`` file, an Astro frontmatter) declares each block with
:meth:`Extractor.embed` while it handles its own captures. After the host's own extraction the
driver extracts every block with the guest language's extractor, over a copy of the file in which
every byte outside the block is a space (newlines kept): the guest's lines, columns and byte offsets
are then the file's own, with no arithmetic. The guest's results join the host's output under the
host's language label; its top-level definitions and references go into the definition the block
was declared for (a component), its import nodes stay in the file. Finally :meth:`Extractor.finish`
lets the host add what needs the guest's results (template usages of imported components).
"""

from __future__ import annotations

import bisect
import re
from operator import attrgetter
from typing import TYPE_CHECKING

from codegraph.model import OWNER_SOURCE, FileExtraction, ImportBinding, Node, Ref, node_id

if TYPE_CHECKING:
    import tree_sitter

    from codegraph.index.languages.base import LanguageModule

MAX_SIGNATURE = 200
MAX_DOCSTRING = 1000
MAX_REF_NAME = 200
# every byte but CR and LF → a space: the blank a guest block is extracted over
_BLANK = bytes(b if b in (10, 13) else 32 for b in range(256))
CONSTANT_NAME = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
_SPAN = attrgetter("start_byte", "end_byte")  # document order of captured nodes (a C key: no lambda)


def text(node, source: bytes | None = None) -> str:
    """A syntax node's source text (UTF-8, invalid bytes replaced). With ``source``, the bytes the
    node's tree was parsed from, it is sliced from them: half the cost of ``node.text`` (0.23 against
    0.45-0.5 µs a node, measured on django/db/models/query.py's calls), and a Python file's extraction
    reads the text of about a quarter million nodes on django-wheel."""
    if source is None:
        return node.text.decode("utf-8", "replace")
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def squash(value: str, limit: int = MAX_SIGNATURE) -> str:
    """Whitespace runs collapsed to one space, cut to ``limit`` characters with an ellipsis.

    ``str.split()`` splits at exactly the characters the regex ``\\s`` matches (both ask
    ``str.isspace``: checked over every code point) and drops them at both ends, so this is
    ``re.sub(r"\\s+", " ", value).strip()`` at a fifth to an eighth of its cost (a call per signature,
    decorator and docstring: 67,000 on java-guava)."""
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def call_chain(node, *, call: str, member: str, callee, receiver, name, plain) -> str | None:
    """A receiver made of calls and members with empty argument lists (``p.get().prepare()``,
    ``pool->get().conn`` → ``pool.get().conn``), for the resolver's chain of return types; None for
    anything else. The language gives its grammar's node types: ``call`` and ``member`` nodes,
    ``callee(call node)``, ``receiver(member node)`` and ``name(member node)`` (None when the member's
    name is not a plain name) as child getters, and ``plain(node)`` for any other node (a dotted name
    or None)."""
    if node.type == call:
        fn = callee(node)
        base = (
            call_chain(fn, call=call, member=member, callee=callee, receiver=receiver, name=name, plain=plain)
            if fn is not None
            else None
        )
        return f"{base}()" if base else None
    if node.type == member:
        left, field = receiver(node), name(node)
        if left is None or field is None:
            return None
        head = (
            call_chain(
                left, call=call, member=member, callee=callee, receiver=receiver, name=name, plain=plain
            )
            if left.type in (call, member)
            else plain(left)
        )
        return f"{head}.{text(field)}" if head else None
    return plain(node)


def dotted(node, source: bytes | None = None) -> str | None:
    """``a.b.c`` for a chain of plain identifiers (Python attribute / JS member expression), else None.
    ``source``: as for :func:`text`."""
    parts = []
    while node is not None:
        t = node.type
        if t in ("identifier", "this", "super", "property_identifier", "private_property_identifier"):
            parts.append(text(node, source))
            break
        if t == "attribute":
            parts.append(text(node.child_by_field_name("attribute"), source))
            node = node.child_by_field_name("object")
        elif t == "member_expression":
            prop = node.child_by_field_name("property")
            if prop is None:
                return None
            parts.append(text(prop, source))
            node = node.child_by_field_name("object")
        elif (
            t == "call"
            and node.child_by_field_name("function") is not None
            and text(node.child_by_field_name("function"), source) == "super"
        ):
            parts.append("super()")
            break
        else:
            return None
    return ".".join(reversed(parts))


class Def:
    """A definition found in the file, before nesting turns it into a :class:`Node`.

    ``owner`` names the type a definition belongs to when it is written outside that type (a Go
    method's receiver, C++ ``Foo::bar``, a Rust ``impl Foo`` block); the resolver attaches it.
    """

    __slots__ = (
        "node",
        "start",
        "end",
        "end_point",
        "kind",
        "name",
        "parent",
        "ts",
        "line",
        "col",
        "owner",
        "qualifier",
        "hoist",
    )

    def __init__(self, ts, kind: str, name: str, span):
        self.ts = ts
        self.kind = kind
        self.name = name
        self.start = span.start_byte
        self.end = span.end_byte
        self.line = span.start_point[0] + 1  # decorators included: the span is the decorated definition
        self.col = span.start_point[1]
        self.end_point = ts.end_point
        self.node: Node | None = None
        self.parent: Def | None = None
        self.owner: str | None = None
        self.qualifier: str | None = None
        self.hoist = False  # belongs to the nearest enclosing type, not the function it is written in


class Extractor:
    """The per-file extraction state and the driver; a language subclasses it and implements
    :meth:`handle` (one call per captured node) plus, where needed, the ``node_details`` /
    ``filter_defs`` hooks."""

    # what ``FileExtraction.errors`` says when the file's tree has ERROR nodes
    syntax_error_note = "syntax errors (partial extraction)"
    # True when every syntax node this language hands the helpers comes from the tree parsed from
    # ``source`` as given (no re-parsed fragment, no rewritten source): node text is then sliced
    # from ``source`` (see :func:`text`)
    slices_source = False

    def __init__(self, path: str, source: bytes, lang: LanguageModule):
        self.path = path
        self.source = source
        # what the driver's helpers slice node text from (None: ``node.text``), see slices_source
        self.own_source = source if self.slices_source else None
        self.lang = lang
        self.language = lang.label
        self.out = FileExtraction(path=path, language=lang.label)
        self.arity: dict[tuple[int, int, str], int] = {}  # (line, column, callee) → arguments passed
        self.file_id = node_id(path, "file", "", 0)
        self.defs: list[Def] = []
        self.pending_refs: list[
            tuple[int, str, str, int, int, str | None, str | None]
        ] = []  # (byte, kind, name, line, col, recv, args)
        self.typed: list[tuple[int, str, str]] = []  # (byte, variable, type/constructor name)
        self._import_ids: set[str] = set()
        self.returned: list[tuple[int, str]] = []  # (byte, "self" | "var:x" | "call:a.b")
        self.class_refs: list[tuple[Def, str, str, tree_sitter.Node]] = []  # (class def, kind, name, ts node)
        self.local_names: list[tuple[int, str]] = []  # (byte, name)
        self.tree = None  # a syntax tree of exactly ``source`` that the language already built, if any
        self.blocks: list[tuple[str, int, int, Def | None]] = []  # (guest label, start, end, into)

    # ---------------------------------------------------------------- driver
    def run(self) -> FileExtraction:
        from codegraph.index.languages import parser_for

        tree = self.tree if self.tree is not None else parser_for(self.lang.grammar).parse(self.source)
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
            self.out.errors.append(self.syntax_error_note)
        self.scan(root)
        for label, start, end, into in self.blocks:
            self._extract_block(label, start, end, into)
        self.finish()
        for r in self.out.refs if self.arity else ():
            r.arity = self.arity.get((r.line, r.col, r.name), r.arity)
        return self.out

    def call_arity(self, ts, name: str, arity: int) -> None:
        """Record how many arguments the call at ``ts`` named ``name`` passes; the driver stamps it on
        that call's reference (``Ref.arity``) for overload and name/arity lookups."""
        self.arity[(ts.start_point[0] + 1, ts.start_point[1], name[:MAX_REF_NAME])] = arity

    def scan(self, root) -> None:
        """This language's own pass over a syntax tree: captures → definitions, nesting, references."""
        from tree_sitter import QueryCursor

        from codegraph.index.languages import query_for

        self.begin(root)
        captures = self.captures(QueryCursor(query_for(self.lang.label)).captures(root))
        # tree-sitter's capture lists are not always in document order (seen with 0.26 on repeated
        # patterns); sort so the same bytes always give the same extraction
        for capture in sorted(captures):
            for ts in sorted(captures[capture], key=_SPAN):
                self.handle(capture, ts)
        self.defs = self.filter_defs(self.defs)
        self._nest()
        self._emit_refs()

    def _extract_block(self, label: str, start: int, end: int, into: Def | None) -> None:
        """Extract one embedded block (see the module docstring) and merge it into ``self.out``."""
        from codegraph.index.languages import module_for, parser_for

        guest_lang = module_for(label)
        source = bytearray(self.source.translate(_BLANK))
        source[start:end] = self.source[start:end]
        guest = guest_lang.extractor(self.path, bytes(source), guest_lang)
        guest.language = guest.out.language = self.language  # the file's language, not the block's
        root = parser_for(guest_lang.grammar).parse(guest.source).root_node
        guest.scan(root)
        if root.has_error:
            self.out.errors.append(f"syntax errors in an embedded {label} block (partial extraction)")
        home = into.node.id if into is not None and into.node is not None else self.file_id
        g = guest.out
        imports = {n.id for n in g.nodes if n.kind == "import"}
        self.out.nodes.extend(g.nodes)
        self.out.contains.extend(
            (home if parent == self.file_id and child not in imports else parent, child)
            for parent, child in g.contains
        )
        for ref in g.refs:
            if ref.source == self.file_id:
                ref.source = home
            self.out.refs.append(ref)
        self.out.imports.extend(g.imports)
        self.out.exports.extend(g.exports)
        self.out.assigned_types.extend(g.assigned_types)
        self.out.returns.extend(g.returns)
        self.out.owners.extend(g.owners)
        self.out.locals.extend(g.locals)
        self.out.closures.extend(g.closures)
        self.out.errors.extend(e for e in g.errors if e not in self.out.errors)

    def begin(self, root) -> None:
        """Called with the syntax tree's root before the captures (e.g. to read a package clause)."""

    def captures(self, found: dict[str, list]) -> dict[str, list]:
        """The query's captures (name → syntax nodes) to handle; a language may add nodes that its
        own pass over the tree in :meth:`begin` already found, rather than query for them again."""
        return found

    def finish(self) -> None:
        """Called last, after the embedded blocks joined ``self.out`` (e.g. to add template usages of
        the components the blocks import)."""

    def handle(self, capture: str, ts) -> None:
        """One captured syntax node. The default understands ``definition.<kind>`` captures whose
        node has a ``name`` field; languages override it for everything else."""
        if capture.startswith("definition."):
            self.add_def(ts, capture.split(".", 1)[1], ts.child_by_field_name("name"))

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        """Drop definitions that add nothing (e.g. TS overload signatures next to their body)."""
        return defs

    def node_details(self, node: Node, d: Def) -> None:
        """Fill language-specific node fields (docstring, decorators, export flag…)."""

    # ---------------------------------------------------------------- nesting
    def _nest(self) -> None:
        """Assign each definition its innermost enclosing definition and build nodes + contains edges."""
        containers = self.lang.method_containers
        self.defs.sort(key=lambda d: (d.start, -d.end))
        stack: list[Def] = []
        seen: set[str] = set()
        for d in self.defs:
            while stack and stack[-1].end <= d.start:
                stack.pop()
            d.parent = stack[-1] if stack else None
            lexical = None
            if d.hoist:  # ``this.render = function`` in a constructor is a method of the class
                lexical = d.parent  # ... whose body still sees the constructor's variables
                while d.parent is not None and d.parent.kind not in containers:
                    d.parent = d.parent.parent
                if lexical is d.parent:
                    lexical = None
            kind = d.kind
            in_container = d.owner is not None or (d.parent is not None and d.parent.kind in containers)
            if kind == "function" and in_container:
                kind = "method"
            if kind in ("variable", "constant") and in_container:
                kind = "property"
            d.kind = kind
            chain = []
            p = d.parent
            while p is not None:
                chain.append(p.name)
                p = p.parent
            if d.owner is not None:  # the type comes right before the name: ``m::Mutex::lock``
                chain.insert(0, d.owner)
            if d.qualifier:
                chain.append(d.qualifier)
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
            if d.owner is not None:
                self.out.owners.append((nid, d.owner))
            if lexical is not None and lexical.node is not None:
                self.out.closures.append((nid, lexical.node.id))
            stack.append(d)

    def _enclosing(self, byte: int) -> Def | None:
        """Innermost emitted definition whose range holds ``byte`` (``defs`` sorted by ``_nest``):
        its ``node`` is set. The callers check ``d.node`` again only for the type checker."""
        d = None
        idx = bisect.bisect_right(self._starts, byte)
        if idx:
            d = self.defs[idx - 1]
            while d is not None and not (d.start <= byte < d.end and d.node is not None):
                d = d.parent
        return d

    def _emit_refs(self) -> None:
        defs = self.defs
        starts = self._starts = [d.start for d in defs]
        file_id = self.file_id
        refs = self.out.refs
        after = bisect.bisect_right
        # _enclosing, inlined: one call per reference was a tenth of this loop
        for byte, kind, name, line, col, recv, args in self.pending_refs:
            idx = after(starts, byte)
            d = defs[idx - 1] if idx else None
            while d is not None and not (d.start <= byte < d.end and d.node is not None):
                d = d.parent
            source = d.node.id if d is not None and d.node is not None else file_id
            refs.append(Ref(source, kind, name[:MAX_REF_NAME], line, col, recv, None, args))
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
            if d is not None and d.node is not None and d.kind in ("function", "method"):
                self.out.returns.append((d.node.id, expr))
        seen_locals: set[tuple[str, str]] = set()
        for byte, name in self.local_names:
            d = self._enclosing(byte)
            if (
                d is not None
                and d.node is not None
                and d.kind in ("function", "method")
                and (d.node.id, name) not in seen_locals
            ):
                seen_locals.add((d.node.id, name))
                self.out.locals.append((d.node.id, name))
        self_names = self.lang.self_names
        containers = self.lang.method_containers
        for byte, var, type_name in self.typed:
            d = self._enclosing(byte)
            if "." in var and var.split(".", 1)[0] in self_names:
                while d is not None and d.kind not in containers:
                    d = d.parent
                if d is not None and d.node is None:  # a type dropped as a same-line duplicate
                    continue  # (`class A {…} class A {…}` on one line): its facts go with it
            scope = d.node.id if d is not None and d.node is not None else self.file_id
            self.out.assigned_types.append((scope, var, type_name))

    def _make_node(self, d: Def, nid: str, kind: str, qualified: str) -> Node:
        ts = d.ts
        node = Node(
            id=nid,
            kind=kind,
            name=d.name,
            qualified_name=qualified,
            file_path=self.path,
            language=self.language,
            start_line=d.line,
            end_line=d.end_point[0] + 1,
            start_column=d.col,
            end_column=d.end_point[1],
        )
        if kind in ("function", "method"):
            self.function_details(node, ts)
        self.node_details(node, d)
        return node

    def function_details(self, node: Node, ts) -> None:
        """Signature (the parameter list), return type and modifiers from the usual field names."""
        fn = ts
        if ts.type in ("variable_declarator", "public_field_definition", "field_definition"):
            fn = ts.child_by_field_name("value") or ts
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        if params is not None:
            sig = squash(text(params, self.own_source))
            node.signature = sig if sig.startswith("(") else f"({sig})"
        ret = fn.child_by_field_name("return_type")
        if ret is not None:
            node.return_type = squash(text(ret, self.own_source).lstrip(":").strip(), 120)
        for c in fn.children:
            if c.type == "async":
                node.is_async = True
            elif c.type == "static":
                node.is_static = True
            elif c.type == "accessibility_modifier":
                node.visibility = text(c, self.own_source)
            elif c.type == "abstract":
                node.is_abstract = True
        if ts.type == "abstract_method_signature":
            node.is_abstract = True
        for c in ts.children if fn is not ts else ():  # the same children: read above
            if c.type == "static":
                node.is_static = True
            elif c.type == "accessibility_modifier":
                node.visibility = text(c, self.own_source)

    # ---------------------------------------------------------------- helpers for languages
    def add_def(
        self, ts, kind: str, name_node, span=None, *, name: str | None = None, end=None
    ) -> Def | None:
        """Record a definition of ``kind`` named by ``name_node`` (or ``name``) starting where
        ``span`` (default: ``ts``) starts and ending where ``end`` (default: ``ts``) ends — a Dart
        body is the signature's next sibling. Returns it, or None when it has no name."""
        if name is None:
            if name_node is None:
                return None
            name = text(name_node, self.own_source)
        if not name:
            return None
        d = Def(ts, kind, name, span or ts)
        if end is not None and end.end_byte > d.end:
            d.end = end.end_byte
            d.end_point = end.end_point
        self.defs.append(d)
        return d

    def embed(self, label: str, block, into: Def | None = None) -> None:
        """Code of another registered language inside this file: the syntax node ``block`` (a
        ``<script>``'s raw text) is extracted with language ``label``'s extractor after this file's
        own pass, with the file's own lines and columns. Its top-level definitions and references
        belong to ``into`` (default: the file). Blocks are extracted one by one, in this order."""
        self.blocks.append((label, block.start_byte, block.end_byte, into))

    def ref(self, ts, kind: str, name: str, recv: str | None, args: str | None = None) -> None:
        """A reference at ``ts``: ``kind`` calls/instantiates/references, ``name`` the dotted text,
        ``recv`` the part before the last dot (None for a bare name), ``args`` the call's argument
        shape for :meth:`LanguageModule.pick_overload` (optional)."""
        self.pending_refs.append(
            (ts.start_byte, kind, name, ts.start_point[0] + 1, ts.start_point[1], recv, args)
        )

    def call_ref(self, ts, name: str, kind: str = "calls") -> None:
        """A reference whose receiver is everything before the last ``.`` of ``name``."""
        self.ref(ts, kind, name, name.rsplit(".", 1)[0] if "." in name else None)

    def type_fact(self, ts, var: str, type_name: str) -> None:
        """``var`` holds a ``type_name`` (a type or a constructor callee) in the scope around ``ts``;
        ``self.x``-style names (the language's self names) are facts of the enclosing type."""
        self.typed.append((ts.start_byte, var, type_name))

    def local_name(self, ts, name: str) -> None:
        """``name`` is local to the function around ``ts`` (a parameter, an assignment or loop
        target…): inside it, the name never means a project definition."""
        self.local_names.append((ts.start_byte, name))

    def local_pattern(self, ts) -> None:
        """Every plain name bound by a target pattern (``a``, ``a, (b, c)``, ``[*rest]``)."""
        stack = [ts]
        while stack:
            n = stack.pop()
            if n.type in ("identifier", "shorthand_property_identifier_pattern"):
                self.local_name(n, text(n, self.own_source))
            elif n.type not in ("attribute", "subscript", "member_expression", "subscript_expression"):
                stack.extend(n.named_children)

    def base_ref(self, d: Def, kind: str, name: str, ts) -> None:
        """An ``extends`` / ``implements`` reference from the type ``d`` to ``name``."""
        self.class_refs.append((d, kind, name, ts))

    def owner_base_ref(self, owner: str, kind: str, name: str, ts) -> None:
        """An ``extends`` / ``implements`` reference from a type declared elsewhere, named ``owner``
        as written here (a Swift ``extension T: P`` in another file than ``T``, a Rust ``impl P for
        T`` away from ``T``); the resolver finds ``owner`` from this file."""
        self.out.refs.append(
            Ref(
                OWNER_SOURCE + owner,
                kind,
                name[:MAX_REF_NAME],
                ts.start_point[0] + 1,
                ts.start_point[1],
                None,
            )
        )

    def returns_fact(self, ts, expr: str) -> None:
        """What the function around ``ts`` returns: ``self``, ``var:NAME``, ``call:CALLEE``, ``unknown``."""
        self.returned.append((ts.start_byte, expr))

    def returned_expr(self, ts) -> None:
        """What a ``return`` statement gives back, when it can name a type: the instance itself, a
        local variable (typed elsewhere), or a call (a constructor or another function's return)."""
        expr = ts.named_children[0] if ts.named_child_count else None
        if expr is None:
            self.returned.append((ts.start_byte, "none"))
            return
        t = expr.type
        if t in ("identifier", "this"):
            name = text(expr, self.own_source)
            self.returned.append((ts.start_byte, "self" if name in self.lang.self_names else f"var:{name}"))
        elif t in ("call", "call_expression", "new_expression"):
            fn = expr.child_by_field_name("function") or expr.child_by_field_name("constructor")
            callee = dotted(fn, self.own_source) if fn is not None else None
            if callee in self.lang.self_type_exprs or callee == "type":
                self.returned.append((ts.start_byte, "self"))
            elif callee:
                self.returned.append((ts.start_byte, f"call:{callee}"))
            else:
                self.returned.append((ts.start_byte, "unknown"))
        else:
            self.returned.append((ts.start_byte, "unknown"))

    def import_node(self, statement, module: str) -> str:
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
                signature=squash(text(statement, self.own_source)),
            )
        )
        self.out.contains.append((self.file_id, nid))
        return nid

    def bind(
        self, statement, local: str, module: str, imported: str, *, reexport: bool = False, node: str = ""
    ) -> None:
        """An import binding: ``local`` names ``imported`` of ``module`` (``*`` a whole module, ``""``
        a side-effect import). The import node is created for ``statement`` when ``node`` is empty."""
        nid = node or self.import_node(statement, module)
        line, col = statement.start_point[0] + 1, statement.start_point[1]
        self.out.imports.append(ImportBinding(local, module, imported, line, col, nid, reexport))


def extract(path: str, source: bytes, language: str, grammar: str | None = None) -> FileExtraction:
    """Extract symbols, contains pairs, import bindings and references from one file.

    Args:
        path: POSIX path relative to the project root (used in ids and qualified names).
        source: the file's bytes (decoded by tree-sitter as UTF-8; invalid bytes are tolerated).
        language: the label stored in ``nodes.language`` (a registered language's label).
        grammar: unused; kept for callers that pass the grammar name (the language module knows it).

    Returns:
        A :class:`FileExtraction`; ``errors`` notes syntax errors (extraction is then partial).

    Raises:
        KeyError: ``language`` is not a registered language.
        TooDeep: the file nests deeper than the extractor's recursion reaches (a member chain or
            nested expression thousands of levels deep, as generated code has).
    """
    from codegraph.index.languages import module_for

    lang = module_for(language)
    try:
        return lang.extractor(path, source, lang).run()
    except RecursionError:
        raise TooDeep(path) from None


class TooDeep(ValueError):
    """A file's syntax tree nests deeper than extraction can follow (Python's recursion limit): 3,000
    chained calls ``x.a0.a1…()`` on separate lines ended the whole index run in 11 languages' modules."""

    reason = "nested too deeply to extract"
