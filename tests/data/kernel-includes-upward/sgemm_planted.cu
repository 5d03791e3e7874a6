// A planted offender for kernels/check_includes.cmake: a kernel reaching into the run's session.
#include "kwb/cuda/check.h"
#include "kwb/cuda/gemm_session.h"
