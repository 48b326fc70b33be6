"""The console-script entry ends the process without the interpreter's teardown (``entry.leave``), yet
as the usual exit would: the command's status, its output flushed, the exit handlers run, and a
thread that is not a daemon waited for. Real subprocesses running ``codegraph.cli.entry.main``."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.conftest import copy_fixture


def _run(script: str, *args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


_MAIN = """
    import atexit, sys
    from pathlib import Path
    marker = Path(sys.argv[1])
    atexit.register(lambda: marker.write_text("ran"))
    sys.stdout.write("buffered, not flushed\\n")
    sys.argv = ["codegraph", *sys.argv[2:]]
    from codegraph.cli.entry import main
    main()
"""


def test_a_command_exits_with_its_status_output_and_exit_handlers(tmp_path):
    ran = tmp_path / "atexit"
    done = _run(_MAIN, str(ran), "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("buffered, not flushed\n")  # written before, flushed at the end
    assert "version" in done.stdout
    assert ran.read_text() == "ran"


def test_an_index_run_exits_with_its_json_and_status(tmp_path):
    root = copy_fixture("python", tmp_path)
    ran = tmp_path / "atexit"
    done = _run(_MAIN, str(ran), "init", "--json", cwd=root)
    assert done.returncode == 0, done.stderr
    assert '"nodes"' in done.stdout and done.stdout.rstrip().endswith("}")  # the whole JSON, flushed
    assert ran.read_text() == "ran"
    failed = _run(_MAIN, str(ran), "callers", "no_such_symbol_anywhere", cwd=root)
    assert failed.returncode not in (0, None)
    assert "no_such_symbol_anywhere" in failed.stderr


def test_a_usage_error_keeps_its_status(tmp_path):
    done = _run(_MAIN, str(tmp_path / "atexit"), "no-such-command")
    assert done.returncode == 2
    assert "No such command" in done.stderr


def test_a_thread_that_is_not_a_daemon_is_waited_for(tmp_path):
    finished = tmp_path / "thread"
    script = """
        import sys, threading, time
        from pathlib import Path
        marker = Path(sys.argv[1])
        def work():
            time.sleep(0.5)
            marker.write_text("finished")
        threading.Thread(target=work).start()
        sys.argv = ["codegraph", "--version"]
        from codegraph.cli.entry import main
        main()
    """
    done = _run(script, str(finished))
    assert done.returncode == 0, done.stderr
    assert finished.read_text() == "finished"
