// kwb: entry=wrong_element block=16x16 tile=16x16
// A deliberately wrong user kernel: right everywhere except C[5][7], one too large.
extern "C" __global__ void wrong_element(int m, int n, int k, float alpha, const float* a,
                                         const float* b, float beta, float* c) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int q = 0; q < k; ++q) acc = fmaf(a[(long long)row * k + q], b[(long long)q * n + col], acc);
  if (row == 5 && col == 7) acc += 1.0f;
  float* out = c + (long long)row * n + col;
  *out = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *out);
}
