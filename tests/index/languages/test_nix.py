"""Nix over fixtures/repos/nix (a package set with a helper library, a callPackage'd package, a
NixOS module and a flake) through the real indexer. Every expected edge below was read off the
fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import edges, imported_files, node, nodes, unresolved

HELPERS = "lib/helpers.nix"


@pytest.fixture
def nix(indexed):
    return indexed("nix")


def test_let_bindings_result_attributes_and_nested_sets_are_symbols(nix):
    assert ("default.nix", "greet") in nodes(nix, "function")
    assert (HELPERS, "strings") in nodes(nix, "module")
    assert (HELPERS, "strings::twice") in nodes(nix, "function")
    assert node(nix, "greet")["docstring"] == "A greeting for a name."
    assert node(nix, "greet")["signature"] == "name:"
    assert not node(nix, "pad")["is_exported"]  # a let binding is private to its file


def test_import_call_package_and_imports_lists_link_files(nix):
    assert imported_files(nix, "default.nix") == {HELPERS, "pkgs/hello/default.nix"}  # a dir → default.nix
    assert imported_files(nix, "modules/service.nix") == {HELPERS, "modules/options.nix"}
    assert imported_files(nix, "flake.nix") == {"default.nix"}


def test_an_import_binding_reaches_the_attributes_the_file_evaluates_to(nix):
    calls = edges(nix, "calls")
    assert ("banner", f"{HELPERS}:frame") in calls  # helpers.frame
    assert ("mkUnit", f"{HELPERS}:shout") in calls  # helpers.shout from modules/
    assert ("greet", f"{HELPERS}:shout") in calls  # inherit (helpers) shout
    assert ("default.nix", "helpers.missing") in unresolved(nix)


def test_bare_names_follow_let_and_rec_scoping_only(nix):
    calls = edges(nix, "calls")
    assert ("loud", "default.nix:greet") in calls  # a let binding, seen from a rec set
    assert ("frame", f"{HELPERS}:pad") in calls  # the file's own let binding
    # `twice` is an attribute of a plain (non-rec) set: not in scope in its sibling
    assert (HELPERS, "twice") in unresolved(nix)
    # `greet` is a parameter of pkgs/hello/default.nix, not default.nix's greet
    assert ("pkgs/hello/default.nix", "greet") in unresolved(nix)


def test_parameters_with_scopes_and_builtins_never_bind(nix):
    left = unresolved(nix)
    assert {
        ("modules/service.nix", "mkIf"),
        (HELPERS, "lib.toUpper"),
        ("default.nix", "builtins.map"),
    } <= left
