// kwb: entry=precomputed block=16x16 tile=16x16
// Times faster than the device can compute: correct for its first four launches (the guard
// check and the three verification runs), keeping its answer; every later launch copies that
// answer into C. At 1024³ a copy of 4 MiB takes a few microseconds where 2·1024³ FLOPs need
// about 30 at the FP32 peak of an H100, so the case is suspicious. Up to 1024 × 1024 outputs.
__device__ unsigned int g_launches;
__device__ float g_answer[1024 * 1024];

extern "C" __global__ void precomputed(int m, int n, int k, float alpha, const float* a,
                                       const float* b, float beta, float* c) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const bool mine = row < m && col < n && (long long)row * n + col < 1024 * 1024;
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
