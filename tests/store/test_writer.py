"""The writer's fast metadata encoder writes exactly what json.dumps would."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from codegraph.store.writer import _meta_json

values = st.one_of(st.text(), st.floats(allow_nan=False, allow_infinity=False), st.integers(), st.booleans())


@given(st.dictionaries(st.text(), values, max_size=5))
def test_fast_metadata_json_equals_json_dumps(meta):
    expected = json.dumps(meta, separators=(",", ":")) if meta else None
    assert _meta_json(meta) == expected


def test_a_bulk_write_rebuilds_full_text_search_once_and_keeps_the_triggers(tmp_path):
    """Issue 10/12 speed: many new nodes build nodes_fts once at the end instead of a trigger per row;
    the triggers are back for the reference CLI and small syncs, and search stays exact."""
    import sqlite3

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store import writer
    from codegraph.store.reader import Reader

    per_file = 100
    files = writer.BULK_FTS_ROWS // per_file + 5
    for i in range(files):
        (tmp_path / f"m{i}.py").write_text(
            "".join(f"def fn_{i}_{j}():\n    return {j}\n\n\n" for j in range(per_file))
        )
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)

    def fts_names(word):
        conn = sqlite3.connect(paths.db)
        try:
            return [r[0] for r in conn.execute("SELECT name FROM nodes_fts WHERE nodes_fts MATCH ?", (word,))]
        finally:
            conn.close()

    def index_names(db):
        c = sqlite3.connect(db)
        try:
            return sorted(c.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index'"))
        finally:
            c.close()

    small = tmp_path.parent / f"{tmp_path.name}-small"
    small.mkdir()
    (small / "a.py").write_text("def a():\n    return b()\n\n\ndef b():\n    return 1\n")
    index_project(ProjectPaths(small.resolve()), workers=1)
    # the bulk path dropped and rebuilt the node / edge / unresolved-ref indexes: the same as a small write
    assert index_names(paths.db) == index_names(ProjectPaths(small.resolve()).db)
    conn = sqlite3.connect(paths.db)
    triggers = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
    fts_rows = conn.execute("SELECT COUNT(*) FROM nodes_fts").fetchone()[0]
    node_rows = conn.execute("SELECT COUNT(*) FROM nodes").fetchone()[0]
    conn.close()
    assert {"nodes_ai", "nodes_ad", "nodes_au"} <= set(triggers)
    assert fts_rows == node_rows > writer.BULK_FTS_ROWS
    assert fts_names("fn_3_7") == ["fn_3_7"]
    # a small sync goes through the triggers again: an added function is found, a removed one is gone
    (tmp_path / "m3.py").write_text("def brand_new_fn():\n    return 1\n")
    index_project(paths, workers=1)
    assert fts_names("brand_new_fn") == ["brand_new_fn"] and fts_names("fn_3_7") == []
    with Reader(tmp_path) as reader:
        assert [n.name for n, _ in reader.search("brand_new_fn")] == ["brand_new_fn"]
