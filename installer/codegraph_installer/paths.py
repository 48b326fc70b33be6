"""Every file the installer reads or writes, from one object, so tests run in a temporary HOME.

Locations come from shared/FACTS.md (measured with the agents' own CLIs) and the agents' docs:
Claude Code keeps user/local MCP servers in ``~/.claude.json`` (not ``~/.claude/settings.json``),
project servers in ``.mcp.json``; Codex reads ``$CODEX_HOME/config.toml`` (default ``~/.codex``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class InstallPaths:
    """``home`` is the user's home, ``project`` the (absolute) project directory; ``env`` supplies
    ``CODEX_HOME``/``XDG_*`` overrides (default: the process environment)."""

    home: Path
    project: Path
    env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def current(cls, project: str | os.PathLike[str] | None = None) -> InstallPaths:
        keep = ("CODEX_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")
        env = tuple((k, os.environ[k]) for k in keep if os.environ.get(k))
        return cls(Path.home(), Path(project or os.getcwd()).resolve(), env)

    def _env(self, name: str) -> str | None:
        return dict(self.env).get(name)

    @property
    def xdg_config(self) -> Path:
        return Path(self._env("XDG_CONFIG_HOME") or self.home / ".config")

    @property
    def state_dir(self) -> Path:
        return Path(self._env("XDG_STATE_HOME") or self.home / ".local" / "state") / "codegraph"

    @property
    def backups(self) -> Path:
        return self.state_dir / "backups"

    @property
    def install_state(self) -> Path:
        """What install added to each config file (codegraph_installer.state)."""
        return self.state_dir / "installs.json"

    # Claude Code
    @property
    def claude_json(self) -> Path:
        return self.home / ".claude.json"

    @property
    def claude_user_settings(self) -> Path:
        return self.home / ".claude" / "settings.json"

    @property
    def claude_local_settings(self) -> Path:
        return self.project / ".claude" / "settings.local.json"

    @property
    def claude_project_mcp(self) -> Path:
        return self.project / ".mcp.json"

    # Codex
    @property
    def codex_config(self) -> Path:
        return Path(self._env("CODEX_HOME") or self.home / ".codex") / "config.toml"

    # Cursor
    @property
    def cursor_user(self) -> Path:
        return self.home / ".cursor" / "mcp.json"

    @property
    def cursor_project(self) -> Path:
        return self.project / ".cursor" / "mcp.json"

    # Gemini CLI
    @property
    def gemini_user(self) -> Path:
        return self.home / ".gemini" / "settings.json"

    @property
    def gemini_project(self) -> Path:
        return self.project / ".gemini" / "settings.json"

    @property
    def gemini_trusted_folders(self) -> Path:
        return self.home / ".gemini" / "trustedFolders.json"

    # opencode: opencode.jsonc wins when it exists, else opencode.json
    def _opencode(self, folder: Path) -> Path:
        jsonc = folder / "opencode.jsonc"
        return jsonc if jsonc.exists() else folder / "opencode.json"

    @property
    def opencode_user(self) -> Path:
        return self._opencode(self.xdg_config / "opencode")

    @property
    def opencode_project(self) -> Path:
        return self._opencode(self.project)

    # VS Code
    @property
    def vscode_project(self) -> Path:
        return self.project / ".vscode" / "mcp.json"

    @property
    def vscode_user(self) -> Path:
        if sys.platform == "darwin":
            return self.home / "Library" / "Application Support" / "Code" / "User" / "mcp.json"
        if sys.platform == "win32":
            return (
                Path(self._env("APPDATA") or self.home / "AppData" / "Roaming") / "Code" / "User" / "mcp.json"
            )
        return self.xdg_config / "Code" / "User" / "mcp.json"


def console_script(name: str) -> str:
    """Absolute path of a console script installed next to the running interpreter (agents may not
    share the shell's PATH, and shims cost ~100 ms a start: FACTS.md). Falls back to the bare name."""
    folder = Path(sys.executable).parent
    for candidate in (folder / name, folder / f"{name}.exe"):
        if candidate.exists():
            return str(candidate)
    return name
