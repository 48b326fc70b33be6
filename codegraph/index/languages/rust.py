"""Rust: ``.rs``.

A crate is a tree of modules rooted at ``src/lib.rs`` / ``src/main.rs`` (or a file of its own under
``src/bin/``, ``tests/``, ``examples/``, ``benches/``, and ``build.rs``); ``mod foo;`` in a file F
names ``foo.rs`` or ``foo/mod.rs`` beside F when F owns its directory (a crate root or ``mod.rs``),
else under ``F``'s own directory (``a/b.rs`` → ``a/b/foo.rs``). Paths start at ``crate``, ``self``,
``super`` (repeatable), a crate of the workspace (the folder holding ``src/``, ``-`` read as ``_``)
or a name in scope. ``use`` trees bind names; ``impl Type`` / ``impl Trait for Type`` blocks give
their functions to ``Type`` (``Type::method``) and, when ``Type`` is defined in the same file, an
``implements`` edge to the trait. ``self`` / ``Self`` mean the impl's type (or the trait, in a
default method). Calls inside macro arguments (``println!("{}", x.f())``, ``assert!(g())``) are read
by parsing the macro's token tree as expressions. Docs are the ``///`` / ``/** */`` comments above
an item. A bare name resolves only through scopes, ``use`` and the file (Rust names are always in
scope explicitly), never by a project-wide unique name.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule, parsed_manifests
from codegraph.model import Node

if TYPE_CHECKING:
    import tree_sitter

# The prelude, primitive types and std names that appear bare in calls and paths.
BUILTINS = frozenset(
    """
Some None Ok Err Box Vec String Option Result drop Default Clone Copy Send Sync Sized From Into Iterator
IntoIterator DoubleEndedIterator ExactSizeIterator Extend ToString ToOwned AsRef AsMut PartialEq Eq PartialOrd
Ord Fn FnMut FnOnce Drop Debug Display Hash std core alloc u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128
isize f32 f64 bool char str Self self super crate panic assert assert_eq assert_ne debug_assert print
println eprint eprintln format write writeln vec matches unreachable todo unimplemented dbg
""".split()
)
# Bounds that say nothing about which methods a generic has (``T: Area + Clone`` means Area).
MARKER_TRAITS = frozenset(
    "Clone Copy Send Sync Sized Unpin Debug Display Default PartialEq Eq PartialOrd Ord Hash".split()
)
# Wrappers that deref to what they hold: ``x: Box<Foo>`` calls Foo's methods.
_LIFETIME = re.compile(r"'\w+\s*")
SMART_POINTERS = frozenset({"Box", "Arc", "Rc"})
# Macros whose arguments are not expressions.
OPAQUE_MACROS = frozenset({"macro_rules", "include", "include_str", "include_bytes", "concat", "stringify"})
ROOT_DIRS = ("tests", "examples", "benches")
PATH_HEADS = frozenset({"crate", "super"})
# Item-level macros whose ``{ … }`` body is plain items (``cfg_rt! { impl Handle { … } }`` in tokio,
# ``pin_project! { pub struct S { #[pin] f: F } }``): read as if the items stood there themselves.
ITEM_MACROS = frozenset({"pin_project", "feature"})
ITEM_MACRO_PREFIX = "cfg_"
MAX_UNWRAP_PASSES = 4
_WRAP = {b"(": (b"fn __cg() { __cg", b"; }"), b"[": (b"fn __cg() { ", b"; }"), b"{": (b"fn __cg() ", b"")}


def _segments(node) -> list[str] | None:
    """``a::b::c`` (identifier / scoped_identifier / crate / self / super chains) as segments."""
    t = node.type
    if t in ("identifier", "type_identifier", "crate", "self", "super", "metavariable"):
        return [text(node)]
    if t in ("scoped_identifier", "scoped_type_identifier"):
        name = node.child_by_field_name("name")
        path = node.child_by_field_name("path")
        if name is None:
            return None
        head = _segments(path) if path is not None else []
        if head is None:
            return None
        return [*head, text(name)]
    return None


def type_name(node) -> str | None:
    """The type a type expression names, dotted (``&'a mut re_trait::Locations`` → ``re_trait.Locations``;
    ``Box<Foo>`` / ``Arc<Foo>`` / ``Rc<Foo>`` → ``Foo``); None for primitives, tuples, slices, ``dyn``…"""
    while node is not None:
        t = node.type
        if t == "reference_type":
            node = node.child_by_field_name("type")
        elif t == "generic_type":
            base = node.child_by_field_name("type")
            if base is None:
                return None
            name = type_name(base)
            args = node.child_by_field_name("type_arguments")
            if name in SMART_POINTERS and args is not None:
                inner = [a for a in args.named_children if a.type != "lifetime"]
                return type_name(inner[0]) if len(inner) == 1 else None
            return name
        elif t in ("dynamic_type", "abstract_type"):  # dyn Trait / impl Trait
            node = node.child_by_field_name("trait")
        elif t == "bounded_type":  # dyn A + Send: the one bound that names methods
            named = [type_name(c) for c in node.named_children if c.type != "lifetime"]
            named = [n for n in named if n and n not in MARKER_TRAITS]
            return named[0] if len(named) == 1 else None
        elif t in ("type_identifier", "scoped_type_identifier"):
            segs = _segments(node)
            if not segs:
                return None
            if segs[0] == "self":
                segs = segs[1:]
            return ".".join(segs) or None
        else:
            return None
    return None


def generic_bounds(*items) -> dict[str, str | None]:
    """Type parameters of ``items`` (a fn, impl or struct: ``<T: Area>`` and ``where T: Area``) →
    the one trait bound that names methods (marker traits like Clone or Send aside), else None."""
    bounds: dict[str, list[str]] = {}
    for item in items:
        if item is None:
            continue
        params = item.child_by_field_name("type_parameters")
        for p in params.named_children if params is not None else ():
            if p.type in ("type_parameter", "constrained_type_parameter"):
                name = p.child_by_field_name("name") or p.child_by_field_name("left")
                if name is None:
                    continue
                b = p.child_by_field_name("bounds")
                bounds.setdefault(text(name), []).extend(
                    n for n in (type_name(c) for c in (b.named_children if b is not None else ())) if n
                )
        where = next((c for c in item.named_children if c.type == "where_clause"), None)
        for pred in where.named_children if where is not None else ():
            left = pred.child_by_field_name("left")
            b = pred.child_by_field_name("bounds")
            if left is not None and left.type == "type_identifier" and b is not None:
                bounds.setdefault(text(left), []).extend(
                    n for n in (type_name(c) for c in b.named_children) if n
                )
    out: dict[str, str | None] = {}
    for name, traits in bounds.items():
        useful = [t for t in traits if t not in MARKER_TRAITS]
        out[name] = useful[0] if len(useful) == 1 else None
    return out


# cfg names known to be off in the build a reader means (tests and loom's model checker).
CFG_OFF = frozenset({"test", "loom", "doc", "docsrs", "miri"})


def _cfg_value(tree) -> bool | None:
    """A ``cfg(...)`` predicate's token tree, evaluated with ``test``, ``loom``… off and everything
    else (features, targets) unknown: True, False or None."""
    items = tree.named_children
    values: list[bool | None] = []
    i = 0
    while i < len(items):
        n = items[i]
        if n.type == "identifier" and i + 1 < len(items) and items[i + 1].type == "token_tree":
            op, inner = text(n), items[i + 1]
            i += 2
            args = _cfg_args(inner)
            if op == "not":
                v = args[0] if len(args) == 1 else None
                values.append(None if v is None else not v)
            elif op == "all":
                values.append(False if False in args else (True if all(a is True for a in args) else None))
            elif op == "any":
                values.append(True if True in args else (False if all(a is False for a in args) else None))
            else:
                values.append(None)
            continue
        values.append(False if n.type == "identifier" and text(n) in CFG_OFF else None)
        i += 1
        while i < len(items) and items[i].type != "identifier":  # ``feature = "x"``: skip the value
            i += 1
    return values[0] if len(values) == 1 else None


def _cfg_args(tree) -> list[bool | None]:
    """The comma-separated predicates inside ``all(..)`` / ``any(..)`` / ``not(..)``."""
    out: list[bool | None] = []
    group: list = []
    for c in [*tree.children[1:-1], None]:
        if c is None or (not c.is_named and text(c) == ","):
            if group:
                out.append(_cfg_group(group))
            group = []
        else:
            group.append(c)
    return out


def _cfg_group(nodes) -> bool | None:
    named = [n for n in nodes if n.is_named]
    if len(named) == 2 and named[0].type == "identifier" and named[1].type == "token_tree":

        class _T:  # a one-predicate tree for _cfg_value
            named_children = named

        return _cfg_value(_T)
    if len(named) == 1 and named[0].type == "identifier":
        return False if text(named[0]) in CFG_OFF else None
    return None


def cfg_off(item) -> bool:
    """Is ``item`` compiled out in a normal build (``#[cfg(test)]``, ``#[cfg(all(test, loom))]``)?"""
    prev = item.prev_named_sibling
    while prev is not None and prev.type == "attribute_item":
        attr = prev.named_children[0] if prev.named_child_count else None
        name = attr.named_children[0] if attr is not None and attr.named_child_count else None
        args = attr.child_by_field_name("arguments") if attr is not None else None
        if name is not None and text(name) == "cfg" and args is not None and _cfg_value(args) is False:
            return True
        prev = prev.prev_named_sibling
    return False


def call_chain(node) -> str | None:
    """A receiver made of calls and fields with empty argument lists (``Pool::new().get()`` →
    ``Pool.new().get()``), for the resolver's chain of return types; None for anything else."""
    t = node.type
    if t == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "generic_function":
            fn = fn.child_by_field_name("function")
        if fn is None:
            return None
        segs = _segments(fn) if fn.type in ("identifier", "scoped_identifier") else None
        base = ".".join(segs) if segs else call_chain(fn) if fn.type == "field_expression" else None
        return f"{base}()" if base else None
    if t == "field_expression":
        value, field = node.child_by_field_name("value"), node.child_by_field_name("field")
        if value is None or field is None:
            return None
        base = call_chain(value) if value.type in ("call_expression", "field_expression") else _expr(value)
        return f"{base}.{text(field)}" if base else None
    return _expr(node)


def _expr(node) -> str | None:
    """A receiver chain of names and fields (``self.m.jobs``, ``self.0``, ``c``), or a path to a
    static or const (``types::REGISTRY`` → ``types.REGISTRY``, ``self::`` dropped), else None."""
    t = node.type
    if t in ("identifier", "self"):
        return text(node)
    if t == "scoped_identifier":
        segs = _segments(node)
        if segs and segs[0] == "self" and len(segs) > 1:
            segs = segs[1:]
        return ".".join(segs) if segs and len(segs) > 1 else None
    if t == "field_expression":
        value = node.child_by_field_name("value")
        field = node.child_by_field_name("field")
        head = _expr(value) if value is not None else None
        if head is None or field is None:
            return None
        return f"{head}.{text(field)}"
    return None


def _pattern_name(node) -> str | None:
    if node is None:
        return None
    if node.type == "identifier":
        return text(node)
    if node.type == "mut_pattern":
        return _pattern_name(node.named_children[0] if node.named_child_count else None)
    return None


def _doc(ts) -> str | None:
    """The ``///`` lines or ``/** */`` block right above an item (attributes may sit between)."""
    lines: list[str] = []
    prev = ts.prev_named_sibling
    while prev is not None:
        if prev.type == "attribute_item":
            prev = prev.prev_named_sibling
            continue
        if prev.type == "line_comment":
            doc = prev.child_by_field_name("doc")
            if doc is None or prev.child_by_field_name("outer") is None:
                break
            lines.append(text(doc).strip())
        elif prev.type == "block_comment":
            raw = text(prev)
            if not raw.startswith("/**"):
                break
            body = raw[3:-2] if raw.endswith("*/") else raw[3:]
            lines.append(" ".join(s.strip().lstrip("*").strip() for s in body.splitlines()))
        else:
            break
        prev = prev.prev_named_sibling
    doc = " ".join(reversed(lines)).strip()
    return squash(doc, MAX_DOCSTRING) if doc else None


def unwrap_item_macros(source: bytes, parser) -> tuple[bytes, tree_sitter.Tree | None]:
    """``source`` with the ``name! {`` and closing ``}`` of item-level ``cfg_*!`` / ``pin_project!``
    blocks blanked out (same length, newlines kept), so the items inside parse as items. Byte offsets,
    lines and columns of everything else stay the same. Returns (those bytes, their syntax tree, or
    None when the passes ran out before one found nothing left to unwrap): the last pass parsed
    exactly the bytes returned, and the extractor reuses that tree instead of parsing them again
    (rust-tokio: 1 file in 3 was parsed twice)."""
    for _ in range(MAX_UNWRAP_PASSES):
        tree = parser.parse(source)
        spans: list[tuple[int, int]] = []
        stack = [tree.root_node]
        while stack:
            n = stack.pop()
            for c in n.children:
                if c.type in ("declaration_list", "source_file"):
                    stack.append(c)
                elif c.type in ("impl_item", "trait_item", "mod_item"):
                    body = c.child_by_field_name("body")
                    if body is not None:
                        stack.append(body)
                elif c.type == "macro_invocation":
                    macro = c.child_by_field_name("macro")
                    name = text(macro) if macro is not None else ""
                    if not (name.startswith(ITEM_MACRO_PREFIX) or name in ITEM_MACROS):
                        continue
                    tt = next((t for t in c.named_children if t.type == "token_tree"), None)
                    if tt is None or source[tt.start_byte : tt.start_byte + 1] != b"{":
                        continue
                    spans.append((c.start_byte, tt.start_byte + 1))
                    spans.append((tt.end_byte - 1, tt.end_byte))
        if not spans:
            return source, tree
        buf = bytearray(source)
        for start, end in spans:
            buf[start:end] = bytes(b if b == 0x0A else 0x20 for b in buf[start:end])
        source = bytes(buf)
    return source, None


CARGO = "Cargo.toml"


def _is_crate_root(path: str) -> bool:
    return (
        posixpath.basename(path) in ("lib.rs", "main.rs")
        and posixpath.basename(posixpath.dirname(path)) == "src"
    )


@lru_cache(maxsize=256)
def _cargo_crate(body: str) -> str | None:
    """The crate name a Cargo.toml's text gives: ``[lib] name``, else ``[package] name``, with ``-``
    as ``_`` (how ``use`` paths spell it); None for a workspace-only manifest.

    Raises:
        Exception: tomlkit's ParseError family (or ValueError) when the text is not TOML.
    """
    import tomlkit  # here: 6 ms to import, in every run, Rust or not

    doc = tomlkit.parse(body).unwrap()
    lib, package = doc.get("lib"), doc.get("package")
    name = lib.get("name") if isinstance(lib, dict) else None
    if not isinstance(name, str) and isinstance(package, dict):
        name = package.get("name")
    return name.replace("-", "_") if isinstance(name, str) and name else None


class RustExtractor(Extractor):
    def run(self):
        if b"! {" in self.source or b"!{" in self.source:
            from codegraph.index.languages import parser_for

            self.source, self.tree = unwrap_item_macros(self.source, parser_for(self.lang.grammar))
        return super().run()

    def __init__(self, path, source, lang):
        super().__init__(path, source, lang)
        self._impls: list[tuple[str, str, tree_sitter.Node]] = []  # (type name, trait name, trait node)
        self._bound: set[str] = set()
        self._inline_modules: set[str] = set()
        self._heads: dict[str, tuple[str, tree_sitter.Node]] = {}  # path head → (module, first node using it)
        self._anchor = None  # the macro invocation whose token tree is being read

    # ------------------------------------------------------------ captures
    def handle(self, capture: str, ts) -> None:
        if capture == "definition.function":
            self._function(ts)
        elif capture in ("definition.struct", "definition.union", "definition.enum", "definition.trait"):
            kind = capture.split(".", 1)[1]
            d = self.add_def(ts, kind, ts.child_by_field_name("name"))
            if d is None:
                return
            self._owner_of_item(d, ts)
            if kind in ("struct", "union"):
                self._fields(ts)
            elif kind == "trait":
                bounds = ts.child_by_field_name("bounds")
                for b in bounds.named_children if bounds is not None else ():
                    name = type_name(b)
                    if name:
                        self.base_ref(d, "extends", name, b)
        elif capture in ("definition.enum_member", "definition.type_alias"):
            self.add_def(ts, capture.split(".", 1)[1], ts.child_by_field_name("name"))
        elif capture in ("definition.constant", "definition.variable"):
            d = self.add_def(ts, capture.split(".", 1)[1], ts.child_by_field_name("name"))
            if d is not None:
                self._owner_of_item(d, ts)
                # ``pub static REGISTRY: Registry = …``: what ``types::REGISTRY.add()`` calls on
                typ = ts.child_by_field_name("type")
                tname = type_name(typ) if typ is not None else None
                if tname:
                    self._implicit_head(tname, ts)
                    self.type_fact(ts, d.name, tname)
        elif capture == "definition.module":
            name = ts.child_by_field_name("name")
            if name is None:
                return
            if ts.child_by_field_name("body") is None:  # ``mod foo;``: the file foo.rs / foo/mod.rs
                if cfg_off(ts):  # e.g. loom's mock of std, only compiled under cfg(all(test, loom))
                    return
                self.bind(ts, text(name), "self::" + text(name), "*")
                self._bound.add(text(name))
            else:
                self.add_def(ts, "module", name)
                self._inline_modules.add(text(name))
        elif capture == "impl":
            trait = ts.child_by_field_name("trait")
            owner = self._impl_owner(ts)
            if trait is not None and owner is not None:
                tname = type_name(trait)
                if tname:
                    self._impls.append((owner, tname, trait))
        elif capture == "import":
            self._use(ts)
        elif capture == "reference.call":
            self._call(ts, self._emit_at(ts))
        elif capture == "reference.new":
            self._struct_expr(ts, self._emit_at(ts))
        elif capture == "reference.macro":
            self._macro(ts)
        elif capture == "assign":
            self._let(ts)
        elif capture == "local.bind":
            self.local_name(ts, text(ts))  # for render in fs { render() }: the loop variable

    # ------------------------------------------------------------ definitions
    def _impl_owner(self, impl) -> str | None:
        """The type an impl block is for, as written (``Pool`` for ``impl<T> Pool<T>``). A trait impl
        for a type parameter, a reference, a slice or a tuple is named the way Rust spells it
        (``<&[u8] as Replacer>``): its functions stay members, never top-level names."""
        typ = impl.child_by_field_name("type")
        if typ is None:
            return None
        name = type_name(typ)
        params = impl.child_by_field_name("type_parameters")
        if name is not None and params is not None:
            generic = {
                text(p.child_by_field_name("name") or p)
                for p in params.named_children
                if p.type in ("type_parameter", "constrained_type_parameter")
            }
            if name in generic:
                name = None
        if name is not None:
            return name
        trait = impl.child_by_field_name("trait")
        if trait is None:
            return None
        return f"<{squash(_LIFETIME.sub('', text(typ)), 60)} as {squash(text(trait), 60)}>"

    def _enclosing_impl(self, ts):
        p = ts.parent
        while p is not None:
            if p.type == "impl_item":
                return p
            if p.type in ("trait_item", "mod_item", "source_file"):
                return None
            p = p.parent
        return None

    def _owner_of_item(self, d: Def, ts) -> None:
        """Items in an impl block (methods, associated consts) belong to the impl's type."""
        parent = ts.parent
        if parent is None or parent.type != "declaration_list":
            return
        impl = parent.parent
        if impl is None or impl.type != "impl_item":
            return
        owner = self._impl_owner(impl)
        if owner is not None:
            d.owner = owner
            if not owner.startswith("<"):
                self._implicit_head(owner, impl)

    def _function(self, ts) -> None:
        d = self.add_def(ts, "function", ts.child_by_field_name("name"))
        if d is None:
            return
        self._owner_of_item(d, ts)
        params = ts.child_by_field_name("parameters")
        body = ts.child_by_field_name("body")
        if params is None or body is None:
            return
        generics = generic_bounds(ts, self._enclosing_impl(ts))
        for p in params.named_children:
            if p.type != "parameter":
                continue
            name = _pattern_name(p.child_by_field_name("pattern"))
            if name:
                self.local_name(body, name)  # fn draw(render: impl Fn()) { render() }
            typ = p.child_by_field_name("type")
            tname = type_name(typ) if typ is not None else None
            if tname in generics:  # x: T with T: Trait is a Trait
                tname = generics[tname]
            if name and tname:
                self._implicit_head(tname, p)
                self.type_fact(body, name, tname)

    def _fields(self, ts) -> None:
        """``self.<field>`` types of a struct: named fields, or ``self.0``… of a tuple struct."""
        body = ts.child_by_field_name("body")
        if body is None:
            return
        generics = generic_bounds(ts)
        if body.type == "field_declaration_list":
            for f in body.named_children:
                if f.type != "field_declaration":
                    continue
                name = f.child_by_field_name("name")
                typ = f.child_by_field_name("type")
                tname = type_name(typ) if typ is not None else None
                if tname in generics:
                    tname = generics[tname]
                if name is not None and tname:
                    self._implicit_head(tname, f)
                    self.type_fact(f, "self." + text(name), tname)
        elif body.type == "ordered_field_declaration_list":
            for i, typ in enumerate(body.children_by_field_name("type")):
                tname = type_name(typ)
                if tname in generics:
                    tname = generics[tname]
                if tname:
                    self._implicit_head(tname, typ)
                    self.type_fact(typ, f"self.{i}", tname)

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        # path heads no ``use`` / ``mod`` / inline module of this file binds (all captures are seen)
        for local, (module, ts) in sorted(self._heads.items(), key=lambda kv: kv[1][1].start_byte):
            if local not in self._bound and local not in self._inline_modules:
                self._bound.add(local)
                self.bind(ts, local, module, "*", node=self.file_id)
        # ``impl Trait for Type`` with Type defined in this file: Type implements Trait.
        types: dict[str, Def] = {}
        for d in defs:
            if d.kind in ("struct", "enum", "union") and d.owner is None:
                types.setdefault(d.name, d)
        for owner, trait, node in self._impls:
            declared = types.get(owner)
            if declared is not None:
                self.base_ref(declared, "implements", trait, node)
            elif not owner.startswith("<"):  # the type is declared in another file
                self.owner_base_ref(owner, "implements", trait, node)
        # a fn declared inside a method is qualified by the method's type (``T::method::inner``)
        by_node = {(d.ts.start_byte, d.ts.end_byte): d for d in defs}
        for d in defs:
            if d.owner is not None:
                continue
            p = d.ts.parent
            while p is not None and p.type not in ("function_item", "mod_item", "source_file"):
                p = p.parent
            outer = (
                by_node.get((p.start_byte, p.end_byte))
                if p is not None and p.type == "function_item"
                else None
            )
            while outer is not None and outer.owner is None and outer.qualifier is None:
                q = outer.ts.parent
                while q is not None and q.type not in ("function_item", "mod_item", "source_file"):
                    q = q.parent
                outer = (
                    by_node.get((q.start_byte, q.end_byte))
                    if q is not None and q.type == "function_item"
                    else None
                )
            if outer is not None:
                d.qualifier = outer.owner or outer.qualifier
        return defs

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = _doc(ts)
        if (
            node.kind == "type_alias"
            and ts.type == "type_item"
            and ts.child_by_field_name("type_parameters") is None
        ):
            aliased = type_name(ts.child_by_field_name("type"))  # type Store = repo::Repo
            if aliased:
                node.return_type = aliased
        for c in ts.children:
            if c.type == "visibility_modifier":
                vis = text(c)
                node.visibility = "public" if vis == "pub" else vis
                node.is_exported = vis == "pub"
            elif c.type == "function_modifiers":
                mods = text(c).split()
                node.is_async = "async" in mods
        params = ts.child_by_field_name("type_parameters")
        if params is not None:
            names = [
                text(p.child_by_field_name("name") or p)
                for p in params.named_children
                if p.type in ("type_parameter", "constrained_type_parameter", "lifetime_parameter")
            ]
            node.type_parameters = names or None
        if ts.type == "function_signature_item":
            node.is_abstract = True
        if node.kind in ("function", "method"):
            params = ts.child_by_field_name("parameters")
            node.is_static = node.kind == "method" and not (
                params is not None and any(p.type == "self_parameter" for p in params.named_children)
            )

    # ------------------------------------------------------------ imports
    def _use(self, ts) -> None:
        if ts.type == "extern_crate_declaration":
            name = ts.child_by_field_name("name")
            alias = ts.child_by_field_name("alias")
            if name is not None:
                local = text(alias) if alias is not None else text(name)
                self.bind(ts, local, text(name), "*")
                self._bound.add(local)
            return
        arg = ts.child_by_field_name("argument")
        if arg is None or cfg_off(ts):
            return
        items: list[tuple[str, list[str], str]] = []
        self._use_tree(arg, [], items)
        if not items:
            return
        nid = self.import_node(ts, squash(text(arg), 120))
        for local, module, imported in items:
            if module and module[0] == "self":
                module = module[1:]
            self.bind(
                ts, local, "::".join(module) if module else imported, imported if module else "*", node=nid
            )
            self._bound.add(local)

    def _use_tree(self, node, prefix: list[str], out: list) -> None:
        t = node.type
        if t in ("scoped_identifier", "identifier", "crate", "super"):
            segs = _segments(node)
            if not segs:
                return
            full = prefix + segs
            if len(full) == 1:
                out.append((full[0], [], full[0]))
            else:
                out.append((full[-1], full[:-1], full[-1]))
        elif t == "self":  # ``use a::b::{self}``
            if prefix:
                out.append((prefix[-1], prefix, "*"))
        elif t == "use_as_clause":
            path = node.child_by_field_name("path")
            alias = node.child_by_field_name("alias")
            segs = _segments(path) if path is not None else None
            if not segs or alias is None:
                return
            full = prefix + segs
            if full[-1] == "self":
                full = full[:-1]
            out.append((text(alias), full[:-1], full[-1]) if len(full) > 1 else (text(alias), [], full[0]))
        elif t == "use_wildcard":
            inner = node.named_children[0] if node.named_child_count else None
            segs = _segments(inner) if inner is not None else []
            if segs is not None:
                out.append(("*", prefix + segs, "*"))
        elif t == "scoped_use_list":
            path = node.child_by_field_name("path")
            segs = _segments(path) if path is not None else []
            lst = node.child_by_field_name("list")
            if segs is None or lst is None:
                return
            for item in lst.named_children:
                self._use_tree(item, prefix + segs, out)
        elif t == "use_list":
            for item in node.named_children:
                self._use_tree(item, prefix, out)

    def _implicit_head(self, dotted: str, ts) -> None:
        """A path like ``crate::a::f``, ``super::m::T`` or ``other_crate::f`` names its first segment
        without a ``use``: bind it (once per file) so the resolver can walk the path."""
        parts = dotted.split(".")
        if len(parts) < 2:
            return
        head = parts[0]
        if head == "super":
            n = 1
            while n < len(parts) - 1 and parts[n] == "super":
                n += 1
            local = ".".join(parts[:n])
            module = "::".join(parts[:n])
        elif head == "crate" or (head[:1].islower() and head not in BUILTINS):
            local = module = head
        else:
            return
        if local not in self._heads:
            self._heads[local] = (module, self._anchor or ts)

    # ------------------------------------------------------------ references
    def _emit_at(self, ts):
        def emit(node, kind: str, name: str, recv: str | None) -> None:
            self.ref(node, kind, name, recv)

        return emit

    def _self_type(self, ts) -> str | None:
        impl = self._enclosing_impl(ts)
        owner = self._impl_owner(impl) if impl is not None else None
        return owner if owner is not None and not owner.startswith("<") else None

    def _call(self, ts, emit) -> None:
        fn = ts.child_by_field_name("function")
        if fn is None:
            return
        args = ts.child_by_field_name("arguments")
        for a in args.named_children if args is not None else ():
            # functions passed as values: .map(parse), .map(Item::price)
            segs = _segments(a) if a.type in ("identifier", "scoped_identifier") else None
            if segs and segs[0] not in ("self", "Self", "crate", "super"):
                emit(a, "value", ".".join(segs), ".".join(segs[:-1]) if len(segs) > 1 else None)
        if fn.type == "generic_function":
            fn = fn.child_by_field_name("function")
            if fn is None:
                return
        t = fn.type
        if t == "identifier":
            name: str | None = text(fn)
            if name == "__cg":
                return
            if name == "Self":  # a tuple struct's constructor inside its impl
                name = self._self_type(ts)
                if name is None:
                    return
            emit(ts, "calls", name, None)
        elif t == "scoped_identifier":
            segs = _segments(fn)
            if not segs:
                path = fn.child_by_field_name("path")
                name = fn.child_by_field_name("name")
                # ``<T as Trait>::f`` / ``Vec::<u8>::new``: the receiver is an expression
                if name is not None and path is not None and path.type == "generic_type":
                    base = type_name(path)
                    if base:
                        emit(ts, "calls", f"{base}.{text(name)}", base)
                return
            if segs[0] == "self" and len(segs) > 1:
                segs = segs[1:]
            if segs[0] == "Self" and len(segs) == 1:
                return
            name = ".".join(segs)
            self._implicit_head(name, ts)
            emit(ts, "calls", name, ".".join(segs[:-1]) if len(segs) > 1 else None)
        elif t == "field_expression":
            field = fn.child_by_field_name("field")
            value = fn.child_by_field_name("value")
            if field is None or value is None:
                return
            recv = _expr(value)
            if recv is not None and value.type == "scoped_identifier":
                self._implicit_head(recv, ts)  # crate::types::REGISTRY.add()
            if recv is None and value.type in ("call_expression", "field_expression"):
                recv = call_chain(value)  # Pool::new().get().prepare()
                recv = recv if recv and "()" in recv else None
            if recv is None:
                emit(ts, "calls", f"<expr>.{text(field)}", "<expr>")
            else:
                emit(ts, "calls", f"{recv}.{text(field)}", recv)

    def _struct_expr(self, ts, emit) -> None:
        name = ts.child_by_field_name("name")
        if name is None:
            return
        if name.type == "generic_type_with_turbofish":
            name = name.child_by_field_name("type") or name
        dotted = type_name(name)
        if dotted is None:
            return
        if dotted == "Self":
            dotted = self._self_type(ts)
            if dotted is None:
                return
        self._implicit_head(dotted, ts)
        emit(ts, "instantiates", dotted, dotted.rsplit(".", 1)[0] if "." in dotted else None)

    def _macro(self, ts) -> None:
        """Calls inside a macro's arguments: its token tree parsed as expressions."""
        macro = ts.child_by_field_name("macro")
        if macro is None or text(macro).rsplit("::", 1)[-1] in OPAQUE_MACROS:
            return
        tree = next((c for c in ts.named_children if c.type == "token_tree"), None)
        if tree is None or tree.end_byte - tree.start_byte < 3:
            return
        raw = self.source[tree.start_byte : tree.end_byte]
        wrap = _WRAP.get(raw[:1])
        if wrap is None:
            return
        prefix, suffix = wrap
        from codegraph.index.languages import parser_for

        sub = parser_for(self.lang.grammar).parse(prefix + raw + suffix)
        base_byte, base_row, base_col = tree.start_byte, tree.start_point[0], tree.start_point[1]
        skip = len(prefix)

        def emit(node, kind: str, name: str, recv: str | None) -> None:
            off = node.start_byte - skip
            if off < 0 or off >= len(raw):
                return
            nl = raw.rfind(b"\n", 0, off)
            line = base_row + raw.count(b"\n", 0, off) + 1
            col = base_col + off if nl < 0 else off - nl - 1
            self.pending_refs.append((base_byte + off, kind, name, line, col, recv, None))

        stack = [sub.root_node]
        self._anchor = self._anchor or ts
        while stack:
            n = stack.pop()
            if n.type == "call_expression":
                self._call(n, emit)
            elif n.type == "struct_expression":
                self._struct_expr(n, emit)
            elif n.type == "macro_invocation" and n.start_byte >= skip:
                continue  # nested macros: their own token trees are not parsed twice
            stack.extend(n.children)
        if self._anchor is ts:
            self._anchor = None

    def _let(self, ts) -> None:
        name = _pattern_name(ts.child_by_field_name("pattern"))
        if name is None:
            return
        self.local_name(ts, name)  # let render = || {}; render()
        typ = ts.child_by_field_name("type")
        if typ is not None:
            tname = type_name(typ)
            if tname:
                self._implicit_head(tname, ts)
                self.type_fact(ts, name, tname)
            return
        value = ts.child_by_field_name("value")
        if value is None:
            return
        if value.type == "identifier" and text(value)[:1].isupper():
            self.type_fact(ts, name, text(value))  # let r = UserRepo; (a unit struct)
            return
        if value.type == "struct_expression":
            n = value.child_by_field_name("name")
            tname = type_name(n) if n is not None else None
            if tname == "Self":
                tname = self._self_type(ts)
            if tname:
                self.type_fact(ts, name, tname)
        elif value.type == "call_expression":
            fn = value.child_by_field_name("function")
            segs = (
                _segments(fn) if fn is not None and fn.type in ("identifier", "scoped_identifier") else None
            )
            if segs:
                if segs[0] == "Self":
                    owner = self._self_type(ts)
                    if owner is None:
                        return
                    segs = [owner, *segs[1:]]
                self.type_fact(ts, name, ".".join(segs))


class Rust(LanguageModule):
    label = "rust"
    grammar = "rust"
    name = "Rust"
    extracts = (
        "functions, structs, enums and variants, unions, traits, impl methods (owned by their type), "
        "modules, consts, statics, type aliases, doc comments, signatures"
    )
    resolution = (
        "mod tree and use paths (crate/self/super, workspace crates named by Cargo.toml), self/Self to the"
        " impl type, typed params, fields and lets, Type::new() return types, calls inside macro arguments"
    )
    extensions = (".rs",)
    manifests = (CARGO,)
    builtins = BUILTINS
    self_names = frozenset({"self", "Self"})
    self_type_annotations = frozenset({"Self"})
    implements_inherits = True  # a trait's provided methods are methods of every type that impls it
    unique_fallback = False
    test_suffixes = ("_test.rs", "_tests.rs")
    extractor = RustExtractor

    # ------------------------------------------------------------ module tree
    def read_manifests(self, project, manifests: dict[str, str | None]) -> dict[str, str]:
        """Each Cargo.toml's crate name (``[lib] name``, else ``[package] name`` with ``-`` as ``_``)
        by its directory, for ``prepare``; a workspace-only manifest names no crate. One that cannot
        be read or parsed is left out, with the reason (the crate is then named after its folder)."""
        names: dict[str, str] = {}
        problems: dict[str, str] = {}
        # tomlkit raises its own ParseError family and ValueError
        read = parsed_manifests(manifests, lambda _, body: _cargo_crate(body), problems, errors=(Exception,))
        for path, name in read:
            if name:
                names[posixpath.dirname(path)] = name
        project.lang_state[CARGO] = names
        return problems

    def prepare(self, project, files) -> None:
        paths = {f.path for f in files}
        declared: dict[str, str] = project.lang_state.get(CARGO, {})
        crates: dict[str, str] = {}
        for p in sorted(paths):
            if _is_crate_root(p):
                crate_dir = posixpath.dirname(posixpath.dirname(p))
                name = declared.get(crate_dir) or posixpath.basename(crate_dir).replace("-", "_")
                if name and (name not in crates or p.endswith("lib.rs")):
                    crates[name] = p
        project.lang_state["rust"] = _Tree(paths, crates)

    def module_names(self, path: str, manifests) -> frozenset[str]:
        """A crate is named after the folder above its ``src/`` (``foo-bar/src/lib.rs``: ``foo_bar``);
        a crate root (``src/lib.rs``, ``src/main.rs``) also by its Cargo.toml's name, as ``prepare``
        reads it (``fancy-util``: ``fancy_util``). So a crate root added or removed re-resolves the
        files whose words mention either name, not the project (a Cargo.toml that changes does that)."""
        crate_dir = posixpath.dirname(posixpath.dirname(path))
        crate = posixpath.basename(crate_dir)
        names = {crate, crate.replace("-", "_")}
        body = manifests.get(posixpath.join(crate_dir, CARGO)) if _is_crate_root(path) else None
        if body is not None:
            try:
                names.add(_cargo_crate(body) or "")
            except Exception:  # not TOML: read_manifests lists it, and prepare names the crate by its folder
                pass
        return frozenset(names - {""})

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        tree: _Tree = project.lang_state["rust"]
        parts = [p for p in spec.split("::") if p]
        if not parts:
            return None
        cur: str | None
        head = parts[0]
        if head == "crate":
            cur, parts = tree.root_of(from_path), parts[1:]
        elif head == "self":
            cur, parts = from_path, parts[1:]
        elif head == "super":
            cur = from_path
            while parts and parts[0] == "super" and cur is not None:
                cur, parts = tree.parent(cur), parts[1:]
        elif tree.child(from_path, head) is not None:
            cur = from_path
        elif head in tree.crates:
            cur, parts = tree.crates[head], parts[1:]
        else:
            return None
        for part in parts:
            if cur is None:
                return None
            cur = tree.child(cur, part)
        return cur

    def package_member(self, project, path: str, name: str) -> str | None:
        return project.lang_state["rust"].child(path, name)


class _Tree:
    """The module tree of the project's Rust files, by rustc's file rules."""

    def __init__(self, paths: set[str], crates: dict[str, str]):
        self.paths = paths
        self.crates = crates
        self._parent: dict[str, str | None] = {}

    def is_root(self, path: str) -> bool:
        d, base = posixpath.split(path)
        parent = posixpath.basename(d)
        if base in ("lib.rs", "main.rs") and parent == "src":
            return True
        if parent in ROOT_DIRS or (parent == "bin" and posixpath.basename(posixpath.dirname(d)) == "src"):
            return True
        return base == "build.rs"

    def owns_dir(self, path: str) -> bool:
        return posixpath.basename(path) == "mod.rs" or self.is_root(path)

    def child(self, path: str, name: str) -> str | None:
        base = posixpath.dirname(path) if self.owns_dir(path) else path[: -len(".rs")]
        for c in (f"{base}/{name}.rs", f"{base}/{name}/mod.rs") if base else (f"{name}.rs", f"{name}/mod.rs"):
            if c in self.paths:
                return c
        return None

    def parent(self, path: str) -> str | None:
        """The module file that declares ``path`` (``a/b.rs`` → ``a.rs`` / ``a/mod.rs`` / the root)."""
        if path in self._parent:
            return self._parent[path]
        found = None
        if not self.is_root(path):
            d = posixpath.dirname(path)
            if posixpath.basename(path) == "mod.rs":
                d = posixpath.dirname(d)
            j = (lambda name: f"{d}/{name}") if d else (lambda name: name)
            for c in (j("mod.rs"), j("lib.rs"), j("main.rs"), f"{d}.rs" if d else None):
                if c and c != path and c in self.paths and self.child(c, _stem(path)) == path:
                    found = c
                    break
        self._parent[path] = found
        return found

    def root_of(self, path: str) -> str | None:
        seen = 0
        cur: str | None = path
        while cur is not None and not self.is_root(cur) and seen < 64:
            cur = self.parent(cur)
            seen += 1
        return cur


def _stem(path: str) -> str:
    base = posixpath.basename(path)
    if base == "mod.rs":
        return posixpath.basename(posixpath.dirname(path))
    return base[: -len(".rs")]


LANGUAGES = (Rust(),)
