"""The messages the handshake answers by itself (issue 4, issue 2 section MCP)."""

from __future__ import annotations

import json

import pytest

from codegraph.mcp import protocol


def _init(version):
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": version}}


def test_initialize_echoes_a_supported_client_version():
    for version in protocol.SUPPORTED_VERSIONS:
        assert protocol.answer_locally(_init(version))["result"]["protocolVersion"] == version


def test_initialize_answers_the_newest_version_when_the_client_version_is_unknown():
    answer = protocol.answer_locally(_init("1999-01-01"))["result"]
    assert answer["protocolVersion"] == protocol.LATEST_VERSION == "2025-11-25"
    assert answer["serverInfo"]["name"] == "codegraph"
    assert "tools" in answer["capabilities"]


def test_tools_list_shows_explore_alone_by_default_and_the_env_replaces_the_set():
    message = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    default = [t["name"] for t in protocol.answer_locally(message, {})["result"]["tools"]]
    assert default == ["codegraph_explore"]
    chosen = protocol.answer_locally(message, {"CODEGRAPH_MCP_TOOLS": "node,codegraph_callers"})
    assert [t["name"] for t in chosen["result"]["tools"]] == ["codegraph_node", "codegraph_callers"]


def test_every_listed_tool_carries_read_only_annotations():
    message = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    for tool in protocol.answer_locally(message, {"CODEGRAPH_MCP_TOOLS": "all"})["result"]["tools"]:
        assert tool["annotations"]["readOnlyHint"] is True
        assert tool["annotations"]["destructiveHint"] is False


@pytest.mark.parametrize(
    "method, expected",
    [
        ("ping", {}),
        ("resources/list", {"resources": []}),
        ("resources/templates/list", {"resourceTemplates": []}),
        ("prompts/list", {"prompts": []}),
    ],
)
def test_static_methods_answer_empty(method, expected):
    assert protocol.answer_locally({"jsonrpc": "2.0", "id": 7, "method": method})["result"] == expected


def test_unknown_methods_get_method_not_found():
    answer = protocol.answer_locally({"jsonrpc": "2.0", "id": 9, "method": "sampling/whatever"})
    assert answer["error"]["code"] == -32601 and answer["id"] == 9


def test_notifications_and_client_responses_get_no_answer():
    assert protocol.answer_locally({"jsonrpc": "2.0", "method": "notifications/initialized"}) is None
    cancelled = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}}
    assert protocol.answer_locally(cancelled) is None
    assert protocol.answer_locally({"jsonrpc": "2.0", "id": 4, "result": {"roots": []}}) is None


def test_tool_calls_are_not_answered_by_the_handshake():
    with pytest.raises(protocol.NotLocal):
        protocol.answer_locally({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "x"}})


def test_encoded_lines_are_single_json_lines_even_with_newlines_in_text():
    line = protocol.encode(protocol.result(1, protocol.text_result("a\nb\u2028c", is_error=False)))
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line)["result"]["content"][0]["text"] == "a\nb\u2028c"
