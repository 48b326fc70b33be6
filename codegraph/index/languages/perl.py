"""Perl: ``.pm`` modules, ``.pl`` scripts and ``.t`` tests.

``package Foo::Bar;`` opens a package that lasts until the next ``package`` statement (or is the
block of ``package Foo { … }``); its subs are its methods. ``use Foo::Bar qw(a b)`` binds ``a`` and
``b`` to Foo::Bar's subs; ``use`` / ``require`` of a module gives an ``imports`` edge to its file
(``Foo/Bar.pm`` from the project root, ``lib/``, or the one file in the tree ending that way).
Inheritance: ``use parent`` / ``use base`` lists, ``our @ISA = (…)`` / ``push @ISA, …``, and
Mojo::Base's ``use Mojo::Base 'Parent'`` (``-base`` means Mojo::Base itself; ``-strict`` is no base).
Mojo::Base / Moose-style ``has name => …`` declares an accessor (a property of the package).

Calls: ``f(…)`` is a sub of the current package, else an imported one; ``Foo::Bar::f(…)`` is
Foo::Bar's; builtins never bind. Method calls: ``$self->m`` / ``$class->m`` / ``shift->m`` /
``$_[0]->m`` / ``__PACKAGE__->m`` look ``m`` up in the current package and then its bases in order,
``$self->SUPER::m`` in the bases only, ``Foo->m`` in Foo and its bases, and ``$obj->m`` where ``my $obj
= Foo->new(…)`` in Foo. Any other receiver, or a dynamic ``$obj->$name``, makes no edge.
Docs are the ``#`` comment lines right above a sub.
"""

from __future__ import annotations

import re

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import METHOD_CONTAINERS, LanguageModule
from codegraph.model import Node

SELF_RECEIVERS = frozenset({"$self", "$class", "shift", "__PACKAGE__", "$proto", "$this", "$_[0]"})
# pragmas and core modules whose `use` is no project dependency (parent/base are read for bases)
PRAGMAS = frozenset(
    """
strict warnings utf8 feature lib constant vars overload integer bytes bigint bignum less locale
open sort subs version vmsish diagnostics autodie experimental mro re if fields
""".split()
)
BUILTINS = frozenset(
    """
abs accept alarm atan2 bind binmode bless caller chdir chmod chomp chop chown chr chroot close
closedir connect cos crypt defined delete die do dump each eof eval exec exists exit exp fcntl fileno
flock fork format formline getc getppid getpgrp getpriority glob gmtime goto grep hex index int ioctl
join keys kill last lc lcfirst length link listen local localtime log lstat map mkdir msgctl msgget
msgrcv msgsnd my next no oct open opendir ord our pack pipe pop pos print printf prototype push
quotemeta rand read readdir readline readlink readpipe recv redo ref rename require reset return
reverse rewinddir rindex rmdir say scalar seek seekdir select semctl semget semop send setpgrp
setpriority setsockopt shift shmctl shmget shmread shmwrite shutdown sin sleep socket socketpair sort
splice split sprintf sqrt srand stat study substr symlink syscall sysopen sysread sysseek system
syswrite tell telldir tie tied time times truncate uc ucfirst umask undef unlink unpack unshift untie
use utime values vec wait waitpid wantarray warn write sub has extends with croak confess carp cluck
""".split()
)
BASE_PRAGMAS = frozenset({"parent", "base"})
PACKAGE = re.compile(r"^[A-Za-z_]\w*(?:::\w+)*$")


def _strings(node) -> list[str]:
    """The words a use-list gives: ``'A'``, ``"A"``, ``qw(A B)``, barewords; ``-flags`` kept."""
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop(0)
        if n.type in ("string_literal", "interpolated_string_literal"):
            content = n.child_by_field_name("content")
            out.append(text(content) if content is not None else "")
        elif n.type == "quoted_word_list":
            content = n.child_by_field_name("content")
            out.extend(text(content).split() if content is not None else [])
        elif n.type == "autoquoted_bareword":
            out.append(text(n))
        elif n.type in ("bareword", "package"):
            out.append(text(n))
        else:
            stack[:0] = list(n.named_children)
    return out


def _doc(stmt) -> str | None:
    lines = []
    prev, line = stmt.prev_sibling, stmt.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] >= line - 1:
        lines.append(text(prev).lstrip("#").strip())
        line = prev.start_point[0]
        prev = prev.prev_sibling
    doc = " ".join(ln for ln in reversed(lines) if ln and set(ln) != {"#"})
    return squash(doc, MAX_DOCSTRING) or None


class PerlExtractor(Extractor):
    def begin(self, root) -> None:
        # packages first: the other captures (assignments to @ISA sort before them) ask which
        # package they are in
        self._packages: list[Def] = []
        stack = list(root.children)
        while stack:
            n = stack.pop(0)
            if n.type == "package_statement":
                self._package(n)
                stack.extend(c for b in n.named_children if b.type == "block" for c in b.children)

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.function":
            name = ts.child_by_field_name("name")
            if name is not None and "::" not in text(name):
                self.add_def(ts, "function", name)
        elif capture == "import":
            self._use(ts)
        elif capture == "import.require":
            word = next((c for c in ts.named_children if c.type == "bareword"), None)
            if word is not None and PACKAGE.match(text(word)):
                self.bind(ts, "", text(word), "")
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.method":
            self._method_call(ts)
        elif capture == "assign":
            self._assign(ts)

    # ------------------------------------------------------------ definitions
    def _package(self, ts) -> None:
        name = ts.child_by_field_name("name")
        if name is None:
            return
        end = ts
        if not any(c.type == "block" for c in ts.named_children):
            sib = ts.next_sibling
            while sib is not None and sib.type != "package_statement":
                end = sib
                sib = sib.next_sibling
        d = self.add_def(ts, "module", name, end=end)
        if d is not None:
            self._packages.append(d)

    def _package_at(self, ts) -> Def | None:
        byte = ts.start_byte
        found = None
        for d in self._packages:
            if d.start <= byte < d.end and (found is None or d.start >= found.start):
                found = d
        return found

    def _use(self, ts) -> None:
        module = ts.child_by_field_name("module")
        if module is None:
            return
        name = text(module)
        args = [c for c in ts.named_children if c.start_byte != module.start_byte]
        words = [w for a in args for w in _strings(a)]
        pkg = self._package_at(ts)
        if name in BASE_PRAGMAS:
            for w in words:
                if not w.startswith("-") and PACKAGE.match(w):
                    if pkg is not None:
                        self.base_ref(pkg, "extends", w, ts)
                    if "-norequire" not in words:
                        self.bind(ts, "", w, "")
            return
        if name in PRAGMAS or not PACKAGE.match(name) or name[0].islower() and "::" not in name:
            return
        if name == "Mojo::Base":
            for w in words:
                base = "Mojo::Base" if w == "-base" else w
                if pkg is not None and (w == "-base" or (not w.startswith("-") and PACKAGE.match(w))):
                    self.base_ref(pkg, "extends", base, ts)
                    if base != "Mojo::Base":
                        self.bind(ts, "", base, "")
        imported = [w for w in words if re.match(r"^&?[A-Za-z_]\w*$", w)]
        if name == "Mojo::Base" or not imported:
            self.bind(ts, "", name, "")
            return
        node = self.import_node(ts, name)
        for w in imported:
            self.bind(ts, w.lstrip("&"), name, w.lstrip("&"), node=node)

    def _assign(self, ts) -> None:
        left, right = ts.child_by_field_name("left"), ts.child_by_field_name("right")
        if left is None or right is None:
            return
        var = left
        if var.type == "variable_declaration":
            var = var.child_by_field_name("variable") or var
        if var.type == "array" and text(var).endswith("ISA"):
            pkg = self._package_at(ts)
            if pkg is not None:
                for i, r in enumerate(ts.children):
                    for w in _strings(r) if ts.field_name_for_child(i) == "right" and r.is_named else ():
                        if PACKAGE.match(w):
                            self.base_ref(pkg, "extends", w, ts)
            return
        if var.type == "scalar" and right.type == "method_call_expression":
            inv, method = right.child_by_field_name("invocant"), right.child_by_field_name("method")
            if inv is not None and inv.type == "bareword" and method is not None and text(method) == "new":
                self.type_fact(ts, text(var), text(inv))

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        if ts.type == "subroutine_declaration_statement":
            node.docstring = _doc(ts)
            sig = next((c for c in ts.named_children if c.type in ("signature", "prototype")), None)
            node.signature = squash(text(sig)) if sig is not None else None
            node.is_exported = not d.name.startswith("_")
        elif ts.type == "package_statement":
            node.is_exported = True
        elif node.kind == "property":
            node.signature = squash(text(ts))
            node.is_exported = True

    # ------------------------------------------------------------ references
    def _call(self, ts) -> None:
        fn = ts.child_by_field_name("function")
        if fn is None:
            return
        name = text(fn).lstrip("&")
        if name in ("has",) and self._package_at(ts) is not None:
            self._has(ts)
            return
        if name == "push":
            args = [c for c in ts.named_children if c.start_byte != fn.start_byte]
            if args and args[0].type == "array" and text(args[0]).endswith("ISA"):
                pkg = self._package_at(ts)
                for a in args[1:]:
                    for w in _strings(a):
                        if pkg is not None and PACKAGE.match(w):
                            self.base_ref(pkg, "extends", w, ts)
                return
        if not PACKAGE.match(name):
            return
        self.ref(ts, "calls", name, name.rsplit("::", 1)[0] if "::" in name else None)

    def _has(self, ts) -> None:
        """``has name => …`` / ``has [qw(a b)] => …`` / ``has 'name'``: accessors of the package."""
        fn = ts.child_by_field_name("function")
        args = [c for c in ts.named_children if c.start_byte != fn.start_byte]
        if not args:
            return
        words = [w for w in _strings(args[0]) if re.match(r"^[A-Za-z_]\w*$", w)]
        for i, word in enumerate(words):
            d = self.add_def(ts, "property", None, name=word)
            if d is not None and len(words) > 1:  # one byte each: siblings, not nested in each other
                d.start, d.end = ts.start_byte + i, ts.start_byte + i + 1

    def _method_call(self, ts) -> None:
        inv, method = ts.child_by_field_name("invocant"), ts.child_by_field_name("method")
        if inv is None or method is None or method.named_child_count:  # $obj->$name: dynamic
            return
        m = text(method)
        if inv.type == "scalar" or (inv.type == "array_element_expression" and text(inv) == "$_[0]"):
            recv = text(inv)  # $_[0] is the invocant, unshifted
        elif inv.type == "bareword" and PACKAGE.match(text(inv)):
            recv = text(inv)
        elif inv.type in ("func1op_call_expression", "func0op_call_expression") and text(inv) in (
            "shift",
            "__PACKAGE__",
        ):
            recv = text(inv)
        else:
            recv = "<expr>"
        self.ref(ts, "calls", f"{recv}->{m}", recv)


class Perl(LanguageModule):
    label = "perl"
    grammar = "perl"
    name = "Perl"
    extracts = (
        "packages (statement and block form) and their subs, has-accessors, use/require imports,"
        " calls and method calls, parent/base/@ISA/Mojo::Base inheritance, doc comments, signatures"
    )
    resolution = (
        "Foo::Bar → Foo/Bar.pm (root, lib/, or a unique path); subs of the current package, then"
        " use-imported names; $self/shift/__PACKAGE__ → the package and its bases (SUPER:: the"
        " bases), Foo->m, $obj from Foo->new; builtins never bind"
    )
    extensions = (".pm", ".pl", ".t")
    builtins = BUILTINS
    self_names = frozenset({"$self"})
    method_containers = METHOD_CONTAINERS | {"module"}
    unique_fallback = False
    line_comment = "#"
    extractor = PerlExtractor

    def is_test_file(self, path: str) -> bool:
        """``.t`` files, and anything under ``t/`` (Perl's test directory)."""
        return path.endswith(".t") or path.startswith("t/") or "/t/" in path

    def prepare(self, project, files) -> None:
        tails: dict[str, list[str]] = {}
        packages: dict[str, list[Node]] = {}
        for f in files:
            if f.path.endswith(".pm"):
                parts = f.path[:-3].split("/")
                for i in range(len(parts)):
                    tails.setdefault("::".join(parts[i:]), []).append(f.path)
            for n in f.nodes:
                if n.kind == "module":
                    packages.setdefault(n.name, []).append(n)
        for name, nodes in packages.items():  # the package's own file first (Foo/Bar.pm)
            want = name.replace("::", "/") + ".pm"
            nodes.sort(key=lambda n: (not n.file_path.endswith(want), n.file_path, n.start_line))
        project.lang_state["perl"] = {"tails": tails, "packages": packages}

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        rel = spec.replace("::", "/") + ".pm"
        for cand in (rel, "lib/" + rel):
            if cand in project.files:
                return cand
        hits = project.lang_state.get("perl", {}).get("tails", {}).get(spec, [])
        return hits[0] if len(hits) == 1 else None

    # ------------------------------------------------------------ resolution
    def _packages(self, project, name: str) -> list[Node]:
        return project.lang_state.get("perl", {}).get("packages", {}).get(name, [])

    def _in_package(self, project, pkg_name: str, name: str) -> Node | None:
        """A sub (or accessor) ``name`` declared in package ``pkg_name`` (any of its files)."""
        for pkg in self._packages(project, pkg_name):
            hits = project.children.get(pkg.id, {}).get(name)
            if hits:
                return hits[-1]
        return None

    def _method(self, project, pkg: Node, name: str, skip_self: bool = False) -> Node | None:
        """``name`` in ``pkg`` or its bases in method resolution order (Perl's default DFS ≈ C3 here)."""
        order = project.mro(pkg.id)[1:] if skip_self else project.mro(pkg.id)
        for pid in order:
            node = project.nodes.get(pid)
            if node is None:
                continue
            hit = self._in_package(project, node.name, name)
            if hit is not None:
                return hit
        return None

    def _current(self, project, source: str) -> Node | None:
        for n in project.scopes(source):
            if n.kind == "module":
                return n
        return None

    def resolve_ref(self, project, path: str, ref):
        if ref.kind == "extends":
            hits = self._packages(project, ref.name)
            return (hits[0], "package") if hits else (None, "")
        if ref.kind != "calls":
            return None, ""
        if "->" in ref.name:
            return self._resolve_method(project, path, ref)
        name = ref.name
        if "::" in name:
            pkg, _, sub = name.rpartition("::")
            target = self._in_package(project, pkg, sub)
            return (target, "qualified") if target is not None and target.kind != "module" else (None, "")
        if name in self.builtins:
            return None, ""
        current = self._current(project, ref.source)
        if current is not None:
            target = self._in_package(project, current.name, name)
            if target is not None:
                return target, "package"
        else:
            hits = [n for n in project.top[path].get(name, ()) if n.kind == "function"]
            if hits:
                return hits[-1], "local"
        binding = project.bindings[path].get(name)
        if binding is not None:
            target = self._in_package(project, binding.module, binding.imported)
            if target is not None:
                return target, "import"
        return None, ""

    def _resolve_method(self, project, path: str, ref):
        recv, _, method = ref.name.partition("->")
        current = self._current(project, ref.source)
        pkg: Node | None = None
        skip_self = False
        if method.startswith("SUPER::"):
            method = method[len("SUPER::") :]
            if recv not in SELF_RECEIVERS or current is None:
                return None, ""
            pkg, skip_self = current, True
        elif recv in SELF_RECEIVERS:
            pkg = current
        elif recv.startswith("$"):
            for scope in [*project.scopes(ref.source), None]:
                types = project.types.get(scope.id if scope else f"file:{path}", {}).get(recv)
                if types:
                    hits = self._packages(project, next(iter(types))) if len(types) == 1 else []
                    pkg = hits[0] if hits else None
                    break
        elif recv != "<expr>":
            hits = self._packages(project, recv)
            pkg = hits[0] if hits else None
        if pkg is None or "::" in method:
            return None, ""
        target = self._method(project, pkg, method, skip_self)
        return (target, "self" if recv in SELF_RECEIVERS else "type-inference") if target else (None, "")


LANGUAGES = (Perl(),)
