"""Julia: ``.jl`` files.

Definitions: ``module`` (kind module; its members are qualified ``Shapes::area``), ``struct`` and
``mutable struct`` (their typed fields are fields; ``struct Circle <: AbstractShape`` extends),
``abstract type`` (a class marked abstract), ``function f(…) … end``, the short form ``f(x) = …``
(also with ``where`` and a return type), ``Base.show(io, x) = …`` (a method added to another
module's function: named ``show``, qualified with ``Base``), ``macro m(…)`` (a function named
``@m``). A string literal right before a definition is its docstring.

Imports: ``include("x.jl")`` pastes a file into the including module, so the two see each other's
top-level names (every file reached through ``include`` from one root is one namespace);
``using M`` / ``import M`` / ``using ..M: a, b`` / ``import .M`` name a module, which is the project
file that defines ``module M`` when there is exactly one (else a package outside the project);
``using M`` and ``using M: a`` bind its names, ``import M`` binds ``M`` itself (``M.f(…)``).
Module members are visible as the file's top-level names (most files hold one module).

Calls: ``f(…)``, ``M.f(…)``, ``Circle(…)`` (a struct: instantiates), ``@m …`` macro calls.
Multiple dispatch: the methods of one name in one namespace are one overload family. A call
binds to a method of the family only when exactly one method accepts its number of positional
arguments; otherwise it stays unresolved — dispatch is on the runtime types, so the index does
not guess. Parameters and variables assigned in a function shadow project definitions; Base
functions never bind to project definitions unless defined or imported.
"""

from __future__ import annotations

from collections import defaultdict

from codegraph.index.extract import MAX_DOCSTRING, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule, relative_file
from codegraph.model import Node

JULIA_BUILTINS = frozenset(
    """
println print show display string repr error throw isa typeof convert promote length size ndims eltype
push! pop! append! insert! deleteat! empty! resize! sort sort! reverse reverse! map map! filter filter!
reduce foldl foldr sum prod maximum minimum max min abs sqrt exp log sin cos tan round floor ceil
zeros ones fill similar copy deepcopy collect first last keys values pairs haskey get get! getindex
setindex! iterate eachindex enumerate zip isempty in any all count findfirst findall occursin
startswith endswith split join replace uppercase lowercase strip parse tryparse isnothing ismissing
something Dict Set Vector Array Tuple NamedTuple Int Float64 String Symbol Char Bool Nothing Any
rand randn range LinRange div rem mod fld cld gcd lcm hash isequal isless identity include eval
Base Core Main Meta @assert @show @time @inbounds @inline @simd @views @test @testset @info @warn
@error @debug @macroexpand @generated @eval @kwdef @enum @sprintf @printf getfield setfield! fieldnames
hasproperty getproperty setproperty! nameof methods applicable invoke ntuple vcat hcat cat
""".split()
)
CONTAINER_BODY = frozenset({"block"})


def _head_name(head):
    """(name node, supertype node) of a ``type_head``: ``Circle``, ``Box{T}``, ``A <: B``."""
    if head is None or head.named_child_count == 0:
        return None, None
    n = head.named_children[0]
    sup = None
    if n.type == "binary_expression" and n.named_child_count >= 2:
        n, sup = n.named_children[0], n.named_children[-1]
        if sup.type == "parametrized_type_expression":
            sup = sup.named_children[0]
    if n.type == "parametrized_type_expression":
        n = n.named_children[0]
    return (n if n.type == "identifier" else None), (
        sup if sup is not None and sup.type in ("identifier", "field_expression") else None
    )


def _call_of(sig):
    """The call_expression of a signature (through ``::T`` and ``where``), else None."""
    while sig is not None and sig.type in ("typed_expression", "where_expression", "signature"):
        sig = sig.named_children[0] if sig.named_child_count else None
    return sig if sig is not None and sig.type == "call_expression" else None


def _dotted(node) -> str | None:
    """``a.b.c`` for an identifier or a chain of field accesses on one."""
    if node.type == "identifier":
        return text(node)
    if node.type == "field_expression" and node.named_child_count == 2:
        left, right = node.named_children
        head = _dotted(left)
        if head is not None and right.type == "identifier":
            return f"{head}.{text(right)}"
    return None


def _positional(args) -> tuple[int, bool]:
    """(positional argument count, has a splat) of an argument list: keyword arguments (after
    ``;`` or written ``k=v``) are not counted."""
    count, splat = 0, False
    for c in args.children:
        if c.type == ";":
            break
        if not c.is_named or c.type in ("comment", "do_clause"):
            continue
        if c.type == "assignment":
            continue
        if c.type == "splat_expression":
            splat = True
        count += 1
    return count, splat


def param_range(signature: str | None) -> tuple[int, int | None] | None:
    """(fewest, most) positional arguments a method with ``signature`` (``f(a, b=2, c...; k)``)
    takes; most is None with varargs; None when there is no parameter list."""
    if not signature or "(" not in signature:
        return None
    inner, depth = signature[signature.index("(") + 1 :], 0
    cur: list[str] = []
    items: list[str] = []
    for ch in inner:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == ";" and depth == 0:
            break
        if ch == "," and depth == 0:
            items.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        items.append("".join(cur).strip())
    low, high = 0, 0
    for p in items:
        if p.endswith("..."):
            return low, None
        high += 1
        if "=" not in p:
            low += 1
    return low, high


def _is_definition_head(call) -> bool:
    """Is this call the head of a definition (``function f(x)``, ``f(x)::T where T = …``)?"""
    node, p = call, call.parent
    while (
        p is not None and p.type in ("typed_expression", "where_expression") and p.named_children[0] == node
    ):
        node, p = p, p.parent
    if p is None:
        return False
    if p.type == "signature":
        return True
    return p.type == "assignment" and p.named_children[0] == node


class JuliaExtractor(Extractor):
    def run(self):
        self._arities: dict[tuple[int, int], int | None] = {}
        self._extends: dict[int, str] = {}  # def → ``Base.show``: a method of another module's function
        out = super().run()
        for r in out.refs:
            r.arity = self._arities.get((r.line, r.col))
        return out

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.module":
            self.add_def(ts, "module", ts.child_by_field_name("name"))
        elif capture in ("definition.struct", "definition.abstract"):
            self._type(ts, capture == "definition.abstract")
        elif capture == "definition.function":
            sig = next((c for c in ts.named_children if c.type == "signature"), None)
            if sig is not None:
                self._function(ts, sig)
        elif capture == "definition.assignment":
            self._assignment(ts)
        elif capture == "definition.macro":
            sig = next((c for c in ts.named_children if c.type == "signature"), None)
            call = _call_of(sig)
            if call is not None and call.named_children[0].type == "identifier":
                self.add_def(ts, "function", None, name="@" + text(call.named_children[0]))
        elif capture == "import":
            self._import(ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.macro":
            mac = next((c for c in ts.named_children if c.type == "macro_identifier"), None)
            if mac is not None and mac.named_child_count:
                self.ref(ts, "calls", "@" + text(mac.named_children[0]), None)

    # ------------------------------------------------------------ definitions
    def _type(self, ts, abstract: bool) -> None:
        head = next((c for c in ts.named_children if c.type == "type_head"), None)
        name, sup = _head_name(head)
        if name is None:
            return
        d = self.add_def(ts, "class" if abstract else "struct", name)
        if d is None:
            return
        if sup is not None and (base := _dotted(sup)):
            self.base_ref(d, "extends", base, sup)
        body = next((c for c in ts.named_children if c.type == "block"), None)
        for c in body.named_children if body is not None else ():
            field = c.named_children[0] if c.type == "assignment" and c.named_child_count else c
            if field.type == "typed_expression" and field.named_children[0].type == "identifier":
                self.add_def(c, "field", field.named_children[0])
            elif field.type == "identifier" and c.type != "assignment":
                self.add_def(c, "field", field)

    def _function(self, ts, sig) -> None:
        call = _call_of(sig)
        if call is None:
            ident = sig.named_children[0] if sig.named_child_count else None
            if ident is not None and ident.type == "identifier":  # ``function g end``
                self.add_def(ts, "function", ident)
            return
        self._method(ts, call)

    def _method(self, ts, call) -> None:
        callee = call.named_children[0] if call.named_child_count else None
        if callee is None:
            return
        name = _dotted(callee)
        if name is None:
            return
        qualifier, _, simple = name.rpartition(".")
        d = self.add_def(ts, "function", None, name=simple)
        if d is None:
            return
        if qualifier:
            self._extends[id(d)] = name
        args = next((c for c in call.named_children if c.type == "argument_list"), None)
        for p in args.named_children if args is not None else ():
            target = p
            while (
                target.type in ("typed_expression", "assignment", "splat_expression")
                and target.named_child_count
            ):
                target = target.named_children[0]
            if target.type == "identifier":
                self.local_name(ts, text(target))

    def _assignment(self, ts) -> None:
        lhs = ts.named_children[0] if ts.named_child_count else None
        if lhs is None:
            return
        call = _call_of(lhs)
        if call is not None and lhs.type != "identifier":
            parent = ts.parent
            if parent is not None and parent.type in ("argument_list", "named_argument"):
                return
            self._method(ts, call)
            return
        if lhs.type == "identifier":
            if self._in_function(ts):
                self.local_name(ts, text(lhs))
            rhs = ts.named_children[-1]
            if rhs.type == "call_expression" and rhs.named_child_count:
                made = _dotted(rhs.named_children[0])
                if made and made.rsplit(".", 1)[-1][:1].isupper():
                    self.type_fact(ts, text(lhs), made)

    def _in_function(self, ts) -> bool:
        p = ts.parent
        while p is not None:
            if p.type in ("function_definition", "do_clause", "macro_definition"):
                return True
            if p.type == "assignment" and p.named_child_count and _call_of(p.named_children[0]) is not None:
                return True
            if p.type in ("module_definition", "source_file"):
                return False
            p = p.parent
        return False

    def _import(self, ts) -> None:
        using = ts.type == "using_statement"
        for c in ts.named_children:
            if c.type == "selected_import":
                parts = c.named_children
                if not parts:
                    continue
                module = self._module_spec(parts[0])
                if module is None:
                    continue
                nid = self.import_node(ts, module)
                for member in parts[1:]:
                    if member.type == "identifier":
                        self.bind(ts, text(member), module, text(member), node=nid)
            else:
                module = self._module_spec(c)
                if module is None:
                    continue
                nid = self.import_node(ts, module)
                local = module.lstrip(".").rsplit(".", 1)[-1]
                self.bind(ts, local, module, "*", node=nid)
                if using:
                    self.bind(ts, "*", module, "*", node=nid)

    @staticmethod
    def _module_spec(node) -> str | None:
        if node.type == "identifier":
            return text(node)
        if node.type == "import_path":
            return squash(text(node)).replace(" ", "")
        if node.type == "field_expression":
            return _dotted(node)
        return None

    # ------------------------------------------------------------ references
    def _call(self, ts) -> None:
        fn = ts.named_children[0] if ts.named_child_count else None
        if fn is None:
            return
        if _is_definition_head(ts):
            return
        name = _dotted(fn)
        if name is None:
            return
        args = next((c for c in ts.named_children if c.type == "argument_list"), None)
        if name == "include" and args is not None:
            lit = next((c for c in args.named_children if c.type == "string_literal"), None)
            content = next((c for c in lit.named_children if c.type == "content"), None) if lit else None
            if content is not None:
                nid = self.import_node(ts, text(content))
                self.bind(ts, "*", "file:" + text(content), "*", node=nid)
            return
        self.call_ref(ts, name)
        if args is not None:
            count, splat = _positional(args)
            self._arities[(ts.start_point[0] + 1, ts.start_point[1])] = None if splat else count

    # ------------------------------------------------------------ details
    def node_details(self, node: Node, d) -> None:
        ts = d.ts
        prev = ts.prev_named_sibling
        if prev is not None and prev.type == "string_literal":
            content = next((c for c in prev.named_children if c.type == "content"), None)
            if content is not None:
                node.docstring = squash(text(content), MAX_DOCSTRING) or None
        if node.kind == "class" and ts.type == "abstract_definition":
            node.is_abstract = True
        dotted = self._extends.get(id(d))
        if dotted is not None:
            node.qualified_name = node.qualified_name[: -len(node.name)] + dotted
        if node.kind in ("function", "method"):
            if ts.type == "assignment":
                head = ts.named_children[0]
            else:
                head = next((c for c in ts.named_children if c.type == "signature"), None)
            if head is not None:
                node.signature = squash(text(head))
        if node.kind in ("struct", "class"):
            head = next((c for c in ts.named_children if c.type == "type_head"), None)
            if head is not None:
                kw = "abstract type" if ts.type == "abstract_definition" else "struct"
                if ts.type == "struct_definition" and text(ts).startswith("mutable"):
                    kw = "mutable struct"
                node.signature = squash(f"{kw} {text(head)}")


class Julia(LanguageModule):
    label = "julia"
    grammar = "julia"
    name = "Julia"
    extensions = (".jl",)
    builtins = JULIA_BUILTINS
    method_containers = frozenset({"struct", "class"})
    unique_fallback = False
    line_comment = "#"
    extractor = JuliaExtractor
    extracts = (
        "modules, structs (fields, <: supertypes), abstract types, functions in long and short "
        "form, methods added to other modules' functions, macros, docstrings, signatures"
    )
    resolution = (
        "include() files share a namespace, using/import of project modules, M.f(), structs "
        "instantiate; a multiple-dispatch family binds only when one method fits the argument count"
    )

    def prepare(self, project, files) -> None:
        """Namespaces: files joined by include() (union-find); module members as top-level names;
        each (namespace, name) → its function nodes (the overload family)."""
        mine = [f.path for f in files]
        parent = {p: p for p in mine}

        def find(p):
            while parent[p] != p:
                parent[p] = parent[parent[p]]
                p = parent[p]
            return p

        for f in files:
            for b in f.imports:
                if b.module.startswith("file:"):
                    target = relative_file(f.path, b.module[5:])
                    if target in parent:
                        parent[find(target)] = find(f.path)
        modules: dict[str, list[str]] = defaultdict(list)
        for f in files:
            top = project.top[f.path]
            stack = [n for nodes in list(top.values()) for n in nodes if n.kind == "module"]
            for m in stack:
                modules[m.name].append(f.path)
            while stack:
                mod = stack.pop()
                for name, members in project.children.get(mod.id, {}).items():
                    for m in members:
                        if m.kind == "import":
                            continue
                        bucket = top.setdefault(name, [])
                        if m not in bucket:
                            bucket.append(m)
                        if m.kind == "module":
                            modules[m.name].append(f.path)
                            stack.append(m)
        families: dict[tuple[str, str], list[Node]] = defaultdict(list)
        for f in files:
            group = find(f.path)
            for name, nodes in project.top[f.path].items():
                for n in nodes:
                    if n.kind == "function":
                        families[(group, name)].append(n)
        project.lang_state["julia"] = {
            "group": {p: find(p) for p in mine},
            "modules": modules,
            "families": families,
        }

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        state = project.lang_state["julia"]
        if spec.startswith("file:"):
            target = relative_file(from_path, spec[5:])
            return target if target in project.files else None
        name = spec.lstrip(".").rsplit(".", 1)[-1]
        hits = sorted(set(state["modules"].get(name, ())))
        return hits[0] if len(hits) == 1 else None

    def visible_files(self, project, path: str) -> list[str]:
        state = project.lang_state["julia"]
        group = state["group"].get(path)
        if group is None:
            return []
        return [p for p, g in state["group"].items() if g == group and p != path]

    def choose_overload(self, project, ref, node: Node) -> Node | None:
        """Multiple dispatch: among the methods of ``node``'s name in its namespace, the one that
        accepts the call's positional argument count; None when several (or none) do."""
        if node.kind != "function" or project.lang.get(node.file_path) is not self:
            return node
        state = project.lang_state["julia"]
        group = state["group"].get(node.file_path)
        family = state["families"].get((group, node.name), [node])
        if node not in family:
            family = [*family, node]
        if len(family) == 1:
            return node
        if ref.arity is None:
            return None
        fits = []
        for n in family:
            r = param_range(n.signature)
            if r is None or (r[0] <= ref.arity and (r[1] is None or ref.arity <= r[1])):
                fits.append(n)
        return fits[0] if len(fits) == 1 else None


LANGUAGES = (Julia(),)
