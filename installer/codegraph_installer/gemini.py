"""Gemini CLI: the MCP entry (see :class:`codegraph_installer.simple.Gemini`) and the optional hooks, all
in the same ``settings.json`` (user ``~/.gemini/settings.json``, project ``.gemini/settings.json``).

Gemini's hook contract (its bundled docs/hooks/reference.md, gemini-cli 0.61, checked against its code):
JSON on stdin, one JSON object on stdout, exit 0 (2 blocks; our hooks never use it); ``timeout`` is in
milliseconds; ``matcher`` is a regex on tool names for tool events, an exact string for lifecycle ones.
- ``--prewarm``: ``SessionStart`` (``hookSpecificOutput.additionalContext`` is prepended to the prompt).
- ``--frontload``: ``BeforeAgent`` (after the prompt; ``additionalContext`` is appended to it).
- ``--redirect-reads``: ``AfterTool`` on ``read_file``. Not ``BeforeTool``: in 0.61 a BeforeTool hook can
  only deny or rewrite the call (its ``additionalContext`` is ignored), and blocking Reads made agents
  slower (issue 5); AfterTool's ``additionalContext`` is appended to the tool result, which is where
  Claude's PreToolUse advice arrives too.
"""

from __future__ import annotations

from codegraph_installer.claude import hook_group, install_hook, remove_hooks
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
from codegraph_installer.simple import Gemini
from codegraph_installer.state import Record, key_of

SCOPES = ("user", "project")
KEY = ("mcpServers", SERVER_NAME)
# event → (matcher or None, subcommand, timeout in milliseconds)
HOOKS = {
    "SessionStart": (None, "session-start", 10_000),
    "BeforeAgent": (None, "prompt-submit", 5_000),
    "AfterTool": ("^read_file$", "pre-tool-use", 5_000),
}
_ENTRY = Gemini()
key = _ENTRY.key  # where the server entry lives, for doctor (as on the JsonTarget agents)


def file(paths: InstallPaths, scope: str):
    return _ENTRY.file(paths, scope)


def _events(options: Options) -> list[str]:
    wanted = (
        ("SessionStart", options.prewarm),
        ("BeforeAgent", options.frontload),
        ("AfterTool", options.redirect_reads),
    )
    return [event for event, on in wanted if on]


def plan_install(paths: InstallPaths, options: Options, read=read_text, records=None) -> Plan:
    """Raises ConfigConflict when the server key holds an entry we did not write (unless --replace)."""
    plan = Plan("gemini", "install", options.scope)
    path = _ENTRY.file(paths, options.scope)
    entry = _ENTRY.entry(paths, options)
    text = read(path)
    replaced = claim(path, parse_object(path, text)[1], KEY, is_our_server, options.replace)
    events = _events(options)

    def steps(current: str) -> str:
        current = ensure(current, KEY, entry)
        for event in events:
            current = install_hook(current, hook_group(options, event, HOOKS), event)
        return current

    old = (records or {}).get(key_of(path))
    keys = [KEY, *(("hooks", event) for event in events)]
    plan.files.append(install_json(path, text, steps, old, keys=keys, replaced=replaced))
    if replaced:
        plan.notes.append(
            f"replaced the mcpServers.{SERVER_NAME} entry codegraph did not write in {path}; "
            "`codegraph uninstall` puts it back (the backup holds it too)."
        )
    if events and options.scope == "project":
        plan.notes.append(
            "Gemini CLI fingerprints project hooks: it asks you to trust them on its next start "
            "(and again whenever their command changes)."
        )
    plan.notes.extend(_ENTRY.notes(paths, options))
    return plan


def plan_uninstall(paths: InstallPaths, options: Options, read=read_text, records=None) -> Plan:
    """Removes our server entry and our hooks (recognised by their ``codegraph-hook`` command) and, when
    install created them, the containers they emptied."""
    plan = Plan("gemini", "uninstall", options.scope)
    path = _ENTRY.file(paths, options.scope)
    record = (records or {}).get(key_of(path)) or Record()
    prune = record.prunable(("mcpServers",), 1)

    def steps(current: str) -> str:
        current = restore_or_remove(current, KEY, is_our_server, record, prune)
        for event in HOOKS:
            current = remove_hooks(current, event, record)
        return current

    text = read(path)
    plan.files.append(uninstall_json(path, text, steps, record))
    plan.notes.extend(foreign_note(path, text, KEY, is_our_server))
    return plan
