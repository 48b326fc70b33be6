"""Shared by the C and C++ language tests: index a fixture repo once and read its graph back."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "repos"


@dataclass(frozen=True)
class Hit:
    kind: str
    source: str  # qualified name of the calling symbol
    source_file: str
    line: int
    ref: str | None
    target: str  # qualified name
    target_file: str
    target_line: int


class Graph:
    """Nodes and edges of an indexed copy of a fixture repo."""

    def __init__(self, root: Path):
        self.root = root
        self.db = sqlite3.connect(root / ".codegraph" / "codegraph.db")
        self.db.row_factory = sqlite3.Row

    def nodes(self, qualified_name: str, kind: str | None = None) -> list[sqlite3.Row]:
        sql = "SELECT * FROM nodes WHERE qualified_name = ?"
        args = [qualified_name]
        if kind:
            sql += " AND kind = ?"
            args.append(kind)
        return list(self.db.execute(sql + " ORDER BY file_path, start_line", args))

    def edges(self, kind: str | None = None) -> list[Hit]:
        rows = self.db.execute(
            "SELECT e.kind, s.qualified_name, s.file_path, e.line, json_extract(e.metadata, '$.refName'),"
            " t.qualified_name, t.file_path, t.start_line FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target" + (" WHERE e.kind = ?" if kind else ""),
            (kind,) if kind else (),
        )
        return [Hit(*r) for r in rows]

    def calls_at(self, file: str, line: int) -> list[Hit]:
        return [
            h
            for h in self.edges()
            if h.kind in ("calls", "instantiates") and (h.source_file, h.line) == (file, line)
        ]

    def unresolved(self, file: str, line: int) -> list[str]:
        return [
            r[0]
            for r in self.db.execute(
                "SELECT reference_name FROM unresolved_refs WHERE file_path = ? AND line = ?", (file, line)
            )
        ]

    def language_of(self, path: str) -> str:
        return self.db.execute("SELECT language FROM nodes WHERE id = ?", (f"file:{path}",)).fetchone()[0]


def index_fixture(name: str, tmp: Path) -> Graph:
    root = tmp / name
    shutil.copytree(FIXTURES / name, root)
    index_project(ProjectPaths(root.resolve()), workers=1)
    return Graph(root.resolve())
