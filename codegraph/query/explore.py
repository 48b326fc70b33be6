"""explore (question → an envelope of the most relevant current source) and context (task → ranked
symbols). Both rank with the same machinery:

1. Seeds: symbols the question names exactly (identifier-shaped tokens such as ``QuerySet.filter``,
   ``build_filter``, ``WhereNode``); symbols whose whole name is a plain word of the question, weighted
   by how rare that word is and shared among its namesakes by what the question's other words say of
   each (its lexical score); the class members whose names hold the question's words; then the
   LEXICAL_SEEDS symbols its plain words describe best (``codegraph.query.lexical``: Snowball stems
   matched in name parts, docstrings and path names, scored like BM25). A task's verbs ("add", "fix",
   "change"…) do not seed ``context``. Full-text matches are the fallback when no word is found.
2. A random walk with restart from the seeds over the call / instantiation / inheritance / reference
   graph (both directions) scores nearby symbols; mass at a node without edges returns to the seeds
   (personalised PageRank), so an isolated declaration does not keep its seed mass whole. Each symbol
   the words describe then gains up to LEXICAL_NODE of the best walk score.
3. A file's score is its walk share (the sum over its symbols, relative to the best file, divided by
   sqrt(size / mean size) for a file larger than the mean) plus its lexical score (relative to the
   best; weighted less when the question names symbols, in full for the file defining them).
4. Rank multipliers damp, never drop: generated files ×0.3, hand-written ambient declaration files
   ×0.5 (combined with min()), tests or examples ×0.5 on top. They apply to a file's seed weights
   (before the LEXICAL_SEEDS are picked, so a test's sentence-long name does not take a seat of the
   code) and to its score after the walk, and once more to its lexical score (such files hold a
   flow's vocabulary without doing the work). A declaration file keeps full weight when the question
   names one of its types by an identifier-shaped token.

The envelope then shows whole bodies of the best symbols, who calls the top ones (with each calling
line), and names what the budget left out with how to get it (``codegraph_node``, or a narrower
explore).

Pinned by tests/query/test_explore_ranking.py (fixtures/repos/ambient-decls-ts, displacement-ts) and
tests/query/test_explore_prose.py; ``scripts/agent-eval/probe_decl_only.py`` and ``probe_prose.py``
print the numbers.
"""

from __future__ import annotations

import itertools
import os
import re
import stat
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from codegraph import bounds
from codegraph.errors import SourceUnavailable
from codegraph.index import source
from codegraph.index.drift import changed_files, current_span
from codegraph.index.languages import is_generated_path, is_test_path
from codegraph.model import Node
from codegraph.paths import quote_path
from codegraph.query.file_view import split_lines
from codegraph.query.lexical import TASK_VERBS, Lexical, lexical_scores, name_parts, same_word, word_stem
from codegraph.query.relations import incoming_calls
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
LEXICAL_SEEDS = 40
LEXICAL_MASS = 3.0
LEXICAL_WEIGHT = 1.0  # a file's lexical share against its graph share, prose questions
LEXICAL_WEIGHT_NAMED = 0.3  # the same when the question names symbols
NAMED_FILES = 3  # at most this many files define the named symbols: their words count in full
HUB_DAMPING = 0.5  # a file's walk share is divided by (its size / the mean size) ** this, above 1
RANKED_FILES = 30  # files ranked exactly (the envelope shows ≤ 10, lists ≤ 12 more)
LEXICAL_NODE = 0.5  # a symbol's lexical share added to its walk score (relative to the best)
DATA_MEMBERS = frozenset({"property", "field"})  # a whole-name word match does not seed them (_seeds)
TYPE_LEVEL = frozenset({"interface", "type_alias", "enum", "enum_member", "namespace", "property"})
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|#)[A-Za-z_$][A-Za-z0-9_$]*)*")
_CJK = re.compile(r"[\u4e00-\u9fff]+")
STOPWORDS = frozenset(
    """
a an and are as at be by can do does for from has have how i in is it its of on or the this that to was
what when where which who why will with work works happen happens get gets code file files function
functions method methods class classes call calls called use used using into via does did should would
""".split()
)
# English two-letter words that are never a question's subject even where a name holds them
# (``if_match``, ``setUp``, ``go``): a two-letter word counts only when the index names code with it
SHORT_STOPWORDS = frozenset("am go he hi if me my no oh ok so up us vs we eg ie".split())

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


def _has_digit(token: str) -> bool:
    return any(c.isdigit() for c in token)


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
    # path-shaped tokens (``chain.py``, ``django/db/models/query.py``): files the question names
    paths: list[str] = field(default_factory=list)


_PATHLIKE = re.compile(r"[\w$.-]+(?:/[\w$.-]+)*")


def question_terms(
    text: str,
    extra_vocab: dict[str, list[str]] | None = None,
    known_word: Callable[[str], bool] | None = None,
) -> Terms:
    """Identifier-shaped tokens and plain words of a question; Chinese dev words are mapped to
    identifier candidates and appended after the original words. A two-letter word (``db``, ``io``)
    is a word when ``known_word`` says the project's code uses it and it is no English function word;
    without ``known_word`` it is dropped (a two-character name with a digit, ``c5``, always counts)."""
    vocab = {**CHINESE_VOCAB, **(extra_vocab or {})}
    identifiers, words = [], []
    for tok in _IDENT.findall(text):
        tok = tok.strip(".")
        if identifier_shaped(tok):
            identifiers.append(tok)
            continue
        word = tok.lower()
        if word in STOPWORDS:
            continue
        if len(tok) > 2 or _has_digit(tok):
            words.append(word)
        elif len(tok) == 2 and word not in SHORT_STOPWORDS and known_word is not None and known_word(word):
            words.append(word)  # "db connection": the finding that a question about "db" found nothing
    for run in _CJK.findall(text):
        for key, values in vocab.items():
            if key in run:
                words.extend(v for v in values if v not in words)
    lowered = text.lower()
    for key, values in (extra_vocab or {}).items():  # project words in any script
        if not _CJK.search(key) and re.search(rf"(?<![\w]){re.escape(key.lower())}(?![\w])", lowered):
            words.extend(v for v in values if v not in words)
    paths = [t.strip(".") for t in _PATHLIKE.findall(text) if "." in t.strip(".").rsplit("/", 1)[-1]]
    return Terms(list(dict.fromkeys(identifiers)), list(dict.fromkeys(words)), list(dict.fromkeys(paths)))


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


def _names_code(reader: Reader) -> Callable[[str], bool]:
    """Whether a word (lower-case) is a word of some symbol's name or a part of an indexed path
    (``db`` → ``get_db``, ``db/models.py``): each word looked up once, the paths read once, on the
    first word no name holds (a question may repeat a two-letter word thousands of times)."""
    known: dict[str, bool] = {}
    parts: set[str] = set()
    parts_read = False

    def names_code(word: str) -> bool:
        nonlocal parts_read
        hit = known.get(word)
        if hit is None:
            hit = reader.has_name_segment(word)
            if not hit:
                if not parts_read:
                    parts.update(
                        p for path in reader.indexed_paths() for p in re.split(r"[/._-]", path.lower())
                    )
                    parts_read = True
                hit = word in parts
            known[word] = hit
        return hit

    return names_code


def _files_named(reader: Reader, specs: list[str]) -> list[str]:
    """Indexed files the path-shaped tokens name: the path itself, else every file it ends
    (``query.py`` → each ``…/query.py``), at most 3 in all; a token that is no source file name
    (``e.g.``, ``v1.2``) names none."""
    from codegraph.query.symbols import _is_source_name

    specs = [s for s in specs if _is_source_name(reader, s.rsplit("/", 1)[-1])]
    if not specs:
        return []
    paths = reader.indexed_paths()
    out: list[str] = []
    for spec in specs:
        exact = [p for p in paths if p == spec]
        out += exact or [p for p in paths if p.endswith("/" + spec)]
    return list(dict.fromkeys(out))[:3]


def _seeds(reader: Reader, terms: Terms, lexical: Lexical, damp) -> dict[str, tuple[Node, float]]:
    """Seed symbol id → (node, weight), each weight times its file's rank multiplier (``damp``:
    path → multiplier): a damped file's symbols stay seeds, below the code doing the work."""
    from codegraph.errors import SymbolNotFound
    from codegraph.query.symbols import find_symbols

    seeds: dict[str, tuple[Node, float]] = {}
    # a file the question names ("what is in chain.py"): its first definitions, in source order
    named_files = _files_named(reader, terms.paths)
    for path in named_files:
        defined = [n for n in reader.file_symbols(path) if n.kind not in DATA_MEMBERS][:12]
        for n in defined:
            seeds[n.id] = (n, 3.0 / len(named_files) / max(1, len(defined)) ** 0.5 * damp(n.file_path))
    for tok in terms.identifiers:
        try:
            found = find_symbols(reader, tok, suggestions=False)
        except SymbolNotFound:
            continue
        weight = 3.0 / max(1, len(found)) ** 0.5
        for n in found[:12]:
            seeds[n.id] = (n, max(weight * damp(n.file_path), seeds.get(n.id, (n, 0))[1]))
    # a word that is a symbol's whole name ("how does authenticate check…"), weighted by how rare the
    # word is among the question's (a common one, "request", would otherwise lead); not a field or
    # property: "…a request path" seeded go-gin on five structs' `path` fields — data, not a flow.
    # The word's weight is shared by what the rest of the question says of each (its lexical score):
    # a verb several modules define ("resolve") goes to the one the other words and paths point at
    # (resolve.py's, for "how does the indexer resolve…"), not to whichever the index lists first
    top_idf = max(lexical.idf.values(), default=0.0) or 1.0
    for word in terms.words:
        exact = [n for n in reader.nodes_named(word) if n.kind not in DATA_MEMBERS]
        rarity = (lexical.idf.get(word, top_idf) / top_idf) ** 2
        kept = exact[:8]
        share = {n.id: max(lexical.symbols.get(n.id, 0.0), 1e-9) for n in kept}
        mass = rarity * len(kept) / max(1, len(exact)) ** 0.5  # each got rarity / sqrt(namesakes)
        for n in kept:
            if n.id not in seeds:
                seeds[n.id] = (n, mass * share[n.id] / sum(share.values()) * damp(n.file_path))
    # a named class with words about it ("how does Flask dispatch a request"): the members whose names
    # hold those words are what the question is about
    stems = [lexical.stems.get(word) or word_stem(word) for word in terms.words]
    for nid, (node, weight) in list(seeds.items()):
        if node.kind not in ("class", "interface") or not stems:
            continue
        members = [
            m
            for m in reader.children(nid)
            if m.kind in ("method", "function")
            and any(same_word(part, st) for part in name_parts(m.name) for st in stems)
        ]
        for m in members[:12]:
            seeds.setdefault(m.id, (m, weight / max(2, len(members))))
    named_total = sum(w for _, w in seeds.values())
    if lexical.symbols:
        _add_lexical_seeds(reader, terms, lexical, seeds, named_total, damp)
        return seeds
    # no plain word found anywhere (or none given): the full-text index over names and docstrings
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
            seeds[n.id] = (n, d * scale * damp(n.file_path))
    return seeds


def _add_lexical_seeds(
    reader: Reader, terms: Terms, lexical: Lexical, seeds: dict, named_total: float, damp
) -> None:
    """The LEXICAL_SEEDS symbols the question's words describe best, weighted by their lexical score
    times their file's rank multiplier.

    Together they weigh a quarter of the named symbols when the question names some (the names say
    what it is about; the words only narrow it down), and LEXICAL_MASS when it names none. Damped
    before they are picked: a test's name is a sentence of the behaviour it checks, and undamped the
    tests took the seats of the code ("how does the indexer resolve an imported call" seeded four)."""
    ranked = sorted(lexical.symbols.items(), key=lambda kv: (-kv[1], kv[0]))
    ranked = [(nid, sc) for nid, sc in ranked if nid not in seeds and sc > 0]
    found = reader.nodes(nid for nid, _ in ranked[: LEXICAL_SEEDS * 4])
    top: list[tuple[str, float]] = []
    for nid, sc in ranked[: LEXICAL_SEEDS * 4]:
        # a multiplier is at most 1: once the raw score is below the LEXICAL_SEEDS-th damped one,
        # no later symbol can enter
        if len(top) >= LEXICAL_SEEDS and sc <= top[LEXICAL_SEEDS - 1][1]:
            break
        if nid in found:
            top.append((nid, sc * damp(found[nid].file_path)))
            top.sort(key=lambda kv: -kv[1])
    top = top[:LEXICAL_SEEDS]
    if not top:
        return
    cap = named_total / 4 if terms.identifiers and named_total else LEXICAL_MASS
    total = sum(sc for _, sc in top)
    for nid, sc in top:
        seeds[nid] = (found[nid], cap * sc / total)


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


def rank(
    reader: Reader,
    question: str,
    *,
    extra_vocab: dict[str, list[str]] | None = None,
    drop_words: frozenset[str] = frozenset(),
) -> Ranking:
    """Seeds, symbol scores (random walk with restart) and file scores for a question; words in
    ``drop_words`` (a task's verbs) do not seed."""
    terms = question_terms(question, extra_vocab, _names_code(reader))
    terms.words = [w for w in terms.words if w not in drop_words]
    lexical = lexical_scores(reader, terms.words)
    named_types = {t.replace("::", ".").split(".")[-1] for t in terms.identifiers}
    penalties: dict[str, tuple[float, list[str]]] = {}

    def penalty_of(path: str) -> tuple[float, list[str]]:
        if path not in penalties:
            penalties[path] = file_penalty(reader, path, named_types)
        return penalties[path]

    # the multiplier damps a file's relevance (its seeds' weights: the restart mass they inject into
    # the walk) as well as its graph score; with full-weight seeds a damped file still pulled the walk
    # its way
    seeds = _seeds(reader, terms, lexical, lambda path: penalty_of(path)[0])
    restart = {nid: w for nid, (_, w) in seeds.items()}
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
        reached: set[str] = set()
        for s, t, _, _ in edges:
            if s.startswith("file:") or t.startswith("file:") or s == t:
                continue
            adjacency[s][t] = max(adjacency[s].get(t, 0.0), 1.0)
            adjacency[t][s] = max(adjacency[t].get(s, 0.0), CALLER_WEIGHT)
            for x in (s, t) if hop < 2 else (t,):
                if x not in known:
                    known.add(x)
                    reached.add(x)
        frontier = reached if len(known) < 4000 else set()
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
    _add_lexical_to_nodes(lexical, scores)
    nodes = reader.nodes(sorted(scores, key=scores.__getitem__, reverse=True)[:600])
    nodes.update({nid: n for nid, (n, _) in seeds.items()})
    by_file: dict[str, float] = defaultdict(float)
    for nid, value in scores.items():
        n = nodes.get(nid)
        if n is not None:
            by_file[n.file_path] += value
    defining = {n.file_path for n, _ in seeds.values() if n.name in named_types}
    if len(defining) > NAMED_FILES:
        defining = set()
    for path in defining:  # the question names a symbol of it: no file matches its words better
        lexical.files[path] = max(lexical.files.values(), default=1.0)
    file_scores = _file_scores(by_file, lexical, penalty_of, bool(terms.identifiers), defining)
    file_scores.sort(key=lambda f: (-f.score, f.path))
    # equal weights are ordered by the walk's score, damped as the weights are
    ordered_seeds = sorted(
        (n for n, _ in seeds.values()),
        key=lambda n: (-seeds[n.id][1], -scores.get(n.id, 0.0) * penalty_of(n.file_path)[0]),
    )
    return Ranking(ordered_seeds, scores, nodes, file_scores, terms)


def _add_lexical_to_nodes(lexical: Lexical, scores: dict[str, float]) -> None:
    """Each symbol the words describe gains up to LEXICAL_NODE of the best walk score, by its lexical
    score: a symbol of a well-matching file that the walk did not reach still has a score its
    source section can compete with."""
    if not lexical.symbols or not scores:
        return
    best_walk = max(scores.values())
    best_lex = max(lexical.symbols.values()) or 1.0
    for nid, value in lexical.symbols.items():
        scores[nid] = scores.get(nid, 0.0) + LEXICAL_NODE * best_walk * value / best_lex


def _file_scores(
    by_file: dict[str, float], lexical: Lexical, penalty_of, named: bool, defining: set[str]
) -> list[FileScore]:
    """A file's score: its share of the walk (relative to the best file) plus its lexical score
    (relative to the best, weighted LEXICAL_WEIGHT, or LEXICAL_WEIGHT_NAMED when the question names
    symbols) times its rank multiplier, all times the rank multiplier. The walk share of a file
    larger than the mean is divided by (size / mean) ** HUB_DAMPING: summed over many symbols, a hub
    (gin.go, a Django admin options.py) outscored the file that does the work (issue 15).

    Only the best RANKED_FILES are scored exactly: a multiplier is at most 1, so once a file's
    undamped score is below the RANKED_FILES-th damped one, no later file can enter the list (the
    multiplier reads a file's head to spot generated code: done for a few hundred files per
    question it was most of a cold explore on Django)."""
    best_graph = max(by_file.values(), default=0.0) or 1.0
    best_lex = max(lexical.files.values(), default=0.0) or 1.0
    weight = LEXICAL_WEIGHT_NAMED if named else LEXICAL_WEIGHT
    mean_size = sum(lexical.sizes.values()) / len(lexical.sizes) if lexical.sizes else 1.0

    def hub(path: str) -> float:  # a file far larger than most sums the walk over many symbols
        if path in defining:  # …unless the question names one of them
            return 1.0
        return max(1.0, lexical.sizes.get(path, 0) / mean_size) ** HUB_DAMPING

    raw = {
        path: (
            by_file.get(path, 0.0) / best_graph / hub(path),
            weight * lexical.files.get(path, 0.0) / best_lex,
        )
        for path in set(by_file) | set(lexical.files)
    }
    out: list[FileScore] = []
    kept: list[float] = []  # damped scores so far, best first
    for path in sorted(raw, key=lambda p: (-sum(raw[p]), p)):
        graph, words = raw[path]
        if len(kept) >= RANKED_FILES and graph + words < kept[RANKED_FILES - 1]:
            break
        penalty, reasons = penalty_of(path)
        # a damped file's words count damped once more: tests, declarations and generated code hold
        # a flow's vocabulary (tests name the behaviour they check) without doing the work
        words *= penalty
        if path in lexical.damped:
            reasons = [*reasons, lexical.damped[path]]
        score = (graph + words) * penalty
        out.append(FileScore(path, score, graph, words, penalty, reasons))
        kept.append(score)
        kept.sort(reverse=True)
    return out


def file_penalty(reader: Reader, path: str, named_types: set[str]) -> tuple[float, list[str]]:
    """Rank multiplier for a file and why: generated 0.3, ambient declarations 0.5 (min of the two),
    tests or examples ×0.5 on top. A declaration file whose type the question names keeps full weight."""
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
    elif is_example_path(path):
        penalty *= 0.5
        reasons.append("example")
    return penalty, reasons


EXAMPLE_DIRS = frozenset({"example", "examples", "sample", "samples", "demo", "demos"})


def is_example_path(path: str) -> bool:
    """Under an ``examples/`` (``example``, ``samples``, ``demo``…) directory: code that shows how to
    use the project rather than the project itself. Flask's tutorial ``add`` functions and three.js's
    example meshes answered questions about the library (issue 15)."""
    return any(part.lower() in EXAMPLE_DIRS for part in path.split("/")[:-1])


BANNER_LINES = 10
_GENERATED: dict[tuple[str, str], tuple[tuple[int, int], bool]] = {}


def _is_generated(reader: Reader, path: str) -> bool:
    """Generated by its language's file-name rules, or by a banner in its first BANNER_LINES lines
    (at most 600 bytes).

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
    try:  # the first bytes only, never shown: reading the whole source (with its secret and
        # path checks) for a banner was a third of a cold explore on Django (issue 15). Only a
        # regular file, opened without blocking: a FIFO swapped in for a source file must not hang
        if stamp is None or not stat.S_ISREG(st.st_mode):
            raise OSError("not a regular file")
        fd = os.open(os.path.join(reader.root, path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            head = fh.read(600).decode("utf-8", "replace")
        # a banner heads the file: "range generated by paginators" in a comment on line 27 of
        # Django's paginator.py damped it ×0.3 as generated (issue 15)
        head = "\n".join(head.split("\n")[:BANNER_LINES])
    except (OSError, TypeError, ValueError):  # an unreadable file is simply not known to be generated
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
    # when the packer chose it (0 first; a merged span has its first-chosen part's): fitting trims
    # the last chosen first
    order: int = 0


SPAN_GAP = "\n…\n"  # between two spans of a section's text (a numbered source line never is "…")


@dataclass
class FileSection:
    path: str
    spans: list[Span]
    text: str  # the spans' numbered lines, joined by SPAN_GAP
    whole: bool
    score: FileScore

    def without(self, index: int) -> FileSection:
        """This section without its ``index``-th span (its text cut out), never whole."""
        parts = self.text.split(SPAN_GAP)
        spans = self.spans[:index] + self.spans[index + 1 :]
        return FileSection(
            self.path, spans, SPAN_GAP.join(parts[:index] + parts[index + 1 :]), False, self.score
        )


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
    flow_note: str = ""  # why there is no flow where the question named two or more symbols
    unavailable: dict[str, str] = field(default_factory=dict)  # path → why its source is not shown
    # symbols ranked high but not in the source shown, best first per file: path → nodes (≤ 2)
    left_out: dict[str, list[Node]] = field(default_factory=dict)
    call_lines: dict[tuple[str, int], str] = field(default_factory=dict)  # (path, line) → its text
    blast_totals: dict[str, int] = field(default_factory=dict)  # blast seed id → its call sites in all
    # spans fitting took out of the source shown, last chosen first: path → spans
    trimmed: dict[str, list[Span]] = field(default_factory=dict)


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
    check_text(question, "question", required=True)
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
    result.flow, result.flow_note = _flow(reader, ranking)
    used = 600 + sum(len(n.qualified_name) + 60 for n, *_ in result.flow)
    used += BLAST_SYMBOLS * (150 + 140 * BLAST_SITES) + 90 * LEFT_OUT_FILES
    used = min(used, budget // 3)  # a small budget still gets source
    result.sections = _sections(reader, ranking, budget - used, result.unavailable)
    result.blast, result.blast_totals = _blast(reader, _top_shown(ranking, result.sections))
    result.call_lines = _call_lines(reader, result.blast)
    shown = {sec.path for sec in result.sections}
    shown |= set(result.unavailable)
    result.not_shown = [fs for fs in ranking.files if fs.path not in shown][:12]
    result.left_out = _left_out(ranking, result.sections, result.not_shown)
    return result  # the renderer fits it to ``budget`` rendered characters


BLAST_SYMBOLS = 3
BLAST_SITES = 3
LEFT_OUT_FILES = 12
LEFT_OUT_PER_FILE = 2
LEFT_OUT_KEPT = 4  # files whose left-out symbols outlast a dropped source section


def _top_shown(ranking: Ranking, sections: list[FileSection]) -> list[Node]:
    """The best-scored functions, methods and classes whose whole body is in the envelope (at most
    BLAST_SYMBOLS), falling back to the seeds when none is."""
    spans = {sec.path: sec.spans for sec in sections}
    shown = [
        n
        for n in ranking.nodes.values()
        if n.kind in ("function", "method", "class", "constructor")
        and any(sp.start <= n.start_line and n.end_line <= sp.end for sp in spans.get(n.file_path, ()))
    ]
    shown.sort(key=lambda n: (-ranking.node_scores.get(n.id, 0.0), n.file_path, n.start_line))
    return shown[:BLAST_SYMBOLS] or ranking.seeds[:BLAST_SYMBOLS]


def _call_lines(reader: Reader, blast) -> dict[tuple[str, int], str]:
    """The source text of each call site listed in the blast radius (stripped, ≤ 120 characters)."""
    out: dict[tuple[str, int], str] = {}
    texts: dict[str, list[str] | None] = {}
    for _, sites, _ in blast:
        for caller, line in sites:
            if line is None:
                continue
            path = caller.file_path
            if path not in texts:
                try:
                    texts[path] = split_lines(source.read_text(reader.root, path))
                except Exception:
                    texts[path] = None
            lines = texts[path]
            if lines is not None and 0 < line <= len(lines):
                out[(path, line)] = lines[line - 1].strip()[:120]
    return out


def _left_out(
    ranking: Ranking, sections: list[FileSection], not_shown: list[FileScore]
) -> dict[str, list[Node]]:
    """Per file, the best-scored symbols the envelope does not show (≤ LEFT_OUT_PER_FILE): for the
    files listed as not shown, and for shown files whose best symbols did not fit."""
    spans = {sec.path: sec.spans for sec in sections}
    wanted = [sec.path for sec in sections] + [fs.path for fs in not_shown]
    by_file: dict[str, list[Node]] = defaultdict(list)
    for n in ranking.nodes.values():
        if n.file_path in wanted and n.kind not in ("file", "import", "variable", "property"):
            if not any(
                sp.start <= n.start_line and n.end_line <= sp.end for sp in spans.get(n.file_path, ())
            ):
                by_file[n.file_path].append(n)
    out = {}
    for path in wanted:
        best = sorted(
            by_file.get(path, []), key=lambda n: (-ranking.node_scores.get(n.id, 0.0), n.start_line)
        )
        best = [n for n in best if ranking.node_scores.get(n.id, 0.0) > 0][:LEFT_OUT_PER_FILE]
        if best:
            out[path] = best
    return out


def _flow(reader: Reader, ranking: Ranking) -> tuple[list[tuple[Node, int | None]], str]:
    """A call path between the first two named seeds that connect (either direction), and why there
    is none when there is none. The flow is optional: a failure in it is said, never raised."""
    from codegraph.errors import CodegraphError
    from codegraph.query.trace import trace_nodes

    wanted = {t.replace("::", ".").replace("#", ".").split(".")[-1] for t in ranking.terms.identifiers}
    named = [n for n in ranking.seeds if n.name in wanted or n.name.split(".")[-1] in wanted]
    if len(named) < 2:
        return [], ""
    try:
        for i, a in enumerate(named[:4]):
            for b in named[i + 1 : 5]:
                for x, y in ((a, b), (b, a)):
                    result = trace_nodes(reader, [x], [y], max_depth=5)
                    if len(result.path) > 1:
                        return [(s.node, s.line) for s in result.path], ""
    except CodegraphError as e:
        return [], f"no call path: finding one failed ({e})"
    if len({n.name for n in named[:5]}) < 2:  # one name (a class and its constructor, overloads)
        return [], ""
    names = ", ".join(n.qualified_name for n in named[:5])
    return [], (
        f"no call path (5 calls deep at most) between the named symbols {names}; calls through "
        "untyped receivers, function references or dynamic dispatch are not in the graph"
    )


def _blast(
    reader: Reader, top: list[Node]
) -> tuple[list[tuple[Node, list[tuple[Node, int | None]], list[str]]], dict[str, int]]:
    """Who calls each of the ``top`` symbols (≤ BLAST_SITES sites, callers outside test files first,
    then in the order ``callers`` gives: path, line) and which test files do; with, per seed id, how
    many call sites there are in all."""
    out = []
    totals: dict[str, int] = {}
    for seed in top:
        # a constructor: the instantiations of its type too, those that surely run it (the envelope
        # has no room to say a guess; ``callers`` lists the others, said to be guesses)
        incoming = [r for r in incoming_calls(reader, seed) if r.resolved_by != "constructor-guess"]
        callers = reader.nodes(e[0] for e in incoming)
        # one site per (caller, line): two calls on one line (``fast.f(x) == slow.f(x)``) are one place to read
        places = list(dict.fromkeys((e[0], e[3]) for e in incoming if e[0] in callers))
        places.sort(key=lambda p: (is_test_path(callers[p[0]].file_path), callers[p[0]].file_path, p[1] or 0))
        sites = [(callers[caller], line) for caller, line in places[:BLAST_SITES]]
        totals[seed.id] = len(places)
        tests = sorted(
            {
                callers[e[0]].file_path
                for e in incoming
                if e[0] in callers and is_test_path(callers[e[0]].file_path)
            }
        )[:5]
        out.append((seed, sites, tests))
    return out, totals


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
            lines = split_lines(source.read_text(reader.root, fs.path))
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
    chosen: dict[str, list[Span]] = {}
    used = 0
    order = itertools.count()

    def take(path: str, start: int, end: int, label: str) -> bool:
        """Show this span if it fits the room left (True when it is shown, or already was)."""
        nonlocal used
        spans = chosen.setdefault(path, [])
        if any(sp.start <= start and end <= sp.end for sp in spans):
            return True
        cost = _span_cost(numbered[path], path, start, end, first=not spans)
        if used + cost > room:
            return False
        spans[:] = [sp for sp in spans if not (start <= sp.start and sp.end <= end)]
        spans.append(Span(start, end, label, next(order)))
        used += cost
        return True

    # The walk spreads a big file's score over its many symbols, so its parts can lose one by one to
    # single symbols of lesser files. First pass: the best-ranked files each get their best span that
    # fits, in rank order; then everything competes by score. A span too big for the room left is
    # skipped, never cut (``_left_out`` names it).
    for fs in files[:FIRST_PASS_FILES]:
        for _score, path, start, end, label in candidates:
            if path == fs.path and take(path, start, end, label):
                break
    for _score, path, start, end, label in candidates:
        take(path, start, end, label)
    sections = []
    for fs in files:
        spans = sorted(chosen.get(fs.path, []), key=lambda sp: sp.start)
        if not spans:
            continue
        merged: list[Span] = []
        for sp in spans:
            if merged and sp.start <= merged[-1].end + 3:
                last = merged[-1]
                merged[-1] = Span(
                    last.start, max(last.end, sp.end), last.label + ", " + sp.label, min(last.order, sp.order)
                )
            else:
                merged.append(sp)
        lines = numbered[fs.path]
        whole = len(merged) == 1 and merged[0].start == 1 and merged[0].end >= len(lines)
        text = SPAN_GAP.join("\n".join(lines[sp.start - 1 : sp.end]) for sp in merged)
        sections.append(FileSection(fs.path, merged, text, whole, fs))
    return sections


def _span_cost(lines: list[str], path: str, start: int, end: int, *, first: bool) -> int:
    """Rendered characters of a span of a section: its numbered lines (``lines``), with its part of
    the section's header (``### path (lines a-b, …)``) and the gap line before it when it is not the
    section's first span. (A flat 4 for a further span undercounted each by ~15 characters.)"""
    body = sum(len(lines[i]) + 1 for i in range(start - 1, min(end, len(lines))))
    label = f"lines {start}-{end}"
    if first:
        return body + len(f"\n### {quote_path(path)} ({label})") + 1
    return body + len(f", {label}") + len(SPAN_GAP) - 1


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
    check_text(task, "task", required=True)
    ranking = rank(reader, task, extra_vocab=extra_vocab, drop_words=TASK_VERBS)
    penalties = {fs.path: fs.penalty for fs in ranking.files}
    scored = [
        (n, ranking.node_scores.get(n.id, 0.0) * penalties.get(n.file_path, 1.0))
        for n in ranking.nodes.values()
        if n.kind not in ("file", "import")
    ]
    scored.sort(key=lambda x: -x[1])
    return ContextResult(task, ranking.terms, scored[:limit])
