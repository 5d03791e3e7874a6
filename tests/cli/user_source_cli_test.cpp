// SPDX-License-Identifier: Apache-2.0
// A user's source as its author wrote it, and what it may reach (docs/BRING_YOUR_OWN.md,
// "Includes" and "Code that builds with nvcc"). NVRTC needs no GPU: these run in CI.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "kwb/error.h"
#include "run_process.h"

namespace {
namespace fs = std::filesystem;
const std::string kData = KWB_SOURCE_DIR "/tests/data/byok/";
constexpr const char* kKernel =
    "extern \"C\" __global__ void k(int M, int N, int K, float alpha, const float* A,\n"
    "                               const float* B, float beta, float* C) { C[0] = X; }\n";

// k.cu in a fresh folder: `head` then a kernel that needs X defined.
fs::path kernelFile(const std::string& folder, const std::string& head) {
  const fs::path d = tempDir(folder);
  std::ofstream(d / "k.cu") << head << "\n" << kKernel;
  return d / "k.cu";
}

ProcessResult compile(const fs::path& file, std::vector<std::string> more = {}) {
  std::vector<std::string> args{"compile", "--source", file.string()};
  args.insert(args.end(), more.begin(), more.end());
  return runKwb(args);
}

}  // namespace

// Each hostile include is refused by name, in either form, before NVRTC runs: a device, a
// /proc file, an absolute path elsewhere, a ../ escape, a symbolic link out of the folder, one
// hidden behind a comment or a line splice, and a computed include that cannot be checked.
TEST(UserSourceIncludes, HostileIncludesAreRefusedByName) {
  const std::vector<std::pair<std::string, std::string>> hostile{
      {"#include \"/dev/zero\"", "#include \"/dev/zero\": refused: it reads /dev/zero"},
      {"#include </dev/zero>", "#include </dev/zero>: refused: it reads /dev/zero"},
      {"#include </proc/self/environ>", "#include </proc/self/environ>: refused: it reads /proc/"},
      {"#include \"/etc/passwd\"", "refused: it reads /etc/passwd"},
      {"#include <../../../../../../../../etc/passwd>", "refused: it reads /etc/passwd"},
      {"#include \"../outside.h\"", "#include \"../outside.h\": refused: it reads"},
      {"/* a comment */ #include \"/etc/passwd\"", "refused: it reads /etc/passwd"},
      {"#\\\ninclude </etc/passwd>", "refused: it reads /etc/passwd"},
      {"#define H </etc/passwd>\n#include H", "line 2: #include H: a computed #include"}};
  int i = 0;
  for (const auto& [head, expected] : hostile) {
    const fs::path k = kernelFile("hostile_include_" + std::to_string(i++), head);
    std::ofstream(k.parent_path().parent_path() / "outside.h") << "#define X 1\n";
    const auto r = compile(k);
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << head << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, expected)) << head << "\n" << r.err;
    EXPECT_FALSE(contains(r.err, "NVRTC log")) << "refused before NVRTC: " << r.err;
  }
}

TEST(UserSourceIncludes, ASymbolicLinkOutOfTheFolderIsRefused) {
  const fs::path k = kernelFile("include_symlink", "#include \"x.h\"");
  fs::create_symlink("/etc/passwd", k.parent_path() / "x.h");
  const auto r = compile(k);
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "#include \"x.h\": refused: it reads /etc/passwd")) << r.err;
}

// The file's own folder (both forms, nested folders), the toolkit's headers, kwb's stand-ins and
// an --include-dir are fine; an edit of an included header is a new compile, not a cache hit.
TEST(UserSourceIncludes, OwnFolderToolkitAndIncludeDirCompile) {
  const fs::path k = kernelFile("include_ok",
                                "#include \"sub/x.h\"\n#include <cuda_fp16.h>\n"
                                "#include <cstdio>\n#include <lib.h>");
  fs::create_directories(k.parent_path() / "sub");
  std::ofstream(k.parent_path() / "sub" / "x.h") << "#pragma once\n#include \"y.h\"\n";
  std::ofstream(k.parent_path() / "sub" / "y.h") << "#define X 1\n";
  const fs::path lib = tempDir("include_dir_lib");
  std::ofstream(lib / "lib.h") << "#pragma once\n";
  auto r = compile(k);
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << "lib.h is outside until --include-dir: " << r.err;
  r = compile(k, {"--include-dir", lib.string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  const std::string firstHash = r.out.substr(r.out.find("source "));
  std::ofstream(k.parent_path() / "sub" / "y.h") << "#define X 2\n";
  r = compile(k, {"--include-dir", lib.string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.substr(r.out.find("source ")), firstHash) << "the header is in the cache key";
}

TEST(UserSourceIncludes, TheDepthLimitHolds) {
  const fs::path k = kernelFile("include_depth", "#include \"h0.h\"\n#define X 1");
  for (int i = 0; i < 20; ++i) {  // h0.h includes h1.h ... includes h20.h
    std::string name = "h";       // appended, not added: GCC 12 warns wrongly on "h" + ... + ".h"
    name += std::to_string(i);
    std::ofstream(k.parent_path() / (name + ".h")) << "#include \"h" << i + 1 << ".h\"\n";
  }
  std::ofstream(k.parent_path() / "h20.h") << "\n";
  const auto r = compile(k);
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "nests deeper than 16 includes (raise it with --max-include-depth)"))
      << r.err;
}

// siboehm/SGEMM_CUDA kernels 1 and 5 with nothing but a `// kwb:` header: host headers, uint,
// assert, a C++ (mangled) entry and a template entry named by its arguments.
TEST(UserSourceNvcc, PublicKernelsCompileAsWritten) {
  auto r = runKwb({"compile", "--source", kData + "src_sgemm1_naive.cu"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "entry sgemm_naive, sm_90a, block 32x32, grid ceil(M/32),ceil(N/32)"))
      << r.out;
  r = runKwb({"compile", "--source", kData + "src_sgemm5_blocktiling.cu"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out,
                       "entry sgemm2DBlocktiling<128,128,8,8,8>, sm_90a, block 256x1, "
                       "grid ceil(N/128),ceil(M/128)"))
      << r.out;
  // Another instance by --entry; one the file cannot make is NVRTC's error, with the hint.
  r = runKwb({"compile", "--source", kData + "src_sgemm5_blocktiling.cu", "--entry",
              "sgemm2DBlocktiling<64, 64, 8, 8, 8>", "--block", "64"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  r = runKwb({"compile", "--source", kData + "src_sgemm5_blocktiling.cu", "--entry",
              "sgemm2DBlocktiling<64,64>"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "hint: --entry names a template kernel")) << r.err;
}

TEST(UserSourceNvcc, HostCodeGetsAHintNamingWhatNvrtcCannotDo) {
  auto r = compile(kernelFile("host_main", "#define X 1\nint main() { return 0; }"));
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "hint: NVRTC compiles device code only: main()")) << r.err;
  r = compile(kernelFile("host_iostream", "#define X 1\n#include <iostream>"));
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "hint: NVRTC has no host C++ library headers")) << r.err;
  // What the prelude provides compiles: uint and the <cstdint> types, printf, assert; and so
  // does libcu++'s <cuda/std/cstdint> after it (the toolkit's cccl/ folder, same 64-bit types).
  r = compile(kernelFile("prelude",
                         "#include <cassert>\n#include <cuda/std/cstdint>\n"
                         "#define X (float)(uint(M) + uint32_t(N) + ushort(1) + int64_t(K) + "
                         "cuda::std::uint64_t(K))\n"
                         "__device__ void p(int M) { printf(\"%d\", M); assert(M); }"));
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST(UserSourceGrid, BadExpressionsNameWhereAndTheToken) {
  auto r = runKwb({"compile", "--source", kData + "src_sgemm1_naive.cu", "--grid", "ceil(M/32"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--grid: expected ')' at the end")) << r.err;
  r = runKwb({"compile", "--source", kData + "src_sgemm1_naive.cu", "--grid", "ceil(Q/32)"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--grid: unknown name 'Q'")) << r.err;
  const fs::path k = kernelFile("grid_header", "#define X 1\n\n// kwb: grid=ceil(N/32);2");
  r = compile(k);
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "k.cu:3: grid: unexpected ';' at column 11")) << r.err;
  // The command line's grid and block override the header's.
  r = runKwb({"compile", "--source", kData + "src_sgemm1_naive.cu", "--grid",
              "ceil(N/16), ceil(M/16)", "--block", "16*16"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "block 256x1, grid ceil(N/16), ceil(M/16)")) << r.out;
}

namespace {
bool haveNvcc() {
  for (const char* p : {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"})
    if (::access(p, X_OK) == 0) return true;
  return false;
}
}  // namespace

// What NVRTC cannot take (a main() that calls the runtime) builds with the toolkit's nvcc, and
// a template entry is instantiated by its arguments; nvcc's errors name the user's file.
TEST(UserSourceNvcc, NvccBuildsACubinOfCodeNvrtcCannotTake) {
  if (!haveNvcc()) GTEST_SKIP() << "no nvcc in /usr/local/cuda/bin or /usr/bin";
  const fs::path k = kernelFile("nvcc_host_code",
                                "#define X 1\nint main() { float* p; "
                                "cudaMalloc(&p, 4); return 0; }");
  auto r = compile(k, {"--compiler", "nvcc"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "with nvcc")) << r.err;
  r = runKwb({"compile", "--compiler", "nvcc", "--source", kData + "src_sgemm5_blocktiling.cu"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  const fs::path bad = kernelFile("nvcc_error", "int y = undeclared_name;");
  r = compile(bad, {"--compiler", "nvcc"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, bad.string() + ":1:")) << r.err;
  EXPECT_FALSE(contains(r.err, "kwb-nvcc-")) << "no temporary path: " << r.err;
}

TEST(UserSourceNvcc, NoNvccIsExit2SayingSo) {
  ::setenv("KWB_NVCC", "/nonexistent/nvcc", 1);
  const auto r =
      runKwb({"compile", "--compiler", "nvcc", "--source", kData + "src_sgemm1_naive.cu"});
  ::unsetenv("KWB_NVCC");
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--compiler nvcc: no nvcc")) << r.err;
}
