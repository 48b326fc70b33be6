"""Query commands: thin wrappers that open the index, call one query function and render it."""

from __future__ import annotations

import click

from codegraph import bounds
from codegraph.cli.progress import say_waiting
from codegraph.config import load_config
from codegraph.errors import SymbolNotFound
from codegraph.index.background import read_progress
from codegraph.index.drift import changed_files
from codegraph.index.repair import read_repairing
from codegraph.query import explore as explore_mod
from codegraph.query import file_view
from codegraph.query.files import files
from codegraph.query.freshness import banner, cited_paths, miss_note
from codegraph.query.impact import impact
from codegraph.query.node import node
from codegraph.query.relations import callees, callers
from codegraph.query.search import search
from codegraph.query.status import StatusResult, check_finished, status
from codegraph.query.trace import trace
from codegraph.render import render, to_data, to_json


def _range(bound: bounds.Bound) -> click.IntRange:
    return click.IntRange(bound.low, bound.high)


class _Confidence(click.FloatRange):
    """A number from 0 to 1. ``nan`` passes FloatRange (every comparison with it is false) and then drops
    every edge in silence (adversarial pass 2026-12-01): refused here."""

    name = "confidence"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail(f"{value!r} is not a number from 0 to 1.", param, ctx)
        return number


_CONFIDENCE = _Confidence(0, 1)


def _run(path, as_json, fn, *args, **kwargs) -> None:
    watched = fn is not _status and _freshen(path)

    def answer(reader):
        with reader.snapshot():  # one committed state, though a daemon's sync commits meanwhile
            return _answer(reader)

    def _answer(reader):
        if fn is _status:
            return fn(reader, *args, **kwargs), [], False
        check_finished(reader)
        try:
            result = fn(reader, *args, **kwargs)
        except SymbolNotFound as exc:
            exc.add_index_note(miss_note(reader, exc.name))  # a miss says when the index is behind
            raise
        changed = changed_files(reader, cited_paths(to_data(result)))
        return result, changed, bool(changed) and read_progress(reader.paths) is not None

    try:
        out = read_repairing(path, answer, on_wait=say_waiting)
    except SymbolNotFound:
        if not watched:
            raise
        out = None  # a miss with a watching daemon: asked again, as a stale answer is
    if out is None or (watched and out[0][1]):
        # the daemon said current, yet the disk differs: its watcher had not yet seen an edit made
        # just before this command (its events were still on their way); ask once more, to walk the
        # tree rather than wait for them, then answer
        _freshen(path, rescan=True)
        out = read_repairing(path, answer, on_wait=say_waiting)
    (result, changed, syncing), repaired = out
    if repaired:
        click.echo(f"codegraph: {repaired}", err=True)
    if changed:
        click.echo(banner(changed, syncing=syncing), err=True)
    click.echo(to_json(result) if as_json else render(result))


def _freshen(path, *, rescan: bool = False) -> bool:
    """With a daemon watching the project, have it sync the edits it has seen before this query reads
    the index (issue 12); its note on stderr when it could not in time. Without one, nothing: the
    answer's "changed on disk" banner says what is stale. True when a watching daemon says the graph
    is current. ``rescan``: see ``service.freshen``."""
    import os
    from pathlib import Path

    from codegraph.errors import CodegraphError
    from codegraph.mcp import service

    try:
        root = service.project_root(Path(path or os.getcwd()))
    except (CodegraphError, OSError):
        return False  # the query itself says what is wrong with the path
    fresh, note = service.freshen(root, rescan=rescan)
    if note:
        click.echo(note, err=True)
    return fresh


def _common(fn):
    fn = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(fn)
    fn = click.option(
        "--path",
        "-p",
        "path",
        type=click.Path(file_okay=False),
        help="Project directory (default: here; the nearest index at or above is used).",
    )(fn)
    return fn


@click.command("search")
@click.argument("text")
@click.option("--kind", help="Only this node kind (function, method, class, …).")
@click.option(
    "--limit", type=_range(bounds.SEARCH_LIMIT), default=bounds.SEARCH_LIMIT.default, show_default=True
)
@_common
def search_cmd(text, kind, limit, path, as_json):
    """Find symbols by name or words."""
    _run(path, as_json, search, text, kind=kind, limit=limit)


query_cmd = click.Command(
    "query", callback=search_cmd.callback, params=search_cmd.params, help="Alias of search."
)


@click.command("callers")
@click.argument("symbol")
@click.option("--file", help="Narrow to definitions in this file (suffix match).")
@click.option(
    "--limit", type=_range(bounds.RELATION_LIMIT), default=bounds.RELATION_LIMIT.default, show_default=True
)
@click.option(
    "--min-confidence",
    type=_CONFIDENCE,
    help="Leave out edges the resolver was less sure of (0-1; name-only matches are 0.5, the top tier 0.9).",
)
@_common
def callers_cmd(symbol, file, limit, min_confidence, path, as_json):
    """Who calls SYMBOL (grouped per definition when ambiguous)."""
    _run(path, as_json, callers, symbol, file=file, limit=limit, min_confidence=min_confidence)


@click.command("callees")
@click.argument("symbol")
@click.option("--file", help="Narrow to definitions in this file (suffix match).")
@click.option(
    "--limit", type=_range(bounds.RELATION_LIMIT), default=bounds.RELATION_LIMIT.default, show_default=True
)
@click.option(
    "--min-confidence",
    type=_CONFIDENCE,
    help="Leave out edges the resolver was less sure of (0-1; name-only matches are 0.5, the top tier 0.9).",
)
@_common
def callees_cmd(symbol, file, limit, min_confidence, path, as_json):
    """What SYMBOL calls."""
    _run(path, as_json, callees, symbol, file=file, limit=limit, min_confidence=min_confidence)


@click.command("impact")
@click.argument("symbol")
@click.option("--file", help="Narrow to definitions in this file (suffix match).")
@click.option(
    "--depth", type=_range(bounds.IMPACT_DEPTH), default=bounds.IMPACT_DEPTH.default, show_default=True
)
@click.option(
    "--min-confidence",
    type=_CONFIDENCE,
    help="Leave out edges the resolver was less sure of (0-1; name-only matches are 0.5, the top tier 0.9).",
)
@_common
def impact_cmd(symbol, file, depth, min_confidence, path, as_json):
    """Blast radius of changing SYMBOL."""
    _run(path, as_json, impact, symbol, file=file, depth=depth, min_confidence=min_confidence)


@click.command("trace")
@click.argument("start")
@click.argument("end")
@click.option(
    "--max-depth", type=_range(bounds.TRACE_DEPTH), default=bounds.TRACE_DEPTH.default, show_default=True
)
@_common
def trace_cmd(start, end, max_depth, path, as_json):
    """How START reaches END: the shortest call path."""
    _run(path, as_json, trace, start, end, max_depth=max_depth)


@click.command("node")
@click.argument("symbol", required=False)
@click.option("--file", "file", help="With SYMBOL: narrow to this file. Alone: show the file as Read would.")
@click.option(
    "--line", type=click.IntRange(min=1), help="Narrow an ambiguous symbol to the one spanning LINE."
)
@click.option("--offset", type=click.IntRange(min=1), help="File view: first line (1-based).")
@click.option(
    "--limit",
    type=_range(bounds.FILE_VIEW_LINES),
    help=f"File view: number of lines (default {bounds.FILE_VIEW_LINES.default}).",
)
@click.option("--symbols-only", is_flag=True, help="File view: the symbol map instead of the source.")
@_common
def node_cmd(symbol, file, line, offset, limit, symbols_only, path, as_json):
    """Show SYMBOL (source, callers, callees) or, with --file only, a file."""
    if symbol:

        def symbol_or_file(reader):
            try:
                return node(reader, symbol, file=file, line=line)
            except SymbolNotFound:
                # `node gin.go`: a file path where a symbol goes shows the file, as --file would
                if file or line or not file_view.names_file(reader.root, reader, symbol):
                    raise
                request = file_view.FileViewRequest(
                    file=symbol, offset=offset, limit=limit, symbols_only=symbols_only
                )
                return file_view.file_view(reader.root, reader, request)

        _run(path, as_json, symbol_or_file)
    elif file:
        request = file_view.FileViewRequest(file=file, offset=offset, limit=limit, symbols_only=symbols_only)
        _run(path, as_json, lambda reader: file_view.file_view(reader.root, reader, request))
    else:
        raise click.UsageError("give a SYMBOL, or --file PATH for the file view")


@click.command("files")
@click.argument("filter", required=False)
@click.option(
    "--limit", type=_range(bounds.FILES_LIMIT), default=bounds.FILES_LIMIT.default, show_default=True
)
@_common
def files_cmd(filter, limit, path, as_json):
    """List indexed files (optionally under a folder or matching a substring)."""
    _run(path, as_json, files, filter, limit=limit)


@click.command("status")
@_common
def status_cmd(path, as_json):
    """Index health: counts, languages, skipped files (by reason, with an example), unresolved references,
    the daemon and its watcher, the agents codegraph is installed for, and what changed on disk since the
    last index."""
    _run(path, as_json, _status)


@click.command("explore")
@click.argument("question")
@click.option(
    "--max-chars", type=_range(bounds.EXPLORE_BUDGET), help="Envelope budget (default: by repo size)."
)
@_common
def explore_cmd(question, max_chars, path, as_json):
    """Answer QUESTION with the most relevant current source (an envelope)."""
    _run(
        path,
        as_json,
        lambda r: explore_mod.explore(
            r, question, max_chars=max_chars, extra_vocab=load_config(r.root).vocabulary
        ),
    )


@click.command("context")
@click.argument("task")
@click.option(
    "--limit", type=_range(bounds.CONTEXT_LIMIT), default=bounds.CONTEXT_LIMIT.default, show_default=True
)
@_common
def context_cmd(task, limit, path, as_json):
    """TASK in plain words (English or Chinese) → the most relevant symbols."""
    _run(
        path,
        as_json,
        lambda r: explore_mod.context(r, task, limit=limit, extra_vocab=load_config(r.root).vocabulary),
    )


@click.command("affected")
@click.argument("files", nargs=-1)
@click.option("--stdin", "from_stdin", is_flag=True, help="Also read changed paths from stdin, one a line.")
@click.option(
    "--since",
    metavar="REV",
    help="Use git: every file changed between REV and the working tree (committed, staged, unstaged, "
    "untracked), narrowed to the changed lines.",
)
@_common
def affected_cmd(files, from_stdin, since, path, as_json):
    """Which tests and callers a change touches.

    Lists the test files that depend (through imports, calls, inheritance, transitively) on the changed
    FILES, the other files that depend on them, and the changed symbols with their callers. With no
    FILES, --stdin or --since, the uncommitted changes (`--since HEAD`) are used. Paths are relative to
    the current directory or to the project root.

    \b
    codegraph affected src/app/models.py
    git diff --name-only main | codegraph affected --stdin
    codegraph affected --since origin/main --json | jq -r '.tests[]'
    """
    import os

    from codegraph.query import affected as affected_mod

    names = list(files)
    if from_stdin:
        # bytes, not text: `git diff --name-only` prints a name that is not UTF-8 as it is (shown
        # \xNN-escaped, as discovery lists it among the skips); decoding it as text raised
        piped = click.get_binary_stream("stdin").read().decode("utf-8", "backslashreplace")
        names += [line.strip() for line in piped.splitlines() if line.strip()]
    if since is None and not files and not from_stdin:
        since = "HEAD"
    cwd = os.getcwd()

    def run(reader):
        lines = None
        found = list(names)
        if since is not None:
            changed, lines = affected_mod.changes_since(reader.root, since)
            found += [str(reader.root / p) for p in changed]
        return affected_mod.affected(reader, found, cwd=cwd, lines=lines, since=since)

    _run(path, as_json, run)


COMMANDS = [
    affected_cmd,
    search_cmd,
    query_cmd,
    callers_cmd,
    callees_cmd,
    impact_cmd,
    trace_cmd,
    node_cmd,
    files_cmd,
    status_cmd,
    explore_cmd,
    context_cmd,
]


def _status(reader) -> StatusResult:
    """``status`` with what only this layer knows: the daemon serving the project, the agents it is
    installed for."""
    from codegraph_installer.targets import installed_for

    from codegraph.mcp import service

    return status(reader, daemon=service.summary(reader.root), agents=installed_for(reader.root))
