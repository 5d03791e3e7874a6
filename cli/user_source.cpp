// SPDX-License-Identifier: Apache-2.0
#include "user_source.h"

#include <iostream>

#include "kwb/error.h"
#include "output.h"

namespace kwb::cli {

void addSourceOptions(CLI::App& sub, SourceOpts& o, bool required) {
  auto* src = sub.add_option("--source", o.source,
                             "A .cu file with a GEMM kernel to compile with NVRTC and run as "
                             "user.<file stem> (docs/BRING_YOUR_OWN.md)");
  if (required) src->required();
  sub.add_option("--entry", o.entry, "The kernel's name (default: the file stem)");
  sub.add_option("--block", o.block,
                 "Threads per block: XxY, or expressions x[,y] of numbers and defines "
                 "(256, 32*32, 32,32) (default 16x16)");
  sub.add_option("--grid", o.grid,
                 "The grid as the kernel's launcher writes it, x first: expressions of M, N, K "
                 "and defines, e.g. ceil(M/32),ceil(N/32) (default: from --tile)");
  sub.add_option("--tile", o.tile,
                 "C tile per block, NxM: grid = ceil(N/tileN) x ceil(M/tileM) (default 64x64)");
  sub.add_option("--smem", o.smem, "Dynamic shared memory per block, bytes (default 0)")
      ->check(CLI::Range(0, 1 << 20));
  sub.add_option("--precision", o.precision, "fp32 (float A, B) or fp16 (__half A, B)");
  sub.add_option("--define", o.defines, "-D for the compile: K=V (repeatable)");
  sub.add_option("--max-source-bytes", o.limits.maxBytes, "Largest source file (default 4 MiB)")
      ->check(CLI::Range(std::uintmax_t(1), std::uintmax_t(1) << 34));
  sub.add_option("--max-include-depth", o.limits.maxIncludeDepth,
                 "Deepest nesting of #include \"...\" (default 16)")
      ->check(CLI::Range(0, 1000));
  sub.add_option("--max-include-bytes", o.limits.maxTotalBytes,
                 "Most bytes of #include \"...\" files, all reads counted (default 16 MiB)")
      ->check(CLI::Range(std::uintmax_t(0), std::uintmax_t(1) << 34));
  sub.add_option("--compiler", o.compiler,
                 "nvrtc (default; in a bounded child) or nvcc: the toolkit's nvcc builds a cubin, "
                 "for code NVRTC cannot take (host headers, host code)")
      ->check(CLI::IsMember({"nvrtc", "nvcc"}));
  sub.add_option("--include-dir", o.limits.includeDirs,
                 "A folder the source's #include may read from, besides its own folder and the "
                 "toolkit's (repeatable)");
  sub.add_option("--compile-timeout", o.compileTimeoutS,
                 "Give up on NVRTC after this many seconds (default 120)")
      ->check(CLI::Range(1.0, 86400.0));
  sub.add_option("--compile-memory", o.compileMemoryMib, "Memory NVRTC may use, MiB (default 8192)")
      ->check(CLI::Range(std::size_t(64), std::size_t(1) << 22));
}

UserLaunchSpec optionSpec(const SourceOpts& o) {
  UserLaunchSpec s;
  if (!o.entry.empty()) s.entry = o.entry;
  if (!o.block.empty()) parseBlock(s, o.block, "--block");
  if (!o.grid.empty()) s.grid = parseLaunchExpr(o.grid, "--grid");
  if (!o.tile.empty()) s.tile = parseDim2(o.tile, "--tile");
  if (o.smem >= 0) s.smemBytes = o.smem;
  if (!o.precision.empty()) {
    if (o.precision == "fp32")
      s.precision = Precision::kFp32;
    else if (o.precision == "fp16")
      s.precision = Precision::kFp16Fp32Acc;
    else
      throw InputError("--precision " + o.precision + ": not fp32 or fp16");
  }
  for (const auto& d : o.defines) {
    const auto eq = d.find('=');
    if (d.empty() || eq == 0) throw InputError("--define '" + d + "': not NAME or NAME=VALUE");
    s.defines[d.substr(0, eq)] = eq == std::string::npos ? "1" : d.substr(eq + 1);
  }
  return s;
}

cuda::CompiledUserKernel compileSource(const SourceOpts& o, const std::string& arch) {
  const auto src = cuda::readUserSource(o.source, o.limits);
  const bool nvcc = o.compiler == "nvcc";
  auto k = cuda::compileUserKernel(
      src, optionSpec(o), arch,
      nvcc ? cuda::nvccRunner(o.limits.includeDirs, o.compileTimeoutS, o.compileMemoryMib)
           : isolatedNvrtc(o),
      !nvcc);
  if (!k.log.empty()) std::cerr << k.log << (k.log.back() == '\n' ? "" : "\n");
  std::cerr << "compiled " << o.source << " (" << *k.spec.entry << ", " << k.arch << ", source "
            << k.hash << ") "
            << (k.fromCache ? "from the NVRTC cache"
                : nvcc      ? "with nvcc"
                            : "with NVRTC")
            << " in " << fixed(1000 * k.compileSeconds, 1) << " ms\n";
  return k;
}

}  // namespace kwb::cli
