"""The one place results become text or JSON. CLI and MCP both call :func:`render` / :func:`to_data`,
so human text and ``--json`` never drift apart (MCP answers carry the text only)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from codegraph.echo import echoed
from codegraph.model import Node
from codegraph.paths import plural, quote_path, skip_count
from codegraph.query import affected, explore, file_view
from codegraph.query.files import FilesResult
from codegraph.query.impact import ImpactResult
from codegraph.query.node import NodeResult
from codegraph.query.relations import RelationResult
from codegraph.query.search import SearchResult
from codegraph.query.status import StatusResult, ever_completed, touched_note
from codegraph.query.trace import MAX_TRACE_DEPTH, TraceResult


def to_data(result) -> dict:
    """A JSON-safe dict of any result dataclass (nodes become plain dicts); an explore envelope is
    fitted to its budget first, as its text is."""

    def conv(value):
        if dataclasses.is_dataclass(value):
            return {f.name: conv(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, dict):
            return {str(k): conv(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [conv(v) for v in value]
        return value

    if isinstance(result, explore.ExploreResult):
        result = fit_envelope(result)
    return conv(result)


def to_json(result) -> str:
    return json.dumps(to_data(result), indent=2, ensure_ascii=False)


def _loc(n: Node, line: int | None = None) -> str:
    return f"{quote_path(n.file_path)}:{line or n.start_line}"


def _name(n: Node) -> str:
    return f"{n.qualified_name} ({n.kind})"


def render(result) -> str:
    """Human/agent text for a result object."""
    fn = _RENDERERS.get(type(result))
    if fn is None:
        raise TypeError(f"no renderer for {type(result).__name__}")
    return fn(result)


def _relation(r: RelationResult) -> str:
    out = []
    verb = "called by" if r.operation == "callers" else "calls"
    multiple = len(r.groups) > 1
    if multiple:
        out.append(
            f"'{echoed(r.symbol)}' names {len(r.groups)} definitions; answers are grouped per definition."
        )
    for g in r.groups:
        d = g.definition
        declared = "".join(f" (declared at {_loc(p)})" for p in g.declarations)
        out.append(
            f"{_name(d)} {quote_path(d.file_path)}:{d.start_line}-{d.end_line}{declared} — {verb} {g.total}:"
        )
        if not g.sites:
            hint = (
                "no resolved callers in the project"
                if r.operation == "callers"
                else "no calls into project code (calls to libraries and untyped receivers stay unresolved)"
            )
            out.append(f"  ({hint})")
        rows: list[str] = []
        for s in g.sites:
            new = " [new]" if s.kind == "instantiates" else ""
            if s.doubt:
                new += f" [{s.doubt}]"
            if r.operation == "callers":
                rows.append(f"  {_name(s.node)}  {_loc(s.node, s.line)}{new}")
            else:
                rows.append(f"  {_name(s.node)}  {_loc(s.node)}  (line {s.line}){new}")
        for row, n in _runs(rows):  # two calls on one line are one row
            out.append(row if n == 1 else f"{row}  ×{n}")
        if g.total > len(g.sites):
            out.append(f"  … {g.total - len(g.sites)} more (raise --limit)")
    return "\n".join(out)


def _runs(rows: list[str]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for row in rows:
        if out and out[-1][0] == row:
            out[-1] = (row, out[-1][1] + 1)
        else:
            out.append((row, 1))
    return out


def _impact(r: ImpactResult) -> str:
    out = [f"Blast radius of {', '.join(_name(d) for d in r.definitions)}:"]
    if not r.by_depth:
        out.append("  nothing in the project reaches it (no resolved callers, subclasses or references)")
    for depth, nodes in sorted(r.by_depth.items()):
        out.append(f"depth {depth} ({len(nodes)}):")
        out += [
            f"  {_name(n)}  {_loc(n)}" + (f"  [{r.doubtful[n.id]}]" if n.id in r.doubtful else "")
            for n in nodes
        ]
    out.append(f"files affected ({len(r.files)}): " + (", ".join(map(quote_path, r.files)) or "none"))
    out.append(f"tests affected ({len(r.tests)}): " + (", ".join(map(quote_path, r.tests)) or "none found"))
    return "\n".join(out)


def _trace(r: TraceResult) -> str:
    start, end = echoed(r.start), echoed(r.end)
    if not r.path and r.reverse_exists:
        return (
            f"No call path from '{start}' to '{end}', but '{end}' reaches '{start}': swap them "
            f"(`trace {end} {start}`)."
        )
    if not r.path and r.depth_limited:
        return (
            f"No call path from '{start}' to '{end}' within {r.max_depth} calls: the search stopped at "
            f"the depth limit with calls left to follow ({plural(r.searched, 'symbol')} reached). Raise the limit "
            f"(`--max-depth`, MCP `maxDepth`; at most {MAX_TRACE_DEPTH}) to search further."
        )
    if not r.path:
        return (
            f"No call path from '{start}' to '{end}' within the search ({plural(r.searched, 'symbol')} reached). "
            "Calls through untyped receivers or dynamic dispatch are not in the graph."
        )
    out = [f"{start} → {end} ({len(r.path) - 1} hops):"]
    for i, s in enumerate(r.path):
        via = f" (called at line {s.line})" if i and s.line else ""
        out.append(f"  {i}. {_name(s.node)}  {_loc(s.node)}{via}")
    return "\n".join(out)


def _search(r: SearchResult) -> str:
    if not r.hits:
        return f"No symbol matches '{echoed(r.query)}'."
    return "\n".join(
        f"{_name(n)}  {_loc(n)}" + (f"  {n.signature}" if n.signature else "") for n, _ in r.hits
    )


def _files(r: FilesResult) -> str:
    out = [f"{quote_path(f['path'])}  ({f['language']}, {plural(f['symbols'], 'symbol')})" for f in r.files]
    if r.total > len(r.files):
        out.append(f"… {r.total - len(r.files)} more (raise --limit)")
    if not r.files:
        out.append(
            f"No indexed file matches '{echoed(r.filter)}'." if r.filter else "The index holds no files."
        )
    for path, why in r.skipped.items():
        out.append(f"skipped: {quote_path(path)} — {why}")
    return "\n".join(out)


def _status(r: StatusResult) -> str:
    c = r.counts
    m = r.metadata
    out = [
        f"root: {quote_path(str(r.root))}",
        f"index: {plural(c['files'], 'file')}, {plural(c['nodes'], 'node')}, {plural(c['edges'], 'edge')}, "
        f"{plural(c['unresolved'], 'unresolved reference')}",
        _status_state(r),
        "languages: " + (", ".join(f"{k} {plural(v, 'file')}" for k, v in r.languages.items()) or "none"),
    ]
    if r.empty:
        out.append(f"why empty: {r.empty}")
    if r.partial:
        out.append(
            "parsed with syntax errors (partial extraction; macros or syntax the grammar lacks): "
            + ", ".join(
                f"{lang} {v['count']} (e.g. {quote_path(v['example'])})" for lang, v in r.partial.items()
            )
        )
    if r.unresolved:
        likely = sum(v.get("likely_internal", 0) for v in r.unresolved.values())
        per = ", ".join(
            f"{lang} {v.get('unresolved', 0)} ({v.get('likely_internal', 0)})"
            for lang, v in sorted(r.unresolved.items())
        )
        out.append(
            f"unresolved calls that look project-internal: {likely} — per language, all (internal): {per}"
        )
    if r.running:
        done, total = r.running.get("done"), r.running.get("total")
        where = f" ({done}/{total} files parsed)" if total else ""
        answers = (
            "the answers below come from the last complete index until it finishes"
            if ever_completed(m)
            else "this is the first run: queries answer once it finishes"
        )
        out.append(
            f"indexing now: pid {r.running['pid']}, {r.running.get('phase', 'running')}{where}; {answers}"
        )
    elif not ever_completed(m):
        out.append(
            "note: the index is unfinished: the first index run was interrupted and no index run is going "
            "now; run `codegraph sync` to finish it"
        )
    elif m.get("index_state") == "indexing":
        out.append(
            "note: the last sync was interrupted (no index run is going now); the last complete index "
            "answers — run `codegraph sync` to bring it up to date"
        )
    elif m.get("index_state") == "failed":
        out.append(
            "note: the last index run failed; this is the last complete index — see `codegraph sync` output"
        )
    if r.unresolved_kinds:
        out.append(
            "unresolved: " + ", ".join(f"{v} {k}" for k, v in r.unresolved_kinds.items())
            + " (calls into libraries, builtins and untyped receivers stay unresolved)"
        )  # fmt: skip
    for reason, info in r.skipped.items():
        count = skip_count(info["count"], info.get("folders", 0))
        out.append(f"skipped: {count} ({reason}), e.g. {quote_path(info['example'])}")
    for path, why in r.manifests.items():
        out.append(f"manifest not read: {quote_path(path)} — {why}; imports it would map stay unresolved")
    if r.daemon:
        d = r.daemon
        watch = "watching for edits" if d.get("watching") else f"not watching: {d.get('watch_note')}"
        out.append(
            f"daemon: pid {d.get('pid')}, up {d.get('uptime')} s, {plural(d.get('clients', 0), 'client')}; {watch}"
        )
    else:
        out.append("daemon: not running (an agent's MCP session starts it; `codegraph daemon start`)")
    if r.agents:
        out.append("agents: " + ", ".join(f"{a['target']} ({a['scope']})" for a in r.agents))
    else:
        out.append("agents: codegraph is not installed for any agent (`codegraph install`)")
    if r.running or not ever_completed(m):
        pass  # the run going (or the one to finish) picks the changes up: no list of "added" files
    elif r.added or r.modified or r.deleted:
        out.append(
            f"stale: {len(r.added)} added, {len(r.modified)} modified, {len(r.deleted)} deleted since the "
            "last index — run `codegraph sync`"
        )
        for label, items in (("added", r.added), ("modified", r.modified), ("deleted", r.deleted)):
            out += [f"  {label}: {quote_path(p)}" for p in items[:20]]
    else:
        out.append("fresh: no source file changed since the last index" + touched_note(r.touched))
    return "\n".join(out)


def _status_state(r: StatusResult) -> str:
    """The ``state:`` line: what the stored index is, told apart from what is running now (the index
    lock, ``r.running``). ``index_state`` stays "indexing" after a run that was stopped, so alone it
    does not say a run is going."""
    m = r.metadata
    if r.running:
        done, total = r.running.get("done"), r.running.get("total")
        where = f" ({done}/{total})" if total else ""
        state = f"indexing{where} — answers come from the last complete index"
        if not ever_completed(m):
            state = f"indexing{where} — the first index, none complete yet"
    elif not ever_completed(m):
        return "state: unfinished (no index run has completed here yet)"
    elif m.get("index_state") == "indexing":
        state = "interrupted (the last sync did not finish; the last complete index answers)"
    else:
        state = m.get("index_state", "unknown")
    if not ever_completed(m):
        return f"state: {state}"
    written = m.get("cgpy_indexed_by") or f"codegraph {m['indexed_with_version']}"
    return f"state: {state}; commit {m.get('indexed_at_commit') or '-'}; written by {written}"


def _node(r: NodeResult) -> str:
    d = r.definition
    head = f"{_name(d)} {quote_path(d.file_path)}:{d.start_line}-{d.end_line}"
    if d.signature:
        head += f"  {d.signature}"
    out = [head]
    if d.docstring:
        out.append(f"doc: {d.docstring[:300]}")
    out.append(r.note or r.source)
    if r.members:
        out.append(f"members ({len(r.members)}):")
        out += [
            f"  {m.start_line}\t{m.name} ({m.kind}){' ' + m.signature if m.signature else ''}"
            for m in r.members[:80]
        ]
    out.append(f"called by ({r.callers_total}):" + ("" if r.callers else " none resolved"))
    out += [
        f"  {_name(s.node)}  {_loc(s.node, s.line)}" + (f"  [{s.doubt}]" if s.doubt else "")
        for s in r.callers
    ]
    out.append(f"calls ({r.callees_total}):" + ("" if r.callees else " none resolved"))
    out += [f"  {_name(s.node)}  {_loc(s.node)}" for s in r.callees]
    if r.others:
        out.append(
            "other definitions of this name: "
            + "; ".join(f"{o.qualified_name} {_loc(o)}" for o in r.others[:10])
        )
    return "\n".join(out)


def _explore(r: explore.ExploreResult) -> str:
    return _explore_text(fit_envelope(r))


def fit_envelope(envelope: explore.ExploreResult) -> explore.ExploreResult:
    """A copy of ``envelope`` whose rendering fits its ``budget`` (characters). The least relevant
    material goes first: the left-out symbols beyond ``explore.LEFT_OUT_KEPT`` files; then source
    spans, the one the packer chose last first (each named under "Left out"; a section left without
    spans is named in "not shown"), down to the best span of each of the first
    ``explore.FIRST_PASS_FILES`` sections; then the lists (left out, not shown, the blast radius);
    then those spans; then the rest. The budget counts rendered characters, so fitting is the
    renderer's.

    Whole sections used to go from the end first: explore's estimate of the text around the source
    runs ~1,000–2,400 characters short, and that took the 3rd-ranked file's only span (indexer.py
    for "how does the indexer resolve an imported call") while the 1st-ranked kept nine small ones."""
    result = dataclasses.replace(
        envelope,
        seeds=list(envelope.seeds),
        sections=list(envelope.sections),
        not_shown=list(envelope.not_shown),
        left_out=dict(envelope.left_out),
        blast=list(envelope.blast),
        flow=list(envelope.flow),
        trimmed={path: list(spans) for path, spans in envelope.trimmed.items()},
    )
    while len(_explore_text(result)) > result.budget:
        if len(result.left_out) > explore.LEFT_OUT_KEPT:
            result.left_out.pop(next(reversed(result.left_out)))
        elif _trim_last_chosen(result, keep=explore.FIRST_PASS_FILES):
            pass
        elif result.left_out:
            result.left_out.pop(next(reversed(result.left_out)))
        elif result.not_shown:
            result.not_shown.pop()
        elif any(sites for _, sites, _ in result.blast):
            result.blast = [
                (seed, sites[: len(sites) // 2], tests[:1]) for seed, sites, tests in result.blast
            ]
        elif result.blast:
            result.blast.pop()
        elif _trim_last_chosen(result, keep=0):
            pass
        elif result.trimmed:
            result.trimmed.pop(next(reversed(result.trimmed)))
        elif result.flow or result.flow_note:
            result.flow, result.flow_note = [], ""
        else:
            result.seeds = result.seeds[: max(0, len(result.seeds) - 1)]
            if not result.seeds:
                return result
    return result


def _trim_last_chosen(result: explore.ExploreResult, *, keep: int) -> bool:
    """Take the source span the packer chose last out of ``result`` (into ``trimmed``), never the
    best span of one of the first ``keep`` sections; a section left without spans moves to the front
    of "not shown". False when no span may go."""
    kept = {
        (i, min(range(len(sec.spans)), key=lambda k: sec.spans[k].order))
        for i, sec in enumerate(result.sections[:keep])
    }
    spans = [
        (i, k) for i, sec in enumerate(result.sections) for k in range(len(sec.spans)) if (i, k) not in kept
    ]
    if not spans:
        return False
    at, index = max(spans, key=lambda ik: result.sections[ik[0]].spans[ik[1]].order)
    section = result.sections[at]
    result.trimmed.setdefault(section.path, []).append(section.spans[index])
    if len(section.spans) > 1:
        result.sections[at] = section.without(index)
    else:
        result.sections.pop(at)
        result.not_shown.insert(0, section.score)
    return True


def _explore_text(r: explore.ExploreResult) -> str:
    out = [f"codegraph explore: {echoed(r.question)}"]
    if r.note:
        out.append(r.note)
        return "\n".join(out)
    out.append("Seeds: " + "; ".join(f"{_name(n)} {_loc(n)}" for n in r.seeds[:6]))
    if r.flow:
        out.append("\n## Flow")
        out.append(" → ".join(f"{n.qualified_name} ({_loc(n)})" for n, _ in r.flow))
    elif r.flow_note:
        out.append("\n## Flow")
        out.append(r.flow_note)
    if r.blast:
        out.append("\n## Blast radius (who calls the top symbols shown)")
        for seed, sites, tests in r.blast:
            head = f"- {seed.qualified_name}{_signature(seed)} ({_loc(seed)})"
            if not sites:
                out.append(f"{head}: no resolved callers")
            else:
                total = r.blast_totals.get(seed.id, len(sites))
                extra = (
                    f" ({len(sites)} of {total} call sites; all: `codegraph callers {seed.qualified_name}`)"
                    if total > len(sites)
                    else ""
                )
                out.append(f"{head}, called from{extra}:")
                for n, line in sites:
                    text = r.call_lines.get((n.file_path, line)) if line else None
                    out.append(f"    {n.qualified_name} ({_loc(n, line)})" + (f": {text}" if text else ""))
            if tests:
                out.append(f"    tests: {', '.join(map(quote_path, tests))}")
    out.append("\n## Source (current on disk; each span below is complete)")
    for s in r.sections:
        spans = "whole file" if s.whole else ", ".join(f"lines {sp.start}-{sp.end}" for sp in s.spans)
        out.append(f"\n### {quote_path(s.path)} ({spans})")
        out.append(s.text)
    if r.unavailable:
        out.append("\n## Source not shown (as indexed; `codegraph sync` updates the index)")
        out += [f"- {quote_path(path)} — {why}" for path, why in r.unavailable.items()]
    shown = {s.path for s in r.sections}
    more = [path for path in dict.fromkeys([*r.trimmed, *r.left_out]) if path in shown]
    if r.not_shown or more:
        out.append(
            "\n## Left out (over the budget). The codegraph_node tool (symbol + file; CLI: "
            "`codegraph node SYMBOL --file PATH`) shows any of these whole, with its callers; or ask "
            "explore a narrower question"
        )
        for path in more:
            out.append(f"- more in {quote_path(path)}: {_left_out(r, path)}")
        for fs in r.not_shown:
            entry = f"- {quote_path(fs.path)}" + (f" [{', '.join(fs.reasons)}]" if fs.reasons else "")
            if r.left_out.get(fs.path) or r.trimmed.get(fs.path):
                entry += f": {_left_out(r, fs.path)}"
            out.append(entry)
    return "\n".join(out)


def _signature(n: Node) -> str:
    """The parameter list of a function or method as indexed, on one line (empty when unknown)."""
    sig = " ".join((n.signature or "").split())
    if not sig or n.kind not in ("function", "method", "constructor"):
        return ""
    return sig if sig.startswith("(") else f" {sig}"


def _left_out(r: explore.ExploreResult, path: str) -> str:
    """The symbols of ``path`` the envelope does not show: the spans fitting took out, then the
    best-scored ones the packer left out."""
    trimmed = [f"{sp.label.replace('::', '.')} (lines {sp.start}-{sp.end})" for sp in r.trimmed.get(path, [])]
    return "; ".join(
        trimmed
        + [
            f"{n.qualified_name.replace('::', '.')}{_signature(n)} (line {n.start_line})"
            for n in r.left_out.get(path, [])
        ]
    )


def _context(r: explore.ContextResult) -> str:
    out = [f"Task: {r.task}", "Terms: " + ", ".join(r.terms.identifiers + r.terms.words)]
    if not r.symbols:
        out.append("No matching symbols in the index.")
    out += [f"{score:.3f}  {_name(n)}  {_loc(n)}" for n, score in r.symbols]
    return "\n".join(out)


def _file_view_header(result: file_view.FileViewResult) -> str:
    """The one line Read lacks: ``<path> · <n> lines · <s> symbols · used by: a, b (+k more)``."""
    deps = list(result.dependents)
    if deps:
        shown = ", ".join(quote_path(d) for d in deps[: file_view.MAX_DEPENDENTS_SHOWN])
        more = (
            f" (+{len(deps) - file_view.MAX_DEPENDENTS_SHOWN} more)"
            if len(deps) > file_view.MAX_DEPENDENTS_SHOWN
            else ""
        )
        used = f"used by {plural(len(deps), 'file')}: {shown}{more}"
    else:
        used = "used by no other indexed file"
    withheld = " · config/data: keys only, values withheld" if result.values_withheld else ""
    lines = plural(result.line_count, "line")
    if result.ends_in_newline:  # Read numbers the empty line after a final newline; say why it counts
        lines += " (the last is empty, after the final newline)"
    symbols = plural(result.symbol_count, "symbol")
    return f"{quote_path(result.path)} · {lines} · {symbols} · {used}{withheld}"


def _file_view_symbols(result: file_view.FileViewResult) -> str:
    """The symbol map, one ``<line>\\t<indent><kind> <name><signature>`` per symbol; members are
    indented two spaces per level of nesting (from ``::`` or ``.`` in the qualified name)."""
    return "\n".join(f"{s.line}\t{_symbol_text(s)}" for s in result.symbols)


def _symbol_text(s: file_view.SymbolEntry) -> str:
    qualified = s.qualified_name or s.name
    depth = qualified.count("::") if "::" in qualified else qualified.count(".")
    if not qualified.endswith(s.name):
        depth = 0
    sig = " ".join((s.signature or "").split())
    if sig.startswith("(") and sig.endswith(")"):
        sig = "(" + sig[1:-1].strip() + ")"
    if sig and s.name in sig and not sig.startswith("("):
        return f"{'  ' * depth}{s.kind} {sig}"  # a full signature that already names the symbol
    if sig and not sig.startswith(("(", "<", ":")):
        sig = " " + sig
    return f"{'  ' * depth}{s.kind} {s.name}{sig}"


def _file_view(result: file_view.FileViewResult) -> str:
    """Text for the agent: the header line, then the body exactly as Read shows it (or the symbol map),
    then, after a blank line, the notice when the window is partial, past the end or withheld."""
    parts = [_file_view_header(result)]
    content = _file_view_symbols(result) if result.symbols else result.body
    if content:
        parts.append(content)
    text = "\n".join(parts)
    if result.notice:
        text += "\n\n" + result.notice
    return text


_RENDERERS: dict[type, Callable[[Any], str]] = {
    RelationResult: _relation,
    ImpactResult: _impact,
    TraceResult: _trace,
    SearchResult: _search,
    FilesResult: _files,
    StatusResult: _status,
    NodeResult: _node,
    explore.ExploreResult: _explore,
    explore.ContextResult: _context,
    file_view.FileViewResult: _file_view,
    affected.AffectedResult: affected.render_affected,
}
