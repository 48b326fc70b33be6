r"""The file view of ``node``: one indexed file exactly as the agent's Read tool shows it, plus a header
with what Read lacks (line count, symbol count, blast radius) — issue 3, "node: symbol mode and the
Read-parity file view".

Read's format, measured on Claude Code 2.1.197 (a real ``claude -p`` run against a fake API; recorded in
tests/query/test_file_view_read_parity.py, re-run live by tests/query/test_file_view_live_read.py):

- each line is ``<n>\t<line>`` (1-based, no padding), joined by ``\n``; no trailing newline, no fence;
- the text is split on ``\n`` exactly, so a trailing newline yields a last empty numbered line;
- ``\r\n`` shows as ``\n`` (the ``\r`` is dropped). Read does this twice, so ``\r\r\n`` also ends a line
  with no ``\r`` and ``\r\r\r\n`` leaves one; a lone ``\r`` stays inside its line, so a file with old Mac
  line endings (``\r`` only) is one line; a ``\r`` ending the last line is dropped too, twice
  (``a\nb\r\r`` shows ``b``, ``\r`` alone is an empty file);
- one leading UTF-8 BOM is dropped; invalid UTF-8 shows as U+FFFD; tabs, NUL bytes and long lines
  (2,500 characters tested) are kept as they are;
- given no limit, Read showed all 2,501 lines of a 2,500-line file; issue 3 fixes our default at 2,000
  lines (with a note giving the next offset), so windows agree whenever the limit is passed;
- a window holding nothing but one empty line (an empty file, or an offset at the empty line after the
  final newline) shows no lines, only a warning that the file is shorter than the offset; we give an
  empty body and a notice.

Every byte served goes through :func:`codegraph.paths.resolve_inside` (the one path guard); secret
files (:func:`codegraph.index.sensitive.is_secret`) are never served; config/data files are shown as
their keys with values withheld.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Protocol

from codegraph import bounds
from codegraph.errors import FileNotIndexed, InputTooLong, PathOutsideRoot
from codegraph.index import sensitive, source
from codegraph.model import Node
from codegraph.paths import plural, resolve_inside

MAX_PATH_CHARS = 4_096
# Bound.default is None only for an operation that sizes itself; bounds.py gives the view 2000 lines
assert bounds.FILE_VIEW_LINES.default is not None
DEFAULT_LIMIT: int = bounds.FILE_VIEW_LINES.default
MAX_LIMIT = bounds.FILE_VIEW_LINES.high
CHAR_BUDGET = 38_000  # body characters per call (issue 3); keeps a page under the host's inline limit
MAX_SYMBOLS = 200
MAX_CANDIDATES = 25
MAX_DEPENDENTS_SHOWN = 12
MAX_FILE_BYTES = 16 * 1024 * 1024  # refuse to load more than this into memory for one view

NOT_INDEXED_HINT = (
    "codegraph indexes source files only; read config and docs files (yaml, json, toml, md…) directly."
)


class FileViewReader(Protocol):
    """What the file view needs from the index. ``codegraph.store.reader.Reader`` implements it.

    Optional: ``skip_reason(path) -> str | None`` or ``skipped() -> dict[path, reason]`` (why discovery
    skipped a file on disk) lets a "not indexed" answer say why; ``file_record(path)`` (a row with
    ``language``) gives the language the file was indexed as, for decoding it the same way.
    """

    def indexed_paths(self) -> list[str]:
        """Every indexed file, POSIX, relative to the root."""
        ...

    def file_symbols(self, path: str) -> list[Node]:
        """The symbols defined in ``path`` (any order; ``file`` nodes are ignored here)."""
        ...

    def dependents(self, path: str) -> list[str]:
        """Other indexed files with an edge (calls, imports, references…) into ``path``'s symbols."""
        ...


@dataclass(frozen=True)
class FileViewRequest:
    """Arguments of the file view.

    Attributes:
        file: path as the agent wrote it: exact relative path, a unique suffix or a unique substring;
            an absolute path inside the root also works. At most 4,096 characters.
        offset: first line to show, 1-based (default 1; values below 1 count as 1).
        limit: number of lines (default 2000, clamped to 1..100,000).
        symbols_only: return the symbol map instead of the source.
    """

    file: str
    offset: int | None = None
    limit: int | None = None
    symbols_only: bool = False


@dataclass(frozen=True)
class SymbolEntry:
    """One row of the symbol map: ``line`` is the 1-based start line; ``signature`` is as stored (for
    Python and TS functions the parameter list, e.g. ``(self, k)``); ``qualified_name`` gives the
    nesting (``QuerySet::filter``)."""

    name: str
    kind: str
    signature: str | None
    line: int
    qualified_name: str = ""


@dataclass(frozen=True)
class FileViewResult:
    """A window of one file.

    Attributes:
        path: the indexed path that was shown (POSIX, relative to the root).
        line_count: lines in the file, counted as Read counts them (``text.split("\\n")``), so a file
            ending in a newline counts the empty line after it (Read numbers it too; measured, see the
            module docstring).
        ends_in_newline: the file ends in a newline, so its last numbered line is that empty line (the
            header says so rather than leaving "3 lines" for a two-line file unexplained).
        symbol_count: symbols defined in the file (file nodes excluded).
        dependents: every other file that depends on this one, sorted.
        body: the window, byte-for-byte as Read shows it (``<n>\\t<line>`` joined by ``\\n``); for a
            config/data file, only its key lines with values withheld; empty for ``symbols_only``.
        first_line: first line in ``body`` (0 when none).
        last_line: last line in ``body`` (0 when none).
        next_offset: the ``offset`` to pass for the rest of the file, or None when the window reached
            the end.
        notice: why the window is partial or empty, in words for the agent (None when whole).
        values_withheld: True for config/data files (``body`` shows keys only).
        symbols: the symbol map when ``symbols_only`` (at most 200, by line), else empty.
        symbols_truncated: more symbols exist than ``symbols`` holds.
    """

    path: str
    line_count: int
    symbol_count: int
    dependents: tuple[str, ...]
    body: str
    first_line: int
    last_line: int
    next_offset: int | None = None
    notice: str | None = None
    values_withheld: bool = False
    symbols: tuple[SymbolEntry, ...] = field(default_factory=tuple)
    symbols_truncated: bool = False
    ends_in_newline: bool = False


# ---------------------------------------------------------------------------------------------------
# Path argument → indexed path


def _check_bounds(arg: str) -> None:
    if len(arg) > MAX_PATH_CHARS:
        raise InputTooLong(f"The file argument is {len(arg)} characters; the limit is {MAX_PATH_CHARS}.")


def _normalise(root: Path, arg: str) -> str:
    """The argument as a root-relative POSIX string, lexically cleaned; absolute paths and ``..`` are
    checked against the root by the guard first.

    Raises:
        PathOutsideRoot: absolute elsewhere, or ``..`` escaping the root.
    """
    text = arg.strip().replace("\\", "/")
    if "\x00" in text:
        raise PathOutsideRoot("Refused: the file argument contains a NUL byte.")
    pure = PurePosixPath(text)
    if pure.is_absolute() or ".." in pure.parts:
        # Lexical containment first (no symlinks involved): an absolute path into the root, or a/../b.
        root_r = root.resolve()
        joined = (
            Path(os.path.normpath(root_r / text)) if not pure.is_absolute() else Path(os.path.normpath(text))
        )
        if joined != root_r and root_r not in joined.parents:
            # The root may be reached through a symlinked spelling of it: let the guard decide.
            resolved = resolve_inside(root_r, text)
            return resolved.relative_to(root_r).as_posix()
        return joined.relative_to(root_r).as_posix() if joined != root_r else ""
    parts = [p for p in pure.parts if p not in (".", "")]
    return "/".join(parts)


def _rank(paths: list[str]) -> list[str]:
    return sorted(paths, key=lambda p: (len(p), p))


def match_indexed(root: Path, reader: FileViewReader, arg: str) -> str:
    """The one indexed path the argument names: exact, else unique suffix (on a ``/`` boundary), else
    unique substring (case-sensitive, then case-insensitive).

    Raises:
        InputTooLong: over 4,096 characters.
        PathOutsideRoot: the argument escapes the root.
        FileNotIndexed: no match (the message says why when the file exists but was skipped), or several
            (``candidates`` holds up to 25, shortest first).
    """
    _check_bounds(arg)
    rel = _normalise(root, arg)
    indexed = reader.indexed_paths()
    if not rel:
        raise FileNotIndexed(f"{arg!r} names the project root, not a file. {NOT_INDEXED_HINT}")
    if sensitive.is_secret(rel):
        raise FileNotIndexed(
            f"{rel} is a secret file (keys, credentials, .env): codegraph never indexes or serves it."
        )
    index_set = set(indexed)
    if rel in index_set:
        return rel
    stages = (
        lambda p: p.endswith("/" + rel),
        lambda p: rel in p,
        lambda p: rel.lower() in p.lower(),
    )
    for stage in stages:
        hits = [p for p in indexed if stage(p)]
        if len(hits) == 1:
            return hits[0]
        if hits:
            ranked = _rank(hits)
            shown = ranked[:MAX_CANDIDATES]
            more = f" (and {len(ranked) - len(shown)} more)" if len(ranked) > len(shown) else ""
            raise FileNotIndexed(
                f"{arg!r} matches {len(ranked)} indexed files{more}; pass one of them: " + ", ".join(shown),
                candidates=shown,
            )
    raise FileNotIndexed(_not_indexed_message(root, reader, rel))


def names_file(root: Path, reader: FileViewReader, arg: str) -> bool:
    """Does ``arg`` name a file of the project: an indexed path (exact, or a suffix on a ``/``
    boundary), or a file on disk under the root? For ``node gin.go``, a path given where a symbol
    goes; substrings do not count (a symbol name is a substring of many paths)."""
    try:
        _check_bounds(arg)
        rel = _normalise(root, arg)
    except (InputTooLong, PathOutsideRoot):
        return False
    if not rel:
        return False
    if any(p == rel or p.endswith("/" + rel) for p in reader.indexed_paths()):
        return True
    try:
        return resolve_inside(root, rel).is_file()
    except (PathOutsideRoot, OSError):
        return False


def _skip_reason(reader: FileViewReader, rel: str) -> str | None:
    """Why discovery skipped ``rel``, when the reader can tell: ``skip_reason(path)`` or the store
    Reader's ``skipped() -> {path: reason}``."""
    one = getattr(reader, "skip_reason", None)
    if callable(one):
        return one(rel)
    every = getattr(reader, "skipped", None)
    if callable(every):
        found = every()
        return found.get(rel) if isinstance(found, dict) else None
    return None


def _not_indexed_message(root: Path, reader: FileViewReader, rel: str) -> str:
    reason = _skip_reason(reader, rel)
    if reason:  # the reason the index recorded, in the words `files` and `status` use (issue 9)
        return f"{rel} exists but was not indexed ({reason})."
    base = f"{rel} is not an indexed file. {NOT_INDEXED_HINT}"
    # nothing there: not "read it directly" (a file removed and synced since read so, 2026-12-01)
    gone = f"{rel}: no such file in the project (not on disk, not in the index)."
    try:
        on_disk = resolve_inside(root, rel)
        if not on_disk.exists():
            return gone
        if not on_disk.is_file():
            return base
    except PathOutsideRoot:
        return base
    except OSError:  # a name too long for the filesystem, a loop…
        return gone
    if sensitive.is_secret(on_disk.relative_to(root.resolve()).as_posix()):
        return f"{rel} is a secret file (keys, credentials, .env): codegraph never indexes or serves it."
    return f"{rel} exists but is not in the index (ignored, or added since the last sync). {NOT_INDEXED_HINT}"


# ---------------------------------------------------------------------------------------------------
# Reading and windowing


def read_lines(data: bytes) -> list[str]:
    """Split file bytes into the lines Read numbers: BOM dropped, invalid UTF-8 replaced by U+FFFD,
    then :func:`split_lines` (so ``b""`` is one empty line)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return split_lines(data.decode("utf-8", errors="replace"))


def split_lines(text: str) -> list[str]:
    """The lines Read numbers in decoded ``text``: split at ``\\n`` only, one ``\\r`` ending each line
    dropped, and that twice (Read normalises on reading and again when numbering). So ``\\r\\r\\n``
    ends a line with no ``\\r`` left, a lone ``\\r`` stays inside its line (a file with old Mac line
    endings is one line) and up to two ``\\r`` ending the last line are dropped; measured, see the
    module docstring. Every view that numbers a file's lines (file view, node, explore) splits here."""
    for _ in range(2):
        text = text.replace("\r\n", "\n").removesuffix("\r")
    return text.split("\n")


def _load(root: Path, rel: str, language: str | None = None) -> tuple[list[str], str]:
    """The decoded lines of an indexed file, read through the guard. Returns (lines, target rel path).

    Raises:
        PathOutsideRoot: the file (or a symlink on its way) resolves outside the root.
        FileNotIndexed: not a regular file, a secret behind a symlink, or too big.
        SourceUnavailable: deleted since indexing, or unreadable.
    """
    data, target_rel = source.read_bytes(root, rel, max_bytes=MAX_FILE_BYTES)
    if not data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 BOM: read_lines drops exactly one, as Read does
        # Decoded as the indexer decodes it (UTF-16/32 with a BOM, a PEP 263 cookie), so the lines
        # shown are the lines the index numbered; plain UTF-8 comes back unchanged.
        data = source.decode(data, target_rel, language)
    return read_lines(data), target_rel


def _window(
    numbered: list[tuple[int, str]], total: int, offset: int, limit: int, budget: int
) -> tuple[str, int, int, int | None, str | None]:
    """Lay out ``numbered`` (line number, text) pairs from ``offset`` within ``limit`` lines and
    ``budget`` characters. Returns (body, first, last, next_offset, notice)."""
    chosen = [(n, t) for n, t in numbered if n >= offset][:limit]
    if not chosen or (len(chosen) == 1 and chosen[0][1] == "" and chosen[0][0] == total):
        # Read shows no lines for a window holding only the empty line after the final newline.
        if total == 1 and numbered and numbered[0][1] == "":
            return "", 0, 0, None, "The file is empty."
        ends_with_newline = bool(numbered) and numbered[-1] == (total, "")
        last_useful = total - 1 if ends_with_newline else total
        tail = " (the last is the empty line after the final newline)" if ends_with_newline else ""
        return (
            "",
            0,
            0,
            None,
            (
                f"Offset {offset} is past the end: the file has {plural(total, 'line')}{tail}. "
                f"Pass an offset from 1 to {max(1, last_useful)}."
            ),
        )
    parts: list[str] = []
    used = 0
    cut_line = False
    for n, t in chosen:
        piece = f"{n}\t{t}"
        cost = len(piece) + (1 if parts else 0)
        if used + cost > budget:
            if not parts:  # a single line longer than the whole budget: show its head, say so
                parts.append(piece[:budget])
                cut_line = True
            break
        parts.append(piece)
        used += cost
    body = "\n".join(parts)
    first = chosen[0][0]
    last = chosen[len(parts) - 1][0]
    remaining = [n for n, _ in numbered if n > last]
    next_offset = remaining[0] if remaining else None
    notice = None
    if cut_line:
        notice = (
            f"Line {first} is {len(chosen[0][1])} characters, over the {budget}-character budget; "
            f"only its start is shown."
        )
    if next_offset is not None:
        why = "the character budget" if len(parts) < len(chosen) else "the line limit"
        rest = f"Showed lines {first}-{last} of {total} ({why}). To read the rest, pass offset={next_offset}."
        notice = f"{notice} {rest}" if notice else rest
    return body, first, last, next_offset, notice


def file_view(root: Path, reader: FileViewReader, request: FileViewRequest) -> FileViewResult:
    """One indexed file as Read shows it, with a header of line count, symbol count and dependents.

    Args:
        root: the project root (absolute).
        reader: the index (see :class:`FileViewReader`).
        request: the path argument and the window.

    Returns:
        The window; ``body`` is exactly Read's text for the lines shown (see the module docstring).
        A window past the end or on an empty file has an empty body and a ``notice``.

    Raises:
        InputTooLong: the path argument is over 4,096 characters.
        PathOutsideRoot: the path, or a symlink on it, resolves outside the root.
        FileNotIndexed: no indexed file matches, several do (``candidates``), or the file is a secret,
            gone, or not a regular file.
    """
    rel = match_indexed(root, reader, request.file)
    # the language the file was indexed as (codegraph.json ``extensions`` may map it), when the
    # reader can tell (``file_record``)
    record = reader.file_record(rel) if hasattr(reader, "file_record") else None
    lines, target_rel = _load(root, rel, record["language"] if record is not None else None)
    symbols = [n for n in reader.file_symbols(rel) if n.kind != "file"]
    symbols.sort(key=lambda n: (n.start_line, n.start_column, n.name))
    dependents = tuple(sorted({d for d in reader.dependents(rel) if d != rel}))
    total = len(lines)
    head = FileViewResult(
        path=rel, line_count=total, symbol_count=len(symbols), dependents=dependents, body="", first_line=0,
        last_line=0, ends_in_newline=total > 1 and lines[-1] == "",
    )  # fmt: skip

    if request.symbols_only:
        entries = tuple(
            SymbolEntry(n.name, n.kind, n.signature, n.start_line, n.qualified_name)
            for n in symbols[:MAX_SYMBOLS]
        )
        truncated = len(symbols) > MAX_SYMBOLS
        notice = (
            f"Showing the first {MAX_SYMBOLS} of {len(symbols)} symbols."
            if truncated
            else ("No symbols in this file." if not symbols else None)
        )
        return replace(head, notice=notice, symbols=entries, symbols_truncated=truncated)

    offset = max(1, request.offset or 1)
    limit = DEFAULT_LIMIT if request.limit is None else min(max(1, request.limit), MAX_LIMIT)
    fmt = sensitive.config_format(rel) or sensitive.config_format(target_rel)
    if fmt:
        keys = sensitive.summarise_config("\n".join(lines), fmt)
        numbered = [(k.line, k.text) for k in keys]
        if not numbered:
            notice = "A config/data file with no keys found; values are never shown."
            return replace(head, values_withheld=True, notice=notice)
    else:
        numbered = list(enumerate(lines, start=1))
    body, first, last, next_offset, notice = _window(numbered, total, offset, limit, CHAR_BUDGET)
    if fmt and not body and notice and notice.startswith("Offset"):
        notice = f"Offset {offset} is past the last key (line {numbered[-1][0]}) of this {total}-line file."
    return replace(
        head,
        body=body,
        first_line=first,
        last_line=last,
        next_offset=next_offset,
        notice=notice,
        values_withheld=bool(fmt),
    )


# ---------------------------------------------------------------------------------------------------
# Rendering
