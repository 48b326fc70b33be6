"""Default-ignored directory names must not hide a project's own packages (issue 9: coverage.py's
`coverage/` package and pypa/build's `src/build/` were invisible): build-output names hide only what
git does not track (outside git: directories that are not Python packages); `include` re-includes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegraph.config import load_config
from codegraph.errors import ConfigUnparsable
from codegraph.index.discover import discover
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.status import status
from codegraph.store.reader import Reader
from tests.conftest import git


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


OWN_PACKAGES = {
    "coverage/__init__.py": "def coverage_api():\n    pass\n",
    "coverage/control.py": "class Coverage:\n    pass\n",
    "src/build/__init__.py": "def build_sdist():\n    pass\n",
    "vendor/lib.go": "package lib\n",
    "app.py": "def main():\n    pass\n",
}


def test_tracked_packages_named_like_build_output_are_indexed_and_untracked_output_is_not(tmp_path):
    write(tmp_path, OWN_PACKAGES)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "init")
    write(
        tmp_path,
        {
            "build/lib/coverage/control.py": "class Coverage:\n    pass\n",  # `setup.py build` output
            "dist/bundle.js": "function bundled() {}\n",
            "coverage/new_module.py": "def not_yet_added():\n    pass\n",  # untracked in a build-named dir
        },
    )
    found = discover(tmp_path)
    paths = {f.path for f in found.files}
    assert {"coverage/__init__.py", "coverage/control.py", "src/build/__init__.py", "app.py"} <= paths
    assert found.skipped["build/lib/coverage/control.py"] == "ignored directory"
    assert found.skipped["dist/bundle.js"] == "ignored directory"
    assert found.skipped["coverage/new_module.py"] == "ignored directory"
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        assert [n.file_path for n in reader.nodes_named("Coverage")] == ["coverage/control.py"]
        assert reader.nodes_named("build_sdist")[0].file_path == "src/build/__init__.py"
        report = status(reader)
    assert report.added == [] and report.deleted == []


def test_outside_git_a_python_package_named_like_build_output_is_indexed(tmp_path):
    write(tmp_path, OWN_PACKAGES)
    write(tmp_path, {"build/lib/coverage/control.py": "class Coverage:\n    pass\n"})
    found = discover(tmp_path)
    paths = {f.path for f in found.files}
    assert {"coverage/__init__.py", "coverage/control.py", "src/build/__init__.py"} <= paths
    assert "build/lib/coverage/control.py" not in paths


@pytest.mark.parametrize("names", [False, True])
def test_outside_git_a_go_or_jvm_package_named_like_build_output_is_indexed(tmp_path, names):
    """React Native's ``com/facebook/react/common/build/ReactBuildConfig.kt`` (a Kotlin package named
    ``build``) was left out of the kotlin-rn-android corpus as build output (corpus_check.py): a
    directory that directly holds a source file of a language whose packages are directories is a
    package; build output holds such sources only further down (``build/generated/…/R.java``)."""
    project = tmp_path / "p"
    write(
        project,
        {
            "src/main/java/com/acme/common/build/BuildConfig.kt": "package com.acme.common.build\nobject BuildConfig\n",
            "tools/go/build/build.go": "package build\n\nfunc Import() {}\n",
            "scala/target/Target.scala": "package target\n\nobject Target\n",
            "build/generated/source/r/com/acme/R.java": "package com.acme;\n\npublic final class R {}\n",
            "dist/index.js": "export function bundled() {}\n",
            "target/debug/build/x/out/gen.rs": "pub fn generated() {}\n",
            "app.kt": "fun main() {}\n",
        },
    )
    table = {"names": tmp_path / "names.json"} if names else {}
    for _ in range(2 if names else 1):  # with a names table: as made, then as read back
        found = discover(project, **table)
        assert [f.path for f in found.files] == [
            "app.kt",
            "scala/target/Target.scala",
            "src/main/java/com/acme/common/build/BuildConfig.kt",
            "tools/go/build/build.go",
        ]
        assert set(found.skipped) == {"build/", "dist/", "target/"}


def test_include_in_codegraph_json_re_includes_paths_under_ignored_names(tmp_path):
    write(
        tmp_path,
        {
            "app.py": "def main():\n    pass\n",
            "build/generated/api.py": "def generated_api():\n    pass\n",
            "build/tmp/junk.py": "def junk():\n    pass\n",
        },
    )
    (tmp_path / "codegraph.json").write_text(json.dumps({"include": ["build/generated/"]}))
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.files == 2 and summary.skipped == {"ignored directory": 1}
    with Reader(tmp_path) as reader:
        assert reader.nodes_named("generated_api")[0].file_path == "build/generated/api.py"
        assert status(reader).deleted == []
    (tmp_path / "codegraph.json").write_text(json.dumps({"include": "build/"}))
    with pytest.raises(ConfigUnparsable, match="'include' must be a list of gitignore-style patterns"):
        load_config(tmp_path)


def test_outside_git_a_build_output_directory_left_out_is_said_not_silent(tmp_path):
    """An npm package whose sources are its dist/ (a new user's first try on @nuxt/ui) must not look
    like an empty project: the directory is listed as skipped, with how to index it."""
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.js").write_text("export function a() { return 1; }\n")
    (tmp_path / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "node_modules" / "x" / "i.js").write_text("export const x = 1;\n")
    (tmp_path / "b.ts").write_text("export const b = 2;\n")
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["b.ts"]
    assert set(found.skipped) == {"dist/"}  # dependencies (node_modules) are not the project's own code
    assert "codegraph.json include" in found.skipped["dist/"]
    (tmp_path / "codegraph.json").write_text(json.dumps({"include": ["dist/"]}))
    config = load_config(tmp_path)
    assert [f.path for f in discover(tmp_path, include=config.include).files] == ["b.ts", "dist/index.js"]


@pytest.mark.parametrize("pattern", ["node_modules/x/", "node_modules/**", "/node_modules/x/i.js", "**/i.js"])
def test_outside_git_include_reaches_into_node_modules(tmp_path, pattern):
    """The walk pruned node_modules/ by name before ``include`` was looked at: the README's
    ``"include": ["node_modules/x/"]`` indexed nothing there outside git, and said nothing."""
    for name in ("x", "y"):
        (tmp_path / "node_modules" / name).mkdir(parents=True)
        (tmp_path / "node_modules" / name / "i.js").write_text("export const x = 1;\n")
    (tmp_path / "b.ts").write_text("export const b = 2;\n")
    wanted = ["b.ts", "node_modules/x/i.js"] + (["node_modules/y/i.js"] if "**" in pattern else [])
    assert [f.path for f in discover(tmp_path, include=(pattern,)).files] == wanted
    assert [f.path for f in discover(tmp_path, include=("src/*.ts",)).files] == ["b.ts"]


@pytest.mark.parametrize("in_git", [False, True])
def test_a_symlink_to_an_indexed_file_is_skipped_so_its_names_are_defined_once(tmp_path, in_git):
    """dup.py → b.py indexed b() twice: the call in a.py became a guess between two definitions."""
    (tmp_path / "a.py").write_text("def a():\n    b()\n")
    (tmp_path / "b.py").write_text("def b():\n    pass\n")
    (tmp_path / "dup.py").symlink_to("b.py")
    (tmp_path / "outside.py").write_text("def o():\n    pass\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "alias.py").symlink_to(tmp_path / "node_modules" / "real.py")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "real.py").write_text("def r():\n    pass\n")
    if in_git:
        git(tmp_path, "init", "-q")
    found = discover(tmp_path)
    # an alias of a file left out (node_modules) is the only copy indexed: it stays
    assert [f.path for f in found.files] == ["a.py", "b.py", "outside.py", "pkg/alias.py"]
    assert found.skipped["dup.py"] == "symlink to an indexed file (b.py)"
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        b = reader.nodes_named("b")
        assert [n.file_path for n in b] == ["b.py"]
        calls = reader.conn.execute(
            "SELECT source FROM edges WHERE target = ? AND kind = 'calls'", (b[0].id,)
        )
        assert [reader.node(row[0]).name for row in calls] == ["a"]


def test_a_folder_left_out_whole_is_counted_as_a_folder_not_a_file(tmp_path):
    """``skipped: 2 files (ignored directory), e.g. …/vendor/`` called two pruned folders files
    (fresh-install pass on django-wheel, stop 30); files and folders of one reason are told apart."""
    from codegraph.render import render

    for folder in ("dist", "vendor"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "bundle.js").write_text("export function a() { return 1; }\n")
    (tmp_path / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "node_modules" / "x" / "i.js").write_text("export const x = 1;\n")
    (tmp_path / "b.ts").write_text("export const b = 2;\n")
    (tmp_path / "id_rsa.py").write_text("KEY = 1\n")
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.skipped_folders == {"ignored directory": 2}
    assert "skipped: 2 folders (ignored directory), 1 file (secret file);" in summary.line()
    with Reader(tmp_path) as r:
        result = status(r)
    assert result.skipped["ignored directory"] == {"count": 2, "example": "dist/", "folders": 2}
    assert "skipped: 2 folders (ignored directory), e.g. dist/" in render(result)
    assert "skipped: 1 file (secret file), e.g. id_rsa.py" in render(result)


def test_skip_counts_name_files_and_folders_as_they_are():
    from codegraph.paths import skip_count

    assert [skip_count(1), skip_count(2), skip_count(2, 2), skip_count(3, 1), skip_count(2, 1)] == [
        "1 file",
        "2 files",
        "2 folders",
        "2 files and 1 folder",
        "1 file and 1 folder",
    ]
