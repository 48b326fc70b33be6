"""``codegraph init|index|sync``: build and update the index."""

from __future__ import annotations

import json
import sys

import click

from codegraph.index.indexer import IndexSummary, index_project
from codegraph.paths import find_root, init_root


def _progress():
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        sys.stderr.write(f"\rparsing {done}/{total} files")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _report(summary: IndexSummary, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(summary.__dict__, indent=2))
    else:
        click.echo(summary.line(), err=True)


_common = [
    click.argument("path", required=False, type=click.Path(file_okay=False)),
    click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON on stdout."),
    click.option("--max-bytes", type=click.IntRange(min=1), default=1_000_000, show_default=True,
                 help="Skip files larger than this."),
    click.option("--verify", type=click.Choice(["mtime", "hash"]), default="mtime", show_default=True,
                 help="How unchanged files are recognised: size+mtime, or also sha256."),
]


def _options(fn):
    for decorator in reversed(_common):
        fn = decorator(fn)
    return fn


@click.command()
@_options
@click.option("--force", is_flag=True, help="Allow indexing / , your home directory or its parents.")
def init(path, as_json, max_bytes, verify, force):
    """Create .codegraph/ in PATH (default: here) and build the index."""
    paths = init_root(path, force=force)
    _report(index_project(paths, max_bytes=max_bytes, verify_hash=verify == "hash", progress=_progress()),
            as_json)


@click.command()
@_options
@click.option("--force", is_flag=True, help="Allow indexing / , your home directory or its parents.")
def index(path, as_json, max_bytes, verify, force):
    """Rebuild the index from scratch (every file re-parsed)."""
    paths = init_root(path, force=force)
    _report(index_project(paths, full=True, max_bytes=max_bytes, progress=_progress()), as_json)


@click.command()
@_options
def sync(path, as_json, max_bytes, verify):
    """Update the index: re-parse changed files only, re-resolve every edge."""
    paths = find_root(path)
    _report(index_project(paths, max_bytes=max_bytes, verify_hash=verify == "hash", progress=_progress()),
            as_json)


COMMANDS = [init, index, sync]
