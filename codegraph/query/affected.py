"""affected: what a change touches — the test files that depend (transitively) on the changed files,
and the changed symbols with the callers that depend on them. For CI ("which tests to run") and for
agents before they run tests (issue 14).

A file depends on another when any of its symbols (or the file itself) has an edge into the other
file of a kind other than ``contains``: imports, calls, instantiation, inheritance, references. The
walk goes backwards from the changed files over that file graph, so a test reaches a changed file
through any chain of imports/calls. Changed lines (``--since`` via ``git diff -U0``) narrow the changed
symbols to those whose span overlaps a hunk; a file named without lines counts as changed throughout.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from codegraph.errors import GitFailed
from codegraph.index.languages import is_test_path
from codegraph.paths import quote_path
from codegraph.query.symbols import MAX_PATH, check_text
from codegraph.store.reader import CALL_KINDS, Reader

MAX_FILES = 10_000  # changed paths accepted in one request
CALLERS_SHOWN = 20  # callers listed per changed symbol (the total is always given)
_SYMBOL_KINDS_SKIPPED = ("file", "import", "variable", "constant", "parameter")


@dataclass
class Caller:
    symbol: str
    kind: str
    file: str
    line: int | None


@dataclass
class ChangedSymbol:
    """A symbol defined in the changed code, and who calls or instantiates it (from other symbols)."""

    symbol: str
    kind: str
    file: str
    line: int
    end_line: int
    callers: list[Caller]
    callers_total: int


@dataclass
class AffectedResult:
    """``changed``: indexed files among the input; ``not_indexed``: input paths the index doesn't hold
    (README, deleted-and-synced files…); ``tests``: test files that depend on a changed file, changed
    tests included, sorted; ``files``: every non-test file that depends on a changed file;
    ``symbols``: changed symbols that have callers, most-called first."""

    changed: list[str]
    not_indexed: list[str]
    tests: list[str]
    files: list[str]
    symbols: list[ChangedSymbol]
    since: str | None = None
    lines: dict[str, list[list[int]]] = field(default_factory=dict)


def _relative(root: Path, path: str, cwd: Path | None) -> str:
    """``path`` as a root-relative POSIX path: as given when relative to the root, or made so when it
    names (from ``cwd``) a location inside the root."""
    check_text(path, "path", MAX_PATH)
    p = path.strip()
    if p.startswith("./"):
        p = p[2:]
    candidate = Path(p) if os.path.isabs(p) else (cwd / p if cwd is not None else None)
    if candidate is not None and (candidate.exists() or os.path.isabs(p)):
        try:
            return Path(os.path.abspath(candidate)).relative_to(root).as_posix()
        except ValueError:
            try:
                return candidate.resolve().relative_to(root).as_posix()
            except ValueError:
                return p
    return Path(p).as_posix()


def affected(
    reader: Reader,
    files: list[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    lines: dict[str, list[tuple[int, int]]] | None = None,
    since: str | None = None,
) -> AffectedResult:
    """Tests and callers affected by changes to ``files``.

    Args:
        files: changed paths, relative to the root or (when they exist from ``cwd``) to ``cwd``.
        lines: root-relative path → changed line ranges (1-based, inclusive) in the current file;
            a changed file without an entry counts as changed throughout.
        since: the git revision the change list came from (reported back only).

    Returns:
        An :class:`AffectedResult`; paths are POSIX and relative to the root.

    Raises:
        InputTooLong: a path over 4,096 characters, or more than 10,000 paths.
    """
    from codegraph.errors import InputTooLong

    if len(files) > MAX_FILES:
        raise InputTooLong(f"{len(files)} files given; the limit is {MAX_FILES}.")
    root = reader.root
    here = Path(cwd) if cwd is not None else None
    wanted = sorted({_relative(root, f, here) for f in files if f.strip()})
    indexed = set(reader.indexed_paths())
    changed = [p for p in wanted if p in indexed]
    not_indexed = [p for p in wanted if p not in indexed]
    dependents: dict[str, set[str]] = {}
    for source_file, target_file in reader.file_dependencies():
        dependents.setdefault(target_file, set()).add(source_file)
    reached = set(changed)
    queue = deque(changed)
    while queue:
        for dep in dependents.get(queue.popleft(), ()):
            if dep not in reached:
                reached.add(dep)
                queue.append(dep)
    tests = sorted(p for p in reached if is_test_path(p))
    others = sorted(p for p in reached - set(changed) if not is_test_path(p))
    lines = lines or {}
    symbols = []
    for path in changed:
        ranges = lines.get(path)
        defs = [
            n
            for n in reader.file_symbols(path)
            if n.kind not in _SYMBOL_KINDS_SKIPPED
            and (ranges is None or any(n.start_line <= b and n.end_line >= a for a, b in ranges))
        ]
        incoming = reader.incoming([d.id for d in defs], CALL_KINDS)
        by_target: dict[str, list[tuple[str, str, int | None]]] = {}
        for source, target, kind, line in incoming:
            if source != target:
                by_target.setdefault(target, []).append((source, kind, line))
        found = reader.nodes({s for sites in by_target.values() for s, _, _ in sites})
        for d in defs:
            sites = [(found[s], k, ln) for s, k, ln in by_target.get(d.id, []) if s in found]
            if not sites:
                continue
            sites.sort(key=lambda t: (t[0].file_path, t[2] or 0))
            callers = [Caller(n.qualified_name, n.kind, n.file_path, ln) for n, _, ln in sites]
            symbols.append(
                ChangedSymbol(
                    d.qualified_name, d.kind, d.file_path, d.start_line, d.end_line,
                    callers[:CALLERS_SHOWN], len(callers),
                )
            )  # fmt: skip
    symbols.sort(key=lambda s: (-s.callers_total, s.file, s.line))
    return AffectedResult(
        changed,
        not_indexed,
        tests,
        others,
        symbols,
        since,
        {p: [list(r) for r in rs] for p, rs in sorted(lines.items()) if p in set(changed)},
    )


# ---------------------------------------------------------------------------------------------- git
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def _git(root: Path, *args: str) -> str:
    return _git_bytes(root, *args).decode("utf-8", "surrogateescape")


def _git_bytes(root: Path, *args: str) -> bytes:
    """git's standard output as it wrote it: no newline translation (a text-mode pipe turns a lone CR
    inside a changed line into a line break of the diff)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "-c", "core.quotePath=false", *args],
            capture_output=True,
            timeout=60,
        )
    except FileNotFoundError:
        raise GitFailed("git is not installed (needed for --since)") from None
    except subprocess.TimeoutExpired:
        raise GitFailed(f"git {args[0]} took over 60 s") from None
    if out.returncode != 0:
        first = (out.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[0]
        raise GitFailed(f"git {args[0]}: {first}")
    return out.stdout


def _diff_path(field: bytes) -> str | None:
    """The new-side path of a ``+++ `` line's field (after the marker): ``b/PATH``, ``b/PATH`` with a
    tab after it (git adds one when the path has a space), or C-quoted (``"b/a\\tb"``: a tab, a quote,
    a backslash or a control character in it; octal escapes for bytes); None for ``/dev/null`` (a
    deleted file)."""
    import codecs

    field = field[:-1] if field.endswith(b"\t") else field
    if len(field) >= 2 and field.startswith(b'"') and field.endswith(b'"'):
        field = codecs.escape_decode(field[1:-1])[0]  # the C escapes git writes: \t \" \\ \303
    if not field.startswith(b"b/"):
        return None
    return field[2:].decode("utf-8", "surrogateescape")


def changes_since(root: Path, rev: str) -> tuple[list[str], dict[str, list[tuple[int, int]]]]:
    """Files changed between ``rev`` and the working tree (committed, staged, unstaged and untracked
    files under ``root``), with the changed line ranges of each file that still exists.

    Returns:
        (root-relative paths, path → [(first, last)] 1-based inclusive ranges in the current file;
        a pure deletion inside a file counts as the line after it).

    Raises:
        GitFailed: not a git work tree, an unknown revision, or git missing.
    """
    check_text(rev, "since")
    if rev.startswith("-"):
        raise GitFailed(f"{rev!r} is not a revision")
    _git(root, "rev-parse", "--is-inside-work-tree")
    try:
        _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except GitFailed:
        raise GitFailed(f"unknown git revision {rev!r} in {root}") from None
    names = _git(root, "diff", "--name-only", "--relative", "-z", "--no-renames", rev, "--").split("\0")
    untracked = _git(root, "ls-files", "--others", "--exclude-standard", "-z").split("\0")
    diff = _git_bytes(root, "diff", "-U0", "--relative", "--no-renames", "--no-color", rev, "--")
    ranges: dict[str, list[tuple[int, int]]] = {}
    current, header = None, False
    # a file's header runs from its "diff --git" line to its first hunk: only there is "+++ " the
    # path (an added line "++ b/x.py" reads "+++ b/x.py" in a hunk); lines end at LF only
    for raw in diff.split(b"\n"):
        if raw.startswith(b"diff --git "):
            current, header = None, True
        elif header and raw.startswith(b"+++ "):
            current = _diff_path(raw[4:])
            if current is not None:
                ranges.setdefault(current, [])
        elif raw.startswith(b"@@ "):
            header = False
            m = _HUNK.match(raw.decode("ascii", "replace"))
            if current is None or m is None:
                continue
            start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            ranges[current].append((start, start + count - 1) if count else (start + 1, start + 1))
    for path in untracked:
        if path:
            ranges.pop(path, None)  # new file: changed throughout
    paths = sorted({p for p in names + untracked if p and not p.startswith(".codegraph/")})
    return paths, {p: r for p, r in ranges.items() if r}


def render_affected(r: AffectedResult) -> str:
    """The text answer: changed files, tests to run, dependent files, changed symbols and callers."""
    since = f" since {r.since}" if r.since else ""
    if not r.changed and not r.not_indexed:
        return f"No changed files{since}."
    out = [f"changed{since} ({len(r.changed)} indexed): " + (", ".join(map(quote_path, r.changed)) or "none")]
    if r.not_indexed:
        out.append(
            f"not in the index ({len(r.not_indexed)}): " + ", ".join(map(quote_path, r.not_indexed[:50]))
        )
    out.append(f"tests affected ({len(r.tests)}):" + ("" if r.tests else " none found"))
    out += [f"  {quote_path(t)}" for t in r.tests]
    out.append(f"files depending on the change ({len(r.files)}):" + ("" if r.files else " none"))
    out += [f"  {quote_path(f)}" for f in r.files[:200]]
    if len(r.files) > 200:
        out.append(f"  … {len(r.files) - 200} more (--json lists all)")
    out.append(f"changed symbols with callers ({len(r.symbols)}):" + ("" if r.symbols else " none"))
    for s in r.symbols:
        out.append(
            f"  {s.symbol} ({s.kind}) {quote_path(s.file)}:{s.line}-{s.end_line} — called by {s.callers_total}:"
        )
        out += [f"    {c.symbol} ({c.kind})  {quote_path(c.file)}:{c.line or '?'}" for c in s.callers]
        if s.callers_total > len(s.callers):
            out.append(f"    … {s.callers_total - len(s.callers)} more")
    return "\n".join(out)
