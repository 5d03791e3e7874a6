// SPDX-License-Identifier: Apache-2.0
#pragma once
// Device helpers shared by the register-blocked, warp-tiled and mma.sync stages: how a tile
// load treats the matrix edge, and the order in which blocks walk the output tiles.
#include <cstdint>

namespace kwb::kernels::detail {

// How a kernel instantiation treats the edges of the matrices. Picked per launch on the host,
// so the aligned case runs code with no bounds checks at all.
//   kFull   every dimension is a multiple of the block tile: no guards, 16-byte accesses.
//   kVec    K % 4 == 0 and N % 4 == 0: a float4 of a row is wholly inside or wholly outside
//           the matrix (its column is a multiple of 4), so one guard per float4 suffices and
//           16-byte accesses stay aligned (cudaMalloc bases are 256-byte aligned).
//   kScalar anything else: element-wise guards, 4-byte accesses.
enum class Edge { kFull, kVec, kScalar };

// Four consecutive elements of row `row` starting at column `col` of a row-major matrix with
// `rows` rows, `cols` columns and leading dimension `ld`; zero outside the matrix, so a
// partial tile adds nothing to the dot products.
template <Edge E>
__device__ __forceinline__ float4 loadRow4(const float* __restrict__ p, std::int64_t ld, int row,
                                           int col, int rows, int cols) {
  const float* q = p + std::int64_t(row) * ld + col;
  if constexpr (E == Edge::kFull) {
    return *reinterpret_cast<const float4*>(q);
  } else if constexpr (E == Edge::kVec) {
    if (row < rows && col < cols) return *reinterpret_cast<const float4*>(q);
    return make_float4(0.f, 0.f, 0.f, 0.f);
  } else {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (row < rows) {
      if (col + 0 < cols) v.x = q[0];
      if (col + 1 < cols) v.y = q[1];
      if (col + 2 < cols) v.z = q[2];
      if (col + 3 < cols) v.w = q[3];
    }
    return v;
  }
}

// alpha·acc + beta·C for four consecutive elements of C; C is not read when beta == 0 (BLAS
// semantics: C may hold anything, NaN included).
template <Edge E>
__device__ __forceinline__ void storeRow4(float* __restrict__ c, std::int64_t ldc, int row, int col,
                                          int rows, int cols, float4 acc, float alpha, float beta) {
  float* q = c + std::int64_t(row) * ldc + col;
  if constexpr (E == Edge::kScalar) {
    if (row >= rows) return;
    const float v[4] = {acc.x, acc.y, acc.z, acc.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (col + i < cols) q[i] = beta == 0.f ? alpha * v[i] : fmaf(alpha, v[i], beta * q[i]);
    }
  } else {
    if constexpr (E == Edge::kVec) {
      if (row >= rows || col >= cols) return;
    }
    float4 r;
    if (beta == 0.f) {
      r = make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w);
    } else {
      const float4 old = *reinterpret_cast<const float4*>(q);
      r = make_float4(fmaf(alpha, acc.x, beta * old.x), fmaf(alpha, acc.y, beta * old.y),
                      fmaf(alpha, acc.z, beta * old.z), fmaf(alpha, acc.w, beta * old.w));
    }
    *reinterpret_cast<float4*>(q) = r;
  }
}

// Grouped tile order (the Triton "GROUP_M" swizzle): consecutive blocks walk a column of
// `group` tile rows before moving right, so the blocks resident at one time share a few A
// row panels and B column panels in L2 instead of streaming all of B for every row panel.
struct TileCoord {
  int tileRow;
  int tileCol;
};
__device__ __forceinline__ TileCoord groupedTile(unsigned block, int tilesM, int tilesN,
                                                 int group) {
  const int perGroup = group * tilesN;
  const int groupId = int(block) / perGroup;
  const int firstRow = groupId * group;
  const int rowsInGroup = min(tilesM - firstRow, group);
  const int inGroup = int(block) % perGroup;
  return {firstRow + inGroup % rowsInGroup, inGroup / rowsInGroup};
}

}  // namespace kwb::kernels::detail
