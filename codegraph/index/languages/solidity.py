"""Solidity: ``.sol`` files.

Contracts are classes, interfaces interfaces, libraries modules (their functions are called
``Lib.f(x)``); structs, enums, custom value types (``type P is uint128``), events, errors and
modifiers are symbols of their contract or of the file. ``import "./x.sol";`` brings in every
top-level name of ``x.sol`` (and what it imports, transitively, as solc does); ``import {A as B}
from "…"`` binds names; ``import "…" as M`` binds a module. A path that is not relative
(``@openzeppelin/contracts/token/ERC20/ERC20.sol``) is a remapped package path: it names the one
project file ending with its longest suffix of at least two segments (a package indexed from its
own root). ``contract C is A, B`` gives ``extends`` (``implements`` for an interface); bases are
kept right to left, so member lookup follows solc's C3 linearisation (``super.f()`` included).
``using L for T`` attaches ``L``'s functions to receivers declared as ``T`` (``*`` any) in that
contract or file, as solc scopes it (not inherited). A call of a contract or interface name is a
type conversion, not a construction: ``IERC20(t).transfer(…)`` calls the interface's member;
``new C()`` instantiates, a struct literal ``S(…)`` too. Globals (``require``, ``keccak256``,
``abi.encode``, ``msg.sender``…) never bind to project code.
"""

from __future__ import annotations

import posixpath

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule, relative_file
from codegraph.model import Node

USING = "using:"  # a type fact ``using:<T>`` → library: ``using L for T`` in that scope
GLOBALS = frozenset(
    "require assert revert keccak256 sha256 ripemd160 ecrecover addmod mulmod selfdestruct blockhash"
    " blobhash gasleft type abi msg block tx bytes string address payable this super now".split()
)
CONTAINERS = {
    "contract_declaration": "class",
    "interface_declaration": "interface",
    "library_declaration": "module",
}
FUNCTION_NAMES = {"constructor_definition": "constructor"}


def _doc(node) -> str | None:
    """The NatSpec comment (``///`` lines or one ``/** … */``) right before a declaration."""
    lines: list[str] = []
    prev = node.prev_sibling
    while prev is not None and prev.type == "comment":
        body = text(prev)
        if body.startswith("///"):
            lines.insert(0, body[3:].strip())
        elif body.startswith("/**"):
            inner = [ln.strip().lstrip("*").strip() for ln in body[3:-2].splitlines()]
            lines[:0] = [ln for ln in inner if ln]
            break
        else:
            break
        if prev.prev_sibling is None or prev.prev_sibling.end_point[0] + 1 < prev.start_point[0]:
            break
        prev = prev.prev_sibling
    return squash(" ".join(lines), MAX_DOCSTRING) or None


def _type_text(type_node) -> str | None:
    """``T`` / ``L.T`` of a ``type_name`` naming a user-defined or elementary type; None for
    mappings, arrays and function types."""
    if type_node is None or type_node.named_child_count != 1:
        return None
    inner = type_node.named_children[0]
    if inner.type == "user_defined_type":
        return ".".join(text(c) for c in inner.named_children if c.type == "identifier")
    if inner.type == "primitive_type":
        return text(inner)
    return None


def _unwrap(node):
    """The node an ``expression`` wrapper holds."""
    while node is not None and node.type == "expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _last_operand(node):
    """The grammar binds ``.`` looser than binary and ternary operators (``a || super.f(x)``
    parses as ``(a || super).f(x)``): the operand the member access really applies to."""
    node = _unwrap(node)
    while node is not None and node.type in ("binary_expression", "ternary_expression"):
        nxt = node.child_by_field_name("right") if node.type == "binary_expression" else None
        if nxt is None:
            nxt = node.named_children[-1] if node.named_child_count else None
        node = _unwrap(nxt)
    return node


class SolidityExtractor(Extractor):
    def begin(self, root) -> None:
        self._containers: list[tuple[int, int]] = []

    def handle(self, capture: str, ts) -> None:
        if capture in ("definition.class", "definition.interface", "definition.module"):
            self._container(ts, capture.split(".", 1)[1])
        elif capture == "definition.function":
            name = ts.child_by_field_name("name")
            fixed = FUNCTION_NAMES.get(ts.type)
            if ts.type == "fallback_receive_definition":
                fixed = "receive" if text(ts).lstrip().startswith("receive") else "fallback"
            d = self.add_def(ts, "function", name, name=fixed if name is None else None)
            if d is not None:
                self._params(ts)
        elif capture == "definition.variable":
            kind = "constant" if any(c.type == "constant" for c in ts.children) else "variable"
            name = ts.child_by_field_name("name")
            if self.add_def(ts, kind, name) is not None:
                tname = _type_text(ts.child_by_field_name("type"))
                box = (
                    ts.parent.parent if ts.parent is not None and ts.parent.type == "contract_body" else None
                )
                if tname:
                    self.type_fact(box if box is not None else ts.parent, text(name), tname)
        elif capture == "definition.enum_member":
            self.add_def(ts, "enum_member", None, name=text(ts))
        elif capture.startswith("definition."):
            self.add_def(ts, capture.split(".", 1)[1], ts.child_by_field_name("name"))
        elif capture == "import":
            self._import(ts)
        elif capture == "using":
            self._using(ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.emit":
            self._named_call(ts, ts.child_by_field_name("name"))
        elif capture == "reference.revert":
            self._named_call(ts, ts.child_by_field_name("error"))
        elif capture == "reference.modifier":
            self._modifier(ts)
        elif capture == "reference.type":
            parent = ts.parent
            skip = ("inheritance_specifier", "using_alias")
            if parent is not None and parent.type not in skip and not _in_new(ts):
                name = ".".join(text(c) for c in ts.named_children if c.type == "identifier")
                if name:
                    self.call_ref(ts, name, "references")
        elif capture == "local.typed":
            name = ts.child_by_field_name("name")
            if name is not None:
                self.local_name(ts, text(name))
                tname = _type_text(ts.child_by_field_name("type"))
                if tname:
                    self.type_fact(ts, text(name), tname)

    # ------------------------------------------------------------ definitions
    def _container(self, ts, kind: str) -> None:
        d = self.add_def(ts, kind, ts.child_by_field_name("name"))
        if d is None:
            return
        bases = [c for c in ts.children if c.type == "inheritance_specifier"]
        # right to left: solc linearises the most derived base first (C3 over the reversed list)
        for spec in reversed(bases):
            ancestor = spec.child_by_field_name("ancestor")
            if ancestor is None:
                continue
            name = ".".join(text(c) for c in ancestor.named_children if c.type == "identifier")
            self.base_ref(d, "extends", name, ancestor)
            if spec.child_by_field_name("ancestor_arguments") is not None:  # `is A(1)`: A's constructor
                self.ref(ancestor, "calls", f"{name}.constructor", name)

    def _params(self, fn) -> None:
        for c in fn.children:
            if c.type in ("parameter", "event_parameter", "error_parameter"):
                pname = c.child_by_field_name("name")
                tname = _type_text(c.child_by_field_name("type"))
                if pname is not None and tname and c.type == "parameter":
                    self.type_fact(c, text(pname), tname)

    # ------------------------------------------------------------ imports
    def _import(self, ts) -> None:
        source = ts.child_by_field_name("source")
        if source is None:
            return
        spec = text(source).strip("\"'")
        names = [c for c in ts.children if c.type == "identifier"]
        alias_nodes = ts.children_by_field_name("alias")
        imported = ts.children_by_field_name("import_name")
        if imported:
            # import {A, B as C} from "x": pairs of import_name and the alias after it
            kids = list(ts.children)
            for node in imported:
                i = kids.index(node)
                local = node
                if i + 2 < len(kids) and text(kids[i + 1]) == "as":
                    local = kids[i + 2]
                self.bind(ts, text(local), spec, text(node))
        elif alias_nodes:  # import "x" as M;  import * as M from "x";
            self.bind(ts, text(alias_nodes[-1]), spec, "*")
        elif not names:  # import "x";  every top-level name of x
            self.bind(ts, "*", spec, "*")
        else:
            self.import_node(ts, spec)

    def _using(self, ts) -> None:
        target = ts.child_by_field_name("source")
        tname = "*" if target is None or target.type == "any_source_type" else _type_text(target)
        if tname is None:
            return
        libs = [c for c in ts.named_children if c.type == "type_alias"]
        funcs = [c for c in ts.named_children if c.type == "using_alias"]
        box = ts.parent.parent if ts.parent is not None and ts.parent.type == "contract_body" else ts.parent
        for lib in libs:
            self.type_fact(box, USING + tname, ".".join(text(c) for c in lib.named_children))
        for fn in funcs:  # using {f, L.g} for T: single functions, kept as "=name"
            self.type_fact(box, USING + tname, "=" + text(fn).strip())

    # ------------------------------------------------------------ references
    def _callee(self, fn) -> str | None:
        """The dotted name a call's function expression stands for: ``f``, ``a.b.f``,
        ``IERC20().f`` (a conversion), ``<expr>.f`` after anything else; None for builtin casts."""
        fn = _unwrap(fn)
        if fn is None:
            return None
        if fn.type == "identifier":
            return text(fn)
        if fn.type == "struct_expression":  # f{value: v}(…): call options
            return self._callee(fn.child_by_field_name("type"))
        if fn.type == "member_expression":
            prop = fn.child_by_field_name("property")
            obj = _last_operand(fn.child_by_field_name("object"))
            if prop is None or obj is None:
                return None
            if obj.type == "identifier":
                return f"{text(obj)}.{text(prop)}"
            if obj.type == "member_expression":
                inner = self._callee(obj)
                return f"{inner}.{text(prop)}" if inner and "(" not in inner else f"<expr>.{text(prop)}"
            if obj.type == "call_expression":
                head = _unwrap(obj.child_by_field_name("function"))
                if head is not None and head.type == "identifier":
                    return f"{text(head)}().{text(prop)}"
            return f"<expr>.{text(prop)}"
        return None

    def _call(self, ts) -> None:
        fn = ts.child_by_field_name("function")
        inner = _unwrap(fn)
        if inner is not None and inner.type == "new_expression":
            tname = _type_text(inner.child_by_field_name("name"))
            if tname:
                self.call_ref(ts, tname, "instantiates")
            return
        name = self._callee(fn)
        if name is None:
            return
        recv = name.rsplit(".", 1)[0] if "." in name else None
        arguments = [c for c in ts.children if c.type == "call_argument"]
        names = []
        for arg in arguments:  # identifier arguments: their declared types pick among overloads
            inner_arg = _unwrap(arg.named_children[0]) if arg.named_child_count == 1 else None
            names.append(text(inner_arg) if inner_arg is not None and inner_arg.type == "identifier" else "")
        args = f"{len(arguments)}|{','.join(names)}" if any(names) else str(len(arguments))
        at = ts
        if inner is not None and inner.type == "member_expression":
            obj = _unwrap(inner.child_by_field_name("object"))
            if obj is not None and obj.type in ("binary_expression", "ternary_expression"):
                at = _last_operand(obj)  # where the call really starts
        self.ref(at, "calls", name, recv, args=str(args))

    def _named_call(self, ts, expr) -> None:
        name = self._callee(expr)
        if name and "(" not in name and not name.startswith("<"):
            self.call_ref(ts, name)

    def _modifier(self, ts) -> None:
        ident = next((c for c in ts.named_children if c.type == "identifier"), None)
        if ident is None:
            return
        name = text(ident)
        fn = ts.parent
        if fn is not None and fn.type == "constructor_definition":
            # `constructor() ERC20("n", "s")`: a base contract's constructor, or a modifier
            self.ref(ts, "calls", name, None, args="ctor")
        else:
            self.call_ref(ts, name)

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = _doc(ts)
        if node.kind in ("function", "method"):
            params = [
                text(c) for c in ts.children if c.type in ("parameter", "event_parameter", "error_parameter")
            ]
            sig = "(" + ", ".join(params) + ")"
            ret = ts.child_by_field_name("return_type")
            if ret is not None:
                sig += " " + text(ret)
                node.return_type = squash(text(ret).removeprefix("returns").strip(), 120)
            node.signature = squash(sig)
            for c in ts.children:
                if c.type == "visibility":
                    node.visibility = text(c)
            node.is_abstract = ts.type == "function_definition" and ts.child_by_field_name("body") is None
        elif node.kind in ("property", "variable", "constant"):
            vis = ts.child_by_field_name("visibility")
            node.visibility = text(vis) if vis is not None else None
            value = ts.child_by_field_name("value")
            end = value.start_byte if value is not None else ts.end_byte
            node.signature = squash(self.source[ts.start_byte : end].decode("utf-8", "replace").rstrip(";= "))
        elif node.kind == "class":
            node.is_abstract = any(c.type == "abstract" or text(c) == "abstract" for c in ts.children[:1])


def _arity(node: Node) -> int | None:
    """The parameter count in a function node's signature ``(a, b) returns (…)``."""
    sig = node.signature or ""
    if not sig.startswith("("):
        return None
    depth, count, seen = 0, 0, False
    for ch in sig:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1:
            if ch == ",":
                count += 1
            elif not ch.isspace():
                seen = True
    return count + 1 if seen else 0


def _by_arity(hits: list[Node], args: int | None) -> Node | None:
    """The first of ``hits`` taking ``args`` parameters (the only one, when there is one); which
    of several it is, :meth:`Solidity.choose_overload` decides."""
    if len(hits) <= 1:
        return hits[0] if hits else None
    fit = [n for n in hits if _arity(n) == args]
    return fit[0] if fit else None


def _call_args(ref) -> tuple[int, list[str]] | None:
    """(argument count, identifier argument names or "") of a call reference, if counted."""
    if not ref.args:
        return None
    count, _, names = ref.args.partition("|")
    if not count.isdigit():
        return None
    return int(count), names.split(",") if names else [""] * int(count)


LOCATIONS = frozenset({"memory", "storage", "calldata", "indexed", "payable"})
ALIASES = {"uint": "uint256", "int": "int256", "byte": "bytes1"}


def _norm_type(value: str) -> str:
    words = [w for w in value.split() if w not in LOCATIONS]
    joined = " ".join(words)
    return ALIASES.get(joined, joined)


def _param_types(node: Node) -> list[str]:
    """The parameter types of a function node's signature, normalised (no data location)."""
    sig = node.signature or ""
    depth, cur, out = 0, "", []
    for ch in sig:
        if ch in "([":
            depth += 1
            if depth == 1:
                continue
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and ch == ",":
            out.append(cur)
            cur = ""
        elif depth >= 1:
            cur += ch
    if cur.strip():
        out.append(cur)
    types = []
    for param in out:
        words = [w for w in param.split() if w not in LOCATIONS]
        if len(words) >= 2 and words[-1].isidentifier():
            words = words[:-1]  # the parameter's name
        types.append(_norm_type(" ".join(words)))
    return types


def _in_new(ts) -> bool:
    p = ts.parent
    while p is not None and p.type == "type_name":
        p = p.parent
    return p is not None and p.type == "new_expression"


class Solidity(LanguageModule):
    label = "solidity"
    grammar = "solidity"
    name = "Solidity"
    extracts = (
        "contracts, interfaces, libraries, structs, enums, custom value types, functions, modifiers,"
        " events, errors, state variables, NatSpec docs, signatures"
    )
    resolution = (
        'import "x.sol" (transitive), import {A as B}, remapped package paths by suffix, is-bases in'
        " C3 order (super.f), using L for T, Lib.f(x), typed receivers, conversions I(x).f(), new C()"
    )
    extensions = (".sol",)
    builtins = GLOBALS
    self_names = frozenset({"this"})
    super_names = frozenset({"super"})
    constructor_names = ("constructor",)
    super_calls_constructor = True
    implicit_members = True
    unique_fallback = False  # every name a file uses is defined or imported in it
    extractor = SolidityExtractor

    def is_test_file(self, path: str) -> bool:
        """Foundry tests are ``*.t.sol``; scripts ``*.s.sol`` are not tests."""
        return path.lower().endswith(".t.sol")

    def prepare(self, project, files) -> None:
        """The suffix table for remapped import paths: path suffix (two segments or more) → files."""
        suffixes: dict[str, set[str]] = {}
        for f in files:
            parts = f.path.split("/")
            for i in range(len(parts) - 1):
                suffixes.setdefault("/".join(parts[i:]), set()).add(f.path)
        project.lang_state["solidity"] = suffixes

    def inheritance_kind(self, source: Node, target: Node, kind: str) -> str:
        """``contract C is I`` implements an interface; an interface extends an interface. Both
        stay bases: an interface's events and errors are in scope in its implementers."""
        if kind == "extends" and target.kind == "interface" and source.kind != "interface":
            return "implements"
        return kind

    def pick_overload(self, candidates: list[Node], ref) -> Node | None:
        """A member of the called arity (:meth:`choose_overload` then decides among several)."""
        counted = _call_args(ref)
        if len(candidates) == 1 or counted is None:
            return candidates[-1]
        return _by_arity(candidates, counted[0])

    def choose_overload(self, project, ref, node: Node) -> Node | None:
        """Among same-named overloads, the one whose parameter count and, where the arguments are
        variables of declared types, parameter types fit the call (a call through ``using`` passes
        its receiver as the first argument); None when that leaves several (issue 10)."""
        counted = _call_args(ref)
        if node.kind not in ("function", "method") or counted is None:
            return node
        parent = project.parent.get(node.id)
        siblings = project.children.get(parent, {}).get(node.name, []) if parent else []
        if len(siblings) <= 1:
            return node
        count, names = counted
        path = ref.source[5:] if ref.source.startswith("file:") else project.nodes[ref.source].file_path
        types = [self._declared(project, path, ref.source, n) if n else None for n in names]
        recv = ref.receiver
        if recv is not None and "." not in recv and not recv.endswith("()"):
            held = self._declared(project, path, ref.source, recv)
            if held is not None and _arity(node) == count + 1:  # through `using`
                count, types = count + 1, [held, *types]
        fit = [n for n in siblings if _arity(n) == count]
        if len(fit) > 1:
            known = [(i, _norm_type(t)) for i, t in enumerate(types) if t]
            fit = [
                n for n in fit if all(i < len(p) and p[i] == t for p in [_param_types(n)] for i, t in known)
            ]
        return fit[0] if len(fit) == 1 else None

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """A relative path from the importing file; otherwise the one file ending with the longest
        suffix (two segments at least) of the path: ``@openzeppelin/contracts/utils/Strings.sol``
        is ``utils/Strings.sol`` when the package is indexed from its root."""
        if spec.startswith("."):
            target = relative_file(from_path, spec)
            return target if target in project.files else None
        if spec in project.files:
            return spec
        suffixes = project.lang_state.get("solidity", {})
        parts = posixpath.normpath(spec).split("/")
        for i in range(len(parts) - 1):
            hits = suffixes.get("/".join(parts[i:]))
            if hits:
                return next(iter(hits)) if len(hits) == 1 else None
        return None

    def resolve_ref(self, project, path: str, ref):
        """Base-constructor calls in a constructor header, conversions of contract names, and
        library functions attached with ``using L for T``; the rest is left to the generic rules."""
        if ref.kind == "calls" and ref.args == "ctor":
            target, how = project.lookup_bare(path, ref.source, ref.name, allow_unique=False)
            if isinstance(target, Node) and target.kind in ("class", "interface"):
                ctor = project.children.get(target.id, {}).get("constructor")
                return (ctor[-1], "super") if ctor else (None, "")
            return None
        if ref.kind != "calls":
            return None
        if ref.receiver is None:
            target, _ = project.lookup_bare(path, ref.source, ref.name, allow_unique=False)
            if isinstance(target, Node) and target.kind in ("class", "interface", "module"):
                return None, ""  # Foo(addr): a conversion, not a call nor a construction
            return None
        recv = ref.receiver
        if "." in recv or recv.startswith("<") or recv in self.self_names or recv in self.super_names:
            return None
        if recv.endswith("()"):
            return None
        typed = self._declared(project, path, ref.source, recv)
        if typed is None:
            return None
        method = ref.name.rsplit(".", 1)[-1]
        counted = _call_args(ref)
        found = self._attached(project, path, ref.source, typed, method, counted[0] if counted else None)
        return (found, "using") if found is not None else None

    @staticmethod
    def _declared(project, path: str, source_id: str, var: str) -> str | None:
        """The type a variable is declared with, as written, seen from ``source_id``."""
        chain = project.scopes(source_id)
        scope_ids = [n.id for n in chain]
        cls = project.enclosing_class(source_id)
        if cls is not None:
            scope_ids += [c for c in project.mro(cls.id) if c not in scope_ids]
        for sid in [*scope_ids, f"file:{path}"]:
            names = project.types.get(sid, {}).get(var)
            if names:
                return next(iter(names)) if len(names) == 1 else None
        return None

    @staticmethod
    def _attached(project, path: str, source_id: str, typed: str, method: str, args) -> Node | None:
        """The function ``using … for`` attaches to a receiver of type ``typed`` under ``method``:
        searched in the innermost contract, then the file; None unless exactly one fits."""
        cls = project.enclosing_class(source_id)
        scopes = ([cls.id] if cls is not None else []) + [f"file:{path}"]
        short = typed.rsplit(".", 1)[-1]
        for sid in scopes:
            facts = project.types.get(sid, {})
            libs = set()
            for key in (USING + typed, USING + short, USING + "*"):
                libs.update(facts.get(key, ()))
            found = {}
            for lib in sorted(libs):
                if lib.startswith("="):
                    fname = lib[1:]
                    if fname.rsplit(".", 1)[-1] != method:
                        continue
                    target = project.resolve_dotted(path, source_id, fname)
                else:
                    box = project.resolve_dotted(path, source_id, lib)
                    hits = project.children.get(box.id, {}).get(method, []) if isinstance(box, Node) else []
                    target = _by_arity(hits, args + 1 if args is not None else None)
                if isinstance(target, Node) and target.kind in ("function", "method"):
                    found[target.id] = target
            if len(found) == 1:
                return next(iter(found.values()))
            if found:
                return None
        return None


LANGUAGES = (Solidity(),)
