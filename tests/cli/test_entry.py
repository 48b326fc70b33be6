"""The console-script entry ends the process without the interpreter's teardown (``entry.leave``), yet
as the usual exit would: the command's status, its output flushed, the exit handlers run, and a
thread that is not a daemon waited for. Real subprocesses running ``codegraph.cli.entry.main``."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import textwrap

import pytest

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


def _shell(root, args: str, redirect: str) -> subprocess.CompletedProcess:
    """``codegraph ARGS REDIRECT`` through bash in ``root``, after ``root`` is indexed."""
    assert _run(_MAIN, str(root / "atexit-marker"), "init", cwd=root).returncode == 0
    command = f"{shlex.quote(sys.executable)} -m codegraph {args} {redirect}"
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120, cwd=root)


@pytest.mark.parametrize("closed", [">&-", "2>&-"])
def test_a_closed_stream_keeps_the_commands_status(tmp_path, closed):
    # Python starts with sys.stdout (or sys.stderr) None when the descriptor is closed: the flush
    # at the end raised AttributeError, a traceback and status 1 (adversarial pass, stop 28)
    root = copy_fixture("python", tmp_path)
    # an answer that cannot be written to a closed stdout fails as a full disk does (stop 30: it was
    # dropped, status 0); errors go to stderr and keep their status
    version = 74 if closed == ">&-" else 0
    for args, status in (("--version", version), ("nosuchcommand", 2), ("callers nosuch_symbol", 4)):
        done = _shell(root, args, closed)
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == status, (args, done.stderr)


def test_an_answer_to_a_closed_stdout_is_an_error_not_a_silent_success(tmp_path):
    root = copy_fixture("python", tmp_path)
    for args in ("status", "search QuerySet", "search QuerySet --json", "--help"):
        done = _shell(root, args, ">&-")
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 74, (args, done.returncode, done.stderr)
        assert "standard output is closed" in done.stderr
    assert _shell(root, "search QuerySet", "").returncode == 0  # the same answer written: status 0
    # nothing is lost: a sync with stdout closed writes the index (its line goes to stderr) and the
    # index answers as before
    (root / "shop" / "late.py").write_text("def late_added():\n    return 1\n")
    synced = _shell(root, "sync", ">&-")
    assert synced.returncode == 0 and "Traceback" not in synced.stderr, synced.stderr
    command = [sys.executable, "-m", "codegraph", "search", "late_added"]  # no init first, as _shell runs
    found = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=root)
    assert found.returncode == 0 and "late_added" in found.stdout, found.stdout
    done = _shell(root, "serve --mcp", "< /dev/null >&-")  # the MCP server cannot answer at all
    assert "Traceback" not in done.stderr and done.returncode == 74, done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_an_error_answer_to_a_full_disk_is_one_line_and_status_74(tmp_path):
    root = copy_fixture("python", tmp_path)
    for args in ("callers nosuch_symbol --json", "nosuchcommand --json"):
        done = _shell(root, args, "> /dev/full")
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 74 and "No space left on device" in done.stderr
