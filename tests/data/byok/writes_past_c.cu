// kwb: entry=writes_past_c block=16x16 tile=16x16
// Right values, but no bounds check on the store: the last tile row writes past C's end
// (M is not a multiple of 16 in the test), into the guard region.
extern "C" __global__ void writes_past_c(int m, int n, int k, float alpha, const float* a,
                                         const float* b, float beta, float* c) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  if (row < m && col < n)
    for (int q = 0; q < k; ++q)
      acc = fmaf(a[(long long)row * k + q], b[(long long)q * n + col], acc);
  if (col >= n) return;
  float* out = c + (long long)row * n + col;  // row may be >= m
  *out = beta == 0.0f || row >= m ? alpha * acc : fmaf(alpha, acc, beta * *out);
}
