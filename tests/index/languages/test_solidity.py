"""Solidity over fixtures/repos/solidity (a small vault package: contracts/, an interface, a library
attached with ``using``, two bases sharing ``_update``, a Foundry test) through the real indexer.
Every expected edge below was read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import edges, imported_files, node, nodes, unresolved

VAULT = "contracts/Vault.sol"


@pytest.fixture
def sol(indexed):
    return indexed("solidity")


def test_contracts_interfaces_libraries_and_members_are_symbols(sol):
    assert ("contracts/utils/MathLib.sol", "MathLib") in nodes(sol, "module")
    assert ("contracts/interfaces/IVault.sol", "IVault") in nodes(sol, "interface")
    assert (VAULT, "Vault::deposit") in nodes(sol, "method")
    assert ("contracts/utils/Ownable.sol", "Ownable::onlyOwner") in nodes(sol, "method")  # a modifier
    assert ("contracts/token/Token.sol", "Account::nonce") in nodes(sol, "field")
    assert node(sol, "Vault")["docstring"] == "@title Vault @dev Holds deposits of one Asset."


def test_is_gives_extends_for_contracts_and_implements_for_interfaces(sol):
    assert ("Vault", "contracts/utils/Ownable.sol:Ownable") in edges(sol, "extends")
    assert ("Vault", "contracts/interfaces/IVault.sol:IVault") in edges(sol, "implements")


def test_imports_resolve_relative_and_remapped_package_paths(sol):
    # "@acme/vault/contracts/utils/Ownable.sol" is this package's own contracts/utils/Ownable.sol
    assert imported_files(sol, VAULT) == {
        "contracts/interfaces/IVault.sol",
        "contracts/utils/Ownable.sol",
        "contracts/utils/Pausable.sol",
        "contracts/token/Token.sol",
        "contracts/utils/MathLib.sol",
    }
    # "forge-std/Test.sol" is not in the project: its base and helpers stay unresolved
    assert ("test/Vault.t.sol", "Test") in unresolved(sol)
    assert ("test/Vault.t.sol", "assertEq") in unresolved(sol)


def test_super_follows_the_right_to_left_linearisation(sol):
    # Vault is IVault, Ownable, Pausable: super._update is Pausable's
    assert ("Vault::_update", "contracts/utils/Pausable.sol:Pausable::_update") in edges(sol, "calls")


def test_using_attaches_library_functions_and_overloads_go_by_argument_count(sol):
    calls = edges(sol, "calls")
    assert ("Vault::deposit", "contracts/utils/MathLib.sol:MathLib::add") in calls  # _total.add(amount)
    assert ("Token::mint", "contracts/utils/MathLib.sol:MathLib::add") in calls  # via import "…MathLib.sol"
    rows = sol.conn.execute(
        "SELECT t.start_line FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        " WHERE e.kind = 'calls' AND s.qualified_name = 'Vault::deposit' AND t.name = 'add'"
    )
    assert sorted(r[0] for r in rows) == [8, 14]  # x.add(y): two parameters; MathLib.add(a, b, 0): three


def test_conversions_call_the_interface_member_and_new_instantiates(sol):
    calls = edges(sol, "calls")
    assert ("Vault::deposit", "contracts/interfaces/IVault.sol:IVault::balanceOf") in calls
    assert ("Vault::deposit", "contracts/token/Token.sol:Token::mint") in calls  # Asset(addr).mint
    assert ("Vault::constructor", "contracts/token/Token.sol:Token") in edges(sol, "instantiates")
    assert ("Vault::constructor", "contracts/utils/Ownable.sol:Ownable::constructor") in calls
    assert (VAULT, "IVault") in unresolved(sol)  # the conversion itself is no call


def test_events_modifiers_and_inherited_interface_events_are_called(sol):
    calls = edges(sol, "calls")
    assert ("Vault::deposit", "contracts/utils/Ownable.sol:Ownable::onlyOwner") in calls
    assert ("Vault::deposit", "contracts/interfaces/IVault.sol:IVault::Deposited") in calls
    assert ("MathLib::add", "contracts/utils/MathLib.sol:MathLib::Overflow") in calls  # revert


def test_globals_never_bind_to_project_code(sol):
    assert {(VAULT, "keccak256"), (VAULT, "abi.encode")} <= unresolved(sol)
    assert ("contracts/utils/Pausable.sol", "require") in unresolved(sol)


def test_same_arity_overloads_go_by_the_declared_types_of_the_arguments(sol):
    rows = sol.conn.execute(
        "SELECT e.line, t.start_line FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t"
        " ON t.id = e.target WHERE e.kind = 'calls' AND s.qualified_name = 'Token::mint' AND t.name = 'toBytes'"
    )
    # line 24 MathLib.toBytes(to): `to` is an address; line 25 value.toBytes(): a uint256 through `using`
    assert sorted(tuple(r) for r in rows) == [(24, 26), (25, 22)]
