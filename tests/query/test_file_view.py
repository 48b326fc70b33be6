"""File view behaviour: path matching, windows and budget, header, symbol map, safety (issue 3).

Every case runs over a real index: the files are written to a tmp dir, indexed by codegraph's indexer
(real SQLite) and read back through the store's Reader. Where a case needs an index row the indexer
would never write (a secret, a FIFO, a link out of the root: an index written by another tool or an
older version could hold one), ``hold`` adds that row to the real database.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from codegraph.errors import FileNotIndexed, InputTooLong, PathOutsideRoot, SourceUnavailable
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.file_view import (
    CHAR_BUDGET,
    MAX_CANDIDATES,
    FileViewRequest,
    file_view,
)
from codegraph.render import render, to_data
from codegraph.store.reader import Reader


@pytest.fixture
def make(request):
    """``make(root, files)`` writes ``files`` under ``root``, indexes them and returns a Reader."""
    opened: list[Reader] = []

    def build(root: Path, files: dict[str, bytes | str]) -> Reader:
        for rel, content in files.items():
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(content.encode() if isinstance(content, str) else content)
        paths = ProjectPaths(root.resolve())
        index_project(paths, workers=1)
        opened.append(Reader(paths))
        return opened[-1]

    request.addfinalizer(lambda: [r.close() for r in opened])
    return build


def hold(root: Path, rel: str) -> None:
    """Put ``rel`` into the index's files table as if it had been indexed."""
    conn = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    with conn:
        conn.execute(
            "INSERT INTO files(path, content_hash, language, size, modified_at, indexed_at) "
            "VALUES (?, '', 'python', 0, 0, 0)",
            (rel,),
        )
    conn.close()


def fv(root: Path, reader, file: str, **kw):
    return file_view(root, reader, FileViewRequest(file=file, **kw))


# --- path argument ----------------------------------------------------------------------------------


def test_exact_path_wins_over_longer_paths_that_end_with_it(make, tmp_path):
    reader = make(tmp_path, {"query.py": "top\n", "db/query.py": "nested\n"})
    assert fv(tmp_path, reader, "query.py").body == "1\ttop\n2\t"


def test_unique_suffix_selects_the_file(make, tmp_path):
    reader = make(tmp_path, {"src/app/models.py": "x = 1\n", "src/app/views.py": "y = 2\n"})
    result = fv(tmp_path, reader, "app/models.py")
    assert result.path == "src/app/models.py"
    assert result.body == "1\tx = 1\n2\t"


def test_unique_substring_selects_the_file(make, tmp_path):
    reader = make(tmp_path, {"src/app/models.py": "x\n", "src/app/views.py": "y\n"})
    assert fv(tmp_path, reader, "view").path == "src/app/views.py"


def test_substring_falls_back_to_case_insensitive(make, tmp_path):
    reader = make(tmp_path, {"src/QuerySet.ts": "x\n"})
    assert fv(tmp_path, reader, "queryset").path == "src/QuerySet.ts"


def test_ambiguous_argument_lists_at_most_25_candidates_shortest_first(make, tmp_path):
    reader = make(tmp_path, {f"pkg{i:02d}/util.py": "x\n" for i in range(30)} | {"util.pyi.txt": "z\n"})
    with pytest.raises(FileNotIndexed) as err:
        fv(tmp_path, reader, "util.py")
    assert len(err.value.candidates) == MAX_CANDIDATES
    assert err.value.candidates[0] == "pkg00/util.py"
    assert "30 indexed files" in str(err.value) and "5 more" in str(err.value)


def test_no_match_says_not_indexed_and_that_config_and_docs_are_read_directly(make, tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    (tmp_path / "README.md").write_text("# docs\n")
    with pytest.raises(FileNotIndexed) as err:
        fv(tmp_path, reader, "README.md")
    assert "not in the index" in str(err.value)
    assert "read config and docs files" in str(err.value)
    assert err.value.candidates == []


def test_a_path_with_nothing_on_disk_or_in_the_index_says_no_such_file_not_read_it_directly(make, tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    with pytest.raises(FileNotIndexed) as err:
        fv(tmp_path, reader, "logger.go")
    assert str(err.value) == "logger.go: no such file in the project (not on disk, not in the index)."


def test_skipped_file_on_disk_says_why_when_the_reader_knows(make, tmp_path):
    reader = make(tmp_path, {"a.py": "x\n", "bundle.min.js": "var a=1;" * 50_000})
    with pytest.raises(FileNotIndexed, match=r"bundle\.min\.js exists but was not indexed \(minified\)"):
        fv(tmp_path, reader, "bundle.min.js")


def test_absolute_path_inside_the_root_is_accepted(make, tmp_path):
    reader = make(tmp_path, {"pkg/a.py": "x\n"})
    assert fv(tmp_path, reader, str(tmp_path / "pkg" / "a.py")).path == "pkg/a.py"


def test_dot_segments_inside_the_root_are_normalised(make, tmp_path):
    reader = make(tmp_path, {"pkg/a.py": "x\n"})
    assert fv(tmp_path, reader, "./pkg/../pkg/a.py").path == "pkg/a.py"


def test_absolute_path_outside_the_root_is_refused(make, tmp_path):
    root = tmp_path / "root"
    reader = make(root, {"a.py": "x\n"})
    (tmp_path / "outside.py").write_text("secret\n")
    with pytest.raises(PathOutsideRoot):
        fv(root, reader, str(tmp_path / "outside.py"))


def test_dotdot_escape_is_refused(make, tmp_path):
    root = tmp_path / "root"
    reader = make(root, {"a.py": "x\n"})
    (tmp_path / "outside.py").write_text("secret\n")
    with pytest.raises(PathOutsideRoot):
        fv(root, reader, "../outside.py")


def test_indexed_symlink_pointing_outside_the_root_is_refused(make, tmp_path):
    root = tmp_path / "root"
    reader = make(root, {"a.py": "x\n"})
    (tmp_path / "outside.py").write_text("secret\n")
    os.symlink(tmp_path / "outside.py", root / "link.py")
    hold(root, "link.py")  # even if an index somehow holds it
    with pytest.raises(PathOutsideRoot):
        fv(root, reader, "link.py")


def test_symlink_inside_the_root_is_served(make, tmp_path):
    reader = make(tmp_path, {"real.py": "x = 1\n"})
    os.symlink(tmp_path / "real.py", tmp_path / "alias.py")
    hold(tmp_path, "alias.py")
    assert fv(tmp_path, reader, "alias.py").body == "1\tx = 1\n2\t"


def test_path_over_4096_characters_raises_input_too_long(make, tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    with pytest.raises(InputTooLong):
        fv(tmp_path, reader, "a" * 4097)


def test_nul_byte_in_the_path_is_refused(make, tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    with pytest.raises(PathOutsideRoot, match="NUL"):
        fv(tmp_path, reader, "a.py\x00.txt")


def test_indexed_file_deleted_since_indexing_says_to_sync(make, tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    (tmp_path / "a.py").unlink()
    with pytest.raises(SourceUnavailable, match=r"a.py: deleted since the last index .*codegraph sync"):
        fv(tmp_path, reader, "a.py")


def test_fifo_in_the_index_is_refused_without_blocking(make, tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    os.mkfifo(tmp_path / "pipe.py")
    hold(tmp_path, "pipe.py")
    with pytest.raises(FileNotIndexed, match="not a regular file"):
        fv(tmp_path, reader, "pipe.py")


# --- secrets and config -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", [".env", "config/.env.production", "certs/server.pem", "id_rsa", "deploy.key"]
)
def test_secret_files_are_never_served_even_if_indexed(make, tmp_path, name):
    reader = make(tmp_path, {name: "TOKEN=hunter2\n"})
    hold(tmp_path, name)
    with pytest.raises(FileNotIndexed, match="secret") as err:
        fv(tmp_path, reader, name)
    assert "hunter2" not in str(err.value)


def test_symlink_to_a_secret_is_not_served(make, tmp_path):
    reader = make(tmp_path, {".env": "TOKEN=hunter2\n"})
    os.symlink(tmp_path / ".env", tmp_path / "settings.py")
    hold(tmp_path, "settings.py")
    with pytest.raises(FileNotIndexed, match="secret"):
        fv(tmp_path, reader, "settings.py")


def test_secret_on_disk_but_not_indexed_says_it_is_never_served(make, tmp_path):
    reader = make(tmp_path, {"a.py": "x\n", "prod.pem": "-----BEGIN-----\n"})
    with pytest.raises(FileNotIndexed, match="never"):
        fv(tmp_path, reader, "prod.pem")


def test_yaml_file_is_shown_as_keys_with_values_withheld(make, tmp_path):
    reader = make(tmp_path, {"deploy.yaml": "db:\n  host: db.internal\n  password: hunter2\n"})
    hold(tmp_path, "deploy.yaml")  # codegraph never indexes config files; the reference CLI's index may
    result = fv(tmp_path, reader, "deploy.yaml")
    assert result.values_withheld
    assert result.body == "1\tdb:\n2\t  host: <withheld>\n3\t  password: <withheld>"
    assert "hunter2" not in render(result) and "db.internal" not in render(result)
    assert "values withheld" in render(result)


def test_source_named_symlink_to_a_config_file_is_still_summarised(make, tmp_path):
    reader = make(tmp_path, {"conf.yaml": "token: hunter2\n"})
    os.symlink(tmp_path / "conf.yaml", tmp_path / "settings.py")
    hold(tmp_path, "settings.py")
    result = fv(tmp_path, reader, "settings.py")
    assert result.values_withheld and result.body == "1\ttoken: <withheld>"


def test_env_template_is_shown_as_keys_only(make, tmp_path):
    reader = make(tmp_path, {".env.example": "API_KEY=abc123\n"})
    hold(tmp_path, ".env.example")
    result = fv(tmp_path, reader, ".env.example")
    assert result.body == "1\tAPI_KEY=<withheld>"


# --- windows, budget, header ------------------------------------------------------------------------


def test_default_limit_is_2000_lines_and_says_how_to_get_the_rest(make, tmp_path):
    reader = make(tmp_path, {"big.py": "".join(f"x{i}\n" for i in range(1, 2501))})
    result = fv(tmp_path, reader, "big.py")
    assert (result.first_line, result.last_line, result.next_offset) == (1, 2000, 2001)
    assert result.body.endswith("2000\tx2000")
    assert "lines 1-2000 of 2501" in result.notice and "offset=2001" in result.notice


def test_window_that_reaches_the_end_has_no_notice(make, tmp_path):
    reader = make(tmp_path, {"a.py": "a\nb\nc\n"})
    result = fv(tmp_path, reader, "a.py", offset=2)
    assert result.body == "2\tb\n3\tc\n4\t"
    assert result.notice is None and result.next_offset is None


def test_character_budget_cuts_at_a_line_boundary_and_gives_the_next_offset(make, tmp_path):
    line = "y" * 99
    reader = make(tmp_path, {"wide.py": (line + "\n") * 1000})
    result = fv(tmp_path, reader, "wide.py")
    assert len(result.body) <= CHAR_BUDGET
    assert result.body.split("\n")[-1] == f"{result.last_line}\t{line}"
    assert result.next_offset == result.last_line + 1
    assert "character budget" in result.notice and f"offset={result.next_offset}" in result.notice


def test_following_next_offset_pages_through_the_whole_file_exactly(make, tmp_path):
    text = "".join(f"{'z' * (i % 150)}\n" for i in range(3000))
    reader = make(tmp_path, {"p.py": text})
    offset, pages = 1, []
    while offset is not None:
        result = fv(tmp_path, reader, "p.py", offset=offset)
        pages.append(result.body)
        offset = result.next_offset
    assert "\n".join(pages) == "\n".join(f"{n}\t{t}" for n, t in enumerate(text.split("\n"), start=1))


def test_single_line_longer_than_the_budget_is_cut_and_said(make, tmp_path):
    # a data table in source (a minified bundle is not indexed at all)
    table = "TABLE = '" + "q" * (CHAR_BUDGET + 500) + "'\n"
    reader = make(tmp_path, {"data.py": table + "\n\ndef f():\n    return TABLE\n" * 40})
    result = fv(tmp_path, reader, "data.py")
    assert len(result.body) == CHAR_BUDGET
    assert "only its start is shown" in result.notice and "offset=2" in result.notice


def test_offset_past_the_end_says_how_many_lines_there_are(make, tmp_path):
    reader = make(tmp_path, {"a.py": "a\nb"})
    result = fv(tmp_path, reader, "a.py", offset=9)
    assert result.body == ""
    assert "Offset 9 is past the end" in result.notice and "from 1 to 2" in result.notice


def test_header_gives_line_and_symbol_counts_and_dependents(make, tmp_path):
    uses = "from lib import f\n\nf()\n"
    reader = make(tmp_path, {"lib.py": "def f():\n    pass\n", "b.py": uses, "a.py": uses})
    text = render(fv(tmp_path, reader, "lib.py"))
    header, body = text.split("\n", 1)
    assert header == (
        "lib.py · 3 lines (the last is empty, after the final newline) · 1 symbol · used by 2 files: a.py, b.py"
    )
    assert body == "1\tdef f():\n2\t    pass\n3\t"


def test_header_of_a_file_without_a_final_newline_counts_its_lines_plainly(make, tmp_path):
    # "a\nb" splits into two lines and Read shows "1\ta\n2\tb": no empty line to explain
    reader = make(tmp_path, {"lib.py": "a\nb"})
    result = fv(tmp_path, reader, "lib.py")
    assert (result.line_count, result.ends_in_newline, result.body) == (2, False, "1\ta\n2\tb")
    assert render(result).split("\n", 1)[0] == "lib.py · 2 lines · 0 symbols · used by no other indexed file"


def test_header_explains_the_empty_line_read_numbers_after_a_final_newline(make, tmp_path):
    # a two-line file ending in a newline: Read numbers three lines, the third empty (recorded and live
    # runs in test_file_view_read_parity.py / test_file_view_live_read.py), so the body keeps "3\t" and
    # the header says why there are three
    reader = make(tmp_path, {"lib.py": "a\nb\n"})
    result = fv(tmp_path, reader, "lib.py")
    assert (result.line_count, result.ends_in_newline, result.body) == (3, True, "1\ta\n2\tb\n3\t")
    header = render(result).split("\n", 1)[0]
    assert header.startswith("lib.py · 3 lines (the last is empty, after the final newline) · ")


def test_header_quotes_a_dependent_whose_name_holds_a_newline(make, tmp_path):
    # "we\nird.py" imports lib; unquoted, the header line broke at the newline and showed "we"
    uses = "from lib import f\n\nf()\n"
    reader = make(tmp_path, {"lib.py": "def f():\n    pass\n", "we\nird.py": uses})
    result = fv(tmp_path, reader, "lib.py")
    assert result.dependents == ("we\nird.py",)
    header = render(result).split("\n", 1)[0]
    assert header.endswith(' · used by 1 file: "we\\nird.py"')


def test_header_says_when_nothing_depends_on_the_file(make, tmp_path):
    reader = make(tmp_path, {"solo.py": "x\n"})
    assert "used by no other indexed file" in render(fv(tmp_path, reader, "solo.py"))


def test_symbols_only_lists_name_kind_signature_line_by_line_order(make, tmp_path):
    reader = make(tmp_path, {"m.py": "class A:\n    def go(self): ...\n"})
    result = fv(tmp_path, reader, "m.py", symbols_only=True)
    assert [(s.name, s.kind, s.signature, s.line) for s in result.symbols] == [
        ("A", "class", None, 1),
        ("go", "method", "(self)", 2),
    ]
    assert result.body == ""
    assert render(result).split("\n")[1:] == ["1\tclass A", "2\t  method go(self)"]


def test_symbol_map_text_joins_name_and_parameters_and_indents_members(make, tmp_path):
    reader = make(
        tmp_path,
        {"q.py": "class QuerySet:\n    # lazy\n\n\n    def filter( self,\n   *args ):\n        pass\n"},
    )
    text = render(fv(tmp_path, reader, "q.py", symbols_only=True))
    assert text.split("\n")[1:] == ["1\tclass QuerySet", "5\t  method filter(self, *args)"]


def test_symbols_only_caps_at_200_and_says_so(make, tmp_path):
    reader = make(tmp_path, {"many.py": "".join(f"def f{i}(): pass\n" for i in range(1, 251))})
    result = fv(tmp_path, reader, "many.py", symbols_only=True)
    assert len(result.symbols) == 200 and result.symbols_truncated
    assert "first 200 of 250" in result.notice


def test_result_serialises_to_json_ready_dict(make, tmp_path):
    import json

    reader = make(tmp_path, {"a.py": "x\n"})
    data = to_data(fv(tmp_path, reader, "a.py"))
    assert json.loads(json.dumps(data))["body"] == "1\tx\n2\t"
