"""Plain words of a question → how strongly each symbol and file is about them (issue 15).

A question in plain words ("how are passwords hashed and checked") names no symbol, so its words have
to be found where code keeps words: in the camelCase/snake_case parts of names (``check_password``),
in docstrings, and in path and module names (``hashers.py``, ``urls/resolvers.py``). Each word is
compared by its English stem (Snowball), so "checked", "checks" and ``check`` meet, and a stem of four
letters or more also matches as a prefix of a name part ("hash" → ``hasher``).

Files are scored as BM25 documents whose terms are the question's words: a word found in few files
says more than one found everywhere (idf over files), a word counts the more often the file holds it
(each symbol whose name holds it 1.0, whose docstring holds it 0.5, the file's own name 3.0, a
directory 1.5), saturating (k1 1.2), and a file with many symbols is normalised by its size (b 0.75).
The sum is times the share of the question's words the file holds (a word only in docstrings or a
directory name counts half), so a file holding every word beats one repeating a single word.
A symbol's score adds the idf of the words in its own name, its class's name and its docstring, plus
half the idf of words that only its file's path holds. Measured on scripts/agent-eval/prose_probes.json
(probe_prose.py): this scoring alone took prose hit@envelope from 84 % to 93 % and rank 1 from 29 %
to 55 %; with the rest of issue 15 in explore, 97 % and 64 %.

A question word is matched by its stem, except that an agent noun keeps its "-er" (``word_stem``:
Snowball cuts "indexer" to "index", which every file under ``index/`` holds), and a word that is a
file's whole own name (``resolve`` → resolve.py, at most NAMED_FILES so named) weighs, in that file
and for its symbols, as rare as those files are, at PATH_SHARE. Both came from the README's first
question on this repository, "how does the indexer resolve an imported call": its seeds were a JVM
resolver and four tests (tests/query/test_explore_ranking.py); the prose probes' totals did not
move.

Irregular past forms meet their verb (a question's "sent" → ``send``, a docstring's "found" for
"find"), and an agent noun meets its verb when the code's names use it ("handler" → ``handle``):
prose rank 1 64 % → 67 % on the probes, none lost.

Damped, never dropped: words in type-level symbols (interfaces, type aliases, enums, properties,
fields) count half; exception classes (``…Error``, ``…Exception``, ``…Warning``) ×0.3 as symbols,
and a file whose every matching symbol is one ×0.5: they share a flow's vocabulary without doing
the work.
"""

from __future__ import annotations

import math
import os
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from codegraph.store.reader import Reader

NAME, PATH, DIRECTORY, DOC = 1.0, 1.0, 0.5, 0.5
PATH_TF = 3.0  # a word in the file's path counts as this many symbols holding it
K1, B = 1.2, 0.75  # BM25: term-frequency saturation and length normalisation (symbols per file)
PATH_SHARE = 0.5  # a symbol's bonus for a word its file's path holds, relative to its own name
NAMED_FILES = 3  # a word names a module when at most this many files carry it as their whole name
PREFIX_MIN = 4  # a stem this long also matches as a prefix of a name part ("hash" → hasher)
NAME_LIMIT = 300  # names per word loaded for scoring; a word in more names is too common to point
DOC_LIMIT = 400
# Type-level symbols and data members describe data, not what is done with it: their words count
# half ("how is an upload queued" is answered by the queue code, not by an ``UploadQueuePriority``
# enum; "how does the router find the handler…" by gin's lookup, not ``Engine.RedirectFixedPath``).
KIND_WEIGHT = {
    "interface": 0.5,
    "type_alias": 0.5,
    "enum": 0.5,
    "enum_member": 0.5,
    "namespace": 0.5,
    "property": 0.5,
    "field": 0.5,
}
ERROR_SYMBOL = 0.3
ERROR_FILE = 0.5
_ERROR_NAME = re.compile(r"(Error|Exception|Warning|Errors)$")
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")

# Imperative verbs of a task ("add a config option…", "fix the cache"): they say what to do, not
# where, and match every ``add``/``fix_*`` in a code base. Dropped from tasks only: in a question
# ("how does the server support streaming") the verb may well be the subject.
TASK_VERBS = frozenset(
    """add adds adding fix fixes fixing change changes changing implement implementing support supports
make makes allow allows enable let modify need needs want new way ensure""".split()
)


@lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball English stem of a lower-case word: ``matched`` → match, ``hashers`` → hasher."""
    return _stemmer().stemWord(word)


# Irregular past forms of verbs code is named by, and their base: a question asks "how is it sent",
# the code says ``send``; a docstring says "if no handle can be found", the question "find". Forms
# that are words of their own in code are left out ("bound": bounds; "left": left/right).
IRREGULAR = {
    "find": ("found",),
    "send": ("sent",),
    "build": ("built",),
    "write": ("written", "wrote"),
    "keep": ("kept",),
    "give": ("given", "gave"),
    "make": ("made",),
    "hold": ("held",),
    "take": ("taken", "took"),
    "throw": ("thrown", "threw"),
    "draw": ("drawn", "drew"),
    "choose": ("chosen", "chose"),
    "hide": ("hidden",),
    "get": ("got", "gotten"),
    "begin": ("began", "begun"),
    "catch": ("caught",),
    "show": ("shown",),
    "bring": ("brought",),
    "seek": ("sought",),
    "break": ("broken", "broke"),
    "freeze": ("frozen", "froze"),
    "know": ("known", "knew"),
}
_BASE = {form: base for base, forms in IRREGULAR.items() for form in forms}


def word_stem(word: str, verbs: frozenset[str] = frozenset()) -> str:
    """The stem a question word is matched by: its Snowball stem, except that
    - an irregular past form stands for its verb (sent → send);
    - an agent noun keeps its "-er" when Snowball cuts it from a long word (indexer → index, which
      every file under ``index/`` holds: "the indexer" is one module, ``indexer.py``);
    - an agent noun the stemmer keeps whole stands for its verb too when that verb is in ``verbs``
      (the code base's name parts): "handler" → handl (``handle``, ``handleHTTPRequest``), "router"
      → rout (``route``, ``addRoute``); "header" stays, no name part is "heade"."""
    if word in _BASE:
        return stem(_BASE[word])
    st = stem(word)
    base = word.removesuffix("s")
    if base.endswith("er") and st == base[:-2]:
        return base
    if st == word and len(word) >= 6 and word.endswith("er") and word[:-1] in verbs:
        return stem(word[:-1])
    return st


def name_parts(name: str) -> list[str]:
    """Lower-case words of an identifier or a path part: ``URLResolver`` → url, resolver;
    ``check_password`` → check, password; ``WebGLRenderLists`` → web, gl, render, lists."""
    return [p.lower() for p in _PARTS.findall(name)]


def same_word(part: str, word_stem: str) -> bool:
    """Does a name part (lower-case) stand for the question word whose stem is ``word_stem``?"""
    if part[:2] != word_stem[:2]:  # every rule below keeps the first two letters
        return False
    if part == word_stem or (len(word_stem) >= PREFIX_MIN and part.startswith(word_stem)):
        return True
    return stem(part) == word_stem


@dataclass
class Lexical:
    """What the words found: per-symbol and per-file scores, and which words each file holds."""

    words: list[str]
    symbols: dict[str, float] = field(default_factory=dict)  # node id → score
    files: dict[str, float] = field(default_factory=dict)  # path → score
    covered: dict[str, set[str]] = field(default_factory=dict)  # path → question words it holds
    damped: dict[str, str] = field(default_factory=dict)  # path → why its score was damped
    sizes: dict[str, int] = field(default_factory=dict)  # path → symbols it defines (when words)
    idf: dict[str, float] = field(default_factory=dict)  # word → its inverse document frequency
    named: dict[str, set[str]] = field(default_factory=dict)  # path → the words its own name is
    stems: dict[str, str] = field(default_factory=dict)  # word → the stem it is matched by


def lexical_scores(reader: Reader, words: list[str]) -> Lexical:
    """Score symbols and files by the question's plain words (see the module docstring)."""
    out = Lexical(list(dict.fromkeys(words)))
    if not out.words:
        return out
    # the verbs of the question's agent nouns that the code's names use ("handle" for "handler")
    verbs = frozenset(
        w[:-1] for w in out.words if w.endswith("er") and w[:-1] in reader.segments_from(w[:-1])
    )
    stems = out.stems = {w: word_stem(w, verbs) for w in out.words}
    rows: dict[str, tuple[str, ...]] = {}  # node id → (id, kind, name, qualified name, file path)
    own: dict[str, dict[str, float]] = defaultdict(dict)  # node id → word → channel weight
    for word, st in stems.items():
        for *fields, weight in _name_rows(reader, word, st):
            nid, kind = fields[0], fields[1]
            rows[nid] = tuple(fields)
            own[nid][word] = max(own[nid].get(word, 0.0), weight * KIND_WEIGHT.get(kind, 1.0))
        for doc_row in _doc_rows(reader, word, st):
            rows[doc_row[0]] = doc_row
            doc = DOC * KIND_WEIGHT.get(doc_row[1], 1.0)
            own[doc_row[0]][word] = max(own[doc_row[0]].get(word, 0.0), doc)
    # a member's class names the member too ("URLResolver::resolve" holds "url")
    for nid, row in rows.items():
        parts = {p for seg in re.split(r"::|\.|#", row[3])[:-1] for p in name_parts(seg)}
        for word, st in stems.items():
            if word not in own[nid] and any(same_word(p, st) for p in parts):
                own[nid][word] = NAME * KIND_WEIGHT.get(row[1], 1.0)
    sizes = out.sizes = {row["path"]: row["node_count"] or 1 for row in reader.files()}
    by_path = _path_words(sizes, stems)
    per_file: dict[str, dict[str, float]] = defaultdict(dict)
    for path, held in by_path.items():
        per_file[path].update(held)
    for nid, held in own.items():
        path = rows[nid][4]
        for word, weight in held.items():
            per_file[path][word] = max(per_file[path].get(word, 0.0), weight)
    total = max(1, len(sizes))
    mean_size = sum(sizes.values()) / total if sizes else 1.0
    holding: dict[str, int] = defaultdict(int)
    for held in per_file.values():
        for word in held:
            holding[word] += 1
    idf = out.idf = {w: math.log(1 + (total - holding[w] + 0.5) / (holding[w] + 0.5)) for w in out.words}
    # a word that is a file's whole own name names that module ("resolve" → resolve.py): there it
    # counts as rare as the files so named (at PATH_SHARE, like any path word), not as its stem,
    # which the forty language modules' resolve_ref/resolve_module share
    named = _named_files(sizes, out.words)
    named_idf = {w: math.log(1 + (total - len(ps) + 0.5) / (len(ps) + 0.5)) for w, ps in named.items()}
    out.named = _by_path(named)
    tf: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for nid, held in own.items():
        for word, weight in held.items():
            tf[rows[nid][4]][word] += weight
    for path, held in by_path.items():
        for word, weight in held.items():
            tf[path][word] += PATH_TF * weight
    error_only = _error_only_files(rows, own)
    for nid, held in own.items():
        row = rows[nid]
        score = sum(idf[w] * weight for w, weight in held.items())
        names = out.named.get(row[4], ())
        # a word naming the module counts for the module's namesake too (``resolve`` of resolve.py),
        # whose name holds it: it was left out there, so resolve.py's ``resolve`` scored the bare idf
        # of "resolve" (1.9 on this repository), level with the JVM module's ``_Resolver.resolve`` and
        # below its own module's ``MAX_PACKAGE_IMPORT_EDGES`` (4.9). Only the namesake: every symbol
        # whose name holds the word gaining it put rxjs's ``AjaxError`` constants (errors.ts, named
        # by "error") above its retry operators for "…resubscribe to the source after an error"
        score += PATH_SHARE * sum(
            named_idf[w] if w in names else idf[w]
            for w in by_path.get(row[4], ())
            if w not in held or (w in names and row[2].lower() == w)
        )
        if row[1] == "class" and _ERROR_NAME.search(row[2]):
            score *= ERROR_SYMBOL
        out.symbols[nid] = score
    for path, held in per_file.items():
        norm = K1 * (1 - B + B * sizes.get(path, mean_size) / mean_size)
        names = out.named.get(path, ())
        score = sum(
            (max(idf[w], PATH_SHARE * named_idf[w]) if w in names else idf[w])
            * tf[path][w]
            * (K1 + 1)
            / (tf[path][w] + norm)
            for w in held
        )
        score *= sum(held.values()) / len(out.words)  # a word only in a docstring covers half
        if path in error_only:
            score *= ERROR_FILE
            out.damped[path] = "only exception classes share the question's words"
        out.files[path] = score
        out.covered[path] = set(held)
    return out


def _name_rows(reader: Reader, word: str, word_stem: str) -> list[tuple[str, str, str, str, str, float]]:
    """Symbols with a name part standing for the word, with the weight of the match (NAME); at most
    NAME_LIMIT names. (Parts that abbreviate the word, ``max`` for "maximum", were tried: they cost
    a held-out probe question and gained none.)"""
    # Snowball turns a final y into i (retry → retri): look the part up by what precedes it
    base = word_stem[:-1] if word_stem.endswith("i") else word_stem
    prefix = base if len(base) >= PREFIX_MIN else word_stem[:3]
    parts = [p for p in reader.segments_from(prefix) if same_word(p, word_stem)]
    if word not in parts and reader.segments_from(word)[:1] == [word]:
        parts.append(word)
    return [(*row, NAME) for row in reader.symbol_rows_named(reader.names_with_segment(parts)[:NAME_LIMIT])]


def _doc_rows(reader: Reader, word: str, word_stem: str) -> list[tuple[str, str, str, str, str]]:
    """Symbols whose docstring holds the word (by its stem as a prefix when the stem is long), or an
    irregular form of its verb ("found" for "find"; for "sent", send… and "sent")."""
    verb = _BASE.get(word, word)
    rows = _regular_doc_rows(reader, verb, word_stem)
    if verb in IRREGULAR:
        rows += reader.docstring_rows(IRREGULAR[verb], prefix=False, limit=DOC_LIMIT)
    return rows


def _regular_doc_rows(reader: Reader, word: str, word_stem: str) -> list[tuple[str, str, str, str, str]]:
    exact = [word, word_stem, word_stem + "s"]
    if word_stem.endswith("i"):
        exact.append(word_stem[:-1] + "y")  # bodies → bodi → body
    if len(word_stem) >= PREFIX_MIN:
        rows = reader.docstring_rows([word_stem], prefix=True, limit=DOC_LIMIT)
        if not word_stem.endswith("i"):
            return rows
        return rows + reader.docstring_rows(exact, prefix=False, limit=DOC_LIMIT)
    return reader.docstring_rows(list(dict.fromkeys(exact)), prefix=False, limit=DOC_LIMIT)


def _path_words(paths: Iterable[str], stems: dict[str, str]) -> dict[str, dict[str, float]]:
    """Indexed files whose file or directory names hold a question word: path → word → weight (PATH
    for the file's own name, DIRECTORY for a directory's: a directory names a group of files)."""
    out: dict[str, dict[str, float]] = defaultdict(dict)
    for part, places in _path_index(tuple(paths)).items():
        words = [w for w, st in stems.items() if same_word(part, st)]
        for path, weight in places if words else ():
            for word in words:
                out[path][word] = max(out[path].get(word, 0.0), weight)
    return out


@lru_cache(maxsize=4)
def _path_index(paths: tuple[str, ...]) -> dict[str, list[tuple[str, float]]]:
    """Lower-case name part of a path → the paths holding it, with PATH (the file's own name) or
    DIRECTORY. Kept for the last few file lists: a daemon answers many questions over one index."""
    out: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for path in paths:
        names = re.split(r"[/\\]+", os.path.splitext(path)[0])
        best: dict[str, float] = {}
        for depth, name in enumerate(names):
            weight = PATH if depth == len(names) - 1 else DIRECTORY
            for part in name_parts(name):
                best[part] = max(best.get(part, 0.0), weight)
        for part, weight in best.items():
            out[part].append((path, weight))
    return dict(out)


def _named_files(paths: Iterable[str], words: list[str]) -> dict[str, list[str]]:
    """Word → the files whose whole own name it is, singular or plural (``indexer`` → indexer.py,
    ``view`` → views.py; not test_indexer.py or ``AjaxError.ts`` for "error"), compared as written (a
    stem would make "indexer" name every file under ``index/``); none when more than NAMED_FILES
    files have that name: the word then names no one module."""
    by_name = _file_names(tuple(paths))
    out: dict[str, list[str]] = {}
    for word in words:
        forms = {word, word + "s", word.removesuffix("s")} if len(word) > 3 else {word}
        found = sorted({path for form in forms for path in by_name.get(form, ())})
        if 0 < len(found) <= NAMED_FILES:
            out[word] = found
    return out


@lru_cache(maxsize=4)
def _file_names(paths: tuple[str, ...]) -> dict[str, list[str]]:
    """A file's own name, lower-case and without its extension → the paths so named (kept like
    _path_index)."""
    out: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        out[os.path.splitext(os.path.basename(path))[0].lower()].append(path)
    return dict(out)


def _by_path(named: dict[str, list[str]]) -> dict[str, set[str]]:
    """Word → paths turned into path → words."""
    out: dict[str, set[str]] = defaultdict(set)
    for word, paths in named.items():
        for path in paths:
            out[path].add(word)
    return dict(out)


def _error_only_files(rows: dict, own: dict) -> set[str]:
    """Files whose every symbol holding a question word is an exception class."""
    kinds: dict[str, set[bool]] = defaultdict(set)
    for nid in own:
        row = rows[nid]
        kinds[row[4]].add(row[1] == "class" and bool(_ERROR_NAME.search(row[2])))
    return {path for path, flags in kinds.items() if flags == {True}}
