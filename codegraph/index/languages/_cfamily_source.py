"""Source-level clean-ups for C and C++ before parsing, and the C-or-C++ test for ``.h`` files.

Every transformation returns bytes of the same length with the newlines in place, so the lines and
columns of the tree are those of the file on disk. Rules are structural (no macro name lists):
measured on lua, curl, leveldb and abseil (../shared/LANGUAGES.md: macros are where C/C++ ERROR
nodes come from; curl's ``#ifdef`` splitting ``if … else`` covers 11 % of its bytes).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

# ---------------------------------------------------------------------------------------------------
# .h: C or C++?
_STRIP = re.compile(rb'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)
_CPP_SIGNS = re.compile(
    rb"^\s*(?:namespace\s+[\w:]*\s*\{|template\s*<|(?:public|private|protected)\s*:|using\s+namespace\b"
    rb"|class\s+\w+[^;()]*\{)|\b\w+::~?\w+|\bvirtual\b",
    re.M,
)


def looks_like_cpp(data: bytes) -> bool:
    """Whether a header's text (comments and strings ignored) uses C++-only syntax.
    ``extern "C"`` is not a sign: C headers carry it for C++ callers."""
    return _CPP_SIGNS.search(_STRIP.sub(b" ", data[:262144])) is not None


# ---------------------------------------------------------------------------------------------------
# Offset-preserving source clean-ups (the returned bytes have the same length and newlines).
_MACRO = rb"[A-Z][A-Z0-9]*_[A-Z0-9_]*|[A-Z]{3,}[A-Z0-9]*"
_MASK = re.compile(rb'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_DECL_WORDS = frozenset(
    b"extern static inline const constexpr consteval constinit virtual explicit typedef struct class enum "
    b"union unsigned signed void int char bool long short float double auto friend template namespace "
    b"using volatile register thread_local _Noreturn noreturn __inline __inline__ size_t".split()
)
_NOT_DECL = frozenset(
    b"return case else goto throw co_return co_yield sizeof new delete do if while for switch".split()
)
_IDENT = re.compile(rb"[A-Za-z_]\w*")
_WS = re.compile(rb"[ \t]*")
_LINE_MACRO = re.compile(rb"^([ \t]*)(" + _MACRO + rb")\b", re.M)
_BETWEEN = re.compile(rb"(?:[ \t]*(?:::|<[^<>;(){}\n]*>|[*&]))*[ \t*&]+")
_PAREN_NAME = re.compile(rb"[ \t]*\([ \t]*\*?[ \t]*[A-Za-z_]\w*[ \t]*\)[ \t]*\(")
_PAREN_DECL = re.compile(
    rb"^([ \t]*)([A-Za-z_]\w*)[ \t]+(\([ \t]*[A-Za-z_]\w*[ \t]*\))[ \t]*\([^;{}]*\)[ \t]*;", re.M
)
# a blank run after ``)`` or a word, then an ALL_CAPS_ATTRIBUTE: the look-behind sits after the first
# blank, so that the engine can skip to the next blank instead of trying the pattern at every byte
_TRAILING = re.compile(rb"([ \t](?<=[)\w][ \t])[ \t]*)([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b")
_CLASS_MACRO = re.compile(
    rb"\b(?:class|struct|union)[ \t]+(" + _MACRO + rb")[ \t]+[A-Za-z_]\w*\b(?=[ \t]*(?:final\b|[:{]|\n))"
)
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|elifdef|elifndef)\b(.*)$")
_CPLUSPLUS = re.compile(rb"\b__cplusplus\b")
_CAPS_PREFIX = re.compile(rb"[A-Z][A-Z0-9]*_")
# What a match of _LINE_MACRO, _PAREN_DECL and _CLASS_MACRO must contain, starting with a byte the
# regex engine finds fast. Those patterns start with ``^`` or ``\b``, so a search tries them at
# every byte (two thirds of blank_macros on curl and abseil); they are tried only where these are.
_LINE_HINT = re.compile(rb"\n[ \t]*[A-Z]")  # a line whose first word starts upper-case
_PAREN_HINT = re.compile(rb"\)[ \t]*\(")  # ``) (`` on the declaration's first line
_CLASS_HINT = re.compile(rb"(?:class|struct|union)[ \t]+[A-Z]")


# byte maps for bytes.translate (C speed; a regex substitution per comment was a third of blank_macros)
_TO_SPACE = bytes(10 if b == 10 else 32 for b in range(256))  # every byte but LF → a space
_TO_X = bytes(10 if b == 10 else 120 for b in range(256))  # every byte but LF → ``x``
_BLANKED = bytes(b if b in (10, 13) else 32 for b in range(256))  # every byte but CR and LF → a space


def _mask(src: bytes) -> bytes:
    """Comments become spaces and literal contents ``x`` (same length, newlines kept)."""

    def repl(m: re.Match) -> bytes:
        s = m.group(0)
        if s[:1] in (b'"', b"'"):
            return s[:1] + s[1:-1].translate(_TO_X) + s[-1:]
        return s.translate(_TO_SPACE)

    return _MASK.sub(repl, src)


def _skip_blanks(m: bytes, i: int) -> int:
    """The first position at or after ``i`` that is not a space or tab."""
    blanks = _WS.match(m, i)
    assert blanks is not None  # ``[ \t]*`` matches, maybe empty, at every position
    return blanks.end()


def _blank(out: bytearray, a: int, b: int) -> None:
    """Every byte of ``out[a:b]`` but CR and LF becomes a space."""
    out[a:b] = out[a:b].translate(_BLANKED)


_GROUP_BYTES: dict[bytes, re.Pattern] = {}  # stops → a pattern of the bytes group_end acts on


def group_end(m: bytes, i: int, stops: bytes = b"{}") -> int:
    """Index just past the parenthesised group opening at ``m[i]``, or -1 (unbalanced, or a byte of
    ``stops`` met on the way, within 4,000 bytes). The regex engine skips the other bytes (a
    Python loop over each byte was a sixth of blank_macros on cpp-abseil)."""
    pattern = _GROUP_BYTES.get(stops)
    if pattern is None:
        pattern = _GROUP_BYTES[stops] = re.compile(b"[()" + re.escape(stops) + b"]")
    depth = 0
    for mt in pattern.finditer(m, i, min(len(m), i + 4000)):
        c = m[mt.start()]
        if c == 40:
            depth += 1
        elif c == 41:
            depth -= 1
            if depth == 0:
                return mt.start() + 1
        else:
            return -1
    return -1


def _prev_char(m: bytes, i: int) -> bytes:
    j = i - 1
    while j >= 0 and m[j] in b" \t\r\n":
        j -= 1
    return m[j : j + 1]


def _next_char(m: bytes, i: int) -> bytes:
    j = i
    while j < len(m) and m[j] in b" \t\r\n":
        j += 1
    return m[j : j + 1]


def _in_directive(m: bytes, line_start: int) -> bool:
    first = _skip_blanks(m, line_start)  # (a slice of the rest of the file here made the scan quadratic)
    if m[first : first + 1] == b"#":
        return True
    j = line_start - 2
    while j >= 0 and m[j] in b" \t\r":
        j -= 1
    return j >= 0 and m[j] == 92  # the previous line ends with a backslash


_NAMESPACE_HEAD = re.compile(rb"(?:\bnamespace\b[\w\s:]*|\bextern\s+\"x\"\s*)$")


_BRACES = re.compile(rb"[{}]")


def _brace_scopes(m: bytes) -> list[tuple[int, bool]]:
    """(offset, inside a non-namespace brace) at every brace of the masked text, in order: a
    position is at file scope when the last entry before it says False."""
    out: list[tuple[int, bool]] = [(0, False)]
    stack: list[bool] = []  # True: a namespace / extern "C" block
    others = 0  # entries of ``stack`` that are not namespace blocks
    last = 0  # just past the previous brace
    for mt in _BRACES.finditer(m):
        i = mt.start()
        c = m[i]
        if c == 123:  # {
            # the block's head starts after the previous brace or ``;`` (found here, not visited
            # one by one: two thirds of the loop's turns on cpp-abseil were semicolons)
            head = max(last, m.rfind(b";", last, i) + 1)
            namespace = (m.find(b"namespace", head, i) >= 0 or m.find(b"extern", head, i) >= 0) and bool(
                _NAMESPACE_HEAD.search(m[head:i].strip())
            )
            stack.append(namespace)
            others += not namespace
        elif stack:  # }
            others -= not stack.pop()
        last = i + 1
        out.append((i, others > 0))
    return out


def _at_file_scope(scopes: list[tuple[int, bool]], pos: int) -> bool:
    lo, hi = 0, len(scopes) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if scopes[mid][0] <= pos:
            lo = mid
        else:
            hi = mid - 1
    return not scopes[lo][1]


def _line_macros(m: bytes) -> Iterator[re.Match]:
    """``_LINE_MACRO.finditer(m)``, trying the pattern only at line starts _LINE_HINT finds (a match
    never crosses a line, so each line start is tried on its own)."""
    for start in itertools.chain((0,), (h.start() + 1 for h in _LINE_HINT.finditer(m))):
        mt = _LINE_MACRO.match(m, start)
        if mt is not None:
            yield mt


def _hinted(pattern: re.Pattern, hint: re.Pattern, m: bytes, *, line: bool) -> Iterator[re.Match]:
    """``pattern.finditer(m)``, trying the pattern only where ``hint`` matches (``line``: at the start
    of the line of each hint) and never inside the previous match."""
    end = 0
    for h in hint.finditer(m):
        start = m.rfind(b"\n", 0, h.start()) + 1 if line else h.start()
        if start < end:
            continue
        mt = pattern.match(m, start)
        if mt is not None:
            end = mt.end()
            yield mt


def blank_macros(src: bytes, cpp: bool) -> bytes:
    """Blank the ALL-CAPS macros that would derail the grammar (never in comments, strings or
    ``#`` lines): one alone on its line between declarations (``ABSL_NAMESPACE_BEGIN``); one, with
    or without arguments, starting a declaration (``LUA_API int f(``, ``CURL_EXTERN CURLcode f(``,
    ``ABSL_MUST_USE_RESULT bool F(``); an attribute after a declarator (``void Lock()
    ABSL_EXCLUSIVE_LOCK_FUNCTION();``, ``int x_ ABSL_GUARDED_BY(mu_);``); in C++ an export macro
    between ``class`` and the name (``class LEVELDB_EXPORT Status {``)."""
    m = _mask(src)
    out = bytearray(src)
    scopes = _brace_scopes(m)
    for mt in _line_macros(m):
        line_start = mt.start()
        if _in_directive(m, line_start):
            continue
        a, end = mt.start(2), mt.end(2)
        p = _skip_blanks(m, end)
        if m[p : p + 1] == b"(":
            q = group_end(m, p)
            if q == -1:
                continue
            end = q
        rest = _skip_blanks(m, end)
        nxt = m[rest : rest + 1]
        if nxt == b";" and end > mt.end(2) and _at_file_scope(scopes, a):
            # ``ABSL_FLAG(int, f, 1, "");`` at file/namespace scope: a declaration-making macro
            _blank(out, a, rest + 1)
            continue
        if nxt in (b"\n", b"\r", b""):
            prev = _prev_char(m, line_start)
            after = _next_char(m, rest)
            if (
                end == mt.end(2)
                and prev in (b";", b"{", b"}", b":", b")", b"")
                and after not in (b",", b")", b"=", b"+", b"-", b"|", b"&", b"?", b".", b"(")
                and not (prev == b"{" and after == b"}")
            ):
                _blank(out, a, end)
            continue
        w = _IDENT.match(m, rest)
        if not w or w.group(0) in _NOT_DECL:
            continue
        if w.group(0) in _DECL_WORDS:
            _blank(out, a, end)
            continue
        if _PAREN_NAME.match(m, w.end()):  # LUA_API lua_Unsigned (lua_rawlen) (lua_State *L…
            _blank(out, a, end)
            continue
        k = _BETWEEN.match(m, w.end())
        if k and k.end() > w.end():
            w2 = _IDENT.match(m, k.end())
            if w2 and w2.group(0) not in _DECL_WORDS:
                q = _skip_blanks(m, w2.end())
                after = m[q : q + 1]
                if after in (b"(", b";", b"=", b"[", b","):
                    _blank(out, a, end)
    for mt in _TRAILING.finditer(m):
        word = re.search(rb"(\w+)$", m[max(0, mt.start(1) - 40) : mt.start(1)])
        if word and word.group(1) in _NOT_DECL:
            continue
        if _in_directive(m, m.rfind(b"\n", 0, mt.start()) + 1):
            continue
        a = mt.start(2)
        end = mt.end(2)
        p = _skip_blanks(m, end)
        if m[p : p + 1] == b"(":
            q = group_end(m, p)
            if q == -1:
                continue
            end = q
        q = _skip_blanks(m, end)
        if (
            m[q : q + 1] in (b";", b"{", b"=", b",")
            or m.startswith((b"const", b"override", b"final", b"noexcept"), q)
            or _CAPS_PREFIX.match(m, q)
        ):
            _blank(out, a, end)
    for mt in _hinted(_PAREN_DECL, _PAREN_HINT, bytes(out), line=True):
        # ``lua_Alloc (lua_getallocf) (lua_State *L, …);``: with a typedef name in front, the grammar
        # reads a call of a call; without the parentheses around the name it is a prototype
        if mt.group(2) not in _NOT_DECL and not _in_directive(m, mt.start()):
            _blank(out, mt.start(3), mt.start(3) + 1)
            _blank(out, mt.end(3) - 1, mt.end(3))
    if cpp:
        for mt in _hinted(_CLASS_MACRO, _CLASS_HINT, m, line=False):
            _blank(out, mt.start(1), mt.end(1))
    return bytes(out)


def _dead_branch(kind: bytes, cond: bytes, cpp: bool) -> bool:
    c = re.sub(rb"/\*.*?\*/|//.*$", b"", cond).strip()
    if kind in (b"if", b"elif") and c in (b"0", b"(0)", b"false"):
        return True
    if _CPLUSPLUS.search(c):
        positive = kind == b"ifdef" or (kind in (b"if", b"elif") and b"!" not in c)
        return positive != cpp
    return False


def dead_code(src: bytes, cpp: bool) -> bytes:
    """``#if 0`` bodies (and, in C, ``#ifdef __cplusplus`` bodies) blanked; everything else kept."""
    if b"#" not in src:
        return src
    out = bytearray(src)
    lines = src.split(b"\n")
    pos = 0
    stack: list[tuple[bool, bool]] = []  # (this branch dead, group decided by a dead test)
    dead_depth = 0  # entries of ``stack`` whose branch is dead
    for line in lines:
        start, end = pos, pos + len(line)
        pos = end + 1
        mt = _DIRECTIVE.match(line)
        if mt:
            kind, cond = mt.group(1), mt.group(2)
            if kind in (b"if", b"ifdef", b"ifndef"):
                dead = _dead_branch(kind, cond, cpp)
                stack.append((dead, dead))
                dead_depth += dead
                continue
            if stack and kind in (b"else", b"elif", b"elifdef", b"elifndef"):
                dead, decided = stack[-1]
                # the branch after a dead test is the live one; after a live test, keep both sides
                stack[-1] = (False, decided)
                dead_depth -= dead
                continue
            if stack and kind == b"endif":
                dead_depth -= stack.pop()[0]
                continue
        if dead_depth:
            _blank(out, start, end)
    return bytes(out)


def flatten_conditionals(src: bytes, cpp: bool) -> bytes:
    """The first live branch of every conditional group kept, the other branches and all the
    directive lines blanked (for files whose ``#ifdef`` branches split statements)."""
    out = bytearray(src)
    lines = src.split(b"\n")
    pos = 0
    stack: list[list[bool]] = []  # [keeping this branch, a branch of the group was kept]
    i = 0
    while i < len(lines):
        start = pos
        j = i
        logical = lines[i]
        end = pos + len(lines[i])
        while logical.rstrip(b"\r").endswith(b"\\") and j + 1 < len(lines):
            j += 1
            end += 1 + len(lines[j])
            logical = logical.rstrip(b"\r")[:-1] + b" " + lines[j]
        mt = _DIRECTIVE.match(logical)
        if mt:
            kind, cond = mt.group(1), mt.group(2)
            if kind in (b"if", b"ifdef", b"ifndef"):
                keep = not _dead_branch(kind, cond, cpp)
                stack.append([keep, keep])
            elif kind in (b"elif", b"elifdef", b"elifndef") and stack:
                top = stack[-1]
                if top[1]:
                    top[0] = False
                else:
                    keep = not _dead_branch(kind, cond, cpp)
                    top[0] = top[1] = keep
            elif kind == b"else" and stack:
                top = stack[-1]
                top[0] = not top[1]
                top[1] = True
            elif kind == b"endif" and stack:
                stack.pop()
            _blank(out, start, end)
        elif not all(s[0] for s in stack):
            _blank(out, start, end)
        pos = end + 1
        i = j + 1
    return bytes(out)


def _error_bytes(root) -> int:
    """Bytes covered by outermost ERROR nodes, and 1 per zero-width MISSING node."""
    total = 0
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "ERROR":
            total += n.end_byte - n.start_byte
            continue
        if n.is_missing:
            total += 1
        if n.has_error:
            stack.extend(n.children)
    return total


def prepared(data: bytes, cpp: bool, grammar: str):
    """The bytes to parse: macros blanked, dead code blanked; conditionals flattened when that
    parses clearly better (fewer than half the ERROR bytes). Returns (bytes, their syntax tree when
    choosing them parsed them, else None): the extractor reuses that tree instead of parsing the same
    bytes again (issue 12: cpp-abseil parsed 1,369 times for 659 files)."""
    from codegraph.index.languages import parser_for

    src = dead_code(blank_macros(data, cpp), cpp)
    if b"#" not in src:
        return src, None
    parser = parser_for(grammar)
    tree = parser.parse(src)
    if not tree.root_node.has_error:
        return src, tree
    before = _error_bytes(tree.root_node)
    if before < 64:
        return src, tree
    flat = flatten_conditionals(src, cpp)
    flat_tree = parser.parse(flat)
    after = _error_bytes(flat_tree.root_node)
    return (flat, flat_tree) if after * 2 < before else (src, tree)
