"""``codegraph install|uninstall|doctor``: parse → call codegraph_installer → render (text or --json)."""

from __future__ import annotations

import json
import sys

import click

from codegraph.errors import CodegraphError

TARGET_NAMES = ("claude", "codex", "cursor", "gemini", "opencode", "vscode")


class UsageProblem(CodegraphError):
    exit_code = 2


def _paths(path: str | None):
    from codegraph_installer.paths import InstallPaths

    return InstallPaths.current(path)


def _options(
    target, scope, prewarm=False, redirect_reads=False, replace=False, auto_allow=True, frontload=False
):
    from codegraph_installer.targets import make_options

    try:
        return make_options(
            target,
            scope,
            prewarm=prewarm,
            redirect_reads=redirect_reads,
            frontload=frontload,
            replace=replace,
            auto_allow=auto_allow,
        )
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None


_DONE = {"create": "created", "update": "updated", "delete": "deleted"}


def _render(outcome, as_json: bool, dry_run: bool, *, label: str | None = None) -> None:
    """One outcome as text: what changed in which file (past tense once written, "would …" in a dry
    run), the backups, the notes. ``label`` (uninstall: the scope) heads the block."""
    plan = outcome.plan
    if as_json:
        click.echo(json.dumps(outcome.to_json(), indent=2))
        return
    changes = [c for c in plan.files if c.status != "unchanged"]
    if dry_run:
        for change in changes:
            click.echo(change.diff(), nl=False)
    if label:
        click.echo(f"{label}:" if changes else f"{label}: nothing of codegraph's to remove")
    for change in changes:
        status = f"would {change.status}" if dry_run else _DONE[change.status]
        click.echo(f"  {status:<7}  {change.path}")
    for backup in outcome.backups:
        click.echo(f"  {'backup':<7}  {backup}")
    for note in plan.notes:
        click.echo(f"note: {note}")


def _confirm(outcome_plan, yes: bool) -> bool:
    if yes or not sys.stdin.isatty() or not outcome_plan.changed:
        return True
    for change in outcome_plan.files:
        click.echo(change.diff(), nl=False)
    return click.confirm("Write these changes?", default=True)


_scope = click.option(
    "--scope", type=click.Choice(["user", "project", "local"]), help="Default: the target's usual."
)
_path = click.option(
    "--path", "path", type=click.Path(file_okay=False), help="Project directory (default: cwd)."
)
_json = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


@click.command()
@click.argument("target", type=click.Choice(TARGET_NAMES), required=False)
@_scope
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="Without TARGET: every agent codegraph supports, not only those found on this machine.",
)
@click.option(
    "--prewarm",
    is_flag=True,
    help="Claude, Gemini: SessionStart hook that starts the daemon / background index.",
)
@click.option(
    "--redirect-reads",
    is_flag=True,
    help="Claude: PreToolUse, Gemini: AfterTool hook suggesting codegraph for big file reads.",
)
@click.option(
    "--frontload",
    is_flag=True,
    help="Claude: UserPromptSubmit, Gemini: BeforeAgent hook adding explore's source for prompts that "
    "name indexed code (off per shell: CODEGRAPH_NO_PROMPT_HOOK=1).",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Overwrite a `codegraph` server entry codegraph did not write (uninstall puts it back).",
)
@click.option(
    "--no-auto-allow",
    "no_auto_allow",
    is_flag=True,
    help="Let the agent ask before each codegraph call: Claude gets no `mcp__codegraph__*` allow rule, "
    'Gemini no `"trust": true` on the entry.',
)
@click.option("--dry-run", is_flag=True, help="Print the unified diff; write nothing.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before writing.")
@_path
@_json
def install(
    target,
    scope,
    every,
    prewarm,
    redirect_reads,
    frontload,
    replace,
    no_auto_allow,
    dry_run,
    yes,
    path,
    as_json,
):
    """Register codegraph's MCP server with an agent (for Claude and Gemini with auto-allow of its
    read-only tools; for Claude optionally hooks).

    Without TARGET: finds the agents on this machine (their command on PATH or their configuration
    folder in your home) and, after one confirmation, installs for each (--all: every supported agent;
    --yes: no question). An existing `codegraph` entry that codegraph did not write is refused (exit 6)
    unless --replace."""
    from codegraph_installer import targets

    paths = _paths(path)
    if target is None:
        _install_many(
            paths,
            scope,
            every,
            prewarm,
            redirect_reads,
            frontload,
            replace,
            no_auto_allow,
            dry_run,
            yes,
            as_json,
        )
        return
    if every:
        raise UsageProblem("--all installs for every agent: give it without a TARGET")
    options = _options(
        target, scope, prewarm, redirect_reads, replace, auto_allow=not no_auto_allow, frontload=frontload
    )
    if not dry_run and not yes and sys.stdin.isatty():
        planned = targets.plan(target, "install", paths, options)
        if not _confirm(planned, yes):
            raise UsageProblem("nothing written")
    outcome = targets.run(target, "install", paths, options, dry_run=dry_run)
    _render(outcome, as_json, dry_run)
    if not as_json:
        scope = f"the {outcome.plan.scope} scope"
        if not outcome.plan.changed:
            click.echo(f"codegraph install {target}: unchanged (already installed in {scope})")
        else:
            click.echo(
                f"codegraph install {target}: {'would install' if dry_run else 'installed'} in {scope}"
            )


@click.command()
@click.argument("target", type=click.Choice(TARGET_NAMES), required=False)
@_scope
@click.option("--dry-run", is_flag=True, help="Print the unified diff; write nothing.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before writing.")
@_path
@_json
def uninstall(target, scope, dry_run, yes, path, as_json):
    """Remove exactly what `codegraph install` added, from every scope unless --scope names one: our
    entries and hooks (recognised by content), and the rules, containers and files install's record says
    it added; an entry --replace overwrote is put back. Without TARGET: from every agent codegraph is
    installed for. --json prints a list, one object per scope."""
    from codegraph_installer import targets

    paths = _paths(path)
    if target is None:
        if scope:
            raise UsageProblem("--scope needs a TARGET")
        _uninstall_many(paths, dry_run, yes, as_json)
        return
    chosen = [scope] if scope else list(targets.scopes(target))
    if not dry_run and not yes and sys.stdin.isatty():
        plans = [targets.plan(target, "uninstall", paths, _options(target, each)) for each in chosen]
        for planned in plans:
            for change in planned.files:
                click.echo(change.diff(), nl=False)
        if any(p.changed for p in plans) and not click.confirm("Write these changes?", default=True):
            raise UsageProblem("nothing written")
    outcomes = [
        targets.run(target, "uninstall", paths, _options(target, each), dry_run=dry_run) for each in chosen
    ]
    if as_json:
        click.echo(json.dumps([o.to_json() for o in outcomes], indent=2))
        return
    for outcome in outcomes:
        _render(outcome, False, dry_run, label=f"{outcome.plan.scope} scope")
    changed = [o.plan.scope for o in outcomes if o.plan.changed]
    if changed:
        verb = "would remove" if dry_run else "removed"
        click.echo(
            f"codegraph uninstall {target}: {verb} from the {', '.join(changed)} scope{'s' if len(changed) > 1 else ''}"
        )
    else:
        click.echo(f"codegraph uninstall {target}: nothing to remove in any scope")


def _install_many(
    paths, scope, every, prewarm, redirect_reads, frontload, replace, no_auto_allow, dry_run, yes, as_json
):
    """``install`` without a target: the agents found (or all), one confirmation, one outcome each; a
    refused config (exit 6) does not stop the others."""
    from codegraph_installer import targets
    from codegraph_installer.detect import detect

    if scope:
        raise UsageProblem("--scope needs a TARGET (each agent gets its usual scope)")
    if every:
        chosen = [(name, "--all") for name in TARGET_NAMES]
    else:
        chosen = [(f.target, f.why) for f in detect(paths)]
    if not chosen:
        raise UsageProblem(
            "no agent found on this machine (none of their commands on PATH, no configuration folder in "
            f"your home); name one: codegraph install <{'|'.join(TARGET_NAMES)}>, or --all"
        )

    def options_for(name):
        hooks = name in targets.HOOK_TARGETS
        return _options(
            name,
            None,
            prewarm and hooks,
            redirect_reads and hooks,
            replace,
            auto_allow=not no_auto_allow,
            frontload=frontload and hooks,
        )

    if not dry_run and not yes and sys.stdin.isatty() and not as_json:
        click.echo("codegraph will be installed for:")
        for name, why in chosen:
            click.echo(f"  {name:<9} ({why})")
        if not click.confirm("Install for these agents?", default=True):
            raise UsageProblem("nothing written")
    results, failed = [], []
    for name, _ in chosen:
        try:
            outcome = targets.run(name, "install", paths, options_for(name), dry_run=dry_run)
        except CodegraphError as exc:
            failed.append(exc)
            results.append({"target": name, "error": type(exc).__name__, "message": str(exc)})
            if not as_json:
                click.echo(f"codegraph install {name}: refused: {exc}", err=True)
            continue
        results.append(outcome.to_json())
        if not as_json:
            _render(outcome, False, dry_run)
            state = (
                "unchanged (already installed)"
                if not outcome.plan.changed
                else ("would install" if dry_run else "installed")
            )
            click.echo(f"codegraph install {name}: {state} in the {outcome.plan.scope} scope")
    if as_json:
        click.echo(json.dumps(results, indent=2))
    if failed:
        sys.exit(max(e.exit_code for e in failed))


def _uninstall_many(paths, dry_run, yes, as_json):
    """``uninstall`` without a target: every agent and scope where a plan finds codegraph's entries."""
    from codegraph_installer import targets

    found = []
    for name in TARGET_NAMES:
        for each in targets.scopes(name):
            planned = targets.plan(name, "uninstall", paths, _options(name, each))
            if planned.changed:
                found.append((name, each, planned))
    if not found:
        if as_json:
            click.echo("[]")
        else:
            click.echo("codegraph uninstall: codegraph is not installed for any agent here")
        return
    if not dry_run and not yes and sys.stdin.isatty() and not as_json:
        click.echo("codegraph will be removed from:")
        for name, each, planned in found:
            click.echo(
                f"  {name:<9} {each} scope: {', '.join(str(f.path) for f in planned.files if f.status != 'unchanged')}"
            )
        if not click.confirm("Remove codegraph from these agents?", default=True):
            raise UsageProblem("nothing written")
    outcomes = [
        targets.run(name, "uninstall", paths, _options(name, each), dry_run=dry_run)
        for name, each, _ in found
    ]
    if as_json:
        click.echo(json.dumps([o.to_json() for o in outcomes], indent=2))
        return
    for outcome in outcomes:
        _render(outcome, False, dry_run, label=f"{outcome.plan.target} {outcome.plan.scope} scope")
    verb = "would remove" if dry_run else "removed"
    click.echo(
        f"codegraph uninstall: {verb} from "
        + ", ".join(f"{o.plan.target} ({o.plan.scope})" for o in outcomes)
    )


@click.command()
@click.argument("target", type=click.Choice(TARGET_NAMES), required=False)
@click.option("--no-connect", is_flag=True, help="Skip the MCP handshake.")
@click.option("--timeout", type=float, default=15.0, show_default=True, help="Handshake timeout, seconds.")
@_path
@_json
def doctor(target, no_connect, timeout, path, as_json):
    """Check agent configs, a real MCP handshake, hooks, index freshness and folder trust."""
    from codegraph_installer.doctor import agents_present, index_report
    from codegraph_installer.doctor import doctor as run_doctor

    paths = _paths(path)
    names = [target] if target else list(TARGET_NAMES)
    reports = [run_doctor(name, paths, connect=not no_connect, timeout=timeout) for name in names]
    if not target:  # without a target, report only the agents codegraph is installed for
        installed = [r for r in reports if any(c.name.startswith("config") and c.ok for c in r.checks)]
        if not installed:
            # Nothing to diagnose for agents (exit 1), but the index still gets its check (issue 9).
            index = index_report(paths)
            if as_json:  # --json always prints JSON: every agent's report, each saying "not installed"
                click.echo(json.dumps([r.to_json() for r in [*reports, index]], indent=2))
            else:
                present = agents_present(paths)
                if present:
                    hint = f"run `codegraph install {present[0]}` (agents found in your home: {', '.join(present)})"
                else:
                    hint = f"run `codegraph install <agent>` ({', '.join(TARGET_NAMES)})"
                click.echo(f"codegraph is not installed for any agent here; {hint}")
                _print_reports([index])
            sys.exit(1)
        reports = installed
    if as_json:
        click.echo(json.dumps([r.to_json() for r in reports], indent=2))
    else:
        _print_reports(reports)
    if not all(r.ok for r in reports):
        sys.exit(1)


def _print_reports(reports) -> None:
    marks = {True: "ok", False: "FAIL", None: "--"}
    for report in reports:
        click.echo(f"{report.target}:")
        for check in report.checks:
            click.echo(f"  {marks[check.ok]:>4}  {check.name}: {check.detail}")


@click.command()
@click.argument("path", required=False, type=click.Path(file_okay=False))
@click.option("--yes", "-y", is_flag=True, help="Do not ask first (needed when stdin is not a terminal).")
@_json
def uninit(path, yes, as_json):
    """Remove codegraph from a project: delete .codegraph/ (the index) and the git hook lines codegraph
    added, and stop the project's daemon. Asks first; agent configs stay (see `codegraph uninstall`)."""
    from codegraph_installer import uninit as uninit_mod

    planned = uninit_mod.plan(path)
    if planned.empty:
        if as_json:
            click.echo(json.dumps({**_uninit_data(planned), "done": True}, indent=2))
        else:
            click.echo(
                f"codegraph uninit: nothing to remove in {planned.root} (no .codegraph/, no codegraph git hooks)"
            )
        return
    if not yes:
        if not sys.stdin.isatty():
            raise uninit_mod.UninitRefused("not removing anything without a confirmation: pass --yes")
        _print_uninit(planned, "would remove")
        if not click.confirm(f"Remove codegraph from {planned.root}?", default=False):
            raise uninit_mod.UninitRefused("nothing removed")
    result = uninit_mod.apply(path)
    if as_json:
        click.echo(json.dumps(_uninit_data(result), indent=2))
    else:
        _print_uninit(result, "removed")
        click.echo(f"codegraph uninit: codegraph removed from {result.root}")


def _uninit_data(result) -> dict:
    return {
        "root": result.root,
        "index": result.index,
        "hooks": result.hooks,
        "daemons_stopped": result.daemons,
        "done": result.done,
    }


def _print_uninit(result, verb: str) -> None:
    if result.index:
        click.echo(f"  {verb}  {result.index}")
    for hook in result.hooks:
        what = "the codegraph lines of" if hook["status"] == "update" else "git hook"
        if hook["status"] == "pending":
            what = "codegraph's lines in"
        click.echo(f"  {verb}  {what} {hook['path']}")
    for pid in result.daemons:
        click.echo(f"  stopped  daemon pid {pid}")


COMMANDS = [install, uninstall, doctor, uninit]
