"""Which agents are on this machine (issue 14: ``codegraph install`` with no target): an agent counts
as present when its command is on ``PATH`` or its user configuration folder exists in the home."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

from codegraph_installer.doctor import agents_present
from codegraph_installer.paths import InstallPaths

# the commands each agent installs (VS Code's is `code`; Cursor ships `cursor` and `cursor-agent`)
BINARIES = {
    "claude": ("claude",),
    "codex": ("codex",),
    "cursor": ("cursor", "cursor-agent"),
    "gemini": ("gemini",),
    "opencode": ("opencode",),
    "vscode": ("code", "code-insiders"),
}


@dataclass(frozen=True)
class Found:
    """``target``: the installer's name; ``why``: what showed it (a command path or a folder)."""

    target: str
    why: str


def detect(paths: InstallPaths, search_path: str | None = None) -> list[Found]:
    """Agents present, in the installer's order. ``search_path`` defaults to ``$PATH``."""
    search = os.environ.get("PATH", "") if search_path is None else search_path
    folders = set(agents_present(paths))
    found = []
    for target, commands in BINARIES.items():
        binary = next((hit for c in commands if (hit := shutil.which(c, path=search))), None)
        if binary:
            found.append(Found(target, f"`{os.path.basename(binary)}` on PATH ({binary})"))
        elif target in folders:
            found.append(Found(target, "its configuration folder in your home"))
    return found
