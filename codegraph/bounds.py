"""Defaults and bounds of the operations' numeric arguments, in one table: the CLI's options, the MCP
tools' input schemas and the MCP dispatch's defaults are all built from it, so an operation answers
the same question the same way from either side (issue 17).

Data only and standard-library free: the MCP handshake reads it before anything heavy is imported.
"""

from __future__ import annotations


class Bound:
    """An integer argument: ``default`` (None: the operation decides), inclusive ``low``..``high``."""

    __slots__ = ("default", "low", "high")

    def __init__(self, default: int | None, low: int, high: int):
        self.default, self.low, self.high = default, low, high

    def schema(self, description: str) -> dict:
        """The JSON-schema property; ``description`` gets "(default N)" appended when there is one."""
        said = f"{description} (default {self.default})." if self.default is not None else description
        return {"type": "integer", "minimum": self.low, "maximum": self.high, "description": said}


SEARCH_LIMIT = Bound(20, 1, 500)  # symbols listed by search
RELATION_LIMIT = Bound(50, 1, 500)  # call sites per definition listed by callers and callees
IMPACT_DEPTH = Bound(3, 1, 10)  # hops the blast radius follows
TRACE_DEPTH = Bound(8, 1, 12)  # hops trace searches before it says it stopped at the limit
FILES_LIMIT = Bound(200, 1, 100_000)  # files listed by files
CONTEXT_LIMIT = Bound(20, 1, 500)  # symbols context lists for a task
FILE_VIEW_LINES = Bound(2000, 1, 100_000)  # lines of the file view (like Read)
EXPLORE_BUDGET = Bound(None, 1000, 25_000)  # characters of the envelope (None: sized to the repository)
