// kwb: entry=device_launch block=16x16 tile=16x16
// Launches a child kernel from the device, which could run on any stream: compiles (the device
// runtime's declarations are included), and kwb refuses it by the PTX contract check.
#include <cuda_device_runtime_api.h>

__global__ void child(float* c) { c[threadIdx.x] = 0.0f; }

extern "C" __global__ void device_launch(int m, int n, int k, float alpha, const float* a,
                                         const float* b, float beta, float* c) {
  if (threadIdx.x == 0 && blockIdx.x == 0) child<<<1, 32>>>(c);
}
