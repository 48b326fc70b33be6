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


def banner(changed: list[str]) -> str:
    """One line naming the files an answer cites that changed since the last index."""
    names = ", ".join(map(quote_path, changed[:8])) + (
        f" (+{len(changed) - 8} more)" if len(changed) > 8 else ""
    )
    return (
        f"Note: changed on disk since the last index: {names}. Spans shown from these files were re-read "
        "from disk; their callers/callees are as of the last index (run `codegraph sync`). The rest is fresh."
    )
