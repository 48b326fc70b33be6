"""Reading a project's source file the way the index saw it, safely: inside the root, a regular
file opened without blocking, never a secret, size-capped, decoded as extraction decoded it (BOMs,
UTF-16/32, a declared codec such as a PEP 263 cookie). The one reader of source text on disk for the
query layer (file view, node, explore) and the indexer's decoding rule.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from codegraph.errors import FileNotIndexed, SourceUnavailable
from codegraph.index.encoding import looks_binary, to_utf8
from codegraph.index.sensitive import is_secret
from codegraph.paths import resolve_inside


def source_utf8(data: bytes, language: str | None) -> bytes:
    """A source file's bytes as the UTF-8 text extraction and display work on (BOMs, UTF-16/32, a
    declared codec; issue 9). Columns are byte offsets into this text."""
    from codegraph.index.languages import module_for

    declared = module_for(language).declared_encoding(data) if language else None  # Python: PEP 263
    return to_utf8(data, declared)


def read_bytes(root: Path, rel: str, *, max_bytes: int | None = None) -> tuple[bytes, str]:
    """The raw bytes of ``rel`` (relative to ``root``; symlinks followed while they stay inside) and
    the path they were read from, relative to the root.

    Raises:
        PathOutsideRoot: ``rel``, or a symlink on its way, escapes the root.
        FileNotIndexed: a secret file (keys, credentials, .env; checked on the name and on the link's
            target), not a regular file (a FIFO is refused without blocking), or over ``max_bytes``.
        SourceUnavailable: deleted since the last index, or unreadable.
    """
    target = resolve_inside(root, rel)
    target_rel = target.relative_to(root.resolve()).as_posix()
    if is_secret(rel) or is_secret(target_rel):
        raise FileNotIndexed(f"{rel} points at a secret file: codegraph never serves it.")
    try:
        # O_NONBLOCK: opening a FIFO must not hang; fstat below refuses anything but a regular file.
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise SourceUnavailable(rel, SourceUnavailable.DELETED) from None
    except OSError as exc:
        raise SourceUnavailable(rel, f"unreadable ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise FileNotIndexed(f"{rel} is not a regular file.")
        if max_bytes is not None and st.st_size > max_bytes:
            raise FileNotIndexed(
                f"{rel} is {st.st_size} bytes, over the {max_bytes} byte limit for one read."
            )
        data = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
    return data, target_rel


def decode(data: bytes, rel: str, language: str | None = None) -> bytes:
    """``data`` of file ``rel`` as UTF-8, decoded by the rule of its language: ``language``, the label
    it was indexed as (the project's codegraph.json ``extensions`` may map it), else its extension's."""
    if language is None:
        from codegraph.index.languages import language_for

        language = (language_for(rel) or (None,))[0]
    return source_utf8(data, language)


def read_text(root: Path, rel: str, language: str | None = None) -> str:
    """The file's current text, decoded as the indexer decodes it (invalid sequences replaced);
    ``language`` as :func:`decode`.

    Raises:
        PathOutsideRoot, FileNotIndexed: as :func:`read_bytes`.
        SourceUnavailable: as :func:`read_bytes`, or the bytes are not text (``not text on disk``).
    """
    data, target_rel = read_bytes(root, rel)
    text = decode(data, target_rel, language)
    if looks_binary(text):
        raise SourceUnavailable(rel, SourceUnavailable.NOT_TEXT)
    return text.decode("utf-8", "replace")
