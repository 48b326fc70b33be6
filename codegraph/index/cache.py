"""Compact, safe serialisation of a :class:`FileExtraction` for the per-file extraction cache.

JSON (never pickle: the cache lives in a file anyone could hand us) compressed with zlib.

Decoding interns the strings that repeat (node ids, names, kinds, paths, labels): ``json.loads`` makes a
new string object for every occurrence, and a file's references name the same few enclosing ids and
callee names over and over. Measured on the synthetic monorepo (scripts/bench/monorepo.py, 30 nodes and
127 references a file): 90 KB of objects a decoded file before, see the commit for after; a 100,000-file
index holds every file's extraction while it resolves (issue 12).
"""

from __future__ import annotations

import json
import sys
import zlib
from operator import attrgetter

from codegraph.model import FileExtraction, ImportBinding, Node, Ref

# Bumped whenever the encoded shape or the extractor's output changes: older cache rows are re-parsed.
CACHE_VERSION = "13"
_NODE_FIELDS = Node.__slots__
_REF_FIELDS = Ref.__slots__
_IMPORT_FIELDS = ImportBinding.__slots__
_node_row = attrgetter(*_NODE_FIELDS)  # a tuple of the fields, in C (json writes tuples as lists)
_ref_row = attrgetter(*_REF_FIELDS)
_import_row = attrgetter(*_IMPORT_FIELDS)


def encode(fx: FileExtraction) -> bytes:
    payload = [
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
    ]
    return zlib.compress(json.dumps(payload, separators=(",", ":")).encode(), 1)


def intern_strings(fx: FileExtraction) -> FileExtraction:
    """Intern, in place, the strings of ``fx`` that repeat (what :func:`decode` interns). A worker does
    this before sending an extraction to the parent, so pickling writes each distinct string once and
    the parent holds one copy of it."""
    i = sys.intern
    for n in fx.nodes:
        n.id, n.kind, n.name, n.qualified_name = i(n.id), i(n.kind), i(n.name), i(n.qualified_name)
    for r in fx.refs:
        r.source, r.kind, r.name = i(r.source), i(r.kind), i(r.name)
        if r.receiver is not None:
            r.receiver = i(r.receiver)
    for b in fx.imports:
        b.local, b.module, b.imported, b.node = map(_interned, (b.local, b.module, b.imported, b.node))
    for name in ("contains", "assigned_types", "exports", "returns", "owners", "locals", "closures"):
        setattr(fx, name, [tuple(map(_interned, row)) for row in getattr(fx, name)])
    return fx


def _interned(value):
    return sys.intern(value) if type(value) is str else value


def decode(data: bytes) -> FileExtraction:
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
    ) = json.loads(zlib.decompress(data))
    i = sys.intern
    path = i(path)
    language = i(language)
    return FileExtraction(
        path=path,
        language=language,
        # Node: id, kind, name, qualified_name, file_path, language, then lines, details
        nodes=[
            Node(
                i(r[0]),
                i(r[1]),
                i(r[2]),
                i(r[3]),
                path if r[4] == path else i(r[4]),
                language if r[5] == language else i(r[5]),
                *r[6:],
            )
            for r in nodes
        ],
        contains=[tuple(map(_interned, c)) for c in contains],
        # Ref: source, kind, name, line, col, receiver, arity, args
        refs=[Ref(i(r[0]), i(r[1]), i(r[2]), r[3], r[4], _interned(r[5]), r[6], r[7]) for r in refs],
        # ImportBinding: local, module, imported, line, col, node, reexport
        imports=[
            ImportBinding(
                _interned(r[0]), _interned(r[1]), _interned(r[2]), r[3], r[4], _interned(r[5]), r[6]
            )
            for r in imports
        ],
        errors=errors,
        assigned_types=[tuple(map(_interned, t)) for t in typed],
        exports=[tuple(map(_interned, e)) for e in exports],
        returns=[tuple(map(_interned, r)) for r in returns],
        owners=[tuple(map(_interned, o)) for o in owners],
        package=package,
        locals=[tuple(map(_interned, x)) for x in local_names],
        closures=[tuple(map(_interned, x)) for x in closures],
    )
