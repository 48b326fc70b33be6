"""C and C++: one family, two labels (``c``, ``cpp``).

Files: ``.c`` is C; ``.cc .cpp .cxx .c++ .hh .hpp .hxx .h++ .ipp .tpp .inl`` are C++; a ``.h``
that declares Objective-C goes to ``objc.py``; any other ``.h`` is C unless its text looks like
C++ (a namespace, a template, a class with a body or access labels, ``::`` between names,
``virtual``; comments and strings ignored), as the reference CLI decides too.

Before parsing, macros that tree-sitter cannot know are blanked (same length, newlines kept, so
lines and columns stay those of the file): export/annotation macros (``LUA_API int f(``,
``class LEVELDB_EXPORT Status {``, ``ABSL_NAMESPACE_BEGIN`` on its own line, ``void Lock()
ABSL_EXCLUSIVE_LOCK_FUNCTION();``) and ``#if 0`` blocks. When ``#ifdef`` branches still break the
parse (an ``if … else`` split across branches, as in curl), the file is parsed once more with only
the first live branch of each conditional kept, and the cleaner parse wins. A definition the
grammar still mangles (``MACRO Type name(``) gets its name back from the token before the
parameter list.

Definitions: functions (prototypes too: a header's declaration is a node whose signature ends with
``;``), function-like macros (as functions) and object-like macros (constants), structs, unions,
enums and their members, typedefs; C++ adds namespaces, classes, methods (in-class, and out of
line as ``Foo::bar``: the definition's owner is ``Foo``), fields, aliases. Namespaces prefix
qualified names (``leveldb::log::Writer::AddRecord``); an anonymous namespace adds nothing but makes
its members file-local (like ``static``).

Resolution: ``#include "…"`` relative to the including file, then any project file whose path ends
with the spec (several: the one under the deepest folder enclosing the includer, as ``-I`` paths
are; a spec may start above the indexed root, like abseil's ``absl/…``); ``<…>`` only the latter,
never for standard headers. A header's names are seen through includes (transitively), namespace
blocks of one namespace are merged, file-local names stay in their file. An edge to a prototype is
moved to its definition (same qualified name and parameter types). ``this->m()`` and bare member
names inside a class, members of typed locals, parameters and fields (``Foo* p; p->m()``), return
types (``auto x = make()``), ``Foo::m()`` and ``ns::f()``; ``new Foo`` and ``Foo f(…)``
instantiate. C++ overloads are chosen by argument count and refused when the count cannot decide.
No unique-name fallback: C and C++ declare before use, so a name no include declares stays
unresolved.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections import defaultdict
from typing import ClassVar

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.extract import call_chain as chain_of_calls
from codegraph.index.languages._cfamily_source import looks_like_cpp, prepared
from codegraph.index.languages._objc_source import looks_like_objc
from codegraph.index.languages._shadow import declared
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

# ---------------------------------------------------------------------------------------------------
# Names that never bind to project definitions unless declared by an included project header or
# defined in the file: the C standard library, POSIX basics and the C++ std entry points.
C_BUILTINS = frozenset(
    """
abort abs acos asin atan atan2 atexit atof atoi atol atoll bsearch calloc ceil clock cos cosh ctime difftime div
exit exp fabs fclose feof ferror fflush fgetc fgetpos fgets floor fmod fopen fprintf fputc fputs fread free
freopen frexp fscanf fseek fsetpos ftell fwrite getc getchar getenv gets gmtime isalnum isalpha iscntrl isdigit
isgraph islower isprint ispunct isspace isupper isxdigit labs ldexp ldiv localeconv localtime log log10 longjmp
malloc mblen mbstowcs mbtowc memchr memcmp memcpy memmove memset mktime modf perror pow printf putc putchar puts
qsort raise rand realloc remove rename rewind scanf setbuf setjmp setlocale setvbuf signal sin sinh snprintf
sprintf sqrt srand sscanf strcat strchr strcmp strcoll strcpy strcspn strerror strftime strlen strncat strncmp
strncpy strpbrk strrchr strspn strstr strtod strtok strtol strtoul strxfrm system tan tanh time tmpfile tmpnam
tolower toupper ungetc va_arg va_copy va_end va_start vfprintf vprintf vsnprintf vsprintf wcstombs wctomb
assert offsetof sizeof alignof static_assert errno strdup strndup strtoll strtoull fmin fmax round lround
close open read write lseek fsync fstat stat lstat unlink mkdir rmdir opendir readdir closedir getpid fork
execv execvp waitpid pipe dup dup2 select poll socket bind listen accept connect send recv sendto recvfrom
shutdown setsockopt getsockopt getaddrinfo freeaddrinfo gethostbyname inet_ntop inet_pton htons htonl ntohs
ntohl sleep usleep nanosleep gettimeofday clock_gettime pthread_create pthread_join pthread_mutex_lock
pthread_mutex_unlock pthread_mutex_init pthread_mutex_destroy pthread_cond_wait pthread_cond_signal
pthread_cond_broadcast pthread_self mmap munmap isatty fileno fdopen popen pclose getcwd chdir access
""".split()
)
CPP_BUILTINS = C_BUILTINS | frozenset(
    """
std move forward swap make_unique make_shared make_pair make_tuple get tie min max begin end size data
static_cast dynamic_cast reinterpret_cast const_cast typeid decltype noexcept alignas
""".split()
)
SELF_NAMES = frozenset({"this"})
# Standard headers: ``<x>`` never resolves to a project file of that name.
STD_HEADERS = frozenset(
    """
assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h setjmp.h
signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h
tgmath.h threads.h time.h uchar.h wchar.h wctype.h unistd.h fcntl.h pthread.h dirent.h dlfcn.h poll.h
algorithm any array atomic bitset cassert cctype cerrno cfloat chrono cinttypes climits clocale cmath
condition_variable cstdarg cstddef cstdint cstdio cstdlib cstring ctime cwchar deque exception filesystem
forward_list fstream functional future initializer_list iomanip ios iosfwd iostream istream iterator limits
list locale map memory mutex new numeric optional ostream queue random ratio regex set shared_mutex sstream
stack stdexcept streambuf string string_view system_error thread tuple type_traits typeindex typeinfo
unordered_map unordered_set utility valarray variant vector
""".split()
)
KEYWORDS = frozenset(
    """
if else while for do switch case return goto break continue sizeof typeof alignof defined new delete throw
catch try operator template typename class struct union enum namespace using public private protected
""".split()
)
PRIMITIVES = frozenset(
    """
void char short int long float double signed unsigned bool _Bool size_t ssize_t ptrdiff_t wchar_t char8_t
char16_t char32_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t uintptr_t auto
const volatile struct class union enum typename
""".split()
)
SMART_POINTERS = frozenset({"unique_ptr", "shared_ptr", "weak_ptr", "optional", "scoped_refptr", "Ref"})
FACTORIES = frozenset({"make_unique", "make_shared", "MakeRefCounted"})
# what binds a name (_shadow.declared): parameters and locals hide project functions of that name
BINDERS = frozenset(
    {
        "parameter_list",
        "parameter_declaration",
        "optional_parameter_declaration",
        "declaration",
        "init_declarator",
        "pointer_declarator",
        "reference_declarator",
        "parenthesized_declarator",
        "function_declarator",
        "array_declarator",
    }
)
IDENTS = frozenset({"identifier"})


def call_chain(node) -> str | None:
    """``p.get().prepare()``, ``pool->get().conn`` (see :func:`codegraph.index.extract.call_chain`)."""

    def field_name(n):
        field = n.child_by_field_name("field")
        return field if field is not None and field.type == "field_identifier" else None

    return chain_of_calls(
        node,
        call="call_expression",
        member="field_expression",
        callee=lambda n: n.child_by_field_name("function"),
        receiver=lambda n: n.child_by_field_name("argument"),
        name=field_name,
        plain=scoped_name,
    )


_IDENT = re.compile(r"[A-Za-z_]\w*")
# a call in a macro body: a name and "(" (members and # / ## operands are dropped where it is read)
_MACRO_CALL = re.compile(r"(?<!\w)([A-Za-z_]\w*)\s*\(")
# string and char literals and comments, blanked (kept the same length) before looking for calls
_MACRO_NOISE = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S)
CASTS = frozenset({"static_cast", "dynamic_cast", "reinterpret_cast", "const_cast", "bit_cast", "down_cast"})
FUNCTION_DECLARATOR_WRAPPERS = ("pointer_declarator", "reference_declarator", "parenthesized_declarator")

# ---------------------------------------------------------------------------------------------------
# Syntax helpers


def _strip_templates(name: str) -> str:
    out, depth = [], 0
    for ch in name:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def scoped_name(node) -> str | None:
    """``a.b.c`` for an identifier, a ``::``-qualified name (templates dropped, a leading ``::``
    dropped), a ``.``/``->`` field chain, or ``this``; None for anything else."""
    parts: list[str] = []
    while node is not None:
        t = node.type
        if t in (
            "identifier",
            "field_identifier",
            "type_identifier",
            "namespace_identifier",
            "this",
            "primitive_type",
        ):
            parts.append(text(node))
            break
        if t == "qualified_identifier":
            name = node.child_by_field_name("name")
            scope = node.child_by_field_name("scope")
            if name is None:
                return None
            inner = scoped_name(name)
            if inner is None:
                return None
            parts.append(inner)
            node = scope
            if node is None:
                break
            continue
        if t in ("template_function", "template_type", "template_method"):
            node = node.child_by_field_name("name")
            continue
        if t == "field_expression":
            field = node.child_by_field_name("field")
            if field is None:
                return None
            fname = scoped_name(field)
            if fname is None:
                return None
            parts.append(fname)
            node = node.child_by_field_name("argument")
            continue
        if t == "destructor_name":
            parts.append(text(node).replace(" ", ""))
            break
        if t == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
            continue
        if t == "pointer_expression":
            node = node.child_by_field_name("argument")
            continue
        return None
    if not parts:
        return None
    return ".".join(reversed(parts))


# Where a declaration declares a namespace-scope variable (not a member, not a local).
NAMESPACE_SCOPES = frozenset(
    {
        "translation_unit",
        "declaration_list",
        "linkage_specification",
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
    }
)


MAX_INCLUDED_FILES = 256  # headers walked for a namespace-scope variable's declared type
# signatures whose parameter reading is kept (param_range, param_key): resolution asks for the same
# overload families again and again (cpp-abseil: 28,776 ranges of 1,498 distinct signatures)
SIGNATURE_MEMO = 65536


def _function_declarator(decl):
    """The function_declarator under a declarator (through pointer/reference/parentheses), or None."""
    while decl is not None:
        if decl.type == "function_declarator":
            return decl
        if decl.type in FUNCTION_DECLARATOR_WRAPPERS:
            nxt = decl.child_by_field_name("declarator")
            if nxt is None:
                nxt = (
                    next((c for c in decl.named_children if c.type != "ERROR"), None)
                    if decl.type in ("parenthesized_declarator", "reference_declarator")  # `Conn &get();`
                    else None
                )
            decl = nxt
            continue
        return None
    return None


def _is_function_pointer(fd) -> bool:
    """``int (*put)(…)``: a function_declarator whose name is a parenthesised pointer declarator
    declares a pointer variable or field, not a function."""
    d = fd.child_by_field_name("declarator")
    return (
        d is not None
        and d.type == "parenthesized_declarator"
        and any(c.type == "pointer_declarator" for c in d.named_children)
    )


def _declarator_name(fd):
    """The name node of a function_declarator, unwrapping ``(name)``; a name swallowed by an ERROR
    before the parameter list (``MACRO Ret name(``) is recovered from that ERROR."""
    d = fd.child_by_field_name("declarator")
    params = fd.child_by_field_name("parameters")
    for c in fd.children:
        if c.type == "ERROR" and params is not None and c.end_byte <= params.start_byte:
            idents = [x for x in _walk(c) if x.type == "identifier"]
            if idents:
                return idents[-1]
    while d is not None and d.type == "parenthesized_declarator":
        d = next((c for c in d.named_children), None)
    if d is not None and d.type == "function_declarator":
        return _macro_wrapped_name(d)
    return d


def _macro_wrapped_name(inner):
    """The name in ``int X(foo)(void)``, which the grammar reads as a function_declarator whose
    declarator is another one: ``X`` with the single "parameter" ``foo``. C and C++ have no function
    returning a function, so ``X`` is a macro around the name (abseil's
    ``ABSL_INTERNAL_C_SYMBOL(AbslInternalMutexYield)()``) or the return type before a name
    parenthesised against a function-like macro (abseil's ``result_type(min)() const``,
    ``absl::uint128 (min)()``): either way the name is ``foo`` as written. None for anything else.
    A macro pasting the name (``lib_##n``) makes another linker symbol; ``foo`` is still the name the
    source spells (and that calls through the macro spell). ``int F(a)(b)(void)`` is None too: whether
    the name is ``a`` or ``b`` depends on what ``F(a)`` expands to."""
    wrapper = inner.child_by_field_name("declarator")
    if wrapper is None or wrapper.type == "function_declarator":
        return None
    params = inner.child_by_field_name("parameters")
    if params is None or params.named_child_count != 1:
        return None
    (param,) = params.named_children
    if param.type != "parameter_declaration" or param.named_child_count != 1:
        return None
    name = param.named_children[0]
    return name if name.type in ("type_identifier", "identifier") else None


def _std_template_member(fn) -> bool:
    """``std::numeric_limits<uint64_t>::max``: a member of a ``std`` class template named with its
    arguments. A project defines only specialisations of such a template (abseil's
    ``numeric_limits<absl::uint128>``), which the arguments choose, and names drop them: no call
    edge (cpp-abseil's int128.cc:33 reached abseil's specialisation for ``uint64_t``)."""
    if fn.type != "qualified_identifier":
        return False
    scope = fn.child_by_field_name("scope")
    if scope is None or scope.type != "namespace_identifier" or text(scope) != "std":
        return False
    node = fn.child_by_field_name("name")
    while node is not None and node.type == "qualified_identifier":
        inner = node.child_by_field_name("scope")
        if inner is not None and inner.type == "template_type":
            return True
        node = node.child_by_field_name("name")
    return False


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _var_name(decl) -> tuple[str | None, object]:
    """(variable name, the declarator holding it) for a declarator; pointers/references unwrapped."""
    while decl is not None:
        t = decl.type
        if t in ("identifier", "field_identifier"):
            return text(decl), decl
        if t in (
            "init_declarator",
            "pointer_declarator",
            "reference_declarator",
            "array_declarator",
            "parenthesized_declarator",
            "attributed_declarator",
        ):
            nxt = decl.child_by_field_name("declarator")
            if nxt is None:
                nxt = next((c for c in decl.named_children if c.type != "ERROR"), None)
            decl = nxt
            continue
        return None, None
    return None, None


def type_name(type_node) -> str | None:
    """The class a declared type means for member calls: cv/pointer/reference dropped, smart
    pointers and ``optional`` unwrapped to their element, namespaces as ``.``; None for primitives,
    ``auto`` and standard containers."""
    if type_node is None:
        return None
    t = type_node.type
    if t in ("primitive_type", "sized_type_specifier", "placeholder_type_specifier", "auto"):
        return None
    if t == "struct_specifier" or t == "class_specifier" or t == "union_specifier":
        name = type_node.child_by_field_name("name")
        return text(name) if name is not None else None
    if t == "template_type":
        name = type_node.child_by_field_name("name")
        base = text(name) if name is not None else ""
        if base in SMART_POINTERS:
            args = type_node.child_by_field_name("arguments")
            if args is not None and args.named_child_count:
                inner = args.named_children[0]
                inner = inner.child_by_field_name("type") if inner.type == "type_descriptor" else inner
                return type_name(inner)
        return None
    if t == "qualified_identifier":
        name = scoped_name(type_node)
        if name is None:
            return None
        head, _, tail = name.rpartition(".")
        if head == "std" or head.startswith("std."):
            if tail in SMART_POINTERS:
                inner = type_node.child_by_field_name("name")
                return type_name(inner)
            return None
        inner = type_node.child_by_field_name("name")
        if inner is not None and inner.type == "template_type":
            sub = type_name(inner)
            return sub
        return name
    if t == "type_identifier":
        name = text(type_node)
        return None if name in PRIMITIVES else name
    if t == "type_descriptor":
        return type_name(type_node.child_by_field_name("type"))
    return None


def return_type_text(type_node) -> str | None:
    """A function's return type as the resolver wants it (``Status``, ``Iterator`` for
    ``Iterator*``, ``Foo`` for ``std::unique_ptr<Foo>``), or None."""
    name = type_name(type_node)
    if name is None:
        return None
    return name.rsplit(".", 1)[-1]


def _prev_comments(node) -> str | None:
    """The comment block right above ``node`` (no blank line between), as plain text."""
    comments = []
    prev = node.prev_sibling
    line = node.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] >= line - 1:
        comments.append(prev)
        line = prev.start_point[0]
        prev = prev.prev_sibling
    if not comments:
        return None
    parts = []
    for c in reversed(comments):
        raw = text(c)
        if raw.startswith("/*"):
            raw = raw[2:-2] if raw.endswith("*/") else raw[2:]
            raw = "\n".join(ln.strip().lstrip("*").strip() for ln in raw.splitlines())
        else:
            raw = "\n".join(ln.strip().lstrip("/").lstrip("!<").strip() for ln in raw.splitlines())
        parts.append(raw.strip("*! \n"))
    doc = squash(" ".join(p for p in parts if p), MAX_DOCSTRING)
    return doc or None


# ---------------------------------------------------------------------------------------------------
CLASS_KINDS = {
    "class_specifier": "class",
    "struct_specifier": "struct",
    "union_specifier": "union",
    "enum_specifier": "enum",
}
# Query capture name (queries/c.scm, queries/cpp.scm) → handler.
CAPTURES = {
    "definition.namespace": "namespace",
    "definition.type": "type",
    "definition.typedef": "typedef",
    "definition.function": "function",
    "declaration": "declaration",
    "definition.field": "field",
    "definition.enum_member": "enumerator",
    "definition.macro": "macro",
    "import": "include",
    "import.using": "using",
    "reference.call": "call",
    "reference.new": "new",
    "local.range_for": "range_for",
}


class CFamilyExtractor(Extractor):
    """Shared by C and C++; ``self.cpp`` says which grammar's trees it reads."""

    def run(self):
        path = self.path.lower()
        if self.lang.label == "c" and path.endswith(".h"):
            from codegraph.index.languages import module_for

            if looks_like_objc(self.source):
                # an Objective-C header (@interface, @protocol, #import <Foundation/…>): its
                # module's extractor reads it, as Objective-C++ when C++ shows too
                objc = module_for("objcpp" if looks_like_cpp(self.source) else "objc")
                return objc.extractor(self.path, self.source, objc).run()
            if looks_like_cpp(self.source):
                self.lang = module_for("cpp")
                self.language = self.lang.label
                self.out.language = self.lang.label
        self.cpp = self.lang.cpp_rules
        self.source, self.tree = prepared(self.source, self.cpp, self.lang.grammar)
        self._arities: dict[tuple[int, int], int] = {}  # (line, col) of a call → its argument count
        self._anon: list[tuple[int, int]] = []  # byte ranges of anonymous namespaces
        self._access_memo: dict[int, dict[int, str]] = {}  # class body's node id → _access_labels
        out = super().run()
        for r in out.refs:
            r.arity = self._arities.get((r.line, r.col))
        return out

    def _arity_at(self, ts, arity: int | None) -> None:
        if arity is not None:
            self._arities[(ts.start_point[0] + 1, ts.start_point[1])] = arity

    # ------------------------------------------------------------ captures
    def handle(self, capture: str, ts) -> None:
        capture = CAPTURES.get(capture, capture)
        if capture == "namespace":
            self._namespace(ts)
        elif capture == "type":
            self._type(ts)
        elif capture == "typedef":
            self._typedef(ts)
        elif capture == "function":
            self._function(ts)
        elif capture == "declaration":
            self._declaration(ts)
        elif capture == "field":
            self._field(ts)
        elif capture == "enumerator":
            name = ts.child_by_field_name("name")
            if name is not None and ts.parent is not None and ts.parent.parent is not None:
                if (
                    ts.parent.parent.child_by_field_name("name") is not None
                    or ts.parent.parent.parent is not None
                ):
                    self.add_def(ts, "enum_member", name)
        elif capture == "macro":
            self._macro(ts)
        elif capture == "include":
            self._include(ts)
        elif capture == "using":
            self.import_node(ts, squash(text(ts)[len("using") :].rstrip(";").strip(), 120))
        elif capture == "call":
            self._call(ts)
        elif capture == "new":
            typ = ts.child_by_field_name("type")
            name = scoped_name(typ) if typ is not None else None
            if name:
                self.call_ref(ts, name, "instantiates")
        elif capture == "parameter":
            self._parameter(ts)
        elif capture == "range_for":
            self._range_for(ts)

    # ------------------------------------------------------------ definitions
    def _namespace(self, ts) -> None:
        name = ts.child_by_field_name("name")
        body = ts.child_by_field_name("body")
        if name is None:
            if body is not None:
                self._anon.append((body.start_byte, body.end_byte))
            return
        parts = text(name).replace(" ", "").split("::")
        parts = [p for p in parts if p and p != "inline"]
        if not parts:
            return
        d = self.add_def(ts, "namespace", None, name=parts[-1])
        if d is not None and len(parts) > 1:
            d.qualifier = "::".join(parts[:-1])

    def _type(self, ts) -> None:
        kind = CLASS_KINDS.get(ts.type)
        body = ts.child_by_field_name("body")
        if kind is None or body is None:
            return
        name = ts.child_by_field_name("name")
        span = ts
        if name is None:
            # typedef struct { … } Name;  → the struct is named by the typedef
            parent = ts.parent
            if parent is not None and parent.type == "type_definition":
                declarator = parent.child_by_field_name("declarator")
                vname, _ = _var_name(declarator) if declarator is not None else (None, None)
                if declarator is not None and declarator.type == "type_identifier":
                    vname = text(declarator)
                if not vname:
                    return
                d = self.add_def(ts, kind, None, span=parent, name=vname)
            else:
                return
        else:
            label = scoped_name(name)
            if not label:
                return
            owner, _, simple = label.rpartition(".")
            parent = ts.parent
            span = (
                parent
                if parent is not None and parent.type in ("template_declaration", "type_definition")
                else ts
            )
            d = self.add_def(ts, kind, None, span=span, name=simple)
            if d is not None and owner:
                d.owner = owner
        if d is None:
            return
        for c in ts.children:
            if c.type == "base_class_clause":
                for b in c.named_children:
                    if b.type in ("type_identifier", "qualified_identifier", "template_type"):
                        bname = scoped_name(b)
                        if bname:
                            self.base_ref(d, "extends", bname, b)

    def _typedef(self, ts) -> None:
        if ts.type == "alias_declaration":
            self.add_def(ts, "type_alias", ts.child_by_field_name("name"))
            return
        typ = ts.child_by_field_name("type")
        if typ is not None and typ.type in CLASS_KINDS and typ.child_by_field_name("body") is not None:
            tname = typ.child_by_field_name("name")
            for decl in ts.children_by_field_name("declarator"):
                if decl.type == "type_identifier" and (tname is None or text(decl) == text(tname)):
                    continue
                if decl.type == "type_identifier":
                    self.add_def(ts, "type_alias", decl)
            return
        for decl in ts.children_by_field_name("declarator"):
            name = None
            if decl.type == "type_identifier":
                name = decl
            else:
                fd = _function_declarator(decl) or decl
                inner = fd.child_by_field_name("declarator") if fd is not None else None
                while inner is not None and inner.type not in ("type_identifier", "identifier"):
                    inner = inner.child_by_field_name("declarator") or next(
                        (
                            c
                            for c in inner.named_children
                            if c.type in ("type_identifier", "pointer_declarator", "parenthesized_declarator")
                        ),
                        None,
                    )
                name = inner
            if name is not None:
                self.add_def(ts, "type_alias", name)

    def _function(self, ts) -> None:
        if self._in_function_body(ts):
            # C and C++ have no function definition inside a function body (a local class's
            # member sits in the class body, which stops the walk): this is a macro misparsed as
            # one, e.g. Lua's ``vmdispatch (GET_OPCODE(i)) {`` (a ``switch``) in ``luaV_execute``.
            # No node: its calls and references belong to the enclosing function.
            return
        fd = _function_declarator(ts.child_by_field_name("declarator"))
        if fd is None:
            return
        self._function_like(ts, fd, prototype=False)

    def _function_like(self, ts, fd, *, prototype: bool) -> Def | None:
        name_node = _declarator_name(fd)
        if name_node is None:
            return None
        label = scoped_name(name_node)
        if name_node.type == "operator_name":
            label = text(name_node).replace(" ", "")
        elif name_node.type == "qualified_identifier":
            inner = name_node
            while inner is not None and inner.type == "qualified_identifier":
                inner = inner.child_by_field_name("name")
            if inner is not None and inner.type == "operator_name":
                scope = text(name_node)[: -len(text(inner))].rstrip(":")
                label = _strip_templates(scope).replace("::", ".") + "." + text(inner).replace(" ", "")
        if not label:
            return None
        owner, _, simple = label.rpartition(".")
        if simple in KEYWORDS or not simple:
            return None
        span = ts.parent if ts.parent is not None and ts.parent.type == "template_declaration" else ts
        d = self.add_def(ts, "function", None, span=span, name=simple)
        if d is None:
            return None
        if owner:
            d.owner = owner
        if not prototype:
            body = ts.child_by_field_name("body")
            params = fd.child_by_field_name("parameters")
            for p in params.named_children if body is not None and params is not None else ():
                for name in declared(p, BINDERS, IDENTS):
                    self.local_name(body, name)  # void draw(void (*render)(void)) { render(); }
                if self.cpp:
                    self._parameter(p, body)
        return d

    def _declaration(self, ts) -> None:
        parent = ts.parent
        if parent is not None and parent.type == "friend_declaration":
            return  # a friend names a function of the enclosing namespace, not a member
        in_body = self._in_function_body(ts)
        declarators = ts.children_by_field_name("declarator")
        typ = ts.child_by_field_name("type")
        for decl in declarators:
            fd = _function_declarator(decl)
            if fd is not None and _is_function_pointer(fd):
                fd = None
            if in_body and fd is None:
                for local in (
                    declared(decl, BINDERS, IDENTS, 1) if decl.type != "identifier" else [text(decl)]
                ):
                    self.local_name(ts, local)  # a local (auto render = [] {};) hides project functions
            if fd is not None and not in_body:
                if parent is not None and parent.type in (
                    "translation_unit",
                    "declaration_list",
                    "field_declaration_list",
                    "linkage_specification",
                    "template_declaration",
                    "preproc_if",
                    "preproc_ifdef",
                    "preproc_else",
                    "preproc_elif",
                    "ERROR",
                ):
                    self._function_like(ts, fd, prototype=True)
                continue
            if not self.cpp:
                continue
            name, holder = _var_name(decl)
            if not name:
                continue
            tname = type_name(typ)
            value = decl.child_by_field_name("value") if decl.type == "init_declarator" else None
            if tname is None and value is not None:
                tname = self._value_type(value)
            if tname and in_body:
                self.type_fact(ts, name, tname)
            elif tname and fd is None and parent is not None and parent.type in NAMESPACE_SCOPES:
                # `extern Registry g_registry;` / `Registry g_registry;`: a fact of the file (or the
                # namespace block) that an including file's `g_registry.add()` reads (issue 11)
                self.type_fact(ts, name, tname)
            if (
                value is not None
                and value.type in ("argument_list", "initializer_list")
                and (made := type_name(typ))
            ):
                self.call_ref(decl, made, "instantiates")
                self._arity_at(decl, _arity(value))

    def _value_type(self, value) -> str | None:
        """The type an initialiser produces, when it says so: ``new Foo``, ``Foo(…)``,
        ``std::make_unique<Foo>(…)``, or a call whose return type the resolver can infer."""
        if value.type == "new_expression":
            typ = value.child_by_field_name("type")
            return scoped_name(typ) if typ is not None else None
        if value.type == "call_expression":
            fn = value.child_by_field_name("function")
            if fn is None:
                return None
            if fn.type in ("qualified_identifier", "template_function"):
                inner = fn
                while inner is not None and inner.type == "qualified_identifier":
                    inner = inner.child_by_field_name("name")
                if inner is not None and inner.type == "template_function":
                    fname = inner.child_by_field_name("name")
                    if fname is not None and text(fname) in FACTORIES:
                        args = inner.child_by_field_name("arguments")
                        if args is not None and args.named_child_count:
                            first = args.named_children[0]
                            first = (
                                first.child_by_field_name("type")
                                if first.type == "type_descriptor"
                                else first
                            )
                            return type_name(first) or (scoped_name(first) if first is not None else None)
                        return None
            name = scoped_name(fn)
            if name and name.rsplit(".", 1)[-1] not in CASTS and not name.startswith("std."):
                return name
        return None

    def _field(self, ts) -> None:
        decls = ts.children_by_field_name("declarator")
        typ = ts.child_by_field_name("type")
        for decl in decls:
            fd = _function_declarator(decl)
            if fd is not None and not _is_function_pointer(fd):
                self._function_like(ts, fd, prototype=True)
                continue
            name, holder = _var_name(fd.child_by_field_name("declarator") if fd is not None else decl)
            if not name or holder is None:
                continue
            # one field_declaration may declare several fields: each spans its own name then
            self.add_def(
                ts,
                "field",
                holder,
                span=ts if len(decls) == 1 else holder,
                end=None if len(decls) == 1 else holder,
            )
            tname = type_name(typ) if self.cpp else None
            body = ts.parent
            if tname and body is not None and body.type == "field_declaration_list":
                anchor = body.children[0] if body.child_count else body
                self.type_fact(anchor, name, tname)
                self.type_fact(anchor, f"this.{name}", tname)

    def _macro(self, ts) -> None:
        name = ts.child_by_field_name("name")
        if name is None:
            return
        if ts.type == "preproc_function_def":
            self.add_def(ts, "function", name)
            self._macro_calls(ts, text(name))
        elif ts.child_by_field_name("value") is not None:
            self.add_def(ts, "constant", name)

    def _macro_calls(self, ts, macro: str) -> None:
        """Calls written in a function-like macro's body (``luaC_condGC``'s ``luaC_step(L)``), as calls
        from the macro: the body is tokens, not a tree, so only ``name(`` outside strings, chars and
        comments, not after ``.``, ``->``, ``#`` or ``##`` and not the macro's own parameters (a
        parameter called as a function names whatever the use site passes)."""
        value = ts.child_by_field_name("value")
        if value is None:
            return
        params = ts.child_by_field_name("parameters")
        own = set(_IDENT.findall(text(params))) if params is not None else set()
        body = _MACRO_NOISE.sub(lambda m: " " * len(m.group()), text(value))
        row, col = value.start_point
        for m in _MACRO_CALL.finditer(body):
            name = m.group(1)
            if name in own or name in KEYWORDS or name in CASTS or name == macro:
                continue
            before = body[: m.start(1)]
            if before.rstrip().endswith((".", "->", "#")):  # a member, or stringised / pasted (# ##)
                continue
            line = row + before.count("\n")
            column = m.start(1) - (before.rfind("\n") + 1) if "\n" in before else col + m.start(1)
            self.pending_refs.append(
                (value.start_byte + m.start(1), "calls", name, line + 1, column, None, None)
            )

    def _include(self, ts) -> None:
        path = ts.child_by_field_name("path")
        if path is None:
            return
        raw = text(path).strip()
        if path.type == "system_lib_string":
            spec, shown = raw, raw.strip("<>")
        elif path.type == "string_literal":
            spec = shown = raw.strip('"')
        else:
            return
        if not shown:
            return
        nid = self.import_node(ts, shown)
        self.bind(ts, "*", spec, "*", node=nid)

    # ------------------------------------------------------------ references
    def _call(self, ts) -> None:
        fn = ts.child_by_field_name("function")
        if fn is None:
            return
        args = ts.child_by_field_name("arguments")
        listed = args.named_children if args is not None else ()
        arity = (
            sum(1 for c in listed if c.type != "comment")
            if args is not None and args.type in _ARG_LISTS
            else None
        )
        self._passed(listed)
        if fn.type == "identifier":
            bare = text(fn)
            if bare in KEYWORDS:
                return
            self.ref(ts, "calls", bare, None)
            self._arity_at(ts, arity)
            return
        name = scoped_name(fn)
        if name is None:
            if fn.type == "field_expression":
                field = fn.child_by_field_name("field")
                arg = fn.child_by_field_name("argument")
                recv = call_chain(arg) if arg is not None and arg.type == "call_expression" else None
                if field is not None and recv:  # p.get().prepare().run()
                    self.ref(ts, "calls", f"{recv}.{text(field)}", recv)
                elif field is not None:
                    self.ref(ts, "calls", f"<expr>.{text(field)}", "<expr>")
            return
        tail = name.rsplit(".", 1)[-1]
        if tail in CASTS or _std_template_member(fn):
            return
        self.call_ref(ts, name)
        self._arity_at(ts, arity)

    def _passed(self, args) -> None:
        """Functions passed as arguments (``args``: a call's argument nodes) (``qsort(xs, n, size,
        compare)``, ``subscribe(&on_event)``, ``&Printer::print``): ``value`` references, so impact
        finds the place that passes them (a parameter or local of that name is data: the resolver's
        locals hide the function)."""
        for a in args:
            if a.type == "pointer_expression" and a.child_by_field_name("operator") is not None:
                if text(a.child_by_field_name("operator")) != "&":
                    continue
                a = a.child_by_field_name("argument")
            if a is None or a.type not in ("identifier", "qualified_identifier"):
                continue
            name = scoped_name(a)
            if not name or name in KEYWORDS:
                continue
            self.call_ref(a, name, "value")

    def _parameter(self, p, body=None) -> None:
        if body is None:
            return
        if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
            return
        tname = type_name(p.child_by_field_name("type"))
        decl = p.child_by_field_name("declarator")
        name, _ = _var_name(decl) if decl is not None else (None, None)
        if name and tname:
            self.type_fact(body, name, tname)

    def _range_for(self, ts) -> None:
        tname = type_name(ts.child_by_field_name("type"))
        decl = ts.child_by_field_name("declarator")
        name, _ = _var_name(decl) if decl is not None else (None, None)
        if name:
            self.local_name(ts, name)
        body = ts.child_by_field_name("body")
        if name and tname and body is not None:
            self.type_fact(body, name, tname)

    def _in_function_body(self, ts) -> bool:
        p = ts.parent
        while p is not None:
            if p.type in ("function_definition", "lambda_expression"):
                return True
            if p.type in ("translation_unit", "declaration_list", "field_declaration_list"):
                return False
            p = p.parent
        return False

    # ------------------------------------------------------------ driver hooks
    def filter_defs(self, defs: list[Def]) -> list[Def]:
        """Drop a prototype when this file also defines it (a forward declaration, or an in-class
        declaration of a member defined below in the same header)."""
        defined = set()
        for d in defs:
            if d.kind == "function" and d.ts.type == "function_definition":
                owner = d.owner.rsplit(".", 1)[-1] if d.owner else (self._class_of_ts(d.ts) or "")
                defined.add((owner, d.name))
        out = []
        for d in defs:
            if d.kind == "function" and d.ts.type not in ("function_definition", "preproc_function_def"):
                owner = d.owner.rsplit(".", 1)[-1] if d.owner else (self._class_of_ts(d.ts) or "")
                if (owner, d.name) in defined:
                    continue
            out.append(d)
        return out

    def _class_of_ts(self, ts) -> str | None:
        p = ts.parent
        while p is not None:
            if p.type in CLASS_KINDS:
                n = p.child_by_field_name("name")
                return text(n) if n is not None else None
            if p.type in ("translation_unit", "function_definition"):
                return None
            p = p.parent
        return None

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        if d.owner:
            chain = []
            p = d.parent
            while p is not None:
                chain.append(p.name)
                p = p.parent
            node.qualified_name = "::".join([*reversed(chain), *d.owner.split("."), d.name])
        span_node = ts.parent if ts.parent is not None and ts.parent.type == "template_declaration" else ts
        if node.kind in ("function", "method"):
            self._function_details(node, d)
        if node.kind == "type_alias" and ts.type in ("alias_declaration", "type_definition"):
            # using Store = Repo; / typedef Repo Bin;: the alias has the aliased class's members
            typ = ts.child_by_field_name("type")
            if typ is not None and typ.type == "type_descriptor":
                plain = typ.child_by_field_name("declarator") is None
                typ = typ.child_by_field_name("type") if plain else None
            elif any(c.type != "type_identifier" for c in ts.children_by_field_name("declarator")):
                typ = None  # typedef Repo *RepoPtr, a function type…
            aliased = (
                type_name(typ)
                if typ is not None and typ.type in ("type_identifier", "qualified_identifier")
                else None
            )
            if aliased:
                node.return_type = aliased
        if node.kind not in ("enum_member",):
            node.docstring = _prev_comments(span_node)
        if self._anon and node.kind != "namespace":
            b = ts.start_byte
            if any(a <= b < e for a, e in self._anon) and node.kind in (
                "function",
                "class",
                "struct",
                "union",
                "enum",
                "variable",
                "type_alias",
            ):
                node.visibility = "private"
        if node.kind in ("method", "field") and self.cpp:
            access = self._access(ts)
            if access:
                node.visibility = access

    def _access(self, ts) -> str | None:
        """public/private/protected from the nearest access label above a member, else the default
        of its class or struct. Each class body's labels are read once: walking back sibling by
        sibling (each step a scan of the parent's children in tree-sitter) was quadratic in the
        members of a class."""
        parent = ts.parent
        if parent is None:
            return None
        labels = self._access_memo.get(parent.id)
        if labels is None:
            labels = self._access_memo[parent.id] = _access_labels(parent)
        access = labels.get(ts.id)
        if access is not None:
            return access
        if parent.type == "field_declaration_list" and parent.parent is not None:
            return "private" if parent.parent.type == "class_specifier" else "public"
        return None

    def _function_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        if ts.type == "preproc_function_def":
            params = ts.child_by_field_name("parameters")
            node.signature = squash(f"#define {node.name}{text(params) if params is not None else '()'}")
            return
        decl = None
        for c in ts.children_by_field_name("declarator"):
            if _function_declarator(c) is not None:
                decl = c
                break
        if decl is None:
            return
        head_end = decl.end_byte
        start = ts.start_byte
        sig = self.source[start:head_end].decode("utf-8", "replace")
        prototype = ts.type != "function_definition"
        node.signature = squash(sig + (";" if prototype else ""))
        node.return_type = return_type_text(ts.child_by_field_name("type"))
        for c in ts.children:
            if c.type == "storage_class_specifier" and text(c) == "static":
                node.is_static = True
                if node.kind == "function":
                    node.visibility = "private"
            elif c.type == "virtual":
                pass
        if prototype and ts.type == "field_declaration":
            for c in ts.children:
                if c.type == "number_literal" and text(c) == "0":
                    node.is_abstract = True
        fd = _function_declarator(decl)
        if fd is not None and self.cpp:
            tparams = (
                ts.parent if ts.parent is not None and ts.parent.type == "template_declaration" else None
            )
            if tparams is not None:
                plist = tparams.child_by_field_name("parameters")
                if plist is not None:
                    names = []
                    for p in plist.named_children:
                        for c in p.named_children:
                            if c.type == "type_identifier":
                                names.append(text(c))
                                break
                    node.type_parameters = names or None


_ARG_LISTS = ("argument_list", "initializer_list")


def _arity(args) -> int | None:
    """How many arguments an argument list (or braced initialiser) passes; None when unknown."""
    if args is None or args.type not in _ARG_LISTS:
        return None
    return sum(1 for c in args.named_children if c.type != "comment")


@functools.lru_cache(maxsize=SIGNATURE_MEMO)
def param_range(signature: str | None, name: str) -> tuple[int, int | None] | None:
    """(fewest, most) arguments a function accepts, read from its signature text: defaults lower
    the first, ``...`` lifts the second (None = unbounded); None when the text has no list."""
    if not signature:
        return None
    open_at = _open_paren_after(signature, name)
    inner = _params_text(signature, open_at) if open_at != -1 else None
    if inner is None:
        return None
    params = _split_params(inner)
    if params == ["void"] or not params:
        return (0, 0)
    most: int | None = len(params)
    fewest = len(params)
    if "..." in params[-1]:  # C varargs, or a C++ parameter pack (``Args&&... args``)
        most = None
        fewest -= 1
    defaults = sum(1 for p in params if "=" in p)
    return (max(0, fewest - defaults), most)


@functools.lru_cache(maxsize=SIGNATURE_MEMO)
def param_key(signature: str | None, name: str) -> tuple[str, ...] | None:
    """The parameter types of a signature (names and defaults dropped), to pair a prototype with
    the definition of the same overload."""
    if not signature:
        return None
    open_at = _open_paren_after(signature, name)
    inner = _params_text(signature, open_at) if open_at != -1 else None
    if inner is None:
        return None
    key = []
    for p in _split_params(inner):
        p = p.split("=", 1)[0]
        tokens = re.findall(r"[A-Za-z_]\w*|::|[*&<>,\[\]]|\.\.\.", p)
        if len(tokens) > 1 and re.match(r"[A-Za-z_]", tokens[-1]) and tokens[-2] != "::":
            tokens = tokens[:-1]
        key.append(" ".join(tokens))
    return tuple(key)


def _open_paren_after(signature: str, name: str) -> int:
    r"""Where ``re.search(re.escape(name) + r"\s*\(", signature)`` finds the ``(``, or -1, without a
    regex per name (the re module's cache holds 512: cpp-abseil's resolution compiled 469 patterns,
    a third of param_range's time)."""
    i = signature.find(name)
    while i != -1:
        j = i + len(name)
        while j < len(signature) and signature[j].isspace():  # what ``\s`` matches in a str pattern
            j += 1
        if signature.startswith("(", j):
            return j
        i = signature.find(name, i + 1)
    return -1


def _params_text(signature: str, open_at: int) -> str | None:
    depth = 0
    for i in range(open_at, len(signature)):
        ch = signature[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return signature[open_at + 1 : i]
    return None


def _split_params(inner: str) -> list[str]:
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in inner:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    last = "".join(cur).strip()
    if last or out:
        out.append(last)
    return [p for p in out if p]


def _access_labels(parent) -> dict[int, str]:
    """Node id of each child of ``parent`` → the nearest access label above it (public/private/
    protected), for the children below one."""
    labels: dict[int, str] = {}
    current = None
    for c in parent.children:
        if current is not None:
            labels[c.id] = current
        if c.type == "access_specifier":
            current = text(c).rstrip(":").strip()
    return labels


# ---------------------------------------------------------------------------------------------------
class _Includes:
    """Include resolution tables for the C family: every C/C++ file by its file name, and the files
    each path suffix an include asked for names (issue 12: a table of every file by each of its path
    suffixes held 48 MB for Linux's 55,418 .c/.h files (235,553 suffixes), by name 11 MB, both with the
    set of paths; tracemalloc)."""

    def __init__(self, paths: list[str]):
        self.paths = set(paths)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for p in sorted(paths):
            self.by_name[p.rsplit("/", 1)[-1]].append(p)
        self._suffixed: dict[str, list[str]] = {}

    def _ending(self, key: str) -> list[str]:
        """The files whose path is ``key`` or ends with ``/key``, in path order."""
        hits = self._suffixed.get(key)
        if hits is None:
            tail = "/" + key
            named = self.by_name.get(key.rsplit("/", 1)[-1], ())
            hits = self._suffixed[key] = [p for p in named if p == key or p.endswith(tail)]
        return hits

    def find(self, from_path: str, spec: str, system: bool) -> str | None:
        spec = posixpath.normpath(spec.strip())
        if spec.startswith("../") or spec.startswith("/"):
            if system:
                return None
        if not system:
            here = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), spec))
            if here in self.paths:
                return here
        elif spec in STD_HEADERS:
            return None
        key = spec.lstrip("./")
        while key.startswith("../"):
            key = key[3:]
        hits = self._ending(key)
        while not hits and key.count("/") >= 2:
            # the project root may sit inside the include root: abseil's files live in absl/ and
            # include "absl/base/config.h" — drop leading folders, keeping at least dir/file
            key = key.split("/", 1)[1]
            hits = self._ending(key)
        if not hits:
            return None
        if len(hits) == 1:
            return hits[0]
        # several: the one under the deepest folder enclosing the including file (an include
        # directory up the tree, as -I paths usually are); none enclosing it → unresolved
        from_dir = posixpath.dirname(from_path)
        roots = {}
        for h in hits:
            root = h[: len(h) - len(key)].rstrip("/")
            if root == "" or from_dir == root or from_dir.startswith(root + "/"):
                roots[h] = root.count("/") + (1 if root else 0)
        if not roots:
            return None
        deepest = max(roots.values())
        top = [h for h, depth in roots.items() if depth == deepest]
        return top[0] if len(top) == 1 else None


class CFamily(LanguageModule):
    family = "c"
    cpp_rules = False  # C++ syntax and rules (namespaces, classes, overloads): C++ and CUDA
    # an #include names a file; what it brings in is seen by its file and the files including that one
    file_includes = True
    # may a file of it hold a namespace block (see _flatten_namespaces)? Not C's grammar
    namespaces: ClassVar[bool] = True
    self_names = SELF_NAMES
    unique_fallback = False
    implicit_members = True
    test_suffixes: ClassVar[tuple[str, ...]] = (
        "_test.c",
        "_test.cc",
        "_test.cpp",
        "_unittest.cc",
        "_unittest.cpp",
        "_tests.cc",
        "_test.cxx",
    )
    test_prefixes = ("test_",)
    generated_suffixes: ClassVar[tuple[str, ...]] = (
        ".pb.h",
        ".pb.cc",
        ".pb.c",
        ".grpc.pb.h",
        ".grpc.pb.cc",
        "_generated.h",
    )
    extractor = CFamilyExtractor

    def is_generated(self, path: str, head: str) -> bool:
        name = path.rsplit("/", 1)[-1]
        return name.startswith(("moc_", "qrc_", "ui_")) or super().is_generated(path, head)

    def prepare(self, project, files) -> None:
        state = project.lang_state.get("c")
        if state is None:
            paths = [p for p, lang in project.lang.items() if lang.family == "c"]
            state = project.lang_state["c"] = {"includes": _Includes(paths), "defs": None}
            if any(lang.family == "c" and lang.namespaces for lang in set(project.lang.values())):
                _flatten_namespaces(project)

    def choose_overload(self, project, ref, node: Node) -> Node | None:
        """C++ overloads: the one whose parameter count fits the call's argument count; None when
        several fit (or the count is unknown). C has no overloads.

        A call of a standard function that reaches an object-like macro of that name
        (``#define getenv vms_getenv`` in a platform shim) stays unresolved: such a macro renames the
        function only in the builds that define it, and the call means the library's everywhere else."""
        if node.kind == "constant" and ref.receiver is None and ref.name in self.builtins:
            return None
        if not self.cpp_rules or node.kind not in ("function", "method"):
            return node
        memo = project.lang_state["c"].setdefault("overloads", {})
        family = memo.get(node.id)
        if family is None:  # asked again for every call reaching ``node`` (cpp-abseil: 17,679 calls)
            family = memo[node.id] = _overloads(project, self, node)
        if len(family) == 1:
            return node
        if ref.arity is None:
            return None
        fits = []
        for n in family:
            r = param_range(n.signature, n.name)
            if r is None or (r[0] <= ref.arity and (r[1] is None or ref.arity <= r[1])):
                fits.append(n)
        return fits[0] if len(fits) == 1 else None

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        inc: _Includes = project.lang_state["c"]["includes"]
        system = spec.startswith("<")
        return inc.find(from_path, spec.strip("<>") if system else spec, system)

    def canonical(self, project, node: Node) -> Node:
        """A prototype (signature ending with ``;``) → the one definition with its qualified name
        (file-local definitions only from the same file); several → the one in the source file
        paired with the header (``x.h`` → ``x.c``), else the prototype itself."""
        if node.kind not in ("function", "method") or not (node.signature or "").endswith(";"):
            return node
        memo = project.lang_state["c"].setdefault("canonical", {})
        found = memo.get(node.id)
        if found is None:
            found = memo[node.id] = self._definition_of(project, node)
        return found

    def _definition_of(self, project, node: Node) -> Node:
        state = project.lang_state["c"]
        if state["defs"] is None:
            langs = project.lang

            def is_definition(n: Node) -> bool:
                signature = n.signature or ""
                return (
                    n.kind in ("function", "method")
                    and bool(signature)
                    and not signature.endswith(";")
                    and not signature.startswith("#define")
                    and langs.get(n.file_path) is not None
                    and langs[n.file_path].family == "c"
                )

            state["defs"] = project.by_qualified_name(is_definition)
        return _definition_for(node, state["defs"].get(node.qualified_name, ())) or node

    def declaration_of(self, node: Node, named: list[Node]) -> Node | None:
        """A prototype's definition among ``named``, paired as :meth:`canonical` pairs it (the
        definitions with the prototype's qualified name, overloads by parameter types), or None."""
        if node.kind not in ("function", "method") or not (node.signature or "").endswith(";"):
            return None
        defs = [
            n
            for n in named
            if n.kind in ("function", "method")
            and n.qualified_name == node.qualified_name
            and family_of(n.language) == "c"
            and n.signature
            and not n.signature.endswith(";")
            and not n.signature.startswith("#define")
        ]
        return _definition_for(node, defs)


def family_of(label: str) -> str | None:
    """The family of a language label (None for an unknown one)."""
    from codegraph.index.languages import registry

    module = registry().by_label.get(label)
    return module.family if module is not None else None


def _definition_for(node: Node, defs) -> Node | None:
    """The one of ``defs`` (definitions with ``node``'s qualified name) the prototype ``node`` declares:
    by parameter types among overloads; else the one visible from it (file-local ones only from its
    own file); several → the one in the source file paired with the header (``x.h`` → ``x.c``)."""
    if len(defs) > 1:
        # overloads share the qualified name: pair by parameter types
        key = param_key(node.signature, node.name)
        same = [n for n in defs if param_key(n.signature, n.name) == key]
        if len(same) == 1:
            return same[0]
    candidates = [
        n for n in defs if n.visibility != "private" or n.kind == "method" or n.file_path == node.file_path
    ]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        stem = posixpath.splitext(node.file_path)[0]
        paired = [n for n in candidates if posixpath.splitext(n.file_path)[0] == stem]
        if len(paired) == 1:
            return paired[0]
    return None


def _overloads(project, module, node: Node) -> list[Node]:
    """The distinct functions (prototypes mapped to their definitions) named like ``node`` in its
    class or namespace."""
    parent = project.parent.get(node.id)
    if parent is None:
        return [node]
    found: dict[str, Node] = {}
    for n in project.children.get(parent, {}).get(node.name, ()):
        if n.kind in ("function", "method"):
            c = module.canonical(project, n)
            found[c.id] = c
    return list(found.values()) or [node]


def _flatten_namespaces(project) -> None:
    """Make names declared inside namespace blocks visible as the file's top-level names (what an
    include brings in, namespace-insensitively), and let every block of one namespace see the
    members of all its blocks (namespaces are open: ``crc32c::Extend`` may be declared in another
    header than ``crc32c::Value``). Out-of-line members (owners) are left to owner attachment."""
    # only the files of a language with namespaces can hold a namespace block (C's grammar has none),
    # and a block's members are nodes of its own file: the other files are never read (a lazily filled
    # project leaves them unread; issue 12)
    walked = [
        path for path in project.files if project.lang[path].family == "c" and project.lang[path].namespaces
    ]
    owned = {nid for path in walked for nid, _ in project.files[path].owners}
    by_qname: dict[str, list[Node]] = defaultdict(list)
    for path in walked:
        top = project.top[path]
        stack = [n for nodes in list(top.values()) for n in nodes if n.kind == "namespace"]
        for n in stack:
            by_qname[n.qualified_name].append(n)
        while stack:
            ns = stack.pop()
            for name, members in list(project.children.get(ns.id, {}).items()):
                for m in members:
                    if m.id in owned or m.kind == "import":
                        continue
                    bucket = top.setdefault(name, [])
                    if m not in bucket:
                        bucket.append(m)
                    if m.kind == "namespace":
                        by_qname[m.qualified_name].append(m)
                        stack.append(m)
    for blocks in by_qname.values():
        if len(blocks) < 2:
            continue
        shared: dict[str, list[Node]] = defaultdict(list)
        local: dict[str, list[Node]] = {}
        for b in blocks:
            for name, members in project.children.get(b.id, {}).items():
                for m in members:
                    if _file_local(m):
                        local.setdefault(b.id, []).append(m)
                    else:
                        shared[name].append(m)
        for b in blocks:
            if b.id in local:
                # a file-local member (static, anonymous namespace) is seen from its own file only
                own: dict[str, list[Node]] = defaultdict(list, {k: list(v) for k, v in shared.items()})
                for m in local[b.id]:
                    own[m.name].append(m)
                project.children[b.id] = own
            else:
                project.children[b.id] = shared


def _file_local(node: Node) -> bool:
    """Internal linkage: a ``static`` or anonymous-namespace function, type or variable."""
    return node.visibility == "private" and node.kind not in ("method", "field")


class C(CFamily):
    label = "c"
    grammar = "c"
    name = "C"
    namespaces = False
    # prepare reads the paths (the include tables) and no namespace block; a prototype's definition
    # is looked up by its qualified name (by_qualified_name)
    lazy_resolution = True
    extensions = (".c", ".h")
    builtins = C_BUILTINS
    extracts = (
        "functions, prototypes, structs, unions, enums and members, typedefs, macros, fields, "
        "doc comments, signatures; macro-mangled definitions recovered"
    )
    resolution = (
        "#include (relative, include dirs in the tree, transitive), prototypes → definitions, "
        "static/file-local names, function-like macros"
    )


class Cpp(CFamily):
    label = "cpp"
    constructors_named_like_type = True
    unlisted_constructors = True  # the implicit copy and move constructors
    cpp_rules = True
    grammar = "cpp"
    name = "C++"
    extensions: ClassVar[tuple[str, ...]] = (
        ".cc",
        ".cpp",
        ".cxx",
        ".c++",
        ".hh",
        ".hpp",
        ".hxx",
        ".h++",
        ".ipp",
        ".tpp",
        ".inl",
    )
    builtins = CPP_BUILTINS
    extracts = (
        "namespaces, classes, structs, unions, enums, methods (in-class and out of line), "
        "fields, functions, prototypes, templates, typedefs/aliases, macros, doc comments"
    )
    resolution = (
        "#include like C, namespaces in qualified names, Foo::bar attached to Foo, this->, "
        "typed locals/params/fields, Foo::m and ns::f, new/stack construction → instantiates, "
        "bases"
    )

    def resolve_ref(self, project, path: str, ref):
        """``g_registry.add()`` where ``g_registry`` is a variable an included header declares at
        namespace scope (``extern Registry g_registry;``): that type's member. Only when no local,
        parameter, member or fact of this file names the receiver (the generic rules read those),
        and every header the file includes (transitively) that types the name agrees (issue 11)."""
        recv = ref.receiver
        if ref.kind != "calls" or not recv or not recv.isidentifier() or recv in self.self_names:
            return None
        if project.types.get(f"file:{path}", {}).get(recv):
            return None
        for scope in project.scopes(ref.source):
            if project.types.get(scope.id, {}).get(recv) or recv in project.locals.get(scope.id, ()):
                return None
            if scope.kind in ("class", "struct", "union") and project.member(scope.id, recv) is not None:
                return None
        memo = project.lang_state["c"].setdefault("global_types", {})
        key = (path, recv)
        if key not in memo:
            memo[key] = self._included_type(project, path, recv)
        typed = memo[key]
        if typed is None:
            return None
        target = project.member(typed.id, ref.name.rsplit(".", 1)[-1], ref)
        if target is None or target.kind not in ("method", "function"):
            return None
        return target, "type-inference"

    def _included_type(self, project, path: str, name: str) -> Node | None:
        """The one class the headers ``path`` includes (transitively) declare ``name`` with."""
        state = project.lang_state["c"]
        closures = state.setdefault("included", {})
        if path not in closures:
            direct = state.setdefault("direct_includes", {})  # file -> the files it includes
            seen = {path}
            order: list[str] = []
            queue = [path]
            while queue and len(order) < MAX_INCLUDED_FILES:
                current = queue.pop(0)
                heads = direct.get(current)
                # each header's includes looked up once, not once per closure it is in (cpp-abseil:
                # 97,000 look-ups)
                if heads is None:
                    heads = direct[current] = [
                        h
                        for star in project.star.get(current, ())
                        if (h := project.module_file(current, star.module)) is not None
                    ]
                for header in heads:
                    if header not in seen:
                        seen.add(header)
                        order.append(header)
                        queue.append(header)
            # only the headers with file-level type facts can answer (cpp-abseil: 1,318 lookups
            # walked whole include closures)
            closures[path] = [h for h in order if project.types.get(f"file:{h}")]
        found: dict[str, Node] = {}
        for header in closures[path]:
            for value in project.types[f"file:{header}"].get(name, ()):
                cls = project.class_of(header, f"file:{header}", value)
                if cls is None:
                    return None  # a type we cannot follow: no guess
                found[cls.id] = cls
        return next(iter(found.values())) if len(found) == 1 else None


LANGUAGES = (C(), Cpp())
