"""Every grammar we use loads from the installed wheel with the network unavailable."""

from __future__ import annotations

import subprocess
import sys

from codegraph.index.languages import all_languages

LABELS = [lang.label for lang in all_languages()]

BLOCK_NETWORK = """
import socket
def refuse(*a, **k):
    raise OSError("network disabled for this test")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
"""


def test_every_registered_language_parses_and_compiles_its_query_without_network():
    code = (
        BLOCK_NETWORK
        + f"""
from codegraph.index.languages import module_for, parser_for, query_for
for label in {LABELS!r}:
    tree = parser_for(module_for(label).grammar).parse(b"x = 1\\n")
    assert tree.root_node is not None
    assert query_for(label).pattern_count > 0
print("ok", len({LABELS!r}))
"""
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"ok {len(LABELS)}"
