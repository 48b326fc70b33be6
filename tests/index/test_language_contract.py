"""The contract every registered language meets: its query compiles, it has a fixture repo, and
indexing that repo reproduces the golden graph dump exactly (fixtures/golden/<label>.json, rewritten
only with ``--update-golden``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.index.languages import all_languages, language_for, module_for, parser_for, query_for
from codegraph.paths import ProjectPaths
from tests.index.golden import dump_graph

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LABELS = [lang.label for lang in all_languages()]


@pytest.mark.parametrize("label", LABELS)
def test_language_query_compiles_against_its_grammar(label):
    assert query_for(label).pattern_count > 0


@pytest.mark.parametrize("label", LABELS)
def test_language_has_a_fixture_repo_in_that_language(label):
    repo = FIXTURES / "repos" / label
    assert repo.is_dir(), f"fixtures/repos/{label}/ is missing"
    labels = {language_for(p.relative_to(repo).as_posix()) for p in repo.rglob("*") if p.is_file()}
    assert label in {hit[0] for hit in labels if hit}, f"fixtures/repos/{label}/ holds no {label} file"


@pytest.mark.parametrize("label", LABELS)
def test_indexing_the_fixture_reproduces_the_golden_graph(label, tmp_path, request):
    root = tmp_path / label
    shutil.copytree(FIXTURES / "repos" / label, root)
    index_project(ProjectPaths(root.resolve()), workers=1)
    got = dump_graph(root / ".codegraph" / "codegraph.db")
    golden = FIXTURES / "golden" / f"{label}.json"
    if request.config.getoption("--update-golden"):
        golden.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n")
    assert golden.is_file(), f"no golden for {label}: run with --update-golden and read it"
    want = json.loads(golden.read_text())
    assert got["nodes"] == want["nodes"]
    assert got["edges"] == want["edges"]
    assert got["unresolved"] == want["unresolved"]


def test_every_file_extension_belongs_to_one_language():
    seen = {}
    for lang in all_languages():
        for ext in lang.extensions:
            assert ext.startswith(".") and ext == ext.lower(), (lang.label, ext)
            assert ext not in seen, f"{ext} claimed by {seen.get(ext)} and {lang.label}"
            seen[ext] = lang.label


@pytest.mark.parametrize("label", LABELS)
def test_language_declares_what_the_readme_table_says(label):
    from codegraph.index.languages import module_for

    lang = module_for(label)
    assert lang.name and lang.extracts and lang.resolution and lang.extensions


@pytest.mark.parametrize("label", LABELS)
def test_language_line_comment_parses_as_a_comment(label):
    lang = module_for(label)
    repo = FIXTURES / "repos" / label
    source = next(
        p for p in sorted(repo.rglob("*")) if p.is_file() and (language_for(p.name) or ("",))[0] == label
    ).read_bytes()
    edited = f"\n{lang.line_comment} edited{lang.comment_end}\n"
    tree = parser_for(lang.grammar).parse(source.rstrip() + edited.encode())
    last = tree.root_node
    while last.child_count and "comment" not in last.type:
        last = last.children[-1]
    assert "comment" in last.type and last.text.decode().startswith(lang.line_comment)
    assert not tree.root_node.has_error or parser_for(lang.grammar).parse(source).root_node.has_error


def test_groovy_files_are_skipped_with_a_reason_rather_than_half_parsed(tmp_path):
    """The bundled Groovy grammar cannot parse ``*`` or classes (README): no module claims .groovy."""
    from codegraph.index.discover import discover

    (tmp_path / "build.groovy").write_text("def y = a * b\n")
    found = discover(tmp_path)
    assert found.files == [] and found.skipped == {"build.groovy": "language not supported yet (Groovy)"}


def test_no_code_outside_the_language_modules_names_a_language():
    """A language's facts live in its module (issue 10/13): no string literal equal to a registered
    label appears in codegraph/ outside codegraph/index/languages/."""
    import ast

    package = Path(__file__).resolve().parents[2] / "codegraph"
    # one-letter labels (c, r) are also ordinary tags and loop variables: not evidence of a rule
    labels = {lang.label for lang in all_languages() if len(lang.label) > 1}
    named = []
    for path in sorted(package.rglob("*.py")):
        if "languages" in path.relative_to(package).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in labels:
                named.append(f"{path.relative_to(package.parent)}:{node.lineno} {node.value!r}")
    assert labels and named == []
