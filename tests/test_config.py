"""codegraph.json: vocabulary extends context/explore, exclude keeps paths out, bad files are refused."""

from __future__ import annotations

import pytest

from codegraph.config import load_config
from codegraph.errors import ConfigUnparsable
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.explore import context
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture


def test_project_vocabulary_extends_the_word_table(tmp_path):
    root = copy_fixture("python", tmp_path)
    (root / "codegraph.json").write_text('{"vocabulary": {"站点地图": ["Sitemap"]}, "other": 1}')
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as reader:
        result = context(reader, "站点地图的条目", extra_vocab=load_config(root).vocabulary)
    assert "Sitemap" in result.terms.words or "sitemap" in result.terms.words
    assert result.symbols[0][0].file_path == "shop/sitemaps/__init__.py"


def test_exclude_patterns_keep_tracked_paths_out_with_a_reason(tmp_path):
    root = copy_fixture("python", tmp_path)
    (root / "codegraph.json").write_text('{"exclude": ["shop/sitemaps/"]}')
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as reader:
        assert "shop/sitemaps/__init__.py" not in reader.indexed_paths()
        assert reader.skipped()["shop/sitemaps/__init__.py"] == "excluded by codegraph.json"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('{"vocabulary": {"a": ["b"]},\n  oops}', "codegraph.json:2: not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"vocabulary": {"a": "b"}}', "'vocabulary' must map words"),
        ('{"exclude": "dist/"}', "'exclude' must be a list"),
    ],
)
def test_a_bad_config_is_refused_naming_the_file(tmp_path, text, fragment):
    (tmp_path / "codegraph.json").write_text(text)
    with pytest.raises(ConfigUnparsable) as info:
        load_config(tmp_path)
    assert fragment in str(info.value)
    assert (tmp_path / "codegraph.json").read_text() == text
