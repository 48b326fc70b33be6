"""Which files of a project get indexed, and why the others don't.

In a git checkout the candidates are ``git ls-files -z -co --exclude-standard`` (tracked plus
untracked-not-ignored); elsewhere a walk that applies every ``.gitignore`` (root and nested, via
pathspec) and prunes ignored directories. Both then drop default-ignored directories, non-source
files, symlinks that leave the root, files over the size limit, binary and minified files — each
skip is recorded with its reason so an empty answer can say why.
"""

from __future__ import annotations

import os
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from codegraph.index.languages import is_manifest, language_for, unsupported_language
from codegraph.index.sensitive import is_secret

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
# not track, or, outside git, directories that are not Python packages (no __init__.py).
BUILD_OUTPUT_DIRS = frozenset({"build", "dist", "coverage", "target", "vendor"})
IGNORED_BUILD_DIR = "ignored directory (build output or vendored code; codegraph.json include indexes it)"
DEFAULT_MAX_BYTES = 1_000_000


MINIFIED_AVG_LINE = 500


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to index: POSIX path relative to the root, stat facts, language labels."""

    path: str
    size: int
    mtime_ns: int
    language: str
    grammar: str


@dataclass
class Discovery:
    files: list[SourceFile] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # path -> reason
    used_git: bool = False
    # files a language's resolution reads besides sources (LanguageModule.manifests): path -> (size, mtime_ns)
    manifests: dict[str, tuple[int, int]] = field(default_factory=dict)


def _git_candidates(root: Path) -> tuple[list[str], set[str]] | None:
    """(tracked and untracked-not-ignored paths, the tracked ones), or None outside a git checkout."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "-t", "-co", "--exclude-standard"],
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    paths, tracked = [], set()
    for entry in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if len(entry) > 2:  # "<tag> <path>": "?" is untracked, every other tag a tracked file
            paths.append(entry[2:])
            if entry[0] != "?":
                tracked.add(entry[2:])
    return paths, tracked


def _holds_build_output(root: Path, rel_dir: str) -> bool:
    """Outside git: a directory named like build output is a project's own package when it holds an
    ``__init__.py``."""
    return not (root / rel_dir / "__init__.py").is_file()


def _walk_candidates(
    root: Path,
    *,
    walk_build_dirs: bool = False,
    extensions: dict[str, str] | None = None,
    pruned: list[str] | None = None,
) -> list[str]:
    """Walk ``root`` honouring nested .gitignore files; never follows directory symlinks. Build-output
    and vendored directories left out by name are appended to ``pruned`` (``dist/``)."""
    out: list[str] = []
    specs: list[tuple[str, pathspec.PathSpec]] = []  # (dir prefix, spec) active for the current walk

    def ignored(rel: str, is_dir: bool) -> bool:
        hit = False
        for prefix, spec in specs:
            if prefix and not rel.startswith(prefix):
                continue
            sub = rel[len(prefix) :] + ("/" if is_dir else "")
            result = spec.check_file(sub)
            if result.include is not None:
                hit = bool(result.include)
        return hit

    def walk(directory: str, rel_dir: str) -> None:
        gi = os.path.join(directory, ".gitignore")
        pushed = False
        if os.path.isfile(gi):
            try:
                with open(gi, encoding="utf-8", errors="replace") as fh:
                    specs.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(fh.read().splitlines())))
                pushed = True
            except (OSError, ValueError):
                pass
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            entries = []
        for entry in entries:
            rel = f"{rel_dir}{entry.name}"
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if ignored(rel, True):
                    continue
                if entry.name in DEFAULT_IGNORED_DIRS and not (
                    entry.name in BUILD_OUTPUT_DIRS
                    and (walk_build_dirs or not _holds_build_output(root, rel))
                ):
                    if pruned is not None and entry.name in BUILD_OUTPUT_DIRS:
                        pruned.append(rel + "/")
                    continue
                walk(entry.path, rel + "/")
            elif (
                language_for(entry.name, extensions) is not None
                or unsupported_language(entry.name, extensions) is not None
                or is_manifest(entry.name)
            ) and not ignored(rel, False):
                out.append(rel)
        if pushed:
            specs.pop()

    walk(str(root), "")
    return out


def discover(
    root: Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    exclude: tuple[str, ...] = (),
    include: tuple[str, ...] = (),
    extensions: dict[str, str] | None = None,
) -> Discovery:
    """List the source files under ``root`` to index and the skipped ones with reasons.

    Args:
        exclude: gitignore-style patterns kept out even when tracked (``codegraph.json`` ``exclude``).
        include: gitignore-style patterns indexed even under a default-ignored directory name
            (``codegraph.json`` ``include``); ``exclude`` still wins.
        extensions: ``codegraph.json`` ``extensions`` ({".inc": "php"}) over the built-in map.

    Reasons: ``language not supported yet``, ``ignored directory``, ``secret file``,
    ``excluded by codegraph.json``, ``symlink outside root``, ``not a regular file``,
    ``too large (N bytes > limit)``, ``unreadable``. Binary and minified checks need the bytes and
    happen in the indexer.
    """
    root = root.resolve()
    result = Discovery()
    excluded = pathspec.GitIgnoreSpec.from_lines(exclude) if exclude else None
    included = pathspec.GitIgnoreSpec.from_lines(include) if include else None
    from_git = _git_candidates(root)
    result.used_git = from_git is not None
    if from_git is None:
        pruned: list[str] = []
        candidates = _walk_candidates(
            root, walk_build_dirs=included is not None, extensions=extensions, pruned=pruned
        )
        tracked = None
        # said, not silent: a package whose sources are its dist/ would otherwise look nearly empty
        for rel_dir in pruned:
            result.skipped[rel_dir] = IGNORED_BUILD_DIR
    else:
        candidates, tracked = from_git
    seen: set[str] = set()
    for rel in candidates:
        lang = language_for(rel, extensions)
        if lang is None and is_manifest(rel.rsplit("/", 1)[-1]):
            _add_manifest(result, root, rel, tracked, excluded, max_bytes)
            continue
        if lang is None:
            other = unsupported_language(rel, extensions)
            if other is not None and not is_secret(rel) and not _default_ignored(root, rel, tracked):
                if excluded is None or not excluded.match_file(rel):
                    result.skipped[rel] = f"language not supported yet ({other})"
            continue
        if is_secret(rel):
            result.skipped[rel] = "secret file"
            continue
        if excluded is not None and excluded.match_file(rel):
            result.skipped[rel] = "excluded by codegraph.json"
            continue
        if _default_ignored(root, rel, tracked) and not (included is not None and included.match_file(rel)):
            result.skipped[rel] = "ignored directory"
            continue
        absolute = root / rel
        try:
            st = absolute.lstat()
            if stat.S_ISLNK(st.st_mode):
                target = absolute.resolve()
                if target != root and root not in target.parents:
                    result.skipped[rel] = "symlink outside root"
                    continue
                st = target.stat()
            if not stat.S_ISREG(st.st_mode):  # a FIFO, socket or device named like source
                result.skipped[rel] = "not a regular file"
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
    result.files.sort(key=lambda f: f.path)
    return result


def _add_manifest(result: Discovery, root: Path, rel: str, tracked, excluded, max_bytes: int) -> None:
    """A manifest (``LanguageModule.manifests``) under the sources' ignore rules: not in node_modules or an
    excluded path, a regular file within the size limit (a symlink only inside the root)."""
    if is_secret(rel) or _default_ignored(root, rel, tracked):
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
    if stat.S_ISREG(st.st_mode) and st.st_size <= max_bytes:
        result.manifests[rel] = (st.st_size, st.st_mtime_ns)


def _default_ignored(root: Path, rel: str, tracked: set[str] | None) -> bool:
    """Whether a default-ignored directory name on ``rel``'s path hides it: always for names like
    node_modules or .venv; for build-output names only where they hold build output (not tracked by
    git; outside git, not a Python package)."""
    parts = rel.split("/")[:-1]
    for i, part in enumerate(parts):
        if part not in DEFAULT_IGNORED_DIRS:
            continue
        if part not in BUILD_OUTPUT_DIRS:
            return True
        if tracked is not None:
            if rel not in tracked:
                return True
        elif _holds_build_output(root, "/".join(parts[: i + 1])):
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
