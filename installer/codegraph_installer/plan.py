"""Plan (pure text → text merges), apply (backup, temp file, atomic replace) and the dry-run diff.

A plan never touches the disk: it takes the current text of each file (None when missing) and returns
the text it should have (None to delete it). ``apply`` is the only writer.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegraph.errors import ConfigConflict, ConfigUnparsable, ConfigUnwritable
from codegraph_installer import jsonc, state
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


def read_text(path: Path) -> str | None:
    """The file's text exactly (no newline translation: CRLF stays CRLF), or None when it does not exist.

    Raises:
        ConfigUnparsable: the file is not UTF-8 text (names the file, line and byte).
        ConfigUnwritable: a dangling symlink, not a regular file (a folder, a FIFO…), or unreadable.
    """
    path = Path(path)
    if path.is_symlink() and not path.exists():
        raise ConfigUnwritable(
            f"{path} is a symlink to {os.readlink(path)}, which does not exist; nothing was written. "
            "Create the file it points to, or remove the link, and run the command again."
        )
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise ConfigUnwritable(f"{path}: cannot be read ({exc.strerror}); nothing was written.") from None
    if not stat.S_ISREG(info.st_mode):
        raise ConfigUnwritable(f"{path} is not a regular file; nothing was written.")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigUnwritable(f"{path}: cannot be read ({exc.strerror}); nothing was written.") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigUnparsable(
            f"{path}:{line}: not UTF-8 text ({exc.reason} at byte {exc.start}); nothing was written. "
            "Fix the file and run the command again."
        ) from None


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


def foreign_note(path: Path, text: str | None, key: tuple, ours: Callable[[Any], bool]) -> list[str]:
    """The note uninstall gives when ``key`` holds an entry codegraph did not write (it stays)."""
    try:
        found, entry = lookup(jsonc.loads(text), key) if text and text.strip() else (False, None)
    except jsonc.JsoncError:
        return []
    if not found or ours(entry):
        return []
    return [f"left {'.'.join(map(str, key))} in {path} as it is: codegraph did not write it."]


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


# ------------------------------------------------------------------------------------------------- apply


def apply(plan: Plan, backup_dir: Path, state_file: Path) -> list[Path]:
    """Write the plan: back up each changed file under ``backup_dir``, write a temp file beside it and
    ``os.replace`` it (a crash leaves the old or the new file, never half of one; ``~/.claude.json`` is
    Claude's state file and Claude discards it whole when it fails to parse), then record what install
    added in ``state_file``. A symlinked config is written through the link (its target is replaced,
    the link stays). Returns the backups made.

    Every check comes first: each file still holds ``before``, is writable (mode bits, so a read-only
    file is refused even for root), and every folder needed can be created. If a write still fails,
    the files already written are put back: all or nothing.

    Raises:
        ConfigUnparsable: a file changed while codegraph was planning.
        ConfigUnwritable: a read-only file, a dangling link, or a folder or file that cannot be written;
            names the path.
    """
    changes = [c for c in plan.files if c.status != "unchanged"]
    if not changes:
        return []
    stamp = time.strftime("%Y%m%dT%H%M%S")
    backups = {c.path: backup_dir / stamp / str(c.path).lstrip("/").replace(":", "") for c in changes}
    for change in changes:
        if read_text(change.path) != change.before:
            raise ConfigUnparsable(
                f"{change.path} changed while codegraph was planning; nothing was written."
            )
        if change.before is not None:
            _check_writable(change.path)
    folders = [backups[c.path].parent for c in changes if c.before is not None]
    folders += [Path(os.path.realpath(c.path)).parent for c in changes if c.before is None]
    folders.append(state_file.parent)
    made = _make_folders(folders)
    done: list[FilePlan] = []
    try:
        for change in changes:
            if change.before is not None:
                shutil.copy2(change.path, backups[change.path])  # follows a symlink: the content
            if change.after is None:
                change.path.unlink()
            else:
                _atomic_write(change.path, change.after)
            done.append(change)
        records = state.load(state_file)
        for change in changes:
            key = state.key_of(change.path)
            if change.record is None or (change.record.empty and not change.record.created):
                records.pop(key, None)
            else:
                records[key] = change.record
        _atomic_write(state_file, state.dumps(records))
    except OSError as exc:
        _roll_back(done, made)
        where = exc.filename or (done[-1].path if done else state_file)
        raise ConfigUnwritable(
            f"cannot write {where} ({exc.strerror or exc}); nothing was changed "
            "(files already written were put back)."
        ) from exc
    for change in changes:
        if change.after is None:
            _remove_if_empty(change.path.parent)
    return [backups[c.path] for c in changes if c.before is not None]


def _check_writable(path: Path) -> None:
    real = os.path.realpath(path)
    mode = os.stat(real).st_mode
    if not mode & 0o222 or not os.access(real, os.W_OK):
        link = f" (a symlink to {real})" if os.path.islink(path) else ""
        raise ConfigUnwritable(
            f"{path}{link} is read-only (mode {stat.S_IMODE(mode):04o}); nothing was written. "
            f"Make it writable (chmod u+w {real}) and run the command again."
        )


def _make_folders(folders: list[Path]) -> list[Path]:
    """Create each folder (and parents); returns those that did not exist, deepest first, so a
    roll-back can remove them. On failure removes what it made and raises ConfigUnwritable."""
    made: list[Path] = []
    for folder in folders:
        missing = []
        probe = folder
        while not probe.exists() and probe != probe.parent:
            missing.append(probe)
            probe = probe.parent
        for each in reversed(missing):
            try:
                each.mkdir()
            except FileExistsError:
                if not each.is_dir():
                    _remove_folders(made)
                    raise ConfigUnwritable(
                        f"cannot create folder {each}: a file is in the way; nothing was written."
                    ) from None
            except OSError as exc:
                _remove_folders(made)
                raise ConfigUnwritable(
                    f"cannot create folder {each} ({exc.strerror or exc}); nothing was written."
                ) from None
            else:
                made.insert(0, each)
    return made


def _remove_folders(made: list[Path]) -> None:
    for folder in made:  # deepest first
        try:
            folder.rmdir()
        except OSError:
            pass


def _roll_back(done: list[FilePlan], made: list[Path]) -> None:
    """Put back the files already written (best effort: the backups hold them too)."""
    for change in reversed(done):
        try:
            if change.before is None:
                change.path.unlink(missing_ok=True)
            else:
                Path(os.path.realpath(change.path)).parent.mkdir(parents=True, exist_ok=True)
                _atomic_write(change.path, change.before)
        except OSError:
            pass
    _remove_folders(made)


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
    """Replace the file (through a symlink: its resolved target) with ``text`` via a temp file beside
    it. An existing file keeps its mode and owner; a new one gets what open() would give it (mkstemp
    makes 0600)."""
    real = Path(os.path.realpath(path))
    info = real.stat() if real.exists() else None
    mode = stat.S_IMODE(info.st_mode) if info else 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if info and hasattr(os, "getuid") and (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
            try:  # root editing a user's file: the file stays the user's
                os.chown(tmp, info.st_uid, info.st_gid)
            except OSError:
                pass
        os.replace(tmp, real)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
