"""Bad input found by adversarial testing: each gets a clear error or is handled, and loses nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from codegraph.config import load_config
from codegraph.errors import ConfigUnparsable
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query import explore
from codegraph.query.relations import callers
from codegraph.query.status import status
from codegraph.render import render
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture, git


def cg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, timeout=120
    )


def test_a_fifo_swapped_in_for_an_indexed_file_does_not_hang_queries(tmp_path):
    root = copy_fixture("python", tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    target = root / "shop" / "db" / "deletion.py"
    target.unlink()
    os.mkfifo(target)
    done: dict = {}

    def run() -> None:
        with Reader(root) as reader:
            done["status"] = status(reader)
            done["callers"] = callers(reader, "Collector.add")
            done["explore"] = render(explore.explore(reader, "Collector.add"))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    assert not worker.is_alive(), "a query blocked on the FIFO"
    assert done["status"].deleted == ["shop/db/deletion.py"]  # no longer a regular file: not a source file
    assert index_project(ProjectPaths(root.resolve()), workers=1).removed == 1


def test_codegraph_path_taken_by_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "a.py").write_text("def a():\n    pass\n")
    (tmp_path / ".codegraph").write_text("not a folder")
    proc = cg("init", str(tmp_path))
    assert proc.returncode == 7 and "is not a directory" in proc.stderr and "Traceback" not in proc.stderr
    assert (tmp_path / ".codegraph").read_text() == "not a folder"


def test_a_truncated_index_is_named_and_rebuilt_by_sync_and_index_keeping_the_old_file(tmp_path):
    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    db = root / ".codegraph" / "codegraph.db"
    for extra in ("-wal", "-shm"):
        Path(str(db) + extra).unlink(missing_ok=True)
    for command in ("sync", "index"):
        db.write_bytes(db.read_bytes()[:3000])
        proc = cg(command, str(root))
        assert proc.returncode == 0, proc.stderr
        assert "codegraph.db was damaged (" in proc.stderr and "indexed: 11 files" in proc.stderr
    assert len(list((root / ".codegraph").glob("codegraph.db.corrupt-*[0-9]"))) == 2
    assert json.loads(cg("status", "-p", str(root), "--json").stdout)["counts"]["files"] == 11


def test_an_index_from_a_newer_schema_is_never_rebuilt_over(tmp_path):
    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    db = root / ".codegraph" / "codegraph.db"
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO schema_versions VALUES (99, 0, 'future')")
    conn.commit()
    conn.close()
    proc = cg("index", str(root))
    assert proc.returncode == 3 and "newer" in proc.stderr
    assert not list((root / ".codegraph").glob("codegraph.db.corrupt-*"))


def test_sync_after_an_interrupted_run_marks_the_index_complete_again(tmp_path):
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    import sqlite3

    conn = sqlite3.connect(paths.db)
    conn.execute("UPDATE project_metadata SET value = 'indexing' WHERE key = 'index_state'")
    conn.commit()
    conn.close()
    assert index_project(paths, workers=1).changed is False
    with Reader(root) as reader:
        assert reader.metadata()["index_state"] == "complete"


def test_status_is_fresh_when_only_skipped_binary_or_minified_files_exist(tmp_path):
    (tmp_path / "a.py").write_text("def a():\n    pass\n")
    (tmp_path / "blob.py").write_bytes(b"\x00" * 100)
    (tmp_path / "deep.py").write_text("def f():\n" + "".join(" " * 900 + "x = 1\n" for _ in range(20)))
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        result = status(reader)
        assert result.added == [] and result.modified == []
        assert "deep.py" in reader.indexed_paths()  # deep indentation is not minification


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"exclude": ["\\\\"]}', "bad 'exclude' pattern"),
    ],
)
def test_config_files_that_cannot_be_used_are_refused_by_name(tmp_path, content, fragment):
    (tmp_path / "codegraph.json").write_bytes(content)
    with pytest.raises(ConfigUnparsable) as info:
        load_config(tmp_path)
    assert fragment in str(info.value)


def test_project_vocabulary_applies_to_english_words(tmp_path):
    root = copy_fixture("python", tmp_path)
    (root / "codegraph.json").write_text('{"vocabulary": {"zork": ["build_filter"]}}')
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as reader:
        result = explore.context(reader, "fix the zork", extra_vocab=load_config(root).vocabulary)
    assert result.symbols[0][0].name == "build_filter"


def test_bad_tool_argument_types_get_a_clear_error_not_an_internal_one(tmp_path, monkeypatch):
    from codegraph.mcp.dispatch import call_tool

    root = copy_fixture("python", tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    overflow = call_tool("codegraph_callers", {"symbol": "add", "limit": 1e999}, default_root=root)
    assert overflow["isError"] and "'limit' must be an integer" in overflow["content"][0]["text"]
    as_text = call_tool(
        "codegraph_node", {"file": "shop/views.py", "symbolsOnly": "false"}, default_root=root
    )
    assert "def render_rows" in as_text["content"][0]["text"]  # "false" is false: the source is shown


def test_a_project_in_unsupported_languages_says_so_instead_of_looking_empty(tmp_path):
    """Issue 9: a repo of .lua/.pl files indexed as "up to date: 0 files … skipped: none" (Lua and Perl have
    modules now: Nim and Crystal stand in for them)."""
    import json
    import subprocess
    import sys

    (tmp_path / "a.nim").write_text("let x = 1\n")
    (tmp_path / "b.cr").write_text("x = 1\n")
    run = [sys.executable, "-m", "codegraph"]
    init = subprocess.run([*run, "init", str(tmp_path)], capture_output=True, text=True, check=True)
    assert "indexed: 0 files" in init.stderr and "2 files (language not supported yet" in init.stderr
    status = subprocess.run(
        [*run, "status", "--path", str(tmp_path), "--json"], capture_output=True, text=True
    )
    assert json.loads(status.stdout)["skipped"] == {
        "language not supported yet": {"count": 2, "example": "a.nim"}
    }
    explore = subprocess.run(
        [*run, "explore", "how does x work", "--path", str(tmp_path)], capture_output=True, text=True
    )
    assert "languages codegraph does not support yet (Crystal 1, Nim 1)" in explore.stdout


@pytest.mark.parametrize("in_git", [False, True])
def test_a_file_name_that_is_not_utf8_is_skipped_by_name_not_a_traceback(tmp_path, in_git):
    (tmp_path / "good.py").write_text("def good():\n    pass\n")
    with open(os.path.join(os.fsencode(tmp_path), b"bad\xffname.py"), "wb") as fh:
        fh.write(b"def bad():\n    pass\n")
    if in_git:
        git(tmp_path, "init", "-q")
    init = cg("init", str(tmp_path))
    assert init.returncode == 0 and "Traceback" not in init.stderr, init.stderr
    skipped = json.loads(cg("status", "--path", str(tmp_path), "--json").stdout)["skipped"]
    assert skipped["file name is not valid UTF-8"] == {"count": 1, "example": "bad\\xffname.py"}
    with Reader(tmp_path) as reader:
        assert list(reader.indexed_paths()) == ["good.py"]


@pytest.mark.parametrize(
    "name, open_, close", [("Deep.java", "class C{} {{", "}"), ("deep.kt", "class C{} {{", "}")]
)
def test_classes_nested_two_thousand_deep_are_indexed(tmp_path, name, open_, close):
    depth = 2000
    body = "".join(open_.format(i) + "\n" for i in range(depth)) + (close + "\n") * depth
    (tmp_path / name).write_text(body)
    summary = index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    assert summary.files == 1
    with Reader(tmp_path) as reader:
        assert reader.conn.execute("SELECT count(*) FROM nodes WHERE kind = 'class'").fetchone()[0] == depth


def test_zig_containers_nested_two_thousand_deep_extract_in_bounded_memory(tmp_path):
    """Each anonymous field walked the whole field below it for an enum member's name: 2,000 nested
    ``struct {`` (22 KB) took 1.8 GB. Run under a 1 GB address-space limit."""
    depth = 2000
    source = tmp_path / "deep.zig"
    source.write_text(
        "const S = " + "struct {\n" * depth + "fn z() void {}\n" + "};\n" + "}\n" * (depth - 1) + ";\n"
    )
    (tmp_path / "colour.zig").write_text("const E = enum { red, green = 2 };\n")
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from codegraph.index.indexer import index_project\n"
        "from codegraph.paths import ProjectPaths\n"
        "from pathlib import Path\n"
        "print(index_project(ProjectPaths(Path(sys.argv[1])), workers=1).files)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path.resolve())], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "2", proc.stderr[-2000:]
    with Reader(tmp_path) as reader:
        members = reader.conn.execute("SELECT name FROM nodes WHERE kind = 'enum_member' ORDER BY name")
        assert [r[0] for r in members] == ["green", "red"]


def test_lua_tables_nested_two_thousand_deep_are_indexed(tmp_path):
    depth = 2000
    (tmp_path / "data.lua").write_text(
        "M = " + "".join(f"{{ k{i} =\n" for i in range(depth)) + "1" + "}\n" * depth
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        names = {r[0] for r in reader.conn.execute("SELECT name FROM nodes WHERE kind = 'module'")}
    assert {"M", "k0", f"k{depth - 2}"} <= names


def test_a_file_nested_past_the_extractors_reach_is_skipped_by_name_and_the_rest_indexed(tmp_path):
    """3,000 chained calls, one a line, raised RecursionError in 11 languages' extractors and ended the
    whole run with a traceback."""
    chain = "\n.".join(f"a{i}" for i in range(3000))
    (tmp_path / "deep.rs").write_text(f"fn f(x: T) {{\n    x.{chain}();\n}}\n")
    (tmp_path / "Deep.java").write_text(f"class D {{ void f(T x) {{\n x.{chain}();\n}} }}\n")
    (tmp_path / "ok.rs").write_text("fn g() {}\nfn h() { g(); }\n")
    init = cg("init", str(tmp_path))
    assert init.returncode == 0 and "Traceback" not in init.stderr, init.stderr[-2000:]
    skipped = json.loads(cg("status", "--path", str(tmp_path), "--json").stdout)["skipped"]
    assert skipped["nested too deeply to extract"]["count"] == 2
    callers_of_g = cg("callers", "g", "--path", str(tmp_path))
    assert "h (function)" in callers_of_g.stdout


@pytest.mark.parametrize(
    "name, source",
    [
        ("m.erl", "-module(m).\nf(X) -> " + "g(\n" * 2000 + "X" + ")\n" * 2000 + ".\n"),
        ("m.ex", "defmodule M do\n  def f(x), do: x |> " + " |>\n".join(["g()"] * 2000) + "\nend\n"),
    ],
)
def test_calls_nested_two_thousand_deep_index_in_seconds(tmp_path, name, source):
    """Each call's walk up to its enclosing form asked tree-sitter for parent after parent (each a
    descent from the root): cubic, about 7 minutes for these files; now a few seconds."""
    (tmp_path / name).write_text(source)
    init = subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert init.returncode == 0 and "indexed: 1 file" in init.stderr, init.stderr[-2000:]


def _without_root_powers(*args: str) -> list[str]:
    """``codegraph ARGS`` run so that file permissions apply: as root, without the capabilities that
    read past them (root reads a chmod 0 folder anyway)."""
    command = [sys.executable, "-m", "codegraph", *args]
    if os.geteuid() != 0:
        return command
    import shutil

    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permissions cannot be made to apply")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", *command]


def test_a_folder_that_cannot_be_listed_is_named_among_the_skips_outside_git(tmp_path):
    (tmp_path / "a.py").write_text("from locked.b import b\n\ndef a():\n    b()\n")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.py").write_text("def b():\n    pass\n")
    locked.chmod(0)
    try:
        init = subprocess.run(_without_root_powers("init", str(tmp_path)), capture_output=True, text=True)
        assert init.returncode == 0, init.stderr
        status = subprocess.run(
            _without_root_powers("status", "--path", str(tmp_path), "--json"), capture_output=True, text=True
        )
    finally:
        locked.chmod(0o755)
    assert json.loads(status.stdout)["skipped"] == {
        "unreadable": {"count": 1, "example": "locked/", "folders": 1}
    }


def test_an_index_this_user_may_not_read_is_refused_by_name_never_moved_aside(tmp_path):
    """SQLite says "unable to open database file" for a permission error: read as damage, a query moved
    the index aside as ``codegraph.db.corrupt-…`` and rebuilt it."""
    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    db = root / ".codegraph" / "codegraph.db"
    before = db.read_bytes()
    db.chmod(0)
    try:
        for args in (
            ("status", "--path", str(root)),
            ("callers", "add", "--path", str(root)),
            ("sync", str(root)),
        ):
            proc = subprocess.run(_without_root_powers(*args), capture_output=True, text=True)
            assert proc.returncode == 3, (args, proc.stderr)
            assert (
                proc.stderr.strip()
                == f"codegraph: cannot read the index {db}: Permission denied (codegraph.db)"
            )
    finally:
        db.chmod(0o644)
    assert not list(db.parent.glob("codegraph.db.corrupt-*"))
    assert db.read_bytes() == before


def test_a_project_whose_folder_name_is_not_utf8_answers_queries(tmp_path):
    """The index's path went into SQLite's file: URI through quote(str), which raised on the surrogates
    that stand for such bytes: init worked, then every query ended in a traceback."""
    root = os.path.join(os.fsencode(tmp_path), b"proj\xff")
    os.mkdir(root)
    with open(os.path.join(root, b"a.py"), "wb") as fh:
        fh.write(b"def a():\n    b()\n\ndef b():\n    pass\n")
    run = [sys.executable, "-m", "codegraph"]
    assert subprocess.run([*run, "init", root], capture_output=True).returncode == 0
    callers_of_b = subprocess.run([*run, "callers", "b"], cwd=root, capture_output=True, text=True)
    assert callers_of_b.returncode == 0 and "a (function)" in callers_of_b.stdout, callers_of_b.stderr


def test_a_symbol_argument_that_is_not_utf8_is_a_clear_error_and_stdin_paths_are_bytes(tmp_path):
    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    run = [sys.executable, "-m", "codegraph"]
    for args in ((b"callers", b"x\xff"), (b"callers", b"x\xff", b"--json")):
        proc = subprocess.run([*run, *args], cwd=root, capture_output=True, text=True)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert (
            proc.stderr.strip()
            == r"codegraph: 'x\xff' is not valid UTF-8 text, so no name in the index matches it"
        )
    assert json.loads(proc.stdout)["error"] == "InputNotText"
    piped = subprocess.run(
        [*run, "affected", "--stdin", "--json"],
        cwd=root,
        input=b"shop/views.py\nbad\xffname.py\n",
        capture_output=True,
    )
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["not_indexed"] == ["bad\\xffname.py"]


@pytest.mark.parametrize("name", ["codegraph.json", ".gitignore"])
def test_a_fifo_named_like_a_rules_file_does_not_hang_init(tmp_path, name):
    (tmp_path / "a.py").write_text("def a():\n    pass\n")
    os.mkfifo(tmp_path / name)
    init = subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    if name == "codegraph.json":  # refused by name, as an unreadable one is
        assert init.returncode == 6, init.stderr
        assert init.stderr.strip() == f"codegraph: {tmp_path / name}: cannot be read (not a regular file)"
    else:  # rules that cannot be read are no rules: the walk goes on
        assert init.returncode == 0 and "indexed: 1 file" in init.stderr, init.stderr


def test_an_empty_question_task_or_query_is_a_usage_error_not_an_empty_answer(tmp_path, monkeypatch):
    # `explore ""` answered "No symbol in the index matches" with exit 0, as if the index were at fault
    from codegraph.mcp.dispatch import call_tool

    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    for args in (
        ("explore", ""),
        ("explore", "   "),
        ("context", " "),
        ("search", ""),
        ("search", "", "--json"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "codegraph", *args], cwd=root, capture_output=True, text=True
        )
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, (args, proc.stderr)
        assert "is empty" in proc.stderr
    assert json.loads(proc.stdout)["error"] == "InputEmpty"
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    answer = call_tool("codegraph_explore", {"query": " "}, default_root=root)
    assert answer["isError"] and "question is empty" in answer["content"][0]["text"]


def test_a_fifo_gitignore_inside_git_does_not_block_discovery(tmp_path):
    # git opens every .gitignore it meets, blocking on a FIFO: `git ls-files` held init for its 60 s timeout
    import time

    (tmp_path / "a.py").write_text("def a():\n    pass\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("def b():\n    pass\n")
    git(tmp_path, "init", "-q")
    os.mkfifo(tmp_path / "sub" / ".gitignore")
    started = time.monotonic()
    init = subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(tmp_path)], capture_output=True, text=True, timeout=90
    )
    took = time.monotonic() - started
    assert init.returncode == 0 and "indexed: 2 files" in init.stderr, init.stderr
    assert took < 30, f"init took {took:.1f} s: git's listing blocked on the FIFO .gitignore"
    shown = subprocess.run(
        [sys.executable, "-m", "codegraph", "status", "--json"], cwd=tmp_path, capture_output=True, text=True
    )
    assert shown.returncode == 0 and "not a regular file" in shown.stdout, shown.stdout
