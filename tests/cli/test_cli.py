"""The real `codegraph` command in subprocesses: exit codes, messages, --json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import copy_fixture


def cg(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_init_prints_a_summary_and_queries_answer_from_the_index(tmp_path):
    root = copy_fixture("python", tmp_path)
    proc = cg("init", str(root))
    assert proc.returncode == 0, proc.stderr
    assert (
        "11 files" in proc.stderr
        and "unresolved references" in proc.stderr
        and "skipped: none" in proc.stderr
    )
    out = cg("callers", "Query.add_q", "--path", str(root))
    assert out.returncode == 0
    assert "QuerySet::filter (method)  shop/db/query.py:10" in out.stdout
    data = json.loads(cg("callees", "add_q", "-p", str(root), "--json").stdout)
    assert {s["node"]["qualified_name"] for s in data["groups"][0]["sites"]} == {
        "Query::build_filter",
        "Node::add",
    }


def test_every_query_command_has_json_output(tmp_path):
    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    for args in (
        ["status"],
        ["search", "QuerySet"],
        ["query", "filter"],
        ["callers", "filter"],
        ["callees", "filter"],
        ["impact", "WhereNode"],
        ["node", "Query"],
        ["files"],
        ["explore", "how does QuerySet.filter add a where clause"],
        ["trace", "QuerySet.get", "Node.add"],
        ["context", "筛选 查询"],
    ):
        proc = cg(*args, "--path", str(root), "--json")
        assert proc.returncode == 0, (args, proc.stderr)
        assert isinstance(json.loads(proc.stdout), dict), args


def test_unknown_symbol_exits_non_zero_and_suggests_close_names(tmp_path):
    root = copy_fixture("python", tmp_path)
    cg("init", str(root))
    proc = cg("callers", "QuerySet.fliter", "--path", str(root))
    assert proc.returncode == 4
    assert "No symbol named 'QuerySet.fliter'" in proc.stderr and "filter" in proc.stderr
    assert proc.stdout == ""


def test_query_without_an_index_says_how_to_build_one(tmp_path):
    proc = cg("status", "--path", str(tmp_path))
    assert proc.returncode == 3
    assert "codegraph init" in proc.stderr


def test_sync_needs_an_existing_index_and_init_refuses_home(tmp_path):
    assert cg("sync", str(tmp_path)).returncode == 3
    home = tmp_path / "home"
    home.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(home)],
        capture_output=True,
        text=True,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert proc.returncode == 2 and "--force" in proc.stderr
    assert not (home / ".codegraph").exists()


def test_status_reports_added_modified_and_deleted_files(tmp_path):
    root = copy_fixture("python", tmp_path)
    cg("init", str(root))
    (root / "shop" / "new.py").write_text("def n():\n    pass\n")
    (root / "shop" / "views.py").write_text("def changed():\n    pass\n")
    (root / "shop" / "db" / "deletion.py").unlink()
    data = json.loads(cg("status", "-p", str(root), "--json").stdout)
    assert (data["added"], data["modified"], data["deleted"]) == (
        ["shop/new.py"],
        ["shop/views.py"],
        ["shop/db/deletion.py"],
    )
    assert "run `codegraph sync`" in cg("status", "-p", str(root)).stdout


def test_every_command_module_command_is_reachable_by_name():
    import importlib

    from codegraph.cli.main import COMMAND_MODULES, cli

    defined = {}
    for module in set(COMMAND_MODULES.values()):
        for command in importlib.import_module(f"codegraph.cli.{module}").COMMANDS:
            defined[command.name] = module
    assert defined == COMMAND_MODULES
    assert all(cli.get_command(None, name) is not None for name in COMMAND_MODULES)


def test_in_the_home_directory_the_advice_is_a_command_that_works(tmp_path, monkeypatch):
    """issue 9: the CLI and the MCP answer told the user to run `codegraph init $HOME`, which init
    refuses; the advice now names the project folder or --force, and --force does work."""
    import os

    from codegraph.mcp.dispatch import call_tool

    home = (tmp_path / "home").resolve()
    home.mkdir()
    (home / "notes.py").write_text("def f():\n    return 1\n")
    env = {**os.environ, "HOME": str(home)}
    run = lambda *args: subprocess.run(  # noqa: E731 - a local shorthand
        [sys.executable, "-m", "codegraph", *args],
        capture_output=True,
        text=True,
        cwd=home,
        env=env,
        timeout=120,
    )
    refused = run("init", str(home))
    assert refused.returncode != 0 and "--force" in refused.stderr
    status = run("status")
    advice = status.stderr.strip().splitlines()[-1]
    assert f"`codegraph init {home}`" not in advice, advice
    assert "your home directory" in advice and f"`codegraph init {home} --force`" in advice, advice
    monkeypatch.setenv("HOME", str(home))
    text = call_tool("codegraph_explore", {"query": "f"}, default_root=home)["content"][0]["text"]
    assert "home directory" in text and "run `codegraph init` there" not in text, text
    assert run("init", str(home), "--force").returncode == 0  # the advice works


def test_min_confidence_nan_is_refused_not_an_empty_answer(tmp_path):
    # adversarial pass 2026-12-01: `--min-confidence nan` passed FloatRange(0, 1) and dropped every edge.
    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    for command in ("callers", "callees", "impact"):
        proc = cg(command, "Query.add_q", "--min-confidence", "nan", "-p", str(root))
        assert proc.returncode == 2 and "'nan' is not a number from 0 to 1" in proc.stderr, proc
        assert "Traceback" not in proc.stderr
    ok = cg("callers", "Query.add_q", "--min-confidence", "0.5", "-p", str(root))
    assert ok.returncode == 0 and "QuerySet::filter" in ok.stdout


def test_a_broken_manifest_is_one_warning_line_at_every_index_run_and_a_json_field(tmp_path):
    (tmp_path / "src/lib").mkdir(parents=True)
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {"paths": {"@lib/*": ["src/lib/*"]')  # cut
    (tmp_path / "package.json").write_bytes(b"\xff\xfe\x00binary")
    (tmp_path / "src/lib/u.ts").write_text("export function u() { return 1; }\n")
    (tmp_path / "src/main.ts").write_text("import { u } from '@lib/u';\nexport function main() { u(); }\n")
    runs = {
        "init": cg("init", str(tmp_path)),
        "sync (nothing changed)": cg("sync", str(tmp_path)),
        "index": cg("index", str(tmp_path)),
    }
    (tmp_path / "src/main.ts").write_text(
        "import { u } from '@lib/u';\nexport function main() { u(); u(); }\n"
    )
    runs["sync (an edit)"] = cg("sync", str(tmp_path))
    for run, proc in runs.items():
        assert proc.returncode == 0, (run, proc.stderr)
        warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning:")]
        assert len(warnings) == 2, (run, proc.stderr)
        assert warnings[0].startswith("warning: package.json not read (unreadable"), run
        assert warnings[1].startswith("warning: tsconfig.json not read (not parseable"), run
    # nothing lost: the broken files are left byte for byte, and the index still answers
    assert (tmp_path / "tsconfig.json").read_text().endswith('["src/lib/*"]')
    assert (tmp_path / "package.json").read_bytes() == b"\xff\xfe\x00binary"
    assert cg("search", "main", "-p", str(tmp_path)).returncode == 0
    as_json = cg("sync", "--json", str(tmp_path))
    assert as_json.returncode == 0
    summary = json.loads(as_json.stdout)  # stdout is the summary alone
    assert sorted(summary["manifest_problems"]) == ["package.json", "tsconfig.json"]
    assert as_json.stderr.count("warning: ") == 2
    # mended, the warning goes away
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {"paths": {"@lib/*": ["src/lib/*"]}}}')
    (tmp_path / "package.json").write_text("{}")
    mended = cg("sync", str(tmp_path))
    assert mended.returncode == 0 and "warning" not in mended.stderr
    callers = cg("callers", "u", "-p", str(tmp_path))  # the paths apply again
    assert callers.returncode == 0 and "main" in callers.stdout, callers


def test_control_characters_typed_into_a_query_are_echoed_escaped_not_sent_to_the_terminal(tmp_path):
    # before, a question or a name holding ESC or BEL was printed back as typed: a terminal escape
    # (here: red) reached the terminal and the agent's context
    root = copy_fixture("python", tmp_path)
    cg("init", str(root))
    explore = cg("explore", "filter\x1b[31m red\x07 query", "--path", str(root))
    node = cg("node", "Query\x07add_q", "--path", str(root))
    search = cg("search", "Xyzzy\x1bjjj", "--path", str(root))
    trace = cg("trace", "a\x07", "b\x1b", "--path", str(root))
    files = cg("files", "nothing\x1b[2J", "--path", str(root))
    assert explore.returncode == 0 and explore.stdout.startswith(
        "codegraph explore: filter\\033[31m red\\a query\n"
    )
    assert node.returncode == 4 and "No symbol named 'Query\\aadd_q'" in node.stderr
    assert "No symbol matches 'Xyzzy\\033jjj'." in search.stdout
    assert "No symbol named 'a\\a'" in trace.stderr
    assert "No indexed file matches 'nothing\\033[2J'." in files.stdout
    for proc in (explore, node, search, trace, files):
        assert not any(c in proc.stdout + proc.stderr for c in "\x1b\x07"), proc.args
