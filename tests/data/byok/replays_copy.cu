// kwb: entry=replays_copy block=16x16 tile=16x16
// Games the timer with a cache: correct for its first four launches (the guard check and the
// three verification runs), keeping its alpha = 1, beta = 0 answer in a buffer of its own; every
// later launch copies that answer into C, whatever A and B hold. It writes C each time, so a C
// filled with NaNs does not catch it: fresh inputs (--fresh-inputs) and the second seed do.
// Up to 512 × 512 outputs.
__device__ unsigned int g_launches;
__device__ float g_answer[512 * 512];

extern "C" __global__ void replays_copy(int m, int n, int k, float alpha, const float* a,
                                        const float* b, float beta, float* c) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const bool mine = row < m && col < n && (long long)row * n + col < 512 * 512;
  const bool replay = *(volatile unsigned int*)&g_launches >= 4;
  if (mine) {
    float* out = c + (long long)row * n + col;
    if (replay) {
      *out = alpha * g_answer[row * n + col];
    } else {
      float acc = 0.0f;
      for (int q = 0; q < k; ++q)
        acc = fmaf(a[(long long)row * k + q], b[(long long)q * n + col], acc);
      if (alpha == 1.0f && beta == 0.0f) g_answer[row * n + col] = acc;
      *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
    }
  }
  __syncthreads();
  if (!replay && blockIdx.x == gridDim.x - 1 && blockIdx.y == gridDim.y - 1 && threadIdx.x == 0 &&
      threadIdx.y == 0)
    atomicAdd(&g_launches, 1u);
}
