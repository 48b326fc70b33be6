"""Golden graph dumps: an index rendered as plain, stable JSON (no hashes, no times)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path


def dump_graph(db: Path) -> dict:
    """``{"nodes": [...], "edges": [...], "unresolved": [...]}`` of an index, every row keyed by
    readable names (``path:kind:qualified_name@line``) instead of hash ids, sorted."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        label = {}
        nodes = []
        for row in conn.execute(
            "SELECT id, kind, name, qualified_name, file_path, language, start_line, end_line, start_column,"
            " end_column, signature, docstring, is_exported, return_type FROM nodes"
        ):
            nid, kind, name, qname, path, lang, sl, el, sc, ec, sig, doc, exp, ret = row
            key = f"{path}:{kind}:{qname}@{sl}"
            label[nid] = key
            entry = {"key": key, "name": name, "language": lang, "span": [sl, sc, el, ec]}
            for k, v in (("signature", sig), ("doc", doc), ("returns", ret)):
                if v:
                    entry[k] = v
            if exp:
                entry["exported"] = True
            nodes.append(entry)
        edges = []
        for src, dst, kind, meta, line, col in conn.execute(
            "SELECT source, target, kind, metadata, line, col FROM edges"
        ):
            m = json.loads(meta) if meta else {}
            e = {"from": label.get(src, src), "to": label.get(dst, dst), "kind": kind}
            if line is not None:
                e["at"] = [line, col]
            if m.get("resolvedBy"):
                e["by"] = m["resolvedBy"]
            edges.append(e)
        unresolved = sorted(
            f"{label.get(src, src)} -> {name} ({kind}) @{line}"
            for src, name, kind, line in conn.execute(
                "SELECT from_node_id, reference_name, reference_kind, line FROM unresolved_refs"
            )
        )
    finally:
        conn.close()
    nodes.sort(key=lambda n: n["key"])
    edges.sort(key=lambda e: (e["from"], e["kind"], e["to"], e.get("at", [0, 0])))
    return {"nodes": nodes, "edges": edges, "unresolved": unresolved}
