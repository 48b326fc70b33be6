"""Vue single-file components over fixtures/repos/vue (three components and a TS module importing
each other) through the real indexer. Every expected edge was read off the fixture's source."""

from __future__ import annotations

import pytest

from codegraph.index.extract import extract
from tests.index.languages.component_helpers import cli, edges, node, source_at, unresolved

BUTTON = "src/components/Button.vue"
CARD = "src/components/Card.vue"
FORMAT = "src/utils/format.ts"


@pytest.fixture
def vue(indexed):
    return indexed("vue")


def test_script_definitions_keep_their_line_and_column_in_the_vue_file(vue):
    # Button.vue line 1: <script setup lang="ts">import { formatLabel } … — the import starts at byte 24
    imp = node(vue, BUTTON, "../utils/format")
    assert imp["start"] == (1, 24)
    assert source_at(vue, BUTTON, *imp["start"]).startswith("import { formatLabel }")
    fn = node(vue, BUTTON, "onClick")
    assert fn["start"] == (4, 0) and fn["end"] == (6, 1)
    assert source_at(vue, BUTTON, *fn["start"]).startswith("function onClick(): string {")
    loud = node(vue, CARD, "loud")  # a method of the options object in the plain <script>
    assert loud["start"] == (8, 4)
    assert source_at(vue, CARD, *loud["start"]).startswith("loud(text) {")


def test_component_is_a_node_that_contains_both_scripts_definitions(vue):
    card = node(vue, CARD, "Card")
    assert card["kind"] == "component" and card["language"] == "vue" and card["parent"] == "file"
    assert node(vue, CARD, "loud")["parent"] == "component"  # from <script>
    assert node(vue, CARD, "title")["parent"] == "component"  # from <script setup>
    assert node(vue, CARD, "title")["language"] == "vue"


def test_a_component_without_a_script_is_still_a_node(vue):
    icon = node(vue, "src/components/MyIcon.vue", "MyIcon")
    assert icon["kind"] == "component" and icon["start"] == (1, 0)


def test_default_import_of_a_vue_file_in_a_ts_module_binds_the_component(vue):
    # format.ts: import Card from '../components/Card.vue'
    assert (f"{FORMAT}:{FORMAT}", f"{CARD}:Card") in edges(vue, "imports")


def test_a_component_script_importing_a_ts_module_resolves_as_typescript_does(vue):
    calls = edges(vue, "calls")
    assert (f"{BUTTON}:onClick", f"{FORMAT}:formatLabel") in calls  # return formatLabel(props.label)
    assert (f"{CARD}:loud", f"{FORMAT}:shout") in calls  # return shout(text)


def test_template_tags_of_imported_components_are_instantiates_edges(vue):
    made = edges(vue, "instantiates")
    assert (f"{CARD}:Card", f"{BUTTON}:Button") in made  # <Button label="Open" />
    assert (f"{CARD}:Card", "src/components/MyIcon.vue:MyIcon") in made  # <my-icon> is MyIcon
    assert {t for s, t in made if s == f"{CARD}:Card"} == {
        f"{BUTTON}:Button",
        "src/components/MyIcon.vue:MyIcon",
    }


def test_a_tag_whose_import_does_not_resolve_stays_unresolved_and_unimported_tags_give_nothing(vue):
    left = unresolved(vue)
    assert (CARD, "Tooltip", "instantiates") in left  # import { Tooltip } from 'ui-kit'
    assert (CARD, "Missing", "instantiates") in left  # ./Missing.vue does not exist
    assert (CARD, "nowhere", "calls") in left  # ./nowhere does not exist
    assert not any(name == "RouterLink" for _, name, _ in left)  # no import: a global component


def test_status_lists_vue_and_compiler_macros_never_look_like_project_calls(vue):
    assert (BUTTON, "defineProps", "calls") in unresolved(vue)
    text = cli(vue.root, "status")
    assert "vue 3 files" in text
    assert "unresolved calls that look project-internal: 0" in text  # defineProps, nowhere (imported)


def test_lang_attribute_picks_the_typescript_or_javascript_grammar():
    ts = b'<script lang="ts">\nlet n: number = 1\n</script>\n'
    assert extract("A.vue", ts, "vue").errors == []
    js = b"<script>\nlet n: number = 1\n</script>\n"  # type annotations are no JavaScript
    assert extract("A.vue", js, "vue").errors == [
        "syntax errors in an embedded javascript block (partial extraction)"
    ]
    coffee = b'<script lang="coffee">\nsquare = (x) -> x * x\n</script>\n'
    assert [n.kind for n in extract("A.vue", coffee, "vue").nodes] == ["file", "component"]


def test_node_shows_the_component_files_own_source_lines(vue):
    text = cli(vue.root, "node", "onClick")
    assert "src/components/Button.vue:4-6" in text
    assert "4\tfunction onClick(): string {" in text and "5\t  return formatLabel(props.label)" in text
