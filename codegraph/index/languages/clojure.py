"""Clojure: ``.clj``, ``.cljs`` and ``.cljc`` files (``.edn`` is data, not indexed).

A file is one namespace (``(ns acme.shapes.core …)``), found by that name or by its path
(``acme/shapes/core.clj``, ``-`` written ``_``, under any source root). Top-level ``defn``/``defn-``/
``defmacro``/``defmulti``/``def``/``defonce`` are functions (a ``def`` of a value a variable),
``defmethod`` an implementation named ``draw :circle``, ``defprotocol`` an interface with its
method signatures, ``defrecord``/``deftype`` classes with the protocol methods they implement
(``implements`` edges). ``(:require [a.b :as c] [d.e :refer [f]])`` (and ``:use``, ``(require
'[…])``) bind ``c`` to namespace ``a.b`` and ``f`` to ``d.e``'s ``f``; ``:refer :all`` and ``:use``
bring in every name. A call is a list headed by a symbol: ``(f x)`` is a local (``let``, ``fn``
and ``defn`` parameters shadow), a name of this file or a referred one; ``(c/f x)`` and
``(a.b/f x)`` a name of that namespace; a protocol method is found through its protocol in that
namespace. ``(->Circle 1)``, ``(map->Circle m)`` and ``(Circle. 1)`` instantiate the record.
``clojure.core`` (implicitly referred) is not in the project: its names and the special forms never
bind, unless this file defines them.
"""

from __future__ import annotations

import posixpath

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

FUNCTIONS = {
    "defn": "function",
    "defn-": "function",
    "defmacro": "function",
    "defmulti": "function",
    "deftest": "function",
}
VALUES = {"def", "defonce"}
TYPES = {"defrecord": "class", "deftype": "class", "defprotocol": "interface", "definterface": "interface"}
# binding forms: their first vector binds names at even positions
BINDING_FORMS = frozenset(
    "let loop binding for doseq dotimes when-let if-let when-some if-some with-open with-redefs".split()
)
SPECIAL = frozenset(
    """def if do let quote var fn loop recur throw try catch finally monitor-enter monitor-exit new set!
    let* fn* loop* letfn case cond condp when when-not when-let if-let when-some if-some and or not ->
    ->> as-> some-> some->> cond-> cond->> doto .. comment declare ns require import use in-ns
    defn defn- defmacro defmulti defmethod defprotocol defrecord deftype definterface defonce
    extend-protocol extend-type reify proxy binding for doseq dotimes while with-open with-redefs
    delay future lazy-seq assert str println print prn pr format apply partial comp identity map
    filter reduce into conj assoc dissoc get get-in update update-in merge first rest next cons
    count empty? seq vec vector list hash-map keys vals inc dec + - * / = < > <= >= not= nil? some
    every? range take drop concat mapv mapcat keep remove sort sort-by group-by frequencies atom
    swap! reset! deref ex-info ex-data instance? string? keyword? number? map? vector? fn? max min
    pos? neg? zero? even? odd? last butlast second nth contains? distinct partition partition-by
    interpose interleave zipmap select-keys juxt constantly complement fnil memoize name namespace
    keyword symbol subs re-find re-matches re-seq re-pattern int long double boolean char str/join
    not-empty empty boolean? true? false? some? seq? coll? set hash-set sorted-map sorted-set doall
    dorun run! repeatedly iterate cycle repeat take-while drop-while split-at split-with max-key
    min-key rand rand-int rand-nth shuffle quot rem mod type class meta with-meta vary-meta
    println-str pr-str prn-str slurp spit read-string eval resolve the-ns find-ns ns-name gensym
    volatile! vswap! vreset! agent send send-off await promise deliver realized? force trampoline
    transduce sequence eduction completing reduced reduced? unreduced xml-seq tree-seq
    update-keys update-vals parse-long parse-double parse-boolean abs""".split()
)


def _sym(node) -> str | None:
    """A symbol's text without its metadata (``^:private x`` → ``x``; ``ns/name`` kept)."""
    if node is None or node.type != "sym_lit":
        return None
    name = node.child_by_field_name("name")
    ns = node.child_by_field_name("namespace")
    if name is None:
        return None
    return f"{text(ns)}/{text(name)}" if ns is not None else text(name)


def _values(form) -> list:
    """The elements of a list or vector (comments and discards left out)."""
    return form.children_by_field_name("value")


def _names_in(pattern) -> list[str]:
    """Every plain symbol a binding pattern (a symbol, a vector or map destructuring) binds."""
    out = []
    stack = [pattern]
    while stack:
        n = stack.pop()
        if n.type == "sym_lit":
            name = _sym(n)
            if name and name not in ("&", "_") and "/" not in name:
                out.append(name)
        elif n.type in ("vec_lit", "map_lit"):
            stack.extend(_values(n))
    return out


def _quoted(node):
    """The form a quote wraps (``'[a.b :as c]``), else the node."""
    while node is not None and node.type == "quoting_lit":
        node = node.child_by_field_name("value")
    return node


class ClojureExtractor(Extractor):
    def begin(self, root) -> None:
        self._protocols: dict[str, Def] = {}

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.form":
            self._form(ts)
        elif capture == "reference.head":
            self._call(ts)

    # ------------------------------------------------------------ top-level forms
    def _form(self, ts) -> None:
        vals = _values(ts)
        head = _sym(vals[0]) if vals else None
        if head is None:
            return
        if head == "ns" and len(vals) >= 2:
            name = _sym(vals[1])
            if name:
                self.out.package = name
            for clause in vals[2:]:
                cvals = _values(clause) if clause.type == "list_lit" else []
                if cvals and cvals[0].type == "kwd_lit":
                    self._require(ts, text(cvals[0]), cvals[1:])
        elif head in ("require", "use"):
            self._require(ts, f":{head}", [_quoted(v) for v in vals[1:]])
        elif head in FUNCTIONS or head in VALUES:
            self._def(ts, head, vals)
        elif head == "defmethod" and len(vals) >= 3:
            name = _sym(vals[1])
            if name:
                d = self.add_def(ts, "function", None, name=f"{name} {text(vals[2])}")
                if d is not None:
                    self._params(ts, vals[3:])
        elif head in TYPES and len(vals) >= 2:
            self._type(ts, head, vals)

    def _require(self, ts, keyword: str, specs) -> None:
        for spec in specs:
            if spec is None:
                continue
            if spec.type == "sym_lit":  # [:require a.b] or (:use a.b)
                ns = _sym(spec)
                if ns:
                    self.bind(ts, "*" if keyword == ":use" else "", ns, "*" if keyword == ":use" else "")
                continue
            if spec.type not in ("vec_lit", "list_lit"):
                continue
            items = _values(spec)
            ns = _sym(items[0]) if items else None
            if not ns:
                continue
            if keyword == ":import":
                continue  # Java classes
            opts = items[1:]
            bound = False
            for i in range(0, len(opts) - 1):
                key = text(opts[i])
                if key == ":as":
                    alias = _sym(opts[i + 1])
                    if alias:
                        self.bind(spec, alias, ns, "*")
                        bound = True
                elif key == ":refer":
                    target = opts[i + 1]
                    if target.type == "kwd_lit" and text(target) == ":all":
                        self.bind(spec, "*", ns, "*")
                        bound = True
                    for sym in _values(target) if target.type == "vec_lit" else ():
                        name = _sym(sym)
                        if name:
                            self.bind(spec, name, ns, name)
                            bound = True
            if keyword == ":use" and not bound:
                self.bind(spec, "*", ns, "*")
            elif not bound:
                self.bind(spec, "", ns, "")

    def _def(self, ts, head: str, vals) -> None:
        if len(vals) < 2:
            return
        name = _sym(vals[1])
        if not name or "/" in name:
            return
        kind = FUNCTIONS.get(head)
        if kind is None:
            value = vals[-1] if len(vals) >= 3 else None
            inner = (
                _values(value)[0]
                if value is not None and value.type == "list_lit" and _values(value)
                else None
            )
            kind = (
                "function"
                if inner is not None and _sym(inner) in ("fn", "fn*", "memoize", "partial")
                else "variable"
            )
        d = self.add_def(ts, kind, None, name=name)
        if d is not None and kind == "function":
            self._params(ts, vals[2:])

    def _params(self, scope, rest) -> None:
        """Parameter vectors of a ``defn`` (one, or one per arity ``([x] …) ([x y] …)``)."""
        for v in rest:
            if v.type == "vec_lit":
                for name in _names_in(v):
                    self.local_name(scope, name)
                return
            if v.type == "list_lit":
                first = _values(v)[0] if _values(v) else None
                if first is not None and first.type == "vec_lit":
                    for name in _names_in(first):
                        self.local_name(scope, name)

    def _type(self, ts, head: str, vals) -> None:
        name = _sym(vals[1])
        if not name:
            return
        d = self.add_def(ts, TYPES[head], None, name=name)
        if d is None:
            return
        if head in ("defprotocol", "definterface"):
            self._protocols[name] = d
            for sig in vals[2:]:
                svals = _values(sig) if sig.type == "list_lit" else []
                mname = _sym(svals[0]) if svals else None
                if mname:
                    self.add_def(sig, "function", None, name=mname)
            return
        fields = vals[2] if len(vals) > 2 and vals[2].type == "vec_lit" else None
        for f in _names_in(fields) if fields is not None else ():
            self.local_name(ts, f)
        for item in vals[3:]:
            if item.type == "sym_lit":
                proto = _sym(item)
                if proto and proto not in ("Object",):
                    self.base_ref(d, "implements", proto.replace("/", "."), item)
            elif item.type == "list_lit":
                ivals = _values(item)
                mname = _sym(ivals[0]) if ivals else None
                if mname:
                    m = self.add_def(item, "function", None, name=mname)
                    if m is not None:
                        self._params(item, ivals[1:])

    # ------------------------------------------------------------ calls
    def _call(self, sym) -> None:
        form = sym.parent
        name = _sym(sym)
        if not name or name in ("&",):
            return
        if form.type == "list_lit" and name in BINDING_FORMS:
            vals = _values(form)
            if len(vals) >= 2 and vals[1].type == "vec_lit":
                pairs = _values(vals[1])
                for i in range(0, len(pairs), 2):
                    for local in _names_in(pairs[i]):
                        self.local_name(form, local)
        if name in ("fn", "fn*"):
            for v in _values(form)[1:3]:
                if v.type == "vec_lit":
                    for local in _names_in(v):
                        self.local_name(form, local)
        if form.type == "list_lit" and form.parent is not None and form.parent.type == "source":
            if name in FUNCTIONS or name in VALUES or name in TYPES or name in ("ns", "defmethod", "require"):
                return  # the definition form itself
        outer = form.parent
        if form.type == "list_lit" and outer is not None and outer.type == "list_lit":
            ohead = _sym(_values(outer)[0]) if _values(outer) else None
            if ohead in TYPES or ohead in ("extend-protocol", "extend-type", "reify"):
                return  # (area [this] …): a method signature or implementation, not a call
        if "/" in name:
            ns, member = name.rsplit("/", 1)
            if ns and member and not ns[:1].isupper():
                if member.startswith("->") and member[2:3].isupper():  # (core/->Circle 1)
                    self.call_ref(sym, f"{ns}.{member[2:]}", "instantiates")
                else:
                    self.call_ref(sym, f"{ns}.{member}")
            return
        if name.startswith("->") and name[2:3].isupper():
            self.call_ref(sym, name[2:], "instantiates")
        elif name.startswith("map->") and name[5:6].isupper():
            self.call_ref(sym, name[5:], "instantiates")
        elif name.endswith(".") and name[:1].isupper() and len(name) > 1:
            self.call_ref(sym, name[:-1], "instantiates")
        elif not name.startswith(".") and name not in SPECIAL:
            self.ref(sym, "calls", name, None)

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        vals = _values(ts) if ts.type == "list_lit" else []
        # (defn name "doc" [params] …) / (defprotocol P "doc" …) / (area [this] "doc")
        for v in vals[1:4]:
            if v.type == "str_lit":
                node.docstring = squash(text(v)[1:-1], MAX_DOCSTRING) or None
                break
        params = next((v for v in vals[1:] if v.type == "vec_lit"), None)
        if node.kind in ("function", "method") and params is not None:
            node.signature = squash(text(params))
        head = _sym(vals[0]) if vals else None
        node.is_exported = head not in ("defn-",) and "^:private" not in (
            text(vals[1]) if len(vals) > 1 else ""
        )


class Clojure(LanguageModule):
    label = "clojure"
    grammar = "clojure"
    name = "Clojure"
    extracts = (
        "namespaces (a file each), defn/defmacro/defmulti/defmethod/def, protocols with their methods,"
        " records and types with the protocol methods they implement, docstrings, parameter vectors"
    )
    resolution = (
        "(:require [a.b :as c] [d.e :refer [f]]) and :use by namespace or path, c/f and a.b/f, let/fn"
        " parameters shadow, protocol methods through their protocol, ->Rec / Rec. instantiate"
    )
    extensions = (".clj", ".cljs", ".cljc")
    builtins = SPECIAL
    unique_fallback = False
    line_comment = ";"
    test_suffixes = ("_test.clj", "_test.cljs", "_test.cljc")
    extractor = ClojureExtractor

    def prepare(self, project, files) -> None:
        namespaces: dict[str, list[str]] = {}
        protocols: dict[str, dict[str, list[Node]]] = {}
        for f in files:
            if f.package:
                namespaces.setdefault(f.package, []).append(f.path)
        for f in files:
            table: dict[str, list[Node]] = {}
            for parent, child in f.contains:
                p = project.nodes.get(parent)
                if p is not None and p.kind == "interface":
                    table.setdefault(project.nodes[child].name, []).append(project.nodes[child])
            protocols[f.path] = table
        project.lang_state["clojure"] = {"ns": namespaces, "protocols": protocols}

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """The file declaring namespace ``spec``, else the one file at its path
        (``acme.geo`` → ``…/acme/geo.clj[sc]``)."""
        state = project.lang_state.get("clojure", {})
        hits = state.get("ns", {}).get(spec, [])
        if len(hits) == 1:
            return hits[0]
        stem = spec.replace("-", "_").replace(".", "/")
        found = [
            p
            for p in project.files
            if posixpath.splitext(p)[1] in self.extensions
            and (posixpath.splitext(p)[0] == stem or posixpath.splitext(p)[0].endswith("/" + stem))
        ]
        return found[0] if len(found) == 1 else None

    def resolve_ref(self, project, path: str, ref):
        """Protocol methods (found through their protocol in the namespace that defines it) and
        fully qualified ``a.b/f`` calls; the generic rules for the rest."""
        if ref.kind != "calls":
            return None
        state = project.lang_state.get("clojure", {})
        if ref.receiver is None:
            target, how = project.lookup_bare(path, ref.source, ref.name, allow_unique=False)
            if target is not None or any(
                ref.name in project.locals.get(s.id, ()) for s in project.scopes(ref.source)
            ):
                return None
            hits = state.get("protocols", {}).get(path, {}).get(ref.name, [])
            if not hits:
                binding = project.bindings.get(path, {}).get(ref.name)
                mod = project.module_file(path, binding.module) if binding is not None else None
                hits = state.get("protocols", {}).get(mod, {}).get(ref.name, []) if mod else []
                if not hits:
                    for star in project.star.get(path, []):
                        mod = project.module_file(path, star.module)
                        hits = hits or (
                            state.get("protocols", {}).get(mod, {}).get(ref.name, []) if mod else []
                        )
            return (hits[0], "protocol") if len(hits) == 1 else None
        if ref.receiver in project.bindings.get(path, {}):
            binding = project.bindings[path][ref.receiver]
            mod = project.module_file(path, binding.module)
        else:
            mod = project.module_file(path, ref.receiver)
        if mod is None:
            return None, ""
        member = ref.name.rsplit(".", 1)[-1]
        found = project.export_of(mod, member)
        if isinstance(found, Node) and found.kind in ("function", "method", "class"):
            return found, "import"
        hits = state.get("protocols", {}).get(mod, {}).get(member, [])
        return (hits[0], "protocol") if len(hits) == 1 else (None, "")


LANGUAGES = (Clojure(),)
