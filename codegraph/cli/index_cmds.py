"""``codegraph init|index|sync``: build and update the index, in the foreground or detached."""

from __future__ import annotations

import json
import sys

import click

from codegraph.cli.progress import say_waiting
from codegraph.errors import IndexInterrupted
from codegraph.index import background
from codegraph.index.indexer import IndexSummary, index_project
from codegraph.paths import ProjectPaths, find_root, init_root


def _report(summary: IndexSummary, as_json: bool) -> None:
    for warning in summary.warnings():  # on stderr in both modes: --json stdout holds the summary only
        click.echo(warning, err=True)
    if as_json:
        click.echo(json.dumps(summary.__dict__, indent=2))
    else:
        click.echo(summary.line(), err=True)


def _options(fn):
    options = [
        click.argument("path", required=False, type=click.Path(file_okay=False)),
        click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON on stdout."),
        click.option(
            "--max-bytes",
            type=click.IntRange(min=1),
            default=1_000_000,
            show_default=True,
            help="Skip files larger than this.",
        ),
        click.option(
            "--verify",
            type=click.Choice(["mtime", "hash"]),
            default="mtime",
            show_default=True,
            help="How unchanged files are recognised: size+mtime, or also sha256 (init/sync; index re-parses all).",
        ),
        click.option(
            "--background",
            is_flag=True,
            help="Run detached and return at once (joins a run already going); see `codegraph status`.",
        ),
        click.option(
            "--auto-background",
            is_flag=True,
            help="Run detached only above CODEGRAPH_BACKGROUND_THRESHOLD source files (default 1000); "
            "for tools and hooks.",
        ),
        click.option("--background-child", is_flag=True, hidden=True),
    ]
    for decorator in reversed(options):
        fn = decorator(fn)
    return fn


def _run(command: str, paths: ProjectPaths, opts: dict, *, full: bool) -> None:
    try:
        _run_index(command, paths, opts, full=full)
    except KeyboardInterrupt:
        if sys.stderr.isatty():
            sys.stderr.write("\n")  # end the progress line the ^C was echoed on
        if not paths.db.exists():  # `sync` would answer "no index here": name the command that works
            raise IndexInterrupted(
                f"interrupted before an index was created; `codegraph init {paths.root}` builds it"
            ) from None
        raise IndexInterrupted(
            "interrupted; nothing was written, the index is as it was before this run "
            "(`codegraph sync` brings it up to date)"
        ) from None


def _run_index(command: str, paths: ProjectPaths, opts: dict, *, full: bool) -> None:
    if opts["auto_background"] and not opts["background"]:
        from codegraph.config import load_config
        from codegraph.index.discover import discover

        config = load_config(paths.root)
        found = discover(
            paths.root, exclude=config.exclude, include=config.include, extensions=config.extensions
        )
        opts["background"] = len(found.files) > background.BACKGROUND_THRESHOLD
    if opts["background"] and not opts["background_child"]:
        started = background.start_background(paths, command)
        verb = "joined the index run already going" if started.joined else "indexing in the background"
        click.echo(
            f"{verb} (pid {started.pid}) for {paths.root}; `codegraph status` shows progress", err=True
        )
        return
    kwargs = dict(full=full, max_bytes=opts["max_bytes"], verify_hash=opts["verify"] == "hash", check=True)
    if opts["background_child"]:
        if not background.try_lock(paths):
            return  # another run holds the lock: this request joins it
        try:
            index_project(paths, progress=background.progress_writer(paths), **kwargs)
        finally:
            background.release_lock(paths)
        return
    from codegraph.cli import progress as progress_mod

    shown = progress_mod.TerminalProgress() if progress_mod.wanted(opts["as_json"]) else None
    with background.index_lock(paths, on_wait=say_waiting):
        try:
            if shown is None:
                summary = index_project(paths, **kwargs)
            else:
                summary = index_project(paths, progress=shown.progress, phase=shown.phase, **kwargs)
        finally:
            if shown is not None:
                shown.close()
    _report(summary, opts["as_json"])


@click.command()
@_options
@click.option("--force", is_flag=True, help="Allow indexing / , your home directory or its parents.")
def init(path, force, **opts):
    """Create .codegraph/ in PATH (default: here) and build the index."""
    _run("init", init_root(path, force=force), opts, full=False)


@click.command()
@_options
@click.option("--force", is_flag=True, help="Allow indexing / , your home directory or its parents.")
def index(path, force, **opts):
    """Rebuild the index from scratch (every file re-parsed)."""
    _run("index", init_root(path, force=force), opts, full=True)


@click.command()
@_options
def sync(path, **opts):
    """Update the index: re-parse changed files only, re-resolve every edge."""
    _run("sync", find_root(path), opts, full=False)


COMMANDS = [init, index, sync]
