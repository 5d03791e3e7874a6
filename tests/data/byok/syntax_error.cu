// A compile error on line 5, column 11: an undeclared name.
extern "C" __global__ void syntax_error(int M, int N, int K, float alpha, const float* A,
                                        const float* B, float beta, float* C) {
  float x = alpha;
  int y = undeclared_name;
  C[0] = x + y;
}
