extern "C" int rmsnorm_bf16(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight, int64_t rows, int64_t hidden, float eps, cudaStream_t stream) {
	for (int r = 0; r < rows; ++r) {
		__nv_bfloat16* x_ptr = x + r * hidden;
		__nv_bfloat16* out_ptr = out + r * hidden;
		float sum = 0.0f;
		for (int i = 0; i < hidden; ++i) {
			sum += __nv_bfloat16(x_ptr[i]) * __nv_bfloat16(x_ptr[i]);
		}
		sum = sum / hidden + eps;
		float rsqrt_sum = 1.0f / sqrt(sum);
		for (int i = 0; i < hidden; ++i) {
			out_ptr[i] = __nv_bfloat16(x_ptr[i]) * rsqrt_sum * weight[i];
		}
	}
	return 0;
}