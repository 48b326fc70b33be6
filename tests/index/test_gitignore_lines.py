"""A ``.gitignore`` is read as git reads it, outside git (the walk; adversarial pass, stop 28): a line
that is no valid pattern is left out instead of ending the index run with a traceback, and lines end
at LF only. Real files, real discovery."""

from __future__ import annotations

import pytest

from codegraph.index.discover import discover


def _tree(tmp_path, rules: bytes):
    root = tmp_path / "t"
    (root / "src").mkdir(parents=True)
    (root / "main.py").write_text("x = 1\n")
    (root / "src" / "x.py").write_text("y = 1\n")
    (root / "src" / "x.o").write_bytes(b"\0")
    (root / ".gitignore").write_bytes(rules)
    return root


def test_an_invalid_pattern_is_left_out_and_the_others_apply(tmp_path):
    root = _tree(tmp_path, b"[z-a]\nsrc/\n")
    assert [f.path for f in discover(root).files] == ["main.py"]


def test_an_invalid_pattern_in_a_nested_gitignore_is_left_out_too(tmp_path):
    root = _tree(tmp_path, b"")
    (root / "src" / ".gitignore").write_bytes(b"[z-a]\nx.py\n")
    assert [f.path for f in discover(root).files] == ["main.py"]


@pytest.mark.parametrize("separator", ["\u2028", "\x1c", "\x85"])
def test_only_lf_ends_a_line(tmp_path, separator):
    # "*.py<U+2028>foo" is one pattern for git (no name matches it); split there, "*.py" hid every file
    root = _tree(tmp_path, f"*.py{separator}foo\r\n".encode())
    assert [f.path for f in discover(root).files] == ["main.py", "src/x.py"]
