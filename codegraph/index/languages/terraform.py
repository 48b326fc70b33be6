"""Terraform / HCL: ``.tf``, ``.tfvars`` and ``.hcl`` files (one grammar, Terraform's dialect).

A Terraform module is a directory: its ``.tf`` files share one namespace. Top-level blocks are the
symbols, named by the address other blocks write (``aws_instance.web``, ``data.aws_ami.ubuntu``,
``module.network``, ``var.region``, ``local.name``, ``output.ip``, ``provider.aws``): resources and
data sources are classes, ``module`` blocks modules, variables and locals variables, outputs
constants, providers namespaces, other labelled blocks (Packer's ``source``/``build``, Terragrunt's
…) structs named ``type.label…``. ``module "m" { source = "./x" }`` imports the files of that
directory, and ``module.m.out`` references that module's ``output "out"``. An expression's address
(``var.x``, ``local.x``, ``module.m``, ``data.t.n``, ``t.n``) is a ``references`` edge to the block of
the same directory; ``count``/``each``/``self``/``path``/``terraform`` and ``for`` variables are
not symbols, nor a ``dynamic`` block's iterator. ``.tfvars`` files are skipped as secret files
(the generic sensitive-file rules). Built-in functions
(``length()``, ``lookup()``) never bind. A remote module source (registry, git) is outside the
project.
"""

from __future__ import annotations

import posixpath

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule, relative_file
from codegraph.model import Node

KINDS = {
    "resource": "class",
    "data": "class",
    "ephemeral": "class",
    "module": "module",
    "variable": "variable",
    "output": "constant",
    "provider": "namespace",
}
PREFIX = {"resource": "", "variable": "var", "module": "module", "output": "output", "data": "data"}
# Terraform's built-in functions (the language has no user-defined ones)
FUNCTIONS = frozenset(
    """abs ceil floor log max min parseint pow signum chomp endswith format formatlist indent join
    lower regex regexall replace split startswith strcontains strrev substr templatestring title trim
    trimprefix trimsuffix trimspace upper alltrue anytrue chunklist coalesce coalescelist compact
    concat contains distinct element flatten index keys length list lookup map matchkeys merge one
    range reverse setintersection setproduct setsubtract setunion slice sort sum transpose values
    zipmap base64decode base64encode base64gzip csvdecode jsondecode jsonencode textdecodebase64
    textencodebase64 urlencode yamldecode yamlencode abspath dirname pathexpand basename file
    fileexists fileset filebase64 templatefile formatdate plantimestamp timeadd timecmp timestamp
    base64sha256 base64sha512 bcrypt filebase64sha256 filebase64sha512 filemd5 filesha1 filesha256
    filesha512 md5 rsadecrypt sha1 sha256 sha512 uuid uuidv5 cidrhost cidrnetmask cidrsubnet
    cidrsubnets can issensitive nonsensitive sensitive tobool tolist tomap tonumber toset tostring
    try type ephemeralasnull""".split()
)
NOT_SYMBOLS = frozenset({"count", "each", "self", "path", "terraform", "var", "local", "module", "data"})


def _label(node) -> str:
    """A block label's text (``"aws_instance"`` or a bare identifier)."""
    value = text(node)
    return value[1:-1] if value.startswith('"') and value.endswith('"') else value


def _doc(node) -> str | None:
    lines: list[str] = []
    prev = node.prev_named_sibling
    at = node.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] >= at - 1:
        body = text(prev).strip()
        if body.startswith("/*"):
            body = " ".join(ln.strip().lstrip("*").strip() for ln in body[2:-2].splitlines())
        else:
            body = body.lstrip("#/").strip()
        lines.insert(0, body)
        at = prev.start_point[0]
        prev = prev.prev_named_sibling
    if not lines and node.parent is not None and node.parent.type == "body":
        first = node.parent.prev_named_sibling  # a comment before the first block sits above the body
        if first is not None and first.type == "comment" and node.prev_named_sibling is None:
            lines.append(text(first).lstrip("#/").strip())
    return squash(" ".join(lines), MAX_DOCSTRING) or None


class TerraformExtractor(Extractor):
    def handle(self, capture: str, ts) -> None:
        if capture == "definition.block":
            self._block(ts)
        elif capture == "reference.address":
            self._address(ts)
        elif capture == "reference.call":
            name = ts.named_children[0] if ts.named_child_count else None
            if name is not None and name.type == "identifier" and not _in_type_constraint(ts):
                self.ref(ts, "calls", text(name), None)

    def _block(self, ts) -> None:
        kids = ts.named_children
        if not kids or kids[0].type != "identifier":
            return
        btype = text(kids[0])
        labels = [_label(c) for c in kids[1:] if c.type in ("string_lit", "identifier")]
        if btype == "locals":
            body = next((c for c in kids if c.type == "body"), None)
            for attr in body.named_children if body is not None else ():
                if attr.type == "attribute" and attr.named_child_count:
                    self.add_def(attr, "variable", None, name=f"local.{text(attr.named_children[0])}")
            return
        if not labels:
            return  # terraform { }, a labelless block: settings, not a symbol
        if btype == "resource" and len(labels) >= 2:
            name = f"{labels[0]}.{labels[1]}"
        elif btype == "data" and len(labels) >= 2:
            name = f"data.{labels[0]}.{labels[1]}"
        elif btype in PREFIX and btype != "resource":
            name = f"{PREFIX[btype]}.{labels[0]}"
        else:
            name = ".".join([btype, *labels])
        d = self.add_def(ts, KINDS.get(btype, "struct"), None, name=name)
        if d is not None and btype == "module":
            source = self._attribute(ts, "source")
            if source is not None:
                self.bind(ts, name, source, "*")

    @staticmethod
    def _attribute(block, key: str) -> str | None:
        """The string value of a block's ``key = "…"`` attribute."""
        body = next((c for c in block.named_children if c.type == "body"), None)
        for attr in body.named_children if body is not None else ():
            if (
                attr.type == "attribute"
                and attr.named_child_count >= 2
                and text(attr.named_children[0]) == key
            ):
                value = text(attr.named_children[1]).strip()
                if value.startswith('"') and value.endswith('"') and "${" not in value:
                    return value[1:-1]
        return None

    def _address(self, var) -> None:
        head = text(var)
        parts = [head]
        nxt = var.next_named_sibling
        while nxt is not None and nxt.type == "get_attr" and len(parts) < 4:
            ident = next((c for c in nxt.named_children if c.type == "identifier"), None)
            if ident is None:
                break
            parts.append(text(ident))
            nxt = nxt.next_named_sibling
        if _bound_by_for(var, head) or _dynamic_iterator(var, head):
            return
        if head in ("var", "local") and len(parts) >= 2:
            self.ref(var, "references", f"{head}.{parts[1]}", None)
        elif head == "module" and len(parts) >= 2:
            self.ref(var, "references", f"module.{parts[1]}", None)
            if len(parts) >= 3:  # module.m.out: that module's output
                self.ref(var, "references", f"module.{parts[1]}.{parts[2]}", f"module.{parts[1]}")
        elif head == "data" and len(parts) >= 3:
            self.ref(var, "references", f"data.{parts[1]}.{parts[2]}", None)
        elif head not in NOT_SYMBOLS and len(parts) >= 2:
            self.ref(var, "references", f"{parts[0]}.{parts[1]}", None)

    def node_details(self, node: Node, d: Def) -> None:
        node.docstring = _doc(d.ts)
        if d.ts.type == "block":
            description = self._attribute(d.ts, "description")
            if description and node.docstring is None:
                node.docstring = squash(description, MAX_DOCSTRING)
            head = text(d.ts).split("{", 1)[0]
            node.signature = squash(head)


def _in_type_constraint(node) -> bool:
    """Is ``node`` inside a ``type = list(string)`` attribute (a type constructor, no call)?"""
    p = node.parent
    while p is not None and p.type != "attribute":
        p = p.parent
    return p is not None and p.named_child_count > 0 and text(p.named_children[0]) == "type"


def _dynamic_iterator(var, name: str) -> bool:
    """Is ``name`` the iterator of an enclosing ``dynamic "name" { … }`` block?"""
    p = var.parent
    while p is not None:
        if p.type == "block" and p.named_child_count >= 2 and text(p.named_children[0]) == "dynamic":
            if _label(p.named_children[1]) == name:
                return True
        p = p.parent
    return False


def _bound_by_for(var, name: str) -> bool:
    """Is ``name`` a variable of an enclosing ``for`` expression (``[for s in x : s.id]``)?"""
    p = var.parent
    while p is not None:
        if p.type in ("for_tuple_expr", "for_object_expr"):
            intro = next((c for c in p.named_children if c.type == "for_intro"), None)
            if intro is not None and any(
                c.type == "identifier" and text(c) == name for c in intro.named_children
            ):
                return True
        p = p.parent
    return False


class Terraform(LanguageModule):
    label = "terraform"
    grammar = "terraform"
    name = "Terraform / HCL"
    extracts = (
        "resources, data sources, modules, variables, locals, outputs, providers and other labelled"
        " blocks, named by their address (aws_instance.web, var.region), comments or description as docs"
    )
    resolution = (
        "a directory is a module: var./local./module./data./resource addresses to its blocks;"
        ' module "m" { source = "./x" } imports that directory, module.m.out its output; .tfvars skipped as secrets'
    )
    extensions = (".tf", ".tfvars", ".hcl")
    builtins = FUNCTIONS
    unique_fallback = False
    whole_package_imports = True  # a module block applies every file of the module's directory
    generated_suffixes = (".terraform.lock.hcl",)
    line_comment = "#"
    extractor = TerraformExtractor

    def is_test_file(self, path: str) -> bool:
        """``terraform test`` files: ``*.tftest.hcl``."""
        return path.lower().endswith((".tftest.hcl", ".tftest.json"))

    def resolve_module(self, project, from_path: str, spec: str):
        """A local module source (``./modules/net``, ``../x``): the ``.tf`` files of that
        directory; registry and git sources are outside the project."""
        if not spec.startswith(("./", "../")):
            return None
        directory = relative_file(from_path, spec)
        files = [p for p in project.files_in_dir(directory) if p.endswith(".tf")]
        return files or None

    def resolve_ref(self, project, path: str, ref):
        """Addresses within the file's directory; ``module.m.out`` through the module's source."""
        if ref.kind == "calls":
            return None, ""  # built-in functions
        if ref.kind != "references":
            return None
        if ref.receiver is not None and ref.receiver.startswith("module."):
            hit = self._module_binding(project, path, ref.receiver)
            if hit is None:
                return None, ""
            target = project.binding_target(*hit)
            out = ref.name.rsplit(".", 1)[-1]
            found = project.export_of(target, f"output.{out}") if isinstance(target, str) else None
            return (found, "import") if isinstance(found, Node) else (None, "")
        hits = self._in_directory(project, path).get(ref.name, [])
        distinct = {n.id: n for n in hits}
        if len(distinct) == 1:
            return next(iter(distinct.values())), "local"
        return None, ""

    @staticmethod
    def _in_directory(project, path: str) -> dict[str, list[Node]]:
        cache = project.lang_state.setdefault("terraform", {})
        directory = posixpath.dirname(path)
        table = cache.get(directory)
        if table is None:
            table = {}
            for other in project.files_in_dir(directory):
                if other.endswith((".tf", ".tfvars")) or other == path:
                    for name, nodes in project.top.get(other, {}).items():
                        table.setdefault(name, []).extend(nodes)
            cache[directory] = table
        return table

    @staticmethod
    def _module_binding(project, path: str, local: str):
        """(file, binding) of the ``module`` block named ``local`` in the directory of ``path``."""
        directory = posixpath.dirname(path)
        for other in project.files_in_dir(directory):
            binding = project.bindings.get(other, {}).get(local)
            if binding is not None:
                return other, binding
        return None


LANGUAGES = (Terraform(),)
