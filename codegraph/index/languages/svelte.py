"""Svelte components (``.svelte``): the instance ``<script>`` and the module script
(``<script context="module">`` or Svelte 5's ``<script module>``), TS or JS by ``lang``.

The module script's exports are the file's named exports (``import { x } from './A.svelte'``).
Svelte 5 markup (``{#snippet}``, ``{@render}``) is unknown to the grammar, which leaves ERROR nodes
in the markup only: the scripts are re-parsed as TS/JS and are not affected.
"""

from __future__ import annotations

from codegraph.index.languages._component import SingleFileComponent
from codegraph.index.languages.ecmascript import BUILTINS

# Svelte 5 runes: compiler keywords, never a project function
RUNES = frozenset("$props $state $derived $effect $bindable $inspect $host".split())


class Svelte(SingleFileComponent):
    name = "Svelte"
    label = "svelte"
    grammar = "svelte"
    extensions = (".svelte",)
    query = "svelte.scm"
    builtins = BUILTINS | RUNES
    extracts = (
        "the component; in instance and module `<script>` (TS or JS by `lang`) what TS/JS extracts; "
        "markup tags of imported components"
    )
    resolution = "as TS/JS; `import X from './X.svelte'` binds the component; `<X>`/`<X.Y>` through imports"


LANGUAGES = (Svelte(),)
