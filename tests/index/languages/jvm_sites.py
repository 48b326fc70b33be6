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


def graph(root) -> tuple[set, set, set]:
    """Nodes, edges and unresolved references of an index, as comparable sets."""
    from codegraph.store.reader import Reader

    with Reader(root) as r:
        nodes = {
            tuple(x)
            for x in r.conn.execute("SELECT id, kind, qualified_name, file_path, signature FROM nodes")
        }
        edges = {
            tuple(x) for x in r.conn.execute("SELECT source, target, kind, line, col, metadata FROM edges")
        }
        unresolved = {
            tuple(x)
            for x in r.conn.execute("SELECT from_node_id, reference_name, line, col FROM unresolved_refs")
        }
    return nodes, edges, unresolved


def sync_equals_full(tmp_path, fixture: str, edits: dict[str, str]) -> None:
    """Index a fixture, apply ``edits`` (relative path → new text; "" deletes), sync, and check the
    result equals a fresh full index of the same files."""
    import shutil

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from tests.conftest import FIXTURES

    live = tmp_path / "live"
    shutil.copytree(FIXTURES / "repos" / fixture, live)
    index_project(ProjectPaths(live.resolve()), workers=1)
    for rel, body in edits.items():
        path = live / rel
        if body:
            path.write_text(body)
        else:
            path.unlink()
    index_project(ProjectPaths(live.resolve()), workers=1)
    fresh = tmp_path / "fresh"
    shutil.copytree(live, fresh, ignore=shutil.ignore_patterns(".codegraph"))
    index_project(ProjectPaths(fresh.resolve()), workers=1)
    assert graph(live) == graph(fresh)
