// Adversarial (issue 17, L2 persistence): correct, but on its first call it asks for persisting L2 lines (a cache
// limit and an access policy window over its input on the stream it was given), so its data survives the runner's
// L2 flush between timed calls. Skillforge's build refuses these imports; the runner, which run.sh drives without
// that scan, must reject the state itself.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>

__global__ void rmsnormRows(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t hidden,
                            float eps)
{
    __shared__ float partial[256];
    const int64_t base = int64_t(blockIdx.x) * hidden;
    float ss = 0.f;
    for (int64_t i = threadIdx.x; i < hidden; i += 256) {
        const float v = __bfloat162float(x[base + i]);
        ss += v * v;
    }
    partial[threadIdx.x] = ss;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    const float inv = rsqrtf(partial[0] / float(hidden) + eps);
    for (int64_t i = threadIdx.x; i < hidden; i += 256)
        out[base + i] = __float2bfloat16(__bfloat162float(x[base + i]) * inv * __bfloat162float(w[i]));
}

namespace {
bool asked = false;
} // namespace

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    if (!asked) {
        asked = true;
        int device = 0, limit = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&limit, cudaDevAttrMaxPersistingL2CacheSize, device);
        cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, size_t(limit));
        cudaStreamAttrValue window{};
        window.accessPolicyWindow.base_ptr = const_cast<__nv_bfloat16 *>(x);
        window.accessPolicyWindow.num_bytes = std::min<size_t>(size_t(rows * hidden) * 2, size_t(limit));
        window.accessPolicyWindow.hitRatio = 1.0f;
        window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window);
        cudaGetLastError(); // a device without persisting L2 refuses: the kernel stays correct either way
    }
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    return int(cudaGetLastError());
}
