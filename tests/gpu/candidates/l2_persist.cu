// Adversarial (issue 17, L2 persistence): correct, but on its first call it asks for persisting L2 lines (a cache
// limit and an access policy window over its input on the stream it was given), so its data survives the runner's
// L2 flush between timed calls. Skillforge's build refuses these imports; the runner, which run.sh drives without
// that scan, must reject the state itself.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>

#include "rmsnorm_rows.cuh"

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
