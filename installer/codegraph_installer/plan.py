"""Plans: what an install or uninstall would change, as pure text → text (the current text of each
file, None when missing, and the text it should have, None to delete it), with the dry-run diff and
the record of what codegraph added. ``jsonedit`` builds the JSON(C) file plans; ``disk.apply`` is the
only writer.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegraph.errors import ConfigConflict
from codegraph_installer.state import Key, Record

SERVER_NAME = "codegraph"


@dataclass(frozen=True)
class Options:
    """What the user asked for. ``command``/``hook_command`` are absolute paths of the ``codegraph`` and
    ``codegraph-hook`` console scripts (tests pass fixed ones so golden files are stable)."""

    scope: str
    command: str
    hook_command: str
    prewarm: bool = False
    redirect_reads: bool = False
    frontload: bool = False  # the prompt hook: explore's envelope for prompts naming indexed code
    replace: bool = False  # overwrite a ``codegraph`` entry we did not write (uninstall puts it back)
    auto_allow: bool = True  # let codegraph's read-only tools run without a prompt (Claude, Gemini)


def is_our_server(entry: Any) -> bool:
    """An MCP entry codegraph wrote, recognised by content: it runs a ``codegraph`` executable (or
    ``python -m codegraph``) with ``serve``. Accepts the string or array ``command`` shapes."""
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    given = list(command) if isinstance(command, list) else [command]
    given += list(entry.get("args") or [])
    words: list[str] = [w for w in given if isinstance(w, str)]
    if not words or "serve" not in words:
        return False
    head = os.path.basename(words[0]).removesuffix(".exe")
    return head == "codegraph" or (len(words) > 2 and words[1:3] == ["-m", "codegraph"])


@dataclass(frozen=True)
class FilePlan:
    """One file's change. ``before``/``after`` are full texts; None means absent. ``record`` is what
    the state file should hold for this path once the change is written (None: forget the path)."""

    path: Path
    before: str | None
    after: str | None
    record: Record | None = field(default=None, compare=False)

    @property
    def status(self) -> str:
        """``unchanged``, ``create``, ``update`` or ``delete``."""
        if self.before == self.after:
            return "unchanged"
        if self.before is None:
            return "create"
        return "delete" if self.after is None else "update"

    def diff(self) -> str:
        """A unified diff of the change (empty when unchanged)."""
        lines = difflib.unified_diff(
            (self.before or "").splitlines(keepends=True),
            (self.after or "").splitlines(keepends=True),
            fromfile=str(self.path) if self.before is not None else "/dev/null",
            tofile=str(self.path) if self.after is not None else "/dev/null",
        )
        return "".join(
            line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
        )


@dataclass
class Plan:
    """What ``install``/``uninstall`` of one target would do: file changes and notes for the user."""

    target: str
    action: str
    scope: str
    files: list[FilePlan] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(f.status != "unchanged" for f in self.files)


Reader = Callable[[Path], "str | None"]


def claim(path: Path, value: Any, key: Key, entry_ok: Callable[[Any], bool], replace: bool) -> tuple:
    """Check that ``key`` is free for our entry: absent, or an entry ``entry_ok`` recognises as ours.
    Returns the ``replaced`` record entries: ``((key, old value),)`` when ``replace`` lets us overwrite
    someone else's entry, else ``()``.

    Raises:
        ConfigConflict: the key holds an entry we did not write and ``replace`` is off; names the file
            and the entry. Nothing is written.
    """
    found, current = lookup(value, key)
    if not found or entry_ok(current):
        return ()
    if replace:
        return ((key, current),)
    shown = json.dumps(current, default=str)
    shown = shown if len(shown) <= 200 else shown[:197] + "..."
    raise ConfigConflict(
        f"{path}: {'.'.join(map(str, key))} already holds an entry codegraph did not write: {shown}. "
        "Nothing was written. Rename or remove that entry, or run again with --replace to overwrite it "
        "(uninstall then puts it back)."
    )


def lookup(value: Any, key: tuple) -> tuple[bool, Any]:
    """(True, the value at ``key``) in a parsed document, or (False, None) when a step is missing."""
    for step in key:
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and isinstance(step, int) and -len(value) <= step < len(value):
            value = value[step]
        else:
            return False, None
    return True, value


def added(before: Any, after: Any, keys=(), items=()) -> Record:
    """What an install edit added: the prefixes of ``keys`` present after and not before, and the
    (array path, item) pairs of ``items`` present after and not before."""
    created: list[Key] = []
    for key in keys:
        for n in range(1, len(key) + 1):
            prefix = tuple(key[:n])
            if lookup(after, prefix)[0] and not lookup(before, prefix)[0] and prefix not in created:
                created.append(prefix)
    new_items = []
    for array, item in items:
        had, now = lookup(before, array)[1], lookup(after, array)[1]
        if isinstance(now, list) and item in now and not (isinstance(had, list) and item in had):
            new_items.append((tuple(array), item))
        for n in range(1, len(array) + 1):
            prefix = tuple(array[:n])
            if lookup(after, prefix)[0] and not lookup(before, prefix)[0] and prefix not in created:
                created.append(prefix)
    return Record(keys=tuple(created), items=tuple(new_items))
