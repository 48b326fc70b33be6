"""``codegraph serve --mcp`` and ``codegraph daemon start|list|stop``: thin click wrappers over
:mod:`codegraph.mcp.proxy` and :mod:`codegraph.mcp.daemon`."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click


@click.command()
@click.option("--mcp", "mcp", is_flag=True, required=True, help="Speak MCP over stdio (the only mode).")
@click.option(
    "--path",
    "path",
    type=click.Path(file_okay=False),
    default=None,
    help="Project directory (default: the working directory).",
)
def serve(mcp: bool, path: str | None) -> None:
    """Serve the code graph to an agent over MCP (stdio)."""
    from codegraph.mcp import proxy

    proxy.main(path)


def _root(path: str | None, option: str | None) -> Path:
    from codegraph.paths import find_root

    return find_root(option or path or None).root


@click.group()
def daemon() -> None:
    """Start, list or stop the shared per-project MCP daemons."""


@daemon.command("start")
@click.argument("path", required=False)
@click.option("--path", "path_opt", default=None, help="Project directory (default: the working directory).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def daemon_start(path: str | None, path_opt: str | None, as_json: bool) -> None:
    """Start the daemon for a project (no-op when one runs) and wait until it answers."""
    from codegraph.mcp import service

    info = service.start(_root(path, path_opt))
    _print([info], as_json)


def _here(path: str | None, option: str | None) -> Path:
    from codegraph.mcp import service

    return service.project_root(Path(option or path or ".").resolve())


def _others_hint(mine: list[dict], verb: str) -> None:
    from codegraph.mcp import service

    others = [r for r in service.running() if r["pid"] not in {m["pid"] for m in mine}]
    if others:
        click.echo(f"{len(others)} more for other projects: `codegraph daemon {verb} --all`")


@daemon.command("list")
@click.argument("path", required=False)
@click.option("--path", "path_opt", default=None, help="Project directory (default: the working directory).")
@click.option("--all", "list_all", is_flag=True, help="Every project's daemon.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def daemon_list(path: str | None, path_opt: str | None, list_all: bool, as_json: bool) -> None:
    """Show the current project's daemon (--all: every project's): pid, version, root, uptime."""
    from codegraph.mcp import service

    if list_all:
        _print(service.running(), as_json)
        return
    root = _here(path, path_opt)
    rows = service.running(root)
    _print(rows, as_json, empty=f"no codegraph daemon for {root}")
    if not as_json:
        _others_hint(rows, "list")


@daemon.command("stop")
@click.argument("path", required=False)
@click.option("--path", "path_opt", default=None, help="Project directory (default: the working directory).")
@click.option("--all", "stop_all", is_flag=True, help="Stop every project's daemon.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def daemon_stop(path: str | None, path_opt: str | None, stop_all: bool, as_json: bool) -> None:
    """Stop the current project's daemon (--all: every project's)."""
    from codegraph.mcp import service

    if stop_all:
        _print(service.stop(), as_json, verb="stopped", empty="no codegraph daemon to stop")
        return
    root = _here(path, path_opt)
    stopped = service.stop(root)
    _print(stopped, as_json, verb="stopped", empty=f"no codegraph daemon for {root} to stop")
    if not as_json:
        _others_hint([], "stop")


def _print(
    rows: list[dict], as_json: bool, verb: str = "", empty: str = "no codegraph daemon running"
) -> None:
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo(empty)
        return
    for r in rows:
        uptime = r.get("uptime")
        if uptime is None and r.get("started"):
            uptime = time.time() - r["started"]
        prefix = f"{verb} " if verb else ""
        click.echo(
            f"{prefix}pid {r['pid']}  version {r.get('version', '?')}  uptime {_ago(uptime)}  {r['root']}"
        )


def _ago(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(seconds)
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h{(seconds % 3600) // 60:02d}m"


COMMANDS = [serve, daemon]
