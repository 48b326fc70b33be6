"""Compact, safe serialisation of a :class:`FileExtraction` for the per-file extraction cache.

:mod:`marshal` of plain tuples, lists, strings, numbers and None, compressed with zlib. Never pickle:
the cache lives in a file anyone could hand us, and unpickling runs code; unmarshalling only builds
values (a damaged row fails with ValueError, EOFError or TypeError). Marshal format 0 writes every value
in full, so the same extraction always gives the same bytes (formats 3 and later write an object seen
twice as a back-reference, decided by object identity and reference counts). Against the JSON this
replaced (django-sdist, every file's cache and interface rows, one process, CPU): encoding 1.01 → 0.78 s,
decoding 2.04 → 1.66 s; 8 % more bytes (11.0 against 10.2 MB).

Decoding interns the strings that repeat (node ids, names, kinds, paths, labels): unmarshalling makes a
new string object for every occurrence, and a file's references name the same few enclosing ids and
callee names over and over. Measured on the synthetic monorepo (scripts/bench/monorepo.py, 30 nodes and
127 references a file): 90 KB of objects a decoded file before, see the commit for after; a 100,000-file
index holds every file's extraction while it resolves (issue 12).
"""

from __future__ import annotations

import marshal
import sys
import zlib
from operator import attrgetter

from codegraph.model import FileExtraction, ImportBinding, Node, Ref

# The encoding's version is codegraph.store.schema.CACHE_VERSION: bump it whenever the encoded shape or
# the extractor's output changes.
_NODE_FIELDS = Node.__slots__
_REF_FIELDS = Ref.__slots__
_IMPORT_FIELDS = ImportBinding.__slots__
_node_row = attrgetter(*_NODE_FIELDS)  # a tuple of the fields, in C
_ref_row = attrgetter(*_REF_FIELDS)
_import_row = attrgetter(*_IMPORT_FIELDS)
_FORMAT = 0  # marshal's: see the module docstring


def rows(fx: FileExtraction) -> tuple:
    """``fx`` as plain tuples and lists (what :func:`encode` stores). A parse worker sends
    this to the parent (pickled by the pool: C-fast both ways, where decoding the stored JSON cost the
    parent ~0.5 s of CPU on django-wheel while the workers wanted both cores); :func:`from_rows`
    builds the objects back."""
    return (
        fx.path,
        fx.language,
        list(map(_node_row, fx.nodes)),
        fx.contains,
        list(map(_ref_row, fx.refs)),
        list(map(_import_row, fx.imports)),
        fx.errors,
        fx.assigned_types,
        fx.exports,
        fx.returns,
        fx.owners,
        fx.package,
        fx.locals,
        fx.closures,
    )


def encode_rows(payload: tuple) -> bytes:
    """The cache row of the extraction whose :func:`rows` are ``payload``."""
    return zlib.compress(marshal.dumps(payload, _FORMAT), 1)


def encode(fx: FileExtraction) -> bytes:
    return encode_rows(rows(fx))


def with_refs_of(payload: tuple, kinds: frozenset[str]) -> tuple:
    """``payload`` (:func:`rows`) keeping only the references of ``kinds``."""
    return (*payload[:4], [r for r in payload[4] if r[1] in kinds], *payload[5:])


def encode_with_interface(payload: tuple, kinds: frozenset[str]) -> tuple[bytes, bytes]:
    """``(encode_rows(payload), encode_rows(with_refs_of(payload, kinds)))``: the cache row and the
    interface row (:func:`codegraph.index.incremental.interface`) of one extraction."""
    return encode_rows(payload), encode_rows(with_refs_of(payload, kinds))


def _interned(value):
    return sys.intern(value) if type(value) is str else value


def decode(data: bytes) -> FileExtraction:
    return from_rows(marshal.loads(zlib.decompress(data)))


def _same(value):
    return value


def refs_from_rows(refs, ident=_same) -> list[Ref]:
    """The references of :func:`rows`' fifth part (``ident``: what node ids go through)."""
    i = sys.intern
    # Ref: source, kind, name, line, col, receiver, arity, args
    return [Ref(ident(r[0]), i(r[1]), i(r[2]), r[3], r[4], _interned(r[5]), r[6], r[7]) for r in refs]


def from_rows(payload, *, ids_shared: bool = False) -> FileExtraction:
    """The extraction :func:`rows` made ``payload`` of, its repeated
    strings interned. With ``ids_shared`` (a parse worker's rows, unpickled: pickle sends a string
    object once per message and the extractor reuses each node's id object for its contains pairs,
    references and facts) node ids are left as they come: interning each, unique across files, cost
    the parent a dictionary insertion per id while both workers wanted the cores."""
    (
        path,
        language,
        nodes,
        contains,
        refs,
        imports,
        errors,
        typed,
        exports,
        returns,
        owners,
        package,
        local_names,
        closures,
    ) = payload
    i = sys.intern
    path = i(path)
    language = i(language)
    ident = _same if ids_shared else _interned
    return FileExtraction(
        path=path,
        language=language,
        # Node: id, kind, name, qualified_name, file_path, language, then lines, details
        nodes=[
            Node(
                ident(r[0]),
                i(r[1]),
                i(r[2]),
                i(r[3]),
                path if r[4] == path else i(r[4]),
                language if r[5] == language else i(r[5]),
                *r[6:],
            )
            for r in nodes
        ],
        contains=[(ident(a), ident(b)) for a, b in contains],
        refs=refs_from_rows(refs, ident),
        # ImportBinding: local, module, imported, line, col, node, reexport
        imports=[
            ImportBinding(_interned(r[0]), _interned(r[1]), _interned(r[2]), r[3], r[4], ident(r[5]), r[6])
            for r in imports
        ],
        errors=errors,
        # (scope id, variable, type), (name, local), (function id, expression), (node id, owner),
        # (function id, name), (node id, function id)
        assigned_types=[(ident(s), _interned(v), _interned(t)) for s, v, t in typed],
        exports=[tuple(map(_interned, e)) for e in exports],
        returns=[(ident(f), _interned(e)) for f, e in returns],
        owners=[(ident(n), _interned(o)) for n, o in owners],
        package=package,
        locals=[(ident(f), _interned(n)) for f, n in local_names],
        closures=[(ident(a), ident(b)) for a, b in closures],
    )
