"""Nix: ``.nix`` files.

A file is one expression; what it evaluates to is what ``import ./x.nix`` (or ``callPackage
./x.nix { }``) gives. The attributes of that result (through ``{ args }:``, ``let … in`` and
``with …;``) are the file's symbols, as are every ``let`` binding and the attributes of nested
attribute sets among them (``lib = { strings = { … }; }`` → ``lib::strings::…``). A binding whose
value is a function is a function; an attribute set, a module; anything else a variable.
``x = import ./x.nix …;`` binds ``x`` to that file (a directory means its ``default.nix``);
``inherit (x) a b;`` binds names of it; ``imports = [ ./a.nix ];`` and other path applications are
imports. Scoping follows Nix: a bare name means a ``let`` binding, a ``rec { }`` attribute or an
``inherit`` in an enclosing scope, never a plain attribute set's attribute, and never what ``with
e;`` brings in (unknown here) — nor a function parameter (``pkgs``, ``lib``, ``stdenv`` are
arguments: their members stay unresolved). ``x.f`` resolves when ``x`` is bound to a project file
and ``f`` is one of the attributes that file evaluates to. Builtins never bind.
"""

from __future__ import annotations

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule, relative_file
from codegraph.model import Node

BUILTINS = frozenset(
    """import builtins map toString throw abort derivation baseNameOf dirOf isNull removeAttrs
    fetchTarball fetchGit fetchurl placeholder scopedImport true false null""".split()
)
SETS = ("attrset_expression", "rec_attrset_expression")
# where a binding sits: a let block, a rec set (both lexically visible), or a plain set
LET, REC = "let", "rec"
IMPORTERS = frozenset({"import", "callPackage", "callPackages", "scopedImport"})


def _unwrap(node):
    """The expression a file or a binding evaluates to, through ``args:``, ``let … in``, ``with
    e;``, ``assert c;`` and parentheses."""
    while node is not None:
        if node.type == "function_expression":
            node = node.child_by_field_name("body")
        elif node.type in ("let_expression", "with_expression", "assert_expression"):
            node = node.child_by_field_name("body")
        elif node.type == "parenthesized_expression":
            node = node.child_by_field_name("expression")
        else:
            return node
    return None


def _dotted(node) -> str | None:
    """``a`` / ``a.b.c`` for a variable or a select over plain attribute names, else None."""
    if node is None:
        return None
    if node.type == "variable_expression":
        return text(node.child_by_field_name("name"))
    if node.type == "select_expression" and node.child_by_field_name("default") is None:
        head = _dotted(node.child_by_field_name("expression"))
        path = node.child_by_field_name("attrpath")
        attrs = path.children_by_field_name("attr") if path is not None else []
        if head is None or not attrs or any(a.type != "identifier" for a in attrs):
            return None
        return ".".join([head, *(text(a) for a in attrs)])
    return None


def _path_spec(node) -> str | None:
    """The text of a relative path expression (``./x.nix``, ``../lib``), else None."""
    if node is None or node.type != "path_expression":
        return None
    value = text(node)
    return value if value.startswith(("./", "../")) and "${" not in value else None


def _imported_path(node) -> str | None:
    """The path ``import ./x.nix``, ``callPackage ./x.nix { }`` or ``pkgs.callPackage ./x { }``
    loads, when ``node`` (an application) is one."""
    while node is not None and node.type == "apply_expression":
        fn = node.child_by_field_name("function")
        name = _dotted(fn)
        if name is not None and name.rsplit(".", 1)[-1] in IMPORTERS:
            return _path_spec(node.child_by_field_name("argument"))
        node = fn
    return None


def _doc(node) -> str | None:
    prev = node.prev_named_sibling
    if prev is None or prev.type != "comment" or prev.end_point[0] < node.start_point[0] - 1:
        return None
    body = text(prev).strip()
    if body.startswith("/*"):
        body = body[2:-2].lstrip("*")
        body = " ".join(ln.strip().lstrip("*").strip() for ln in body.splitlines())
    else:
        lines: list[str] = []
        while prev is not None and prev.type == "comment" and text(prev).startswith("#"):
            lines.insert(0, text(prev).lstrip("#").strip())
            nxt = prev
            prev = prev.prev_named_sibling
            if prev is not None and prev.end_point[0] < nxt.start_point[0] - 1:
                break
        body = " ".join(lines)
    return squash(body, MAX_DOCSTRING) or None


class NixExtractor(Extractor):
    def begin(self, root) -> None:
        self._where: dict[int, str | None] = {}  # id(Def) -> LET / REC / None
        self._imports: dict[str, str] = {}  # let name -> the file spec it imports
        self._handled: set[int] = set()  # start bytes of binding values whose import is recorded
        result = _unwrap(root.child_by_field_name("expression"))
        if result is not None and result.type in SETS:
            self._set(result, REC if result.type == "rec_attrset_expression" else None)
        stack = [root]
        while stack:
            n = stack.pop()
            if n.type == "let_expression":
                bset = next((c for c in n.named_children if c.type == "binding_set"), None)
                if bset is not None:
                    self._bindings(bset, LET)
            elif n.type == "apply_expression":
                spec = _imported_path(n)
                if spec is not None and n.start_byte not in self._handled:
                    self.bind(n, "", spec, "")
                    self._handled.add(n.start_byte)
            elif n.type == "binding" and _binding_name(n) == "imports":
                value = n.child_by_field_name("expression")
                for el in (
                    value.named_children if value is not None and value.type == "list_expression" else ()
                ):
                    spec = _path_spec(el)
                    if spec is not None:
                        self.bind(el, "", spec, "")
            stack.extend(reversed(n.named_children))

    def _set(self, node, where: str | None) -> None:
        bset = next((c for c in node.named_children if c.type == "binding_set"), None)
        if bset is not None:
            self._bindings(bset, where)

    def _bindings(self, bset, where: str | None) -> None:
        for b in bset.named_children:
            if b.type == "binding":
                self._binding(b, where)
            elif b.type in ("inherit", "inherit_from") and where in (LET, REC):
                self._inherit(b)

    def _binding(self, b, where: str | None) -> None:
        name = _binding_name(b)
        value = b.child_by_field_name("expression")
        if not name or value is None:
            return
        spec = _imported_path(value)
        if spec is not None:
            self._handled.add(value.start_byte)
        if spec is not None and where == LET and "." not in name:
            self.bind(b, name, spec, "*")
            self._imports[name] = spec
            return
        inner = value
        while inner is not None and inner.type == "parenthesized_expression":
            inner = inner.child_by_field_name("expression")
        if inner is not None and inner.type == "function_expression":
            kind = "function"
        elif inner is not None and inner.type in SETS:
            kind = "module"
        else:
            kind = "variable"
        d = self.add_def(b, kind, None, name=name)
        if d is None:
            return
        self._where[id(d)] = where
        if spec is not None:
            self.bind(value, "", spec, "")
        if kind == "module":
            self._set(inner, REC if inner.type == "rec_attrset_expression" else None)

    def _inherit(self, b) -> None:
        attrs = b.child_by_field_name("attrs")
        names = [text(a) for a in attrs.named_children if a.type == "identifier"] if attrs is not None else []
        if b.type == "inherit_from":
            source = _dotted(b.child_by_field_name("expression"))
            spec = self._imports.get(source or "")
            if spec is None:
                spec = _imported_path(b.child_by_field_name("expression"))
            for name in names:
                if spec is not None:
                    self.bind(b, name, spec, name)

    def handle(self, capture: str, ts) -> None:
        if capture == "reference.call":
            fn = ts.child_by_field_name("function")
            if fn is None or fn.type == "apply_expression":
                return  # `f a b`: one call, recorded at the application of `f`
            name = _dotted(fn)
            if name and not (name.rsplit(".", 1)[-1] in IMPORTERS and _imported_path(ts) is not None):
                self.call_ref(ts, name)  # an import is an import edge, not a call
        elif capture == "local.params":
            body = ts.child_by_field_name("body")
            scope = body if body is not None else ts
            universal = ts.child_by_field_name("universal")
            if universal is not None:
                self.local_name(scope, text(universal))
            formals = ts.child_by_field_name("formals")
            for f in formals.named_children if formals is not None else ():
                if f.type == "formal":
                    n = f.child_by_field_name("name")
                    if n is not None:
                        self.local_name(scope, text(n))
            for c in ts.named_children:  # `{ … }@args`
                if c.type == "identifier":
                    self.local_name(scope, text(c))

    def node_details(self, node: Node, d: Def) -> None:
        node.docstring = _doc(d.ts)
        where = self._where.get(id(d))
        node.visibility = where  # "let" / "rec": lexically visible; None: a plain attribute
        node.is_exported = where != LET
        value = d.ts.child_by_field_name("expression")
        if node.kind == "function" and value is not None:
            params = []
            fn = value
            while fn is not None and fn.type == "function_expression":
                formals = fn.child_by_field_name("formals")
                universal = fn.child_by_field_name("universal")
                params.append(text(formals) if formals is not None else text(universal))
                fn = fn.child_by_field_name("body")
            node.signature = squash(": ".join(params) + ":")


def _binding_name(b) -> str | None:
    path = b.child_by_field_name("attrpath")
    if path is None:
        return None
    attrs = path.children_by_field_name("attr")
    if not attrs or any(a.type != "identifier" for a in attrs):
        return None
    return ".".join(text(a) for a in attrs)


class Nix(LanguageModule):
    label = "nix"
    grammar = "nix"
    name = "Nix"
    extracts = (
        "the attributes a file evaluates to, let bindings, nested attribute sets as modules, functions"
        " with their parameters, import / callPackage / imports = [ … ] paths, comments as docs"
    )
    resolution = (
        "lexical: let bindings, rec attributes and inherit in enclosing scopes (never plain attributes,"
        " with-scopes or parameters); x = import ./x.nix then x.f to that file's attributes"
    )
    extensions = (".nix",)
    builtins = BUILTINS
    unique_fallback = False
    line_comment = "#"
    extractor = NixExtractor

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """A path relative to the importing file; a directory is its ``default.nix``."""
        target = relative_file(from_path, spec)
        if target in project.files:
            return target
        target = f"{target}/default.nix"
        return target if target in project.files else None

    def resolve_ref(self, project, path: str, ref):
        """Nix scoping (see the module docstring): a bare name must be a let/rec binding or an
        inherit; ``x.f`` through an import binding reaches only the attributes the file exports."""
        if ref.kind != "calls":
            return None
        if ref.receiver is None:
            target, how = project.lookup_bare(path, ref.source, ref.name, allow_unique=False)
            if isinstance(target, Node) and (target.visibility in (LET, REC) or how == "import"):
                return (target, how) if target.kind == "function" else (None, "")
            return None, ""
        head = ref.name.split(".", 1)[0]
        if head not in project.bindings.get(path, {}):
            local, _ = project.lookup_bare(path, ref.source, head, allow_unique=False)
            if not (isinstance(local, Node) and local.visibility in (LET, REC) and local.kind == "module"):
                return None, ""  # a parameter (pkgs, lib), a with-scope name, or a builtin
        target = project.resolve_dotted(path, ref.source, ref.name)
        if isinstance(target, Node) and target.kind == "function" and target.visibility != LET:
            return target, "import" if head in project.bindings.get(path, {}) else "qualified"
        return None, ""


LANGUAGES = (Nix(),)
