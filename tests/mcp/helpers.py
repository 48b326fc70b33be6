"""Paths the MCP transport tests share."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CODEGRAPH = str(Path(sys.executable).parent / "codegraph")  # the venv's console script, as agents run it
