// SPDX-License-Identifier: Apache-2.0
// NVRTC compilation of a user kernel to PTX, with an on-disk cache keyed by source and options.
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "kwb/cuda/check.h"
#include "kwb/cuda/user_kernel.h"
#include "kwb/nvrtc_prelude.h"

namespace kwb::cuda {
namespace fs = std::filesystem;
namespace {

std::string readAll(const fs::path& p, bool* ok) {
  std::ifstream in(p, std::ios::binary);
  *ok = bool(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path cacheDir() {
  if (const char* off = std::getenv("KWB_NVRTC_CACHE"); off && std::string(off) == "0") return {};
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "kwb" / "nvrtc";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "kwb" / "nvrtc";
  return {};
}

void nvrtcCheck(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS)
    throw CudaError(std::string("NVRTC ") + what + ": " + nvrtcGetErrorString(r), int(r), false);
}

// NVRTC's options: the toolkit's headers, the prelude before the source, the defines.
std::vector<std::string> nvrtcOptions(const UserLaunchSpec& spec, const std::string& virt) {
  const std::string toolkit = "--include-path=" KWB_CUDA_INCLUDE_DIR;
  std::vector<std::string> opts{"--gpu-architecture=" + virt, "--std=c++17", "-lineinfo", toolkit,
                                std::string("--pre-include=") + kNvrtcPreludeName};
  // CUDA 13 keeps libcu++, CUB and Thrust in the include folder's cccl/ (<cuda/std/...>).
  if (std::error_code ec; fs::is_directory(KWB_CUDA_INCLUDE_DIR "/cccl", ec))
    opts.emplace_back("--include-path=" KWB_CUDA_INCLUDE_DIR "/cccl");
  for (const auto& [k, v] : spec.defines) opts.push_back("-D" + k + "=" + v);
  return opts;
}

}  // namespace

NvrtcOutput nvrtcCompile(const NvrtcRequest& q) {
  NvrtcOutput out;
  nvrtcProgram prog = nullptr;
  std::vector<const char*> names, bodies;
  for (const auto& [n, body] : q.headers) {
    names.push_back(n.c_str());
    bodies.push_back(body.c_str());
  }
  nvrtcCheck(nvrtcCreateProgram(&prog, q.text.c_str(), q.name.c_str(), int(names.size()),
                                bodies.data(), names.data()),
             "create program");
  for (const auto& e : q.nameExpressions)
    nvrtcCheck(nvrtcAddNameExpression(prog, e.c_str()), "add name expression");
  std::vector<const char*> argv;
  argv.reserve(q.options.size());
  for (const auto& o : q.options) argv.push_back(o.c_str());
  const nvrtcResult r = nvrtcCompileProgram(prog, int(argv.size()), argv.data());
  std::size_t logSize = 0;
  nvrtcGetProgramLogSize(prog, &logSize);
  out.log.assign(logSize, '\0');
  if (logSize > 0) nvrtcGetProgramLog(prog, out.log.data());
  while (!out.log.empty() && out.log.back() == '\0') out.log.pop_back();
  out.ok = r == NVRTC_SUCCESS;
  if (out.ok) {
    std::size_t ptxSize = 0;
    nvrtcGetPTXSize(prog, &ptxSize);
    out.ptx.assign(ptxSize, '\0');
    nvrtcGetPTX(prog, out.ptx.data());
    while (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
  }
  nvrtcDestroyProgram(&prog);
  return out;
}

std::string deviceArch(int device) {
  cudaDeviceProp p{};
  KWB_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  return "sm_" + std::to_string(p.major) + std::to_string(p.minor) +
         (p.major == 9 && p.minor == 0 ? "a" : "");
}

CompiledUserKernel compileUserKernel(const UserSource& src, const UserLaunchSpec& options,
                                     std::string arch, const NvrtcRunner& runner, bool cache) {
  const auto t0 = std::chrono::steady_clock::now();
  CompiledUserKernel out;
  out.source = src;
  out.spec = applyDefaults(merge(parseHeader(src.text, src.path), options), src.stem);
  if (arch.empty()) arch = "sm_90a";
  if (arch.rfind("sm_", 0) != 0 && arch.rfind("compute_", 0) != 0) arch = "sm_" + arch;
  out.arch = arch;
  const std::string virt = "compute_" + arch.substr(arch.find('_') + 1);

  NvrtcRequest q{src.path, src.text, nvrtcOptions(out.spec, virt), src.headers, {}};
  for (const auto& h : nvrtcBuiltinHeaders())  // after the user's: theirs win a name
    if (std::none_of(src.headers.begin(), src.headers.end(),
                     [&](const auto& u) { return u.first == h.first; }))
      q.headers.push_back(h);
  // A template kernel exists in the PTX only once instantiated: NVRTC does so for a name
  // expression.
  if (out.spec.entry->find('<') != std::string::npos) q.nameExpressions.push_back(*out.spec.entry);
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  std::string key = src.text + '\n' + std::to_string(major) + "." + std::to_string(minor);
  for (const auto& o : q.options) key += '\n' + o;
  for (const auto& [n, body] : q.headers) key += '\n' + n + '\n' + sourceHash(body);
  for (const auto& e : q.nameExpressions) key += "\nname " + e;
  out.hash = sourceHash(key);

  const fs::path dir = cache ? cacheDir() : fs::path();
  const fs::path cached = dir.empty() ? fs::path() : dir / (out.hash + ".ptx");
  bool hit = false;
  if (!cached.empty()) out.ptx = readAll(cached, &hit);
  if (hit && !out.ptx.empty()) {
    out.fromCache = true;
  } else {
    NvrtcOutput compiled = runner ? runner(q) : nvrtcCompile(q);
    out.log = std::move(compiled.log);
    if (!compiled.ok) throw CompileError(formatCompileError(src.path, out.log), out.log);
    out.ptx = std::move(compiled.ptx);
    out.image = std::move(compiled.image);
    if (!cached.empty()) {  // best effort: a read-only cache only costs the next compile
      std::error_code ec;
      fs::create_directories(dir, ec);
      const fs::path tmp = cached.string() + ".tmp" + std::to_string(::getpid());
      if (std::ofstream f(tmp, std::ios::binary); f && (f << out.ptx)) {
        f.close();
        fs::rename(tmp, cached, ec);
      }
      fs::remove(tmp, ec);
    }
  }
  out.ptxEntry = checkContract(out.ptx, *out.spec.entry, src.path);
  out.compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace kwb::cuda
