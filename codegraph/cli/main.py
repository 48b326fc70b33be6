"""The ``codegraph`` command: a thin click layer. Each command module parses, calls a library
function and renders its typed result (text or ``--json``)."""

from __future__ import annotations

import importlib
import json
import sys
from typing import NoReturn

import click

from codegraph import __version__
from codegraph.errors import CodegraphError, InputNotText

# command name → the module that defines it; a command's module is imported only when it runs, so
# `codegraph sync` does not pay for the query, MCP and installer layers.
COMMAND_MODULES = {
    **dict.fromkeys(("init", "index", "sync"), "index_cmds"),
    **dict.fromkeys(
        (
            "search",
            "query",
            "callers",
            "callees",
            "impact",
            "trace",
            "node",
            "files",
            "status",
            "explore",
            "context",
            "affected",
        ),
        "query_cmds",
    ),
    **dict.fromkeys(("serve", "daemon"), "serve_cmds"),
    **dict.fromkeys(("install", "uninstall", "doctor", "uninit"), "install_cmds"),
}


def error_data(exc: CodegraphError) -> dict:
    """The ``--json`` form of an error: its class name, the message, the exit code, and every public
    attribute it carries (``candidates`` of FileNotIndexed, ``suggestions`` of SymbolNotFound, ``path``
    and ``reason`` of SourceUnavailable…), so a program need not parse the sentence (issue 14)."""
    data = {"error": type(exc).__name__, "message": str(exc), "exit_code": exc.exit_code}
    for key, value in vars(exc).items():
        if key.startswith("_") or key in data:
            continue
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            value = str(value)
        data[key] = value
    return data


class _Group(click.Group):
    """Loads command modules lazily; maps CodegraphError to a one-line message on stderr and the
    error's exit code (plus a JSON error object on stdout under --json)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, name: str):
        module_name = COMMAND_MODULES.get(name)
        if module_name is None:
            return None
        module = importlib.import_module(f"codegraph.cli.{module_name}")
        return next((c for c in module.COMMANDS if c.name == name), None)

    def invoke(self, ctx: click.Context):
        try:
            try:
                result = super().invoke(ctx)
            except UnicodeEncodeError as exc:  # argv keeps bytes that are not UTF-8 as surrogates
                if exc.reason != "surrogates not allowed" or not isinstance(exc.object, str):
                    raise
                shown = exc.object.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                raise InputNotText(
                    f"'{shown[:200]}' is not valid UTF-8 text, so no name in the index matches it"
                ) from None
            _update_notice(ctx)
            return result
        except CodegraphError as exc:
            if ctx.params.get("as_json") or "--json" in sys.argv:
                _echo_or_exit(json.dumps(error_data(exc)))
            click.echo(f"codegraph: {exc}", err=True)
            sys.exit(exc.exit_code)
        except click.UsageError as exc:  # click prints the usage and exits 2; --json gets the data too
            if "--json" in sys.argv:
                _echo_or_exit(
                    json.dumps({"error": "UsageError", "message": exc.format_message(), "exit_code": 2})
                )
            raise
        except KeyboardInterrupt:  # one line and 130, as shells count it (click would say "Aborted!")
            click.echo(("\n" if sys.stderr.isatty() else "") + "codegraph: interrupted", err=True)
            sys.exit(130)
        except OSError as exc:  # permissions, read-only file systems, full disks: say which file
            _os_error_exit(exc)


def _os_error_exit(exc: OSError) -> NoReturn:
    """One line naming the failure (and its file), then status 74 (EX_IOERR)."""
    where = f" ({exc.filename})" if exc.filename else ""
    click.echo(f"codegraph: {exc.strerror or exc}{where}", err=True)
    sys.exit(74)


def _echo_or_exit(text: str) -> None:
    """``text`` on stdout; a stdout that cannot take it (a full disk) ends the command as any OSError
    does, not with two chained tracebacks (adversarial pass, stop 28)."""
    try:
        click.echo(text)
    except OSError as exc:
        _os_error_exit(exc)


def _update_notice(ctx: click.Context) -> None:
    """One line on stderr after a command's answer when a newer codegraph is out (codegraph.update_check);
    not for --json, the MCP server or the daemon commands."""
    if "--json" in sys.argv or ctx.invoked_subcommand in ("serve", "daemon"):
        return
    from codegraph.update_check import notice

    line = notice()
    if line:
        click.echo(line, err=True)


@click.group(cls=_Group)
@click.version_option(__version__, prog_name="codegraph")
def cli() -> None:
    """A local code knowledge graph for coding agents."""


def main() -> None:
    """The click CLI (``codegraph.cli.entry`` routes ``serve --mcp`` around it)."""
    try:
        cli()
    except OSError as exc:  # an answer written while the arguments are read (--version, --help)
        _os_error_exit(exc)


if __name__ == "__main__":
    main()
