"""The installer's only disk access: reading a config file exactly, and applying a plan (backup, temp
file, atomic replace, the install record), rolled back as a whole when one write fails."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

from codegraph.errors import ConfigUnparsable, ConfigUnwritable
from codegraph_installer import state
from codegraph_installer.plan import FilePlan, Plan


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
