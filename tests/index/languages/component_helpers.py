"""Queries shared by the single-file component tests (Vue, Svelte, Astro)."""

from __future__ import annotations

import subprocess
import sys


def edges(reader, kind: str) -> set[tuple[str, str]]:
    """(source file:qualified name, target file:qualified name) of every ``kind`` edge."""
    rows = reader.conn.execute(
        "SELECT s.file_path, s.qualified_name, t.file_path, t.qualified_name FROM edges e"
        " JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
        (kind,),
    )
    return {(f"{a}:{b}", f"{c}:{d}") for a, b, c, d in rows}


def node(reader, path: str, name: str) -> dict:
    """The one node named ``name`` in ``path`` (kind, lines, columns, language, parent's kind)."""
    found = reader.conn.execute(
        "SELECT n.kind, n.start_line, n.start_column, n.end_line, n.end_column, n.language,"
        " (SELECT p.kind FROM edges c JOIN nodes p ON p.id = c.source WHERE c.target = n.id"
        "  AND c.kind = 'contains') FROM nodes n WHERE n.file_path = ? AND n.name = ?",
        (path, name),
    ).fetchall()
    assert len(found) == 1, (path, name, found)
    kind, sl, sc, el, ec, lang, parent = found[0]
    return {"kind": kind, "start": (sl, sc), "end": (el, ec), "language": lang, "parent": parent}


def unresolved(reader) -> set[tuple[str, str, str]]:
    """(file, name, kind) of every unresolved reference."""
    return {
        tuple(r)
        for r in reader.conn.execute("SELECT file_path, reference_name, reference_kind FROM unresolved_refs")
    }


def source_at(reader, path: str, line: int, col: int) -> str:
    """The file's text from 1-based ``line``, byte column ``col``, to the end of that line."""
    text = (reader.root / path).read_bytes().split(b"\n")[line - 1]
    return text[col:].decode()


def cli(root, *args: str) -> str:
    """stdout of ``python -m codegraph ARGS`` run in ``root`` (which must succeed)."""
    proc = subprocess.run(
        [sys.executable, "-m", "codegraph", *args], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout
