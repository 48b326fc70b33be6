"""Every on-disk location codegraph uses, and the rules for finding a project root.

A project root is the nearest directory at or above a path that holds ``.codegraph/codegraph.db``
(or, for ``init``, the path itself). All paths stored in the index are POSIX paths relative to the root.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from codegraph.echo import C_ESCAPES
from codegraph.errors import IndexMissing, PathOutsideRoot, ProjectDirMissing, RefusedRoot

DIR_NAME = ".codegraph"
DB_NAME = "codegraph.db"
# The reference CLI writes exactly this .gitignore into .codegraph/ (everything but itself ignored).
GITIGNORE_TEXT = (
    "# CodeGraph data files\n# This directory should not be committed to version control\n*\n!.gitignore\n"
)


@dataclass(frozen=True)
class ProjectPaths:
    """Locations under one project root. ``root`` is absolute and resolved."""

    root: Path

    @property
    def dir(self) -> Path:
        return self.root / DIR_NAME

    @property
    def db(self) -> Path:
        return self.dir / DB_NAME

    @property
    def daemon_pid(self) -> Path:
        return self.dir / "daemon.pid"

    @property
    def daemon_log(self) -> Path:
        return self.dir / "daemon.log"

    @property
    def index_lock(self) -> Path:
        return self.dir / "index.lock"

    @property
    def listings(self) -> Path:
        """The directory listings of the last walk (``codegraph.index.discover``): a sync re-reads only
        the directories changed since."""
        return self.dir / "listings.json"

    @property
    def names(self) -> Path:
        """What the language registry said about each file name the walks met
        (``codegraph.index.discover.NameTable``): a no-change sync loads no language module."""
        return self.dir / "names.json"

    @property
    def daemon_socket(self) -> Path:
        """The daemon's Unix socket: in ``.codegraph/`` when the path fits ``sun_path`` (107 bytes),
        else a short path under the temp dir keyed by a hash of the root."""
        sock = self.dir / "daemon.sock"
        if len(os.fsencode(sock)) <= 100:
            return sock
        return self.daemon_socket_short

    @property
    def daemon_socket_short(self) -> Path:
        """A short socket path under the temp dir, keyed by a hash of the root: used when the path in
        ``.codegraph/`` is too long, or its filesystem cannot host sockets."""
        import hashlib  # here, not at the top: the MCP handshake imports this module (issue 4)
        import tempfile

        digest = hashlib.sha256(os.fsencode(self.root)).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"codegraph-{digest}.sock"


_NEEDS_QUOTE = re.compile(r'[\x00-\x1f"\\\x7f\udc80-\udcff]')
_C_ESCAPES = {**C_ESCAPES, '"': '\\"', "\\": "\\\\"}


def plural(n: int, word: str, words: str | None = None) -> str:
    """``"1 file"``, ``"2 files"``: a count with its noun agreeing (``words`` when not ``word + "s"``).
    Every count codegraph prints goes through it ("2 secret file" in `init`, 2026-12-01)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def skip_count(entries: int, folders: int = 0) -> str:
    """``"2 files"``, ``"2 folders"``, ``"3 files and 1 folder"``: skipped entries of one reason, of
    which ``folders`` are folders (a pruned ``vendor/`` is one entry, not a file; stop 30)."""
    files = entries - folders
    parts = [plural(files, "file")] if files or not folders else []
    return " and ".join([*parts, *([plural(folders, "folder")] if folders else [])])


def quote_path(path: str) -> str:
    """``path`` fit for one line of text output, quoted as git quotes names (``"evil\\nname.py"``):
    C-style escapes in double quotes when it holds a control character, a double quote, a backslash
    or an undecodable byte (``surrogateescape``, shown as octal); as it is otherwise (non-ASCII kept,
    as git shows it with ``core.quotePath=false``). Issue 9: a newline in a name broke line output."""
    if not _NEEDS_QUOTE.search(path):
        return path
    out = []
    for ch in path:
        if ch in _C_ESCAPES:
            out.append(_C_ESCAPES[ch])
        elif "\udc80" <= ch <= "\udcff":
            out.append(f"\\{ord(ch) - 0xDC00:03o}")
        elif ch < " " or ch == "\x7f":
            out.append(f"\\{ord(ch):03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def find_root(start: str | os.PathLike[str] | None = None) -> ProjectPaths:
    """The nearest indexed project at or above ``start`` (default: the working directory).

    Raises:
        IndexMissing: no ``.codegraph/codegraph.db`` at or above ``start``.
    """
    here = Path(start or os.getcwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / DIR_NAME / DB_NAME).is_file():
            return ProjectPaths(candidate)
    raise IndexMissing(f"No codegraph index at or above {here}. {init_advice(here)}")


def refused_root(here: Path) -> bool:
    """Whether ``init`` refuses ``here`` without ``--force``: the filesystem root, the home directory or
    one of its parents."""
    home = Path.home().resolve()
    return here == Path(here.anchor) or here == home or here in home.parents


def init_advice(here: Path) -> str:
    """What to do about a missing index at ``here``, true for ``init`` (issue 9: in the home directory
    the advice was `codegraph init $HOME`, which init refuses)."""
    if refused_root(here):
        what = "your home directory" if here == Path.home().resolve() else "above your projects"
        return (
            f"{here} is {what}, not a project: run codegraph (or open the agent) in a project folder "
            f"and `codegraph init` there, or index this folder anyway with `codegraph init {here} --force`."
        )
    return f"Run `codegraph init {here}` to build one."


def init_root(path: str | os.PathLike[str] | None, *, force: bool = False) -> ProjectPaths:
    """The root for ``init``/``index``: an explicit ``path`` is the project root itself (a repository
    nested in an indexed project gets its own index, issue 9); without one, the nearest existing index
    at or above the working directory, else the working directory.

    Raises:
        ProjectDirMissing: ``path`` does not exist or is not a directory (never created, issue 9).
        RefusedRoot: the root is ``/``, the home directory or one of its parents, and ``force`` is off.
    """
    here = Path(path or os.getcwd()).resolve()
    if not here.is_dir():
        what = "is not a directory" if here.exists() else "does not exist"
        raise ProjectDirMissing(f"{here} {what}; give the project's directory (it is never created).")
    if path is None:
        try:
            return find_root(here)
        except IndexMissing:
            pass
    if not force and refused_root(here):
        raise RefusedRoot(
            f"Refusing to index {here}: it is the filesystem root or your home directory (or above it). "
            "Pass --force if you really mean it."
        )
    return ProjectPaths(here)


def resolve_inside(root: Path, relative: str) -> Path:
    """``root / relative`` resolved, guaranteed to stay inside ``root`` (symlinks followed).

    Raises:
        PathOutsideRoot: the path escapes the root through ``..``, an absolute path or a symlink; or it
            cannot be resolved at all (a NUL byte, a symlink loop) — refused rather than crashing.
    """
    if "\x00" in str(relative):
        raise PathOutsideRoot(f"Refused: {relative!r} contains a NUL byte.")
    root = root.resolve()
    try:
        candidate = (root / relative).resolve()
    except (RuntimeError, OSError) as exc:  # symlink loop: RuntimeError before 3.13, OSError(ELOOP) after
        raise PathOutsideRoot(f"Refused: {relative!r} cannot be resolved inside {root} ({exc}).") from None
    if candidate != root and root not in candidate.parents:
        raise PathOutsideRoot(f"Refused: {relative!r} resolves outside the project root {root}.")
    return candidate


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file, opened without blocking (a FIFO or device swapped in for a source
    file must not hang a query).

    Raises:
        OSError: missing, unreadable, or not a regular file.
    """
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{os.fsdecode(path)} is not a regular file")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def pid_alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie (Linux ``/proc``; elsewhere: it exists)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True
