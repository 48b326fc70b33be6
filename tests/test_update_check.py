"""The update notice against a loopback package index (issue 14): a background check at most every 6 h,
honouring PIP_INDEX_URL and pip's config file; one line on the next answer, once per version; silent when
the index fails; CODEGRAPH_NO_UPDATE_CHECK=1 turns it off."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from codegraph import __version__, update_check
from tests.conftest import copy_fixture

NOTICE = "codegraph 9.9.0 is available: pipx upgrade codegraph"


class Index:
    """A loopback simple index: /simple/codegraph/ answers PEP 691 JSON (or HTML, or 500)."""

    def __init__(self, mode: str = "json"):
        self.mode = mode
        self.requests: list[str] = []
        index = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                index.requests.append(self.path)
                if index.mode == "fail" or self.path.rstrip("/") != "/simple/codegraph":
                    self.send_error(500 if index.mode == "fail" else 404)
                    return
                if index.mode == "html":
                    body = (
                        b"<html><body><a href='x'>codegraph-0.1.0.tar.gz</a>"
                        b"<a href='y'>codegraph-9.9.0-py3-none-any.whl</a>"
                        b"<a href='z'>codegraph-10.0.0rc1.tar.gz</a></body></html>"
                    )
                    kind = "text/html"
                else:
                    body = json.dumps(
                        {"name": "codegraph", "versions": ["0.1.0", "9.9.0", "10.0.0.dev1"], "files": []}
                    ).encode()
                    kind = "application/vnd.pypi.simple.v1+json"
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/simple"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def index():
    made = []

    def make(mode="json"):
        made.append(Index(mode))
        return made[-1]

    yield make
    for i in made:
        i.close()


@pytest.fixture
def project(tmp_path):
    root = copy_fixture("python", tmp_path)
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_STATE_HOME": str(tmp_path / "state")}
    env.pop("CODEGRAPH_NO_UPDATE_CHECK")
    env.pop("PIP_CONFIG_FILE", None)
    proc = subprocess.run([sys.executable, "-m", "codegraph", "init", str(root), "--json"], env={
        **env, "CODEGRAPH_NO_UPDATE_CHECK": "1"}, capture_output=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0
    return root, env, tmp_path / "state" / "codegraph" / "update-check.json"


def cg(env: dict, root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, cwd=root, env=env,
        timeout=120,
    )  # fmt: skip


def wait_for(predicate, timeout=20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_a_newer_release_is_announced_once_on_the_next_answer_and_checked_at_most_every_6_hours(
    project, index
):
    root, env, state = project
    server = index()
    env["PIP_INDEX_URL"] = server.url
    first = cg(env, root, "status")
    assert first.returncode == 0 and "is available" not in first.stderr  # the check runs in the background
    assert wait_for(lambda: state.is_file() and json.loads(state.read_text()).get("latest") == "9.9.0")
    assert server.requests == ["/simple/codegraph/"]
    second = cg(env, root, "files")
    assert second.stderr.strip().splitlines()[-1] == NOTICE
    assert NOTICE not in second.stdout  # stdout stays the answer
    third = cg(env, root, "files")
    assert NOTICE not in third.stderr  # once per version
    time.sleep(0.5)
    assert server.requests == ["/simple/codegraph/"]  # no second check within 6 hours
    assert json.loads(state.read_text())["notified"] == ["9.9.0"]


def test_json_output_never_carries_the_notice(project, index):
    root, env, state = project
    state.parent.mkdir(parents=True)
    state.write_text(json.dumps({"checked": time.time(), "latest": "9.9.0", "notified": []}))
    proc = cg(env, root, "status", "--json")
    assert NOTICE not in proc.stdout + proc.stderr
    json.loads(proc.stdout)


def test_the_index_in_pip_config_is_used_and_html_pages_are_read(project, index, tmp_path):
    root, env, state = project
    server = index("html")
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\nindex-url = {server.url}\n")
    env.pop("PIP_INDEX_URL", None)
    env["PIP_CONFIG_FILE"] = str(conf)
    cg(env, root, "status")
    assert wait_for(lambda: state.is_file() and json.loads(state.read_text()).get("latest") == "9.9.0")
    assert server.requests == ["/simple/codegraph/"]  # 10.0.0rc1 is a pre-release: not offered


def test_a_failing_index_is_silent(project, index):
    root, env, state = project
    server = index("fail")
    env["PIP_INDEX_URL"] = server.url
    first = cg(env, root, "status")
    assert wait_for(lambda: server.requests)
    time.sleep(0.5)
    again = cg(env, root, "status")
    assert first.returncode == again.returncode == 0
    assert "available" not in first.stderr + again.stderr and "Traceback" not in first.stderr + again.stderr
    assert json.loads(state.read_text()).get("latest") is None


def test_no_update_check_turns_it_off(project, index):
    root, env, state = project
    server = index()
    env["PIP_INDEX_URL"] = server.url
    env["CODEGRAPH_NO_UPDATE_CHECK"] = "1"
    cg(env, root, "status")
    time.sleep(1.0)
    assert server.requests == [] and not state.exists()


def test_mcp_answers_get_the_line_once(project, monkeypatch):
    from codegraph.mcp.dispatch import call_tool

    root, env, state = project
    monkeypatch.delenv("CODEGRAPH_NO_UPDATE_CHECK")
    monkeypatch.setenv("XDG_STATE_HOME", env["XDG_STATE_HOME"])
    state.parent.mkdir(parents=True)
    state.write_text(json.dumps({"checked": time.time(), "latest": "9.9.0", "notified": []}))
    args = {"query": "filter", "projectPath": str(root)}
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    first = call_tool("codegraph_search", args, default_root=None)["content"][0]["text"]
    assert first.endswith("\n\n" + NOTICE)
    second = call_tool("codegraph_search", args, default_root=None)["content"][0]["text"]
    assert NOTICE not in second


def test_versions_compare_as_releases():
    assert update_check.newer("9.9.0", "0.1.0") and not update_check.newer("0.1.0", "0.1.0")
    assert update_check.newer("0.10.0", "0.9.1") and not update_check.newer("1.0.0rc1", "0.1.0")
    assert not update_check.newer(__version__)
