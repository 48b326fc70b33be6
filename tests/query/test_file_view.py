"""File view behaviour: path matching, windows and budget, header, symbol map, safety (issue 3)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from codegraph.errors import FileNotIndexed, InputTooLong, PathOutsideRoot, SourceUnavailable
from codegraph.model import Node, node_id
from codegraph.query.file_view import (
    CHAR_BUDGET,
    MAX_CANDIDATES,
    FileViewRequest,
    file_view,
    render_file_view,
)


@dataclass
class FakeReader:
    """An in-memory index satisfying FileViewReader."""

    paths: list[str]
    symbols: dict[str, list[Node]] = field(default_factory=dict)
    deps: dict[str, list[str]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    def indexed_paths(self) -> list[str]:
        return list(self.paths)

    def file_symbols(self, path: str) -> list[Node]:
        return list(self.symbols.get(path, []))

    def dependents(self, path: str) -> list[str]:
        return list(self.deps.get(path, []))

    def skip_reason(self, path: str) -> str | None:
        return self.skipped.get(path)


def make(root: Path, files: dict[str, bytes | str]) -> FakeReader:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content.encode() if isinstance(content, str) else content)
    return FakeReader(sorted(files))


def sym(path: str, name: str, kind: str, line: int, signature: str | None = None) -> Node:
    return Node(
        id=node_id(path, kind, name, line), kind=kind, name=name, qualified_name=name, file_path=path,
        language="python", start_line=line, end_line=line + 1, signature=signature,
    )  # fmt: skip


def fv(root: Path, reader, file: str, **kw):
    return file_view(root, reader, FileViewRequest(file=file, **kw))


# --- path argument ----------------------------------------------------------------------------------


def test_exact_path_wins_over_longer_paths_that_end_with_it(tmp_path):
    reader = make(tmp_path, {"query.py": "top\n", "db/query.py": "nested\n"})
    assert fv(tmp_path, reader, "query.py").body == "1\ttop\n2\t"


def test_unique_suffix_selects_the_file(tmp_path):
    reader = make(tmp_path, {"src/app/models.py": "x = 1\n", "src/app/views.py": "y = 2\n"})
    result = fv(tmp_path, reader, "app/models.py")
    assert result.path == "src/app/models.py"
    assert result.body == "1\tx = 1\n2\t"


def test_unique_substring_selects_the_file(tmp_path):
    reader = make(tmp_path, {"src/app/models.py": "x\n", "src/app/views.py": "y\n"})
    assert fv(tmp_path, reader, "view").path == "src/app/views.py"


def test_substring_falls_back_to_case_insensitive(tmp_path):
    reader = make(tmp_path, {"src/QuerySet.ts": "x\n"})
    assert fv(tmp_path, reader, "queryset").path == "src/QuerySet.ts"


def test_ambiguous_argument_lists_at_most_25_candidates_shortest_first(tmp_path):
    reader = make(tmp_path, {f"pkg{i:02d}/util.py": "x\n" for i in range(30)} | {"util.pyi.txt": "z\n"})
    reader.paths.remove("util.pyi.txt")
    with pytest.raises(FileNotIndexed) as err:
        fv(tmp_path, reader, "util.py")
    assert len(err.value.candidates) == MAX_CANDIDATES
    assert err.value.candidates[0] == "pkg00/util.py"
    assert "30 indexed files" in str(err.value) and "5 more" in str(err.value)


def test_no_match_says_not_indexed_and_that_config_and_docs_are_read_directly(tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    with pytest.raises(FileNotIndexed) as err:
        fv(tmp_path, reader, "README.md")
    assert "not an indexed file" in str(err.value)
    assert "read config and docs files" in str(err.value)
    assert err.value.candidates == []


def test_skipped_file_on_disk_says_why_when_the_reader_knows(tmp_path):
    reader = make(tmp_path, {"a.py": "x\n", "bundle.min.js": "y\n"})
    reader.paths.remove("bundle.min.js")
    reader.skipped["bundle.min.js"] = "minified"
    with pytest.raises(FileNotIndexed, match=r"bundle\.min\.js exists but was not indexed \(minified\)"):
        fv(tmp_path, reader, "bundle.min.js")


def test_absolute_path_inside_the_root_is_accepted(tmp_path):
    reader = make(tmp_path, {"pkg/a.py": "x\n"})
    assert fv(tmp_path, reader, str(tmp_path / "pkg" / "a.py")).path == "pkg/a.py"


def test_dot_segments_inside_the_root_are_normalised(tmp_path):
    reader = make(tmp_path, {"pkg/a.py": "x\n"})
    assert fv(tmp_path, reader, "./pkg/../pkg/a.py").path == "pkg/a.py"


def test_absolute_path_outside_the_root_is_refused(tmp_path):
    root = tmp_path / "root"
    reader = make(root, {"a.py": "x\n"})
    (tmp_path / "outside.py").write_text("secret\n")
    with pytest.raises(PathOutsideRoot):
        fv(root, reader, str(tmp_path / "outside.py"))


def test_dotdot_escape_is_refused(tmp_path):
    root = tmp_path / "root"
    reader = make(root, {"a.py": "x\n"})
    (tmp_path / "outside.py").write_text("secret\n")
    with pytest.raises(PathOutsideRoot):
        fv(root, reader, "../outside.py")


def test_indexed_symlink_pointing_outside_the_root_is_refused(tmp_path):
    root = tmp_path / "root"
    reader = make(root, {"a.py": "x\n"})
    (tmp_path / "outside.py").write_text("secret\n")
    os.symlink(tmp_path / "outside.py", root / "link.py")
    reader.paths.append("link.py")  # even if an index somehow holds it
    with pytest.raises(PathOutsideRoot):
        fv(root, reader, "link.py")


def test_symlink_inside_the_root_is_served(tmp_path):
    reader = make(tmp_path, {"real.py": "x = 1\n"})
    os.symlink(tmp_path / "real.py", tmp_path / "alias.py")
    reader.paths.append("alias.py")
    assert fv(tmp_path, reader, "alias.py").body == "1\tx = 1\n2\t"


def test_path_over_4096_characters_raises_input_too_long(tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    with pytest.raises(InputTooLong):
        fv(tmp_path, reader, "a" * 4097)


def test_nul_byte_in_the_path_is_refused(tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    with pytest.raises(PathOutsideRoot, match="NUL"):
        fv(tmp_path, reader, "a.py\x00.txt")


def test_indexed_file_deleted_since_indexing_says_to_sync(tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    (tmp_path / "a.py").unlink()
    with pytest.raises(SourceUnavailable, match=r"a.py: deleted since the last index .*codegraph sync"):
        fv(tmp_path, reader, "a.py")


def test_fifo_in_the_index_is_refused_without_blocking(tmp_path):
    reader = make(tmp_path, {"a.py": "x\n"})
    os.mkfifo(tmp_path / "pipe.py")
    reader.paths.append("pipe.py")
    with pytest.raises(FileNotIndexed, match="not a regular file"):
        fv(tmp_path, reader, "pipe.py")


# --- secrets and config -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", [".env", "config/.env.production", "certs/server.pem", "id_rsa", "deploy.key"]
)
def test_secret_files_are_never_served_even_if_indexed(tmp_path, name):
    reader = make(tmp_path, {name: "TOKEN=hunter2\n"})
    with pytest.raises(FileNotIndexed, match="secret") as err:
        fv(tmp_path, reader, name)
    assert "hunter2" not in str(err.value)


def test_symlink_to_a_secret_is_not_served(tmp_path):
    reader = make(tmp_path, {".env": "TOKEN=hunter2\n"})
    os.symlink(tmp_path / ".env", tmp_path / "settings.py")
    reader.paths = ["settings.py"]
    with pytest.raises(FileNotIndexed, match="secret"):
        fv(tmp_path, reader, "settings.py")


def test_secret_on_disk_but_not_indexed_says_it_is_never_served(tmp_path):
    reader = make(tmp_path, {"a.py": "x\n", "prod.pem": "-----BEGIN-----\n"})
    reader.paths.remove("prod.pem")
    with pytest.raises(FileNotIndexed, match="never"):
        fv(tmp_path, reader, "prod.pem")


def test_yaml_file_is_shown_as_keys_with_values_withheld(tmp_path):
    reader = make(tmp_path, {"deploy.yaml": "db:\n  host: db.internal\n  password: hunter2\n"})
    result = fv(tmp_path, reader, "deploy.yaml")
    assert result.values_withheld
    assert result.body == "1\tdb:\n2\t  host: <withheld>\n3\t  password: <withheld>"
    assert "hunter2" not in render_file_view(result) and "db.internal" not in render_file_view(result)
    assert "values withheld" in render_file_view(result)


def test_source_named_symlink_to_a_config_file_is_still_summarised(tmp_path):
    reader = make(tmp_path, {"conf.yaml": "token: hunter2\n"})
    os.symlink(tmp_path / "conf.yaml", tmp_path / "settings.py")
    reader.paths = ["settings.py"]
    result = fv(tmp_path, reader, "settings.py")
    assert result.values_withheld and result.body == "1\ttoken: <withheld>"


def test_env_template_is_shown_as_keys_only(tmp_path):
    reader = make(tmp_path, {".env.example": "API_KEY=abc123\n"})
    result = fv(tmp_path, reader, ".env.example")
    assert result.body == "1\tAPI_KEY=<withheld>"


# --- windows, budget, header ------------------------------------------------------------------------


def test_default_limit_is_2000_lines_and_says_how_to_get_the_rest(tmp_path):
    reader = make(tmp_path, {"big.py": "".join(f"x{i}\n" for i in range(1, 2501))})
    result = fv(tmp_path, reader, "big.py")
    assert (result.first_line, result.last_line, result.next_offset) == (1, 2000, 2001)
    assert result.body.endswith("2000\tx2000")
    assert "lines 1-2000 of 2501" in result.notice and "offset=2001" in result.notice


def test_window_that_reaches_the_end_has_no_notice(tmp_path):
    reader = make(tmp_path, {"a.py": "a\nb\nc\n"})
    result = fv(tmp_path, reader, "a.py", offset=2)
    assert result.body == "2\tb\n3\tc\n4\t"
    assert result.notice is None and result.next_offset is None


def test_character_budget_cuts_at_a_line_boundary_and_gives_the_next_offset(tmp_path):
    line = "y" * 99
    reader = make(tmp_path, {"wide.py": (line + "\n") * 1000})
    result = fv(tmp_path, reader, "wide.py")
    assert len(result.body) <= CHAR_BUDGET
    assert result.body.split("\n")[-1] == f"{result.last_line}\t{line}"
    assert result.next_offset == result.last_line + 1
    assert "character budget" in result.notice and f"offset={result.next_offset}" in result.notice


def test_following_next_offset_pages_through_the_whole_file_exactly(tmp_path):
    text = "".join(f"{'z' * (i % 150)}\n" for i in range(3000))
    reader = make(tmp_path, {"p.py": text})
    offset, pages = 1, []
    while offset is not None:
        result = fv(tmp_path, reader, "p.py", offset=offset)
        pages.append(result.body)
        offset = result.next_offset
    assert "\n".join(pages) == "\n".join(f"{n}\t{t}" for n, t in enumerate(text.split("\n"), start=1))


def test_single_line_longer_than_the_budget_is_cut_and_said(tmp_path):
    reader = make(tmp_path, {"min.js": "q" * (CHAR_BUDGET + 500) + "\nnext\n"})
    result = fv(tmp_path, reader, "min.js")
    assert len(result.body) == CHAR_BUDGET
    assert "only its start is shown" in result.notice and "offset=2" in result.notice


def test_offset_past_the_end_says_how_many_lines_there_are(tmp_path):
    reader = make(tmp_path, {"a.py": "a\nb"})
    result = fv(tmp_path, reader, "a.py", offset=9)
    assert result.body == ""
    assert "Offset 9 is past the end" in result.notice and "from 1 to 2" in result.notice


def test_header_gives_line_and_symbol_counts_and_dependents(tmp_path):
    reader = make(tmp_path, {"lib.py": "def f():\n    pass\n"})
    reader.symbols["lib.py"] = [sym("lib.py", "lib.py", "file", 1), sym("lib.py", "f", "function", 1)]
    reader.deps["lib.py"] = ["b.py", "a.py", "lib.py"]
    text = render_file_view(fv(tmp_path, reader, "lib.py"))
    header, body = text.split("\n", 1)
    assert header == "lib.py · 3 lines · 1 symbol · used by 2 files: a.py, b.py"
    assert body == "1\tdef f():\n2\t    pass\n3\t"


def test_header_says_when_nothing_depends_on_the_file(tmp_path):
    reader = make(tmp_path, {"solo.py": "x\n"})
    assert "used by no other indexed file" in render_file_view(fv(tmp_path, reader, "solo.py"))


def test_symbols_only_lists_name_kind_signature_line_by_line_order(tmp_path):
    reader = make(tmp_path, {"m.py": "class A:\n    def go(self): ...\n"})
    reader.symbols["m.py"] = [
        sym("m.py", "go", "method", 2, "def go(self)"),
        sym("m.py", "A", "class", 1),
        sym("m.py", "m.py", "file", 1),
    ]
    result = fv(tmp_path, reader, "m.py", symbols_only=True)
    assert [(s.name, s.kind, s.signature, s.line) for s in result.symbols] == [
        ("A", "class", None, 1),
        ("go", "method", "def go(self)", 2),
    ]
    assert result.body == ""
    assert render_file_view(result).split("\n")[1:] == ["1\tclass A", "2\tmethod def go(self)"]


def test_symbol_map_text_joins_name_and_parameters_and_indents_members(tmp_path):
    reader = make(tmp_path, {"q.py": "x\n"})
    method = sym("q.py", "filter", "method", 5, "( self,\n   *args )")
    method.qualified_name = "QuerySet::filter"
    reader.symbols["q.py"] = [sym("q.py", "QuerySet", "class", 1), method]
    text = render_file_view(fv(tmp_path, reader, "q.py", symbols_only=True))
    assert text.split("\n")[1:] == ["1\tclass QuerySet", "5\t  method filter(self, *args)"]


def test_symbols_only_caps_at_200_and_says_so(tmp_path):
    reader = make(tmp_path, {"many.py": "x\n"})
    reader.symbols["many.py"] = [sym("many.py", f"f{i}", "function", i) for i in range(1, 251)]
    result = fv(tmp_path, reader, "many.py", symbols_only=True)
    assert len(result.symbols) == 200 and result.symbols_truncated
    assert "first 200 of 250" in result.notice


def test_result_serialises_to_json_ready_dict(tmp_path):
    import json

    reader = make(tmp_path, {"a.py": "x\n"})
    data = fv(tmp_path, reader, "a.py").to_dict()
    assert json.loads(json.dumps(data))["body"] == "1\tx\n2\t"
