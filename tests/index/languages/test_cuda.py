"""CUDA over fixtures/repos/cuda (kernels declared in a .cuh, defined in a .cu, launched from
main.cu) through the real indexer. Every expected edge below was read from the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.cfamily_helpers import index_fixture


@pytest.fixture(scope="module")
def g(tmp_path_factory):
    return index_fixture("cuda", tmp_path_factory.mktemp("cuda"))


def targets(g, file, line):
    return {(h.kind, h.target, h.target_file) for h in g.calls_at(file, line)}


def test_cu_and_cuh_files_are_cuda_and_a_plain_header_stays_c(g):
    assert g.language_of("src/vec.cu") == "cuda" and g.language_of("include/vec.cuh") == "cuda"
    assert g.language_of("src/launch.h") == "c"


def test_a_kernel_launch_is_a_call_to_the_kernel_definition(g):
    # main.cu:11 gpu::add<<<threads, 256>>>(…) — declared in vec.cuh, defined in vec.cu
    assert ("calls", "gpu::add", "src/vec.cu") in targets(g, "src/main.cu", 11)


def test_kernels_keep_their_qualifiers_in_the_signature(g):
    (decl,) = g.nodes("gpu::add", "function")[:1]
    assert decl["signature"].startswith("__global__ void add(")
    assert g.nodes("gpu::square")[0]["signature"].startswith("__device__ float square(")


def test_cpp_rules_apply_members_of_typed_locals_and_constructions(g):
    assert targets(g, "src/main.cu", 10) == {
        ("calls", "blocks_for", "src/launch.h"),
        ("calls", "gpu::Buffer::size", "include/vec.cuh"),
    }
    assert targets(g, "src/main.cu", 9) == {("instantiates", "gpu::Buffer", "include/vec.cuh")}
    assert targets(g, "src/vec.cu", 12) == {("calls", "gpu::square", "src/vec.cu")}


def test_runtime_api_and_unknown_kernels_stay_unresolved(g):
    assert targets(g, "src/main.cu", 12) == set() and "cudaDeviceSynchronize" in g.unresolved(
        "src/main.cu", 12
    )
    assert targets(g, "src/main.cu", 14) == set() and "unknown_kernel" in g.unresolved("src/main.cu", 14)
    assert targets(g, "src/vec.cu", 16) == set()  # cudaMalloc
