"""status: index health, languages, skipped and unresolved counts, and what changed on disk since."""

from __future__ import annotations

from dataclasses import dataclass, field

from codegraph.store.db import unresolved_by_language
from codegraph.store.reader import Reader


@dataclass
class StatusResult:
    root: str
    counts: dict[str, int]
    languages: dict[str, int]
    metadata: dict[str, str]
    added: list[str]
    modified: list[str]
    deleted: list[str]
    # reason → {"count": entries, "example": one of them, "folders": how many are folders (when any)}
    skipped: dict[str, dict]
    running: dict | None = None  # a live index run: {"phase", "done", "total", "pid", "started"}
    # per language: {"unresolved": n, "likely_internal": m} (unresolved calls that look project-internal)
    unresolved: dict[str, dict[str, int]] = field(default_factory=dict)
    unresolved_kinds: dict[str, int] = field(default_factory=dict)  # reference kind → unresolved refs
    daemon: dict | None = None  # the daemon serving this project: pid, uptime, clients, watching, watch_note
    agents: list[dict] = field(default_factory=list)  # [{"target", "scope", "config"}] codegraph is in
    # files whose syntax tree held errors, so their extraction is partial: language → (count, an example)
    partial: dict[str, dict] = field(default_factory=dict)
    # manifests a language reads (LanguageModule.manifests) the last resolution had to leave out: path → why
    manifests: dict[str, str] = field(default_factory=dict)
    # indexed files with a new mtime but the same content (e.g. ``touch``): fresh, not changed
    touched: list[str] = field(default_factory=list)
    # why a complete index holds no file (``indexer.empty_reason``), None when it holds some
    empty: str | None = None


def status(reader: Reader, *, daemon: dict | None = None, agents: list[dict] | None = None) -> StatusResult:
    """Index health plus what changed on disk since the last index (size/mtime, then hash).
    ``daemon`` (its pid, version, uptime, clients, watcher) and ``agents`` (``{"target", "scope",
    "config"}`` codegraph is installed for) come from the caller, which runs above this layer
    (:func:`codegraph.mcp.service.summary`, :func:`codegraph_installer.targets.installed_for`)."""
    from codegraph.index.drift import disk_drift
    from codegraph.index.indexer import skip_reasons

    drift = disk_drift(reader)
    reasons = skip_reasons(reader.skipped())
    from codegraph.index.background import read_progress

    metadata = reader.metadata()
    counts = reader.counts()
    return StatusResult(
        str(reader.root),
        counts,
        reader.languages(),
        metadata,
        drift.added,
        drift.modified,
        drift.deleted,
        reasons,
        read_progress(reader.paths),
        unresolved_by_language(reader.conn),
        reader.unresolved_by_kind(),
        daemon,
        agents or [],
        reader.partial_files(),
        _manifest_problems(metadata),
        drift.touched,
        _empty(str(reader.root), metadata, counts, reasons),
    )


def touched_note(touched: list[str]) -> str:
    """`` (N touched: new mtime, same content)`` or "" — worded once for ``status`` and ``doctor``."""
    if not touched:
        return ""
    from codegraph.paths import plural

    return f" ({plural(len(touched), 'file')} touched: new mtime, same content)"


def ever_completed(metadata: dict[str, str]) -> bool:
    """Has an index run ever finished here? Only a complete run writes ``indexed_with_version``; an
    interrupted first run leaves ``index_state`` alone."""
    return bool(metadata.get("indexed_with_version"))


def check_finished(reader: Reader) -> None:
    """Raise when the index has never completed, so a query says so instead of "no symbol".

    Raises:
        IndexUnfinished: the first run was interrupted (no run holds the index lock), or is still going.
    """
    from codegraph.errors import IndexUnfinished
    from codegraph.index.background import read_progress

    if ever_completed(reader.metadata()):
        return
    running = read_progress(reader.paths)
    if running:
        done, total = running.get("done"), running.get("total")
        where = f" ({done}/{total} files parsed)" if total else ""
        raise IndexUnfinished(
            f"the index is unfinished: the first index run (pid {running['pid']}) is still going{where}; "
            "ask again when it finishes (`codegraph status` shows progress)"
        )
    raise IndexUnfinished("the index is unfinished: the last run was interrupted; run `codegraph sync`")


def _empty(
    root: str, metadata: dict[str, str], counts: dict[str, int], reasons: dict[str, dict]
) -> str | None:
    """Why a complete index holds no file, from the last run's record (metadata ``cgpy_ignored``) and
    the skip ``reasons`` (reason → {"count", "example", "folders"}); None when it holds some."""
    import json

    from codegraph.index.indexer import empty_reason

    if counts.get("files") or not ever_completed(metadata):
        return None
    try:
        ignored = json.loads(metadata.get("cgpy_ignored") or "{}")
    except ValueError:
        ignored = {}
    if not isinstance(ignored, dict):
        ignored = {}
    rules = {str(k): int(v) for k, v in ignored.items() if isinstance(v, int)}
    return empty_reason(
        root,
        rules,
        {why: entry["count"] for why, entry in reasons.items()},
        {why: entry.get("folders", 0) for why, entry in reasons.items()},
    )


def _manifest_problems(metadata: dict[str, str]) -> dict[str, str]:
    """path → why, from the last index run's record (metadata ``cgpy_manifest_problems``)."""
    import json

    try:
        found = json.loads(metadata.get("cgpy_manifest_problems") or "{}")
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}
