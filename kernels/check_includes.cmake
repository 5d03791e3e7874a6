# SPDX-License-Identifier: Apache-2.0
# Fails when a kernel source includes from core/cuda beyond what kernels may use (see
# docs/ARCHITECTURE.md, "What a kernel may include"): kwb/cuda/check.h everywhere (a failed
# CUDA call becomes the CudaError the case loop records, sticky or not) and kwb/cuda/cublas_gemm.h
# in the cuBLAS references only, kwb/cuda/family_driver.h, vector_family.h, device_buffer.h,
# verdict.h and input_sets.h in a family's driver (files named *_family.*, which implement the family interface: a driver
# owns its cases' device buffers) and in registry.cpp, which registers them. Everything else a
# kernel needs is core's model headers (kwb/*.h) or its own folder. Run: cmake -DKERNELS_DIR=<dir> -P check_includes.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT KERNELS_DIR OR NOT IS_DIRECTORY "${KERNELS_DIR}")
  message(FATAL_ERROR "check_includes: pass -DKERNELS_DIR=<the kernels directory>")
endif()
get_filename_component(KERNELS_DIR "${KERNELS_DIR}" ABSOLUTE)
set(allowed_everywhere "kwb/cuda/check.h")
set(allowed_in_references "kwb/cuda/cublas_gemm.h")  # files named cublas_*
set(allowed_in_drivers "kwb/cuda/family_driver.h" "kwb/cuda/vector_family.h"
    "kwb/cuda/device_buffer.h" "kwb/cuda/verdict.h" "kwb/cuda/gemm_family.h"
    "kwb/cuda/input_sets.h")  # *_family.*

file(GLOB_RECURSE sources "${KERNELS_DIR}/*.cu" "${KERNELS_DIR}/*.cuh" "${KERNELS_DIR}/*.cpp"
     "${KERNELS_DIR}/*.h")
set(problems "")
list(LENGTH sources checked)
foreach(source IN LISTS sources)
  file(RELATIVE_PATH name "${KERNELS_DIR}" "${source}")
  get_filename_component(base "${source}" NAME)
  file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"kwb/cuda/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[^\"]*\"([^\"]*)\".*$" "\\1" header "${line}")
    if(header IN_LIST allowed_everywhere)
      continue()
    endif()
    if(header IN_LIST allowed_in_references AND base MATCHES "^cublas_")
      continue()
    endif()
    if(header IN_LIST allowed_in_drivers AND base MATCHES "(_family\\.[a-z]+|^registry\\.cpp)$")
      continue()
    endif()
    string(APPEND problems "\n  ${name} includes ${header}")
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "kernels include core/cuda beyond check.h (cublas_gemm.h in the "
                      "cuBLAS references, family_driver.h, vector_family.h, device_buffer.h, "
                      "verdict.h and input_sets.h in a family's driver):${problems}")
endif()
if(checked EQUAL 0)
  message(FATAL_ERROR "check_includes: no sources under '${KERNELS_DIR}'")
endif()
message(STATUS "kernel includes: ${checked} sources checked")
