// kwb: entry=fault_odd_m block=16x16 tile=16x16
// A right naive SGEMM at every shape but one kind: when M is odd, one thread writes far outside
// any allocation, an illegal address that loses the CUDA context. The case at an odd M is an
// error naming this file; the cases after it run in a fresh engine (docs/RELIABILITY.md).
extern "C" __global__ void fault_odd_m(int m, int n, int k, float alpha, const float* a,
                                       const float* b, float beta, float* c) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  if ((m & 1) && row == 0 && col == 0) c[1ll << 40] = 1.0f;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int q = 0; q < k; ++q) acc = fmaf(a[(long long)row * k + q], b[(long long)q * n + col], acc);
  float* out = c + (long long)row * n + col;
  *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
}
