"""Vue single-file components (``.vue``): ``<script>`` and ``<script setup>``, TS or JS by ``lang``.

Both scripts share the component's scope (an import in either is visible to the template). Markup
tags name components in PascalCase (``<UButton>``) or kebab-case (``<u-button>`` for ``UButton``);
``<Foo.Bar>`` parses as a tag with a modifier and is left alone.
"""

from __future__ import annotations

from codegraph.index.extract import text
from codegraph.index.languages._component import ComponentExtractor, SingleFileComponent
from codegraph.index.languages.ecmascript import BUILTINS

# compiler macros of ``<script setup>``: never a project function
MACROS = frozenset(
    "defineProps defineEmits defineSlots defineExpose defineOptions defineModel withDefaults".split()
)


class VueExtractor(ComponentExtractor):
    def tag_component(self, tag) -> str | None:
        name = text(tag)
        after = tag.next_sibling
        if after is not None and text(after).startswith("."):  # <Foo.Bar>: not a plain name
            return None
        if "-" in name:  # <my-button> is MyButton
            parts = name.split("-")
            if not all(p.isalnum() for p in parts):
                return None
            name = "".join(p[:1].upper() + p[1:] for p in parts)
        return name if name[:1].isupper() and name.isidentifier() else None


class Vue(SingleFileComponent):
    name = "Vue"
    label = "vue"
    grammar = "vue"
    extensions = (".vue",)
    query = "vue.scm"
    extractor = VueExtractor
    builtins = BUILTINS | MACROS
    extracts = (
        "the component; in `<script>` / `<script setup>` (TS or JS by `lang`) what TS/JS extracts; "
        "template tags of imported components"
    )
    resolution = "as TS/JS; `import X from './X.vue'` binds the component; `<X>`/`<x-y>` through imports"


LANGUAGES = (Vue(),)
