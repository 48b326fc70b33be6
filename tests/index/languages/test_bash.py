"""Bash over fixtures/repos/bash (a build script sourcing lib/ helpers) through the real indexer.
Every expected edge below was read from the fixture's source, not from the tool's output."""

from __future__ import annotations

import pytest

from codegraph.index.languages import is_test_path
from codegraph.mcp.dispatch import call_tool
from tests.index.languages.cfamily_helpers import index_fixture


@pytest.fixture(scope="module")
def sh(tmp_path_factory):
    return index_fixture("bash", tmp_path_factory.mktemp("bash"))


def targets(g, file, line):
    return {(h.ref, h.target, h.target_file) for h in g.calls_at(file, line)}


def test_source_and_dot_import_files_relative_to_the_sourcing_file(sh):
    imports = {(h.source_file, h.target_file) for h in sh.edges("imports")}
    assert ("build.sh", "lib/log.sh") in imports  # source ./lib/log.sh
    assert ("build.sh", "lib/fs.sh") in imports  # . "$(dirname "$0")/lib/fs.sh"
    assert ("lib/fs.sh", "lib/log.sh") in imports  # source "${BASH_SOURCE%/*}/log.sh"
    assert ("scripts/clean.sh", "lib/log.sh") in imports  # . ../lib/log.sh


def test_a_command_calls_a_function_of_a_sourced_file(sh):
    assert targets(sh, "build.sh", 9) == {("ensure_dir", "ensure_dir", "lib/fs.sh")}
    assert targets(sh, "lib/fs.sh", 5) == {("log_error", "log_error", "lib/log.sh")}


def test_a_command_calls_a_function_of_the_same_file_defined_either_way(sh):
    assert targets(sh, "build.sh", 25) == {("package", "package", "build.sh")}  # function package {
    assert targets(sh, "build.sh", 29) == {("main", "main", "build.sh")}  # main "$@" at the top


def test_builtins_commands_and_unsourced_functions_never_bind(sh):
    assert targets(sh, "build.sh", 26) == set()  # echo | grep
    assert "upload_release" in sh.unresolved("build.sh", 20)  # defined nowhere
    assert "compile" in sh.unresolved("tests/test_build.sh", 5)  # build.sh is not sourced there
    assert targets(sh, "build.sh", 19) == set()  # $PACKAGER publish: a computed command


def test_functions_keep_their_doc_comment(sh):
    assert sh.nodes("log_info")[0]["docstring"] == "Print an info line to stderr."
    assert sh.nodes("compile")[0]["docstring"] == "Compile every source file into out/."


def test_shell_test_files_by_name():
    assert is_test_path("ci/test_build.sh") and is_test_path("ci/build_test.sh")
    assert not is_test_path("build.sh")


BASH_CASES = {
    "codegraph_search": ({"query": "ensure_dir"}, "lib/fs.sh"),
    "codegraph_node": ({"symbol": "log_info"}, "Print an info line to stderr."),
    "codegraph_callers": ({"symbol": "log_error"}, "ensure_dir"),
    "codegraph_callees": ({"symbol": "main"}, "compile"),
    "codegraph_impact": ({"symbol": "log_error"}, "ensure_dir"),
    "codegraph_trace": ({"from": "main", "to": "log_error"}, "ensure_dir"),
    "codegraph_files": ({"path": "lib"}, "log.sh"),
    "codegraph_status": ({}, "bash"),
    "codegraph_context": ({"task": "create the output directory"}, "ensure_dir"),
    "codegraph_explore": ({"query": "how does the build compile the sources"}, "compile"),
}


@pytest.mark.parametrize("tool", sorted(BASH_CASES))
def test_every_operation_answers_on_the_bash_fixture(sh, tool, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = BASH_CASES[tool]
    result = call_tool(tool, args, default_root=sh.root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert expected in text, text[:1500]
