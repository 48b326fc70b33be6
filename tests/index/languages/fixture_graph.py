"""Reading an indexed fixture repo back, for the language tests that share it (Erlang, Elixir, Elm,
Haskell, OCaml): edges as (source qualified name, target file:qualified name) pairs, raw rows, and
the references left unresolved."""

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


def answers(root, cases: dict) -> None:
    """Every MCP tool in ``cases`` ({tool: (args, expected text)}) answers with the expected text."""
    from codegraph.mcp.dispatch import call_tool

    for tool, (args, expected) in cases.items():
        result = call_tool(tool, args, default_root=root)
        body = result["content"][0]["text"]
        assert result["isError"] is False, (tool, body[:500])
        assert expected in body, (tool, body[:1500])
