#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

// y[r, i] = x[r, i] * rsqrt(mean_i(x[r, :]^2) + eps) * weight[i]; weight may be null.
// x, out: [rows, hidden] bf16, row-major, contiguous. Returns 0 or a cudaError_t value.
extern "C" int rmsnorm_bf16(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight, int64_t rows, int64_t hidden, float eps, cudaStream_t stream);
