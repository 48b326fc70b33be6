"""Query operations over indexed fixtures: explore's envelope, node, impact, trace, ambiguity."""

from __future__ import annotations

import pytest

from codegraph.errors import InputTooLong, SymbolNotFound
from codegraph.query import explore
from codegraph.query.impact import impact
from codegraph.query.node import node
from codegraph.query.relations import callers
from codegraph.query.trace import trace
from codegraph.render import render


def test_explore_returns_the_named_method_and_what_it_reaches_within_budget(indexed):
    reader = indexed("python")
    result = explore.explore(reader, "how does QuerySet.filter build the WHERE clause")
    text = render(result)
    assert len(text) <= result.budget
    shown = {s.path for s in result.sections}
    assert {"shop/db/query.py", "shop/db/sql/query.py"} <= shown
    assert "def filter(self, *args, **kwargs):" in text and "def add_q(self, q):" in text
    assert result.seeds[0].qualified_name == "QuerySet::filter"
    assert "Read" not in text


def test_explore_flow_connects_two_named_symbols(indexed):
    reader = indexed("python")
    result = explore.explore(reader, "how does QuerySet.get reach Query.build_filter")
    assert [n.qualified_name for n, _ in result.flow] == [
        "QuerySet::get",
        "QuerySet::filter",
        "Query::add_q",
        "Query::build_filter",
    ]


def test_explore_with_no_matching_symbol_says_why(indexed):
    reader = indexed("python")
    result = explore.explore(reader, "zzqx qqzz")
    assert result.sections == [] and "No symbol in the index matches" in render(result)


def test_node_shows_source_callers_and_callees(indexed):
    reader = indexed("python")
    result = node(reader, "Query.add_q")
    assert result.source.splitlines()[0] == "12\t    def add_q(self, q):"
    assert [s.node.qualified_name for s in result.callers] == ["QuerySet::filter"]
    assert {s.node.qualified_name for s in result.callees} == {"Query::build_filter", "Node::add"}


def test_node_for_a_class_lists_members(indexed):
    reader = indexed("python")
    result = node(reader, "QuerySet")
    assert [m.name for m in result.members] == ["__init__", "filter", "get"]


def test_ambiguous_name_is_grouped_per_definition_and_narrowed_by_file(indexed):
    reader = indexed("python")
    groups = callers(reader, "add").groups
    assert [g.definition.qualified_name for g in groups] == ["Collector::add", "Node::add"]
    only = callers(reader, "add", file="utils/tree.py").groups
    assert [g.definition.qualified_name for g in only] == ["Node::add"]


def test_unknown_symbol_raises_with_suggestions_not_a_fuzzy_answer(indexed):
    reader = indexed("python")
    with pytest.raises(SymbolNotFound) as info:
        callers(reader, "build_filtr")
    assert "build_filter" in info.value.suggestions


def test_impact_walks_callers_and_subclasses_by_depth(indexed):
    reader = indexed("python")
    result = impact(reader, "Node", depth=3)
    depth1 = {n.qualified_name for n in result.by_depth[1]}
    assert {"WhereNode", "Query::add_q"} <= depth1
    assert "shop/db/query.py" in result.files


def test_trace_finds_the_call_path(indexed):
    reader = indexed("typescript")
    result = trace(reader, "double", "Subscriber.emit")
    # map's inline callback types `source: Observable<T>`, so source.subscribe resolves
    assert [s.node.qualified_name for s in result.path] == [
        "double",
        "map",
        "Observable::subscribe",
        "Subscriber::next",
        "Subscriber::emit",
    ]


def test_context_maps_chinese_words_to_identifiers(indexed):
    reader = indexed("python")
    result = explore.context(reader, "修改筛选的查询逻辑")
    assert "filter" in result.terms.words and "query" in result.terms.words
    assert any(n.name == "filter" for n, _ in result.symbols)


def test_text_inputs_are_bounded(indexed):
    reader = indexed("python")
    with pytest.raises(InputTooLong):
        explore.explore(reader, "x" * 10_001)


def test_node_of_an_edited_file_uses_current_line_numbers_and_answers_carry_a_banner(indexed, monkeypatch):
    from pathlib import Path

    from codegraph.mcp.dispatch import call_tool

    reader = indexed("python")
    target = reader.root / "shop" / "db" / "sql" / "query.py"
    target.write_text("# a new first line\n# and another\n" + target.read_text())
    result = node(reader, "Query.add_q")
    assert result.source.splitlines()[0] == "14\t    def add_q(self, q):"
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    answer = call_tool("codegraph_node", {"symbol": "Query.add_q"}, default_root=Path(reader.root))
    text = answer["content"][0]["text"]
    assert text.startswith("Note: changed on disk since the last index: shop/db/sql/query.py")
    fresh = call_tool("codegraph_explore", {"query": "Sitemap.items"}, default_root=Path(reader.root))
    assert "changed on disk" not in fresh["content"][0]["text"]


def test_node_of_a_symbol_removed_since_the_index_says_so(indexed):
    reader = indexed("python")
    (reader.root / "shop" / "db" / "deletion.py").write_text("# emptied\n")
    with pytest.raises(SymbolNotFound) as info:
        node(reader, "Collector.add")
    assert "no longer there" in str(info.value)


def test_a_member_named_through_a_subclass_is_found_on_its_base(indexed):
    reader = indexed("python")
    # WhereNode inherits add from tree.Node: WhereNode.add names Node::add
    assert [g.definition.qualified_name for g in callers(reader, "WhereNode.add").groups] == ["Node::add"]


def test_explore_on_a_named_class_shows_its_members_that_the_question_words_name(indexed):
    reader = indexed("python")
    result = explore.explore(reader, "how does Query add a where clause", max_chars=3000)
    assert any(n.qualified_name == "Query::add_q" for n in result.seeds)
    assert "def add_q(self, q):" in render(result)


def test_file_qualified_symbols_work_in_every_language_not_only_python_and_js(indexed):
    # adversarial pass 2026-12-01: `store/helpers.go:clampBonus` was "No symbol named …": the
    # file-qualified form the tool descriptions advertise recognised only .py/.js/.ts paths.
    from codegraph.query.symbols import find_symbols

    reader = indexed("go")
    (found,) = find_symbols(reader, "store/helpers.go:clampBonus")
    assert (found.name, found.file_path) == ("clampBonus", "store/helpers.go")
    (found,) = find_symbols(reader, "helpers.go:clampBonus")
    assert found.file_path == "store/helpers.go"


def test_a_name_that_exists_but_not_in_the_file_asked_for_says_where_it_is(indexed):
    # adversarial pass 2026-12-01: `node clampBonus --file typo.go` answered "Did you mean: clampBonus?".
    from codegraph.query.symbols import find_symbols

    reader = indexed("go")
    with pytest.raises(SymbolNotFound) as err:
        find_symbols(reader, "clampBonus", file="typo.go")
    assert str(err.value) == (
        "No symbol named 'clampBonus' in a file matching 'typo.go'; it is defined in store/helpers.go."
    )
