extern "C" __global__ void syntax_error(int M, int N, int K, float alpha, const float* A,
                                        const float* B, float beta, float* C) {
  int x = 3 C[0] = x;
}
