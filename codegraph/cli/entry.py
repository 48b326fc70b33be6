"""The console-script entry: ``codegraph serve --mcp`` starts before click or any command module is
imported (the agent's MCP handshake budget, issue 4); everything else goes to the click CLI."""

import sys


def main() -> None:
    try:
        if sys.argv[1:2] == ["serve"]:
            from codegraph.mcp.proxy import fast_entry

            fast_entry(sys.argv[2:])  # returns only when the arguments are not the MCP fast path
        from codegraph.cli.main import main as cli_main

        cli_main()
    except KeyboardInterrupt:  # Ctrl-C while starting up (imports): one line, not a traceback (issue 9)
        sys.stderr.write(("\n" if sys.stderr.isatty() else "") + "codegraph: interrupted\n")
        sys.exit(130)
