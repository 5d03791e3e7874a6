// SPDX-License-Identifier: Apache-2.0
#pragma once
// A user kernel's launch contract, free of CUDA: the `// kwb:` header of a .cu file, the
// options that override it, the check of the compiled entry's signature, and NVRTC's log
// turned into diagnostics (docs/BRING_YOUR_OWN.md).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/kernel_descriptor.h"
#include "kwb/launch_expr.h"

namespace kwb {

struct Dim2 {
  int x = 0, y = 0;
  bool operator==(const Dim2&) const = default;
};

// Launch settings of a user kernel. Unset fields take the defaults of applyDefaults().
struct UserLaunchSpec {
  std::optional<std::string> entry;
  std::optional<Dim2> block;  // threads: x × y
  // The block as written when it is not WxH ("32*32", "(BM*BN)/(TM*TN)"): applyDefaults
  // evaluates it with the defines into `block`.
  std::optional<LaunchExpr> blockExpr;
  std::optional<Dim2> tile;  // C tile per block: tileN(x) × tileM(y) → grid ceil(N/x)×ceil(M/y)
  // The grid as its author writes it, x first ("ceil(M/32),ceil(N/32)"), evaluated at each
  // launch with M, N, K and the defines; when set, `tile` is not used.
  std::optional<LaunchExpr> grid;
  std::optional<int> smemBytes;
  std::optional<Precision> precision;  // fp32 or fp16 (FP16 A and B, FP32 C)
  std::map<std::string, std::string> defines;
};

// "16x16" → {16, 16}; throws InputError naming `what` on anything else (or a zero, or > 4096).
Dim2 parseDim2(std::string_view text, std::string_view what);

// A block: "16x16" (x × y), or 1 or 2 comma-separated expressions ("256", "32*32", "32,32",
// "(BM*BN)/(TM*TN)") kept in blockExpr. Throws InputError naming `where`.
void parseBlock(UserLaunchSpec& s, std::string_view text, const std::string& where);

// Reads every line `// kwb: key=value ...` of the source (keys: entry, block, grid, tile, smem,
// precision, define=K=V). Throws InputError naming `file` and the line on an unknown key or a
// bad value.
UserLaunchSpec parseHeader(std::string_view source, std::string_view file);

// `over`'s set fields replace `base`'s; defines are merged (over wins); a tile in `over` without
// a grid drops `base`'s grid (the command line's --tile beats the header's grid=).
UserLaunchSpec merge(UserLaunchSpec base, const UserLaunchSpec& over);

// Fills what is unset: block 16x16, tile 64x64, smem 0, fp32; entry = `defaultEntry`.
// Evaluates blockExpr with the defines; checks that the grid reads only M, N, K and defines.
// Throws InputError naming where the expression was written.
UserLaunchSpec applyDefaults(UserLaunchSpec s, const std::string& defaultEntry);

// The parameter count of `.entry <name>(...)` in PTX, or nullopt when the entry is absent.
std::optional<int> ptxEntryParamCount(std::string_view ptx, std::string_view name);
// The names of every `.entry` in the PTX.
std::vector<std::string> ptxEntries(std::string_view ptx);
// The names of the functions the PTX declares `.extern .func` (called, defined elsewhere).
std::vector<std::string> ptxExternFunctions(std::string_view ptx);
// The PTX entry that `name` means: the name itself (extern "C"), else the one mangled entry
// whose demangled name is `name` ("sgemm_naive", "sgemm2DBlocktiling<64,64,8,8,8>"; spaces do
// not matter), or nullopt.
std::optional<std::string> resolveEntry(std::string_view ptx, std::string_view name);
// Throws InputError when the PTX lacks `name` (listing the entries it has), its parameter
// count is not the contract's 8, or it calls an external function other than the ones the
// driver provides (printf's vprintf, assert's __assertfail, malloc, free): a device-side
// launch could put work on another stream, and anything else a standalone module cannot
// resolve. Returns the PTX name of the entry (mangled for a C++ kernel).
std::string checkContract(std::string_view ptx, std::string_view name, std::string_view file);

// One message of NVRTC's log: "file(line): error: text" (column from a caret line, if any).
struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;        // 0: unknown
  std::string severity;  // "error", "warning", ...
  std::string message;
};
std::vector<Diagnostic> parseCompileLog(std::string_view log);
// "file:line:column: error: message" per diagnostic, a hint per known cause
// (compileHints, kwb/nvrtc_prelude.h), then the raw log.
std::string formatCompileError(std::string_view file, std::string_view log);

// FNV-1a 64 of the text, as 16 hex digits: names cache entries and is stored in results.
std::string sourceHash(std::string_view text);

}  // namespace kwb
