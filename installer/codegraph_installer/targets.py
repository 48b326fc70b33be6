"""The agents ``codegraph install`` knows, and the two library calls the CLI makes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegraph_installer import claude, codex, gemini, state
from codegraph_installer.disk import apply, read_text
from codegraph_installer.paths import InstallPaths, console_script
from codegraph_installer.plan import Options, Plan
from codegraph_installer.simple import Cursor, Opencode, VSCode

# a target is a module (claude, codex, gemini) or an instance (the simple JSON ones) with plan_install,
# plan_uninstall and SCOPES/scopes
TARGETS: dict[str, Any] = {
    "claude": claude,
    "codex": codex,
    "cursor": Cursor(),
    "gemini": gemini,
    "opencode": Opencode(),
    "vscode": VSCode(),
}
HOOK_TARGETS = ("claude", "gemini")
# Why the others get no hooks (checked on the npm versions the tests install, issue 16).
NO_HOOKS = {
    "codex": "codex-cli 0.171 has an experimental hooks engine (hooks.json, feature `codex_hooks`) that "
    "codegraph does not configure yet",
    "opencode": "opencode 1.18 extends itself with JavaScript plugins (tool.execute.before, chat.message), "
    "not command hooks, and codegraph ships none",
    "cursor": "Cursor has no hook mechanism codegraph configures",
    "vscode": "VS Code has no hook mechanism codegraph configures",
}


def scopes(target: str) -> tuple[str, ...]:
    """Scopes the target supports; the first is the default."""
    module = TARGETS[target]
    return tuple(module.SCOPES if hasattr(module, "SCOPES") else module.scopes)


@dataclass
class Outcome:
    """The result of ``install``/``uninstall``: the plan, whether it was written, the backups made."""

    plan: Plan
    written: bool
    backups: list[Path] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "target": self.plan.target,
            "action": self.plan.action,
            "scope": self.plan.scope,
            "written": self.written,
            "files": [{"path": str(f.path), "status": f.status, "diff": f.diff()} for f in self.plan.files],
            "notes": self.plan.notes,
            "backups": [str(b) for b in self.backups],
        }


def make_options(
    target: str,
    scope: str | None,
    *,
    prewarm: bool = False,
    redirect_reads: bool = False,
    frontload: bool = False,
    command: str | None = None,
    hook_command: str | None = None,
    replace: bool = False,
    auto_allow: bool = True,
) -> Options:
    """Options with defaults: the target's first scope, console scripts next to this interpreter.

    Raises:
        ValueError: the scope is not one the target supports, or hooks were asked of a target without.
    """
    allowed = scopes(target)
    scope = scope or allowed[0]
    if scope not in allowed:
        raise ValueError(f"{target} supports --scope {'|'.join(allowed)}, not {scope}")
    if (prewarm or redirect_reads or frontload) and target not in HOOK_TARGETS:
        raise ValueError(
            f"--prewarm/--redirect-reads/--frontload install hooks for claude and gemini only: "
            f"{NO_HOOKS.get(target, f'{target} has none')}. Nothing was written."
        )
    return Options(
        scope=scope,
        command=command or console_script("codegraph"),
        hook_command=hook_command or console_script("codegraph-hook"),
        prewarm=prewarm,
        redirect_reads=redirect_reads,
        frontload=frontload,
        replace=replace,
        auto_allow=auto_allow,
    )


def plan(
    target: str,
    action: str,
    paths: InstallPaths,
    options: Options,
    read=read_text,
    records: dict[str, state.Record] | None = None,
) -> Plan:
    """The pure plan for ``action`` (``install`` or ``uninstall``). ``records`` (default: loaded from
    ``paths.install_state``) say what earlier installs added.

    Raises:
        ConfigRefused: a file to edit does not parse, has a non-object root, is not UTF-8 or is a
            dangling symlink (ConfigUnparsable, ConfigUnwritable), or install would overwrite an entry
            codegraph did not write (ConfigConflict).
    """
    module = TARGETS[target]
    fn = module.plan_install if action == "install" else module.plan_uninstall
    if records is None:
        records = state.load(paths.install_state)
    return fn(paths, options, read, records)


def run(target: str, action: str, paths: InstallPaths, options: Options, *, dry_run: bool = False) -> Outcome:
    """Plan, then (unless ``dry_run`` or nothing changes) apply with backups and atomic writes."""
    result = plan(target, action, paths, options)
    if dry_run or not result.changed:
        return Outcome(result, written=False)
    return Outcome(result, written=True, backups=apply(result, paths.backups, paths.install_state))


def installed_for(project: Path) -> list[dict]:
    """Agents and scopes whose config holds codegraph's server entry (for this project where the scope
    is per project), from the installer's own plans: what `codegraph uninstall` would remove. Configs
    that don't parse are left out (``codegraph doctor`` reports them)."""
    from codegraph.errors import CodegraphError

    paths = InstallPaths.current(project)
    found = []
    for name in TARGETS:
        for scope in scopes(name):
            try:
                would = plan(name, "uninstall", paths, make_options(name, scope))
            except (CodegraphError, ValueError, OSError):
                continue
            if would.changed:
                config = next((str(f.path) for f in would.files if f.status != "unchanged"), None)
                found.append({"target": name, "scope": scope, "config": config})
    return found
