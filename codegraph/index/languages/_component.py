"""What ``.vue``, ``.svelte`` and ``.astro`` files share (issue 13): a single-file component.

The file is one ``component`` node (the reference CLI's kind), named after the file and exported as
its ``default`` (``import Button from './Button.vue'`` binds it). The ``<script>`` blocks (and Astro's
frontmatter) are embedded TypeScript or JavaScript, chosen by their ``lang`` attribute: the host
declares them with :meth:`Extractor.embed` and the driver extracts them with the ECMAScript
extractor, on the file's own lines and columns; their definitions belong to the component and are the
file's top-level names. Resolution is the ECMAScript family's (relative specifiers, imports both ways).

A tag of the markup that names an import of the component's scripts (``<Button />``, Vue's
``<my-button>`` for ``MyButton``, Svelte's ``<Dialog.Root>``) is an ``instantiates`` reference from
the component, resolved only through that import and only to another component; a tag no import
explains (an auto-imported or globally registered component, an HTML element) gives no reference.
"""

from __future__ import annotations

from codegraph.index.extract import Extractor, text
from codegraph.index.languages.ecmascript import BUILTINS, EcmaScript
from codegraph.model import Node, Ref

# ``Ref.args`` of a component used in a template (the resolver's hook tells them from script refs)
TEMPLATE_USE = "template"
# a script's ``lang`` attribute → the label of the language it is extracted with
SCRIPT_LANGS = {
    "": "javascript",
    "js": "javascript",
    "javascript": "javascript",
    "jsx": "jsx",
    "ts": "typescript",
    "typescript": "typescript",
    "tsx": "tsx",
}
IMPLEMENTATION_EXTS = (".js", ".mjs", ".cjs", ".jsx")
# a script's ``type`` attribute that still means code (JSON-LD, templates… are not)
SCRIPT_TYPES = frozenset({"", "module", "text/javascript", "application/javascript", "text/typescript"})


def attributes(tag) -> dict[str, str]:
    """The attributes of a start tag, lower-cased names → values without quotes (``""`` for a bare
    attribute such as ``setup``)."""
    found = {}
    for a in tag.named_children:
        if a.type != "attribute":
            continue
        name = value = ""
        for c in a.named_children:
            if c.type == "attribute_name":
                name = text(c).lower()
            elif c.type in ("quoted_attribute_value", "attribute_value"):
                value = text(c).strip("\"'")
        if name:
            found[name] = value
    return found


class ComponentExtractor(Extractor):
    """The host pass: the component node, its script blocks, the tags its markup uses."""

    # the markup grammar's ERRORs (Svelte 5 ``{@render}``, measured in 188 of bits-ui's 226 files)
    # leave the scripts alone: they are parsed again, and their own errors are noted separately
    syntax_error_note = "syntax errors in the markup (scripts are parsed separately)"

    def begin(self, root) -> None:
        name = self.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        self.component = self.add_def(root, "component", None, name=name)
        self.tags: list = []

    def handle(self, capture: str, ts) -> None:
        if capture == "script":
            start = ts.named_children[0] if ts.named_child_count else None
            body = next((c for c in ts.named_children if c.type == "raw_text"), None)
            if start is None or body is None:
                return
            label = self.script_language(attributes(start))
            if label is not None:
                self.embed(label, body, self.component)
        elif capture == "frontmatter":
            self.embed("typescript", ts, self.component)
        elif capture == "tag":
            self.tags.append(ts)

    def script_language(self, attrs: dict[str, str]) -> str | None:
        """The language a ``<script>`` with these attributes is written in, or None when it is no
        code we extract (``type="application/ld+json"``, ``lang="coffee"``)."""
        if attrs.get("type", "").lower() not in SCRIPT_TYPES:
            return None
        return SCRIPT_LANGS.get(attrs.get("lang", "").lower())

    def tag_component(self, tag) -> str | None:
        """The component name a tag means if it is a component (``Foo``, ``Foo.Bar``), else None.
        The default: a capitalised name, dots allowed (Svelte, Astro)."""
        name = text(tag)
        if not name[:1].isupper() or not all(part.isidentifier() for part in name.split(".")):
            return None
        return name

    def node_details(self, node: Node, d) -> None:
        if d is self.component:
            node.is_exported = True

    def finish(self) -> None:
        component = self.component.node if self.component is not None else None
        if component is None:
            return
        # whatever a script says, the file's default export is the component itself
        self.out.exports = [e for e in self.out.exports if e[0] != "default"]
        self.out.exports.append(("default", component.name))
        imported = {b.local for b in self.out.imports if b.local and b.local != "*"}
        for tag in self.tags:
            name = self.tag_component(tag)
            if name is None or name.split(".", 1)[0] not in imported:
                continue
            receiver = name.rsplit(".", 1)[0] if "." in name else None
            self.out.refs.append(
                Ref(
                    component.id,
                    "instantiates",
                    name,
                    tag.start_point[0] + 1,
                    tag.start_point[1],
                    receiver,
                    args=TEMPLATE_USE,
                )
            )


class SingleFileComponent(EcmaScript):
    """The ECMAScript family's rules, plus template usages resolved through imports to components."""

    builtins = BUILTINS
    test_suffixes = ()
    generated_suffixes = ()
    line_comment = "<!--"
    comment_end = " -->"
    extractor = ComponentExtractor

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """As ECMAScript's, but an implementation (``x.js``) before the declaration file (``x.d.ts``)
        an npm package ships beside it: a component's script is compiled and run, so its calls reach
        the code that runs (nuxt-ui's ``dist/`` holds both for every composable)."""
        found = super().resolve_module(project, from_path, spec)
        if found is None or not found.endswith(".d.ts"):
            return found
        stem = found[: -len(".d.ts")]
        return next((stem + e for e in IMPLEMENTATION_EXTS if stem + e in project.files), found)

    def resolve_ref(self, project, path: str, ref: Ref) -> tuple[Node | None, str] | None:
        if ref.args != TEMPLATE_USE:  # the script's own calls: the ECMAScript rules (object literals…)
            return super().resolve_ref(project, path, ref)
        head, _, rest = ref.name.partition(".")
        binding = project.bindings[path].get(head)
        target = project.binding_target(path, binding) if binding is not None else None
        for part in rest.split(".") if rest else ():
            target = project.export_of(target, part) if isinstance(target, str) else None
        if isinstance(target, Node) and target.kind == "component":
            return target, "import"
        return None, ""
