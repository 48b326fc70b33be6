"""Compact, safe serialisation of a :class:`FileExtraction` for the per-file extraction cache.

JSON (never pickle: the cache lives in a file anyone could hand us) compressed with zlib.
"""

from __future__ import annotations

import json
import zlib

from codegraph.model import FileExtraction, ImportBinding, Node, Ref

# Bumped whenever the encoded shape or the extractor's output changes: older cache rows are re-parsed.
CACHE_VERSION = "8"
_NODE_FIELDS = Node.__slots__
_REF_FIELDS = Ref.__slots__
_IMPORT_FIELDS = ImportBinding.__slots__


def encode(fx: FileExtraction) -> bytes:
    payload = [
        fx.path,
        fx.language,
        [[getattr(n, f) for f in _NODE_FIELDS] for n in fx.nodes],
        fx.contains,
        [[getattr(r, f) for f in _REF_FIELDS] for r in fx.refs],
        [[getattr(b, f) for f in _IMPORT_FIELDS] for b in fx.imports],
        fx.errors,
        fx.assigned_types,
        fx.exports,
        fx.returns,
        fx.owners,
        fx.package,
        fx.locals,
    ]
    return zlib.compress(json.dumps(payload, separators=(",", ":")).encode(), 1)


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
    ) = json.loads(zlib.decompress(data))
    return FileExtraction(
        path=path,
        language=language,
        nodes=[Node(*row) for row in nodes],
        contains=[tuple(c) for c in contains],
        refs=[Ref(*row) for row in refs],
        imports=[ImportBinding(*row) for row in imports],
        errors=errors,
        assigned_types=[tuple(t) for t in typed],
        exports=[tuple(e) for e in exports],
        returns=[tuple(r) for r in returns],
        owners=[tuple(o) for o in owners],
        package=package,
        locals=[tuple(x) for x in local_names],
    )
