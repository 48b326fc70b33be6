"""C# over fixtures/repos/csharp (a ledger: two projects, block and file-scoped namespaces, a partial
class in two files, a WinForms designer file, a using alias and a class that shadows System.Math)."""

from __future__ import annotations

import json

import pytest

from codegraph.index.extract import extract
from codegraph.index.languages import is_generated_path, is_test_path
from codegraph.index.languages.csharp import blank_preprocessor
from codegraph.query.relations import callees, callers
from tests.index.languages.fixture_graph import answers, calls_with_how, imported_files

ACC = "Ledger.Core.Accounts"
SVC = "Ledger.Core.Services"


def caller_names(reader, symbol):
    return sorted({s.node.qualified_name for g in callers(reader, symbol).groups for s in g.sites})


def callee_names(reader, symbol):
    return sorted({s.node.qualified_name for g in callees(reader, symbol).groups for s in g.sites})


def edges_of(reader, kind):
    return set(
        tuple(row)
        for row in reader.conn.execute(
            "SELECT s.qualified_name, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
            (kind,),
        )
    )


def edge_at(reader, path, line, ref_name):
    """The (kind, target qualified name) of the edges from ``path:line`` made for ``ref_name``."""
    return sorted(
        (kind, t)
        for kind, t, meta in reader.conn.execute(
            "SELECT e.kind, t.qualified_name, e.metadata FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE s.file_path = ? AND e.line = ?",
            (path, line),
        )
        if json.loads(meta or "{}").get("refName") == ref_name
    )


def unresolved_names(reader):
    return {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}


@pytest.fixture
def cs(indexed):
    return indexed("csharp")


def test_csharp_namespaces_qualify_names_in_block_and_file_scoped_form():
    block = b"namespace A.B\n{\n    public class C\n    {\n        public void M() { }\n    }\n}\n"
    scoped = b"namespace A.B;\n\npublic class C\n{\n    public void M() { }\n}\n"
    for src in (block, scoped):
        fx = extract("C.cs", src, "csharp")
        names = {n.qualified_name: n.kind for n in fx.nodes if n.kind not in ("file", "import")}
        assert names == {"A.B::C": "class", "A.B::C::M": "method"}
        # the class hangs off the file (namespaces are not nodes), the method off the class
        parents = {dict((n.id, n.qualified_name) for n in fx.nodes).get(c): p for p, c in fx.contains}
        assert parents["A.B::C"] == "file:C.cs"


def test_csharp_arguments_naming_a_local_are_no_references_but_method_groups_are():
    src = b"""class C {
    void Show(int x) { }
    void Run(int key) {
        var list = new System.Collections.Generic.List<int>();
        list.Add(key);
        list.ForEach(Show);
        void Inner(int n) { list.Add(n); list.ForEach(Inner); }
    }
}
"""
    values = sorted((r.line, r.name) for r in extract("C.cs", src, "csharp").refs if r.kind == "value")
    # key, n: a parameter; list: a local (the scope walk stops there); Show, Inner: method groups
    assert values == [(6, "Show"), (7, "Inner")]


def test_csharp_preprocessor_lines_are_blanked_keeping_the_first_branch_and_the_offsets():
    src = b"class A\n#if NET20\n    : B\n#else\n    : C\n#endif\n{\n}\n"
    out = blank_preprocessor(src)
    assert len(out) == len(src) and out.count(b"\n") == src.count(b"\n")
    assert b": B" in out and b": C" not in out and b"#" not in out


def test_csharp_an_if_inside_a_base_list_does_not_detach_the_members(cs):
    # Account.cs has `#if !NETSTANDARD1_0 , ICloneable #endif` between its base list and its body
    assert (f"{ACC}::Account", f"{ACC}::Account::Clone") in edges_of(cs, "contains")
    assert (f"{ACC}::Account", f"{ACC}::EntityBase") in edges_of(cs, "extends")
    assert (f"{ACC}::Account", f"{ACC}::IAuditable") in edges_of(cs, "implements")
    assert "ICloneable" in unresolved_names(cs)


def test_csharp_using_namespace_and_using_alias_reach_the_types(cs):
    made = {t for s, t in edges_of(cs, "instantiates") if s == "Ledger.App::Program::Main"}
    # `using Ledger.Core.Accounts;` → Account; `using Store = Ledger.Core.Services.InMemoryAccountStore;`
    assert {f"{ACC}::Account", f"{SVC}::InMemoryAccountStore", f"{SVC}::TransferService"} <= made
    assert "Ledger.App::MainForm" in made  # same namespace, no using


def test_csharp_a_using_links_only_the_namespace_files_the_file_uses(cs):
    core = "src/Ledger.Core"
    # Program.cs: new Account(…) in Account.cs; new Store() (the alias) and new TransferService(…);
    # not EntityBase.cs, the partial part Account.Audit.cs nor IAccountStore.cs, which it never names
    assert imported_files(cs, "src/Ledger.App/Program.cs") == {
        f"{core}/Accounts/Account.cs",
        f"{core}/Services/InMemoryAccountStore.cs",
        f"{core}/Services/TransferService.cs",
    }
    # an interface calls nothing, but `Account Find(string id);` names Account
    assert imported_files(cs, f"{core}/Services/IAccountStore.cs") == {f"{core}/Accounts/Account.cs"}


def test_csharp_same_and_enclosing_namespace_types_need_no_using(cs):
    # Account.cs constructs Money (EntityBase.cs, same namespace)
    assert (f"{ACC}::Account::Withdraw", f"{ACC}::Money") in edges_of(cs, "instantiates")
    assert f"{ACC}::AuditFormatter::Format" in callee_names(cs, "TransferService.Notify")


def test_csharp_a_project_class_shadows_system_math_only_where_its_namespace_is_used(cs):
    # TransferService.cs: using Ledger.Core.Util (no using System) → the project's Math.Clamp
    assert "Ledger.Core.Util::Math::Clamp" in callee_names(cs, "TransferService.Transfer")
    # Program.cs: using System only → System.Math.Max, no edge
    assert "Math.Max" in unresolved_names(cs)
    assert caller_names(cs, "Math.Clamp") == [f"{SVC}::TransferService::Transfer"]


def test_csharp_partial_class_parts_see_each_others_members(cs):
    # Account.Audit.cs (file-scoped namespace) calls Withdraw from Account.cs; Account.cs calls Record
    assert f"{ACC}::Account::Withdraw" in callee_names(cs, "Account.Reset")
    assert (f"{ACC}::Account::Withdraw", f"{ACC}::Account::Record") in edges_of(cs, "calls")
    # the designer half of MainForm holds InitializeComponent
    assert ("Ledger.App::MainForm::MainForm", "Ledger.App::MainForm::InitializeComponent") in edges_of(
        cs, "calls"
    )


def test_csharp_base_calls_reach_the_base_class_not_the_other_partial_part(cs):
    assert edge_at(cs, "src/Ledger.Core/Accounts/Account.cs", 62, "base.Describe") == [
        ("calls", f"{ACC}::EntityBase::Describe")
    ]


def test_csharp_typed_fields_parameters_and_locals_type_their_receivers(cs):
    transfer = callee_names(cs, "TransferService.Transfer")
    assert f"{SVC}::IAccountStore::Find" in transfer  # _store is an IAccountStore field
    assert f"{SVC}::IAccountStore::Save" in transfer  # this._store.Save(...)
    assert f"{ACC}::Account::Deposit" in transfer  # Account target = ...
    assert f"{ACC}::Account::Withdraw" in transfer  # var source = _store.Find(from): Find returns Account
    main = callee_names(cs, "Program.Main")
    assert f"{SVC}::TransferService::Transfer" in main  # var service = new TransferService(store)
    assert f"{SVC}::InMemoryAccountStore::Save" in main  # var store = new Store() (an alias)
    assert f"{ACC}::Account::Describe" in callee_names(cs, "TransferService.Notify")  # Account parameter


def test_csharp_a_constructor_call_instantiates_the_type(cs):
    assert (f"{ACC}::Money::Add", f"{ACC}::Money") in edges_of(cs, "instantiates")
    assert not any(t.endswith("::Money::Money") for _, t in edges_of(cs, "calls"))


def deposit_lines_called_from(reader, qname, start_line=None):
    rows = reader.conn.execute(
        "SELECT s.start_line, t.start_line, e.metadata FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls' AND s.qualified_name = ?"
        " AND t.qualified_name = ?",
        (qname, f"{ACC}::Account::Deposit"),
    ).fetchall()
    return sorted(
        (t, json.loads(m)["resolvedBy"]) for s, t, m in rows if start_line is None or s == start_line
    )


def test_csharp_overloads_are_told_apart_by_argument_count(cs):
    # Deposit(decimal) at line 33 delegates to Deposit(decimal, string) at line 38
    assert deposit_lines_called_from(cs, f"{ACC}::Account::Deposit", 33) == [(38, "member")]
    # Program.Main: bob.Deposit(5m) takes one argument
    assert deposit_lines_called_from(cs, "Ledger.App::Program::Main") == [(33, "type-inference")]
    assert deposit_lines_called_from(cs, f"{SVC}::TransferService::Transfer") == [(38, "type-inference")]


def test_csharp_a_derived_method_does_not_hide_the_base_overloads_its_call_fits(tmp_path):
    # Json.NET's JTokenReader (a JsonReader) declares SetToken(JToken) and calls the base's
    # SetToken(JsonToken, object) as SetToken(JsonToken.PropertyName, name): the 2-argument call went
    # to its own 1-parameter method at full confidence. Read from the snippet: F(1, null) is A.F,
    # F("x") B's own F, G(2) the override B.G (same parameter list: no ambiguity), H(3) fits both
    # B.H(string) and A.H(int) by count, so it is a guess

    (tmp_path / "A.cs").write_text(
        "namespace N {\n"
        "  public class A {\n"
        "    protected void F(int a, object b) { }\n"
        "    protected virtual void G(int a) { }\n"
        "    protected void H(int a) { }\n"
        "  }\n"
        "  public class B : A {\n"
        '    private void F(string s) { F(1, null); F("x"); }\n'
        "    protected override void G(int a) { G(2); }\n"
        "    private void H(string s) { H(3); }\n"
        "  }\n"
        "}\n"
    )
    calls = calls_with_how(tmp_path)
    assert calls == [
        (8, "N::A::F", "member"),
        (8, "N::B::F", "member"),
        (9, "N::B::G", "member"),
        (10, "N::B::H", "overload-guess"),
    ]


def test_csharp_extension_methods_bind_through_the_receivers_declared_type(cs):
    # `decimal capped = ...; capped.WithTax(0m)` with `using Ledger.Core.Util;` in TransferService.cs
    assert edge_at(cs, "src/Ledger.Core/Services/TransferService.cs", 29, "capped.WithTax") == [
        ("calls", "Ledger.Core.Util::DecimalExtensions::WithTax")
    ]


def test_csharp_builtins_external_and_dynamic_calls_stay_unresolved(cs):
    unresolved = unresolved_names(cs)
    assert {
        "Console.WriteLine",
        "System.Console.WriteLine",
        "listener.OnTransfer",
        "form.ShowDialog",
    } <= unresolved
    assert {"_accounts.TryGetValue", "GetType", "MemberwiseClone"} <= unresolved
    assert not any("Console" in t for _, t in edges_of(cs, "calls"))


def test_csharp_designer_files_are_generated_and_test_projects_are_tests():
    assert is_generated_path("src/App/MainForm.Designer.cs", "namespace App {")
    assert not is_generated_path("src/App/MainForm.cs", "namespace App {")
    assert is_test_path("src/Ledger.Core/AccountTests.cs")
    assert is_test_path("Src/Newtonsoft.Json.Tests/Linq/JObjectTests.cs")
    assert not is_test_path("src/Ledger.Core/Contest.cs")


def test_csharp_doc_comments_signatures_and_return_types_are_kept(cs):
    row = cs.conn.execute(
        "SELECT signature, return_type, docstring FROM nodes WHERE qualified_name = ? AND start_line = 33",
        (f"{ACC}::Account::Deposit",),
    ).fetchone()
    assert tuple(row) == ("(decimal amount)", "void", "Adds money to the account.")


def test_every_operation_answers_on_the_csharp_fixture(cs, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    root = cs.root
    cases = {
        "codegraph_search": ({"query": "TransferService"}, "src/Ledger.Core/Services/TransferService.cs"),
        "codegraph_node": (
            {"symbol": "TransferService.Transfer"},
            "(string from, string to, decimal amount)",
        ),
        "codegraph_callers": ({"symbol": "Account.Record"}, "Withdraw"),
        "codegraph_callees": ({"symbol": "TransferService.Transfer"}, "Clamp"),
        "codegraph_impact": ({"symbol": "Guard.Positive"}, "Deposit"),
        "codegraph_trace": ({"from": "Program.Main", "to": "Account.Record"}, "Deposit"),
        "codegraph_files": ({"path": "src/Ledger.Core"}, "Account.Audit.cs"),
        "codegraph_explore": ({"query": "how does a transfer move money between accounts"}, "Transfer"),
        "codegraph_status": ({}, "csharp"),
    }
    answers(root, cases)


def test_csharp_sync_after_editing_a_partial_part_equals_a_full_index(tmp_path):
    import os
    import shutil

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader
    from tests.conftest import FIXTURES

    def graph(root):
        with Reader(root) as r:
            return (
                set(r.conn.execute("SELECT id, kind, qualified_name, start_line FROM nodes")),
                set(r.conn.execute("SELECT source, target, kind, line, col FROM edges")),
                set(r.conn.execute("SELECT from_node_id, reference_name, line FROM unresolved_refs")),
            )

    live = tmp_path / "live"
    shutil.copytree(FIXTURES / "repos" / "csharp", live)
    index_project(ProjectPaths(live.resolve()), workers=1)
    audit = live / "src/Ledger.Core/Accounts/Account.Audit.cs"
    # Record moves out of the audit half; a new file takes the name over in a third part
    audit.write_text(
        audit.read_text().replace("private void Record(string what)", "private void Note(string what)")
    )
    (live / "src/Ledger.Core/Accounts/Account.Record.cs").write_text(
        "namespace Ledger.Core.Accounts;\n\npublic partial class Account\n{\n"
        "    private void Record(string what) { Note(what); }\n}\n"
    )
    st = audit.stat()
    os.utime(audit, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    index_project(ProjectPaths(live.resolve()), workers=1)
    fresh = tmp_path / "fresh"
    shutil.copytree(live, fresh, ignore=shutil.ignore_patterns(".codegraph"))
    index_project(ProjectPaths(fresh.resolve()), workers=1)
    assert graph(live) == graph(fresh)
    with Reader(live) as r:
        assert f"{ACC}::Account::Record" in {
            s.node.qualified_name for g in callees(r, "Account.Withdraw").groups for s in g.sites
        }
