"""Astro components (``.astro``): the ``---`` frontmatter (TypeScript) and ``<script>`` tags.

Astro bundles a ``<script>`` as TypeScript; ``<script is:inline>`` is shipped as written, so it is
JavaScript; a ``type`` other than a script type (``application/ld+json``) is not code. Components in
the markup are capitalised tags (lower-case ones are HTML or custom elements).
"""

from __future__ import annotations

from codegraph.index.languages._component import SCRIPT_TYPES, ComponentExtractor, SingleFileComponent
from codegraph.index.languages.ecmascript import BUILTINS


class AstroExtractor(ComponentExtractor):
    def script_language(self, attrs: dict[str, str]) -> str | None:
        if attrs.get("type", "").lower() not in SCRIPT_TYPES:
            return None
        return "javascript" if "is:inline" in attrs else "typescript"


class Astro(SingleFileComponent):
    name = "Astro"
    label = "astro"
    grammar = "astro"
    extensions = (".astro",)
    query = "astro.scm"
    extractor = AstroExtractor
    builtins = BUILTINS | {"Astro"}  # the global of a component's frontmatter
    extracts = (
        "the component; in the frontmatter and `<script>` tags (TS; `is:inline` JS) what TS/JS "
        "extracts; markup tags of imported components"
    )
    resolution = "as TS/JS; `import X from './X.astro'` binds the component; `<X>`/`<X.Y>` through imports"


LANGUAGES = (Astro(),)
