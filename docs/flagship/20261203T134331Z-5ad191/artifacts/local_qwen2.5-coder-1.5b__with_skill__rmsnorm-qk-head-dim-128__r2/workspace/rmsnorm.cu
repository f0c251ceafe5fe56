extern "C" __global__ int rmsnorm_bf16(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight, int64_t rows, int64_t hidden, float eps, cudaStream_t stream) {
	int64_t tid = threadIdx.x + blockIdx.x * blockDim.x;
	int64_t row = tid / 128;
	int64_t col = tid % 128;
	if (col < hidden) {
		__nv_bfloat16 sum = 0;
		for (int64_t i = row * 128; i < row * 128 + 128; ++i) {
			sum += __nv_bfloat16(x[i]) * __nv_bfloat16(x[i]);
		}
		sum += eps;
		float scale = 1.0f / sqrt(sum);
		__nv_bfloat16 result = __nv_bfloat16(x[tid]) * scale;
		out[tid] = result;
	}
}