// kwb: entry=endless_loop block=16x16 tile=16x16
// Never returns: what --case-timeout exists for. __nanosleep keeps the loop from being removed
// as side-effect free, and keeps the GPU cool while it waits for the engine to end.
extern "C" __global__ void endless_loop(int m, int n, int k, float alpha, const float* a,
                                        const float* b, float beta, float* c) {
  for (;;) __nanosleep(1000);
}
