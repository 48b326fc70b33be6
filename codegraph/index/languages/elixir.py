"""Elixir: ``.ex`` and ``.exs`` files.

The grammar makes everything a ``call``; the target's name tells a definition from a call.
``defmodule A.B`` is a module (nested ones are ``A.B.C``: the qualified name ``A.B::C``);
``defprotocol`` a protocol; ``defimpl P, for: T`` a module ``P.T`` that implements ``P``;
``def``/``defp``/``defmacro``/``defmacrop``/``defguard``/``defdelegate`` functions, one per name
and arity (clauses merged; ``b \\\\ 1`` defaults widen the arity). The signature is the head's
argument list. ``@doc``/``@moduledoc`` give docs, ``@behaviour B`` an ``implements`` edge.
Directives: ``alias A.B`` (``as:``, ``A.{B, C}``) binds the last segment, ``import A`` makes A's
functions callable bare (``only:`` limits it), ``require``/``use`` are imports. Calls: a bare
``f(x)`` is the enclosing module's ``f`` of that arity, then an imported one; ``A.B.f(x)`` goes
through aliases (and modules nested in the enclosing ones) to module ``A.B``'s ``f``; a bare call
no import explains is ``Kernel``'s when the project defines ``Kernel`` (Elixir's own sources);
``__MODULE__.f`` is this module. A pipe ``x |> f(y)`` passes one more argument. ``&f/1``
references the function, ``%A{}`` instantiates module ``A`` (a struct pattern in a head only
references it). Kernel functions elsewhere, Erlang modules (``:ets.new``) and calls on variables stay
unresolved.
"""

from __future__ import annotations

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages._overloads import split_params
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

FUNCTION_DEFS = frozenset(
    {"def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn", "defnp"}
)
PRIVATE_DEFS = frozenset({"defp", "defmacrop", "defguardp", "defnp"})
MODULE_DEFS = {"defmodule": "module", "defprotocol": "protocol", "defimpl": "module"}
DIRECTIVES = frozenset({"alias", "import", "require", "use"})
# Structure, not calls: special forms and the Kernel macros that shape code.
SPECIAL = (
    FUNCTION_DEFS
    | DIRECTIVES
    | set(MODULE_DEFS)
    | frozenset(
        """if unless case cond with for fn try receive quote unquote unquote_splicing super
        defstruct defexception defoverridable __block__ __aliases__""".split()
    )
)
KERNEL = frozenset(
    """abs apply binary_part binding bit_size byte_size ceil dbg div elem exit floor
    function_exported? get_and_update_in get_in hd inspect is_atom is_binary is_bitstring is_boolean
    is_exception is_float is_function is_integer is_list is_map is_map_key is_nil is_number is_pid
    is_port is_reference is_struct is_tuple length macro_exported? make_ref map_size match? max min
    node not pop_in put_elem put_in raise rem reraise round self send spawn spawn_link
    spawn_monitor struct struct! tap then throw tl to_charlist to_string trunc tuple_size
    update_in""".split()
)
THIS_MODULE = "__MODULE__"
MODULE_KINDS = frozenset({"module", "protocol"})


def arity_range(signature: str | None) -> tuple[int, int]:
    """(fewest, most) arguments of a function with ``signature`` (``(a, b \\\\ 1)`` → (1, 2))."""
    items = split_params(signature or "")
    return sum(1 for p in items if "\\\\" not in p), len(items)


def _args(call):
    return next((c for c in call.named_children if c.type == "arguments"), None)


def _target(call) -> str | None:
    t = call.child_by_field_name("target")
    return text(t) if t is not None and t.type == "identifier" else None


def _string_value(node) -> str | None:
    if node is not None and node.type == "string":
        return "".join(text(c) for c in node.named_children if c.type == "quoted_content")
    return None


def _in_attribute(node, memo: dict[int, bool]) -> bool:
    """Is ``node`` inside a module attribute (``@doc "…"``, ``@spec f(term()) :: :ok``)? ``memo`` (node
    id → answer, one per file) keeps the walk up short: tree-sitter finds a parent by descending from
    the root, so walking up from each of 3,000 piped calls was cubic (no end in 120 s; now 1 s)."""
    passed: list[int] = []
    answer = False
    p = node.parent
    while p is not None and p.type not in ("do_block", "source"):
        known = memo.get(p.id)
        if known is not None:
            answer = known
            break
        if p.type == "unary_operator" and p.children and text(p.children[0]) == "@":
            answer = True
            break
        passed.append(p.id)
        p = p.parent
    for node_id in passed:
        memo[node_id] = answer
    return answer


class ElixirExtractor(Extractor):
    def begin(self, root) -> None:
        self.details: dict[int, dict] = {}  # per definition (by id): signature, doc, private…
        self.last_fun: dict[int, tuple[Def, str, int]] = {}  # module start byte → last function
        self.heads: set[int] = set()  # start bytes of definition heads (not calls)
        self._in_attr: dict[int, bool] = {}  # node id → inside a module attribute (_in_attribute)

    def handle(self, capture: str, ts) -> None:
        if capture == "call":
            target = _target(ts)
            if target in MODULE_DEFS:
                self._module(ts, target)
            elif target in FUNCTION_DEFS:
                self._function(ts, target)
            elif target in DIRECTIVES:
                self._directive(ts, target)
            elif ts.start_byte not in self.heads and not _in_attribute(ts, self._in_attr):
                self._call(ts)
        elif capture == "unary":
            self._unary(ts)
        elif capture == "struct":
            name = ts.named_children[0] if ts.named_child_count else None
            if name is not None and name.type in ("alias", "identifier"):
                value = text(name)
                if name.type == "alias" or value == THIS_MODULE:
                    self.ref(ts, "references" if self._in_head(ts) else "instantiates", value, None)

    def _in_head(self, ts) -> bool:
        p = ts.parent
        while p is not None and p.type != "do_block":
            if p.type == "call" and p.start_byte in self.heads:
                return True
            p = p.parent
        return False

    # ------------------------------------------------------------ definitions
    def _module(self, call, keyword: str) -> None:
        args = _args(call)
        if args is None or not args.named_child_count:
            return
        first = args.named_children[0]
        if first.type != "alias":
            return
        name = text(first)
        implements = None
        if keyword == "defimpl":
            implements = name
            for_type = self._keyword(args, "for")
            if for_type is not None and for_type.type == "alias":
                name = f"{name}.{text(for_type)}"
        d = self.add_def(call, MODULE_DEFS[keyword], None, name=name)
        if d is None:
            return
        self.details[id(d)] = {"doc": self._attribute_doc(call, "moduledoc", inside=True)}
        if implements is not None:
            self.base_ref(d, "implements", implements, first)

    @staticmethod
    def _keyword(args, key: str):
        for kw in args.named_children:
            if kw.type != "keywords":
                continue
            for pair in kw.named_children:
                k = pair.child_by_field_name("key")
                if k is not None and text(k).rstrip(": ").strip() == key:
                    return pair.child_by_field_name("value")
        return None

    def _function(self, call, keyword: str) -> None:
        args = _args(call)
        head = args.named_children[0] if args is not None and args.named_child_count else None
        if head is not None and head.type == "binary_operator":  # f(x) when guard
            op = next((c for c in head.children if not c.is_named), None)
            head = head.child_by_field_name("left") if op is not None and text(op) == "when" else None
        if head is None:
            return
        if head.type == "call" and (target := _target(head)) is not None:
            name, params = target, _args(head)
            self.heads.add(head.start_byte)
        elif head.type == "identifier":
            name, params = text(head), None
        else:
            return  # unquote(name)(x), operators: no stable name
        signature = squash(text(params)) if params is not None else "()"
        if not signature.startswith("("):
            signature = f"({signature})"
        arity = len(split_params(signature))
        module = self._enclosing_module(call)
        key = module.start_byte if module is not None else -1
        last = self.last_fun.get(key)
        if last is not None and last[1:] == (name, arity):
            prev = last[0]
            prev.end, prev.end_point = call.end_byte, call.end_point
            return
        d = self.add_def(call, "function", None, name=name)
        if d is not None:
            self.last_fun[key] = (d, name, arity)
        else:  # an empty (zero-width, MISSING) name in broken code: nothing for a next clause to extend
            self.last_fun.pop(key, None)
        for p in params.named_children if params is not None else ():
            self._locals(p, call)
        body = next((c for c in call.named_children if c.type == "do_block"), None)
        self.details[id(d)] = {
            "signature": signature,
            "doc": self._attribute_doc(call, "doc"),
            "private": keyword in PRIVATE_DEFS,
            "abstract": body is None and self._keyword(args, "do") is None and keyword != "defdelegate",
            "macro": keyword.startswith("defmacro"),
        }

    def _locals(self, pattern, scope) -> None:
        stack = [pattern]
        while stack:
            n = stack.pop()
            if n.type == "identifier":
                self.local_name(scope, text(n))
            elif n.type != "call":
                stack.extend(n.named_children)

    @staticmethod
    def _enclosing_module(node):
        p = node.parent
        while p is not None:
            if p.type == "call" and _target(p) in MODULE_DEFS:
                return p
            p = p.parent
        return None

    @staticmethod
    def _attribute_doc(call, attribute: str, *, inside: bool = False) -> str | None:
        """``@doc "…"`` right before a definition, or ``@moduledoc`` first in a module's body."""
        if inside:
            body = next((c for c in call.named_children if c.type == "do_block"), None)
            candidates = body.named_children[:3] if body is not None else []
        else:
            candidates = []
            prev = call.prev_named_sibling
            while prev is not None and prev.type == "unary_operator" and len(candidates) < 4:
                candidates.append(prev)
                prev = prev.prev_named_sibling
        for node in candidates:
            if node.type != "unary_operator":
                continue
            inner = node.child_by_field_name("operand")
            if inner is None or inner.type != "call" or _target(inner) != attribute:
                continue
            args = _args(inner)
            value = (
                _string_value(args.named_children[0]) if args is not None and args.named_child_count else None
            )
            if value:
                return squash(value, MAX_DOCSTRING)
        return None

    def node_details(self, node: Node, d: Def) -> None:
        info = self.details.get(id(d), {})
        node.docstring = info.get("doc")
        if d.kind in ("function", "method"):
            node.signature = info.get("signature")
            node.visibility = "private" if info.get("private") else "public"
            node.is_exported = not info.get("private")
            node.is_abstract = bool(info.get("abstract"))
            if info.get("macro"):
                node.decorators = ["defmacro"]
        else:
            node.is_exported = True

    def function_details(self, node: Node, ts) -> None:
        """Signatures come from :meth:`node_details` (the head's argument list)."""

    # ------------------------------------------------------------ directives
    def _directive(self, call, keyword: str) -> None:
        args = _args(call)
        first = args.named_children[0] if args is not None and args.named_child_count else None
        if first is None:
            return
        if first.type == "dot":  # alias A.{B, C} (import and require take it too)
            left, right = first.child_by_field_name("left"), first.child_by_field_name("right")
            if left is None or right is None or right.type != "tuple" or left.type != "alias":
                return
            modules = [f"{text(left)}.{text(i)}" for i in right.named_children if i.type == "alias"]
            nid = self.import_node(call, text(left))
        elif first.type == "alias":
            modules, nid = [text(first)], ""
        else:
            return
        for module in modules:
            if keyword == "alias":
                alias_as = self._keyword(args, "as") if len(modules) == 1 else None
                local = (
                    text(alias_as)
                    if alias_as is not None and alias_as.type == "alias"
                    else module.rsplit(".", 1)[-1]
                )
                self.bind(call, local, module, "*", node=nid)
            elif keyword == "import":
                names = self._only(args) if len(modules) == 1 else []
                if names:
                    nid = nid or self.import_node(call, module)
                    for n in names:
                        self.bind(call, n, module, n, node=nid)
                else:
                    self.bind(call, "*", module, "*", node=nid)
            else:  # require / use: the module is needed, nothing is bound
                self.bind(call, "", module, "", node=nid)

    def _only(self, args) -> list[str]:
        """The names of ``import M, only: [f: 1, g: 2]``."""
        only = self._keyword(args, "only")
        names = []
        if only is not None and only.type == "list":
            for kw in only.named_children:
                for pair in kw.named_children if kw.type == "keywords" else ():
                    k = pair.child_by_field_name("key")
                    if k is not None:
                        names.append(text(k).rstrip(": ").strip())
        return names

    # ------------------------------------------------------------ references
    def _arity(self, call) -> int:
        args = _args(call)
        n = sum(1 for c in args.named_children if c.type != "comment") if args is not None else 0
        parent = call.parent
        if (
            parent is not None
            and parent.type == "binary_operator"
            and parent.child_by_field_name("right") == call
            and any(not c.is_named and text(c) == "|>" for c in parent.children)
        ):
            n += 1  # x |> f(y) is f(x, y)
        return n

    def _call(self, call) -> None:
        target = call.child_by_field_name("target")
        if target is None:
            return
        if target.type == "identifier":
            name = text(target)
            if name in SPECIAL or _args(call) is None:
                return
            self._ref(call, "calls", name, None, self._arity(call))
        elif target.type == "dot":
            left, right = target.child_by_field_name("left"), target.child_by_field_name("right")
            if left is None or right is None or right.type != "identifier" or _args(call) is None:
                return  # fun.(x), a.b without parentheses (a field)
            recv = text(left)
            if left.type not in ("alias", "atom", "identifier"):
                recv = "<expr>"
            self._ref(call, "calls", f"{recv}.{text(right)}", recv, self._arity(call))

    def _unary(self, node) -> None:
        op = next((c for c in node.children if not c.is_named), None)
        operand = node.child_by_field_name("operand")
        if op is None or operand is None:
            return
        if text(op) == "@" and operand.type == "call" and _target(operand) == "behaviour":
            module = self._enclosing_module(node)
            args = _args(operand)
            first = args.named_children[0] if args is not None and args.named_child_count else None
            d = self._module_def(module) if module is not None else None
            if first is not None and first.type == "alias" and d is not None:
                self.base_ref(d, "implements", text(first), first)
        elif text(op) == "&" and operand.type == "binary_operator":
            fn, count = operand.child_by_field_name("left"), operand.child_by_field_name("right")
            if fn is None or count is None or count.type != "integer" or not text(count).isdigit():
                return
            if fn.type == "identifier":
                self._ref(node, "value", text(fn), None, int(text(count)))
            elif fn.type == "call" and _args(fn) is None:
                dot = fn.child_by_field_name("target")
                left = dot.child_by_field_name("left") if dot is not None else None
                right = dot.child_by_field_name("right") if dot is not None else None
                if left is not None and right is not None and left.type in ("alias", "identifier"):
                    recv = text(left)
                    self._ref(node, "value", f"{recv}.{text(right)}", recv, int(text(count)))

    def _module_def(self, call) -> Def | None:
        return next((d for d in self.defs if d.ts == call and d.kind in MODULE_KINDS), None)

    def _ref(self, ts, kind: str, name: str, recv: str | None, arity: int) -> None:
        self.ref(ts, kind, name, recv)
        self.call_arity(ts, name, arity)


class Elixir(LanguageModule):
    label = "elixir"
    grammar = "elixir"
    name = "Elixir"
    extracts = (
        "modules (nested: A.B::C), protocols, defimpl, functions and macros by name and arity (clauses"
        " merged, defaults widen the arity), @doc/@moduledoc, @behaviour, alias/import/require/use, structs"
    )
    resolution = (
        "bare calls to the enclosing module's function of that arity, then import; A.B.f() through alias"
        " and nesting to module A.B; __MODULE__; pipes add an argument; &f/1 values; %A{} instantiates A;"
        " Kernel, Erlang modules and variables stay unresolved"
    )
    extensions = (".ex", ".exs")
    builtins = KERNEL
    line_comment = "#"
    unique_fallback = False
    test_suffixes = ("_test.exs",)
    extractor = ElixirExtractor

    def prepare(self, project, files) -> None:
        modules: dict[str, list[Node]] = {}
        funcs: dict[str, dict[str, list[Node]]] = {}
        for f in files:
            for n in f.nodes:
                if n.kind in MODULE_KINDS:
                    modules.setdefault(n.qualified_name.replace("::", "."), []).append(n)
        for f in files:
            for n in f.nodes:
                if n.kind in ("function", "method"):
                    parent = project.parent.get(n.id)
                    if parent is not None:
                        funcs.setdefault(parent, {}).setdefault(n.name, []).append(n)
        project.lang_state["elixir"] = {
            "modules": {name: nodes[0] for name, nodes in modules.items() if len(nodes) == 1},
            "funcs": funcs,
        }

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """A module name (``A.B``) → the file that defines it."""
        node = project.lang_state["elixir"]["modules"].get(spec)
        return node.file_path if node is not None else None

    # ------------------------------------------------------------ lookups
    def _enclosing_modules(self, project, source: str) -> list[Node]:
        return [n for n in project.scopes(source) if n.kind in MODULE_KINDS]

    def _module(self, project, path: str, source: str, name: str) -> Node | None:
        """The module a written alias means at ``source``: this module, an alias binding, a module
        nested in an enclosing one, or the full name."""
        state = project.lang_state["elixir"]
        enclosing = self._enclosing_modules(project, source)
        if name == THIS_MODULE:
            return enclosing[0] if enclosing else None
        head, _, rest = name.partition(".")
        binding = project.bindings[path].get(head)
        if binding is not None and binding.imported == "*":
            return state["modules"].get(binding.module + ("." + rest if rest else ""))
        for m in enclosing:  # a module nested in an enclosing one is aliased by its last name
            full = m.qualified_name.replace("::", ".")
            hit = state["modules"].get(f"{full}.{name}")
            if hit is not None and project.parent.get(hit.id) == m.id:
                return hit
        return state["modules"].get(name)

    @staticmethod
    def _function(state, module: Node | None, name: str, arity: int | None) -> Node | None:
        if module is None or arity is None:
            return None
        fitting = [
            n
            for n in state["funcs"].get(module.id, {}).get(name, ())
            if arity_range(n.signature)[0] <= arity <= arity_range(n.signature)[1]
        ]
        # several fit only when the clauses of one function are not written together (a warning in
        # Elixir, not an error): the same function
        return min(fitting, key=lambda n: n.start_line) if fitting else None

    def resolve_ref(self, project, path: str, ref) -> tuple[Node | None, str]:
        state = project.lang_state["elixir"]
        if ref.kind in ("extends", "implements", "instantiates", "references"):
            target = self._module(project, path, ref.source, ref.name)
            return (target, "import") if target is not None else (None, "")
        if ref.receiver is None:
            enclosing = self._enclosing_modules(project, ref.source)
            hit = self._function(state, enclosing[0] if enclosing else None, ref.name, ref.arity)
            if hit is not None:
                return hit, "local"
            binding = project.bindings[path].get(ref.name)
            if binding is not None and binding.imported not in ("*", ""):
                module = state["modules"].get(binding.module)
                hit = self._function(state, module, binding.imported, ref.arity)
                return (hit, "import") if hit is not None else (None, "")
            found: dict[str, Node] = {}
            for star in project.star.get(path, ()):
                hit = self._function(state, state["modules"].get(star.module), ref.name, ref.arity)
                if hit is not None and hit.visibility != "private":
                    found[hit.id] = hit
            if len(found) == 1:
                return next(iter(found.values())), "import"
            if found:
                return None, ""
            # Kernel is imported into every module: it binds where the project is Elixir itself
            hit = self._function(state, state["modules"].get("Kernel"), ref.name, ref.arity)
            return (hit, "import") if hit is not None and hit.visibility != "private" else (None, "")
        if ref.receiver.startswith((":", "<")) or ref.receiver[0].islower() and ref.receiver != THIS_MODULE:
            return None, ""  # an Erlang module, an expression, a variable
        module = self._module(project, path, ref.source, ref.receiver)
        hit = self._function(state, module, ref.name[len(ref.receiver) + 1 :], ref.arity)
        return (hit, "qualified") if hit is not None else (None, "")


LANGUAGES = (Elixir(),)
