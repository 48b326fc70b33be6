"""Plain data shared by the indexer, the store and the query layer.

Lines are 1-based; columns are 0-based byte offsets into the line (tree-sitter points), as the
reference CLI stores them. Paths are POSIX and relative to the project root.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The source of an extends/implements Ref written away from its type (a Swift ``extension T: P`` in
# another file, a Rust ``impl P for T`` away from ``T``): this prefix + the type's name as written; the
# resolver finds the type from the Ref's file, like an owner.
OWNER_SOURCE = "owner:"
CONTAINER_KINDS = frozenset(
    {"file", "module", "class", "struct", "interface", "trait", "protocol", "enum", "union", "namespace"}
)


def node_id(path: str, kind: str, name: str, start_line: int) -> str:
    """The reference CLI's node id: ``<kind>:`` + 32 hex of sha256("path:kind:name:line");
    files are ``file:<path>``."""
    import hashlib  # here: a no-change sync imports this module but hashes nothing (issue 12)

    if kind == "file":
        return f"file:{path}"
    digest = hashlib.sha256(f"{path}:{kind}:{name}:{start_line}".encode()).hexdigest()[:32]
    return f"{kind}:{digest}"


@dataclass(slots=True)
class Node:
    """A symbol (or a file) in the graph; mirrors one row of the ``nodes`` table."""

    id: str
    kind: str
    name: str
    qualified_name: str
    file_path: str
    language: str
    start_line: int
    end_line: int
    start_column: int = 0
    end_column: int = 0
    docstring: str | None = None
    signature: str | None = None
    visibility: str | None = None
    is_exported: bool = False
    is_async: bool = False
    is_static: bool = False
    is_abstract: bool = False
    decorators: list[str] | None = None
    type_parameters: list[str] | None = None
    return_type: str | None = None


# ``Ref.args`` of an ``instantiates`` reference that is a markup element naming a component (JSX's
# ``<Foo />``): the edge stays ``instantiates`` whatever the target's kind (a function component too)
ELEMENT_USE = "element"


@dataclass(slots=True)
class Ref:
    """A reference found in source, waiting for name resolution.

    ``kind`` is one of calls, instantiates (``new X``), extends, implements, references, imports.
    ``name`` is the callee text as written (``self.save``, ``models.Q``, ``foo``); ``receiver`` is
    the part before the last dot (``self``, ``models``) or None for a bare name.
    """

    source: str  # node id of the innermost enclosing symbol (or the file node)
    kind: str
    name: str
    line: int
    col: int
    receiver: str | None = None
    # Number of arguments at a call site, for languages that pick among overloads by it (Java,
    # Kotlin); None when the language does not record it.
    arity: int | None = None
    # The call's argument shape, in its language's notation, for choosing among overloads (Swift:
    # the argument labels, ``_`` for an unlabelled one); None when the language records none.
    args: str | None = None


@dataclass(slots=True)
class ImportBinding:
    """A name bound in a file by an import statement.

    ``local`` is the name visible in the file; ``module`` is the module specifier as written
    (``..models``, ``./util``, ``django.db``); ``imported`` is the exported name (``*`` for
    namespace/module imports, ``default`` for ES default imports). ``reexport`` marks
    ``export {x} from``/``export * from``.
    """

    local: str
    module: str
    imported: str
    line: int
    col: int
    node: str  # id of the import node
    reexport: bool = False


@dataclass(slots=True)
class FileExtraction:
    """Everything the extractor got from one file: pure data, cacheable."""

    path: str
    language: str
    nodes: list[Node] = field(default_factory=list)
    contains: list[tuple[str, str]] = field(default_factory=list)  # (parent id, child id)
    refs: list[Ref] = field(default_factory=list)
    imports: list[ImportBinding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # (scope node id, variable, type or constructor name) for ``x = Foo()``, ``x: Foo``, ``self.x = Foo()``.
    assigned_types: list[tuple[str, str, str]] = field(default_factory=list)
    # ES exports without ``from``: (exported name, local name), e.g. ("default", "Router"), ("y", "x").
    exports: list[tuple[str, str]] = field(default_factory=list)
    # What functions return, for return-type inference: (function id, "self" | "var:NAME" | "call:CALLEE").
    returns: list[tuple[str, str]] = field(default_factory=list)
    # Definitions written outside their type: (node id, owner type name as written), e.g. a Go method
    # and its receiver type, C++ ``Foo::bar``, a Rust ``impl Foo`` block. The resolver attaches them.
    owners: list[tuple[str, str]] = field(default_factory=list)
    # Names local to a function (parameters, assignment / loop / with / except / comprehension
    # targets): (function node id, name). A local shadows every project definition of that name.
    locals: list[tuple[str, str]] = field(default_factory=list)
    # Definitions that belong to a type but are written inside a function of it (JS ``this.render =
    # function`` in a constructor): (node id, id of the function it is written in), for scoping.
    closures: list[tuple[str, str]] = field(default_factory=list)
    # The package / namespace the file declares (Go ``package``, Java ``package``, C# ``namespace``).
    package: str | None = None


@dataclass(slots=True)
class Edge:
    source: str
    target: str
    kind: str
    line: int | None = None
    col: int | None = None
    metadata: dict | None = None
