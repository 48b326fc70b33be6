"""Pascal / Delphi / Free Pascal: ``.pas``, ``.pp``, ``.dpr``, ``.lpr`` files.

A unit is a file (``unit Contnrs;`` in ``contnrs.pp``); ``uses A, B;`` brings every name of those
units' interfaces into scope and binds the unit names themselves (``Geo.Distance(…)``), resolved by
unit name to the project file of that name (case-insensitive; the importing file's directory first,
then a unique file anywhere). Types are ``class`` (and ``object``) → class, ``record`` → struct,
``interface`` → interface; the first parent of a class is its superclass (``extends``), the rest
interfaces (``implements``). Routines implemented outside their class (``procedure TFoo.Bar;`` in
the implementation section) are methods of ``TFoo``; their declaration in the class (and a unit
routine's forward declaration in the interface section) gives way to the implementation. Inside a
method, bare names are members of the class and its ancestors first; ``inherited Create`` is the
ancestors' member. A statement that is only a name (``Free;``, ``List.Clear;``) is a call, as
Pascal calls routines without parentheses; a call of a type name is a typecast, not a call.
``{$I file.inc}`` include files are not followed. Pascal is case-insensitive: a name spelled unlike
every definition of it resolves as the one spelling the project defines (``rewrite_ref``).
Overloads (``overload;``) are told apart by argument count, else left unresolved.
"""

from __future__ import annotations

import posixpath
from dataclasses import replace

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

TYPE_KINDS = {"kClass": "class", "kObject": "class", "kRecord": "struct", "kInterface": "interface"}
BUILTINS = frozenset(
    """WriteLn Write ReadLn Read Inc Dec Length SetLength High Low Ord Chr Assigned FreeAndNil Exit Break
    Continue Format IntToStr StrToInt StrToIntDef FloatToStr Copy Pos Delete Insert Trim UpperCase
    LowerCase Sqr Sqrt Abs Round Trunc SizeOf New Dispose GetMem FreeMem ReallocMem Move FillChar Halt
    Assert Succ Pred Include Exclude Concat Val Str Random Randomize Assign Reset Rewrite Close EOF
    Append CompareText CompareStr SameText AnsiCompareText Odd Swap Ptr Addr TypeInfo Default
    Initialize Finalize FreeMem Result Self nil True False""".split()
)

LOWER_BUILTINS: dict[str, set[str]] = {}
for _b in BUILTINS:
    LOWER_BUILTINS.setdefault(_b.lower(), set()).add(_b)


def _ident_chain(node) -> str | None:
    """``a.b.c`` for an identifier or a chain of ``exprDot`` over identifiers, else None."""
    if node is None:
        return None
    if node.type == "identifier":
        return text(node)
    if node.type in ("exprDot", "genericDot"):
        lhs, rhs = node.child_by_field_name("lhs"), node.child_by_field_name("rhs")
        left = _ident_chain(lhs)
        if left is None or rhs is None or rhs.type != "identifier":
            return None
        return f"{left}.{text(rhs)}"
    return None


def _type_name(type_node) -> str | None:
    """The type a declaration names (``TFoo``, ``Unit.TFoo``), else None."""
    if type_node is None:
        return None
    if type_node.type == "type" and type_node.named_child_count == 1:
        type_node = type_node.named_children[0]
    if type_node.type == "typeref":
        kids = [c for c in type_node.named_children if c.type == "identifier"]
        if kids and len(kids) == type_node.named_child_count:
            return ".".join(text(k) for k in kids)
        inner = type_node.named_children[0] if type_node.named_child_count == 1 else None
        return _ident_chain(inner)
    return None


def _doc(node) -> str | None:
    """The comment(s) right above a declaration (``{ … }``, ``(* … *)``, ``//`` lines)."""
    out: list[str] = []
    prev = node.prev_named_sibling
    line = node.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] >= line - 1:
        body = text(prev).strip()
        for a, b in (("{", "}"), ("(*", "*)"), ("//", "")):
            if body.startswith(a) and body.endswith(b):
                body = body[len(a) : len(body) - len(b)]
                break
        if body.startswith("$"):  # a compiler directive
            break
        out.insert(0, body.strip())
        line = prev.start_point[0]
        prev = prev.prev_named_sibling
    return squash(" ".join(out), MAX_DOCSTRING) or None


class PascalExtractor(Extractor):
    def begin(self, root) -> None:
        self._implemented: set[tuple[str, str]] = set()  # (owner lower, name lower) of defProcs
        self._forward: list[tuple[Def, str, str]] = []

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.type":
            self._type(ts)
        elif capture == "definition.proc":
            if ts.parent is not None and ts.parent.type == "defProc":
                return  # the header of an implementation: the defProc is the definition
            name = ts.child_by_field_name("name")
            if name is None or name.type != "identifier":
                return
            d = self.add_def(ts, "function", name)
            if d is not None:
                box = _enclosing_type(ts)
                self._forward.append((d, box.lower() if box else "", text(name).lower()))
                self._args(ts, ts)
        elif capture == "definition.routine":
            self._routine(ts)
        elif capture == "definition.field":
            for name in ts.children_by_field_name("name"):
                if name.type == "identifier":  # `X, Y: Double`: one field per name
                    self.add_def(name, "field", name)
                    tname = _type_name(ts.child_by_field_name("type"))
                    box = _type_node(ts)
                    if tname and box is not None:
                        self.type_fact(box, text(name), tname)
        elif capture == "definition.constant":
            if _type_node(ts) is None and _in_routine(ts) is None:
                self.add_def(ts, "constant", ts.child_by_field_name("name"))
        elif capture == "import":
            for mod in ts.named_children:
                if mod.type == "moduleName":
                    spec = text(mod).split(" in ")[0].strip()
                    self.bind(ts, "*", spec, "*")
                    self.bind(ts, spec.split(".")[-1], spec, "*")
        elif capture == "reference.call":
            self._call(ts, ts.child_by_field_name("entity"))
        elif capture == "reference.statement":
            self._call(ts, ts)
        elif capture == "reference.inherited":
            ident = next((c for c in ts.named_children if c.type == "identifier"), None)
            if ident is not None:
                self.ref(ts, "calls", f"inherited.{text(ident)}", "inherited")
        elif capture == "local.typed":
            tname = _type_name(ts.child_by_field_name("type"))
            for name in ts.children_by_field_name("name"):
                if name.type == "identifier":
                    self.local_name(ts, text(name))
                    if tname:
                        self.type_fact(ts, text(name), tname)

    def _type(self, ts) -> None:
        body = ts.child_by_field_name("type")
        name = ts.child_by_field_name("name")
        if body is None or name is None:
            return
        if body.type not in ("declClass", "declIntf"):
            if body.type in ("declEnum",):
                self.add_def(ts, "enum", name)
            return
        word = next((c.type for c in body.children if c.type in TYPE_KINDS), "kClass")
        kind = TYPE_KINDS[word]
        if not any(c.type in ("declSection", "declField", "declProc", "kEnd") for c in body.children):
            return  # `TFoo = class;`: a forward declaration
        d = self.add_def(ts, kind, name)
        if d is None:
            return
        parents = [c for c in body.children_by_field_name("parent") if c.type == "typeref"]
        for i, parent in enumerate(parents):
            pname = _type_name(parent)
            if pname:
                kind_of = "extends" if i == 0 or kind == "interface" else "implements"
                self.base_ref(d, kind_of, pname, parent)

    def _routine(self, ts) -> None:
        header = ts.child_by_field_name("header")
        name = header.child_by_field_name("name") if header is not None else None
        if name is None:
            return
        if name.type == "genericDot":
            owner = _ident_chain(name.child_by_field_name("lhs"))
            rhs = name.child_by_field_name("rhs")
            if owner is None or rhs is None:
                return
            d = self.add_def(ts, "function", rhs)
            if d is not None:
                d.owner = owner
                self._implemented.add((owner.rsplit(".", 1)[-1].lower(), text(rhs).lower()))
        else:
            d = self.add_def(ts, "function", name)
            if d is not None:
                self._implemented.add(("", text(name).lower()))
        if d is not None:
            self._args(header, ts)

    def _args(self, header, scope) -> None:
        args = header.child_by_field_name("args")
        for arg in args.named_children if args is not None else ():
            if arg.type != "declArg":
                continue
            tname = _type_name(arg.child_by_field_name("type"))
            for name in arg.children_by_field_name("name"):
                if name.type == "identifier" and scope.type == "defProc":
                    self.local_name(scope, text(name))
                    if tname:
                        self.type_fact(scope, text(name), tname)

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        """Declarations implemented in this file give way to their implementation."""
        drop = {id(d) for d, owner, name in self._forward if (owner, name) in self._implemented}
        # the comment above the declaration documents the implementation
        self._declared_doc = {
            (owner, name): d.ts for d, owner, name in self._forward if (owner, name) in self._implemented
        }
        return [d for d in defs if id(d) not in drop]

    def _call(self, ts, entity) -> None:
        name = _ident_chain(entity)
        if name is None and entity is not None and entity.type == "exprDot":
            rhs = entity.child_by_field_name("rhs")
            if rhs is not None and rhs.type == "identifier":
                name = f"<expr>.{text(rhs)}"
        if name:
            args = ts.child_by_field_name("args") if ts.type == "exprCall" else None
            count = sum(1 for c in args.named_children if c.type != "comment") if args is not None else 0
            self.ref(ts, "calls", name, name.rsplit(".", 1)[0] if "." in name else None, args=str(count))

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = _doc(ts)
        if node.docstring is None and ts.type == "defProc":
            key = ((d.owner or "").rsplit(".", 1)[-1].lower(), d.name.lower())
            decl = self._declared_doc.get(key)
            node.docstring = _doc(decl) if decl is not None else None
        header = ts.child_by_field_name("header") if ts.type == "defProc" else ts
        if node.kind in ("function", "method") and header is not None:
            args = header.child_by_field_name("args")
            sig = text(args) if args is not None else "()"
            ret = header.child_by_field_name("type")
            if ret is not None:
                sig += ": " + text(ret)
                node.return_type = squash(text(ret), 120)
            node.signature = squash(sig)
        section = ts.parent
        if section is not None and section.type == "declSection":
            word = section.named_children[0].type if section.named_child_count else ""
            node.visibility = word[1:].lower() if word.startswith("k") else None


def _param_count(signature: str | None) -> int:
    """Parameters in ``(const A, B: T; C: U): R``: names, comma separated, in ``;`` groups."""
    inner = (signature or "()").split(")", 1)[0].lstrip("(")
    return sum(len(g.split(":", 1)[0].split(",")) for g in inner.split(";") if g.strip())


def _enclosing_type(ts) -> str | None:
    box = _type_node(ts)
    if box is None:
        return None
    name = box.child_by_field_name("name")
    return text(name) if name is not None else None


def _type_node(ts):
    """The ``declType`` of the class/record a member is declared in, else None."""
    p = ts.parent
    while p is not None:
        if p.type == "declType":
            return p
        if p.type in ("defProc", "implementation", "interface", "program", "unit"):
            return None
        p = p.parent
    return None


def _in_routine(ts):
    p = ts.parent
    while p is not None and p.type != "defProc":
        p = p.parent
    return p


class Pascal(LanguageModule):
    label = "pascal"
    grammar = "pascal"
    name = "Pascal / Delphi"
    extracts = (
        "units (a file each), classes/records/interfaces/objects with fields and methods, routines"
        " implemented outside their class (TFoo.Bar) attached to it, enums, constants, comments as docs"
    )
    resolution = (
        "uses clauses by unit name (case-insensitive, own directory first), class members and ancestors"
        " inside methods, inherited X, typed variables and parameters, Unit.Name, names case-insensitive,"
        " overloads by argument count"
    )
    extensions = (".pas", ".pp", ".dpr", ".lpr")
    builtins = BUILTINS
    self_names = frozenset({"Self", "self"})
    super_names = frozenset({"inherited"})
    implicit_members = True
    unique_fallback = False  # a unit sees only what it uses
    line_comment = "//"
    extractor = PascalExtractor

    def prepare(self, project, files) -> None:
        """Unit name → files, and every defined name's spellings by its lower case."""
        units: dict[str, list[str]] = {}
        spellings: dict[str, set[str]] = {}
        for f in files:
            stem = f.path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
            units.setdefault(stem, []).append(f.path)
            for n in f.nodes:
                if n.kind not in ("file", "import"):
                    spellings.setdefault(n.name.lower(), set()).add(n.name)
        project.lang_state["pascal"] = units
        project.lang_state["pascal-names"] = spellings

    def rewrite_ref(self, project, path: str, ref):
        """Pascal is case-insensitive: a segment spelled unlike every definition of it
        (``EndianFixMoTable`` for ``Endianfixmotable``) is read as the one spelling the project
        defines; a name with two spellings, or a builtin, stays as written."""
        spellings = project.lang_state.get("pascal-names", {})
        parts = ref.name.split(".")
        local: dict[str, set[str]] = {}
        for scope in project.scopes(ref.source):
            for n in project.locals.get(scope.id, ()):
                local.setdefault(n.lower(), set()).add(n)
        changed = False
        for i, part in enumerate(parts):
            if i == 0 and part.lower() in local:  # a parameter or variable, as it was declared
                declared = local[part.lower()]
                if part not in declared and len(declared) == 1:
                    parts[0] = next(iter(declared))
                    changed = True
                continue
            if part in spellings.get(part.lower(), ()) or part in LOWER_BUILTINS.get(part.lower(), ()):
                continue
            known = spellings.get(part.lower())
            if known is not None and len(known) == 1 and part.lower() not in LOWER_BUILTINS:
                parts[i] = next(iter(known))
                changed = True
        if not changed:
            return ref
        name = ".".join(parts)
        return replace(ref, name=name, receiver=name.rsplit(".", 1)[0] if "." in name else None)

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """The file of unit ``spec``: in the importing file's directory, else the only one."""
        hits = project.lang_state.get("pascal", {}).get(spec.lower(), [])
        here = posixpath.dirname(from_path)
        near = [p for p in hits if posixpath.dirname(p) == here]
        if len(near) == 1:
            return near[0]
        return hits[0] if len(hits) == 1 else None

    def choose_overload(self, project, ref, node: Node) -> Node | None:
        """Among same-named routines of one class or unit (``overload``), the one whose parameter
        count is the call's; None when defaults or equal counts leave it open (issue 10)."""
        parent = project.parent.get(node.id)
        siblings = project.children.get(parent, {}).get(node.name, []) if parent else []
        if len(siblings) <= 1 or node.kind not in ("function", "method"):
            return node
        if ref.args is None or any("=" in (n.signature or "") for n in siblings):
            return None
        fit = [n for n in siblings if _param_count(n.signature) == int(ref.args)]
        return fit[0] if len(fit) == 1 else None

    def resolve_ref(self, project, path: str, ref):
        """A call of a type name is a typecast (``TFoo(x)``): no edge."""
        if ref.kind == "calls" and ref.receiver is None:
            target, _ = project.lookup_bare(path, ref.source, ref.name, allow_unique=False)
            if isinstance(target, Node) and target.kind in ("class", "struct", "interface", "enum"):
                return None, ""
        return None


LANGUAGES = (Pascal(),)
