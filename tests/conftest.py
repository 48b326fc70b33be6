"""Shared fixtures: real fixture repos copied to temp dirs and indexed with the real indexer."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# No test asks the real package index for a newer codegraph (the update notice, issue 14): subprocesses
# inherit this; tests/test_update_check.py turns it back on against a loopback index.
os.environ["CODEGRAPH_NO_UPDATE_CHECK"] = "1"


def copy_fixture(name: str, dest: Path) -> Path:
    target = dest / name.replace("/", "-")
    shutil.copytree(FIXTURES / "repos" / name, target)
    return target


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(root), *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.fixture
def indexed(tmp_path):
    """index(name) → an open Reader over a fresh copy of fixtures/repos/<name>."""
    readers = []

    def make(name: str, *, use_git: bool = False) -> Reader:
        root = copy_fixture(name, tmp_path)
        if use_git:
            git(root, "init", "-q")
            git(root, "add", "-A")
            git(root, "commit", "-qm", "init")
        index_project(ProjectPaths(root.resolve()), workers=1)
        reader = Reader(root)
        readers.append(reader)
        return reader

    yield make
    for r in readers:
        r.close()


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite fixtures/golden/<label>.json from the current indexer (then read the diff by hand)",
    )


SHARED = Path(__file__).resolve().parents[2] / "shared"


def pytest_runtest_setup(item):
    """``@pytest.mark.needs_shared`` tests skip, saying why, where ../shared (the pinned corpora and the
    reference CLI's launcher, which CI provides) is not beside the repo root."""
    if item.get_closest_marker("needs_shared") and not SHARED.is_dir():
        pytest.skip(f"needs {SHARED} (the pinned corpora and the reference CLI; CI has it)")


def load_script(relpath: str):
    """A script under ``scripts/`` (not a package) loaded as a module named after its file, so its
    dataclasses can find their module in ``sys.modules``."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "scripts" / relpath
    name = path.stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
