"""explore's ranking on fixtures built to trip it (issue 3): declaration-only files that compete with an
upload flow for the question's words (fixtures/repos/ambient-decls-ts), a heavily imported types file
(fixtures/repos/displacement-ts), and the penalty rules themselves (generated ×0.3, hand-written
ambient declarations ×0.5, min() of the two, tests ×0.5 on top, damp never drop)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.index.languages import language_for
from codegraph.paths import ProjectPaths
from codegraph.query import explore
from codegraph.query.lexical import lexical_scores
from codegraph.render import render
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture

REPO = Path(__file__).resolve().parents[2]
PROBE = REPO / "scripts" / "agent-eval" / "probe_decl_only.py"

ROUTE = "src/routes/upload.ts"
STREAM = "src/storage/stream.ts"
METADATA = "src/storage/metadata.ts"
QUEUE = "src/queue/uploadQueue.ts"
STORAGE_TYPES = "src/storage/types.ts"  # pure types, imported by the storage and queue code
GENERATED_DECLS = "src/generated/upload-api.d.ts"  # banner, unreferenced
HANDWRITTEN_DECLS = "src/types/upload-metadata.d.ts"  # no banner, unreferenced
DECLARATION_ONLY = (GENERATED_DECLS, HANDWRITTEN_DECLS)

# Prose flow questions (no identifiers) → the implementation files each one is about.
FLOW_QUESTIONS = {
    "how does a file upload get streamed to storage and queued": {ROUTE, STREAM, QUEUE},
    "where is upload metadata recorded": {METADATA, ROUTE},
    "what happens when the upload route receives a file": {ROUTE, STREAM},
    "how is an upload queued for processing": {QUEUE, ROUTE},
}
TYPE_QUESTIONS = [
    "what does UploadMetadata contain",
    "which fields does UploadApiRequest carry",
    "how is ObjectMetadata filled in",
    "how is upload telemetry reported",
]


def _load_probe():
    spec = importlib.util.spec_from_file_location("probe_decl_only", PROBE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _positions(ranking: explore.Ranking) -> dict[str, int]:
    return {fs.path: i for i, fs in enumerate(ranking.files)}


def _file(ranking: explore.Ranking, path: str) -> explore.FileScore:
    return next(fs for fs in ranking.files if fs.path == path)


@pytest.fixture
def uploads(indexed) -> Reader:
    return indexed("ambient-decls-ts")


@pytest.mark.parametrize("question", sorted(FLOW_QUESTIONS))
def test_prose_flow_question_ranks_declaration_only_files_below_the_implementation(uploads, question):
    ranking = explore.rank(uploads, question)
    pos = _positions(ranking)
    last_implementation = max(pos[p] for p in FLOW_QUESTIONS[question])
    for decl in DECLARATION_ONLY:
        assert decl in pos, "damp, never drop: a declaration file stays a candidate"
        assert pos[decl] > last_implementation, [(f.path, round(f.score, 4)) for f in ranking.files]


def test_question_naming_a_declared_type_reaches_its_file_at_full_weight(uploads):
    ranking = explore.rank(uploads, "what does UploadMetadata contain")
    top = ranking.files[0]
    assert top.path == HANDWRITTEN_DECLS
    assert top.penalty == 1.0 and top.reasons == ["declarations (named in question: full weight)"]
    result = explore.explore(uploads, "what does UploadMetadata contain")
    assert HANDWRITTEN_DECLS in {s.path for s in result.sections}


def test_naming_a_generated_type_lifts_only_the_declaration_damping(uploads):
    fs = _file(explore.rank(uploads, "which fields does UploadApiRequest carry"), GENERATED_DECLS)
    assert fs.penalty == 0.3
    assert fs.reasons == ["generated", "declarations (named in question: full weight)"]


def test_lowercase_prose_word_equal_to_a_declared_name_does_not_exempt(uploads):
    # `telemetry` is a namespace in the hand-written declaration file; as a prose word it is no name
    ranking = explore.rank(uploads, "how is upload telemetry reported")
    assert "telemetry" in ranking.terms.words and "telemetry" not in ranking.terms.identifiers
    fs = _file(ranking, HANDWRITTEN_DECLS)
    assert fs.penalty == 0.5 and fs.reasons == ["declarations only"]


@pytest.mark.parametrize("question", sorted(FLOW_QUESTIONS) + TYPE_QUESTIONS)
def test_imported_pure_type_file_is_never_damped(uploads, question):
    penalty, reasons = explore.file_penalty(uploads, STORAGE_TYPES, set())
    assert (penalty, reasons) == (1.0, [])
    ranking = explore.rank(uploads, question)
    for fs in ranking.files:
        if fs.path == STORAGE_TYPES:
            assert fs.penalty == 1.0 and fs.reasons == []


def test_route_handler_file_is_in_the_envelope_for_the_upload_question(uploads):
    result = explore.explore(uploads, "how does a file upload get streamed to storage and queued")
    assert ROUTE in {s.path for s in result.sections}
    assert "export async function handleUpload(req: IncomingUpload)" in render(result)


def test_declaration_penalties_are_generated_0_3_and_handwritten_0_5_combined_with_min(uploads):
    assert explore.file_penalty(uploads, GENERATED_DECLS, set()) == (0.3, ["generated", "declarations only"])
    assert explore.file_penalty(uploads, HANDWRITTEN_DECLS, set()) == (0.5, ["declarations only"])


def _index_copy(tmp_path: Path, name: str, change=None) -> Reader:
    root = copy_fixture(name, tmp_path)
    if change is not None:
        change(root)
    index_project(ProjectPaths(root.resolve()), workers=1)
    return Reader(root)


def test_strip_banner_variant_damps_the_now_handwritten_declarations_by_half_not_0_3(tmp_path):
    probe = _load_probe()
    changed = []
    reader = _index_copy(tmp_path, "ambient-decls-ts", lambda root: changed.extend(probe.strip_banners(root)))
    with reader:
        assert changed == [GENERATED_DECLS]
        assert "DO NOT EDIT" not in (reader.root / GENERATED_DECLS).read_text()
        assert explore.file_penalty(reader, GENERATED_DECLS, set()) == (0.5, ["declarations only"])
        for question, implementation in FLOW_QUESTIONS.items():
            pos = _positions(explore.rank(reader, question))
            assert pos[GENERATED_DECLS] > max(pos[p] for p in implementation), question


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.fixture
def penalty_repo(tmp_path) -> Reader:
    """Generated-by-name files, a test file, a generated test file and a plain module."""
    root = tmp_path / "penalties"
    _write(
        root,
        {
            "app/api_pb2.py": "def build_request():\n    return 1\n",
            "app/client.generated.ts": "export function createClient(): number {\n  return 1;\n}\n",
            "app/service.py": "from app.api_pb2 import build_request\n\n\ndef serve():\n"
            "    return build_request()\n",
            "tests/test_service.py": "from app.service import serve\n\n\ndef test_serve():\n"
            "    assert serve() == 1\n",
            "tests/test_api_pb2.py": "def test_fake():\n    assert True\n",
            "go/api.pb.go": "package api\n\nfunc Build() int { return 1 }\n",
        },
    )
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as reader:
        yield reader


@pytest.mark.parametrize(
    "path",
    [
        "app/api_pb2.py",
        "app/client.generated.ts",
        pytest.param(
            "go/api.pb.go",
            marks=pytest.mark.skipif(language_for("x.go") is None, reason="no Go language module registered"),
        ),
    ],
)
def test_generated_path_suffixes_get_0_3_without_a_banner(penalty_repo, path):
    assert "generated" not in (penalty_repo.root / path).read_text().lower()
    assert explore.file_penalty(penalty_repo, path, set()) == (0.3, ["generated"])


def test_tests_are_damped_by_half_separately_from_generated(penalty_repo):
    assert explore.file_penalty(penalty_repo, "tests/test_service.py", set()) == (0.5, ["test"])
    penalty, reasons = explore.file_penalty(penalty_repo, "tests/test_api_pb2.py", set())
    assert penalty == pytest.approx(0.15) and reasons == ["generated", "test"]
    assert explore.file_penalty(penalty_repo, "app/service.py", set()) == (1.0, [])


def test_damped_files_stay_candidates_in_the_ranking(penalty_repo):
    ranking = explore.rank(penalty_repo, "how does serve build_request")
    paths = {fs.path for fs in ranking.files}
    assert {"app/service.py", "app/api_pb2.py", "tests/test_service.py"} <= paths


# ------------------------------------------------------------------------------ displacement-ts
PIPELINE_TYPES = "src/pipeline/types.ts"


@pytest.fixture
def pipeline(indexed) -> Reader:
    return indexed("displacement-ts")


@pytest.mark.parametrize(
    "question",
    [
        "how are records validated and enriched in the pipeline",
        "how does validateRecords work",
        "what does StageResult hold",
    ],
)
def test_heavily_imported_types_file_keeps_full_weight(pipeline, question):
    fs = _file(explore.rank(pipeline, question), PIPELINE_TYPES)
    assert fs.penalty == 1.0 and fs.reasons == []


def test_question_naming_a_stage_ranks_that_stage_above_the_shared_types_file(pipeline):
    ranking = explore.rank(pipeline, "how does validateRecords work")
    assert ranking.files[0].path == "src/stages/validate.ts"
    result = explore.explore(pipeline, "how does validateRecords work", max_chars=3000)
    assert [s.path for s in result.sections][0] == "src/stages/validate.ts"


@pytest.mark.parametrize(
    "question, stage",
    [
        ("how are records validated and enriched in the pipeline", "src/stages/validate.ts"),
        ("where are records parsed and written", "src/stages/parse.ts"),
    ],
)
def test_prose_question_ranks_the_stages_it_names_next_to_the_types_they_share(pipeline, question, stage):
    pos = _positions(explore.rank(pipeline, question))
    assert pos[stage] <= 2
    assert pos[stage] < pos[PIPELINE_TYPES]


def test_prose_question_naming_one_stage_ranks_it_above_the_pipeline_that_runs_every_stage(pipeline):
    # two stages named ("validated and enriched") is what runPipeline's own docstring lists
    # ("parse, validate, enrich, write"), so run.ts may lead there (issue 15); one stage named is
    # that stage's question
    for question, stage in (
        ("how are records validated in the pipeline", "src/stages/validate.ts"),
        ("where are records parsed and written", "src/stages/parse.ts"),
    ):
        pos = _positions(explore.rank(pipeline, question))
        assert pos[stage] < pos["src/pipeline/run.ts"], question


def test_prose_question_about_one_stage_shows_that_stage_before_the_shared_types_file(pipeline):
    result = explore.explore(pipeline, "how are records validated in the pipeline", max_chars=3000)
    assert [s.path for s in result.sections][:1] == ["src/stages/validate.ts"]


# ------------------------------------------------------------------------------ the probe
def test_probe_prints_the_same_numbers_on_every_run():
    runs = [
        subprocess.run(
            [sys.executable, str(PROBE), *args], capture_output=True, text=True, check=True, cwd=REPO
        ).stdout
        for args in ([], [], ["--variant", "strip-banner"])
    ]
    assert runs[0] == runs[1]
    assert "penalty" in runs[0] and HANDWRITTEN_DECLS in runs[0]
    assert "[generated; declarations only]" in runs[0]
    assert "[generated; declarations only]" not in runs[2] and runs[2] != runs[0]


@pytest.mark.needs_shared
def test_struct_fields_named_like_a_question_word_do_not_seed_go_gin(tmp_path):
    # stop 11's new user: "…a request path" seeded gin on `path` fields of five structs (tree.go and
    # tests) through the whole-name rule, ahead of the router's code; a field is data, not a flow
    from tests.conftest import load_script

    bench = load_script("bench/resolution_bench.py")
    try:
        source = bench.corpus_dir("go-gin")
    except bench.CorpusError as e:
        pytest.skip(str(e))
    root = tmp_path / "gin"
    shutil.copytree(source, root, symlinks=True, ignore=shutil.ignore_patterns(".codegraph"))
    index_project(ProjectPaths(root))
    with Reader(root) as reader:
        ranking = explore.rank(reader, "how does the router find the handler for a request path")
    top = ranking.seeds[0]
    # the router's code (tree.go holds the routing tree, gin.go dispatches a request into it), not a test
    assert (top.file_path, top.kind) in {("tree.go", "method"), ("tree.go", "function"), ("gin.go", "method")}
    named_by_a_word = [n.qualified_name for n in ranking.seeds if n.kind == "field" and n.name == "path"]
    assert named_by_a_word == []  # fields still seed through the words' lexical match, by their weight


# ------------------------------------------------------------------- a generic verb, a named file
# The README's first command asks this repository "how does the indexer resolve an imported call".
# Its shape, small: the orchestration lives in index/indexer.py and calls index/resolve.py's
# `resolve`; a language module (index/languages/jvm.py) defines a `resolve` of its own and, like
# nix.py, many `resolve_*` and `import*` names; tests name the behaviour in sentences. "indexer"
# stems to "index", which the whole index/ directory holds. Expected, by reading the files: the
# indexer and resolve.py, `resolve` of resolve.py leading; the tests reachable but not the seeds.
GENERIC_VERB = {
    "pkg/index/indexer.py": '''
        """Index a project: parse every file, then resolve what each one refers to."""
        from pkg.index.resolve import resolve


        def index_project(paths):
            parsed = [parse_file(p) for p in paths]
            return _write_resolved(resolve(parsed))


        def parse_file(path):
            return {"path": path, "refs": []}


        def _write_resolved(edges):
            return len(edges)
        ''',
    "pkg/index/resolve.py": '''
        """References → edges."""


        def resolve(files):
            """Each file's references as edges: a call of an imported name goes to its module."""
            return [edge for f in files for edge in _resolve_calls(f)]


        def _resolve_calls(f):
            return [_imported_target(f, ref) for ref in f["refs"]]


        def _imported_target(f, ref):
            return (f["path"], ref)
        ''',
    "pkg/index/languages/jvm.py": """
        class _Resolver:
            def resolve(self, ref):
                return self.imported_function(ref) or self.package_function(ref)

            def imported_function(self, name):
                return None

            def package_function(self, name):
                return name


        class JvmLanguage:
            def resolve_ref(self, ref):
                return _Resolver().resolve(ref)

            def resolve_module(self, spec):
                return spec.replace(".", "/")
        """,
    "pkg/index/languages/nix.py": """
        class Nix:
            def resolve_module(self, spec):
                return _imported_path(spec)

            def resolve_ref(self, ref):
                return None


        def _imported_path(spec):
            return spec + ".nix"
        """,
    "tests/index/test_resolution.py": """
        from pkg.index.indexer import index_project
        from pkg.index.resolve import resolve


        def test_an_imported_call_resolves_to_its_definition():
            assert resolve([]) == []


        def test_a_relative_import_resolves_to_the_imported_module_file():
            assert index_project([]) == 0


        def test_imported_names_resolve_through_a_package_index():
            assert resolve([{"path": "a", "refs": ["b"]}]) == [("a", "b")]


        def test_a_star_import_resolves_every_imported_name():
            assert index_project(["a"]) == 0


        def test_the_index_resolves_while_it_builds():
            def resolve(files):
                return files

            assert resolve([]) == []
        """,
}
# the rest of a code base, which holds none of the question's words: without it every file holds
# "resolve" and no word is rarer than another
GENERIC_VERB.update(
    {f"pkg/store/table{i}.py": f"def write_row_{i}(row):\n    return [row, {i}]\n" for i in range(30)}
)
GENERIC_QUESTION = "how does the indexer resolve an imported call"


@pytest.fixture(scope="module")
def generic_verb(tmp_path_factory):
    root = tmp_path_factory.mktemp("generic-verb")
    for rel, text in GENERIC_VERB.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as reader:
        yield reader


def test_a_verb_several_modules_define_seeds_the_one_the_questions_other_words_point_at(generic_verb):
    ranking = explore.rank(generic_verb, GENERIC_QUESTION)
    order = [(n.file_path, n.qualified_name) for n in ranking.seeds]
    assert order.index(("pkg/index/resolve.py", "resolve")) < order.index(
        ("pkg/index/languages/jvm.py", "_Resolver::resolve")
    )


def test_a_question_word_naming_a_file_ranks_that_file_with_the_one_doing_the_work(generic_verb):
    ranking = explore.rank(generic_verb, GENERIC_QUESTION)
    assert {fs.path for fs in ranking.files[:2]} == {"pkg/index/indexer.py", "pkg/index/resolve.py"}


def test_the_namesake_of_the_module_a_word_names_outscores_a_namesake_elsewhere(generic_verb):
    # resolve.py's `resolve` scored the bare idf of "resolve", level with jvm.py's _Resolver.resolve
    # (so the word's seed weight went half to each) and below resolve.py's own _imported_target, which
    # got the module's name as a path word
    lex = lexical_scores(generic_verb, explore.question_terms(GENERIC_QUESTION).words)
    own = {
        (r[4], r[3]): lex.symbols.get(r[0], 0.0)
        for r in generic_verb.symbol_rows_named(["resolve", "_resolve_calls", "_imported_target"])
    }
    namesake = own[("pkg/index/resolve.py", "resolve")]
    jvm = own[("pkg/index/languages/jvm.py", "_Resolver::resolve")]
    assert namesake > own[("pkg/index/resolve.py", "_imported_target")] > jvm
    assert own[("pkg/index/resolve.py", "_resolve_calls")] == jvm  # not the module's namesake


def test_tests_named_by_the_questions_words_are_damped_out_of_the_shown_seeds_not_dropped(generic_verb):
    ranking = explore.rank(generic_verb, GENERIC_QUESTION)
    shown = ranking.seeds[:6]  # the envelope's "Seeds:" line
    assert sum(n.file_path.startswith("tests/") for n in shown) <= 1, [n.qualified_name for n in shown]
    assert any(n.file_path.startswith("tests/") for n in ranking.seeds)  # still reachable


def test_a_two_character_name_with_a_digit_is_a_term_a_two_letter_word_is_not(tmp_path):
    # `explore c5` answered "No symbol matches" while `node c5` found the function: tokens of two
    # characters were all dropped as noise
    assert explore.question_terms("where is c5 used and what is A5").words == ["c5", "a5"]
    assert "is" not in explore.question_terms("what is it").words
    root = tmp_path / "short"
    _write(root, {"m.py": "def c5():\n    return 1\n\n\ndef caller():\n    return c5()\n"})
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as reader:
        assert [n.name for n in explore.rank(reader, "c5").seeds][:1] == ["c5"]


SHORT_WORDS = {
    "app/db.py": "def get_db():\n    return db_connection()\n\n\n"
    "def db_connection():\n    return open_db_cursor()\n\n\n"
    "def open_db_cursor():\n    return 1\n\n\ndef if_match(tag):\n    return tag\n",
    "app/net.py": "class HttpConnection:\n    def send(self):\n        return close_connection()\n\n\n"
    "def close_connection():\n    return reuse_connection()\n\n\ndef reuse_connection():\n    return 2\n",
    "app/stream.py": "def read_io(buf):\n    return buf\n\n\ndef write_io(buf):\n    return read_io(buf)\n",
}


@pytest.fixture
def short_words(tmp_path) -> Reader:
    root = tmp_path / "short_words"
    _write(root, SHORT_WORDS)
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as reader:
        yield reader


def test_a_two_letter_word_that_names_code_is_a_question_word(short_words):
    # `explore "db connection"` dropped "db": net.py, with three names holding "connection", came first
    ranking = explore.rank(short_words, "db connection")
    assert ranking.terms.words == ["db", "connection"]
    assert ranking.files[0].path == "app/db.py", [(f.path, round(f.score, 3)) for f in ranking.files]
    assert explore.rank(short_words, "connection").files[0].path == "app/net.py"  # what "db" changes


def test_a_question_of_one_two_letter_word_seeds_the_names_holding_it(short_words):
    # `explore "io"` had no word left to search with
    seeds = {n.name for n in explore.rank(short_words, "io").seeds}
    assert {"read_io", "write_io"} <= seeds


def test_two_letter_english_words_stay_out_even_when_a_name_holds_them(short_words):
    # if_match holds "if"; no name holds "zq"; "is", "of", "to", "in" are stop-words
    ranking = explore.rank(short_words, "what is done if the db is of use to zq in it")
    assert ranking.terms.words == ["done", "db"]


class _PathCountingReader(Reader):
    """A real Reader that counts how often the list of indexed paths is read."""

    path_reads = 0

    def indexed_paths(self) -> list[str]:
        self.path_reads += 1
        return super().indexed_paths()


def test_a_question_repeating_two_letter_words_reads_the_indexed_paths_no_more_than_asking_once(short_words):
    # a 10,000-character question of "qx qx …" read every indexed path once per word: 4.7 s of CPU
    # for 1,000 words on a 5,000-file index (codegraph explore, load 7)
    with _PathCountingReader(short_words.root) as once, _PathCountingReader(short_words.root) as many:
        explore.rank(once, "zq qx")
        explore.rank(many, " ".join(["zq", "qx"] * 500 + [f"{a}{b}" for a in "jkqx" for b in "jkqxz"]))
    assert once.path_reads >= 1
    assert many.path_reads == once.path_reads


def test_a_file_the_question_names_seeds_its_definitions(tmp_path):
    # "what is in shop/views.py" found nothing to start from: path tokens were no symbol names.
    # views.py defines render_rows (line 5) and list_products (line 10); read from the fixture
    reader = _index_copy(tmp_path, "python")
    with reader:
        for question in ("what is in shop/views.py", "explain views.py"):
            seeds = explore.rank(reader, question).seeds
            assert {n.name for n in seeds if n.file_path == "shop/views.py"} >= {
                "render_rows",
                "list_products",
            }
        assert explore.question_terms("see e.g. v1.2 of query.py").paths == ["e.g", "v1.2", "query.py"]
        # both query.py files of the fixture, none for the tokens that are no source file name
        assert explore._files_named(reader, ["e.g", "v1.2", "query.py"]) == [
            "shop/db/query.py",
            "shop/db/sql/query.py",
        ]
