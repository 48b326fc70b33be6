"""Source decoding (issue 9): PEP 263 cookies, BOMs and UTF-16/32 text are indexed as their text, with
columns as byte offsets into the UTF-8 text."""

from __future__ import annotations

import codecs
import subprocess
import sys

import pytest

from codegraph.index.encoding import looks_binary, pep263_encoding, to_utf8
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader


@pytest.mark.parametrize(
    "head, expected",
    [
        (b"# -*- coding: latin-1 -*-\nx = 1\n", "iso8859-1"),
        (b"#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\n", "cp1252"),
        (b"\n# coding=utf-8\n", "utf-8"),
        (b"x = 1\n# coding: latin-1\n", None),  # line 2 counts only after a comment or blank line 1
        (b"#\n#\n# coding: latin-1\n", None),  # line 3 never counts
        (b"# coding: no-such-codec\n", None),
        (b"def f(): pass\n", None),
    ],
)
def test_pep263_cookie_is_read_from_line_one_or_two_only(head, expected):
    assert pep263_encoding(head) == expected


def test_to_utf8_handles_boms_declared_codecs_and_invalid_bytes():
    text = "def café():\n    return 'naïve'\n"
    assert to_utf8(text.encode("latin-1"), "latin-1") == text.encode()
    assert to_utf8(codecs.BOM_UTF8 + text.encode()) == text.encode()
    for codec in ("utf-16", "utf-32", "utf-16-be", "utf-32-be"):
        bom = {"utf-16-be": codecs.BOM_UTF16_BE, "utf-32-be": codecs.BOM_UTF32_BE}.get(codec, b"")
        assert to_utf8(bom + text.encode(codec)) == text.encode(), codec
    assert to_utf8(codecs.BOM_UTF16_LE + text.encode("utf-16-le"), "latin-1") == text.encode()  # BOM wins
    assert to_utf8(b"ok \xff\n", "utf-8") == "ok \ufffd\n".encode()
    plain = b"x = 1\n"
    assert to_utf8(plain) is plain


def test_utf16_text_is_text_and_random_bytes_are_not():
    import random

    rng = random.Random(9)
    assert not looks_binary("def f():\n    return 1\n".encode("utf-16"))
    assert not looks_binary(b"ok\n\xc3\x28 \xe2\x82 \xf0\x9f\x98\n")  # a few bad bytes: still text
    assert looks_binary(bytes(rng.getrandbits(8) for _ in range(3000)).replace(b"\0", b"a"))
    assert looks_binary(b"abc\0def")


def test_latin1_cookie_bom_and_utf16_files_are_indexed_as_their_text(tmp_path):
    (tmp_path / "lat.py").write_bytes(b"# -*- coding: latin-1 -*-\ndef caf\xe9():\n    return 'na\xefve'\n")
    (tmp_path / "bom.py").write_bytes(codecs.BOM_UTF8 + b"def bom_first():\n    pass\n")
    (tmp_path / "wide.py").write_bytes("def wide_café():\n    return 1\n".encode("utf-16"))
    (tmp_path / "caller.py").write_text(
        "from lat import café\n\n\ndef use():\n    café()\n", encoding="utf-8"
    )
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.skipped == {} and summary.files == 4
    with Reader(tmp_path) as reader:
        (cafe,) = reader.nodes_named("café")
        assert (cafe.file_path, cafe.start_line, cafe.start_column) == ("lat.py", 2, 0)
        (bom,) = reader.nodes_named("bom_first")
        assert (bom.start_line, bom.start_column, bom.end_column) == (1, 0, len("    pass"))
        (wide,) = reader.nodes_named("wide_café")
        assert (wide.file_path, wide.start_line) == ("wide.py", 1)
    node = subprocess.run(
        [sys.executable, "-m", "codegraph", "node", "wide_café", "-p", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert node.returncode == 0 and "1\tdef wide_café():" in node.stdout, node.stdout + node.stderr
    lat = subprocess.run(
        [sys.executable, "-m", "codegraph", "node", "café", "-p", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "2\tdef café():" in lat.stdout and "called by (1):" in lat.stdout, lat.stdout


def test_file_view_shows_utf16_and_cookie_files_as_their_text_not_their_raw_bytes(tmp_path):
    # adversarial pass 2026-12-01: `node --file` printed a UTF-16 file's raw bytes ("c l a s s") and a
    # latin-1 file's é as U+FFFD, although the index had decoded both.
    from codegraph.query.file_view import FileViewRequest, file_view
    from codegraph.render import render

    (tmp_path / "U16.java").write_bytes("class U16 { void café() {} }\n".encode("utf-16"))
    (tmp_path / "lat.py").write_bytes(b"# -*- coding: latin-1 -*-\ndef caf\xe9():\n    pass\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        wide = render(file_view(tmp_path, reader, FileViewRequest("U16.java")))
        lat = render(file_view(tmp_path, reader, FileViewRequest("lat.py")))
    assert "1\tclass U16 { void café() {} }" in wide, wide
    assert "2\tdef café():" in lat, lat


def test_ruby_magic_encoding_comment_is_honoured(tmp_path):
    # adversarial pass 2026-12-01: `# encoding: latin-1` then `def café` was indexed as `caf`.
    (tmp_path / "lat.rb").write_bytes(b"# encoding: latin-1\ndef caf\xe9\nend\n")
    (tmp_path / "she.rb").write_bytes(
        b"#!/usr/bin/env ruby\n# -*- coding: iso-8859-1 -*-\ndef na\xefve\nend\n"
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert [n.file_path for n in reader.nodes_named("café")] == ["lat.rb"]
        assert [n.file_path for n in reader.nodes_named("naïve")] == ["she.rb"]
