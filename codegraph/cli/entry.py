"""The console-script entry: ``codegraph serve --mcp`` starts before click or any command module is
imported (the agent's MCP handshake budget, issue 4); everything else goes to the click CLI."""

import sys


class _ClosedStdout:
    """What ``sys.stdout`` is when the process started with descriptor 1 closed (``>&-``; Python sets
    it to None and click then drops every answer silently, status 0): a writer that fails, so the
    answer's write ends the command as a full disk does (one line, status 74)."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, text: str) -> int:
        import errno

        raise OSError(errno.EBADF, "standard output is closed: the answer could not be written")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def main() -> None:
    if sys.stdout is None:
        sys.stdout = _ClosedStdout()  # type: ignore[assignment]
    try:
        if sys.argv[1:2] == ["serve"]:
            from codegraph.mcp.proxy import fast_entry

            fast_entry(sys.argv[2:])  # returns only when the arguments are not the MCP fast path
        from codegraph.cli.main import main as cli_main

        cli_main()
    except KeyboardInterrupt:  # Ctrl-C while starting up (imports): one line, not a traceback (issue 9)
        sys.stderr.write(("\n" if sys.stderr.isatty() else "") + "codegraph: interrupted\n")
        sys.exit(130)
    except OSError as exc:  # the MCP server's streams unusable (``serve --mcp >&-``): one line, 74
        if sys.stderr is not None:
            sys.stderr.write(f"codegraph: {exc.strerror or exc}\n")
        sys.exit(74)
    except SystemExit as done:  # click ends every command so
        leave(done)
        raise


def leave(done: SystemExit) -> None:
    """End the process with ``done``'s status without the interpreter's teardown, when nothing but it is
    left to run: the exit handlers run, the standard streams are flushed, then ``os._exit``. Returns
    (and the caller exits as usual) while a thread that is not a daemon still runs, since the usual
    exit would wait for it.

    Issue 12: after a cold index the teardown freed the resolver's tables (kept by reference cycles
    till the interpreter's last collection), 0.06 s of the 1.5 s of Scala's library."""
    import atexit
    import os
    import threading

    if any(t is not threading.main_thread() and not t.daemon for t in threading.enumerate()):
        return
    code = done.code
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code & 0xFF
    else:  # sys.exit("message"): printed, status 1, as the interpreter does
        if sys.stderr is not None:
            sys.stderr.write(f"{code}\n")
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the descriptor closed (`>&-`): Python sets it to None
            continue
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone (`| head`), a stream closed: nothing to flush to
            pass
    os._exit(status)
