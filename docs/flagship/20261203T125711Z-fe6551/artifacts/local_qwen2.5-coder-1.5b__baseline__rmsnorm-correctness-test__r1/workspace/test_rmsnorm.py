#include "rmsnorm.h"

#include <iostream>

int main() {
  constexpr int64_t rows = 10;
  constexpr int64_t hidden = 32;
  float eps = 1e-4;

  __nv_bfloat16* out = nullptr;
  __nv_bfloat16* x = nullptr;
  __nv_bfloat16* weight = nullptr;
  cudaMalloc((void**)&out, rows * hidden * sizeof(__nv_bfloat16));
  cudaMalloc((void**)&x, rows * hidden * sizeof(__nv_bfloat16));
  cudaMalloc((void**)&weight, hidden * sizeof(__nv_bfloat16));

  // Initialize x, weight, and out with random values.
  // ... (fill with random values here)

  rmsnorm_bf16(out, x, weight, rows, hidden, eps, cudaStreamDefault);

  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < hidden; ++i) {
      std::cout << out[r * hidden + i] << " ";
    }
    std::cout << std::endl;
  }

  cudaFree(out);
  cudaFree(x);
  cudaFree(weight);

  return 0;
}