# SPDX-License-Identifier: Apache-2.0
# Tuning configurations of the tunable kernels (kwb tune). This file is the one list of which
# kernels are tunable and with which configurations: it generates tune_configs.inc, the table
# kernels/registry.cpp reads to mark a descriptor tunable and tuning_variants.cpp reads to hand
# out its configurations, so the build and the C++ lists cannot disagree.
#
# Each configuration becomes its own translation unit, generated from one template per kernel
# (the CUB %PARAM% idea), so the build compiles them in parallel and a change to one entry
# rebuilds one file. Keep the lists short: CI compiles every entry for every architecture on
# 2 cores.

set(_kwb_tune_dir ${CMAKE_CURRENT_BINARY_DIR}/tune)
set(_kwb_tune_decls "")
set(_kwb_tune_lists "")
set(_kwb_tune_table "")
set(_kwb_tune_sources "")
set(_kwb_tune_count 0)    # configurations so far: each factory is tuneConfig<n>
set(_kwb_tune_kernels 0)  # kernels so far: each list is variantsOf<k>

# kwb_tune_kernel(<kernel id> TEMPLATE <file in tune/> PARAMS <names...> NAME <pattern>
#                 CONFIGS <"v1,v2,...">...)
# One generated .cu per entry of CONFIGS: the template sees the entry as @KWB_TUNE_PARAMS@,
# the factory's name as @KWB_TUNE_FN@ and the configuration's name as @KWB_TUNE_NAME@, which is
# NAME with each @PARAM@ replaced by that entry's value.
function(kwb_tune_kernel id)
  cmake_parse_arguments(T "" "TEMPLATE;NAME" "PARAMS;CONFIGS" ${ARGN})
  list(LENGTH T_PARAMS nParams)
  set(n ${_kwb_tune_count})
  set(calls "")
  foreach(params IN LISTS T_CONFIGS)
    string(REPLACE "," ";" values "${params}")
    list(LENGTH values nValues)
    if(NOT nValues EQUAL nParams)
      message(FATAL_ERROR "kwb_tune_kernel(${id}): '${params}' has ${nValues} values, "
                          "PARAMS names ${nParams}")
    endif()
    foreach(name value IN ZIP_LISTS T_PARAMS values)
      set(${name} ${value})
    endforeach()
    string(CONFIGURE "${T_NAME}" KWB_TUNE_NAME @ONLY)
    set(KWB_TUNE_PARAMS "${params}")
    set(KWB_TUNE_FN "tuneConfig${n}")
    set(out ${_kwb_tune_dir}/tune_config_${n}.cu)
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/tune/${T_TEMPLATE} ${out} @ONLY)
    list(APPEND _kwb_tune_sources ${out})
    string(APPEND _kwb_tune_decls "TuneVariant ${KWB_TUNE_FN}();\n")
    if(calls)
      string(APPEND calls ", ")
    endif()
    string(APPEND calls "${KWB_TUNE_FN}()")
    math(EXPR n "${n} + 1")
  endforeach()
  set(k ${_kwb_tune_kernels})
  string(APPEND _kwb_tune_lists
         "inline std::vector<TuneVariant> variantsOf${k}() { return {${calls}}; }  // ${id}\n")
  string(APPEND _kwb_tune_table "    {\"${id}\", &variantsOf${k}},\n")
  math(EXPR k "${k} + 1")
  foreach(v _kwb_tune_sources _kwb_tune_decls _kwb_tune_lists _kwb_tune_table)
    set(${v} "${${v}}" PARENT_SCOPE)
  endforeach()
  set(_kwb_tune_count ${n} PARENT_SCOPE)
  set(_kwb_tune_kernels ${k} PARENT_SCOPE)
endfunction()

# threads = BM/WM · BN/WN · 32 for both kernels.
kwb_tune_kernel(sgemm.warp_tiled
  TEMPLATE warp_tiled_cfg.cu.in
  PARAMS BM BN BK WM WN WNITER TM TN
  NAME "@BM@x@BN@x@BK@_w@WM@x@WN@_t@TM@x@TN@x@WNITER@"
  CONFIGS
    "128,128,16,64,64,4,8,4"   # the registered default: 4 warps, 8x16 outputs per thread
    "128,128,8,64,64,4,8,4"    # half the K slice: less shared memory, twice the barriers
    "128,128,16,64,32,2,8,4"   # 8 warps, 8x8 outputs per thread: more warps, less reuse
    "128,256,16,64,64,4,8,4"   # 8 warps, wider tile: more reuse of A, 50 KB shared memory
    "128,64,16,64,32,2,8,4"    # 4 warps, 8x8 per thread: more blocks for mid-size shapes
    "64,128,16,32,64,4,4,4"    # 4 warps, 4x16 per thread: more blocks for mid-size shapes
    "64,128,16,32,32,2,4,4"    # 8 warps, 4x8 per thread: the same blocks, twice the warps
    "64,64,16,32,32,2,4,4"     # 4 warps, 4x8 per thread: the split-K tile, 4x the blocks
)
kwb_tune_kernel(sgemm.mma_multistage
  TEMPLATE mma_multistage_cfg.cu.in
  PARAMS BM BN BK WM WN STAGES
  NAME "@BM@x@BN@x@BK@_w@WM@x@WN@_s@STAGES@"
  CONFIGS
    "128,256,32,64,64,4"  # the first default: 8 warps, 96 KB
    "128,256,32,64,64,3"  # one stage less: 72 KB
    "256,128,32,64,64,3"  # the transposed block tile
    "128,128,32,64,64,4"  # the registered default (fastest at 4096^3, H200): 4 warps, 2 blocks/SM
    "128,128,32,64,32,4"  # 8 warps of 64x32: more warps, less fragment reuse
    "128,128,64,64,32,3"  # deeper K slice: half the barriers per FLOP, 8 warps of 64x32
    "64,128,32,32,64,4"   # small tile: more blocks for mid-size shapes
)

# sgemm.wgmma (sm_90a builds only, _kwb_archs_90a from kernels/CMakeLists.txt): the 128-row
# block tile's width × the split-K count, through the global workspace (split: 1 is whole K; 2
# and 4 kept from the measured sweep, where 3, 6 and 8 were slower still) or across a cluster
# through distributed shared memory (csplit, 2-6 and 8), then the 128-row tile 192 and 48 wide,
# the 64-row tiles (one consumer warpgroup; 64x64 two CTAs per SM, 64x96 one), these four whole K
# only, and last the 128-row tiles 48, 64 and 128 wide in 2-CTA clusters sharing A (ashare) and
# 64 and 128 wide in 2x2 clusters sharing A and B (abshare), whole K, and the 64-row tile 128 wide
# in pairs sharing B (bshare). Each entry is a small file that calls the kernel's own launchers
# with its cell (launchSgemmWgmmaPlan, launchSgemmWgmmaSharedA), so 37 entries cost no kernel
# instantiations: `kwb tune --kernel sgemm.wgmma --shapes ...` sweeps them all in one run, and
# the default choice (sgemm_wgmma_choice.cpp) is set from what it measures.
if(_kwb_archs_90a)
  set(_kwb_wgmma_configs "")
  foreach(bn 64 128 256)
    foreach(splits 1 2 4)
      list(APPEND _kwb_wgmma_configs "128,${bn},${splits},split")
    endforeach()
    foreach(splits 2 3 4 5 6 8)
      list(APPEND _kwb_wgmma_configs "128,${bn},${splits},csplit")
    endforeach()
  endforeach()
  list(APPEND _kwb_wgmma_configs "128,192,1,split" "128,48,1,split" "64,64,1,split"
       "64,96,1,split" "128,48,1,ashare" "128,64,1,ashare" "128,128,1,ashare" "128,64,1,abshare"
       "128,128,1,abshare" "64,128,1,bshare")
  kwb_tune_kernel(sgemm.wgmma
    TEMPLATE wgmma_cfg.cu.in
    PARAMS BM BN SPLITS KIND
    NAME "@BM@x@BN@x64_@KIND@@SPLITS@"
    CONFIGS ${_kwb_wgmma_configs})
endif()

# file(CONFIGURE) rewrites the header only when its text changes, so a re-configure does not
# rebuild what includes it.
file(CONFIGURE OUTPUT ${_kwb_tune_dir}/tune_configs.inc CONTENT
"// Generated by kernels/tune/tune.cmake: the tunable kernels of this build and their
// configurations, in sweep order.
#pragma once
#include \"tuning_variants.h\"

namespace kwb::kernels::tune {

@_kwb_tune_decls@
@_kwb_tune_lists@
struct TunableKernel {
  std::string_view id;
  std::vector<TuneVariant> (*variants)();
};

inline constexpr TunableKernel kTunableKernels[] = {
@_kwb_tune_table@};

}  // namespace kwb::kernels::tune
" @ONLY)

target_sources(kwb_kernels PRIVATE tuning_variants.cpp ${_kwb_tune_sources})
target_include_directories(kwb_kernels PRIVATE ${_kwb_tune_dir})
