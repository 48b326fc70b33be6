"""The hook entry point reads a bounded payload and fails open on anything else."""

from __future__ import annotations

import io
import json
import subprocess

import pytest
from codegraph_hooks import main as hook_main

from tests.hooks.conftest import HOOK


@pytest.mark.parametrize("event", ["pre-tool-use", "session-start", "prompt-submit"])
def test_endless_stdin_is_cut_at_the_bound_and_the_hook_exits_zero_silently(event):
    with open("/dev/zero", "rb") as zero:
        result = subprocess.run([HOOK, event], stdin=zero, capture_output=True, timeout=20)
    assert (result.returncode, result.stdout) == (0, b"")


@pytest.mark.parametrize("event", ["pre-tool-use", "session-start", "prompt-submit"])
def test_a_valid_json_payload_over_the_bound_is_ignored(event, tmp_path):
    payload = {"tool_name": "Read", "cwd": str(tmp_path), "pad": "x" * (hook_main.MAX_PAYLOAD + 1)}
    result = subprocess.run(
        [HOOK, event], input=json.dumps(payload).encode(), capture_output=True, timeout=20
    )
    assert (result.returncode, result.stdout) == (0, b"")


def test_read_payload_reads_at_most_the_bound_and_accepts_a_payload_under_it():
    under = json.dumps({"pad": "x" * 1000}).encode()
    assert hook_main.read_payload(io.BytesIO(under)) == {"pad": "x" * 1000}
    assert hook_main.read_payload(io.BytesIO(b"")) == {}

    class Endless(io.RawIOBase):
        asked: list[int] = []

        def read(self, size=-1):
            self.asked.append(size)
            return b" " * size

    with pytest.raises(ValueError, match="over"):
        hook_main.read_payload(Endless())
    assert Endless.asked == [hook_main.MAX_PAYLOAD + 1]
