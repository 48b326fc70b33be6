"""Every grammar we use loads from the installed wheel with the network unavailable."""

from __future__ import annotations

import subprocess
import sys

from codegraph.index.languages import GRAMMARS

BLOCK_NETWORK = """
import socket
def refuse(*a, **k):
    raise OSError("network disabled for this test")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
"""


def test_every_grammar_loads_and_parses_without_network():
    code = (
        BLOCK_NETWORK
        + f"""
from codegraph.index.languages import parser_for, query_for
for grammar in {GRAMMARS!r}:
    tree = parser_for(grammar).parse(b"x = 1\\n")
    assert tree.root_node is not None
    assert query_for(grammar).pattern_count > 0
print("ok", len({GRAMMARS!r}))
"""
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"ok {len(GRAMMARS)}"
