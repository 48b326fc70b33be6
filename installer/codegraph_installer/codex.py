"""Codex: ``[mcp_servers.codegraph]`` in ``$CODEX_HOME/config.toml``, edited with tomlkit so comments
and other tables stay. One wrongly typed key stops Codex from starting at all (FACTS.md), so
``startup_timeout_sec`` is an integer, never a string."""

from __future__ import annotations

import tomlkit
from tomlkit.exceptions import ParseError

from codegraph.errors import ConfigUnparsable
from codegraph_installer.disk import read_text
from codegraph_installer.paths import InstallPaths
from codegraph_installer.plan import SERVER_NAME, FilePlan, Options, Plan, claim, is_our_server
from codegraph_installer.state import Record, key_of

SCOPES = ("user",)
STARTUP_TIMEOUT_SEC = 20


def server_entry(options: Options) -> dict:
    return {
        "command": options.command,
        "args": ["serve", "--mcp"],
        "startup_timeout_sec": STARTUP_TIMEOUT_SEC,
    }


def _load(path, text: str | None) -> tomlkit.TOMLDocument:
    try:
        return tomlkit.parse(text or "")
    except ParseError as exc:
        raise ConfigUnparsable(
            f"{path}:{exc.line}:{exc.col}: cannot parse TOML; nothing was written. Fix the file and run "
            "the command again."
        ) from None


def _block(options: Options) -> str:
    """Our table as TOML text, ``[mcp_servers.codegraph]`` and its keys."""
    return tomlkit.dumps({"mcp_servers": {SERVER_NAME: server_entry(options)}})


def _unwrap(item) -> object:
    return item.unwrap() if hasattr(item, "unwrap") else item


def plan_install(paths: InstallPaths, options: Options, read=read_text, records=None) -> Plan:
    """A new table is appended at the end of the file (tomlkit would insert it after the comments that
    trail the previous table, which read as belonging to the next one); an existing entry of ours is
    updated in place by tomlkit. An entry we did not write (another server, a string…) is refused with
    ConfigConflict unless ``options.replace``."""
    plan = Plan("codex", "install", "user")
    path = paths.codex_config
    text = read(path)
    doc = _load(path, text)
    wanted = server_entry(options)
    servers = doc.get("mcp_servers")
    if servers is not None and not isinstance(servers, dict):
        raise ConfigUnparsable(f"{path}: `mcp_servers` is not a table; nothing was written.")
    current = servers.get(SERVER_NAME) if servers is not None else None
    key = ("mcp_servers", SERVER_NAME)
    replaced = claim(path, _unwrap(doc), key, is_our_server, options.replace)
    old = (records or {}).get(key_of(path)) or Record()
    new = Record(
        created=text is None,
        keys=(("mcp_servers",),) * (servers is None) + (key,) * (current is None),
        replaced=replaced,
    )
    record = old.merge(new)
    if current is not None and _unwrap(current) == wanted:
        plan.files.append(FilePlan(path, text, text, old))
        return plan
    if current is None and (servers is None or not isinstance(servers, tomlkit.items.InlineTable)):
        base = text or ""
        if base and not base.endswith("\n"):
            base += "\n"
        if base.strip():
            base += "\n"
        plan.files.append(FilePlan(path, text, base + _block(options), record))
        return plan
    assert servers is not None  # no table at all took the branch above
    table = tomlkit.table()
    for name, value in wanted.items():
        table[name] = value
    if current is not None and not isinstance(current, tomlkit.items.Table):
        del servers[SERVER_NAME]  # a string or inline value (--replace): a table takes its place
    servers[SERVER_NAME] = table
    plan.files.append(FilePlan(path, text, _tidy(tomlkit.dumps(doc)), record))
    if replaced:
        plan.notes.append(
            f"replaced the [mcp_servers.{SERVER_NAME}] entry codegraph did not write in {path}; "
            "`codegraph uninstall` puts it back (the backup holds it too)."
        )
    return plan


def plan_uninstall(paths: InstallPaths, options: Options, read=read_text, records=None) -> Plan:
    """Removes our table (recognised by content; an entry --replace overwrote is put back). The file is
    deleted only when install created it and nothing else is left in it."""
    plan = Plan("codex", "uninstall", "user")
    path = paths.codex_config
    record = (records or {}).get(key_of(path)) or Record()
    text = read(path)
    doc = _load(path, text)
    servers = doc.get("mcp_servers")
    current = servers.get(SERVER_NAME) if isinstance(servers, dict) else None
    if current is None or not is_our_server(_unwrap(current)):
        plan.files.append(FilePlan(path, text, text, record))
        if current is not None:
            plan.notes.append(
                f"left mcp_servers.{SERVER_NAME} in {path} as it is: codegraph did not write it."
            )
        return plan
    assert text is not None and servers is not None  # ``current`` was found in that table
    key = ("mcp_servers", SERVER_NAME)
    previous = dict(record.replaced).get(key)
    block = tomlkit.dumps({"mcp_servers": {SERVER_NAME: current.unwrap()}})
    at = text.find(block)
    if previous is not None:
        del servers[SERVER_NAME]
        servers[SERVER_NAME] = previous
        after = _tidy(tomlkit.dumps(doc))
    elif at >= 0 and (at == 0 or text[at - 1] == "\n"):
        start = at - 1 if at >= 2 and text[at - 2 : at] == "\n\n" else at
        after = text[:start] + text[at + len(block) :]
    else:
        del servers[SERVER_NAME]
        if not servers and servers.is_super_table():  # only the implicit [mcp_servers] our table made
            del doc["mcp_servers"]
        after = _tidy(tomlkit.dumps(doc))
    if not after.strip() and record.created:
        plan.files.append(FilePlan(path, text, None, None))
    else:
        plan.files.append(FilePlan(path, text, after, None))
    return plan


def _tidy(text: str) -> str:
    """One newline at the end, not the blank line tomlkit leaves after a last table."""
    return text.rstrip("\n") + "\n" if text.endswith("\n\n") else text
