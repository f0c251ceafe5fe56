void rmsnorm_bf16_kernel(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight, int64_t rows, int64_t hidden, float eps, cudaStream_t stream) {
    __shared__ __nv_bfloat16 mean[hidden];
    __shared__ __nv_bfloat16 variance[hidden];
    int64_t block_size = blockDim.x;
    int64_t thread_id = threadIdx.x;
    int64_t start = blockIdx.x * block_size + thread_id;
    int64_t end = min(start + block_size, rows);

    for (int64_t i = start; i < end; ++i) {
        __nv_bfloat16 sum = 0.f;
        for (int64_t j = 0; j < hidden; ++j) {
            sum += x[i * hidden + j] * x[i * hidden + j];
        }
        sum = sum / hidden;

        if (thread_id == 0) {
            mean[j] = sum;
        }
        __syncthreads();

        mean[j] = mean[j] / block_size;
    }

    if (thread_id == 0) {
        for (int64_t j = 0; j < hidden; ++j) {
            variance[j] = mean[j] * mean[j];
        }
    }

    __syncthreads();

    for (int64_t i = start; i < end; ++i) {
        __nv_bfloat16 sum = 0.f;
        for (int64_t j = 0; j < hidden; ++j) {
            sum += x[i * hidden + j] * x[i * hidden + j];
        }
        sum = sum / hidden;

        sum = sum - variance[j] + eps;

        if (thread_id == 0) {
            out[i * hidden] = sqrtf(sum) * weight[i] * x[i] / sum;
        }
        __syncthreads();
    }
}
