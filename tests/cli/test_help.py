"""Every command's --help says what it does (issue 14: tried as a new user would)."""

from __future__ import annotations

import click
from click.testing import CliRunner

from codegraph.cli.main import COMMAND_MODULES, cli


def _commands():
    ctx = click.Context(cli)
    for name in sorted(COMMAND_MODULES):
        command = cli.get_command(ctx, name)
        yield [name], command
        if isinstance(command, click.Group):
            for sub in command.commands:
                yield [name, sub], command.commands[sub]


def test_every_command_and_subcommand_has_a_help_text_that_says_what_it_does():
    seen = []
    for args, command in _commands():
        result = CliRunner().invoke(cli, [*args, "--help"])
        assert result.exit_code == 0, (args, result.output)
        assert command.help and len(command.help.split()) >= 3, args
        assert command.get_short_help_str(), args
        seen.append(" ".join(args))
    assert {"affected", "uninit", "install", "uninstall", "status"} <= set(seen)
