"""The MCP tool contract (issue 3), in-process through ``dispatch.call_tool`` over a real indexed fixture:
every schema parameter of every tool is accepted, documented defaults hold, every tool is read-only,
every answer is text only (no ``structuredContent``: Claude Code would hand the model that instead,
issue 9), inputs are bounded, and recoverable conditions
(disabled tool aside) come back success-shaped."""

from __future__ import annotations

import re

import pytest

from codegraph.mcp.dispatch import call_tool
from codegraph.mcp.tools import MAX_PATH, MAX_TEXT, READ_ONLY, TOOLS, TOOLS_BY_NAME

# A valid value for every parameter of every tool, and the base call it is added to (the tool's
# required arguments, or the mode the parameter belongs to). projectPath is filled in per test.
BASES: dict[str, dict] = {
    "codegraph_explore": {"query": "how does QuerySet.filter build the WHERE clause"},
    "codegraph_node": {"symbol": "Query.add_q"},
    "codegraph_search": {"query": "filter"},
    "codegraph_callers": {"symbol": "Query.build_filter"},
    "codegraph_callees": {"symbol": "QuerySet.filter"},
    "codegraph_impact": {"symbol": "Query.build_filter"},
    "codegraph_trace": {"from": "QuerySet.get", "to": "Query.build_filter"},
    "codegraph_files": {},
    "codegraph_status": {},
    "codegraph_context": {"task": "filter a query set"},
    "codegraph_affected": {"files": ["shop/db/sql/where.py"]},
}
FILE_MODE = {"file": "shop/db/sql/query.py"}
VALID: dict[str, dict[str, tuple[object, dict | None]]] = {  # param → (value, base override)
    "codegraph_explore": {"query": ("where is the WHERE clause built", None), "maxChars": (5000, None)},
    "codegraph_node": {
        "symbol": ("QuerySet.filter", {}),
        "file": ("shop/db/sql/query.py", None),
        "line": (12, {"symbol": "Query.add_q", "file": "shop/db/sql/query.py"}),
        "offset": (5, FILE_MODE),
        "limit": (10, FILE_MODE),
        "symbolsOnly": (True, FILE_MODE),
    },
    "codegraph_search": {"query": ("build_filter", None), "kind": ("method", None), "limit": (5, None)},
    "codegraph_callers": {
        "symbol": ("add", None),
        "file": ("shop/utils/tree.py", None),
        "limit": (5, None),
        "minConfidence": (0.9, None),
    },
    "codegraph_callees": {
        "symbol": ("Query.add_q", None),
        "file": ("shop/db/sql/query.py", None),
        "limit": (5, None),
        "minConfidence": (0.5, None),
    },
    "codegraph_impact": {
        "symbol": ("Query.add_q", None),
        "file": ("shop/db/sql/query.py", None),
        "depth": (2, None),
        "minConfidence": (0.9, None),
    },
    "codegraph_trace": {
        "from": ("QuerySet.filter", None),
        "to": ("Query.add_q", None),
        "maxDepth": (5, None),
    },
    "codegraph_files": {"path": ("shop/db", None), "limit": (5, None)},
    "codegraph_status": {},
    "codegraph_context": {"task": ("where is the WHERE clause built", None), "limit": (5, None)},
    "codegraph_affected": {"files": (["shop/db/query.py", "README.md"], None), "since": ("HEAD", None)},
}
TOOL_NAMES = [t["name"] for t in TOOLS]


def _params(name: str) -> dict:
    return TOOLS_BY_NAME[name]["inputSchema"]["properties"]


def _text(result: dict) -> str:
    return "\n".join(c["text"] for c in result["content"] if c["type"] == "text")


def _well_formed(result: dict) -> None:
    assert isinstance(result["isError"], bool)
    assert result["content"] and result["content"][0]["type"] == "text" and _text(result).strip()
    assert set(result) == {"content", "isError"}  # no structuredContent: no tool declares an outputSchema


@pytest.fixture
def all_tools(monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The python fixture repo, indexed once for the whole module (every call here only reads)."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from tests.conftest import copy_fixture

    root = copy_fixture("python", tmp_path_factory.mktemp("contract")).resolve()
    index_project(ProjectPaths(root), workers=1)
    return root


def test_every_tool_has_a_valid_value_for_every_schema_parameter():
    assert set(VALID) == set(TOOL_NAMES)
    for name in TOOL_NAMES:
        assert set(VALID[name]) | {"projectPath"} == set(_params(name)), name


def test_every_tool_carries_the_read_only_annotations():
    assert READ_ONLY == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }
    for tool in TOOLS:
        assert {k: tool["annotations"][k] for k in READ_ONLY} == READ_ONLY, tool["name"]


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_required_arguments_alone_give_well_formed_text(all_tools, project, name):
    result = call_tool(name, dict(BASES[name]), default_root=project)
    assert result["isError"] is False, _text(result)
    _well_formed(result)


@pytest.mark.parametrize("name, param", [(n, p) for n in TOOL_NAMES for p in [*VALID[n], "projectPath"]])
def test_every_schema_parameter_is_accepted_with_a_valid_value(all_tools, project, tmp_path, name, param):
    if param == "projectPath":
        args = {**BASES[name], "projectPath": str(project)}
        default_root = tmp_path  # not indexed: only projectPath can make the call succeed
    else:
        value, base = VALID[name][param]
        args = {**(BASES[name] if base is None else base), param: value}
        default_root = project
    result = call_tool(name, args, default_root=default_root)
    text = _text(result)
    assert "Unknown argument" not in text
    assert result["isError"] is False, text
    assert "no codegraph index" not in text
    _well_formed(result)


def test_an_argument_outside_the_schema_is_refused_by_name(all_tools, project):
    result = call_tool("codegraph_callers", {"symbol": "Query.add_q", "depthh": 2}, default_root=project)
    assert result["isError"] is True and "Unknown argument(s) for codegraph_callers: depthh." in _text(result)


def _documented_defaults() -> list[tuple[str, str, int, dict]]:
    """(tool, parameter, default, base call) for every parameter whose description says "default N"."""
    out = []
    for name in TOOL_NAMES:
        for param, spec in _params(name).items():
            m = re.search(r"\(default (\d+)", spec.get("description", ""))
            if m:
                base = VALID[name][param][1]
                out.append((name, param, int(m.group(1)), BASES[name] if base is None else base))
    return out


def test_defaults_are_documented_for_every_numeric_option():
    documented = {(n, p) for n, p, _, _ in _documented_defaults()}
    numeric = {
        (t["name"], p)
        for t in TOOLS
        for p, s in t["inputSchema"]["properties"].items()
        if s.get("type") == "integer" and p not in ("line", "offset", "maxChars")
    }
    assert numeric and documented == numeric


@pytest.mark.parametrize(
    "name, param, default, base",
    _documented_defaults(),
    ids=[f"{n}-{p}" for n, p, _, _ in _documented_defaults()],
)
def test_a_missing_optional_parameter_uses_its_documented_default(
    all_tools, project, name, param, default, base
):
    without = call_tool(name, dict(base), default_root=project)
    explicit = call_tool(name, {**base, param: default}, default_root=project)
    assert without["isError"] is False and explicit["isError"] is False
    assert _text(without) == _text(explicit)


def test_a_tool_that_is_not_enabled_gets_a_clear_message(monkeypatch, project):
    monkeypatch.delenv("CODEGRAPH_MCP_TOOLS", raising=False)
    result = call_tool("codegraph_callers", {"symbol": "Query.add_q"}, default_root=project)
    text = _text(result)
    assert "'codegraph_callers' is not enabled" in text and "CODEGRAPH_MCP_TOOLS" in text
    assert "codegraph_explore" in text  # says what is enabled
    ok = call_tool("codegraph_explore", BASES["codegraph_explore"], default_root=project)
    assert ok["isError"] is False


def _string_params() -> list[tuple[str, str]]:
    return [
        (t["name"], p)
        for t in TOOLS
        for p, s in t["inputSchema"]["properties"].items()
        if s.get("type") == "string"
    ]


@pytest.mark.parametrize("name, param", _string_params())
def test_an_over_long_string_argument_is_refused(all_tools, project, name, param):
    spec = _params(name)[param]
    is_path = param in ("file", "path", "projectPath")
    limit = MAX_PATH if is_path else MAX_TEXT
    assert spec.get("maxLength", MAX_TEXT) == limit
    base = VALID[name][param][1] if param in VALID[name] else None
    args = {**(BASES[name] if base is None else base), param: "x" * (limit + 1)}
    result = call_tool(name, args, default_root=project)
    assert result["isError"] is True
    assert f"'{param}' is {limit + 1} characters; the limit is {limit}." in _text(result)


@pytest.mark.parametrize("name, param", _string_params())
def test_a_string_argument_at_its_bound_is_not_refused_for_length(all_tools, project, name, param):
    limit = MAX_PATH if param in ("file", "path", "projectPath") else MAX_TEXT
    base = VALID[name][param][1] if param in VALID[name] else None
    args = {**(BASES[name] if base is None else base), param: "x" * limit}
    assert "characters; the limit is" not in _text(call_tool(name, args, default_root=project))


@pytest.mark.parametrize(
    "name", ["codegraph_node", "codegraph_callers", "codegraph_callees", "codegraph_impact"]
)
def test_an_unknown_symbol_gives_success_shaped_text_with_suggestions(all_tools, project, name):
    result = call_tool(name, {"symbol": "build_filtr"}, default_root=project)
    assert result["isError"] is False
    text = _text(result)
    assert "No symbol named 'build_filtr'" in text and "Did you mean: build_filter" in text


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_no_index_gives_success_shaped_text(all_tools, tmp_path, name):
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "app.py").write_text("def main():\n    return 1\n")
    result = call_tool(name, dict(BASES[name]), default_root=bare)
    assert result["isError"] is False
    assert "codegraph init" in _text(result)


def _integer_params() -> list[tuple[str, str]]:
    return [
        (t["name"], p)
        for t in TOOLS
        for p, s in t["inputSchema"]["properties"].items()
        if s.get("type") == "integer"
    ]


def test_every_integer_parameter_declares_its_range():
    for name, param in _integer_params():
        spec = _params(name)[param]
        assert isinstance(spec.get("minimum"), int) and isinstance(spec.get("maximum"), int), (name, param)


@pytest.mark.parametrize("name, param", _integer_params())
def test_an_integer_outside_its_declared_range_is_refused_with_the_range(all_tools, project, name, param):
    spec = _params(name)[param]
    value, base = VALID[name][param]
    lo, hi = spec["minimum"], spec["maximum"]
    for bad in (hi + 1, lo - 1, -5, 1e9 if hi < 1e9 else 1e10, 2.5, "deep", True):
        args = {**(BASES[name] if base is None else base), param: bad}
        result = call_tool(name, args, default_root=project)
        assert result["isError"] is True, (param, bad, _text(result)[:200])
        assert _text(result) == f"'{param}' must be an integer from {lo} to {hi}; got {bad!r}.", bad
    for good in (lo, hi):
        args = {**(BASES[name] if base is None else base), param: good}
        assert call_tool(name, args, default_root=project)["isError"] is False, (param, good)


@pytest.mark.parametrize("name", ["codegraph_callers", "codegraph_callees", "codegraph_impact"])
def test_min_confidence_outside_zero_to_one_is_refused_and_inside_is_accepted(all_tools, project, name):
    base = BASES[name]
    for bad in (1.5, -0.1, "high", True, float("inf")):
        result = call_tool(name, {**base, "minConfidence": bad}, default_root=project)
        assert result["isError"] is True, bad
        assert _text(result) == f"'minConfidence' must be a number from 0 to 1; got {bad!r}.", bad
    for good in (0, 0.5, 1):
        assert call_tool(name, {**base, "minConfidence": good}, default_root=project)["isError"] is False, (
            good
        )


# (tool, schema parameter) -> (CLI command, option): the same argument on both sides.
SAME_ARGUMENT = {
    ("codegraph_search", "limit"): ("search", "limit"),
    ("codegraph_callers", "limit"): ("callers", "limit"),
    ("codegraph_callees", "limit"): ("callees", "limit"),
    ("codegraph_impact", "depth"): ("impact", "depth"),
    ("codegraph_trace", "maxDepth"): ("trace", "max_depth"),
    ("codegraph_files", "limit"): ("files", "limit"),
    ("codegraph_context", "limit"): ("context", "limit"),
    ("codegraph_node", "limit"): ("node", "limit"),
    ("codegraph_explore", "maxChars"): ("explore", "max_chars"),
}


@pytest.mark.parametrize(("tool", "param"), sorted(SAME_ARGUMENT), ids=lambda v: str(v))
def test_cli_and_mcp_give_an_argument_the_same_default_and_range(tool, param):
    import click

    from codegraph.cli.main import cli

    command, option = SAME_ARGUMENT[(tool, param)]
    cmd = cli.get_command(click.Context(cli), command)
    opt = next(p for p in cmd.params if p.name == option)
    schema = TOOLS_BY_NAME[tool]["inputSchema"]["properties"][param]
    assert (opt.type.min, opt.type.max) == (schema["minimum"], schema["maximum"])
    said = re.search(r"\(default (\d+)\)", schema["description"])
    mcp_default = int(said.group(1)) if said else None
    given = opt.get_default(click.Context(cmd))
    cli_default = given if isinstance(given, int) else _help_default(opt.help)  # unset: said in --help
    assert cli_default == mcp_default


def _help_default(help_text: str | None) -> int | None:
    said = re.search(r"\(default (\d+)\)", help_text or "")
    return int(said.group(1)) if said else None


def test_every_numeric_schema_parameter_has_a_cli_twin():
    numeric = {
        (t["name"], p)
        for t in TOOLS
        for p, s in t["inputSchema"]["properties"].items()
        if s.get("type") == "integer" and p not in ("line", "offset")
    }
    assert numeric - set(SAME_ARGUMENT) == set()
