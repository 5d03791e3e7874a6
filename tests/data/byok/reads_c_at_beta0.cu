// kwb: entry=reads_c_at_beta0 block=16x16 tile=16x16
// Right at every beta, except that it reads C even when beta = 0 (no special case), as siboehm's
// naive SGEMM does: a NaN the caller left in C comes out. The canary (-3.0e-13) hides it
// (0 · canary = 0); C filled with quiet NaNs does not.
extern "C" __global__ void reads_c_at_beta0(int m, int n, int k, float alpha, const float* a,
                                            const float* b, float beta, float* c) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int q = 0; q < k; ++q) acc = fmaf(a[(long long)row * k + q], b[(long long)q * n + col], acc);
  float* out = c + (long long)row * n + col;
  *out = alpha * acc + beta * *out;
}
