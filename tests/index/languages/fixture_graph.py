"""Reading an indexed fixture repo back, for the language tests: edges as (source qualified name,
target file:qualified name) pairs, nodes, raw rows, the references left unresolved, imported files,
and every MCP tool answering on the fixture."""

from __future__ import annotations


def edges(reader, kind: str) -> set[tuple[str, str]]:
    """(source qualified name, target ``file:qualified name``) of every ``kind`` edge."""
    found = reader.conn.execute(
        "SELECT s.qualified_name, t.file_path, t.qualified_name FROM edges e"
        " JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
        (kind,),
    )
    return {(src, f"{path}:{dst}") for src, path, dst in found}


def rows(reader, sql: str, *args) -> list[tuple]:
    return [tuple(r) for r in reader.conn.execute(sql, args)]


def unresolved(reader) -> set[tuple[str, str]]:
    """(file, reference name) of every reference that resolved to nothing."""
    return set(rows(reader, "SELECT file_path, reference_name FROM unresolved_refs"))


def kinds(reader, path: str) -> dict[str, str]:
    """Qualified name → kind of the nodes of one file (imports excluded)."""
    return dict(
        rows(reader, "SELECT qualified_name, kind FROM nodes WHERE file_path = ? AND kind != 'import'", path)
    )


def nodes(reader, kind: str | None = None) -> set[tuple[str, str]]:
    """(file, qualified name) of every node (of ``kind``)."""
    sql = "SELECT file_path, qualified_name FROM nodes" + (" WHERE kind = ?" if kind else "")
    return {tuple(r) for r in reader.conn.execute(sql, (kind,) if kind else ())}


def node(reader, qualified_name: str) -> dict:
    """The one node of that qualified name, as a dict of its columns."""
    cur = reader.conn.execute("SELECT * FROM nodes WHERE qualified_name = ?", (qualified_name,))
    cols = [c[0] for c in cur.description]
    found = [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
    assert len(found) == 1, (qualified_name, found)
    return found[0]


def imported_files(reader, path: str) -> set[str]:
    """The files ``path`` has an ``imports`` edge to."""
    rows = reader.conn.execute(
        "SELECT t.file_path FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        " WHERE e.kind = 'imports' AND s.kind = 'file' AND s.file_path = ? AND t.kind = 'file'",
        (path,),
    )
    return {r[0] for r in rows}


def answers(root, cases: dict) -> None:
    """Every MCP tool in ``cases`` ({tool: (args, expected text)}) answers with the expected text."""
    from codegraph.mcp.dispatch import call_tool

    for tool, (args, expected) in cases.items():
        result = call_tool(tool, args, default_root=root)
        body = result["content"][0]["text"]
        assert result["isError"] is False, (tool, body[:500])
        assert expected in body, (tool, body[:1500])


def calls_with_how(root) -> list[tuple[int, str, str]]:
    """(line, target qualified name, resolvedBy) of every ``calls`` edge of the index at ``root``,
    indexed first, by line then target."""
    import json

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    index_project(ProjectPaths(root))
    with Reader(root) as reader:
        found = reader.conn.execute(
            "SELECT t.qualified_name, e.line, e.metadata FROM edges e JOIN nodes t ON t.id = e.target"
            " WHERE e.kind = 'calls' ORDER BY e.line, t.qualified_name"
        ).fetchall()
    return [(line, target, json.loads(meta)["resolvedBy"]) for target, line, meta in found]
