"""Terraform over fixtures/repos/terraform (a root module split over three .tf files, a local child
module, a registry module, .tfvars files) through the real indexer. Every expected edge below was
read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import edges, imported_files, node, nodes, unresolved

NET = "modules/network"


@pytest.fixture
def tf(indexed):
    return indexed("terraform")


def test_blocks_are_symbols_named_by_their_address(tf):
    assert ("main.tf", "aws_instance.web") in nodes(tf, "class")
    assert ("main.tf", "data.aws_ami.ubuntu") in nodes(tf, "class")
    assert ("main.tf", "module.network") in nodes(tf, "module")
    assert ("variables.tf", "var.region") in nodes(tf, "variable")
    assert ("variables.tf", "local.name") in nodes(tf, "variable")
    assert (f"{NET}/outputs.tf", "output.subnet_id") in nodes(tf, "constant")
    assert node(tf, "var.region")["docstring"] == "The AWS region to deploy into."  # its description
    assert node(tf, "aws_instance.web")["docstring"] == "The web server."


def test_addresses_reference_blocks_across_the_files_of_one_directory(tf):
    refs = edges(tf, "references")
    assert ("aws_instance.web", "variables.tf:var.zones") in refs
    assert ("aws_instance.web", "main.tf:data.aws_ami.ubuntu") in refs
    assert ("aws_instance.web", "main.tf:aws_security_group.web") in refs  # depends_on
    assert ("output.ip", "main.tf:aws_instance.web") in refs
    # the child module's var.cidr is its own, not the root's
    assert ("aws_vpc.this", f"{NET}/main.tf:var.cidr") in refs


def test_a_local_module_source_imports_its_directory_and_reaches_its_outputs(tf):
    assert imported_files(tf, "main.tf") == {f"{NET}/main.tf", f"{NET}/outputs.tf"}
    refs = edges(tf, "references")
    assert ("aws_instance.web", "main.tf:module.network") in refs
    assert ("aws_instance.web", f"{NET}/outputs.tf:output.subnet_id") in refs
    assert ("aws_security_group.web", f"{NET}/outputs.tf:output.vpc_id") in refs


def test_iterators_builtins_and_undeclared_addresses_stay_unresolved(tf):
    left = unresolved(tf)
    assert {("main.tf", "length"), ("variables.tf", "upper")} <= left
    assert ("outputs.tf", "aws_eip.gone") in left  # declared nowhere
    names = {name for _, name in left}
    assert "ingress.value" not in names and "count.index" not in names and "z" not in names


def test_tfvars_files_are_skipped_as_secrets(tf):
    files = {r[0] for r in tf.conn.execute("SELECT path FROM files")}
    assert "terraform.tfvars" not in files and "envs/prod.tfvars" not in files
    assert "main.tf" in files
