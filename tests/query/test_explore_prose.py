"""explore and context on questions in plain words (issue 15): each ranking signal on a small real repo
written to a temporary directory and indexed with the real indexer, the envelope's sufficiency, the
Flask task on the real corpus, and the prose probe runner on a small subset.

Expected answers come from reading the small repos below (and, for Flask, its wrappers.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query import explore, lexical
from codegraph.render import render
from codegraph.store.reader import Reader

REPO = Path(__file__).resolve().parents[2]
PROBE = REPO / "scripts" / "agent-eval" / "probe_prose.py"
FLASK = REPO.parent / "shared" / "corpora" / "build.sh"

AUTH = {
    "auth/hashers.py": """
        def make_password(raw, salt):
            return salt + "$" + _digest(salt + raw)


        def check_password(raw, stored):
            salt = stored.split("$")[0]
            return make_password(raw, salt) == stored


        def _digest(text):
            return str(sum(map(ord, text)))
        """,
    "auth/login.py": """
        from auth.hashers import check_password


        def login(user, raw):
            if check_password(raw, user.stored):
                return user
            return None
        """,
    "forms/widgets.py": """
        class PasswordInput:
            def render(self, name):
                return "<input type=password name=" + name + ">"
        """,
    "auth/errors.py": """
        class PasswordCheckError(Exception):
            pass


        class HashingError(Exception):
            pass
        """,
    "tests/test_hashers.py": """
        from auth.hashers import check_password, make_password


        def test_password_is_hashed_and_checked():
            assert check_password("x", make_password("x", "s"))
        """,
    "examples/demo.py": """
        def check_password_demo():
            return "hash a password, then check it"
        """,
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


@pytest.fixture
def repo(tmp_path):
    """make(files) → an open Reader over those files, indexed for real."""
    readers = []

    def make(files: dict[str, str]) -> Reader:
        root = _write(tmp_path / f"repo{len(readers)}", files)
        index_project(ProjectPaths(root.resolve()), workers=1)
        readers.append(Reader(root))
        return readers[-1]

    yield make
    for r in readers:
        r.close()


def _order(reader: Reader, question: str) -> list[str]:
    return [fs.path for fs in explore.rank(reader, question).files]


def _file(reader: Reader, question: str, path: str) -> explore.FileScore:
    return next(fs for fs in explore.rank(reader, question).files if fs.path == path)


# ------------------------------------------------------------------------ words, stems, name parts
def test_question_words_meet_identifier_parts_by_their_stems():
    assert lexical.stem("checked") == lexical.stem("checks") == "check"
    assert lexical.name_parts("check_password") == ["check", "password"]
    assert lexical.name_parts("URLResolver") == ["url", "resolver"]
    assert lexical.same_word("hasher", lexical.stem("hashed"))  # a long stem matches as a prefix
    assert lexical.same_word("retry", lexical.stem("retries"))  # Snowball's y → i
    assert not lexical.same_word("urllib", lexical.stem("urls"))  # a short stem only whole


def test_agent_nouns_and_irregular_past_forms_are_matched_by_the_stem_of_what_they_name():
    assert lexical.word_stem("indexer") == "indexer"  # Snowball: "index", which index/ holds
    assert lexical.word_stem("observers") == "observer"
    assert lexical.word_stem("sent") == lexical.stem("send")
    assert lexical.word_stem("found") == lexical.stem("find")
    # the verb of an agent noun only when the code's names use it: no name part is "heade"
    assert lexical.word_stem("handler", frozenset({"handle"})) == lexical.stem("handle") == "handl"
    assert lexical.word_stem("handler") == "handler"
    assert lexical.word_stem("header", frozenset({"handle"})) == "header"


def test_an_irregular_past_form_in_a_question_or_a_docstring_meets_its_verb(repo):
    # go-gin: getValue's docstring says "if no handle can be found"; flask's send_file is "sent"
    reader = repo(
        {
            "router/tree.go": """
                package router

                // Returns the handle registered with the given key, if one can be found.
                func (n *node) getValue(key string) int {
                    return len(key)
                }
                """,
            "router/nodes.go": """
                package router

                // Visits the node of every key.
                func (n *node) visit(key string) int {
                    return 0
                }
                """,
            "mail/outbox.py": """
                def send_message(message):
                    return message


                def store_message(message):
                    return message
                """,
        }
    )
    assert _order(reader, "how does the router find a key")[0] == "router/tree.go"
    top = explore.rank(reader, "how is a message sent").seeds[0]
    assert top.name == "send_message", top


def test_stemmed_words_reach_the_function_whose_name_splits_into_them(repo):
    reader = repo(AUTH)
    order = _order(reader, "where is a password checked")
    assert order[0] == "auth/hashers.py", order
    assert order.index("auth/hashers.py") < order.index("forms/widgets.py")


def test_a_path_name_holding_the_question_word_ranks_its_file_first(repo):
    reader = repo(
        {
            # same symbol in both; without the path the tie would go to the first path, misc/
            "text/hashers.py": "def encode_value(value):\n    return value[::-1]\n",
            "misc/helpers.py": "def encode_value(value):\n    return value.upper()\n",
        }
    )
    assert _order(reader, "how are values hashed")[0] == "text/hashers.py"


def test_a_docstring_holding_the_question_words_beats_a_name_sharing_one_of_them(repo):
    reader = repo(
        {
            "routing/engine.py": '''
                def run(path, table):
                    """Resolve the requested url pattern to the view that handles it."""
                    return table[path]
                ''',
            "web/links.py": "def url(name):\n    return '/' + name\n",
        }
    )
    order = _order(reader, "how is a url pattern resolved to its view")
    assert order.index("routing/engine.py") < order.index("web/links.py"), order


def test_tests_examples_and_exception_classes_are_damped_below_the_implementation_not_dropped(repo):
    reader = repo(AUTH)
    question = "how are passwords hashed and checked"
    order = _order(reader, question)
    assert order[0] == "auth/hashers.py", order
    for path, why in (
        ("tests/test_hashers.py", "test"),
        ("examples/demo.py", "example"),
        ("auth/errors.py", "only exception classes share the question's words"),
    ):
        assert path in order, f"damp, never drop: {path} stays a candidate"
        assert order.index(path) > order.index("auth/hashers.py")
        assert why in _file(reader, question, path).reasons


def test_an_exception_class_named_like_the_question_ranks_below_the_function_doing_it(repo):
    reader = repo(
        {
            # the same two words in each name; without the damping the tie goes to auth/common.py
            "auth/common.py": "class PasswordHashError(Exception):\n    pass\n",
            "auth/util.py": "def hash_password(raw):\n    return raw[::-1]\n",
        }
    )
    question = "how is a password hashed"
    order = _order(reader, question)
    assert order == ["auth/util.py", "auth/common.py"], order
    assert (
        "only exception classes share the question's words"
        in _file(reader, question, "auth/common.py").reasons
    )


def test_a_large_hub_file_does_not_outrank_the_small_file_that_does_the_work(repo):
    # core.py defines many frame_step_* functions that all call into the codec: the walk sums over all
    hub = "\n\n".join(f"def frame_step_{i}(data):\n    return encode_frame(data)" for i in range(60))
    files = {
        "codec/frames.py": "def encode_frame(data):\n    return bytes(data)\n",
        "core.py": "from codec.frames import encode_frame\n\n\n" + hub + "\n",
    }
    files.update({f"util{i}.py": f"def helper_{i}():\n    return {i}\n" for i in range(6)})
    reader = repo(files)
    order = _order(reader, "how is a frame encoded")
    assert order.index("codec/frames.py") < order.index("core.py"), order


def test_generated_by_in_a_comment_below_the_head_does_not_damp_a_file_as_generated(repo):
    code = "\n".join(f"X{i} = {i}" for i in range(20))
    reader = repo(
        {
            "pages/paginator.py": code + "\n# ranges generated by paginators look like 1 2 … 9\n",
            "pages/stub.py": "# Code generated by a tool. DO NOT EDIT.\n" + code + "\n",
        }
    )
    assert explore.file_penalty(reader, "pages/paginator.py", set()) == (1.0, [])
    assert explore.file_penalty(reader, "pages/stub.py", set()) == (0.3, ["generated"])


# ------------------------------------------------------------------------------------- context
TASK_REPO = {
    "web/wrappers.py": '''
        class Request:
            def max_content_length(self):
                """The maximum number of bytes read from a request body; defaults to the
                MAX_CONTENT_LENGTH config."""
                return self.config["MAX_CONTENT_LENGTH"]

            def json(self):
                return {}
        ''',
    "web/app.py": """
        def add_url_rule(rule, view):
            return (rule, view)
        """,
    "examples/calc.py": """
        def add(a, b):
            return a + b
        """,
    "examples/todo.py": """
        def add(item):
            return [item]
        """,
}


def test_a_tasks_verbs_do_not_seed_context_and_its_words_reach_the_documented_attribute(repo):
    reader = repo(TASK_REPO)
    result = explore.context(reader, "add a config option to limit the maximum size of request bodies")
    names = [n.qualified_name for n, _ in result.symbols]
    assert names[0] == "Request::max_content_length", names
    assert "add" not in result.terms.words
    assert not any(n.name == "add" for n, _ in result.symbols[:3]), names


def _flask_root(tmp_path_factory) -> Path:
    proc = subprocess.run(["bash", str(FLASK), "flask"], capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        pytest.skip(f"the flask corpus could not be built: {proc.stderr.strip()[-300:]}")
    root = tmp_path_factory.mktemp("flask") / "flask"
    shutil.copytree(proc.stdout.strip().splitlines()[-1], root, ignore=shutil.ignore_patterns(".codegraph"))
    index_project(ProjectPaths(root.resolve()), workers=1)
    return root


@pytest.mark.needs_shared
def test_flask_task_about_request_body_size_reaches_max_content_length(tmp_path_factory):
    root = _flask_root(tmp_path_factory)
    task = "add a config option to limit the maximum size of uploaded request bodies"
    with Reader(root) as reader:
        result = explore.context(reader, task)
        top = [(n.qualified_name, n.file_path) for n, _ in result.symbols[:5]]
        assert ("Request::max_content_length", "src/flask/wrappers.py") in top, top
        assert not any(n.name in ("add", "jsonify", "request") for n, _ in result.symbols[:10]), top
        # the envelope for the same words shows the property's body, which reads the config key
        text = render(explore.explore(reader, task))
    assert 'current_app.config["MAX_CONTENT_LENGTH"]' in text


# ---------------------------------------------------------------------------------- sufficiency
def test_the_envelope_shows_the_lines_that_call_its_top_symbols(repo):
    reader = repo(AUTH)
    text = render(explore.explore(reader, "how are passwords hashed and checked"))
    assert "if check_password(raw, user.stored):" in text  # auth/login.py line 5, a calling line
    assert "login (auth/login.py:5)" in text


def test_what_the_budget_leaves_out_is_named_with_how_to_get_it_never_go_read(repo):
    files = dict(AUTH)
    for i in range(12):  # enough relevant code that a small budget cannot show it all
        body = "\n".join(f"    step_{j} = salt * {j}" for j in range(30))
        files[f"auth/scheme_{i}.py"] = f"def check_password_scheme_{i}(raw, salt):\n{body}\n    return raw\n"
    reader = repo(files)
    result = explore.explore(reader, "how are passwords hashed and checked", max_chars=3000)
    text = render(result)
    assert len(text) <= 3000
    assert "## Left out (over the budget)" in text
    assert "codegraph_node" in text and "codegraph node SYMBOL --file PATH" in text
    assert any(nodes for nodes in result.left_out.values())
    assert "check_password_scheme_" in text.split("## Left out")[1]  # named, with its signature
    assert "Read" not in text.replace("codegraph node", "")


# --------------------------------------------------------------------------------- probe runner
def test_probe_runner_scores_a_small_probe_set_the_same_on_every_run(tmp_path):
    corpus = _write(tmp_path / "auth-corpus", AUTH)
    probes = tmp_path / "probes.json"
    probes.write_text(
        json.dumps(
            {
                "questions": [
                    {
                        "corpus": str(corpus),
                        "question": "how are passwords hashed and checked",
                        "answers": ["auth/hashers.py"],
                        # the whole small file is shown; no symbol is called ``nowhere``
                        "symbols": ["auth/hashers.py:check_password", "auth/hashers.py:nowhere"],
                        "split": "tune",
                    },
                    {
                        "corpus": str(corpus),
                        "question": "where does the login of a user take place",
                        "answers": ["auth/login.py"],
                        "split": "holdout",
                    },
                ],
                "symbol_questions": [
                    {
                        "corpus": str(corpus),
                        "question": "what does check_password return",
                        "answers": ["auth/hashers.py"],
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    runs = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, str(PROBE), "--probes", str(probes), "--json"],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout))
    strip = [[{k: v for k, v in r.items() if k not in ("ms", "cpu_ms")} for r in run["rows"]] for run in runs]
    assert strip[0] == strip[1]
    rows = runs[0]["rows"]
    assert [r["rank"] for r in rows] == [1, 1, 1]
    assert [r["symbols_missed"] for r in rows] == [["auth/hashers.py:nowhere"], [], []]
    assert runs[0]["totals"]["tune"]["symbol_hits"] == "0/1"
    assert runs[0]["totals"]["prose"]["hit"] == 1.0 and runs[0]["totals"]["symbol"]["rank1"] == 1.0
    assert all(r["chars"] <= r["budget"] for r in rows)


def test_probe_runner_says_why_when_no_question_matches(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(PROBE), "--corpus", "no-such-corpus"], capture_output=True, text=True, cwd=REPO
    )
    assert proc.returncode == 2
    assert "no question matches" in proc.stderr and "Traceback" not in proc.stderr
