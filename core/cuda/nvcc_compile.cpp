// SPDX-License-Identifier: Apache-2.0
// --compiler nvcc (docs/BRING_YOUR_OWN.md, "Code that builds with nvcc"): the toolkit's nvcc
// builds a cubin of the user's file, as its author's build would, for code NVRTC cannot take.
// nvcc runs as a child within the compile's time and memory bounds (each of its processes
// capped by ulimit, the whole killed at the time limit); the contract is checked on the PTX it
// keeps, and the cubin is what the driver loads.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kwb/child_process.h"
#include "kwb/cuda/user_kernel.h"
#include "kwb/error.h"

namespace kwb::cuda {
namespace fs = std::filesystem;
namespace {

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// NVRTC's options as nvcc's: the real architecture (a cubin), no prelude or include path (nvcc
// has the host headers NVRTC lacks).
std::vector<std::string> nvccOptions(const std::vector<std::string>& nvrtc) {
  std::vector<std::string> out;
  for (const std::string& o : nvrtc) {
    if (o.rfind("--gpu-architecture=compute_", 0) == 0)
      out.push_back("-arch=sm_" + o.substr(std::string("--gpu-architecture=compute_").size()));
    else if (o.rfind("--include-path=", 0) != 0 && o.rfind("--pre-include=", 0) != 0)
      out.push_back(o);
  }
  return out;
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "kwb-nvcc-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
      throw InputError("--compiler nvcc: cannot make a temporary folder");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

std::string findNvcc() {
  if (const char* chosen = std::getenv("KWB_NVCC"))  // this one or none (tests plant "none")
    return ::access(chosen, X_OK) == 0 ? chosen : "";
  if (const char* p = std::getenv("PATH"))
    for (std::string_view rest = p; !rest.empty();) {
      const auto colon = rest.find(':');
      const fs::path dir(std::string(rest.substr(0, colon)));
      rest = colon == std::string_view::npos ? "" : rest.substr(colon + 1);
      if (!dir.empty() && ::access((dir / "nvcc").c_str(), X_OK) == 0) return (dir / "nvcc");
    }
  const fs::path beside = fs::path(KWB_CUDA_INCLUDE_DIR).parent_path() / "bin" / "nvcc";
  return ::access(beside.c_str(), X_OK) == 0 ? beside.string() : "";
}

NvrtcRunner nvccRunner(const std::vector<std::string>& includeDirs, double timeoutS,
                       std::size_t memoryMib) {
  const std::string nvcc = findNvcc();
  if (nvcc.empty())
    throw InputError("--compiler nvcc: no nvcc (KWB_NVCC, PATH) or in " +
                     (fs::path(KWB_CUDA_INCLUDE_DIR).parent_path() / "bin").string() +
                     " (install the CUDA toolkit's compiler, or leave --compiler at nvrtc)");
  return [=](const NvrtcRequest& q) {
    TempDir tmp;
    const fs::path user = fs::absolute(q.name);
    const fs::path copy = tmp.path / user.filename();
    {  // the source as written; a template entry's address taken after it instantiates it
      std::ofstream f(copy, std::ios::binary);
      f << q.text;
      for (const std::string& e : q.nameExpressions)
        f << "\nstatic const void* const kwb_entry_address __attribute__((used)) = "
             "(const void*)&"
          << e << ";\n";
    }
    // Each process nvcc starts keeps its caps: address space and CPU seconds.
    std::vector<std::string> argv{"/bin/sh",
                                  "-c",
                                  "ulimit -v \"$1\" && ulimit -t \"$2\" && shift 2 && exec \"$@\"",
                                  "sh",
                                  std::to_string(memoryMib * 1024),
                                  std::to_string(static_cast<long long>(timeoutS) + 1),
                                  nvcc,
                                  "-cubin",
                                  "-keep",
                                  "-keep-dir",
                                  tmp.path.string(),
                                  "-I",
                                  user.parent_path().string()};
    for (const auto& d : includeDirs) argv.insert(argv.end(), {"-I", d});
    for (const auto& o : nvccOptions(q.options)) argv.push_back(o);
    const fs::path cubin = tmp.path / "kernel.cubin";
    argv.insert(argv.end(), {"-o", cubin.string(), copy.string()});
    const ProcessResult r = runProcess(argv, (tmp.path / "out.txt").string(),
                                       (tmp.path / "log.txt").string(), timeoutS);
    if (r.timedOut)
      throw InputError("--source " + q.name + ": nvcc did not finish within " +
                       std::to_string(static_cast<long long>(timeoutS)) +
                       " s (raise it with --compile-timeout)");
    NvrtcOutput out;
    out.log = readFile(tmp.path / "out.txt") + readFile(tmp.path / "log.txt");
    replaceAll(out.log, copy.string(), q.name);  // diagnostics name the user's file
    replaceAll(out.log, tmp.path.string(), "(nvcc's temporary folder)");
    out.ok = r.exitCode == 0;
    if (r.signal != 0)
      out.log += "\nnvcc ended by signal " + std::to_string(r.signal) +
                 ": the compile needs more than " + std::to_string(memoryMib) +
                 " MiB or more CPU time (raise them with --compile-memory, --compile-timeout)\n";
    if (out.ok) {
      out.ptx = readFile(tmp.path / (copy.stem().string() + ".ptx"));
      out.image = readFile(cubin);
      out.ok = !out.ptx.empty() && !out.image.empty();
    }
    return out;
  };
}

}  // namespace kwb::cuda
