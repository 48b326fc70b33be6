"""Source-level clean-ups for Objective-C before parsing, and the Objective-C test for ``.h`` files.

Like ``_cfamily_source``, every rewrite keeps the file's length and newlines, so lines stay those
of the file on disk (a rewritten line's columns may move within the line). Measured on React
Native's ``React/`` (../shared/LANGUAGES.md: 38 % of its ``.m`` files have ERROR nodes, nearly all
from macros written where the grammar expects a method: ``RCT_EXPORT_MODULE()`` without a
semicolon, ``RCT_EXPORT_METHOD(sel:(T)x) { … }``, ``RCT_NOT_IMPLEMENTED(- (instancetype)init)``).
The rules are structural, by where an ALL-CAPS macro call stands inside ``@implementation … @end``
(outside any brace), not by macro name.
"""

from __future__ import annotations

import re

from codegraph.index.languages._cfamily_source import group_end

_OBJC_SIGNS = re.compile(
    rb"^\s*(?:@interface|@implementation|@protocol\s+\w+\s*[<\n]|@class\s)"
    rb"|^\s*#\s*import\s*<(?:Foundation|UIKit|AppKit|Cocoa|QuartzCore|CoreGraphics)/",
    re.M,
)
_MASK = re.compile(rb'//[^\n]*|/\*.*?\*/|@?"(?:\\.|[^"\\\n])*"', re.S)
_MEMBER_MACRO = re.compile(rb"^([ \t]*)([A-Z][A-Z0-9]*_[A-Z0-9_]*)[ \t]*\(", re.M)
# ``sel`` or ``sel:(T)a more:(U)b`` — what RCT_EXPORT_METHOD and its kin take as their last argument
_SELECTOR = re.compile(
    rb"\s*[A-Za-z_]\w*(?:\s*:\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*[A-Za-z_]\w*"
    rb"(?:\s+[A-Za-z_]\w*\s*:\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*[A-Za-z_]\w*)*)?\s*"
)
_METHOD_HEAD = re.compile(rb"\s*[-+]\s*\(")


def looks_like_objc(data: bytes) -> bool:
    """Whether a header's text (comments and strings ignored) declares Objective-C: an
    ``@interface``, ``@implementation``, ``@protocol`` or ``@class``, or an ``#import`` of an Apple
    framework."""
    return _OBJC_SIGNS.search(_MASK.sub(b" ", data[:262144])) is not None


def _masked(src: bytes) -> bytes:
    def repl(m: re.Match) -> bytes:
        return re.sub(rb"[^\n]", b" ", m.group(0))

    return _MASK.sub(repl, src)


def _implementation_ranges(m: bytes) -> list[tuple[int, int]]:
    out = []
    for start in re.finditer(rb"@implementation\b", m):
        end = m.find(b"@end", start.end())
        out.append((start.end(), end if end != -1 else len(m)))
    return out


def _top_level_args(args: bytes) -> list[bytes]:
    parts, depth, cur = [], 0, bytearray()
    for c in args:
        if c == 40:
            depth += 1
        elif c == 41:
            depth -= 1
        if c == 44 and depth == 0:
            parts.append(bytes(cur))
            cur = bytearray()
        else:
            cur.append(c)
    parts.append(bytes(cur))
    return parts


def _put(out: bytearray, a: int, b: int, new: bytes) -> None:
    """Write ``new`` over ``out[a:b]`` (padded with spaces; newlines of the span kept)."""
    span = bytes(out[a:b])
    keep = [i for i, c in enumerate(span) if c == 10]
    flat = bytearray(new.replace(b"\n", b" ").ljust(b - a)[: b - a])
    for i in keep:
        flat[i] = 10
    out[a:b] = flat


def objc_source(data: bytes) -> bytes:
    """The bytes to parse: macro calls standing where a method belongs inside ``@implementation``
    rewritten so the grammar sees methods (same length, same newlines):

    - ``MACRO(sel:(T)x)`` or ``MACRO(js_name, sel:(T)x)`` followed by a body → ``- (void)sel:(T)x``
      (the selector is the method's name: RCT_EXPORT_METHOD, RCT_REMAP_METHOD…);
    - ``MACRO(- (T)sel…)`` with no body → the method header plus an empty body
      (RCT_NOT_IMPLEMENTED defines the method to throw);
    - another ``MACRO(args)`` followed by a body → ``- (void)MACRO`` (a method the macro writes;
      its name is the macro's, as no selector is written out);
    - any other ``MACRO(args)`` there (``RCT_EXPORT_MODULE()``, ``RCT_EXPORT_VIEW_PROPERTY(x, T)``)
      → blank, with a trailing ``;``.
    """
    if b"@implementation" not in data:
        return data
    m = _masked(data)
    ranges = _implementation_ranges(m)
    out = bytearray(data)
    for hit in _MEMBER_MACRO.finditer(m):
        start = hit.start(2)
        if not any(a <= start < b for a, b in ranges) or _brace_depth(m, ranges, start):
            continue
        open_at = hit.end() - 1
        close = group_end(m, open_at, b"{};")
        if close == -1:
            continue
        args = data[open_at + 1 : close - 1]
        rest = m[close : close + 200].lstrip()
        has_body = rest[:1] == b"{"
        last = _top_level_args(args)[-1]
        if _METHOD_HEAD.match(args) and not has_body:
            _put(out, start, close, args.strip() + b" {}")
        elif has_body and b":" in last and _SELECTOR.fullmatch(last):
            _put(out, start, close, b"- (void)" + last.strip())
        elif has_body and len(_top_level_args(args)) == 1 and _SELECTOR.fullmatch(last) and last.strip():
            _put(out, start, close, b"- (void)" + last.strip())
        elif has_body:
            _put(out, start, close, b"- (void)" + hit.group(2))
        else:
            end = close
            if m[end : end + 1] == b";":
                end += 1
            _put(out, start, end, b"")
    return bytes(out)


def _brace_depth(m: bytes, ranges: list[tuple[int, int]], pos: int) -> int:
    """Brace depth at ``pos`` counted from the start of its ``@implementation``."""
    a = next(a for a, b in ranges if a <= pos < b)
    seg = m[a:pos]
    return seg.count(b"{") - seg.count(b"}")
