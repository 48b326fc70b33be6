"""The JSONC editor splices text: untouched bytes stay, edits undo exactly."""

from __future__ import annotations

import pytest
from codegraph_installer import jsonc


def test_parse_accepts_comments_and_trailing_commas():
    text = '{\n  // a\n  "x": [1, 2,], /* b */ "y": {"z": null,},\n}'
    assert jsonc.loads(text) == {"x": [1, 2], "y": {"z": None}}


def test_parse_error_names_line_and_column():
    with pytest.raises(jsonc.JsoncError) as caught:
        jsonc.parse('{\n  "a": 1\n  "b": 2\n}')
    assert (caught.value.line, caught.value.column) == (3, 3)


def test_inserting_after_a_member_with_a_trailing_comment_keeps_the_comment_on_its_line():
    text = '{\n  "a": 1 // note\n}\n'
    out = jsonc.set_value(text, ("b",), 2)
    assert out == '{\n  "a": 1, // note\n  "b": 2\n}\n'
    assert jsonc.remove(out, ("b",)) == text


def test_nested_insert_creates_objects_with_the_files_indent_and_prunes_them_on_removal():
    text = '{\n\t"k": true\n}'
    out = jsonc.set_value(text, ("p", "q"), ["v"])
    assert out == '{\n\t"k": true,\n\t"p": {\n\t\t"q": [\n\t\t\t"v"\n\t\t]\n\t}\n}'
    assert jsonc.remove(out, ("p", "q"), prune=1) == text


def test_single_line_containers_stay_single_line():
    text = '{"allow": ["a", "b"]}'
    out = jsonc.append(text, ("allow",), "c")
    assert out == '{"allow": ["a", "b", "c"]}'
    assert jsonc.remove(out, ("allow", 2)) == text


def test_setting_an_equal_value_returns_the_same_text():
    text = '{ "a" : { "b" : [1,2] } }'
    assert jsonc.set_value(text, ("a", "b"), [1, 2]) is text


def test_editing_through_a_non_object_is_refused():
    with pytest.raises(jsonc.JsoncError):
        jsonc.set_value('{"a": [1]}', ("a", "b"), 1)
