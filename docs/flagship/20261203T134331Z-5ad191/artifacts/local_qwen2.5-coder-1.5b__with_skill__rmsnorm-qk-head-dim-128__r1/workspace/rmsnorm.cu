#include <cuda_runtime.h>
#include <nvbfloat16.h>
#include <math.h>

extern "C" int rmsnorm_bf16(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight, int64_t rows, int64_t hidden, float eps, cudaStream_t stream) {
  int64_t size = rows * hidden;
  for (int64_t i = 0; i < size; ++i) {
    __nv_bfloat16 norm = x[i] * weight[i] + eps;
    out[i] = norm / sqrtf(norm);
  }
  return 0;
}