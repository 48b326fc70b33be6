"""Edge lookups by call site for the Java and Kotlin tests."""

from __future__ import annotations

import json


def sites(reader, prefix: str = "") -> dict[tuple[str, int, str], list[dict]]:
    """(file without ``prefix``, line, callee text) → the edges made there."""
    rows = reader.conn.execute(
        "SELECT s.file_path, e.line, e.kind, e.metadata, t.qualified_name, t.file_path, t.start_line"
        " FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        " WHERE e.kind IN ('calls', 'instantiates', 'references', 'extends', 'implements')"
    ).fetchall()
    out: dict = {}
    for src, line, kind, meta, qn, tfile, tline in rows:
        meta = json.loads(meta)
        key = (src.removeprefix(prefix), line, meta.get("refName"))
        out.setdefault(key, []).append(
            {"kind": kind, "target": qn, "file": tfile.removeprefix(prefix), "line": tline, **meta}
        )
    return out


def unresolved(reader, prefix: str = "") -> set[tuple[str, int, str]]:
    """(file without ``prefix``, line, callee text) of the references left unresolved."""
    rows = reader.conn.execute(
        "SELECT n.file_path, u.line, u.reference_name FROM unresolved_refs u JOIN nodes n ON n.id = u.from_node_id"
    ).fetchall()
    return {(f.removeprefix(prefix), line, name) for f, line, name in rows}


def target(reader, prefix: str, file: str, line: int, callee: str) -> tuple[str, str, int]:
    """(edge kind, target qualified name, target line) of the one edge at a call site."""
    found = sites(reader, prefix).get((file, line, callee), [])
    assert len(found) == 1, (file, line, callee, found)
    e = found[0]
    return e["kind"], e["target"], e["line"]


def missing(reader, prefix: str, file: str, line: int, callee: str) -> bool:
    """No edge at the call site, and the reference is recorded as unresolved."""
    return (file, line, callee) not in sites(reader, prefix) and (file, line, callee) in unresolved(
        reader, prefix
    )
