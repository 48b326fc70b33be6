"""Random paths and windows never serve anything outside the root or a secret, and never crash with
anything but the documented errors (issue 3, "Done when")."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from codegraph.errors import FileNotIndexed, InputTooLong, PathOutsideRoot
from codegraph.model import Node
from codegraph.paths import resolve_inside
from codegraph.query.file_view import FileViewRequest, file_view
from codegraph.render import render

DOCUMENTED = (FileNotIndexed, PathOutsideRoot, InputTooLong)
OUTSIDE_MARK = "OUTSIDE-MARKER-7f3a"
SECRET_MARK = "SECRET-MARKER-91bc"


@dataclass
class FakeReader:
    paths: list[str]

    def indexed_paths(self) -> list[str]:
        return list(self.paths)

    def file_symbols(self, path: str) -> list[Node]:
        return []

    def dependents(self, path: str) -> list[str]:
        return []


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """root/ with plain files, a secret, symlinks in and out (file and directory), a symlink loop and a
    unicode name; outside/ beside it. The fake index lists every path, as a poisoned index might."""
    base = tmp_path_factory.mktemp("guard")
    root, outside = base / "root", base / "outside"
    (root / "pkg").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.py").write_text(f"{OUTSIDE_MARK}\n")
    (base / "sibling.py").write_text(f"{OUTSIDE_MARK}\n")
    (root / "a.py").write_text("alpha = 1\n")
    (root / "pkg" / "b.py").write_text("beta = 2\n")
    (root / "ünïcødé.py").write_text("gamma = 3\n")
    (root / ".env").write_text(f"TOKEN={SECRET_MARK}\n")
    (root / "pkg" / "server.pem").write_text(f"{SECRET_MARK}\n")
    (root / "conf.yaml").write_text(f"token: {SECRET_MARK}\n")
    os.symlink(outside / "secret.py", root / "link_out.py")
    os.symlink(outside, root / "dir_out")
    os.symlink(root / "a.py", root / "link_in.py")
    os.symlink(root / ".env", root / "env_alias.py")
    os.symlink(root / "conf.yaml", root / "conf_alias.py")
    os.symlink("../../sibling.py", root / "pkg" / "rel_out.py")
    os.symlink(root / "loop1", root / "loop2")
    os.symlink(root / "loop2", root / "loop1")
    return root, outside, FakeReader(INDEXED)


INDEXED = [
    "a.py", "pkg/b.py", "ünïcødé.py", ".env", "pkg/server.pem", "conf.yaml", "link_out.py",
    "dir_out/secret.py", "link_in.py", "env_alias.py", "pkg/rel_out.py", "loop1", "loop2",
    "conf_alias.py",
]  # fmt: skip


def fragments(root: Path, outside: Path):
    named = st.sampled_from(
        ["a.py", "pkg", "b.py", ".env", "server.pem", "conf.yaml", "link_out.py", "dir_out", "secret.py",
         "link_in.py", "env_alias.py", "rel_out.py", "loop1", "ünïcødé.py", "sibling.py"]
    )  # fmt: skip
    special = st.sampled_from(["..", ".", "", "~", "\x00", "\\..", "%2e%2e", "//", "..."])
    absolute = st.sampled_from([str(root), str(outside), str(root.parent), "/etc", "/", str(root / "..")])
    return st.one_of(named, special, absolute, st.text(max_size=12))


def paths(root: Path, outside: Path):
    joined = st.lists(fragments(root, outside), min_size=1, max_size=8).flatmap(
        lambda parts: st.sampled_from(["/", "\\"]).map(lambda sep: sep.join(parts))
    )
    long = st.integers(4000, 4200).map(lambda n: ("a/" * n)[:n])
    indexed = st.sampled_from(INDEXED)
    prefix = st.sampled_from(
        ["", "./", "pkg/../", f"{root}/", f"{outside}/../root/", "../root/", "dir_out/../"]
    )
    direct = st.tuples(prefix, indexed).map("".join)
    return st.one_of(direct, direct, joined, long, st.text(max_size=40))


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_random_paths_and_windows_never_serve_outside_the_root_or_a_secret(tree, data):
    root, outside, reader = tree
    arg = data.draw(paths(root, outside), label="file")
    request = FileViewRequest(
        file=arg,
        offset=data.draw(st.none() | st.integers(-5, 10**9), label="offset"),
        limit=data.draw(st.none() | st.integers(-5, 10**9), label="limit"),
        symbols_only=data.draw(st.booleans(), label="symbols_only"),
    )
    try:
        result = file_view(root, reader, request)
    except DOCUMENTED as exc:
        event(type(exc).__name__)
        assert OUTSIDE_MARK not in str(exc) and SECRET_MARK not in str(exc)
        if isinstance(exc, InputTooLong):
            assert len(arg) > 4096
        return
    event("served")
    served = (root / result.path).resolve()
    assert served.is_relative_to(root.resolve())
    text = render(result)
    assert OUTSIDE_MARK not in text
    assert SECRET_MARK not in text
    assert len(result.body) <= 38_000


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_guard_returns_a_path_inside_the_root_or_refuses(tree, data):
    root, outside, _ = tree
    arg = data.draw(paths(root, outside), label="relative")
    try:
        resolved = resolve_inside(root, arg)
    except PathOutsideRoot:
        return
    assert resolved == root.resolve() or root.resolve() in resolved.parents
    assert resolved.resolve() == resolved
