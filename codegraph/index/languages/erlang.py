"""Erlang: ``.erl`` modules and ``.hrl`` headers.

A module is a file (``-module(lists).``): the file holds one ``module`` node and the module's
functions, records, macros and types inside it. A function is a name and an arity: the clauses of
``area/1`` (each its own ``fun_decl`` in the grammar) are one function, and ``area/2`` is another.
The signature starts with the argument list (the ``-spec``'s when there is one), which gives the
arity. Local calls ``f(X)`` bind to this module's ``f`` of that arity, then to an ``-import``ed
one; remote calls ``m:f(X)`` to module ``m``'s ``f`` of that arity when ``m`` is in the project
(``?MODULE:f`` is this module). A call whose module is a variable, an auto-imported BIF
(``length/1``, ``element/2``…) or a module outside the project has no edge. ``fun f/1`` and
``fun m:f/1`` reference the function. ``#rec{}`` instantiates the record of this file or of an
included ``.hrl``. ``-behaviour(gen_server)`` is an ``implements`` edge to that module when the
project has it. ``-include("x.hrl")`` is relative to the file (then ``../include/``);
``-include_lib("app/include/x.hrl")`` finds ``include/x.hrl`` of the project.
"""

from __future__ import annotations

import posixpath

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule, relative_file
from codegraph.model import Node

# The BIFs the compiler imports into every module (erlang(3) "auto-imported"): a bare call of one
# is the BIF unless the module defines that name and arity itself.
AUTO_IMPORTED = frozenset(
    """abs apply atom_to_binary atom_to_list binary_part binary_to_atom binary_to_existing_atom
    binary_to_float binary_to_integer binary_to_list binary_to_term bit_size bitstring_to_list
    byte_size ceil check_old_code check_process_code date delete_module demonitor disconnect_node
    element erase error exit float float_to_binary float_to_list floor garbage_collect get get_keys
    group_leader halt hd integer_to_binary integer_to_list iolist_size iolist_to_binary is_alive
    is_atom is_binary is_bitstring is_boolean is_float is_function is_integer is_list is_map
    is_map_key is_number is_pid is_port is_process_alive is_record is_reference is_tuple length
    link list_to_atom list_to_binary list_to_bitstring list_to_existing_atom list_to_float
    list_to_integer list_to_pid list_to_port list_to_ref list_to_tuple load_module make_ref map_get
    map_size max min monitor monitor_node node nodes now open_port pid_to_list port_close
    port_command port_connect port_control port_to_list pre_loaded process_flag process_info
    processes purge_module put ref_to_list register registered round self setelement size spawn
    spawn_link spawn_monitor spawn_opt split_binary statistics term_to_binary term_to_iovec throw
    time tl trunc tuple_size tuple_to_list unlink unregister whereis""".split()
)
# Forms whose `call` nodes are types (`-spec f(term()) -> ok.`), not calls.
TYPE_FORMS = frozenset({"spec", "callback", "type_alias", "opaque", "record_decl", "pp_define"})
THIS_MODULE = "?MODULE"


def atom(node) -> str:
    """An atom's name without the quotes of a quoted atom (``'foo bar'``)."""
    value = text(node)
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == "'" else value


def arity_of(signature: str | None) -> int | None:
    """How many arguments a function takes, from its stored signature (``(A, B) -> ok`` → 2).
    Quoted atoms, strings and character literals (``'('``, ``"a,b"``, ``$(``) are skipped."""
    if not signature or not signature.startswith("("):
        return None
    depth, count, seen, i, n = 0, 0, False, 1, len(signature)
    while i < n:
        ch = signature[i]
        if ch in "'\"":
            end = i + 1
            while end < n and signature[end] != ch:
                end += 2 if signature[end] == "\\" else 1
            i, seen = end + 1, True
            continue
        if ch == "$":
            i += 3 if i + 1 < n and signature[i + 1] == "\\" else 2
            seen = True
            continue
        if ch in "([{<":
            depth, seen = depth + 1, True
        elif ch in ")]}>" and not (ch == ">" and signature[i - 1] in "-="):
            if depth == 0:
                return count + 1 if seen else 0
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
        elif not ch.isspace():
            seen = True
        i += 1
    return None


def _args_count(args) -> int:
    return sum(1 for c in args.named_children if c.type != "comment") if args is not None else 0


def _comment_doc(node) -> str | None:
    """The ``%`` comment lines right above a form (``%% @doc`` included), skipping ``-spec``."""
    below, prev = node, node.prev_named_sibling
    while prev is not None and prev.type == "spec":
        below, prev = prev, prev.prev_named_sibling
    lines: list[str] = []
    while prev is not None and prev.type == "comment" and prev.end_point[0] + 1 >= below.start_point[0]:
        lines.insert(0, text(prev).lstrip("%").strip())
        below, prev = prev, prev.prev_named_sibling
    lines = [ln.removeprefix("@doc").strip() for ln in lines if ln.strip("%= -")]
    return squash(" ".join(lines), MAX_DOCSTRING) or None


class ErlangExtractor(Extractor):
    def begin(self, root) -> None:
        self.module_def: Def | None = None
        self.exports: set[tuple[str, int]] = set()
        self.export_all = False
        self.specs: dict[tuple[str, int], str] = {}
        self.last_fun: tuple[Def, str, int] | None = None
        self._inside: dict[int, bool] = {}  # node id → inside a function (see _in_function)
        # per function definition (by id): signature, doc comment, exported?
        self._sig: dict[int, str] = {}
        self._doc: dict[int, str | None] = {}
        self._exported: dict[int, bool] = {}
        for form in root.named_children:
            t = form.type
            if t == "module_attribute" and self.module_def is None:
                name = form.child_by_field_name("name")
                if name is not None:
                    self.module_def = self.add_def(root, "module", None, name=atom(name))
            elif t == "export_attribute":
                for fa in form.children_by_field_name("funs"):
                    self._export(fa)
            elif t == "compile_options_attribute" and "export_all" in text(form):
                self.export_all = True
            elif t == "spec":
                fun = form.child_by_field_name("fun")
                sig = form.child_by_field_name("sigs")
                if fun is not None and sig is not None:
                    args = sig.child_by_field_name("args")
                    self.specs[(atom(fun), _args_count(args))] = squash(text(sig))
        if self.module_def is not None:
            for form in root.named_children:
                if form.type == "behaviour_attribute":
                    name = form.child_by_field_name("name")
                    if name is not None:
                        self.base_ref(self.module_def, "implements", atom(name), form)

    def _export(self, fa) -> None:
        fun, arity = fa.child_by_field_name("fun"), fa.child_by_field_name("arity")
        value = arity.child_by_field_name("value") if arity is not None else None
        if fun is not None and value is not None and text(value).isdigit():
            self.exports.add((atom(fun), int(text(value))))

    # ------------------------------------------------------------ dispatch
    def handle(self, capture: str, ts) -> None:
        if capture == "definition.function":
            self._function(ts)
        elif capture == "definition.record":
            self.add_def(ts, "struct", None, name=self._name(ts))
        elif capture == "definition.macro":
            lhs = ts.child_by_field_name("lhs")
            name = lhs.child_by_field_name("name") if lhs is not None else None
            if name is not None:
                self.add_def(ts, "constant", name)
        elif capture == "definition.type":
            tname = ts.child_by_field_name("name")
            inner = tname.child_by_field_name("name") if tname is not None else None
            if inner is not None:
                self.add_def(ts, "type_alias", None, name=atom(inner))
        elif capture == "import":
            module = ts.child_by_field_name("module")
            if module is None:
                return
            mod = atom(module)
            nid = self.import_node(ts, mod)
            for fa in ts.children_by_field_name("funs"):
                fun = fa.child_by_field_name("fun")
                if fun is not None:
                    self.bind(ts, atom(fun), mod, atom(fun), node=nid)
        elif capture == "include":
            spec = ts.child_by_field_name("file")
            if spec is not None and spec.type == "string":
                self.bind(ts, "*", text(spec).strip('"'), "*")
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.fun":
            self._fun_value(ts)
        elif capture == "reference.record":
            if self._in_function(ts):
                rname = ts.child_by_field_name("name")
                inner = rname.child_by_field_name("name") if rname is not None else None
                if inner is not None:  # a record pattern in a clause head only names the record
                    kind = "references" if self._in_head(ts) else "instantiates"
                    self.ref(inner, kind, atom(inner), None)
        elif capture == "definition.callback":
            fun, sig = ts.child_by_field_name("fun"), ts.child_by_field_name("sigs")
            d = self.add_def(ts, "function", fun, name=atom(fun) if fun is not None else None)
            if d is not None:
                self._sig[id(d)] = squash(text(sig)) if sig is not None else "()"
                self._doc[id(d)] = _comment_doc(ts)
                self._exported[id(d)] = False

    def _name(self, ts) -> str | None:
        name = ts.child_by_field_name("name")
        return atom(name) if name is not None else None

    def _in_function(self, ts) -> bool:
        """Is ``ts`` inside a function declaration (not a spec, type or record form)? Memoised per
        ancestor: tree-sitter finds a parent by descending from the root, so walking up from each of
        3,000 nested calls ``g(g(…))`` was cubic (the file did not finish in 120 s; now 2 s)."""
        passed: list[int] = []
        answer = False
        p = ts.parent
        while p is not None:
            known = self._inside.get(p.id)
            if known is not None:
                answer = known
                break
            if p.type == "fun_decl" or p.type in TYPE_FORMS:
                answer = p.type == "fun_decl"
                break
            passed.append(p.id)
            p = p.parent
        for node_id in passed:
            self._inside[node_id] = answer
        return answer

    @staticmethod
    def _in_head(ts) -> bool:
        p = ts.parent
        while p is not None and p.type not in ("fun_decl", "clause_body"):
            if p.type == "expr_args" and p.parent is not None and p.parent.type == "function_clause":
                return True
            p = p.parent
        return False

    # ------------------------------------------------------------ definitions
    def _function(self, decl) -> None:
        clause = decl.child_by_field_name("clause")
        name = clause.child_by_field_name("name") if clause is not None else None
        if name is None:
            return
        fname, args = atom(name), clause.child_by_field_name("args")
        arity = _args_count(args)
        last = self.last_fun
        if last is not None and last[1:] == (fname, arity):
            prev = last[0]  # the next clause of the same function
            prev.end, prev.end_point = decl.end_byte, decl.end_point
        else:
            d = self.add_def(decl, "function", None, name=fname)
            # d is None for the empty atom '' (add_def skips empty names): nothing to extend
            self.last_fun = (d, fname, arity) if d is not None else None
            self._sig[id(d)] = self.specs.get((fname, arity)) or (
                squash(text(args)) if args is not None else "()"
            )
            self._doc[id(d)] = _comment_doc(decl)
            self._exported[id(d)] = self.export_all or (fname, arity) in self.exports
        for arg in args.named_children if args is not None else ():
            self._locals(arg, decl)

    def _locals(self, pattern, scope) -> None:
        stack = [pattern]
        while stack:
            n = stack.pop()
            if n.type == "var":
                self.local_name(scope, text(n))
            else:
                stack.extend(n.named_children)

    def node_details(self, node: Node, d: Def) -> None:
        if d.kind in ("function", "method"):
            node.signature = self._sig.get(id(d))
            node.docstring = self._doc.get(id(d))
            node.is_exported = bool(self._exported.get(id(d)))
            node.is_abstract = d.ts.type == "callback"
        elif d.kind == "module":
            node.docstring = _module_doc(d.ts)
            node.is_exported = True
        else:
            node.signature = squash(text(d.ts))
            node.docstring = _comment_doc(d.ts)

    def function_details(self, node: Node, ts) -> None:
        """Signatures come from :meth:`node_details` (a clause head or the ``-spec``)."""

    # ------------------------------------------------------------ references
    def _call(self, call) -> None:
        if not self._in_function(call):
            return
        expr = call.child_by_field_name("expr")
        args = call.child_by_field_name("args")
        if expr is None:
            return
        arity = _args_count(args)
        if expr.type == "atom":
            self._ref(call, "calls", atom(expr), None, arity)
        elif expr.type == "remote":
            rmod = expr.child_by_field_name("module")
            fun = expr.child_by_field_name("fun")
            mod = rmod.child_by_field_name("module") if rmod is not None else None
            if fun is None or fun.type != "atom" or mod is None:
                return
            if mod.type == "atom":
                recv = atom(mod)
            elif mod.type == "macro_call_expr" and text(mod) == THIS_MODULE:
                recv = THIS_MODULE
            else:
                recv = text(mod)  # a variable: stays unresolved
            self._ref(call, "calls", f"{recv}:{atom(fun)}", recv, arity)

    def _fun_value(self, ts) -> None:
        fun, arity = ts.child_by_field_name("fun"), ts.child_by_field_name("arity")
        value = arity.child_by_field_name("value") if arity is not None else None
        if fun is None or fun.type != "atom" or value is None or not text(value).isdigit():
            return
        if ts.type == "external_fun":
            mod = ts.child_by_field_name("module")
            name = mod.child_by_field_name("name") if mod is not None else None
            if name is None or name.type != "atom":
                return
            self._ref(ts, "value", f"{atom(name)}:{atom(fun)}", atom(name), int(text(value)))
        else:
            self._ref(ts, "value", atom(fun), None, int(text(value)))

    def _ref(self, ts, kind: str, name: str, recv: str | None, arity: int) -> None:
        self.ref(ts, kind, name, recv)
        self.call_arity(ts, name, arity)


def _module_doc(root) -> str | None:
    """The comment block at the top of the file, before ``-module``."""
    lines = []
    for c in root.named_children:
        if c.type != "comment":
            break
        line = text(c).lstrip("%").strip()
        if line.strip("%= -"):
            lines.append(line.removeprefix("@doc").strip())
    return squash(" ".join(lines), MAX_DOCSTRING) or None


class Erlang(LanguageModule):
    label = "erlang"
    grammar = "erlang"
    name = "Erlang"
    extracts = (
        "modules (files), functions by name and arity (clauses merged; -spec as signature), records,"
        " macros, types, -export (exported flag), -import, -include/-include_lib, -behaviour, edoc comments"
    )
    resolution = (
        "local calls by name and arity in the module, then -import; remote m:f(..) to module m's f of that"
        " arity (?MODULE included); fun f/N values; #rec{} through included .hrl; BIFs and unknown modules"
        " stay unresolved"
    )
    extensions = (".erl", ".hrl")
    builtins = AUTO_IMPORTED
    line_comment = "%"
    unique_fallback = False
    test_suffixes = ("_suite.erl", "_tests.erl", "_test.erl")
    extractor = ErlangExtractor

    # ------------------------------------------------------------ tables
    def prepare(self, project, files) -> None:
        modules: dict[str, list[str]] = {}
        funcs: dict[str, dict[tuple[str, int], Node]] = {}
        records: dict[str, dict[str, Node]] = {}
        module_node: dict[str, Node] = {}
        for f in files:
            table: dict[tuple[str, int], Node] = {}
            recs: dict[str, Node] = {}
            for n in f.nodes:
                if n.kind == "module" and f.path not in module_node:
                    module_node[f.path] = n
                    modules.setdefault(n.name, []).append(f.path)
                elif n.kind == "function":
                    arity = arity_of(n.signature)
                    if arity is not None:
                        table.setdefault((n.name, arity), n)
                elif n.kind == "struct":
                    recs.setdefault(n.name, n)
            funcs[f.path] = table
            records[f.path] = recs
        project.lang_state["erlang"] = {
            "modules": {name: paths[0] for name, paths in modules.items() if len(paths) == 1},
            "funcs": funcs,
            "records": records,
            "module_node": module_node,
        }

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """A module name (``lists``) → its file; an include path → the ``.hrl`` file."""
        if spec.endswith(".hrl") or "/" in spec:
            return self._include(project, from_path, spec)
        return project.lang_state["erlang"]["modules"].get(spec)

    @staticmethod
    def _include(project, from_path: str, spec: str) -> str | None:
        for cand in (
            relative_file(from_path, spec),
            relative_file(from_path, posixpath.join("..", "include", spec)),
        ):
            if cand in project.files:
                return cand
        # -include_lib("app/include/x.hrl"): the application's directory is the first part
        tail = spec.split("/", 1)[1] if "/" in spec else spec
        hits = [p for p in project.files if p == tail or p.endswith("/" + tail)]
        return hits[0] if len(hits) == 1 else None

    def _included(self, project, path: str) -> list[str]:
        out = []
        for star in project.star.get(path, ()):
            hit = project.module_file(path, star.module)
            if hit is not None and hit != path:
                out.append(hit)
        return out

    def resolve_ref(self, project, path: str, ref) -> tuple[Node | None, str]:
        state = project.lang_state["erlang"]
        if ref.kind in ("extends", "implements"):
            target = state["module_node"].get(state["modules"].get(ref.name, ""))
            return (target, "import") if target is not None else (None, "")
        if ref.kind in ("instantiates", "references"):
            for p in [path, *self._included(project, path)]:
                hit = state["records"].get(p, {}).get(ref.name)
                if hit is not None:
                    return hit, "local" if p == path else "import"
            return None, ""
        if ref.arity is None:
            return None, ""
        if ref.receiver is None:
            hit = state["funcs"].get(path, {}).get((ref.name, ref.arity))
            if hit is not None:
                return hit, "local"
            binding = project.bindings[path].get(ref.name)
            if binding is not None:
                mod = state["modules"].get(binding.module)
                hit = state["funcs"].get(mod, {}).get((binding.imported, ref.arity)) if mod else None
                return (hit, "import") if hit is not None else (None, "")
            for inc in self._included(project, path):  # a function defined in an included header
                hit = state["funcs"].get(inc, {}).get((ref.name, ref.arity))
                if hit is not None:
                    return hit, "import"
            return None, ""
        fname = ref.name[len(ref.receiver) + 1 :]
        mod = path if ref.receiver == THIS_MODULE else state["modules"].get(ref.receiver)
        hit = state["funcs"].get(mod, {}).get((fname, ref.arity)) if mod else None
        return (hit, "qualified") if hit is not None else (None, "")


LANGUAGES = (Erlang(),)
