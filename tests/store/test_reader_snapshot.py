"""Reader.snapshot: one answer reads one committed state of the index, though a sync commits while it
reads (issue 12: a CLI answer named the old symbol with the new graph's file records, and no note)."""

from __future__ import annotations

from codegraph.index.drift import changed_files
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture

VIEWS = "shop/views.py"  # fixtures/repos/python: defines render_rows


def test_reads_inside_a_snapshot_do_not_see_a_sync_that_commits_meanwhile(tmp_path):
    root = copy_fixture("python", tmp_path).resolve()
    index_project(ProjectPaths(root), workers=1)
    views = root / VIEWS
    with Reader(root) as reader:
        with reader.snapshot():
            assert [n.file_path for n in reader.nodes_named("render_rows")] == [VIEWS]
            views.write_text(views.read_text().replace("render_rows", "format_rows"))
            index_project(ProjectPaths(root), workers=1)  # the sync commits while the answer reads
            assert reader.nodes_named("format_rows") == []
            assert changed_files(reader, [VIEWS]) == [VIEWS]  # so the answer says the file changed
        assert reader.nodes_named("render_rows") == []  # the next answer sees the sync
        assert [n.file_path for n in reader.nodes_named("format_rows")] == [VIEWS]
