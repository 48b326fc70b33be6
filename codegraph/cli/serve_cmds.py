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


@daemon.command("list")
@click.argument("path", required=False)
@click.option("--path", "path_opt", default=None, help="Only the daemon of this project.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def daemon_list(path: str | None, path_opt: str | None, as_json: bool) -> None:
    """Show running daemons: pid, version, root, uptime."""
    from codegraph.mcp import service

    where = path_opt or path
    _print(service.running(Path(where).resolve() if where else None), as_json)


@daemon.command("stop")
@click.argument("path", required=False)
@click.option("--path", "path_opt", default=None, help="Only the daemon of this project.")
@click.option("--all", "stop_all", is_flag=True, help="Stop every daemon (the default without a path).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def daemon_stop(path: str | None, path_opt: str | None, stop_all: bool, as_json: bool) -> None:
    """Stop daemons (one project's, or all)."""
    from codegraph.mcp import service

    where = None if stop_all else (path_opt or path)
    stopped = service.stop(Path(where).resolve() if where else None)
    _print(stopped, as_json, verb="stopped")


def _print(rows: list[dict], as_json: bool, verb: str = "") -> None:
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo("no codegraph daemon running" if not verb else "no codegraph daemon to stop")
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
