int rmsnorm_bf16(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight, int64_t rows, int64_t hidden, float eps, cudaStream_t stream) {
    rmsnorm_bf16_kernel(out, x, weight, rows, hidden, eps, stream);
    return 0;
}
