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

import functools
import operator
import os
import shlex
from typing import Any

from codegraph_installer import jsonc
from codegraph_installer.disk import read_text
from codegraph_installer.jsonedit import (
    ensure,
    ensure_item,
    foreign_note,
    get,
    install_json,
    parse_object,
    remove_items,
    restore_or_remove,
    uninstall_json,
)
from codegraph_installer.paths import InstallPaths
from codegraph_installer.plan import SERVER_NAME, Options, Plan, claim, is_our_server
from codegraph_installer.state import Record, key_of

SCOPES = ("user", "project", "local")
ALLOW_RULE = "mcp__codegraph__*"
HOOK_EXECUTABLE = "codegraph-hook"
# event → (matcher or None, subcommand, timeout seconds); only long-standing event names. UserPromptSubmit
# takes no matcher: its group is ``{"hooks": [...]}`` (a key Claude does not expect can void the file).
HOOKS = {
    "SessionStart": ("startup|resume", "session-start", 10),
    "PreToolUse": ("Read|Grep", "pre-tool-use", 5),
    "UserPromptSubmit": (None, "prompt-submit", 5),
}


def server_entry(options: Options) -> dict[str, Any]:
    return {"type": "stdio", "command": options.command, "args": ["serve", "--mcp"], "env": {}}


def hook_group(options: Options, event: str, table: dict | None = None) -> dict[str, Any]:
    """The settings group for ``event`` from ``table`` (default: Claude's ``HOOKS``)."""
    matcher, sub, timeout = (table or HOOKS)[event]
    command = f"{shlex.quote(options.hook_command)} {sub}"
    group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
    group["hooks"] = [{"type": "command", "command": command, "timeout": timeout}]
    return group


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
    wanted = (
        ("SessionStart", options.prewarm),
        ("PreToolUse", options.redirect_reads),
        ("UserPromptSubmit", options.frontload),
    )
    return [e for e, on in wanted if on]


def install_hook(text: str, group: dict[str, Any], event: str) -> str:
    """Add ``group`` under ``hooks.<event>`` unless it is there exactly; an older group of ours (other
    path, timeout or matcher) is replaced, not duplicated."""
    groups = get(text, ("hooks", event))
    if isinstance(groups, list) and group in groups:
        return text
    text = remove_hooks(text, event)
    return ensure_item(text, ("hooks", event), group)


def remove_hooks(text: str, event: str, record: Record | None = None) -> str:
    """Remove our hooks from ``event``: a group holding only ours goes whole (then an emptied event
    list and ``hooks`` object, if install created them — all of them when ``record`` is None, as on
    re-install); in a group shared with the user's hooks only our entries go."""
    prune = 2 if record is None else record.prunable(("hooks", event), 2)
    groups = get(text, ("hooks", event))
    if not isinstance(groups, list):
        return text
    for index in reversed(range(len(groups))):  # back to front: earlier indexes stay valid
        hooks = groups[index].get("hooks") if isinstance(groups[index], dict) else None
        if not isinstance(hooks, list):
            continue
        if hooks and all(is_our_hook(h) for h in hooks):
            text = jsonc.remove(text, ("hooks", event, index), prune=prune)
        else:
            text = remove_items(text, ("hooks", event, index, "hooks"), is_our_hook, prune=0)
    return text


def plan_install(paths: InstallPaths, options: Options, read=read_text, records=None) -> Plan:
    """Raises ConfigConflict when the server key holds an entry we did not write (unless --replace)."""
    records = records or {}
    scope = options.scope
    plan = Plan("claude", "install", scope)
    server_file, server_path = _server_location(paths, scope)
    settings_file = _settings_file(paths, scope)
    server_text, settings_text = read(server_file), read(settings_file)
    replaced = claim(
        server_file, parse_object(server_file, server_text)[1], server_path, is_our_server, options.replace
    )

    def server_steps(text: str) -> str:
        return ensure(text, server_path, server_entry(options))

    settings_record = records.get(key_of(settings_file)) or Record()

    def settings_steps(text: str) -> str:
        allow = ("permissions", "allow")
        if options.auto_allow:
            text = ensure_item(text, allow, ALLOW_RULE)
        elif (allow, ALLOW_RULE) in settings_record.items:  # an earlier install added it: take it back
            prune = settings_record.prunable(allow, len(allow))
            text = remove_items(text, allow, lambda rule: rule == ALLOW_RULE, prune=prune)
        if scope == "project":
            text = ensure_item(text, ("enabledMcpjsonServers",), SERVER_NAME)
        for event in _events(options):
            text = install_hook(text, hook_group(options, event), event)
        return text

    items: list[tuple[tuple[str, ...], str]] = (
        [(("permissions", "allow"), ALLOW_RULE)] if options.auto_allow else []
    )
    if scope == "project":
        items.append((("enabledMcpjsonServers",), SERVER_NAME))
    plan.files.append(
        install_json(
            server_file,
            server_text,
            server_steps,
            records.get(key_of(server_file)),
            keys=[server_path],
            replaced=replaced,
        )
    )
    plan.files.append(
        install_json(
            settings_file,
            settings_text,
            settings_steps,
            records.get(key_of(settings_file)),
            keys=[("hooks", event) for event in _events(options)],
            items=items,
        )
    )
    if replaced:
        plan.notes.append(
            f"replaced the {'.'.join(server_path)} entry codegraph did not write in {server_file}; "
            "`codegraph uninstall` puts it back (the backup holds it too)."
        )
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


def plan_uninstall(paths: InstallPaths, options: Options, read=read_text, records=None) -> Plan:
    """Removes our server entry and hooks (recognised by content; an entry --replace overwrote is put
    back) and, only when the record says install added them, the allow rule, ``enabledMcpjsonServers``
    item, emptied containers and files."""
    records = records or {}
    scope = options.scope
    plan = Plan("claude", "uninstall", scope)
    server_file, server_path = _server_location(paths, scope)
    settings_file = _settings_file(paths, scope)
    server_record = records.get(key_of(server_file)) or Record()
    settings_record = records.get(key_of(settings_file)) or Record()
    # Claude itself keeps an empty ``mcpServers`` in every projects[...] entry: leave it there.
    prune = 0 if scope == "local" else server_record.prunable(server_path[:-1], 1)

    def server_steps(text: str) -> str:
        return restore_or_remove(text, server_path, is_our_server, server_record, prune)

    kept: list[str] = []

    def settings_steps(text: str) -> str:
        ours: list[tuple[tuple[str, ...], str]] = [(("permissions", "allow"), ALLOW_RULE)]
        if scope == "project":
            ours.append((("enabledMcpjsonServers",), SERVER_NAME))
        for array, item in ours:
            if (array, item) in settings_record.items:
                prune = settings_record.prunable(array, len(array))
                text = remove_items(text, array, functools.partial(operator.eq, item), prune=prune)
            elif isinstance(get(text, array), list) and item in get(text, array):
                kept.append(f"{'.'.join(array)} {item!r}")
        for event in HOOKS:
            text = remove_hooks(text, event, settings_record)
        return text

    server_text = read(server_file)
    plan.files.append(uninstall_json(server_file, server_text, server_steps, server_record))
    plan.notes.extend(foreign_note(server_file, server_text, server_path, is_our_server))
    plan.files.append(uninstall_json(settings_file, read(settings_file), settings_steps, settings_record))
    for what in kept:
        plan.notes.append(
            f"kept {what} in {settings_file}: codegraph has no record of adding it (it was there before "
            "install, or the install record is gone)."
        )
    return plan
