"""Astro components over fixtures/repos/astro (a layout, a page, components and TS modules) through
the real indexer. Every expected edge was read off the fixture's source."""

from __future__ import annotations

import pytest

from codegraph.index.extract import extract
from tests.index.languages.component_helpers import cli, edges, node, source_at, unresolved

BASE = "src/layouts/Base.astro"
HEADER = "src/components/Header.astro"
PAGE = "src/pages/index.astro"
SITE = "src/lib/site.ts"


@pytest.fixture
def astro(indexed):
    return indexed("astro")


def test_frontmatter_and_script_definitions_keep_their_lines_in_the_astro_file(astro):
    props = node(astro, BASE, "Props")  # frontmatter: interface Props {
    assert props["start"] == (4, 0) and props["kind"] == "interface" and props["parent"] == "component"
    legacy = node(astro, BASE, "legacy")  # <script is:inline>: function legacy() …
    assert legacy["start"] == (22, 2)
    assert source_at(astro, BASE, *legacy["start"]).startswith("function legacy()")
    assert node(astro, HEADER, "heading")["start"] == (6, 0)


def test_frontmatter_and_script_calls_reach_imported_ts_functions(astro):
    calls = edges(astro, "calls")
    assert (f"{BASE}:Base", f"{SITE}:siteTitle") in calls  # const { title = siteTitle() } = Astro.props
    assert (f"{BASE}:Base", "src/lib/client.ts:boot") in calls  # <script> … boot();
    assert (f"{PAGE}:title", f"{SITE}:siteTitle") in calls  # const title = siteTitle();


def test_default_imports_bind_components_both_from_ts_and_from_astro(astro):
    imports = edges(astro, "imports")
    assert (f"{SITE}:{SITE}", f"{HEADER}:Header") in imports  # site.ts: import Header from …
    assert (f"{PAGE}:{PAGE}", f"{BASE}:Base") in imports


def test_markup_tags_of_imported_components_are_instantiates_edges(astro):
    made = edges(astro, "instantiates")
    assert {t for s, t in made if s == f"{PAGE}:index"} == {f"{BASE}:Base", f"{HEADER}:Header"}
    assert {t for s, t in made if s == f"{HEADER}:Header"} == {"src/components/Logo.astro:Logo"}


def test_tags_from_outside_the_project_or_a_missing_file_stay_unresolved(astro):
    left = unresolved(astro)
    assert (HEADER, "Image", "instantiates") in left  # import { Image } from 'astro:assets'
    assert (HEADER, "Gone", "instantiates") in left  # ./Gone.astro does not exist
    assert "astro 4 files" in cli(astro.root, "status")


def test_a_component_without_frontmatter_is_still_a_node(astro):
    assert node(astro, "src/components/Logo.astro", "Logo")["kind"] == "component"


def test_script_type_and_is_inline_decide_the_language():
    inline = b"<script is:inline>\n  let n: number = 1\n</script>\n"  # shipped as written: JavaScript
    assert extract("A.astro", inline, "astro").errors == [
        "syntax errors in an embedded javascript block (partial extraction)"
    ]
    bundled = b"<script>\n  let n: number = 1\n</script>\n"  # bundled: TypeScript
    assert extract("A.astro", bundled, "astro").errors == []
    data = b'<script type="application/ld+json">\n{"a": 1}\n</script>\n'
    assert [n.kind for n in extract("A.astro", data, "astro").nodes] == ["file", "component"]
