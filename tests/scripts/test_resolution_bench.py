"""scripts/bench/resolution_bench.py's scorer: which edges count for a labelled site, on hand-made
indexes and a tiny real one whose edges are known by construction."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from tests.conftest import load_script

REPO = Path(__file__).resolve().parents[2]
bench = load_script("bench/resolution_bench.py")


def test_scoring_counts_wrong_missing_and_forbidden_edges(tmp_path):
    """The scorer itself, on a two-file repo whose edges are known by construction."""
    (tmp_path / "a.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return f()\n")
    (tmp_path / "b.py").write_text("from a import f\n\n\ndef h():\n    f()\n    len([])\n    print(1)\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    labels = {
        "sites": [
            {"file": "a.py", "line": 6, "callee": "f", "target": {"file": "a.py", "qualified_name": "f"}},
            {"file": "b.py", "line": 5, "callee": "f", "target": {"file": "b.py", "qualified_name": "f"}},
            {"file": "b.py", "line": 6, "callee": "len", "target": None},
            {"file": "b.py", "line": 7, "callee": "print", "target": {"file": "a.py", "qualified_name": "g"}},
        ]
    }
    s = bench.score(tmp_path / ".codegraph" / "codegraph.db", labels)["all"]
    # site 1 right; site 2 reaches a.py:f although the label (wrongly) says b.py: a wrong edge and a
    # miss; site 3 correctly has no edge; site 4 has no edge: a miss
    assert (s.tp, s.fp, s.fn, s.positives) == (1, 1, 2, 3)
    assert s.precision == 0.5 and s.recall == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    ("ref", "callee", "matches"),
    [
        ("self.save", "self.save", True),  # the same dotted text
        ("save", "self.save", True),  # the reference drops self./this. and other leading receivers
        ("children.append", "self.children.append", True),
        ("d.get", "self.get", False),  # same name, another receiver: another call on the line
        ("<expr>.filter", "<chain>.filter", True),  # codegraph's text for a call on a call's result
        ("super().save", "super().save", True),
        ("BaseEnvironment.__init__", "super().__init__", True),  # not a plain dotted callee: the name decides
        ("Subscription", "new Subscription", True),
        ("<expr>.values_list", "<chain>.filter", False),
        ("f", "g", False),
    ],
)
def test_callee_text_matches_its_dotted_chained_and_receiver_dropped_forms(ref, callee, matches):
    assert bench.callee_matches(ref, callee, "unused") is matches


def test_a_bare_call_of_codegraph_is_not_a_call_on_another_receiver_on_the_same_line():
    # activerecord: `serial? == other.serial?` — codegraph's edge for the bare serial? (implicit self)
    # stores "serial?"; only the reference, which drops receivers, may mean other.serial? by it
    assert not bench.callee_matches("serial?", "other.serial?", "serial?", drops_receivers=False)
    assert bench.callee_matches("serial?", "other.serial?", "serial?", drops_receivers=True)
    assert bench.callee_matches("other.serial?", "other.serial?", "serial?", drops_receivers=False)
    assert not bench.callee_matches("save", "self.save", "save", drops_receivers=False)
    # a TypeScript non-null assertion is not a Ruby name: not plain text, so the called name decides
    assert bench.callee_matches("<expr>.push", "this._subs!.push", "push", drops_receivers=False)


def test_callee_without_stored_text_matches_by_target_name():
    assert bench.callee_matches(None, "self.x.save", "save")
    assert not bench.callee_matches(None, "self.x.save", "delete")


def _hand_made_index(path, nodes, edges):
    """A SQLite file with the columns the scorer reads; ``nodes`` (id, file, qualified name, name, line),
    ``edges`` (source, target, line, refName)."""
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE nodes (id TEXT, file_path TEXT, qualified_name TEXT, name TEXT, start_line INT);"
        "CREATE TABLE edges (source TEXT, target TEXT, kind TEXT, line INT, metadata TEXT);"
    )
    conn.executemany("INSERT INTO nodes VALUES (?,?,?,?,?)", nodes)
    conn.executemany(
        "INSERT INTO edges VALUES (?,?,'calls',?,?)",
        [(s, t, ln, json.dumps({"refName": r})) for s, t, ln, r in edges],
    )
    conn.commit()
    conn.close()
    return path


def test_accepted_targets_are_not_wrong_and_a_labelled_line_matches_any_qualification(tmp_path):
    db = _hand_made_index(
        tmp_path / "i.db",
        [
            ("m", "u.py", "main", "main", 1),
            ("p", "conf.py", "path", "path", 9),  # path = partial(_path, ...): the alias's own binding
            ("g", "color.js", "getTransfer", "getTransfer", 83),  # an object-literal member, unqualified
            ("x", "other.js", "getTransfer", "getTransfer", 5),
        ],
        [("m", "p", 2, "path"), ("m", "g", 3, "ColorManagement.getTransfer"), ("m", "x", 4, "C.getTransfer")],
    )
    member = {
        "file": "color.js",
        "name": "getTransfer",
        "qualified_name": "ColorManagement::getTransfer",
        "line": 83,
    }
    labels = {
        "sites": [
            {
                "file": "u.py", "line": 2, "callee": "path", "resolver": "alias",
                "target": {"file": "conf.py", "name": "_path", "qualified_name": "_path"},
                "accept": [{"file": "conf.py", "name": "path", "qualified_name": "path"}],
            },
            {
                "file": "u.py", "line": 3, "callee": "ColorManagement.getTransfer", "resolver": "alias",
                "target": member,
            },
            {
                "file": "u.py", "line": 4, "callee": "C.getTransfer", "resolver": "dynamic",
                "target": member,
            },
        ]
    }  # fmt: skip
    result = bench.score(db, labels)
    s = result["all"]
    # site 1: only the accepted binding, so a miss but not wrong; site 2: the same definition by file,
    # name and line; site 3: a same-named member elsewhere is wrong
    assert (s.tp, s.fp, s.fn) == (1, 1, 2)
    assert [site["line"] for site, _ in s.wrong] == [4]
    assert (result["static"].sites, result["static"].tp, result["static"].fp) == (2, 1, 0)  # no dynamic site
