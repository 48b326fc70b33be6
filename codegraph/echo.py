"""Text someone typed, fit to print back (below every other module: ``errors`` uses it)."""

from __future__ import annotations

import re

# C escapes of the control characters that have one (the rest are shown in octal)
C_ESCAPES = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r"}

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def echoed(text: str) -> str:
    """``text`` someone typed (a question, a symbol name, a filter), fit to echo in one line of
    output: each control character (C0, DEL, C1) as its C escape (``\\a``, ``\\n``) or in octal,
    the rest as typed. Before, a terminal escape in a question (``\\x1b[31m``) or a bell reached
    the terminal, and an agent's context, as it was."""
    return _CONTROL.sub(lambda m: C_ESCAPES.get(m.group(), f"\\{ord(m.group()):03o}"), text)
