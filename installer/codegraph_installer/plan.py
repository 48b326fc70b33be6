"""Plan (pure text → text merges), apply (backup, temp file, atomic replace) and the dry-run diff.

A plan never touches the disk: it takes the current text of each file (None when missing) and returns
the text it should have (None to delete it). ``apply`` is the only writer.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegraph.errors import ConfigUnparsable
from codegraph_installer import jsonc

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


def is_our_server(entry: Any) -> bool:
    """An MCP entry codegraph wrote, recognised by content: it runs a ``codegraph`` executable (or
    ``python -m codegraph``) with ``serve``. Accepts the string or array ``command`` shapes."""
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    words = list(command) if isinstance(command, list) else [command]
    words += list(entry.get("args") or [])
    words = [w for w in words if isinstance(w, str)]
    if not words or "serve" not in words:
        return False
    head = os.path.basename(words[0]).removesuffix(".exe")
    return head == "codegraph" or (len(words) > 2 and words[1:3] == ["-m", "codegraph"])


@dataclass(frozen=True)
class FilePlan:
    """One file's change. ``before``/``after`` are full texts; None means absent."""

    path: Path
    before: str | None
    after: str | None

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


def read_text(path: Path) -> str | None:
    """The file's text exactly (no newline translation: CRLF stays CRLF), or None when it does not exist."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


# ------------------------------------------------------------------------------------------ JSON(C) files


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


def edit_json(
    path: Path, text: str | None, steps: Callable[[str], str], *, delete_if_empty: bool = True
) -> FilePlan:
    """Run ``steps`` (a chain of jsonc edits) over the file's text. A file that ends up as ``{}`` after
    edits that removed something is deleted when ``delete_if_empty`` (so install on a missing file then
    uninstall leaves no file)."""
    base, _ = parse_object(path, text)
    crlf = "\r\n" in base and base.count("\n") == base.count("\r\n")  # a Windows-edited file stays CRLF
    try:
        after = steps(base.replace("\r\n", "\n") if crlf else base)
    except jsonc.JsoncError as exc:
        raise ConfigUnparsable(f"{path}:{exc.line}: {exc.message}; nothing was written.") from None
    if crlf:
        after = after.replace("\n", "\r\n")
    if after == base:
        return FilePlan(path, text, text)
    if delete_if_empty and jsonc.loads(after) == {} and after.strip() == "{}" and text is not None:
        return FilePlan(path, text, None)
    return FilePlan(path, text, after)


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


def remove_key(text: str, path: tuple, matches: Callable[[Any], bool], prune: int) -> str:
    node = jsonc.find(jsonc.parse(text), path)
    if node is None or not matches(node.value):
        return text
    return jsonc.remove(text, path, prune=prune)


# ------------------------------------------------------------------------------------------------- apply


def apply(plan: Plan, backup_dir: Path) -> list[Path]:
    """Write the plan: back up each changed file under ``backup_dir``, write a temp file beside it and
    ``os.replace`` it (a crash leaves the old or the new file, never half of one; ``~/.claude.json`` is
    Claude's state file and Claude discards it whole when it fails to parse). Returns the backups made.
    Each file is checked to still hold ``before`` right before it is replaced."""
    backups: list[Path] = []
    stamp = time.strftime("%Y%m%dT%H%M%S")
    for change in plan.files:
        if change.status == "unchanged":
            continue
        path = change.path
        if read_text(path) != change.before:
            raise ConfigUnparsable(f"{path} changed while codegraph was planning; nothing more was written.")
        if change.before is not None:
            backup = backup_dir / stamp / str(path).lstrip("/").replace(":", "")
            backup.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, backup)
            backups.append(backup)
        if change.after is None:
            path.unlink()
            _remove_if_empty(path.parent)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, change.after)
    return backups


def _remove_if_empty(folder: Path) -> None:
    """Remove an agent folder (``.claude``, ``.vscode``…) that deleting our file left empty."""
    try:
        if folder.name.startswith(".") and not any(folder.iterdir()):
            folder.rmdir()
    except OSError:
        pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _atomic_write(path: Path, text: str) -> None:
    # Keep an existing file's mode; a new file gets what open() would give it (mkstemp makes 0600).
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
