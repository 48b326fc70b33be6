"""Agents whose whole setup is one MCP entry in a JSON(C) file: Cursor, Gemini CLI, opencode, VS Code.

Entry shapes (agents' docs, FACTS.md):
- Cursor ``mcpServers`` with ``command``/``args``; Cursor gives the server no working directory, so the
  project is passed with ``--path`` (user scope: ``${workspaceFolder}``, which Cursor expands).
- Gemini CLI ``mcpServers`` with ``command``/``args``/``cwd``; in an untrusted folder Gemini disables every
  server (user ones too), so install and doctor report the folder's trust. ``"trust": true`` on the entry
  is Gemini's auto-allow: without it a headless ``gemini -p`` never offers the tools (measured, issue 9);
  ``--no-auto-allow`` leaves it out.
- opencode ``mcp.<name>`` = ``{"type": "local", "command": [array], "environment": {}, "enabled": true}``;
  a string command or an ``env`` key is silently ignored.
- VS Code ``.vscode/mcp.json`` ``servers.<name>`` with a required ``type``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codegraph_installer.disk import read_text
from codegraph_installer.jsonedit import (
    ensure,
    foreign_note,
    install_json,
    parse_object,
    restore_or_remove,
    uninstall_json,
)
from codegraph_installer.paths import InstallPaths
from codegraph_installer.plan import SERVER_NAME, Options, Plan, claim, is_our_server
from codegraph_installer.state import Record, key_of

SERVE = ["serve", "--mcp"]


class JsonTarget:
    """One agent: which file per scope, under which key, with which entry."""

    name = ""
    scopes: tuple[str, ...] = ("user", "project")
    key = "mcpServers"

    def file(self, paths: InstallPaths, scope: str) -> Path:
        raise NotImplementedError

    def entry(self, paths: InstallPaths, options: Options) -> dict[str, Any]:
        raise NotImplementedError

    def notes(self, paths: InstallPaths, options: Options) -> list[str]:
        return []

    def plan_install(self, paths: InstallPaths, options: Options, read=read_text, records=None) -> Plan:
        """Raises ConfigConflict when the key holds an entry we did not write (unless --replace)."""
        plan = Plan(self.name, "install", options.scope)
        path = self.file(paths, options.scope)
        entry = self.entry(paths, options)
        key = (self.key, SERVER_NAME)
        text = read(path)
        replaced = claim(path, parse_object(path, text)[1], key, is_our_server, options.replace)
        old = (records or {}).get(key_of(path))
        plan.files.append(
            install_json(path, text, lambda t: ensure(t, key, entry), old, keys=[key], replaced=replaced)
        )
        if replaced:
            plan.notes.append(
                f"replaced the {self.key}.{SERVER_NAME} entry codegraph did not write in {path}; "
                "`codegraph uninstall` puts it back (the backup holds it too)."
            )
        plan.notes.extend(self.notes(paths, options))
        return plan

    def plan_uninstall(self, paths: InstallPaths, options: Options, read=read_text, records=None) -> Plan:
        plan = Plan(self.name, "uninstall", options.scope)
        path = self.file(paths, options.scope)
        record = (records or {}).get(key_of(path)) or Record()
        key = (self.key, SERVER_NAME)
        prune = record.prunable((self.key,), 1)
        text = read(path)
        plan.files.append(
            uninstall_json(
                path, text, lambda t: restore_or_remove(t, key, is_our_server, record, prune), record
            )
        )
        plan.notes.extend(foreign_note(path, text, key, is_our_server))
        return plan


class Cursor(JsonTarget):
    name = "cursor"
    scopes = ("project", "user")

    def file(self, paths, scope):
        return paths.cursor_user if scope == "user" else paths.cursor_project

    def entry(self, paths, options):
        project = "${workspaceFolder}" if options.scope == "user" else str(paths.project)
        return {"type": "stdio", "command": options.command, "args": [*SERVE, "--path", project], "env": {}}


class Gemini(JsonTarget):
    name = "gemini"

    def file(self, paths, scope):
        return paths.gemini_user if scope == "user" else paths.gemini_project

    def entry(self, paths, options):
        entry: dict[str, Any] = {"command": options.command, "args": list(SERVE)}
        if options.auto_allow:
            entry["trust"] = True
        return entry

    def notes(self, paths, options):
        notes = []
        if not options.auto_allow:
            notes.append(
                'no "trust": true on the entry (--no-auto-allow): Gemini CLI asks before each codegraph '
                "call, and a headless `gemini -p` does not offer codegraph's tools at all."
            )
        trusted = gemini_folder_trusted(paths)
        if trusted is True:
            return notes
        state = "does not trust" if trusted is False else "has no trust rule for"
        return notes + [
            f"Gemini CLI {state} {paths.project}: in an untrusted folder it disables every MCP server "
            "(user ones too). Trust it with /permissions inside gemini, or add it to "
            f"{paths.gemini_trusted_folders} as TRUST_FOLDER."
        ]


def gemini_folder_trusted(paths: InstallPaths) -> bool | None:
    """True/False when ``trustedFolders.json`` decides for the project (nearest rule wins), None when
    the file is missing or says nothing (Gemini's folder trust may be off)."""
    try:
        rules = json.loads(paths.gemini_trusted_folders.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(rules, dict):
        return None
    best: tuple[int, bool] | None = None
    project = paths.project
    for folder, level in rules.items():
        folder_path = Path(folder)
        if level == "TRUST_PARENT":
            folder_path = folder_path.parent
        if project == folder_path or folder_path in project.parents:
            depth = len(folder_path.parts)
            if best is None or depth > best[0]:
                best = (depth, level != "DO_NOT_TRUST")
    return None if best is None else best[1]


class Opencode(JsonTarget):
    name = "opencode"
    key = "mcp"

    def file(self, paths, scope):
        return paths.opencode_user if scope == "user" else paths.opencode_project

    def entry(self, paths, options):
        return {"type": "local", "command": [options.command, *SERVE], "environment": {}, "enabled": True}


class VSCode(JsonTarget):
    name = "vscode"
    scopes = ("project", "user")
    key = "servers"

    def file(self, paths, scope):
        return paths.vscode_user if scope == "user" else paths.vscode_project

    def entry(self, paths, options):
        entry: dict[str, Any] = {"type": "stdio", "command": options.command, "args": list(SERVE)}
        if options.scope == "user":
            entry["args"] += ["--path", "${workspaceFolder}"]
        return entry
