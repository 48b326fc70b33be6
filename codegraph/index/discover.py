"""Which files of a project get indexed, and why the others don't.

In a git checkout the candidates are ``git ls-files -z -co --exclude-standard`` (tracked plus
untracked-not-ignored); elsewhere a walk that applies every ``.gitignore`` (root and nested, via
pathspec) and prunes ignored directories. Both then drop default-ignored directories, non-source
files, symlinks that leave the root, files over the size limit, binary and minified files — each
skip is recorded with its reason so an empty answer can say why.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from codegraph.index.languages import is_manifest, language_for, names_package, unsupported_language
from codegraph.index.sensitive import is_secret, is_secret_dir
from codegraph.paths import read_regular

if TYPE_CHECKING:
    import pathspec

DEFAULT_IGNORED_DIRS = frozenset(
    {
        "node_modules",
        "dist",
        "build",
        ".venv",
        "venv",
        "__pycache__",
        "target",
        "vendor",
        ".git",
        ".hg",
        ".svn",
        ".codegraph",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".next",
        ".nuxt",
        "coverage",
        ".cache",
        "bower_components",
        ".idea",
        ".vscode",
        "site-packages",
        ".eggs",
    }
)
# Names that usually hold build output or fetched dependencies, but are also real package names
# (coverage.py's `coverage/`, pypa/build's `src/build/`, issue 9): they hide only files that git does
# not track, or, outside git, directories that are not the project's packages (no __init__.py, no
# source file of a language whose packages are directories: see _holds_build_output).
BUILD_OUTPUT_DIRS = frozenset({"build", "dist", "coverage", "target", "vendor"})
NEVER_INCLUDED_DIRS = frozenset({".git", ".hg", ".svn", ".codegraph"})  # not even by ``include: ["**"]``
IGNORED_BUILD_DIR = "ignored directory (build output or vendored code; codegraph.json include indexes it)"
DEFAULT_MAX_BYTES = 1_000_000
UNDECODABLE_NAME = "file name is not valid UTF-8"


MINIFIED_AVG_LINE = 500


class SourceFile(NamedTuple):
    """A file to index: POSIX path relative to the root, stat facts, language labels. A named tuple:
    discovery makes one per file on every sync, and a frozen dataclass's ``__init__`` cost 1 µs of it
    (0.1 s of a 100,000-file sync; issue 12)."""

    path: str
    size: int
    mtime_ns: int
    language: str
    grammar: str


# One directory as a walk saw it: (st_ino, st_mtime_ns, st_ctime_ns, file names, directory names),
# names sorted. Adding, removing or renaming an entry changes the directory's mtime and ctime, so a
# directory whose three stat facts are unchanged holds the same names; ctime cannot be set back (utime
# sets it to now) and the inode tells a replaced directory apart.
Listing = tuple[int, int, int, list[str], list[str]]
LISTINGS_VERSION = 1
# A listing is kept only when the directory's last change is older than this at the time of listing:
# an entry added within the same timestamp tick just after the listing would leave the times unchanged
# (git's "racily clean" problem). Timestamps on a whole second mean a coarse filesystem (FAT, HFS+, some
# network mounts): 2 s there; else 100 ms, well above a kernel tick (≤ 10 ms).
RACY_NS = 100_000_000
RACY_COARSE_NS = 2_000_000_000


@dataclass
class Discovery:
    files: list[SourceFile] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # path -> reason
    used_git: bool = False
    # files a language's resolution reads besides sources (LanguageModule.manifests): path -> (size, mtime_ns)
    manifests: dict[str, tuple[int, int]] = field(default_factory=dict)
    # the directory listings of this walk (none from git), relative directory ("" the root, else
    # "a/b/") → Listing; ``relisted`` directories were read from disk, the others' listings reused
    listings: dict[str, Listing] = field(default_factory=dict)
    relisted: int = 0
    # each .gitignore rule that left entries out → how many (directories and files of an indexed
    # kind), keyed "`PATTERN` in DIR/.gitignore": says why a tree indexes nothing. Outside git the
    # walk counts them; in a git checkout only one that indexes nothing asks git (_git_ignored)
    ignored: dict[str, int] = field(default_factory=dict)


# listings files read by this process: path → (the file's stat facts, its listings). The daemon's
# watcher syncs again and again; parsing Django's 300 KB file cost each sync 10-20 ms.
_READ: dict[str, tuple[tuple[int, int, int, int], dict[str, Listing]]] = {}


def load_listings(path: Path, *, keep: bool = False) -> dict[str, Listing]:
    """The listings a previous walk saved at ``path`` (see :func:`save_listings`); empty when the file
    is missing, unreadable or of another version (the walk then reads every directory).

    Args:
        keep: remember them in this process and, while the file is unchanged, answer from memory
            (the caller must not modify the dict it gets).
    """
    try:
        st = os.stat(path)
        facts = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        hit = _READ.get(str(path))
        if hit is not None and hit[0] == facts:
            return hit[1]
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        if data.get("version") != LISTINGS_VERSION:
            return {}
        listings = {rel: (v[0], v[1], v[2], v[3], v[4]) for rel, v in data["dirs"].items()}
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return {}
    if keep:
        _READ[str(path)] = (facts, listings)
    return listings


def save_listings(path: Path, listings: dict[str, Listing]) -> None:
    """Write ``listings`` to ``path`` whole or not at all (a temp file replaced into place); a failure
    to write is ignored: the next walk reads every directory again."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"version": LISTINGS_VERSION, "dirs": listings}, fh, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _list_dir(directory: str, rel_dir: str, before: dict[str, Listing], result: Discovery) -> Listing:
    """The entries of ``directory`` (file names, directory names; symlinks count as files, as
    ``is_dir(follow_symlinks=False)`` says): the listing in ``before`` when the directory's inode, mtime
    and ctime are the ones it was taken at, else read from disk. Kept in ``result.listings`` when it
    can be trusted next time (see RACY_NS)."""
    now = time.time_ns()
    try:
        st = os.stat(directory)
    except OSError:
        return (0, 0, 0, [], [])
    old = before.get(rel_dir)
    if old is not None and old[0] == st.st_ino and old[1] == st.st_mtime_ns and old[2] == st.st_ctime_ns:
        result.listings[rel_dir] = old
        return old
    result.relisted += 1
    files: list[str] = []
    dirs: list[str] = []
    trusted = True
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:  # said, not silent: its files would otherwise just be missing
        entries, trusted = [], False
        if rel_dir:
            result.skipped[printable_path(rel_dir)] = f"unreadable ({exc.strerror or exc})"
    for entry in entries:
        try:
            (dirs if entry.is_dir(follow_symlinks=False) else files).append(entry.name)
        except OSError:
            trusted = False
    changed = max(st.st_mtime_ns, st.st_ctime_ns)
    racy = RACY_COARSE_NS if changed % 1_000_000_000 == 0 else RACY_NS
    listing = (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, files, dirs)
    if trusted and now - changed > racy:
        result.listings[rel_dir] = listing
    return listing


def outside_git(root: Path) -> bool:
    """True when git cannot find a repository for ``root``: no ``GIT_DIR`` or ``GIT_WORK_TREE`` in the
    environment and no ``.git`` in ``root`` or above it, the only places git looks. Spares a ``git``
    process that can only fail (~10 ms of each sync outside git, two per sync, issue 12)."""
    if os.environ.get("GIT_DIR") or os.environ.get("GIT_WORK_TREE"):
        return False
    here = os.path.abspath(root)
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return False
        parent = os.path.dirname(here)
        if parent == here:
            return True
        here = parent


GIT_GRACE_S = 1.0  # a listing still running after this long is checked for a blocking .gitignore
GIT_TIMEOUT_S = 60


def _git_candidates(root: Path, result: Discovery) -> tuple[list[str], set[str]] | None:
    """(tracked and untracked-not-ignored paths, the tracked ones), or None outside a git checkout.

    Also None, with each such file in ``result.skipped`` as "not a regular file", when a ``.gitignore``
    under ``root`` is a FIFO, socket or device: git opens every ``.gitignore`` it meets with a
    blocking open, so a FIFO one held ``git ls-files`` until the 60 s timeout (a bad-input finding);
    the walk then lists the files, reading ``.gitignore`` files only when they are regular. Only a
    listing still running after ``GIT_GRACE_S`` is checked, so a quick one costs nothing more.
    """
    if outside_git(root):
        return None
    import subprocess  # here: outside git a sync spawns nothing and need not import it (issue 12)

    try:
        proc = subprocess.Popen(
            ["git", "-C", str(root), "ls-files", "-z", "-t", "-co", "--exclude-standard"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None
    try:
        try:
            stdout, _ = proc.communicate(timeout=GIT_GRACE_S)
        except subprocess.TimeoutExpired:
            special = _special_gitignores(root)
            if special:
                for rel in special:
                    result.skipped[rel] = "not a regular file"
                return None
            stdout, _ = proc.communicate(timeout=GIT_TIMEOUT_S - GIT_GRACE_S)
    except subprocess.TimeoutExpired:
        return None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if proc.returncode != 0:
        return None
    paths, tracked = [], set()
    for entry in stdout.decode("utf-8", "surrogateescape").split("\0"):
        if len(entry) > 2:  # "<tag> <path>": "?" is untracked, every other tag a tracked file
            paths.append(entry[2:])
            if entry[0] != "?":
                tracked.add(entry[2:])
    return paths, tracked


def _special_gitignores(root: Path) -> list[str]:
    """Paths (POSIX, relative to ``root``) of the ``.gitignore`` entries that are neither a regular
    file, a directory nor a symlink (git reads a symlinked one without following it), under every
    directory but ``.git`` and the default-ignored names (``node_modules``…); read from directory
    entry types, no file is opened."""
    found: list[str] = []
    stack = [("", str(root))]
    while stack:
        rel_dir, directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir():
                    if entry.name != ".git" and entry.name not in DEFAULT_IGNORED_DIRS:
                        stack.append((f"{rel_dir}{entry.name}/", entry.path))
                elif entry.name == ".gitignore" and not entry.is_file():
                    found.append(f"{rel_dir}{entry.name}")
            except OSError:
                continue
    return sorted(found)


def _include_reaches(rel_dir: str, patterns: tuple[str, ...]) -> bool:
    """Could one of the gitignore-style ``include`` patterns match a path under the directory
    ``rel_dir`` ("node_modules/x")? Outside git the walk prunes default-ignored directories such as
    node_modules/ by name, so ``"include": ["node_modules/x/"]`` found nothing there, silently."""
    parts = rel_dir.split("/")
    for pattern in patterns:
        pattern = pattern.strip()
        if not pattern or pattern.startswith(("#", "!")):
            continue
        anchored = pattern.startswith("/")
        segments = pattern.strip("/").split("/")
        if len(segments) == 1 and not anchored:
            return True  # "z.js", "*.js": a name at any depth
        for i, part in enumerate(parts):
            if i >= len(segments) or segments[i] == "**":
                return True  # the pattern named an ancestor (all beneath it), or any depth from here
            if not fnmatch.fnmatchcase(part, segments[i]):
                break
        else:
            return True
    return False


def _holds_build_output(root: Path, rel_dir: str, packaged: Callable[[str], bool] = names_package) -> bool:
    """Outside git: a directory named like build output is a project's own package when it holds an
    ``__init__.py`` or, directly, a source file of a language whose packages are directories
    (``packaged(name)``, ``LanguageModule.packages_are_directories``: a Kotlin package ``….build``)."""
    directory = root / rel_dir
    if (directory / "__init__.py").is_file():
        return False
    try:
        with os.scandir(directory) as it:
            return not any(packaged(entry.name) and entry.is_file() for entry in it)
    except OSError:
        return True


def _gitignore_spec(lines):
    """A gitignore-style spec of ``lines``; pathspec is imported here, when a project has a rule, not
    on every sync's start-up (15 ms of a no-change ``codegraph sync``, issue 12)."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _gitignore_file_spec(text: str):
    """The spec of a ``.gitignore`` file's ``text`` as git reads it: lines end at LF (a CR before it
    dropped; a form feed or U+2028 is no line end, where ``str.splitlines`` made one), and a line that
    is no valid pattern (``[z-a]``) is left out, not the whole walk failed (adversarial pass, stop 28)."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    try:
        return _gitignore_spec(lines)
    except Exception:  # pathspec raises re.error, ValueError or its own errors for one bad line
        kept = []
        for line in lines:
            try:
                _gitignore_spec([line])
            except Exception:
                continue
            kept.append(line)
        return _gitignore_spec(kept)


NAMES_VERSION = 1
LANGUAGE_SOURCES = Path(__file__).resolve().parent / "languages"  # the code the registry's answers come from


def _code_fingerprint(extensions: dict[str, str] | None) -> str:
    """What the registry's answers about names depend on: codegraph's version, the project's
    ``extensions`` map and every language module's file (name, size, mtime)."""
    from codegraph import __version__

    parts = [__version__, json.dumps(sorted((extensions or {}).items()))]
    try:
        with os.scandir(LANGUAGE_SOURCES) as it:
            for entry in sorted(it, key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    st = entry.stat()
                    parts.append(f"{entry.name}:{st.st_size}:{st.st_mtime_ns}")
    except OSError:
        parts.append(str(time.time_ns()))  # unreadable: a fingerprint no table holds
    return "|".join(parts)


class NameTable:
    """The registry's answers about file names, kept in ``.codegraph/names.json`` between runs: per
    suffix (``language_for``, ``unsupported_language``) and per name ``is_manifest``.

    Issue 12: a no-change sync imported every language module (a seventh of its instructions on
    Django) only to classify names it had classified the run before. The answers are pure functions
    of the name and of the code and map in :func:`_code_fingerprint`; a table from another
    fingerprint is dropped whole. Names met for the first time are asked of the registry.
    """

    def __init__(self, path: Path | None, extensions: dict[str, str] | None):
        self.path = path
        self.fingerprint = _code_fingerprint(extensions)
        self.suffixes: dict[str, tuple[tuple[str, str] | None, str | None]] = {}
        self.manifests: dict[str, bool] = {}
        self.packages: dict[str, bool] = {}  # suffix → names_package
        self.added = False
        if path is None:
            return
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
            if data.get("version") != NAMES_VERSION or data.get("fingerprint") != self.fingerprint:
                return
            self.suffixes = {
                key: ((lang[0], lang[1]) if lang else None, other)
                for key, (lang, other) in data["suffixes"].items()
            }
            self.manifests = {name: bool(v) for name, v in data["manifests"].items()}
            self.packages = {key: bool(v) for key, v in data["packages"].items()}
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            self.suffixes, self.manifests, self.packages = {}, {}, {}

    def is_manifest(self, name: str) -> bool:
        hit = self.manifests.get(name)
        if hit is None:
            hit = self.manifests[name] = is_manifest(name)
            self.added = True
        return hit

    def names_package(self, name: str) -> bool:
        """:func:`~codegraph.index.languages.names_package`, worked out once per suffix."""
        dot = name.find(".", 1)
        if dot == -1:
            return False
        key = name[dot:].lower()
        hit = self.packages.get(key)
        if hit is None:
            hit = self.packages[key] = names_package("x" + key)
            self.added = True
        return hit

    def save(self) -> None:
        """Write the table whole or not at all when this run added to it; a failure is ignored."""
        if self.path is None or not self.added:
            return
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        data = {
            "version": NAMES_VERSION,
            "fingerprint": self.fingerprint,
            "suffixes": {
                k: [list(lang) if lang else None, other] for k, (lang, other) in self.suffixes.items()
            },
            "manifests": self.manifests,
            "packages": self.packages,
        }
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(data, fh, separators=(",", ":"))
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _classifier(extensions: dict[str, str] | None, table: NameTable | None = None):
    """``classify(name)`` → (``language_for``, ``unsupported_language``) of a file name, worked out once
    per suffix: both depend only on the name from its first dot after the start (``a.d.ts`` →
    ``.d.ts``), and a project has few of those (Django: ~7,000 lookups, 40 suffixes). With a
    ``table``, its answers are used and new ones added to it."""
    memo: dict[str, tuple[tuple[str, str] | None, str | None]] = table.suffixes if table is not None else {}
    none = (None, None)

    def classify(name: str) -> tuple[tuple[str, str] | None, str | None]:
        dot = name.find(".", 1)
        if dot == -1:
            return none
        key = name[dot:].lower()
        hit = memo.get(key)
        if hit is None:
            sample = "x" + key
            hit = memo[key] = (language_for(sample, extensions), unsupported_language(sample, extensions))
            if table is not None:
                table.added = True
        return hit

    return classify


def _walk_candidates(
    root: Path,
    *,
    walk_build_dirs: bool = False,
    include: tuple[str, ...] = (),
    extensions: dict[str, str] | None = None,
    pruned: list[str] | None = None,
    before: dict[str, Listing] | None = None,
    result: Discovery | None = None,
    table: NameTable | None = None,
) -> list[str]:
    """Walk ``root`` honouring nested .gitignore files; never follows directory symlinks. Build-output
    and vendored directories left out by name are appended to ``pruned`` (``dist/``). Directory
    listings come from ``before`` where the directory is unchanged (see :func:`_list_dir`); every rule
    (.gitignore contents, ``extensions``, build directories) is applied afresh to them."""
    out: list[str] = []
    specs: list[tuple[str, pathspec.PathSpec]] = []  # (dir prefix, spec) active for the current walk
    before = before or {}
    result = result if result is not None else Discovery()
    classify = _classifier(extensions, table)
    manifest = table.is_manifest if table is not None else is_manifest
    packaged = table.names_package if table is not None else names_package
    # file name → whether it is a candidate before the .gitignore rules: names repeat across
    # directories (Django's 2,400 locale folders hold the same few), so each is judged once
    wanted: dict[str, bool] = {}

    included = _gitignore_spec(include) if include else None

    def ignored(rel: str, is_dir: bool) -> bool:
        """Whether the .gitignore rules leave ``rel`` out; the deciding rule is counted in
        ``result.ignored``. ``include`` patterns win (a path they match, a directory they reach)."""
        hit, why = False, None
        for prefix, spec in specs:
            if prefix and not rel.startswith(prefix):
                continue
            sub = rel[len(prefix) :] + ("/" if is_dir else "")
            found = spec.check_file(sub)
            if found.include is not None:
                hit = bool(found.include)
                why = (prefix, spec, found.index)
        if hit and included is not None:
            hit = not (_include_reaches(rel, include) if is_dir else included.match_file(rel))
        # a directory left out by name anyway (.codegraph/ too) is not counted
        if hit and why is not None and not (is_dir and rel.rsplit("/", 1)[-1] in DEFAULT_IGNORED_DIRS):
            prefix, spec, index = why
            pattern = spec.patterns[index].pattern if index is not None else "?"
            rule = f"`{pattern}` in {prefix}.gitignore"
            result.ignored[rule] = result.ignored.get(rule, 0) + 1
        return hit

    def walk(directory: str, rel_dir: str) -> None:
        _, _, _, files, dirs = _list_dir(directory, rel_dir, before, result)
        pushed = False
        if ".gitignore" in files:  # read every time: an edit in place leaves the directory unchanged
            try:  # a regular file only, opened without blocking: a FIFO named .gitignore hung the walk
                rules = read_regular(f"{directory}/.gitignore").decode("utf-8", "replace")
                specs.append((rel_dir, _gitignore_file_spec(rules)))
                pushed = True
            except (OSError, ValueError):
                pass
        for name in dirs:
            rel = f"{rel_dir}{name}"
            if specs and ignored(rel, True):
                continue
            if (
                name in DEFAULT_IGNORED_DIRS
                and not (
                    name in BUILD_OUTPUT_DIRS
                    and (walk_build_dirs or not _holds_build_output(root, rel, packaged))
                )
                and not (include and name not in NEVER_INCLUDED_DIRS and _include_reaches(rel, include))
            ):
                if pruned is not None and name in BUILD_OUTPUT_DIRS:
                    pruned.append(rel + "/")
                continue
            walk(f"{directory}/{name}", rel + "/")
        for name in files:
            keep = wanted.get(name)
            if keep is None:
                keep = wanted[name] = classify(name) != (None, None) or manifest(name)
            if keep and not (specs and ignored(f"{rel_dir}{name}", False)):
                out.append(f"{rel_dir}{name}")
        if pushed:
            specs.pop()

    walk(str(root), "")
    return sorted(out)


def discover(
    root: Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    exclude: tuple[str, ...] = (),
    include: tuple[str, ...] = (),
    extensions: dict[str, str] | None = None,
    listings: dict[str, Listing] | None = None,
    names: Path | None = None,
) -> Discovery:
    """List the source files under ``root`` to index and the skipped ones with reasons.

    Args:
        exclude: gitignore-style patterns kept out even when tracked (``codegraph.json`` ``exclude``).
        include: gitignore-style patterns indexed even under a default-ignored directory name and,
            outside git, where a ``.gitignore`` rule ignores them (``codegraph.json`` ``include``);
            ``exclude`` still wins.
        extensions: ``codegraph.json`` ``extensions`` ({".inc": "php"}) over the built-in map.
        listings: directory listings of an earlier walk (``Discovery.listings``): outside git, a
            directory whose stat facts are unchanged is not read again (issue 12: a no-change sync
            re-read ~2,400 directories of Django). Files are always stat'ed afresh.
        names: where the registry's answers about file names are kept between runs (:class:`NameTable`;
            ``ProjectPaths.names``); None asks the registry.

    Reasons: ``language not supported yet``, ``ignored directory``, ``secret file``,
    ``excluded by codegraph.json``, ``symlink outside root``, ``dangling symlink``, ``not a regular
    file``, ``symlink to an indexed file (target)``, ``too large (N bytes > limit)``, ``unreadable``,
    ``file name is not valid UTF-8`` (kept under the name with its bytes escaped, ``bad\\xffname.py``).
    A path listed but gone by the time it is stat'ed (deleted meanwhile, or tracked by git but
    deleted) is not counted: it is not there. Binary and minified checks need the bytes and happen in
    the indexer.
    """
    root = root.resolve()
    result = Discovery()
    excluded = _gitignore_spec(exclude) if exclude else None
    included = _gitignore_spec(include) if include else None
    table = NameTable(names, extensions) if names is not None else None
    from_git = _git_candidates(root, result)
    result.used_git = from_git is not None
    if from_git is None:
        pruned: list[str] = []
        candidates = _walk_candidates(
            root,
            walk_build_dirs=included is not None,
            include=include,
            extensions=extensions,
            pruned=pruned,
            before=listings,
            result=result,
            table=table,
        )
        tracked = None
        # said, not silent: a package whose sources are its dist/ would otherwise look nearly empty
        for rel_dir in pruned:
            result.skipped[rel_dir] = IGNORED_BUILD_DIR
    else:
        candidates, tracked = from_git
    seen: set[str] = set()
    links: dict[str, str] = {}  # a symlink among the files → the file inside the root it leads to
    base = str(root)
    classify = _classifier(extensions, table)
    manifest = table.is_manifest if table is not None else is_manifest
    packaged = table.names_package if table is not None else names_package
    # what a path's directory and its file name say, each worked out once (a sync walks every
    # file: 100,000 of them asked five questions each, issue 12): directory → (UTF-8, secret,
    # under a default-ignored name); name → (UTF-8, classify(name), secret)
    of_dir: dict[str, tuple[bool, bool, bool]] = {}
    of_name: dict[str, tuple[bool, tuple[str, str] | None, str | None, bool]] = {}
    for rel in candidates:
        cut = rel.rfind("/") + 1
        head, name = rel[:cut], rel[cut:]
        in_dir = of_dir.get(head)
        if in_dir is None:
            in_dir = of_dir[head] = (
                _utf8(head),
                is_secret_dir(head),
                not DEFAULT_IGNORED_DIRS.isdisjoint(head.split("/")),
            )
        named = of_name.get(name)
        if named is None:
            named = of_name[name] = (_utf8(name), *classify(name), is_secret(name))
        if not (in_dir[0] and named[0]):  # the index stores paths as UTF-8 text: such a name cannot be one
            result.skipped[printable_path(rel)] = UNDECODABLE_NAME
            continue
        lang, other = named[1], named[2]
        # a backslash is a separator to is_secret: such a path is judged whole
        secret = is_secret(rel) if "\\" in rel else in_dir[1] or named[3]
        if lang is None and manifest(name):
            _add_manifest(result, root, rel, tracked, excluded, max_bytes, packaged)
            continue
        if lang is None:
            if (
                other is not None
                and not secret
                and not (in_dir[2] and _default_ignored(root, rel, tracked, packaged))
            ):
                if excluded is None or not excluded.match_file(rel):
                    result.skipped[rel] = f"language not supported yet ({other})"
            continue
        if secret:
            result.skipped[rel] = "secret file"
            continue
        if excluded is not None and excluded.match_file(rel):
            result.skipped[rel] = "excluded by codegraph.json"
            continue
        if (
            in_dir[2]
            and _default_ignored(root, rel, tracked, packaged)
            and not (included is not None and included.match_file(rel))
        ):
            result.skipped[rel] = "ignored directory"
            continue
        try:
            st = os.lstat(f"{base}/{rel}")
        except FileNotFoundError:  # deleted since the listing (or tracked but deleted): not there, not a skip
            continue
        except OSError:
            result.skipped[rel] = "unreadable"
            continue
        try:
            if stat.S_ISLNK(st.st_mode):
                target = (root / rel).resolve()
                if target != root and root not in target.parents:
                    result.skipped[rel] = "symlink outside root"
                    continue
                st = target.stat()
                links[rel] = target.relative_to(root).as_posix()
            if not stat.S_ISREG(st.st_mode):  # a FIFO, socket or device named like source
                result.skipped[rel] = "not a regular file"
                continue
        except FileNotFoundError:  # the link is there, its target (inside the root) is not
            result.skipped[rel] = "dangling symlink"
            continue
        except (OSError, RuntimeError):  # RuntimeError: symlink loop on older Pythons
            result.skipped[rel] = "unreadable"
            continue
        if rel in seen:
            continue
        seen.add(rel)
        if st.st_size > max_bytes:
            result.skipped[rel] = f"too large ({st.st_size} bytes > {max_bytes})"
            continue
        result.files.append(SourceFile(rel, st.st_size, st.st_mtime_ns, lang[0], lang[1]))
    if links:
        # a second copy of an indexed file defines every name twice, so a call that named one
        # definition turned into a guess between two (or stayed unresolved): the file is indexed once
        indexed = {f.path for f in result.files}
        twins = {rel for rel, target in links.items() if target != rel and target in indexed}
        result.files = [f for f in result.files if f.path not in twins]
        for rel in twins:
            result.skipped[rel] = f"symlink to an indexed file ({links[rel]})"
    result.files.sort(key=lambda f: f.path)
    if from_git is not None and not result.files:
        _git_ignored(root, result, lambda name: classify(name) != (None, None) or manifest(name))
    if table is not None:
        table.save()
    return result


GIT_IGNORED_SHOWN = 10_000  # ignored entries of a git checkout that indexes nothing checked for their rule


def _git_ignored(root: Path, result: Discovery, candidate: Callable[[str], bool]) -> None:
    """Fill ``result.ignored`` in a git checkout where nothing is to be indexed: git lists no ignored
    untracked file, so a tree whose ``.gitignore`` ignores everything (a Debian source package's
    ``/*``) looked like one with no source. The ignored entries (directories whole, files of an
    indexed kind) are counted by the rule ``git check-ignore`` names. Nothing when git fails."""
    import subprocess

    def run(args: list[str], given: bytes | None = None) -> list[str] | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(root), *args], input=given, capture_output=True, timeout=GIT_TIMEOUT_S
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode not in (0, 1):  # check-ignore: 1 when nothing given is ignored
            return None
        return done.stdout.decode("utf-8", "surrogateescape").split("\0")

    listed = run(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"])
    wanted = [
        rel
        for rel in (listed or [])[:GIT_IGNORED_SHOWN]
        if rel
        and (
            rel.rstrip("/").rsplit("/", 1)[-1] not in DEFAULT_IGNORED_DIRS
            if rel.endswith("/")
            else candidate(rel.rsplit("/", 1)[-1])
        )
    ]
    if not wanted:
        return
    given = "\0".join(wanted).encode("utf-8", "surrogateescape")
    fields = run(["check-ignore", "-z", "-v", "--stdin"], given) or []
    # check-ignore names a .gitignore from the checkout's top; the walk's names are from the root
    prefix = ((run(["rev-parse", "--show-prefix"]) or [""])[0]).strip()
    up = "../" * prefix.count("/")
    for i in range(0, len(fields) - 3, 4):  # source, line, pattern, path
        source = fields[i]
        if not os.path.isabs(source):
            source = source[len(prefix) :] if source.startswith(prefix) else up + source
        rule = f"`{fields[i + 2]}` in {source}"
        result.ignored[rule] = result.ignored.get(rule, 0) + 1


def _utf8(rel: str) -> bool:
    """Whether ``rel`` is valid UTF-8 text (a name read as bytes decodes with surrogate escapes)."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable_path(rel: str) -> str:
    """``rel`` with each byte that is not UTF-8 shown as ``\\xNN`` (as ``ls -b`` does): a key the index
    can store and a user can read."""
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _add_manifest(
    result: Discovery, root: Path, rel: str, tracked, excluded, max_bytes: int, packaged=names_package
) -> None:
    """A manifest (``LanguageModule.manifests``) under the sources' ignore rules: not in node_modules or an
    excluded path, a regular file (a symlink only inside the root), listed with its size and mtime."""
    if is_secret(rel) or _default_ignored(root, rel, tracked, packaged):
        return
    if excluded is not None and excluded.match_file(rel):
        return
    try:
        target = (root / rel).resolve()
        if target != root and root not in target.parents:
            return
        st = target.stat()
    except (OSError, RuntimeError):
        result.manifests[rel] = (-1, 0)  # listed, so that resolution can say it was unreadable
        return
    if stat.S_ISREG(st.st_mode):  # one over max_bytes too: resolution says it was too large to read
        result.manifests[rel] = (st.st_size, st.st_mtime_ns)


def restat(previous: Discovery, root: Path, changed: set[str], max_bytes: int) -> Discovery | None:
    """``previous`` with the size and mtime of the ``changed`` files (relative paths) read again: what
    :func:`discover` would find when nothing but those files' contents changed since ``previous`` was
    made (the daemon's watcher knows, issue 12). None when that cannot be answered this way: a changed
    path that was not one of ``previous``'s files, or one that is no longer a plain regular file within
    the size limit."""
    known = {f.path: i for i, f in enumerate(previous.files)}
    files = list(previous.files)
    base = str(root)
    for rel in changed:
        i = known.get(rel)
        if i is None:
            return None
        try:
            st = os.lstat(f"{base}/{rel}")
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
            return None
        old = files[i]
        files[i] = SourceFile(rel, st.st_size, st.st_mtime_ns, old.language, old.grammar)
    return Discovery(
        files,
        dict(previous.skipped),
        previous.used_git,
        manifests=dict(previous.manifests),
        listings=previous.listings,
        relisted=0,
    )


def _default_ignored(
    root: Path, rel: str, tracked: set[str] | None, packaged: Callable[[str], bool] = names_package
) -> bool:
    """Whether a default-ignored directory name on ``rel``'s path hides it: always for names like
    node_modules or .venv; for build-output names only where they hold build output (not tracked by
    git; outside git, not one of the project's packages: see :func:`_holds_build_output`)."""
    parts = rel.split("/")[:-1]
    if DEFAULT_IGNORED_DIRS.isdisjoint(parts):
        return False
    for i, part in enumerate(parts):
        if part not in DEFAULT_IGNORED_DIRS:
            continue
        if part not in BUILD_OUTPUT_DIRS:
            return True
        if tracked is not None:
            if rel not in tracked:
                return True
        elif _holds_build_output(root, "/".join(parts[: i + 1]), packaged):
            return True
    return False


def content_skip_reason(path: str, data: bytes) -> str | None:
    """Why a file's bytes (as UTF-8, see ``encoding.to_utf8``: a UTF-16 file's NULs are gone) should not
    be indexed (binary, minified/bundled), or None."""
    if b"\0" in data[:8192]:
        return "binary"
    name = path.rsplit("/", 1)[-1]
    if ".min." in name or name.endswith((".bundle.js", ".min.js")):
        return "minified"
    lines = data.count(b"\n") + 1
    if len(data) > 2000 and len(data) / lines > MINIFIED_AVG_LINE:
        # indentation is not content: deeply nested but readable code is not minified
        content = sum(len(line.strip()) for line in data.split(b"\n"))
        if content / lines > MINIFIED_AVG_LINE:
            return "minified"
    return None
