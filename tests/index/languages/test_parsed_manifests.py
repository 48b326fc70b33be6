"""base.parsed_manifests: the one loop the languages that read manifests (Dart, PHP, Rust, the
JS/TS family) share — which manifests come through, and the reason each other one is given."""

import json

import pytest

from codegraph.index.languages.base import parsed_manifests


def test_readable_parsed_manifests_come_through_in_order_and_the_others_say_why():
    manifests = {
        "a/package.json": '{"name": "a"}',
        "b/package.json": None,
        "c/package.json": "{ not json",
        "d/package.json": '{"name": "d"}',
    }
    problems: dict[str, str] = {}
    got = list(parsed_manifests(manifests, lambda _, text: json.loads(text), problems))
    assert got == [("a/package.json", {"name": "a"}), ("d/package.json", {"name": "d"})]
    assert problems["b/package.json"] == "unreadable (or not UTF-8)"
    assert problems["c/package.json"].startswith("not parseable: Expecting property name")
    assert set(problems) == {"b/package.json", "c/package.json"}


def test_the_reason_is_the_errors_first_line_or_its_type_and_the_caller_names_the_kind():
    def parse(path: str, text: str) -> str:
        if text == "silent":
            raise ValueError()
        if text == "shape":
            raise KeyError("x")
        raise ValueError("first line " + "y" * 300 + "\nsecond line")

    problems: dict[str, str] = {}
    why = lambda exc: "not usable" if isinstance(exc, KeyError) else "not parseable"  # noqa: E731
    manifests = {"long": "long", "silent": "silent", "shape": "shape"}
    assert list(parsed_manifests(manifests, parse, problems, errors=(ValueError, KeyError), why=why)) == []
    assert problems["silent"] == "not parseable: ValueError"
    assert problems["shape"] == "not usable: 'x'"
    assert problems["long"] == "not parseable: " + ("first line " + "y" * 300)[:160]


def test_an_error_outside_the_listed_ones_or_in_the_callers_loop_is_not_swallowed():
    def boom(path: str, text: str) -> str:
        raise TypeError("a bug, not a bad manifest")

    with pytest.raises(TypeError):
        list(parsed_manifests({"m": "x"}, boom, {}))
    problems: dict[str, str] = {}
    with pytest.raises(ValueError, match="the caller's"):  # a ValueError, one of the listed errors
        for _path, _value in parsed_manifests({"m": "1"}, lambda _, t: int(t), problems):
            raise ValueError("the caller's own")
    assert problems == {}
