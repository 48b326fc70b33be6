"""CUDA (``.cu``, ``.cuh``): C++ with kernels, read by the C++ module's extractor and rules.

The pack's ``cuda`` grammar is tree-sitter-cpp plus CUDA: ``__global__``/``__device__``/
``__host__`` qualifiers parse as part of a declaration (they show in the signature), and a
kernel launch ``add<<<grid, block>>>(…)`` is a ``call_expression`` whose callee is the kernel, so
it is a call edge like any other. Everything else (namespaces, classes, out-of-line members,
overloads by argument count, ``#include`` across C, C++ and CUDA files) is C++'s: CUDA is in the C
family and shares the C++ query (``queries/cpp.scm``). The CUDA runtime API and device builtins
never bind to project definitions.
"""

from __future__ import annotations

from codegraph.index.languages.cfamily import CPP_BUILTINS, Cpp

CUDA_BUILTINS = CPP_BUILTINS | frozenset(
    """
cudaMalloc cudaMallocManaged cudaMallocHost cudaFree cudaFreeHost cudaMemcpy cudaMemcpyAsync cudaMemset
cudaMemsetAsync cudaDeviceSynchronize cudaDeviceReset cudaGetLastError cudaGetErrorString cudaPeekAtLastError
cudaSetDevice cudaGetDevice cudaGetDeviceCount cudaGetDeviceProperties cudaStreamCreate cudaStreamDestroy
cudaStreamSynchronize cudaEventCreate cudaEventRecord cudaEventSynchronize cudaEventElapsedTime
cudaEventDestroy cudaLaunchKernel cudaFuncSetAttribute cudaOccupancyMaxPotentialBlockSize
__syncthreads __syncwarp __threadfence __shfl_sync __shfl_down_sync __shfl_up_sync __shfl_xor_sync
__ballot_sync __any_sync __all_sync __ldg __fdividef __expf __logf __sinf __cosf __powf __float2half
__half2float __popc __clz __ffs atomicAdd atomicSub atomicExch atomicMin atomicMax atomicInc atomicDec
atomicCAS atomicAnd atomicOr atomicXor threadIdx blockIdx blockDim gridDim warpSize make_float2
make_float3 make_float4 make_int2 make_int3 make_int4 dim3 fminf fmaxf sqrtf rsqrtf expf logf powf fabsf
""".split()
)


class Cuda(Cpp):
    label = "cuda"
    grammar = "cuda"
    name = "CUDA"
    query = "cpp.scm"
    extensions = (".cu", ".cuh")
    builtins = CUDA_BUILTINS
    test_suffixes = ("_test.cu", "_tests.cu")
    extracts = (
        "as C++ (namespaces, classes, methods, functions, templates, macros, doc comments); "
        "__global__/__device__ kernels with their qualifiers in the signature"
    )
    resolution = (
        "as C++ (#include across C/C++/CUDA, namespaces, typed receivers, overloads by argument "
        "count); kernel launches f<<<…>>>(…) are calls; CUDA runtime/device builtins never bind"
    )


LANGUAGES = (Cuda(),)
