// kwb: entry=replays_cache block=16x16 tile=16x16
// Games the timer: correct for its first four launches (the guard check and the three
// verification runs), then returns at once, leaving whatever C holds. The timed launches'
// check catches it: C holds quiet NaNs before the samples and after them.
__device__ unsigned int g_launches;

extern "C" __global__ void replays_cache(int m, int n, int k, float alpha, const float* a,
                                         const float* b, float beta, float* c) {
  if (*(volatile unsigned int*)&g_launches >= 4) return;
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  if (row < m && col < n) {
    float acc = 0.0f;
    for (int q = 0; q < k; ++q)
      acc = fmaf(a[(long long)row * k + q], b[(long long)q * n + col], acc);
    float* out = c + (long long)row * n + col;
    *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
  }
  __syncthreads();
  if (blockIdx.x == gridDim.x - 1 && blockIdx.y == gridDim.y - 1 && threadIdx.x == 0 &&
      threadIdx.y == 0)
    atomicAdd(&g_launches, 1u);
}
