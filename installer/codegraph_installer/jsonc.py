"""Edit JSON-with-comments text in place, keeping every byte we do not mean to change.

Agents' config files (VS Code, opencode, Gemini, Cursor, and Claude's own JSON) are edited by people:
they hold comments, odd indentation, trailing commas. No maintained Python library edits JSONC and keeps
comments (json5 and friends drop them; see shared/FACTS.md), so this module parses the text into a tree
of nodes that remember their byte offsets, and every edit is a splice of the original text. Strict JSON is
a subset, so the same code serves plain ``.json`` files.

Paths are tuples of object keys (``str``) and array indexes (``int``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

Path = tuple[str | int, ...]


class JsoncError(ValueError):
    """The text is not JSON(C), or an edit met a value of the wrong type. ``line`` and ``column`` are
    1-based; ``column`` counts characters."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        self.message = message
        self.line = line
        self.column = column
        where = f" at line {line}, column {column}" if line else ""
        super().__init__(f"{message}{where}")


@dataclass
class Node:
    """A parsed value: ``kind`` is object/array/string/number/literal; ``start``/``end`` are character
    offsets of the value itself. Objects hold ``keys`` (with each key's start offset) aligned with
    ``children``; arrays hold ``children`` only."""

    kind: str
    start: int
    end: int = 0
    value: Any = None
    keys: list[tuple[str, int]] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)

    def slot_start(self, i: int) -> int:
        """Where member/item ``i`` begins (its key for objects)."""
        return self.keys[i][1] if self.kind == "object" else self.children[i].start

    def get(self, key: str) -> Node | None:
        for (name, _), child in zip(self.keys, self.children, strict=True):
            if name == key:
                return child
        return None

    def index_of(self, key: str) -> int:
        for i, (name, _) in enumerate(self.keys):
            if name == key:
                return i
        return -1


def _position(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, column


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 1 if text.startswith("\ufeff") else 0

    def fail(self, message: str, pos: int | None = None) -> JsoncError:
        return JsoncError(message, *_position(self.text, self.pos if pos is None else pos))

    def skip(self) -> None:
        """Skip whitespace and comments."""
        text, n = self.text, len(self.text)
        while self.pos < n:
            ch = text[self.pos]
            if ch in " \t\r\n":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("unterminated comment")
                self.pos = end + 2
            else:
                return

    def value(self) -> Node:
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("unexpected end of text, expected a value")
        ch = self.text[self.pos]
        if ch == "{":
            return self.container("object", "}")
        if ch == "[":
            return self.container("array", "]")
        if ch == '"':
            start = self.pos
            value = self.string()
            return Node("string", start, self.pos, value)
        return self.scalar()

    def string(self) -> str:
        decoder = json.JSONDecoder()
        try:
            value, end = decoder.raw_decode(self.text, self.pos)
        except json.JSONDecodeError as exc:
            raise self.fail(f"bad string: {exc.msg}", exc.pos) from None
        self.pos = end
        return value

    def scalar(self) -> Node:
        start = self.pos
        text = self.text
        for literal, value in (("true", True), ("false", False), ("null", None)):
            if text.startswith(literal, start):
                self.pos = start + len(literal)
                return Node("literal", start, self.pos, value)
        end = start
        while end < len(text) and text[end] in "+-0123456789.eE":
            end += 1
        if end == start:
            raise self.fail(f"unexpected character {text[start]!r}")
        try:
            value = json.loads(text[start:end])
        except json.JSONDecodeError:
            raise self.fail(f"bad number {text[start:end]!r}") from None
        self.pos = end
        return Node("number", start, end, value)

    def container(self, kind: str, close: str) -> Node:
        node = Node(kind, self.pos)
        self.pos += 1
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail(f"unexpected end of text, expected {close!r}")
            if self.text[self.pos] == close:
                self.pos += 1
                node.end = self.pos
                node.value = (
                    {k: c.value for (k, _), c in zip(node.keys, node.children, strict=True)}
                    if kind == "object"
                    else [c.value for c in node.children]
                )
                return node
            if node.children:
                if self.text[self.pos] != ",":
                    raise self.fail(f"expected ',' or {close!r}")
                self.pos += 1
                self.skip()
                if self.pos < len(self.text) and self.text[self.pos] == close:
                    continue  # trailing comma
            if kind == "object":
                if self.pos >= len(self.text) or self.text[self.pos] != '"':
                    raise self.fail("expected a quoted key")
                key_start = self.pos
                key = self.string()
                self.skip()
                if self.pos >= len(self.text) or self.text[self.pos] != ":":
                    raise self.fail("expected ':' after key")
                self.pos += 1
                node.keys.append((key, key_start))
            node.children.append(self.value())


def parse(text: str) -> Node:
    """Parse JSONC text (comments, trailing commas allowed).

    Raises:
        JsoncError: with the 1-based line and column of the first problem.
    """
    parser = _Parser(text)
    root = parser.value()
    parser.skip()
    if parser.pos != len(text):
        raise parser.fail("unexpected text after the value")
    return root


def loads(text: str) -> Any:
    """The Python value of JSONC text."""
    return parse(text).value


def find(root: Node, path: Path) -> Node | None:
    """The node at ``path``, or None when any step is missing or of the wrong type."""
    node: Node | None = root
    for step in path:
        if node is None:
            return None
        if isinstance(step, int):
            if node.kind != "array" or not 0 <= step < len(node.children):
                return None
            node = node.children[step]
        else:
            if node.kind != "object":
                return None
            node = node.get(step)
    return node


# ---------------------------------------------------------------------------------------------- editing


def _indent_unit(text: str) -> str:
    for line in text.splitlines():
        stripped = line.lstrip(" \t")
        if stripped and stripped != line and stripped[0] in '"{[}]':
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else lead
    return "  "


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _line_indent(text: str, pos: int) -> str:
    start = _line_start(text, pos)
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]


def _single_line(text: str, node: Node) -> bool:
    return "\n" not in text[node.start : node.end]


def _dump(value: Any, unit: str, prefix: str, inline: bool) -> str:
    if inline:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return json.dumps(value, ensure_ascii=False, indent=unit).replace("\n", "\n" + prefix)


def _after_comma(text: str, pos: int) -> int:
    """If a comma follows ``pos`` (past whitespace and comments), the offset just after it, else -1."""
    parser = _Parser(text)
    parser.pos = pos
    parser.skip()
    return parser.pos + 1 if parser.pos < len(text) and text[parser.pos] == "," else -1


def _end_of_line_comments(text: str, pos: int) -> int:
    """``pos`` moved past spaces and comments that end on the same line (not past the newline)."""
    while True:
        p = pos
        while p < len(text) and text[p] in " \t":
            p += 1
        if text.startswith("//", p):
            end = text.find("\n", p)
            return len(text) if end < 0 else end
        if text.startswith("/*", p):
            end = text.find("*/", p)
            if end >= 0 and "\n" not in text[p:end]:
                pos = end + 2
                continue
        return pos


def _splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _insert_slot(text: str, container: Node, body: Any, key: str | None) -> str:
    """Append a member (``key`` given) or an item to ``container``."""
    unit = _indent_unit(text)
    label = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
    close = container.end - 1
    if not container.children:
        inner = text[container.start + 1 : close]
        if not inner.strip():
            outer = _line_indent(text, container.start)
            child = outer + unit
            new = "\n" + child + label + _dump(body, unit, child, False) + "\n" + outer
            return text[: container.start + 1] + new + text[close:]
        child = _line_indent(text, container.start) + unit
        return _splice(
            text,
            [
                (
                    container.start + 1,
                    container.start + 1,
                    "\n" + child + label + _dump(body, unit, child, False),
                )
            ],
        )
    last = container.children[-1]
    comma = _after_comma(text, last.end)
    if _single_line(text, container):
        value = label + _dump(body, unit, "", True)
        if comma >= 0:
            return _splice(text, [(comma, comma, " " + value)])
        return _splice(text, [(last.end, last.end, ", " + value)])
    slot = container.slot_start(len(container.children) - 1)
    child = _line_indent(text, slot)
    if text[_line_start(text, slot) : slot].strip():
        child = _line_indent(text, container.start) + unit
    new = "\n" + child + label + _dump(body, unit, child, False) + ("," if comma >= 0 else "")
    at = _end_of_line_comments(text, comma if comma >= 0 else last.end)
    edits = [(at, at, new)]
    if comma < 0:
        edits.append((last.end, last.end, ","))
    return _splice(text, edits)


def _remove_slot(text: str, container: Node, i: int) -> str:
    """Delete member/item ``i`` of ``container`` with its comma and, when it sat on lines of its own,
    those lines."""
    n = len(container.children)
    start, end = container.slot_start(i), container.children[i].end
    if n == 1:
        inside = text[container.start + 1 : start] + text[_skip_comma(text, end) : container.end - 1]
        if not inside.strip():
            return text[: container.start + 1] + text[container.end - 1 :]
    edits: list[tuple[int, int, str]] = []
    comma = _after_comma(text, end)
    if comma >= 0:
        end = comma
    elif i > 0:
        prev_comma = _after_comma(text, container.children[i - 1].end)
        edits.append((prev_comma - 1, prev_comma, ""))
    line_start = _line_start(text, start)
    eol = end
    while eol < len(text) and text[eol] in " \t":
        eol += 1
    if not text[line_start:start].strip() and (eol >= len(text) or text[eol] in "\r\n"):
        start = line_start
        end = eol + (2 if text.startswith("\r\n", eol) else 1 if eol < len(text) else 0)
    elif i == n - 1 and i > 0 and comma < 0:
        while start > 0 and text[start - 1] in " \t":
            start -= 1
    else:
        while end < len(text) and text[end] in " \t":
            end += 1
    edits.append((start, end, ""))
    return _splice(text, edits)


def _skip_comma(text: str, pos: int) -> int:
    after = _after_comma(text, pos)
    return after if after >= 0 else pos


def set_value(text: str, path: Path, value: Any) -> str:
    """``text`` with the value at ``path`` (object keys only) set to ``value``; missing objects on the
    way are created. Unchanged text when the value is already equal.

    Raises:
        JsoncError: a step of the path holds something other than an object.
    """
    root = parse(text)
    node = root
    for depth, key in enumerate(path):
        if node.kind != "object":
            raise JsoncError(
                f"expected an object at {'.'.join(map(str, path[:depth])) or 'the top level'}",
                *_position(text, node.start),
            )
        child = node.get(key)  # type: ignore[arg-type]
        if child is None:
            body: Any = value
            for inner in reversed(path[depth + 1 :]):
                body = {inner: body}
            return _insert_slot(text, node, body, key)  # type: ignore[arg-type]
        node = child
    if node.value == value and type(node.value) is type(value):
        return text
    parent = find(root, path[:-1]) if path else None
    inline = parent is not None and _single_line(text, parent)
    new = _dump(value, _indent_unit(text), _line_indent(text, node.start), inline)
    return text[: node.start] + new + text[node.end :]


def append(text: str, path: Path, value: Any) -> str:
    """``text`` with ``value`` appended to the array at ``path`` (created, with its objects, if missing).

    Raises:
        JsoncError: the path holds something other than an array (or an object on the way).
    """
    root = parse(text)
    node = find(root, path)
    if node is None:
        return set_value(text, path, [value])
    if node.kind != "array":
        raise JsoncError(f"expected an array at {'.'.join(map(str, path))}", *_position(text, node.start))
    return _insert_slot(text, node, value, None)


def remove(text: str, path: Path, prune: int = 0) -> str:
    """``text`` without the member or item at ``path`` (unchanged when absent). Then up to ``prune``
    enclosing containers left empty by the removal are removed too (never the top level)."""
    root = parse(text)
    if not path or find(root, path) is None:
        return text
    parent = find(root, path[:-1])
    assert parent is not None
    last = path[-1]
    index = last if isinstance(last, int) else parent.index_of(last)
    text = _remove_slot(text, parent, index)
    for _ in range(prune):
        path = path[:-1]
        if not path:
            break
        node = find(parse(text), path)
        if node is None or node.children:
            break
        text = remove(text, path)
    return text
