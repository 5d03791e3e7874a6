// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bring your own kernel (docs/BRING_YOUR_OWN.md): a .cu file compiled at run time with NVRTC,
// loaded with the driver API and offered as an ordinary KernelDescriptor, so verification and
// timing treat it like a built-in. NVRTC needs no GPU: compileUserKernel works on any machine.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kwb/error.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/user_kernel_spec.h"

namespace kwb::cuda {

// A compile failure: the formatted diagnostics (file:line:column) and NVRTC's raw log.
// An InputError, so the CLI exits 2 with it.
class CompileError : public InputError {
 public:
  CompileError(const std::string& formatted, std::string log)
      : InputError(formatted), m_log(std::move(log)) {}
  const std::string& log() const { return m_log; }

 private:
  std::string m_log;
};

struct UserSource {
  std::string path;
  std::string text;
  std::string stem;  // file name without directory and extension: the case is user.<stem>
};
// What a user's source may cost before NVRTC sees it (docs/RELIABILITY.md, "Bounded user
// sources"): the file and every file it includes with #include "..." (found beside the file
// that includes it) must be regular files; the file at most `maxBytes`; the includes at most
// `maxIncludeDepth` deep and `maxTotalBytes` together.
struct SourceLimits {
  std::uintmax_t maxBytes = std::uintmax_t(4) << 20;
  int maxIncludeDepth = 16;
  std::uintmax_t maxTotalBytes = std::uintmax_t(16) << 20;
};
// Reads the file within `limits`, never blocking on a FIFO or a device. Throws InputError
// naming the file (or the include) and the bound it broke.
UserSource readUserSource(const std::string& path, const SourceLimits& limits = {});

// One NVRTC compile: PTX and log, or the log of a failed compile (ok false).
struct NvrtcOutput {
  bool ok = false;
  std::string ptx;
  std::string log;
};
// Compiles `text` (named `name` in diagnostics) with `options` in this process.
NvrtcOutput nvrtcCompile(const std::string& name, const std::string& text,
                         const std::vector<std::string>& options);
// Where a compile runs: nvrtcCompile in this process by default; kwb runs it in a child with a
// time and a memory limit (cli/cmd_nvrtc_child.cpp), so a compile bomb cannot hang or exhaust
// the engine. Throws InputError naming the bound when the compile breaks it.
using NvrtcRunner = std::function<NvrtcOutput(const std::string& name, const std::string& text,
                                              const std::vector<std::string>& options)>;

struct CompiledUserKernel {
  UserSource source;
  UserLaunchSpec spec;  // header merged with the options, defaults applied
  std::string arch;     // "sm_90a"
  std::string ptx;
  std::string log;   // NVRTC's log (warnings) of a successful compile
  std::string hash;  // of source and options: the cache key, stored in results
  bool fromCache = false;
  double compileSeconds = 0;
};

// `arch` like "sm_90a" or "90a"; empty: the current device's ("sm_<major><minor>", "a" on 9.0).
// The cache lives in $XDG_CACHE_HOME/kwb/nvrtc (else ~/.cache/kwb/nvrtc); KWB_NVRTC_CACHE=0
// turns it off. Throws CompileError on a compile error, InputError on a contract violation.
CompiledUserKernel compileUserKernel(const UserSource& src, const UserLaunchSpec& options,
                                     std::string arch, const NvrtcRunner& runner = {});
std::string deviceArch(int device);

// Registers the compiled kernel (up to 8 per process) and returns its descriptor, id
// "user.<stem><suffix>", family "user"; registering an id again replaces that kernel (a saved
// source recompiled), so two sources of one stem in one run need different suffixes (kwb ab
// --against dir1/k.cu --source dir2/k.cu). The module loads on the first launch (into the current
// device's primary context); launches go to args.stream through cuLaunchKernel.
KernelDescriptor makeUserKernel(const CompiledUserKernel& k, const std::string& idSuffix = {});

// The source path and hash of a registered user kernel id, or nullptr for any other id.
const CompiledUserKernel* findUserKernel(const std::string& id);

}  // namespace kwb::cuda
