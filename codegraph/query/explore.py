"""explore (question → an envelope of the most relevant current source) and context (task → ranked
symbols). Both rank with the same machinery:

1. Seeds: symbols the question names exactly (identifier-shaped tokens such as ``QuerySet.filter``,
   ``build_filter``, ``WhereNode``), symbols whose camelCase/snake_case words include a plain word of
   the question (``metadata`` → ``readMetadata``; words shared by more than SEGMENT_NAMES names are
   skipped), then full-text matches of the other words.
2. A random walk with restart from the seeds over the call / instantiation / inheritance / reference
   graph (both directions) scores nearby symbols; mass at a node without edges returns to the seeds
   (personalised PageRank), so an isolated declaration does not keep its seed mass whole. A file's
   score is the sum over its symbols plus its term hits.
3. Rank multipliers damp, never drop: generated files ×0.3, hand-written ambient declaration files
   ×0.5 (combined with min()), tests ×0.5 on top. They apply to a file's seed weights before the walk
   and to its score after it. A declaration file keeps full weight when the question names one of its
   types by an identifier-shaped token.

Pinned by tests/query/test_explore_ranking.py on fixtures/repos/ambient-decls-ts and displacement-ts;
``scripts/agent-eval/probe_decl_only.py`` prints the numbers.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, field

from codegraph import bounds
from codegraph.errors import SourceUnavailable
from codegraph.index import source
from codegraph.index.drift import changed_files, current_span
from codegraph.index.languages import is_generated_path, is_test_path
from codegraph.model import Node
from codegraph.query.symbols import check_text
from codegraph.store.reader import Reader

WALK_KINDS = ("calls", "instantiates", "extends", "implements", "references")
HARD_CEILING = bounds.EXPLORE_BUDGET.high
RESTART = 0.3
CALLER_WEIGHT = 0.35
FORWARD_HOPS = 5
FLOW_DEPTH = 5
FLOW_DECAY = 0.75
FLOW_NODES = 150
ITERATIONS = 12
SEGMENT_NAMES = 40
TYPE_LEVEL = frozenset({"interface", "type_alias", "enum", "enum_member", "namespace", "property"})
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|#)[A-Za-z_$][A-Za-z0-9_$]*)*")
_NAME_WORDS = re.compile(r"[a-z0-9]+")
_CJK = re.compile(r"[\u4e00-\u9fff]+")
STOPWORDS = frozenset(
    """
a an and are as at be by can do does for from has have how i in is it its of on or the this that to was
what when where which who why will with work works happen happens get gets code file files function
functions method methods class classes call calls called use used using into via does did should would
""".split()
)

# Common Chinese development words → identifier candidates (appended after the original words).
CHINESE_VOCAB: dict[str, list[str]] = {
    "报表": ["report"],
    "分页": ["page", "pagination", "paginate"],
    "筛选": ["filter"],
    "过滤": ["filter"],
    "排序": ["sort", "order"],
    "登录": ["login", "signin", "auth"],
    "注册": ["register", "signup"],
    "用户": ["user"],
    "权限": ["permission", "auth"],
    "认证": ["auth", "authenticate"],
    "订单": ["order"],
    "支付": ["payment", "pay"],
    "缓存": ["cache"],
    "配置": ["config", "settings"],
    "日志": ["log", "logger"],
    "上传": ["upload"],
    "下载": ["download"],
    "导出": ["export"],
    "导入": ["import"],
    "搜索": ["search"],
    "查询": ["query"],
    "数据库": ["database", "db"],
    "连接": ["connection", "connect"],
    "请求": ["request"],
    "响应": ["response"],
    "路由": ["route", "router"],
    "中间件": ["middleware"],
    "模板": ["template"],
    "表单": ["form"],
    "校验": ["validate", "validator"],
    "验证": ["validate", "verify"],
    "错误": ["error"],
    "异常": ["exception", "error"],
    "消息": ["message"],
    "队列": ["queue"],
    "任务": ["task", "job"],
    "定时": ["schedule", "cron"],
    "通知": ["notify", "notification"],
    "邮件": ["mail", "email"],
    "文件": ["file"],
    "删除": ["delete", "remove"],
    "更新": ["update"],
    "创建": ["create"],
    "保存": ["save"],
    "列表": ["list"],
    "详情": ["detail"],
    "会话": ["session"],
    "令牌": ["token"],
    "序列化": ["serialize", "serializer"],
    "迁移": ["migration", "migrate"],
    "测试": ["test"],
    "解析": ["parse", "parser"],
    "渲染": ["render"],
    "组件": ["component"],
    "状态": ["state", "status"],
    "事件": ["event"],
    "监听": ["listen", "listener"],
    "订阅": ["subscribe", "subscription"],
    "重试": ["retry"],
    "超时": ["timeout"],
    "并发": ["concurrent"],
    "锁": ["lock"],
    "索引": ["index"],
    "模型": ["model"],
}


def identifier_shaped(token: str) -> bool:
    """camelCase, PascalCase, snake_case or qualified (``a.b``, ``A::b``); a lowercase word is not, and
    neither is an all-caps word (``WHERE``, ``SQL``: prose emphasis; ``MAX_SIZE`` has its underscore)."""
    if any(sep in token for sep in (".", "::", "#")) or "_" in token.strip("_"):
        return True
    if token.isupper():
        return False
    return any(c.isupper() for c in token[1:]) or (
        token[0].isupper() and len(token) > 1 and any(c.islower() for c in token)
    )


@dataclass
class Terms:
    identifiers: list[str]
    words: list[str]


def question_terms(text: str, extra_vocab: dict[str, list[str]] | None = None) -> Terms:
    """Identifier-shaped tokens and plain words of a question; Chinese dev words are mapped to
    identifier candidates and appended after the original words."""
    vocab = {**CHINESE_VOCAB, **(extra_vocab or {})}
    identifiers, words = [], []
    for tok in _IDENT.findall(text):
        tok = tok.strip(".")
        if identifier_shaped(tok):
            identifiers.append(tok)
        elif tok.lower() not in STOPWORDS and len(tok) > 2:
            words.append(tok.lower())
    for run in _CJK.findall(text):
        for key, values in vocab.items():
            if key in run:
                words.extend(v for v in values if v not in words)
    lowered = text.lower()
    for key, values in (extra_vocab or {}).items():  # project words in any script
        if not _CJK.search(key) and re.search(rf"(?<![\w]){re.escape(key.lower())}(?![\w])", lowered):
            words.extend(v for v in values if v not in words)
    return Terms(list(dict.fromkeys(identifiers)), list(dict.fromkeys(words)))


@dataclass
class FileScore:
    path: str
    score: float
    graph: float
    terms: float
    penalty: float
    reasons: list[str] = field(default_factory=list)


@dataclass
class Ranking:
    seeds: list[Node]
    node_scores: dict[str, float]
    nodes: dict[str, Node]
    files: list[FileScore]
    terms: Terms


def _seeds(reader: Reader, terms: Terms) -> dict[str, tuple[Node, float]]:
    from codegraph.errors import SymbolNotFound
    from codegraph.query.symbols import find_symbols

    seeds: dict[str, tuple[Node, float]] = {}
    for tok in terms.identifiers:
        try:
            found = find_symbols(reader, tok, suggestions=False)
        except SymbolNotFound:
            continue
        weight = 3.0 / max(1, len(found)) ** 0.5
        for n in found[:12]:
            seeds[n.id] = (n, max(weight, seeds.get(n.id, (n, 0))[1]))
    for word in terms.words:
        exact = [n for n in reader.nodes_named(word) if n.kind != "property"]
        for n in exact[:8]:
            if n.id not in seeds:
                seeds[n.id] = (n, 1.0 / max(1, len(exact)) ** 0.5)
    # a named class with words about it ("how does Flask dispatch a request"): the members whose names
    # hold those words are what the question is about
    stems = {st for word in terms.words for st in _stems(word)}
    for nid, (node, weight) in list(seeds.items()):
        if node.kind not in ("class", "interface") or not stems:
            continue
        members = [
            m
            for m in reader.children(nid)
            if m.kind in ("method", "function") and stems & set(_NAME_WORDS.findall(m.name.lower()))
        ]
        for m in members[:12]:
            seeds.setdefault(m.id, (m, weight / max(2, len(members))))
    named = set(seeds)
    for word in terms.words:
        # a word inside a camelCase/snake_case name (`metadata` → readMetadata): full-text search
        # only matches whole names by prefix, so without this prose misses most implementations
        names = [nm for nm in reader.names_with_segment(_stems(word)) if nm.lower() != word]
        if len(names) > SEGMENT_NAMES:
            continue  # too common a word to point anywhere; the full-text seeds still carry it
        found = [n for nm in names for n in reader.nodes_named(nm) if n.kind != "property"]
        weight = 0.5 / max(1, len(found))  # a rarer word points more sharply
        for n in found[:SEGMENT_NAMES]:
            if n.id not in named:  # a name holding several of the question's words adds them up
                seeds[n.id] = (n, weight + seeds.get(n.id, (n, 0.0))[1])
    named_total = sum(w for _, w in seeds.values())
    # the named identifiers are seeded exactly above; their parts in the full-text query only add noise
    text = " ".join(terms.words) or " ".join(
        t.replace(".", " ").replace("::", " ") for t in terms.identifiers
    )
    hits = [(n, s) for n, s in reader.search(text, limit=30) if n.id not in seeds and n.kind != "property"]
    if hits:
        # full-text seeds matter less than named ones: together at most a quarter of the weight of the
        # symbols the question names (half of the word matches when it names none)
        cap = (
            named_total / 4
            if terms.identifiers and named_total
            else (named_total / 2 if named_total else 3.0)
        )
        decay = [0.85**i for i in range(len(hits))]
        scale = cap / sum(decay)
        for (n, _), d in zip(hits, decay, strict=True):
            seeds[n.id] = (n, d * scale)
    return seeds


def _boost_flow(reader: Reader, terms: Terms, seeds: dict, scores: dict[str, float]) -> None:
    """The call flow downstream of each symbol the question names, followed FLOW_DEPTH calls deep:
    each callee scores at least FLOW_DECAY**depth of its named seed's score. The walk alone fades
    within two or three hops, and "how does X do Y" is usually answered several calls below X."""
    named = {t.replace("::", ".").split(".")[-1] for t in terms.identifiers}
    for nid, (node, _) in seeds.items():
        if node.name not in named or node.kind not in ("function", "method"):
            continue
        base = scores.get(nid, 0.0)
        frontier, seen = [nid], {nid}
        for depth in range(1, FLOW_DEPTH + 1):
            edges = reader.outgoing(frontier, ("calls",)) if frontier else []
            frontier = []
            for _, target, _, _ in edges:
                if target in seen or len(seen) > FLOW_NODES:
                    continue
                seen.add(target)
                frontier.append(target)
                scores[target] = max(scores.get(target, 0.0), base * FLOW_DECAY**depth)


def _stems(word: str) -> list[str]:
    """The word and its plain English stems: ``queued`` → queued, queue; ``streams`` → stream."""
    out = [word]
    for suffix, keep in (("ing", ""), ("ed", ""), ("ed", "e"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            out.append(word[: -len(suffix)] + keep)
    return out


def rank(reader: Reader, question: str, *, extra_vocab: dict[str, list[str]] | None = None) -> Ranking:
    """Seeds, symbol scores (random walk with restart) and file scores for a question."""
    terms = question_terms(question, extra_vocab)
    seeds = _seeds(reader, terms)
    named_types = {t.replace("::", ".").split(".")[-1] for t in terms.identifiers}
    penalties: dict[str, tuple[float, list[str]]] = {}

    def penalty_of(path: str) -> tuple[float, list[str]]:
        if path not in penalties:
            penalties[path] = file_penalty(reader, path, named_types)
        return penalties[path]

    # the multiplier damps a file's relevance (the restart mass its seeds inject into the walk) as
    # well as its graph score; with full-weight seeds a damped file still pulled the walk its way
    restart = {nid: w * penalty_of(n.file_path)[0] for nid, (n, w) in seeds.items()}
    total = sum(restart.values()) or 1.0
    restart = {k: v / total for k, v in restart.items()}
    # local graph: two hops around the seeds. The walk follows an edge forwards (caller → callee,
    # subclass → base) at full weight and backwards at CALLER_WEIGHT: "how does X work" is answered
    # downstream of X more than upstream.
    # Two hops both ways, then further downstream only (callees of callees: the flow a question
    # about X usually asks for), up to FORWARD_HOPS.
    adjacency: dict[str, dict[str, float]] = defaultdict(dict)
    frontier = set(restart)
    known = set(frontier)
    for hop in range(FORWARD_HOPS):
        if not frontier:
            break
        edges = reader.outgoing(frontier, WALK_KINDS)
        if hop < 2:
            edges += reader.incoming(frontier, WALK_KINDS)
        nxt = set()
        for s, t, _, _ in edges:
            if s.startswith("file:") or t.startswith("file:") or s == t:
                continue
            adjacency[s][t] = max(adjacency[s].get(t, 0.0), 1.0)
            adjacency[t][s] = max(adjacency[t].get(s, 0.0), CALLER_WEIGHT)
            for x in (s, t) if hop < 2 else (t,):
                if x not in known:
                    known.add(x)
                    nxt.add(x)
        frontier = nxt if len(known) < 4000 else set()
    totals = {nid: sum(nbrs.values()) for nid, nbrs in adjacency.items()}
    scores = dict(restart)
    for _ in range(ITERATIONS):
        nxt: dict[str, float] = defaultdict(float)
        dangling = 0.0
        for nid, value in scores.items():
            nbrs = adjacency.get(nid)
            if not nbrs:
                dangling += value
                continue
            share = (1 - RESTART) * value / totals[nid]
            for m, w in nbrs.items():
                nxt[m] += share * w
        back = RESTART + (1 - RESTART) * dangling
        for nid, value in restart.items():
            nxt[nid] += back * value
        scores = nxt
    _boost_flow(reader, terms, seeds, scores)
    nodes = reader.nodes(sorted(scores, key=scores.get, reverse=True)[:600])
    nodes.update({nid: n for nid, (n, _) in seeds.items()})
    by_file: dict[str, float] = defaultdict(float)
    for nid, value in scores.items():
        n = nodes.get(nid)
        if n is not None:
            by_file[n.file_path] += value
    term_hits: dict[str, float] = defaultdict(float)
    for n, w in seeds.values():
        term_hits[n.file_path] += 0.05 * w
    file_scores = []
    for path in set(by_file) | set(term_hits):
        penalty, reasons = penalty_of(path)
        graph, hits = by_file.get(path, 0.0), term_hits.get(path, 0.0)
        file_scores.append(FileScore(path, (graph + hits) * penalty, graph, hits, penalty, reasons))
    file_scores.sort(key=lambda f: (-f.score, f.path))
    ordered_seeds = sorted((n for n, _ in seeds.values()), key=lambda n: -seeds[n.id][1])
    return Ranking(ordered_seeds, scores, nodes, file_scores, terms)


def file_penalty(reader: Reader, path: str, named_types: set[str]) -> tuple[float, list[str]]:
    """Rank multiplier for a file and why: generated 0.3, ambient declarations 0.5 (min of the two),
    tests ×0.5 on top. A declaration file whose type the question names keeps full weight."""
    factors, reasons = [], []
    if _is_generated(reader, path):
        factors.append(0.3)
        reasons.append("generated")
    # only a file whose symbols are all type-level (methods may be interface members) can be ambient:
    # most files are ruled out by their kinds alone, without loading every symbol (issue 16)
    kinds = reader.file_kinds(path)
    symbols = reader.file_symbols(path) if kinds and kinds <= TYPE_LEVEL | {"method"} else []
    if symbols and _is_ambient_declaration(reader, path, symbols):
        if any(s.name in named_types for s in symbols):
            reasons.append("declarations (named in question: full weight)")
        else:
            factors.append(0.5)
            reasons.append("declarations only")
    penalty = min(factors) if factors else 1.0
    if is_test_path(path):
        penalty *= 0.5
        reasons.append("test")
    return penalty, reasons


_GENERATED: dict[tuple[str, str], tuple[tuple[int, int], bool]] = {}


def _is_generated(reader: Reader, path: str) -> bool:
    """Generated by its language's file-name rules, or by a banner in its first 600 characters.

    Remembered per file while its size and mtime stay the same: reading every ranked file's source to
    look at its banner was ~30% of a warm explore on Django in the daemon (issue 16)."""
    try:
        st = os.stat(os.path.join(reader.root, path))
        stamp = (st.st_mtime_ns, st.st_size)
    except (OSError, TypeError, ValueError):
        stamp = None
    key = (str(reader.root), path)
    known = _GENERATED.get(key)
    if stamp is not None and known is not None and known[0] == stamp:
        return known[1]
    try:
        head = source.read_text(reader.root, path)[:600]
    except Exception:
        head = ""
    generated = is_generated_path(path, head)
    if stamp is not None:
        if len(_GENERATED) > 50_000:
            _GENERATED.clear()
        _GENERATED[key] = (stamp, generated)
    return generated


def _is_ambient_declaration(reader: Reader, path: str, symbols: list[Node]) -> bool:
    """All four: declares ≥1 symbol, every symbol type-level, none calls/instantiates, and no other
    file's node points at it."""
    # members of an interface or type alias (method signatures, fields) are type-level too
    type_owners = {s.qualified_name for s in symbols if s.kind in ("interface", "type_alias")}
    kinds = {
        (
            "property"
            if s.kind == "method"
            and s.qualified_name.rsplit("::", 1)[0] in type_owners
            and "::" in s.qualified_name
            else s.kind
        )
        for s in symbols
    }
    if not kinds <= TYPE_LEVEL or not (kinds - {"property"}):
        return False
    ids = [s.id for s in symbols]
    if reader.outgoing(ids, ("calls", "instantiates")):
        return False
    return not reader.dependents(path)


# ---------------------------------------------------------------------------------------- explore
@dataclass
class Span:
    start: int
    end: int
    label: str


@dataclass
class FileSection:
    path: str
    spans: list[Span]
    text: str
    whole: bool
    score: FileScore


@dataclass
class ExploreResult:
    """The envelope: seeds, flow, blast radius, source sections and files not shown."""

    question: str
    budget: int
    seeds: list[Node]
    flow: list[tuple[Node, int | None]]
    blast: list[tuple[Node, list[tuple[Node, int | None]], list[str]]]
    sections: list[FileSection]
    not_shown: list[FileScore]
    note: str = ""
    unavailable: dict[str, str] = field(default_factory=dict)  # path → why its source is not shown


def budget_for(file_count: int) -> int:
    """Envelope size by repository size; never above the 25,000-character ceiling."""
    if file_count < 50:
        return 8_000
    if file_count < 500:
        return 14_000
    if file_count < 2000:
        return 20_000
    return HARD_CEILING


def _unsupported_counts(reader: Reader) -> dict[str, int]:
    """Files skipped as "language not supported yet (X)", counted per language X."""
    counts: dict[str, int] = {}
    for why in reader.skipped().values():
        if why.startswith("language not supported yet (") and why.endswith(")"):
            lang = why[len("language not supported yet (") : -1]
            counts[lang] = counts.get(lang, 0) + 1
    return counts


def explore(
    reader: Reader,
    question: str,
    *,
    max_chars: int | None = None,
    extra_vocab: dict[str, list[str]] | None = None,
) -> ExploreResult:
    """Answer a question with the current source of the most relevant code.

    Returns:
        An :class:`ExploreResult` whose rendering stays within ``max_chars`` (default: sized to the
        repository, at most 25,000 characters).
    """
    check_text(question, "query")
    budget = min(max_chars or budget_for(reader.file_count), HARD_CEILING)
    ranking = rank(reader, question, extra_vocab=extra_vocab)
    result = ExploreResult(question, budget, ranking.seeds[:8], [], [], [], [])
    if not ranking.seeds:
        result.note = (
            "No symbol in the index matches the question's names or words. Name a function, class "
            "or file, or check `codegraph status` (is the code indexed?)."
        )
        unsupported = _unsupported_counts(reader)
        if unsupported:
            names = ", ".join(f"{lang} {n}" for lang, n in sorted(unsupported.items()))
            result.note += (
                f" {sum(unsupported.values())} source files here are in languages codegraph does not "
                f"support yet ({names}): they are not in the index."
            )
        return result
    result.flow = _flow(reader, ranking)
    result.blast = _blast(reader, ranking)
    used = 600 + sum(len(n.qualified_name) + 60 for n, *_ in result.flow)
    used += sum(200 + 80 * len(c) for _, c, _ in result.blast)
    used = min(used, budget // 3)  # a small budget still gets source
    result.sections = _sections(reader, ranking, budget - used, result.unavailable)
    shown = {sec.path for sec in result.sections}
    shown |= set(result.unavailable)
    result.not_shown = [fs for fs in ranking.files if fs.path not in shown][:12]
    _fit(result)
    return result


def _fit(result: ExploreResult) -> None:
    """Enforce the budget on the rendered text: drop the lowest-ranked sections, then trim the blast
    radius and the not-shown list, until it fits."""
    from codegraph.render import render

    while len(render(result)) > result.budget:
        if result.sections:
            dropped = result.sections.pop()
            result.not_shown.insert(0, dropped.score)
        elif result.not_shown:
            result.not_shown.pop()
        elif any(sites for _, sites, _ in result.blast):
            result.blast = [
                (seed, sites[: len(sites) // 2], tests[:1]) for seed, sites, tests in result.blast
            ]
        elif result.blast:
            result.blast.pop()
        elif result.flow:
            result.flow = []
        else:
            result.seeds = result.seeds[: max(0, len(result.seeds) - 1)]
            if not result.seeds:
                return


def _flow(reader: Reader, ranking: Ranking) -> list[tuple[Node, int | None]]:
    """A call path between the first two named seeds that connect (either direction)."""
    from codegraph.query.trace import trace

    named = [
        n
        for n in ranking.seeds
        if n.name in {t.replace("::", ".").split(".")[-1] for t in ranking.terms.identifiers}
    ]
    for i, a in enumerate(named[:4]):
        for b in named[i + 1 : 5]:
            for x, y in ((a, b), (b, a)):
                result = trace(
                    reader,
                    f"{x.file_path}:{x.qualified_name.replace('::', '.')}",
                    f"{y.file_path}:{y.qualified_name.replace('::', '.')}",
                    max_depth=5,
                )
                if len(result.path) > 1:
                    return [(s.node, s.line) for s in result.path]
    return []


def _blast(reader: Reader, ranking: Ranking) -> list[tuple[Node, list[tuple[Node, int | None]], list[str]]]:
    out = []
    for seed in ranking.seeds[:3]:
        incoming = reader.incoming([seed.id], ("calls", "instantiates"))
        callers = reader.nodes(e[0] for e in incoming)
        sites = [(callers[e[0]], e[3]) for e in incoming if e[0] in callers][:8]
        tests = sorted(
            {
                callers[e[0]].file_path
                for e in incoming
                if e[0] in callers and is_test_path(callers[e[0]].file_path)
            }
        )[:5]
        out.append((seed, sites, tests))
    return out


WHOLE_FILE_LINES = 80
CANDIDATE_FILES = 10
FIRST_PASS_FILES = 3


def _sections(reader: Reader, ranking: Ranking, room: int, unavailable: dict[str, str]) -> list[FileSection]:
    """Pick whole symbol bodies (or whole small files) across the top files, best score first,
    until the budget is spent; a body that does not fit whole is skipped, never cut. A file whose
    source can't be shown (deleted, unreadable, not text) goes into ``unavailable`` with the reason."""
    files = ranking.files[:CANDIDATE_FILES]
    rank_of = {fs.path: i for i, fs in enumerate(files)}
    numbered: dict[str, list[str]] = {}
    candidates: list[tuple[float, str, int, int, str]] = []  # (score, path, start, end, label)
    for fs in files:
        try:
            lines = source.read_text(reader.root, fs.path).split("\n")
        except SourceUnavailable as exc:
            unavailable[fs.path] = exc.reason
            continue
        except Exception:
            continue
        numbered[fs.path] = [f"{i}\t{ln}" for i, ln in enumerate(lines, 1)]
        if len(lines) <= WHOLE_FILE_LINES:
            # a small file competes as its best symbol does, not as the sum of all of them
            best = max(
                (
                    ranking.node_scores.get(n.id, 0.0)
                    for n in ranking.nodes.values()
                    if n.file_path == fs.path
                ),
                default=fs.score,
            )
            candidates.append((best * fs.penalty, fs.path, 1, len(lines), "whole file"))
            continue
        changed = bool(changed_files(reader, [fs.path]))
        for n in ranking.nodes.values():
            if n.file_path != fs.path or n.kind in ("file", "import"):
                continue
            if n.kind in ("class", "interface") and n.end_line - n.start_line > 60:
                continue  # a large container: its relevant members are candidates of their own
            score = ranking.node_scores.get(n.id, 0.0) * fs.penalty
            if score <= 0:
                continue
            span = current_span(reader, n) if changed else (n.start_line, n.end_line)
            if span is not None:  # edited since the index: the span is re-located in the current file
                candidates.append((score, fs.path, span[0], span[1], n.qualified_name))
    candidates.sort(key=lambda c: (-c[0], rank_of[c[1]], c[2]))
    # The walk spreads a big file's score over its many symbols, so its parts can lose one by one to
    # single symbols of lesser files. First pass: the best-ranked files each get their best span that
    # fits; then everything competes by score.
    best_of: dict[str, tuple] = {}
    for c in candidates:
        if rank_of[c[1]] < FIRST_PASS_FILES:
            best_of.setdefault(c[1], c)
    ordered = sorted(best_of.values(), key=lambda c: rank_of[c[1]]) + candidates
    chosen: dict[str, list[Span]] = {}
    used = 0
    for _score, path, start, end, label in ordered:
        spans = chosen.setdefault(path, [])
        if any(sp.start <= start and end <= sp.end for sp in spans):
            continue
        lines = numbered[path]
        cost = sum(len(lines[i]) + 1 for i in range(start - 1, min(end, len(lines)))) + (
            120 if not spans else 4
        )
        if used + cost > room:
            continue
        spans[:] = [sp for sp in spans if not (start <= sp.start and sp.end <= end)]
        spans.append(Span(start, end, label))
        used += cost
    sections = []
    for fs in files:
        spans = sorted(chosen.get(fs.path, []), key=lambda sp: sp.start)
        if not spans:
            continue
        merged: list[Span] = []
        for sp in spans:
            if merged and sp.start <= merged[-1].end + 3:
                merged[-1] = Span(
                    merged[-1].start, max(merged[-1].end, sp.end), merged[-1].label + ", " + sp.label
                )
            else:
                merged.append(sp)
        lines = numbered[fs.path]
        whole = len(merged) == 1 and merged[0].start == 1 and merged[0].end >= len(lines)
        text = "\n…\n".join("\n".join(lines[sp.start - 1 : sp.end]) for sp in merged)
        sections.append(FileSection(fs.path, merged, text, whole, fs))
    return sections


# ---------------------------------------------------------------------------------------- context
@dataclass
class ContextResult:
    task: str
    terms: Terms
    symbols: list[tuple[Node, float]]


def context(
    reader: Reader, task: str, *, limit: int = 20, extra_vocab: dict[str, list[str]] | None = None
) -> ContextResult:
    """A task description (English or Chinese) → the most relevant symbols, ranked."""
    check_text(task, "task")
    ranking = rank(reader, task, extra_vocab=extra_vocab)
    penalties = {fs.path: fs.penalty for fs in ranking.files}
    scored = [
        (n, ranking.node_scores.get(n.id, 0.0) * penalties.get(n.file_path, 1.0))
        for n in ranking.nodes.values()
        if n.kind not in ("file", "import")
    ]
    scored.sort(key=lambda x: -x[1])
    return ContextResult(task, ranking.terms, scored[:limit])
