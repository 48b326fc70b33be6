"""Claude Code: the MCP entry, the auto-allow rule and the optional hooks.

Where things go (FACTS.md, measured on Claude Code 2.1.x):
- user scope: server in top-level ``mcpServers`` of ``~/.claude.json``; rule and hooks in
  ``~/.claude/settings.json``.
- local scope: server in ``~/.claude.json`` ``projects[<abs project>].mcpServers``; rule and hooks in
  ``.claude/settings.local.json`` (personal, not shared with the team).
- project scope: server in ``.mcp.json`` (shared); it stays "Pending approval" until approved, so the
  personal ``.claude/settings.local.json`` gets ``enabledMcpjsonServers: ["codegraph"]`` with the rule and
  hooks (never the team-shared ``.claude/settings.json``).
A settings file with one schema error is skipped whole by Claude, so hook entries use exactly the
current shape ``{"matcher", "hooks": [{"type": "command", "command", "timeout"}]}``.
"""

from __future__ import annotations

import os
import shlex
from typing import Any

from codegraph_installer import jsonc
from codegraph_installer.paths import InstallPaths
from codegraph_installer.plan import (
    SERVER_NAME,
    Options,
    Plan,
    edit_json,
    ensure,
    ensure_item,
    get,
    is_our_server,
    read_text,
    remove_items,
    remove_key,
)

SCOPES = ("user", "project", "local")
ALLOW_RULE = "mcp__codegraph__*"
HOOK_EXECUTABLE = "codegraph-hook"
# event → (matcher, subcommand, timeout seconds); only long-standing event names.
HOOKS = {
    "SessionStart": ("startup|resume", "session-start", 10),
    "PreToolUse": ("Read|Grep", "pre-tool-use", 5),
}


def server_entry(options: Options) -> dict[str, Any]:
    return {"type": "stdio", "command": options.command, "args": ["serve", "--mcp"], "env": {}}


def hook_group(options: Options, event: str) -> dict[str, Any]:
    matcher, sub, timeout = HOOKS[event]
    command = f"{shlex.quote(options.hook_command)} {sub}"
    return {"matcher": matcher, "hooks": [{"type": "command", "command": command, "timeout": timeout}]}


def is_our_hook(hook: Any) -> bool:
    """A hook command that runs ``codegraph-hook`` (any path)."""
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    try:
        words = shlex.split(hook["command"])
    except ValueError:
        return False
    return bool(words) and os.path.basename(words[0]) == HOOK_EXECUTABLE


def _server_location(paths: InstallPaths, scope: str):
    if scope == "project":
        return paths.claude_project_mcp, ("mcpServers", SERVER_NAME)
    if scope == "local":
        return paths.claude_json, ("projects", str(paths.project), "mcpServers", SERVER_NAME)
    return paths.claude_json, ("mcpServers", SERVER_NAME)


def _settings_file(paths: InstallPaths, scope: str):
    return paths.claude_user_settings if scope == "user" else paths.claude_local_settings


def _events(options: Options) -> list[str]:
    return [e for e, on in (("SessionStart", options.prewarm), ("PreToolUse", options.redirect_reads)) if on]


def _install_hook(text: str, options: Options, event: str) -> str:
    group = hook_group(options, event)
    groups = get(text, ("hooks", event))
    if isinstance(groups, list) and group in groups:
        return text
    # An older entry of ours (other path, timeout or matcher) is replaced, not duplicated.
    text = _remove_hooks(text, event)
    return ensure_item(text, ("hooks", event), group)


def _remove_hooks(text: str, event: str) -> str:
    """Remove our hooks from ``event``: a group holding only ours goes whole (then an emptied event
    list and ``hooks`` object); in a group shared with the user's hooks only our entries go."""
    groups = get(text, ("hooks", event))
    if not isinstance(groups, list):
        return text
    for index in reversed(range(len(groups))):  # back to front: earlier indexes stay valid
        hooks = groups[index].get("hooks") if isinstance(groups[index], dict) else None
        if not isinstance(hooks, list):
            continue
        if hooks and all(is_our_hook(h) for h in hooks):
            text = jsonc.remove(text, ("hooks", event, index), prune=2)
        else:
            text = remove_items(text, ("hooks", event, index, "hooks"), is_our_hook, prune=0)
    return text


def plan_install(paths: InstallPaths, options: Options, read=read_text) -> Plan:
    scope = options.scope
    plan = Plan("claude", "install", scope)
    server_file, server_path = _server_location(paths, scope)
    settings_file = _settings_file(paths, scope)

    def server_steps(text: str) -> str:
        return ensure(text, server_path, server_entry(options))

    def settings_steps(text: str) -> str:
        text = ensure_item(text, ("permissions", "allow"), ALLOW_RULE)
        if scope == "project":
            text = ensure_item(text, ("enabledMcpjsonServers",), SERVER_NAME)
        for event in _events(options):
            text = _install_hook(text, options, event)
        return text

    plan.files.append(edit_json(server_file, read(server_file), server_steps))
    plan.files.append(edit_json(settings_file, read(settings_file), settings_steps))
    if scope == "project":
        plan.notes.append(
            f"{paths.claude_project_mcp.name} is shared with your team; your own approval of it is in "
            f"{paths.claude_local_settings} (enabledMcpjsonServers). Teammates approve it when Claude Code "
            "asks on first start, or with `claude mcp reset-project-choices` then restart."
        )
    if scope != "user":
        plan.notes.append(
            "Claude Code ignores rules and hooks in .claude/settings.local.json until you trust this folder "
            "(answer the trust prompt once in an interactive `claude`)."
        )
    return plan


def plan_uninstall(paths: InstallPaths, options: Options, read=read_text) -> Plan:
    scope = options.scope
    plan = Plan("claude", "uninstall", scope)
    server_file, server_path = _server_location(paths, scope)
    settings_file = _settings_file(paths, scope)
    # Claude itself keeps an empty ``mcpServers`` in every projects[...] entry: leave it there.
    prune = 0 if scope == "local" else 1

    def server_steps(text: str) -> str:
        return remove_key(text, server_path, is_our_server, prune=prune)

    def settings_steps(text: str) -> str:
        text = remove_items(text, ("permissions", "allow"), lambda r: r == ALLOW_RULE, prune=2)
        if scope == "project":
            text = remove_items(text, ("enabledMcpjsonServers",), lambda r: r == SERVER_NAME, prune=1)
        for event in HOOKS:
            text = _remove_hooks(text, event)
        return text

    plan.files.append(edit_json(server_file, read(server_file), server_steps))
    plan.files.append(edit_json(settings_file, read(settings_file), settings_steps))
    return plan
