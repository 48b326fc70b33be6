"""files: the indexed files under a folder or matching a substring, with language and symbol count."""

from __future__ import annotations

from dataclasses import dataclass, field

from codegraph.query.symbols import MAX_PATH, check_text
from codegraph.store.reader import Reader


@dataclass
class FilesResult:
    filter: str | None
    files: list[dict]
    total: int
    skipped: dict[str, str] = field(default_factory=dict)


def files(reader: Reader, path: str | None = None, *, limit: int = 200) -> FilesResult:
    """Indexed files (language, symbol count), optionally under a folder or matching a substring;
    skipped files that match are listed with their reason."""
    check_text(path, "path", MAX_PATH)
    want = (path or "").strip().strip("/")
    rows = [
        dict(path=r["path"], language=r["language"], symbols=r["node_count"], size=r["size"])
        for r in reader.files()
        if not want or r["path"].startswith(want + "/") or want in r["path"]
    ]
    skipped = {p: why for p, why in reader.skipped().items() if not want or want in p}
    return FilesResult(path, rows[:limit], len(rows), dict(list(skipped.items())[:50]))
