"""Pure JSON(C) edits of an agent's config text: parse it as an object, merge our entries in or take them
out, and return the FilePlan with the record of what was added. Nothing here touches the disk."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from codegraph.errors import ConfigUnparsable
from codegraph_installer import jsonc
from codegraph_installer.plan import FilePlan, added, lookup
from codegraph_installer.state import Record


def parse_object(path: Path, text: str | None) -> tuple[str, Any]:
    """The text to edit (``{}`` for a missing or blank file) and its value, checked to be an object.

    Raises:
        ConfigUnparsable: the text is not JSON(C) or its top level is not an object; names the file
            and line, so the user can fix it. Nothing is written.
    """
    if text is None or not text.strip():
        return "{}\n", {}
    try:
        root = jsonc.parse(text)
    except jsonc.JsoncError as exc:
        raise ConfigUnparsable(
            f"{path}:{exc.line}:{exc.column}: cannot parse ({exc.message}); nothing was written. "
            "Fix the file and run the command again."
        ) from None
    if root.kind != "object":
        line = text.count("\n", 0, root.start) + 1
        raise ConfigUnparsable(
            f"{path}:{line}: the top level is {'an' if root.kind == 'array' else 'a'} {root.kind}, "
            "expected an object; nothing was written."
        )
    return text, root.value


def edit_json(path: Path, text: str | None, steps: Callable[[str], str]) -> str | None:
    """Run ``steps`` (a chain of jsonc edits) over the file's text; returns the new text (``text``
    itself when nothing changed). A CRLF file stays CRLF.

    Raises:
        ConfigUnparsable: the file does not parse, or an edit met a value of the wrong type.
    """
    base, _ = parse_object(path, text)
    crlf = "\r\n" in base and base.count("\n") == base.count("\r\n")  # a Windows-edited file stays CRLF
    try:
        after = steps(base.replace("\r\n", "\n") if crlf else base)
    except jsonc.JsoncError as exc:
        raise ConfigUnparsable(f"{path}:{exc.line}: {exc.message}; nothing was written.") from None
    if crlf:
        after = after.replace("\n", "\r\n")
    return text if after == base else after


def _holds(array: Any, item: Any) -> bool:
    return isinstance(array, list) and item in array


def install_json(
    path: Path,
    text: str | None,
    steps: Callable[[str], str],
    old: Record | None,
    *,
    keys=(),
    items=(),
    replaced: tuple = (),
) -> FilePlan:
    """The install change of one JSON(C) file and its record: ``old`` plus what this edit adds among
    ``keys`` (object paths we set) and ``items`` ((array path, item) we append)."""
    after = edit_json(path, text, steps)
    new = added(parse_object(path, text)[1], jsonc.loads(after) if after is not None else {}, keys, items)
    new = Record(created=text is None, keys=new.keys, items=new.items, replaced=tuple(replaced))
    return FilePlan(path, text, after, (old or Record()).merge(new))


def uninstall_json(
    path: Path, text: str | None, steps: Callable[[str], str], record: Record | None
) -> FilePlan:
    """The uninstall change of one JSON(C) file. The file is deleted only when install created it
    (``record.created``) and it is back to ``{}``; a file the user had stays, even empty. The record
    keeps only what is still in the file."""
    after = edit_json(path, text, steps)
    record = record or Record()
    if after is None:
        return FilePlan(path, text, after, None)
    value = jsonc.loads(after)
    left = record.keep(
        keys=[k for k in record.keys if lookup(value, k)[0]],
        items=[(a, i) for a, i in record.items if _holds(lookup(value, a)[1], i)],
        replaced=[(k, v) for k, v in record.replaced if lookup(value, k)[0] and lookup(value, k)[1] != v],
    )
    if record.created and value == {} and after.strip() == "{}" and after != text:
        return FilePlan(path, text, None, None)
    return FilePlan(path, text, after, None if left.empty else left)


def get(text: str, path: tuple) -> Any:
    node = jsonc.find(jsonc.parse(text), path)
    return None if node is None else node.value


def ensure(text: str, path: tuple, value: Any) -> str:
    """Set ``path`` to ``value`` unless it already equals it."""
    return jsonc.set_value(text, path, value)


def ensure_item(text: str, path: tuple, item: Any) -> str:
    """Append ``item`` to the array at ``path`` unless it is already there."""
    current = get(text, path)
    if isinstance(current, list) and item in current:
        return text
    return jsonc.append(text, path, item)


def remove_items(text: str, path: tuple, matches: Callable[[Any], bool], prune: int) -> str:
    """Remove every item of the array at ``path`` for which ``matches`` holds, then prune up to
    ``prune`` containers that were emptied."""
    current = get(text, path)
    if not isinstance(current, list):
        return text
    for index in reversed(range(len(current))):
        if matches(current[index]):
            text = jsonc.remove(text, (*path, index), prune=prune)
    return text


def restore_or_remove(
    text: str, path: tuple, matches: Callable[[Any], bool], record: Record, prune: int
) -> str:
    """Take our entry at ``path`` out: put back the user's entry ``--replace`` overwrote (from
    ``record.replaced``), else remove the key and up to ``prune`` emptied containers. An entry that
    ``matches`` does not recognise as ours is never touched."""
    node = jsonc.find(jsonc.parse(text), path)
    if node is None or not matches(node.value):
        return text
    for key, value in record.replaced:
        if key == tuple(path):
            return jsonc.set_value(text, path, value)
    return jsonc.remove(text, path, prune=prune)


def foreign_note(path: Path, text: str | None, key: tuple, ours: Callable[[Any], bool]) -> list[str]:
    """The note uninstall gives when ``key`` holds an entry codegraph did not write (it stays)."""
    try:
        found, entry = lookup(jsonc.loads(text), key) if text and text.strip() else (False, None)
    except jsonc.JsoncError:
        return []
    if not found or ours(entry):
        return []
    return [f"left {'.'.join(map(str, key))} in {path} as it is: codegraph did not write it."]
