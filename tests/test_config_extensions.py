"""codegraph.json ``extensions``: a project maps file extensions to registered languages, over the
built-in map, everywhere a path's language is decided (discovery, status, the file view, the watcher,
symbol lookups); an unknown label or a malformed value is refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from codegraph.config import load_config
from codegraph.errors import ConfigUnparsable
from codegraph.index.discover import discover
from codegraph.index.indexer import index_project
from codegraph.index.languages import language_for, unsupported_language
from codegraph.index.watch import Watcher, relevant
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader

LIB = "<?php\nfunction helper() {\n    return 1;\n}\n"
MAIN = '<?php\nrequire "lib.inc";\nfunction main() {\n    return helper();\n}\n'


def cli(root, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], cwd=root, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def project(tmp_path):
    """A PHP project whose helpers live in ``.inc`` files (not a PHP extension by default)."""
    (tmp_path / "lib.inc").write_text(LIB)
    (tmp_path / "main.php").write_text(MAIN)
    (tmp_path / "codegraph.json").write_text(json.dumps({"extensions": {".inc": "php"}}))
    return tmp_path


def test_a_mapped_extension_makes_its_files_indexed_in_that_language(project):
    assert language_for("lib.inc") is None  # not by the built-in map
    assert language_for("lib.inc", {".inc": "php"}) == ("php", "php")
    index_project(ProjectPaths(project.resolve()), workers=1)
    with Reader(project) as reader:
        assert reader.languages() == {"php": 2}
        calls = reader.conn.execute(
            "SELECT s.name, t.file_path FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls'"
        ).fetchall()
    assert [tuple(c) for c in calls] == [("main", "lib.inc")]  # main() { return helper(); }


def test_a_mapping_overrides_the_built_in_language_of_an_extension(tmp_path):
    (tmp_path / "shape.h").write_text("class Shape {\n public:\n  int area();\n};\n")
    found = discover(tmp_path, extensions={".h": "cpp"})
    assert [(f.path, f.language) for f in found.files] == [("shape.h", "cpp")]
    assert [f.language for f in discover(tmp_path).files] == ["c"]


def test_a_mapped_extension_of_an_unsupported_language_is_indexed_instead_of_skipped(tmp_path):
    # Visual Basic has no module; a project may still map its .vb files to another language's rules
    (tmp_path / "legacy.vb").write_text("int twice(int x) { return 2 * x; }\n")
    assert unsupported_language("legacy.vb") == "Visual Basic"
    assert unsupported_language("legacy.vb", {".vb": "cpp"}) is None
    found = discover(tmp_path, extensions={".vb": "cpp"})
    assert [f.language for f in found.files] == ["cpp"] and found.skipped == {}


def test_cli_init_status_and_file_view_follow_the_mapping(project):
    init = cli(project, "init")
    assert init.returncode == 0, init.stderr
    status = cli(project, "status").stdout
    assert "languages: php 2 files" in status
    assert "fresh: no source file changed since the last index" in status  # status discovers alike
    view = cli(project, "node", "--file", "lib.inc")
    assert view.returncode == 0 and "function helper() {" in view.stdout
    node = cli(project, "node", "lib.inc:helper")  # a file-qualified symbol with a mapped extension
    assert node.returncode == 0 and "helper (function) lib.inc:2-4" in node.stdout


def test_changing_a_mapping_parses_the_file_again_in_its_new_language(tmp_path):
    (tmp_path / "widget.mjsx").write_text("export const Widget = () => <div />\n")
    (tmp_path / "codegraph.json").write_text('{"extensions": {".mjsx": "jsx"}}')
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)
    (tmp_path / "codegraph.json").write_text('{"extensions": {".mjsx": "javascript"}}')
    summary = index_project(paths, workers=1)  # a sync: the file itself did not change
    assert summary.changed
    with Reader(tmp_path) as reader:
        assert reader.languages() == {"javascript": 1}


@pytest.mark.parametrize(
    "extensions, fragment",
    [
        ({".inc": "phpx"}, "'extensions' maps '.inc' to 'phpx', which is no language label (known: "),
        ({".inc": ""}, "the value must be a language label"),
        ({".inc": ["php"]}, "the value must be a language label"),
        ({"inc": "php"}, "'extensions' key 'inc' is no file extension"),
        ([".inc"], "'extensions' must map file extensions to language labels"),
    ],
)
def test_a_bad_mapping_is_refused_in_one_line_with_an_exit_code(tmp_path, extensions, fragment):
    (tmp_path / "lib.inc").write_text(LIB)
    (tmp_path / "codegraph.json").write_text(json.dumps({"extensions": extensions}))
    proc = cli(tmp_path, "init")
    assert proc.returncode != 0
    assert fragment in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    if "phpx" in fragment:  # the known labels are listed
        assert "php, python" in proc.stderr
        with pytest.raises(ConfigUnparsable):
            language_for("lib.inc", load_config(tmp_path).extensions)
    else:
        with pytest.raises(ConfigUnparsable):
            load_config(tmp_path)


def test_keys_are_matched_case_insensitively(tmp_path):
    (tmp_path / "codegraph.json").write_text('{"extensions": {".INC": "php"}}')
    assert load_config(tmp_path).extensions == {".inc": "php"}
    assert language_for("A.Inc", load_config(tmp_path).extensions) == ("php", "php")


def test_the_watcher_counts_mapped_files_and_codegraph_json_as_relevant(project):
    root = project.resolve()
    assert relevant(root, str(root / "lib.inc"), {".inc": "php"})
    assert not relevant(root, str(root / "lib.inc"))
    assert relevant(root, str(root / "codegraph.json"))
    paths = ProjectPaths(root)
    index_project(paths, workers=1)
    watcher = Watcher(paths, debounce=0.2)
    watcher.start()
    try:
        assert watcher.wait_caught_up(10)
        (root / "lib.inc").write_text(LIB + "function fresh_one() {\n    return 2;\n}\n")
        deadline = time.monotonic() + 5
        found = []
        while time.monotonic() < deadline and not found:
            time.sleep(0.1)
            with Reader(root) as reader:
                found = [n.file_path for n in reader.nodes_named("fresh_one")]
        assert found == ["lib.inc"]
    finally:
        watcher.stop()


def test_a_bad_mapping_loses_nothing_the_last_index_and_the_config_stay_as_they_were(tmp_path):
    (tmp_path / "lib.inc").write_text(LIB)
    (tmp_path / "codegraph.json").write_text(json.dumps({"extensions": {".inc": "php"}}))
    assert cli(tmp_path, "init").returncode == 0
    bad = '{"extensions": {".inc": "phpx"}, "note": "kept"}\n'
    (tmp_path / "codegraph.json").write_text(bad)
    proc = cli(tmp_path, "sync")
    assert proc.returncode != 0 and "phpx" in proc.stderr and "Traceback" not in proc.stderr
    assert (tmp_path / "codegraph.json").read_text() == bad  # never rewritten
    with Reader(ProjectPaths(tmp_path.resolve())) as reader:
        assert reader.languages() == {"php": 1}  # the last complete index still answers
        assert [n.name for n in reader.nodes_named("helper")] == ["helper"]
