"""R: ``.R`` / ``.r`` files.

Definitions are assignments: ``f <- function(…)`` (also ``=``, ``<<-`` and ``function(…) … -> f``)
at any depth (a function assigned inside a function is nested in it); ``Dog <- R6Class("Dog",
public = list(bark = function() …))`` and ``setRefClass(…, methods = list(…))`` are classes whose
list entries that are functions are methods; S4's ``setClass("Account", …)`` is a class and
``setGeneric("deposit", …)`` a function (``setMethod`` bodies belong to the file: a method of a
generic is no symbol of its own here). Roxygen ``#'`` comments are docstrings.

Imports: ``source("x.R")`` makes the sourced file's top-level names visible (a star import),
resolved relative to the sourcing file, then to the project root (R resolves it against the
working directory, usually the root), then as the one project file ending with that path.
``library(pkg)`` / ``require(pkg)`` / ``requireNamespace("pkg")`` import a package from outside
the project (an import node; nothing binds). The files directly in a package's ``R/`` folder
share one namespace (R collates them), so they see each other's top-level names without
``source`` (and so do the package's ``tests/testthat/`` files); any other script sees only what
it defines or sources — no unique-name fallback.

Calls: ``f(…)``, ``pkg::f(…)`` (outside the project: unresolved), ``obj$m(…)``; ``self$m()`` and
``private$m()`` inside an R6 class mean its own members; ``Dog$new(…)`` instantiates ``Dog`` and
types the variable it is assigned to, so ``d$bark()`` reaches ``Dog::bark``. Parameters and
variables assigned in a function shadow project definitions. Base R functions never bind to
project definitions unless the file defines or sources one.
"""

from __future__ import annotations

import posixpath

from codegraph.index.extract import MAX_DOCSTRING, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule, relative_file
from codegraph.model import Node

ASSIGN_LEFT = frozenset({"<-", "=", "<<-", ":="})
ASSIGN_RIGHT = frozenset({"->", "->>"})
CLASS_MAKERS = frozenset({"R6Class", "setRefClass", "R6::R6Class", "methods::setRefClass"})
MEMBER_LISTS = frozenset({"public", "private", "active", "methods"})
PACKAGE_LOADERS = frozenset({"library", "require", "requireNamespace", "loadNamespace"})
SOURCERS = frozenset({"source", "sys.source"})
R_BUILTINS = frozenset(
    """
c list vector character numeric integer logical double complex matrix array data.frame factor levels
length names nrow ncol dim seq seq_len seq_along rep rev sort order unique duplicated which any all
sum prod mean median min max range abs sqrt exp log log2 log10 round floor ceiling signif trunc
paste paste0 sprintf format formatC nchar substr substring strsplit gsub sub grepl grep regmatches
regexpr toupper tolower trimws sprintf cat print message warning stop stopifnot tryCatch try on.exit
invisible return function is.null is.na is.function is.character is.numeric is.list is.logical
is.data.frame is.environment inherits identical all.equal isTRUE isFALSE ifelse switch missing
match.arg do.call Reduce Filter Map lapply sapply vapply mapply rapply apply tapply Recall
environment new.env assign get get0 exists rm local with within attr attributes structure class
unclass oldClass setattr as.character as.numeric as.integer as.logical as.list as.vector
as.data.frame as.factor as.Date Sys.time Sys.getenv Sys.setenv Sys.Date file.path basename dirname
file.exists normalizePath readLines writeLines readRDS saveRDS read.csv write.csv nargs sys.call
sys.function match.call deparse substitute quote bquote eval evalq parse expression body formals
args emptyenv globalenv parent.frame parent.env setNames unlist rbind cbind merge head tail
t crossprod outer diag solve rnorm runif sample set.seed table tabulate cumsum cumprod diff
nlevels droplevels split unsplit vapply UseMethod NextMethod standardGeneric setClass setGeneric
setMethod setValidity validObject new isVirtualClass slot methods R6Class setRefClass library
require requireNamespace loadNamespace source sys.source Negate identity Vectorize mode typeof
storage.mode nlevels interactive suppressWarnings suppressMessages options getOption
""".split()
)


def _callee(call) -> str | None:
    """``f``, ``pkg.f`` (``pkg::f``), ``obj.m`` (``obj$m``/``obj@m``) for a call's function; None
    for anything else."""
    fn = call.child_by_field_name("function")
    if fn is None:
        return None
    if fn.type == "identifier":
        return text(fn)
    if fn.type in ("namespace_operator", "extract_operator"):
        lhs, rhs = fn.child_by_field_name("lhs"), fn.child_by_field_name("rhs")
        if lhs is not None and rhs is not None and lhs.type == "identifier" and rhs.type == "identifier":
            sep = "::" if fn.type == "namespace_operator" else "."
            return f"{text(lhs)}{sep}{text(rhs)}"
    return None


def _args(call) -> list:
    """The ``argument`` nodes of a call, in order."""
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type == "argument"] if args is not None else []


def _string_value(node) -> str | None:
    if node is not None and node.type == "string":
        content = node.child_by_field_name("content")
        return text(content) if content is not None else ""
    return None


def _arg_value(arg):
    return arg.child_by_field_name("value")


def _roxygen(ts) -> str | None:
    lines = []
    prev = ts.prev_named_sibling
    while prev is not None and prev.type == "comment" and text(prev).startswith("#'"):
        lines.append(text(prev)[2:].strip())
        prev = prev.prev_named_sibling
    doc = squash(" ".join(reversed([ln for ln in lines if ln])), MAX_DOCSTRING)
    return doc or None


class RExtractor(Extractor):
    """Assignments of functions and R6/RefClass generators, S4 classes and generics, source() and
    library() imports, calls."""

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.assignment":
            self._assignment(ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "local.parameter":
            name = ts.child_by_field_name("name")
            if name is not None:
                self.local_name(ts, text(name))
        elif capture == "local.for":
            var = ts.child_by_field_name("variable")
            if var is not None:
                self.local_name(ts, text(var))

    # ------------------------------------------------------------ definitions
    def _assignment(self, ts) -> None:
        op = ts.child_by_field_name("operator")
        lhs, rhs = ts.child_by_field_name("lhs"), ts.child_by_field_name("rhs")
        if op is None or lhs is None or rhs is None:
            return
        if text(op) in ASSIGN_RIGHT:
            lhs, rhs = rhs, lhs
        elif text(op) not in ASSIGN_LEFT:
            return
        if lhs.type == "string":
            name = _string_value(lhs)
        elif lhs.type == "identifier":
            name = text(lhs)
        else:
            return
        if not name:
            return
        if rhs.type == "function_definition":
            if ts.parent is not None and ts.parent.type == "argument":
                return  # a named argument (``list(bark = function() …)``): handled by its class
            self.add_def(ts, "function", None, name=name)
        elif rhs.type == "call" and _callee(rhs) in CLASS_MAKERS:
            self._class(ts, rhs, name)
        elif ts.parent is not None and ts.parent.type != "program" and text(op) != "<<-":
            self.local_name(ts, name)
            made = self._constructed(rhs)
            if made:
                self.type_fact(ts, name, made)
        elif rhs.type == "call":
            made = self._constructed(rhs)
            if made:
                self.type_fact(ts, name, made)

    def _constructed(self, call) -> str | None:
        """``Dog`` for ``Dog$new(…)`` or ``new("Dog", …)``."""
        if call.type != "call":
            return None
        callee = _callee(call)
        if callee and callee.endswith(".new") and callee.count(".") == 1:
            return callee[: -len(".new")]
        if callee == "new":
            args = _args(call)
            return _string_value(_arg_value(args[0])) if args else None
        return None

    def _class(self, ts, call, name: str) -> None:
        d = self.add_def(ts, "class", None, name=name)
        if d is None:
            return
        for arg in _args(call):
            aname = arg.child_by_field_name("name")
            value = _arg_value(arg)
            if aname is None or value is None:
                continue
            if text(aname) == "inherit" and value.type == "identifier":
                self.base_ref(d, "extends", text(value), value)
            elif text(aname) == "contains":
                base = _string_value(value)
                if base:
                    self.base_ref(d, "extends", base, value)
            elif text(aname) in MEMBER_LISTS and value.type == "call" and _callee(value) == "list":
                for member in _args(value):
                    mname, mval = member.child_by_field_name("name"), _arg_value(member)
                    if mname is None or mval is None:
                        continue
                    kind = "function" if mval.type == "function_definition" else "variable"
                    self.add_def(member, kind, mname)

    # ------------------------------------------------------------ references
    def _call(self, ts) -> None:
        callee = _callee(ts)
        if callee is None:
            return
        args = _args(ts)
        first = _arg_value(args[0]) if args else None
        if callee in SOURCERS and first is not None:
            spec = _string_value(first)
            if spec:
                self.bind(ts, "*", spec, "*")
            return
        if callee in PACKAGE_LOADERS and first is not None:
            pkg = _string_value(first) if first.type == "string" else text(first)
            if pkg and first.type in ("string", "identifier"):
                self.bind(ts, "", f"package:{pkg}", "")
            return
        if callee in ("setClass", "methods::setClass") and first is not None:
            name = _string_value(first)
            d = self.add_def(ts, "class", None, name=name) if name else None
            for arg in args[1:]:
                an = arg.child_by_field_name("name")
                if d is not None and an is not None and text(an) == "contains":
                    base = _string_value(_arg_value(arg))
                    if base:
                        self.base_ref(d, "extends", base, arg)
            return
        if callee in ("setGeneric", "methods::setGeneric") and first is not None:
            name = _string_value(first)
            if name:
                self.add_def(ts, "function", None, name=name)
            return
        if "::" in callee:
            pkg, _, fn = callee.partition("::")
            self.ref(ts, "calls", f"{pkg}::{fn}", f"{pkg}::")
            return
        made = self._constructed(ts)
        if made is not None and "." in callee:
            self.ref(ts, "instantiates", made, None)
            return
        self.call_ref(ts, callee)

    # ------------------------------------------------------------ details
    def node_details(self, node: Node, d) -> None:
        ts = d.ts
        node.docstring = _roxygen(ts)
        if node.kind in ("function", "method"):
            if ts.type == "call":  # setGeneric("f", function(x) …)
                values = [_arg_value(a) for a in _args(ts)]
            elif ts.type == "argument":  # an R6 / RefClass list entry
                values = [_arg_value(ts)]
            else:
                values = [ts.child_by_field_name("lhs"), ts.child_by_field_name("rhs")]
            fn = next((v for v in values if v is not None and v.type == "function_definition"), None)
            params = fn.child_by_field_name("parameters") if fn is not None else None
            if params is not None:
                node.signature = squash(f"{node.name} <- function{text(params)}")


class R(LanguageModule):
    label = "r"
    grammar = "r"
    name = "R"
    extensions = (".r",)
    builtins = R_BUILTINS
    self_names = frozenset({"self", "private", ".self"})
    method_containers = frozenset({"class"})
    unique_fallback = False
    line_comment = "#"
    test_prefixes = ("test-", "test_")
    extractor = RExtractor
    extracts = (
        "functions (f <- function), R6 and RefClass classes with their methods, S4 setClass "
        "classes and setGeneric generics, roxygen docs, signatures"
    )
    resolution = (
        "source() files (relative, then root), a package's R/ files share a namespace, "
        "self$/private$ members, Dog$new() instantiates and types; library()/pkg:: external"
    )

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        if spec.startswith("package:"):
            return None
        spec = spec.replace("\\", "/")
        for candidate in (relative_file(from_path, spec), posixpath.normpath(spec.lstrip("./"))):
            if candidate in project.files:
                return candidate
        tail = "/" + posixpath.normpath(spec).lstrip("./")
        hits = [p for p in project.files if ("/" + p).endswith(tail) and project.lang[p] is self]
        return hits[0] if len(hits) == 1 else None

    def visible_files(self, project, path: str) -> list[str]:
        """A package's ``R/`` files see each other; its ``tests/testthat/`` files see them too
        (testthat loads the package first)."""
        directory = posixpath.dirname(path)
        if directory == "tests/testthat" or directory.endswith("/tests/testthat"):
            directory = posixpath.join(posixpath.dirname(posixpath.dirname(directory)), "R")
        elif posixpath.basename(directory) != "R":
            return []
        return [p for p in project.files_in_dir(directory) if project.lang[p] is self]


LANGUAGES = (R(),)
