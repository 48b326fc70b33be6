"""``codegraph doctor``: where each agent's config is, whether it parses, whether the configured server
completes a real MCP handshake, whether the Claude hooks are installed and runnable, how fresh the index
is and whether the agent trusts the folder."""

from __future__ import annotations

import json
import os
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit

from codegraph.errors import ConfigRefused, ConfigUnparsable
from codegraph_installer import claude, targets
from codegraph_installer.disk import read_text
from codegraph_installer.handshake import handshake
from codegraph_installer.jsonedit import get, parse_object
from codegraph_installer.paths import InstallPaths
from codegraph_installer.plan import SERVER_NAME
from codegraph_installer.simple import gemini_folder_trusted


@dataclass
class Check:
    """One line of the report: ``ok`` True (fine), False (broken), None (information)."""

    name: str
    ok: bool | None
    detail: str

    def to_json(self) -> dict:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


@dataclass
class Report:
    target: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok is not False for c in self.checks)

    def to_json(self) -> dict:
        return {"target": self.target, "ok": self.ok, "checks": [c.to_json() for c in self.checks]}


@dataclass
class Found:
    scope: str
    path: Path
    entry: Any


def _entry_path(target: str, scope: str, paths: InstallPaths) -> tuple[Path, tuple]:
    if target == "claude":
        return claude._server_location(paths, scope)
    module = targets.TARGETS[target]
    return module.file(paths, scope), (module.key, SERVER_NAME)


def argv_of(target: str, entry: dict, paths: InstallPaths) -> list[str]:
    """The command line an agent would run for ``entry`` (workspace variables filled in)."""
    command = entry.get("command")
    words = list(command) if isinstance(command, list) else [command, *(entry.get("args") or [])]
    return [str(w).replace("${workspaceFolder}", str(paths.project)) for w in words]


class _Unreadable(Exception):
    pass


def _read(path: Path, report: Report, name: str) -> str | None:
    """``read_text``, with a file it refuses (not UTF-8, dangling link…) reported as a failed check.

    Raises:
        _Unreadable: after reporting, so the caller skips the file.
    """
    try:
        return read_text(path)
    except ConfigRefused as exc:
        report.checks.append(Check(name, False, str(exc).replace("; nothing was written", "")))
        raise _Unreadable from None


def find_entries(target: str, paths: InstallPaths, report: Report) -> list[Found]:
    found: list[Found] = []
    for scope in targets.scopes(target):
        path, key = (paths.codex_config, ()) if target == "codex" else _entry_path(target, scope, paths)
        try:
            text = _read(path, report, f"config ({scope})")
        except _Unreadable:
            continue
        if text is None:
            report.checks.append(Check(f"config ({scope})", None, f"{path} does not exist"))
            continue
        if target == "codex":
            try:
                doc = tomlkit.parse(text)
            except Exception as exc:  # tomlkit raises several types
                report.checks.append(Check(f"config ({scope})", False, f"{path}: does not parse: {exc}"))
                continue
            entry = (doc.get("mcp_servers") or {}).get(SERVER_NAME)
            entry = entry.unwrap() if entry is not None else None
        else:
            try:
                base, _ = parse_object(path, text)
            except ConfigUnparsable as exc:
                report.checks.append(Check(f"config ({scope})", False, str(exc)))
                continue
            entry = get(base, key)
        if isinstance(entry, dict):
            report.checks.append(Check(f"config ({scope})", True, f"{path}: codegraph entry present"))
            found.append(Found(scope, path, entry))
        else:
            report.checks.append(Check(f"config ({scope})", None, f"{path}: parses, no codegraph entry"))
    return found


def _hook_checks(paths: InstallPaths, report: Report) -> None:
    for settings in (paths.claude_user_settings, paths.claude_local_settings):
        try:
            text = _read(settings, report, "claude settings")
        except _Unreadable:
            continue
        if text is None:
            continue
        try:
            base, value = parse_object(settings, text)
        except ConfigUnparsable as exc:
            report.checks.append(Check("claude settings", False, f"{exc} (Claude skips the whole file)"))
            continue
        allow = get(base, ("permissions", "allow")) or []
        if claude.ALLOW_RULE in allow:
            report.checks.append(Check("auto-allow", True, f"{claude.ALLOW_RULE} in {settings}"))
        hooks = value.get("hooks") if isinstance(value.get("hooks"), dict) else {}
        for event in claude.HOOKS:
            for group in hooks.get(event) or []:
                for hook in (group.get("hooks") or []) if isinstance(group, dict) else []:
                    if not claude.is_our_hook(hook):
                        continue
                    problems = _hook_problems(group, hook)
                    detail = f"{event} in {settings}: {hook['command']}"
                    report.checks.append(
                        Check(
                            f"hook {event}",
                            not problems,
                            detail + (f" — {'; '.join(problems)}" if problems else ""),
                        )
                    )


def _hook_problems(group: dict, hook: dict) -> list[str]:
    problems = []
    if not isinstance(group.get("matcher", ""), str):
        problems.append("matcher is not a string")
    if hook.get("type") != "command":
        problems.append('type is not "command"')
    if "timeout" in hook and not isinstance(hook["timeout"], (int, float)):
        problems.append("timeout is not a number of seconds")
    executable = shlex.split(hook["command"])[0]
    if not (os.path.isfile(executable) and os.access(executable, os.X_OK)):
        problems.append(f"{executable} is not an executable file")
    return problems


def agents_present(paths: InstallPaths) -> list[str]:
    """Agents whose user configuration folder exists in the home (they have been used here)."""
    folders = {
        "claude": paths.claude_user_settings.parent,
        "codex": paths.codex_config.parent,
        "cursor": paths.cursor_user.parent,
        "gemini": paths.gemini_user.parent,
        "opencode": paths.opencode_user.parent,
        "vscode": paths.vscode_user.parent,
    }
    found = [name for name, folder in folders.items() if folder.is_dir()]
    if paths.claude_json.is_file() and "claude" not in found:
        found.insert(0, "claude")
    return found


def index_report(paths: InstallPaths) -> Report:
    """The index check alone, as a report of its own (``doctor`` before any agent is installed)."""
    report = Report("index")
    _index_check(paths, report)
    return report


def _index_check(paths: InstallPaths, report: Report) -> None:
    from codegraph_hooks.index_info import find_root, index_state

    root = find_root(paths.project)
    if root is None:
        from codegraph.paths import init_advice

        report.checks.append(
            Check("index", None, f"no index at or above {paths.project}. {init_advice(paths.project)}")
        )
        return
    try:
        state = index_state(root)
    except Exception as exc:  # an unreadable index is a finding, not a crash
        report.checks.append(Check("index", False, f"{root}/.codegraph/codegraph.db unreadable: {exc}"))
        return
    from codegraph.paths import plural

    minutes = round(state.age / 60)
    changed, touched = _by_content(root) if state.changed else ([], [])
    if changed:
        detail = (
            f"{plural(state.files, 'file')}, last changed {minutes} min ago, {len(changed)} changed since: "
            + ", ".join(changed[:5])
        )
        report.checks.append(Check("index", None, detail))
    else:
        from codegraph.query.status import touched_note

        report.checks.append(
            Check(
                "index",
                True,
                f"{plural(state.files, 'file')}, last changed {minutes} min ago, fresh{touched_note(touched)}",
            )
        )


def _by_content(root) -> tuple[list[str], list[str]]:
    """(changed, touched): the indexed files whose content differs from the index (or that are gone),
    and those with only a new mtime — the comparison ``status`` makes, so the two agree (a ``touch``
    of every file read "20 changed since" here and "fresh" there, 2026-12-01). The hooks' stat-only
    check (``index_state``) is what says a look is worth it."""
    from codegraph.index.drift import changed_files
    from codegraph.store.reader import Reader

    touched: list[str] = []
    try:
        with Reader(root) as reader:
            records = {r["path"]: r for r in reader.files()}
            changed = changed_files(reader, records, records, touched=touched)
    except Exception:  # an index this version cannot read: the stat-only finding stands, not a crash
        from codegraph_hooks.index_info import index_state

        return index_state(root).changed, []
    return changed, touched


def _trust_check(target: str, paths: InstallPaths, report: Report) -> None:
    if target == "claude":
        try:
            text = read_text(paths.claude_json)
            projects = json.loads(text or "{}").get("projects") or {}
        except (ConfigRefused, ValueError, AttributeError):  # already reported by find_entries
            return
        trusted = (projects.get(str(paths.project)) or {}).get("hasTrustDialogAccepted")
        report.checks.append(
            Check(
                "folder trust",
                None,
                f"Claude Code {'trusts' if trusted else 'has not yet trusted'} {paths.project}",
            )
        )
    elif target == "gemini":
        trusted = gemini_folder_trusted(paths)
        rules = paths.gemini_trusted_folders
        if trusted is False:
            detail = f"Gemini CLI does not trust {paths.project}: all MCP servers are off ({rules})"
        elif trusted:
            detail = f"Gemini CLI trusts {paths.project} ({rules})"
        else:
            detail = (
                f"Gemini CLI has no trust rule for {paths.project} in {rules}: unless folder trust is "
                "turned off in its settings, MCP servers stay off here until you trust the folder "
                "(/permissions inside gemini)"
            )
        report.checks.append(Check("folder trust", None if trusted is None else trusted, detail))


def _gemini_auto_allow(entries: list[Found], report: Report) -> None:
    """Gemini's auto-allow is ``"trust": true`` on the server entry (headless runs need it, issue 9)."""
    for found in entries:
        if isinstance(found.entry, dict) and found.entry.get("trust") is True:
            report.checks.append(
                Check("auto-allow", True, f'"trust": true on the codegraph entry in {found.path}')
            )
        else:
            report.checks.append(
                Check(
                    "auto-allow",
                    None,
                    f'no "trust": true on the codegraph entry in {found.path}: Gemini CLI asks before each '
                    "call, and a headless `gemini -p` does not offer codegraph's tools",
                )
            )


def doctor(target: str, paths: InstallPaths, *, connect: bool = True, timeout: float = 15.0) -> Report:
    """The report for one target. Spawns each configured server once when ``connect``."""
    report = Report(target)
    entries = find_entries(target, paths, report)
    if not entries:
        hint = f"no codegraph entry; run `codegraph install {target}`"
        report.checks.append(Check("installed", False, hint))
    for found in entries:
        argv = argv_of(target, found.entry, paths)
        env = found.entry.get("env") or found.entry.get("environment") or {}
        if not connect:
            continue
        started = time.monotonic()
        result = handshake(argv, paths.project, {k: str(v) for k, v in env.items()}, timeout)
        if result.ok:
            names = ", ".join(result.tools[:4])
            detail = f"{' '.join(argv)} → {len(result.tools)} tools ({names}) in {result.seconds:.2f} s"
            report.checks.append(Check(f"handshake ({found.scope})", True, detail))
        else:
            spent = time.monotonic() - started
            report.checks.append(
                Check(
                    f"handshake ({found.scope})", False, f"{' '.join(argv)}: {result.error} ({spent:.1f} s)"
                )
            )
    if target == "claude":
        _hook_checks(paths, report)
    if target == "gemini":
        _gemini_auto_allow(entries, report)
    _trust_check(target, paths, report)
    _index_check(paths, report)
    return report
