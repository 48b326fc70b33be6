"""Is an answer still true of the files on disk? The paths an answer cites, and the banner naming those
edited since the last index (the comparison itself is the index side's: ``codegraph.index.drift``)."""

from __future__ import annotations

from codegraph.paths import quote_path


def cited_paths(data) -> set[str]:
    """Every ``file_path`` / ``path`` string inside a result's data (see ``render.to_data``)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("file_path", "path") and isinstance(value, str):
                    found.add(value)
                elif isinstance(value, (dict, list)):
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(x for x in item if isinstance(x, (dict, list)))
    return found


def banner(changed: list[str], *, syncing: bool = False) -> str:
    """One line naming the files an answer cites that changed since the last index. ``syncing``: a
    sync is running now, so the line does not tell the reader to start one (issue 12)."""
    names = ", ".join(map(quote_path, changed[:8])) + (
        f" (+{len(changed) - 8} more)" if len(changed) > 8 else ""
    )
    advice = "a sync is running now" if syncing else "run `codegraph sync`"
    return (
        f"Note: changed on disk since the last index: {names}. Spans shown from these files were re-read "
        f"from disk; their callers/callees are as of the last index ({advice}). The rest is fresh."
    )


SKIPPED_READ_BUDGET = 64 * 1024 * 1024  # bytes of skipped files a miss may search for the name


def miss_note(reader, name: str) -> str | None:
    """Why a "no symbol named NAME" answer may be wrong, or None: the index is behind disk (a sync is
    running, or files changed since the last one), or NAME occurs in files the index skipped (too
    large, minified…). Issue 12: after an edit, a sync burst or a rewrite, every miss read as "that
    function does not exist" while a found symbol got a note."""
    from codegraph.index.background import read_progress
    from codegraph.index.drift import disk_drift
    from codegraph.paths import plural, read_regular

    parts = []
    running = read_progress(reader.paths)
    if running is not None:
        done, total = running.get("done"), running.get("total")
        parts.append("a sync is running" + (f" ({done}/{total} files parsed)" if total else ""))
    drift = disk_drift(reader)
    behind = len(drift.added) + len(drift.modified) + len(drift.deleted)
    if behind:
        advice = "" if running is not None else " (run `codegraph sync`)"
        parts.append(f"{plural(behind, 'file')} changed on disk since the last sync{advice}")
    note = f"It may not be in the index yet: {'; '.join(parts)}." if parts else ""
    needle, budget, holding, unread = name.encode(), SKIPPED_READ_BUDGET, [], 0
    for path, why in sorted(reader.skipped().items()):
        try:
            size = (reader.root / path).stat().st_size
            if size > budget:
                unread += 1
                continue
            budget -= size
            if needle in read_regular(reader.root / path):
                holding.append(f"{quote_path(path)}: {why}")
        except OSError:
            continue
    if holding:
        more = f" (+{len(holding) - 5} more)" if len(holding) > 5 else ""
        note += f" '{name}' occurs in files the index skipped: {'; '.join(holding[:5])}{more}."
    elif unread:
        were = "was" if unread == 1 else "were"
        note += f" {plural(unread, 'skipped file')} {were} too big to search for it (see `codegraph status`)."
    return note.strip() or None
