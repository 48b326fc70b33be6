"""The ``codegraph`` command: a thin click layer. Each command module parses, calls a library
function and renders its typed result (text or ``--json``)."""

from __future__ import annotations

import sys

import click

from codegraph import __version__
from codegraph.errors import CodegraphError


class _Group(click.Group):
    """Maps CodegraphError to a one-line message on stderr and the error's exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except CodegraphError as exc:
            click.echo(f"codegraph: {exc}", err=True)
            sys.exit(exc.exit_code)


@click.group(cls=_Group)
@click.version_option(__version__, prog_name="codegraph")
def cli() -> None:
    """A local code knowledge graph for coding agents."""


def _register() -> None:
    # One line per command module; each module exposes COMMANDS (a list of click commands).
    from codegraph.cli import index_cmds, install_cmds, query_cmds, serve_cmds

    for module in (index_cmds, query_cmds, serve_cmds, install_cmds):
        for command in module.COMMANDS:
            cli.add_command(command)


def main() -> None:
    if sys.argv[1:2] == ["serve"]:
        # The agent's MCP handshake must not wait for the other command modules (issue 4).
        from codegraph.mcp.proxy import fast_entry

        fast_entry(sys.argv[2:])
    _register()
    cli()


if __name__ == "__main__":
    main()
