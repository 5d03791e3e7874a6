// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bring your own kernel (docs/BRING_YOUR_OWN.md): a .cu file compiled at run time with NVRTC,
// loaded with the driver API and offered as an ordinary KernelDescriptor, so verification and
// timing treat it like a built-in. NVRTC needs no GPU: compileUserKernel works on any machine.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
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
  // The user's headers it includes, as (name it is included by, text): NVRTC gets them in
  // memory, so it compiles what readUserSource checked (docs/BRING_YOUR_OWN.md, "Includes").
  std::vector<std::pair<std::string, std::string>> headers;
};
// What a user's source may cost and reach before NVRTC sees it (docs/RELIABILITY.md, "Bounded
// user sources"; docs/BRING_YOUR_OWN.md, "Includes"): the file and every file it includes must
// be regular files; the file at most `maxBytes`; the includes at most `maxIncludeDepth` deep and
// `maxTotalBytes` together; an include (either form) must resolve inside the file's own folder,
// one of `includeDirs` or the toolkit's include folder.
struct SourceLimits {
  std::uintmax_t maxBytes = std::uintmax_t(4) << 20;
  int maxIncludeDepth = 16;
  std::uintmax_t maxTotalBytes = std::uintmax_t(16) << 20;
  std::vector<std::string> includeDirs;  // --include-dir
};
// Reads the file and its includes within `limits`, never blocking on a FIFO or a device.
// Throws InputError naming the file (or the include: its line and name) and the rule it broke.
UserSource readUserSource(const std::string& path, const SourceLimits& limits = {});

// One NVRTC compile: the source, its options, the headers NVRTC takes in memory (the user's,
// then kwb's prelude and stand-ins), and the name expressions to instantiate (a template entry).
struct NvrtcRequest {
  std::string name;  // the source's name in diagnostics
  std::string text;
  std::vector<std::string> options;
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> nameExpressions;
};
// PTX and log, or the log of a failed compile (ok false); nvcc adds the cubin it built.
struct NvrtcOutput {
  bool ok = false;
  std::string ptx;
  std::string log;
  std::string image;  // a cubin (--compiler nvcc); empty: the driver JIT-compiles the PTX
};
// Compiles in this process.
NvrtcOutput nvrtcCompile(const NvrtcRequest& request);
// Where a compile runs: nvrtcCompile in this process by default; kwb runs it in a child with a
// time and a memory limit (cli/cmd_nvrtc_child.cpp), so a compile bomb cannot hang or exhaust
// the engine. Throws InputError naming the bound when the compile breaks it.
using NvrtcRunner = std::function<NvrtcOutput(const NvrtcRequest& request)>;

// --compiler nvcc: $KWB_NVCC when set, else nvcc on $PATH, else beside the toolkit's include
// folder; "" when there is none.
std::string findNvcc();
// A runner that builds a cubin with nvcc in a child within `timeoutS` and `memoryMib` (each of
// nvcc's processes), the user's folder and `includeDirs` on its include path, a template entry
// instantiated by taking its address. Throws InputError when there is no nvcc.
NvrtcRunner nvccRunner(const std::vector<std::string>& includeDirs, double timeoutS,
                       std::size_t memoryMib);

struct CompiledUserKernel {
  UserSource source;
  UserLaunchSpec spec;  // header merged with the options, defaults applied
  std::string arch;     // "sm_90a"
  std::string ptx;
  std::string ptxEntry;  // the entry's name in the PTX: spec.entry, mangled for a C++ kernel
  std::string image;     // the cubin nvcc built (--compiler nvcc); empty: the PTX is loaded
  std::string log;       // NVRTC's log (warnings) of a successful compile
  std::string hash;      // of source and options: the cache key, stored in results
  bool fromCache = false;
  double compileSeconds = 0;
};

// `arch` like "sm_90a" or "90a"; empty: the current device's ("sm_<major><minor>", "a" on 9.0).
// The cache lives in $XDG_CACHE_HOME/kwb/nvrtc (else ~/.cache/kwb/nvrtc); KWB_NVRTC_CACHE=0
// turns it off. Throws CompileError on a compile error, InputError on a contract violation.
// `cache` false: always compile (--compiler nvcc, whose cubin is not cached).
CompiledUserKernel compileUserKernel(const UserSource& src, const UserLaunchSpec& options,
                                     std::string arch, const NvrtcRunner& runner = {},
                                     bool cache = true);
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
