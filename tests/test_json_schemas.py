"""Every `--json` output has a documented shape: schemas/<command>.json (JSON Schema 2020-12), checked here
against the real CLI's output for each command, and errors against schemas/error.json (issue 14)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import jsonschema
import pytest

from codegraph.cli.main import COMMAND_MODULES, cli
from tests.conftest import copy_fixture, git

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
ALIASES = {"query": "search"}


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _json_commands() -> list[str]:
    ctx = click.Context(cli)
    names = []
    for name in COMMAND_MODULES:
        command = cli.get_command(ctx, name)
        subs = command.commands.values() if isinstance(command, click.Group) else [command]
        if any(p.name == "as_json" for sub in subs for p in sub.params):
            names.append(name)
    return names


def test_every_command_with_json_output_has_a_schema_and_every_schema_is_valid():
    missing = [n for n in _json_commands() if not (SCHEMAS / f"{ALIASES.get(n, n)}.json").is_file()]
    assert missing == []
    for path in SCHEMAS.glob("*.json"):
        validator(path.stem)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    base = tmp_path_factory.mktemp("schemas")
    home = base / "home"
    home.mkdir()
    root = copy_fixture("python", base).resolve()
    (root / "tests").mkdir()
    (root / "tests" / "test_views.py").write_text("from shop.views import list_products\n")
    (root / "blob.py").write_bytes(b"\x00" * 64)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "CODEX_HOME": ""}
    env["CODEGRAPH_NO_UPDATE_CHECK"] = "1"
    return root, env


def run(world, *args: str) -> subprocess.CompletedProcess:
    root, env = world
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args, "--json"],
        capture_output=True, text=True, cwd=root, env=env, timeout=120,
    )  # fmt: skip


CASES = [
    ("init", ["init", "."]),
    ("sync", ["sync"]),
    ("index", ["index"]),
    ("search", ["search", "filter"]),
    ("search", ["query", "QuerySet"]),
    ("callers", ["callers", "add_q"]),
    ("callees", ["callees", "QuerySet.filter"]),
    ("impact", ["impact", "Query.add_q"]),
    ("trace", ["trace", "QuerySet.filter", "Query.add_q"]),
    ("trace", ["trace", "Query.add_q", "QuerySet.filter"]),
    ("node", ["node", "Query.add_q"]),
    ("node", ["node", "--file", "shop/views.py", "--limit", "3"]),
    ("files", ["files"]),
    ("status", ["status"]),
    ("explore", ["explore", "how is the where clause built"]),
    ("context", ["context", "filter a query"]),
    ("affected", ["affected", "shop/db/sql/where.py"]),
    ("affected", ["affected", "--since", "HEAD"]),
    ("install", ["install", "claude", "--yes"]),
    ("install", ["install", "--all", "--yes"]),
    ("status", ["status"]),  # now with agents
    ("doctor", ["doctor", "claude", "--no-connect"]),
    ("uninstall", ["uninstall", "--yes"]),
    ("uninstall", ["uninstall", "codex", "--yes"]),
    ("daemon", ["daemon", "list"]),
    ("uninit", ["uninit", "--yes"]),
]


def test_every_json_output_matches_its_schema(world):
    # in order: init first, uninit last; each output checked against its command's schema
    for schema, args in CASES:
        proc = run(world, *args)
        assert proc.returncode in (0, 1), (args, proc.stderr)  # doctor exits 1 when a check fails
        data = json.loads(proc.stdout)
        errors = sorted(validator(schema).iter_errors(data), key=str)
        assert not errors, (args, [e.message for e in errors[:3]])


def test_json_errors_carry_their_data_and_match_the_error_schema(world):
    assert run(world, "init", ".").returncode == 0
    check = validator("error")
    cases = [
        (["node", "--file", "query.py"], 4, {"error": "FileNotIndexed"}),
        (["callers", "build_filtr"], 4, {"error": "SymbolNotFound", "name": "build_filtr"}),
        (["affected", "--since", "nope"], 2, {"error": "GitFailed"}),
        (["callers"], 2, {"error": "UsageError"}),
        (["node", "x", "--path", "/"], 3, {"error": "IndexMissing"}),
    ]
    for args, code, expected in cases:
        proc = run(world, *args)
        assert proc.returncode == code, (args, proc.stdout, proc.stderr)
        data = json.loads(proc.stdout)
        assert not list(check.iter_errors(data)), data
        assert expected.items() <= data.items(), data
        assert data["exit_code"] == code
    ambiguous = json.loads(run(world, "node", "--file", "query.py").stdout)
    assert ambiguous["candidates"] == ["shop/db/query.py", "shop/db/sql/query.py"]
    close = json.loads(run(world, "callers", "build_filtr").stdout)
    assert close["suggestions"] == ["build_filter"]
