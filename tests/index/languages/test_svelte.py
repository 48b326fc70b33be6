"""Svelte components over fixtures/repos/svelte (module and instance scripts, a TS module, a
re-exporting index) through the real indexer. Every expected edge was read off the fixture's source."""

from __future__ import annotations

import pytest

from codegraph.index.extract import extract
from tests.index.languages.component_helpers import cli, edges, node, source_at, unresolved

COUNTER = "src/lib/Counter.svelte"
PANEL = "src/lib/Panel.svelte"
MATH = "src/lib/math.ts"


@pytest.fixture
def svelte(indexed):
    return indexed("svelte")


def test_module_and_instance_scripts_keep_their_lines_and_columns(svelte):
    clamp = node(svelte, COUNTER, "clamp")  # <script context="module" lang="ts">, line 2
    assert clamp["start"] == (2, 9) and clamp["parent"] == "component"
    assert source_at(svelte, COUNTER, *clamp["start"]).startswith("function clamp(n: number")
    inc = node(svelte, COUNTER, "increment")  # the instance <script lang="ts">
    assert inc["start"] == (11, 2) and inc["end"] == (13, 3)
    size = node(svelte, PANEL, "PANEL_SIZE")  # Svelte 5 <script module>
    assert size["start"] == (2, 15) and size["language"] == "svelte"


def test_instance_script_calls_the_module_scripts_function_and_an_imported_ts_function(svelte):
    calls = edges(svelte, "calls")
    assert (f"{COUNTER}:increment", f"{COUNTER}:clamp") in calls  # count = clamp(double(count), 10)
    assert (f"{COUNTER}:increment", f"{MATH}:double") in calls


def test_ts_module_imports_a_components_default_and_its_module_export(svelte):
    assert (f"{MATH}:{MATH}", f"{PANEL}:Panel") in edges(svelte, "imports")  # import Panel from …
    assert (f"{MATH}:double", f"{COUNTER}:clamp") in edges(svelte, "calls")  # import { clamp } from …


def test_markup_tags_reach_imported_components_also_through_a_namespace_reexport(svelte):
    made = {t for s, t in edges(svelte, "instantiates") if s == f"{PANEL}:Panel"}
    # <Counter />; <Parts.Item /> where parts/index.ts has export { default as Item } from './Item.svelte'
    assert made == {f"{COUNTER}:Counter", "src/lib/parts/Item.svelte:Item"}


def test_a_component_without_a_script_is_still_a_node(svelte):
    assert node(svelte, "src/lib/parts/Item.svelte", "Item")["kind"] == "component"


def test_runes_are_builtins_and_a_missing_module_stays_unresolved(svelte):
    left = unresolved(svelte)
    assert (PANEL, "missing", "calls") in left  # import { missing } from './gone.svelte': no such file
    assert (COUNTER, "$state", "calls") in left
    text = cli(svelte.root, "status")
    assert "svelte 3 files" in text and "unresolved calls that look project-internal: 0" in text


def test_lang_attribute_picks_typescript_or_javascript():
    ts = b'<script lang="ts">\n  let n: number = 1\n</script>\n<p>{n}</p>\n'
    assert extract("A.svelte", ts, "svelte").errors == []
    js = b"<script>\n  let n: number = 1\n</script>\n"
    assert extract("A.svelte", js, "svelte").errors == [
        "syntax errors in an embedded javascript block (partial extraction)"
    ]


def test_svelte_5_markup_the_grammar_misreads_leaves_the_script_whole():
    # the shape of bits-ui's components: {@render} inside {#if} parses with ERROR nodes
    src = (
        b'<script lang="ts">\n  function go(): void {}\n</script>\n{#if child}\n\t{@render child({ props })}\n'
        b"{:else}\n\t<span {...props}>\n\t\t{@render children?.()}\n\t</span>\n{/if}\n"
    )
    out = extract("A.svelte", src, "svelte")
    assert [(n.kind, n.name, n.start_line) for n in out.nodes if n.kind == "function"] == [
        ("function", "go", 2)
    ]
    assert out.errors == ["syntax errors in the markup (scripts are parsed separately)"]
