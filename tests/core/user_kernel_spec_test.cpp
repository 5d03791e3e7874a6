// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/user_kernel_spec.h"

using namespace kwb;

TEST(UserKernelHeader, ReadsEveryKey) {
  const auto s = parseHeader(
      "#include <x>\n  // kwb: block=32x8 tile=128x64 smem=49152\n// kwb: entry=k precision=fp16 "
      "define=BK=16\nint x;\n",
      "f.cu");
  EXPECT_EQ(*s.block, (Dim2{32, 8}));
  EXPECT_EQ(*s.tile, (Dim2{128, 64}));
  EXPECT_EQ(*s.smemBytes, 49152);
  EXPECT_EQ(*s.entry, "k");
  EXPECT_EQ(*s.precision, Precision::kFp16Fp32Acc);
  EXPECT_EQ(s.defines.at("BK"), "16");
}

TEST(UserKernelHeader, NoHeaderLeavesAllUnsetAndDefaultsFill) {
  const auto s = parseHeader("// an ordinary comment\n// kwbx: block=1x1\n", "f.cu");
  EXPECT_FALSE(s.block || s.tile || s.entry || s.smemBytes || s.precision);
  const auto d = applyDefaults(s, "stem");
  EXPECT_EQ(*d.entry, "stem");
  EXPECT_EQ(*d.block, (Dim2{16, 16}));
  EXPECT_EQ(*d.tile, (Dim2{64, 64}));
  EXPECT_EQ(*d.smemBytes, 0);
}

TEST(UserKernelHeader, BadValuesNameFileAndLine) {
  for (const char* bad :
       {"// kwb: block=16*\n", "// kwb: tile=0x64\n", "// kwb: colour=red\n", "// kwb: smem=-4\n",
        "// kwb: precision=fp64\n", "// kwb: block\n", "// kwb: grid=ceil(N/32\n",
        "// kwb: grid=1,2,3,4\n", "// kwb: block=1,2,3\n"}) {
    try {
      parseHeader(std::string("\n") + bad, "my.cu");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("my.cu:2"), std::string::npos) << e.what();
    }
  }
}

// The launch as its author's launcher writes it: grid x first, expressions with spaces, a block
// from the defines; the grid's names are checked once the defines are merged.
TEST(UserKernelHeader, GridAndBlockExpressions) {
  const auto s = parseHeader(
      "// kwb: grid=ceil(M / 32), ceil(N/32) block=(BM*BN)/(TM*TN) define=BM=128 define=BN=128\n"
      "// kwb: define=TM=8 define=TN=8\n",
      "k.cu");
  ASSERT_TRUE(s.grid && s.blockExpr);
  EXPECT_EQ(s.grid->text, "ceil(M / 32), ceil(N/32)");
  EXPECT_EQ(s.grid->where, "k.cu:1: grid");
  const auto d = applyDefaults(s, "k");
  EXPECT_EQ(*d.block, (Dim2{256, 1}));
  const ExprEnv env{{{"M", 1024}, {"N", 2048}, {"K", 1}}, &d.defines};
  EXPECT_EQ(evaluateDims(*d.grid, env), (std::array<long long, 3>{32, 64, 1}));

  UserLaunchSpec bad = parseHeader("\n// kwb: grid=ceil(N/TILE)\n", "k.cu");
  try {
    applyDefaults(bad, "k");
    FAIL() << "an unknown name in the grid passed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("k.cu:2: grid: unknown name 'TILE'"), std::string::npos)
        << e.what();
  }
  bad.defines["TILE"] = "32";  // --define TILE=32 supplies it
  EXPECT_NO_THROW(applyDefaults(bad, "k"));
  UserLaunchSpec big;
  parseBlock(big, "64*32", "--block");
  EXPECT_THROW(applyDefaults(big, "k"), InputError);  // 2048 threads
}

TEST(UserKernelHeader, OptionsOverrideHeader) {
  UserLaunchSpec header = parseHeader("// kwb: block=16x16 tile=64x64 define=A=1\n", "f.cu");
  UserLaunchSpec cli;
  cli.tile = parseDim2("128x32", "--tile");
  cli.defines["A"] = "2";
  const auto m = merge(header, cli);
  EXPECT_EQ(*m.block, (Dim2{16, 16}));
  EXPECT_EQ(*m.tile, (Dim2{128, 32}));
  EXPECT_EQ(m.defines.at("A"), "2");
  EXPECT_THROW(parseDim2("16by16", "--block"), InputError);
  // The command line's --tile replaces the header's grid=, and its --grid the header's tile=.
  const UserLaunchSpec gridHeader = parseHeader("// kwb: grid=ceil(M/32),ceil(N/32)\n", "f.cu");
  EXPECT_FALSE(merge(gridHeader, cli).grid);
  UserLaunchSpec cliGrid;
  cliGrid.grid = parseLaunchExpr("1,1", "--grid");
  EXPECT_EQ(merge(header, cliGrid).grid->text, "1,1");
}

namespace {
const char* kPtx = R"(
.version 8.5
.target sm_90a
.visible .entry good(
	.param .u32 good_param_0,
	.param .u32 good_param_1,
	.param .u32 good_param_2,
	.param .f32 good_param_3,
	.param .u64 good_param_4,
	.param .u64 good_param_5,
	.param .f32 good_param_6,
	.param .u64 good_param_7
)
{ ret; }
.visible .entry three(
	.param .u32 three_param_0,
	.param .u32 three_param_1,
	.param .u64 three_param_2
)
{ ret; }
)";
}

TEST(UserKernelContract, CountsEntryParameters) {
  EXPECT_EQ(ptxEntryParamCount(kPtx, "good"), 8);
  EXPECT_EQ(ptxEntryParamCount(kPtx, "three"), 3);
  EXPECT_FALSE(ptxEntryParamCount(kPtx, "missing"));
  EXPECT_EQ(ptxEntries(kPtx), (std::vector<std::string>{"good", "three"}));
  EXPECT_NO_THROW(checkContract(kPtx, "good", "f.cu"));
}

TEST(UserKernelContract, MissingEntryListsTheEntriesThere) {
  try {
    checkContract(kPtx, "missing", "f.cu");
    FAIL();
  } catch (const InputError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("no kernel entry 'missing'"), std::string::npos) << w;
    EXPECT_NE(w.find("good, three"), std::string::npos) << w;
  }
}

TEST(UserKernelContract, WrongParameterCountIsRefused) {
  try {
    checkContract(kPtx, "three", "f.cu");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("takes 3 parameters"), std::string::npos) << e.what();
  }
}

// PTX as NVRTC writes it for a kernel with a child launch (cuda_device_runtime_api.h included).
constexpr const char* kPtxDeviceLaunch = R"(
.extern .func  (.param .b64 func_retval0) __cudaCDP2GetParameterBufferV2
(
	.param .b64 __cudaCDP2GetParameterBufferV2_param_0
)
;
.extern .func  (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2
(
	.param .b64 __cudaCDP2LaunchDeviceV2_param_0
)
;
.extern .func helper_elsewhere
(
	.param .b64 p
)
;
.visible .entry good(
	.param .u32 a, .param .u32 b, .param .u32 c, .param .f32 d,
	.param .u64 e, .param .u64 f, .param .f32 g, .param .u64 h
)
{ ret; }
)";

// PTX entries of C++ kernels are mangled: --entry names them as the source does, a template by
// its arguments (spaces do not matter); printf's and assert's system calls are allowed.
constexpr const char* kPtxMangled = R"(
.extern .func  (.param .b32 func_retval0) vprintf
( .param .b64 a, .param .b64 b )
;
.extern .func __assertfail
( .param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e )
;
.visible .entry _Z11sgemm_naiveiiifPKfS0_fPf(
	.param .u32 a, .param .u32 b, .param .u32 c, .param .f32 d,
	.param .u64 e, .param .u64 f, .param .f32 g, .param .u64 h
)
{ ret; }
.visible .entry _Z18sgemm2DBlocktilingILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf(
	.param .u32 a, .param .u32 b, .param .u32 c, .param .f32 d,
	.param .u64 e, .param .u64 f, .param .f32 g, .param .u64 h
)
{ ret; }
)";

TEST(UserKernelContract, CppAndTemplateEntriesAreFoundByTheirSourceNames) {
  EXPECT_EQ(checkContract(kPtxMangled, "sgemm_naive", "f.cu"), "_Z11sgemm_naiveiiifPKfS0_fPf");
  EXPECT_EQ(checkContract(kPtxMangled, "sgemm2DBlocktiling<128, 128, 8, 8, 8>", "f.cu"),
            "_Z18sgemm2DBlocktilingILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf");
  EXPECT_EQ(checkContract(kPtx, "good", "f.cu"), "good");
  EXPECT_FALSE(resolveEntry(kPtxMangled, "sgemm2DBlocktiling<64,64,8,8,8>"));
  try {
    checkContract(kPtxMangled, "sgemm_nave", "f.cu");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the file has: sgemm_naive, "
                                         "sgemm2DBlocktiling<128,128,8,8,8>"),
              std::string::npos)
        << e.what();
  }
}

TEST(UserKernelContract, DeviceSideLaunchesAndUnresolvedCallsAreRefused) {
  EXPECT_EQ(ptxExternFunctions(kPtxDeviceLaunch),
            (std::vector<std::string>{"__cudaCDP2GetParameterBufferV2", "__cudaCDP2LaunchDeviceV2",
                                      "helper_elsewhere"}));
  EXPECT_TRUE(ptxExternFunctions(kPtx).empty());
  try {
    checkContract(kPtxDeviceLaunch, "good", "f.cu");
    FAIL() << "a device-side launch passed the contract";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("launches kernels from the device"), std::string::npos)
        << e.what();
  }
}

TEST(UserKernelCompileLog, ParsesFileLineColumn) {
  const char* log =
      "dir/my.cu(12): error: expected a \";\"\n"
      "    C[0] = x;\n"
      "    ^\n"
      "\n"
      "dir/my.cu(7): warning #177-D: variable \"y\" was declared but never referenced\n"
      "1 error detected in the compilation of \"dir/my.cu\".\n";
  const auto d = parseCompileLog(log);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].file, "dir/my.cu");
  EXPECT_EQ(d[0].line, 12);
  EXPECT_EQ(d[0].column, 3);  // "  C[0]": NVRTC's echo adds 2 spaces
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "expected a \";\"");
  EXPECT_EQ(d[1].line, 7);
  EXPECT_EQ(d[1].column, 0);
  EXPECT_EQ(d[1].severity, "warning");
  const std::string f = formatCompileError("dir/my.cu", log);
  EXPECT_NE(f.find("dir/my.cu:12:3: error: expected a \";\""), std::string::npos) << f;
  EXPECT_NE(f.find("--- NVRTC log ---"), std::string::npos) << f;
}

TEST(UserKernelCompileLog, HashChangesWithText) {
  EXPECT_EQ(sourceHash("abc"), sourceHash("abc"));
  EXPECT_NE(sourceHash("abc"), sourceHash("abd"));
  EXPECT_EQ(sourceHash("").size(), 16u);
}

// The entry is compiled as a name expression: a name with a newline, a '#' or a ';' in it is
// refused before it can reach the compiler.
TEST(UserKernelHeader, EntryMustBeAName) {
  UserLaunchSpec s;
  for (const char* good : {"k", "ns::k", "sgemm2DBlocktiling<128, 128, 8, 8, 8>", "k<-1,(2*3)>"}) {
    s.entry = good;
    EXPECT_NO_THROW(applyDefaults(s, "x")) << good;
  }
  for (const char* bad : {"k<1>;\n#include \"/etc/passwd\"", "k; int x", "1k", "k\"", ""}) {
    s.entry = bad;
    EXPECT_THROW(applyDefaults(s, "x"), InputError) << bad;
  }
}
