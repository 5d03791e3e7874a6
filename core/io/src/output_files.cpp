// SPDX-License-Identifier: Apache-2.0
#include "kwb/output_files.h"

#include <unistd.h>

#include <filesystem>

#include "kwb/error.h"
#include "kwb/text_file.h"

namespace kwb {

void checkWritable(const std::string& path) {
  if (path.empty() || path == "-") return;
  namespace fs = std::filesystem;
  const fs::path p(path);
  std::error_code ec;
  if (fs::is_directory(p, ec)) throw InputError("cannot write '" + path + "': it is a directory");
  if (fs::exists(p, ec) && !fs::is_regular_file(p, ec))
    throw InputError("cannot write '" + path +
                     "': not a regular file (a device, FIFO or socket is never replaced)");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    throw InputError("cannot write '" + path + "': folder '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError("cannot write '" + path + "': folder '" + dir.string() + "' is not writable");
  if (fs::exists(p, ec) && ::access(p.c_str(), W_OK) != 0)
    throw InputError("cannot write '" + path + "': the file is not writable");
}

void checkDistinct(const std::vector<std::pair<std::string, std::string>>& files) {
  namespace fs = std::filesystem;
  auto same = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::equivalent(a, b, ec)) return true;
    const fs::path ca = fs::weakly_canonical(a, ec), cb = fs::weakly_canonical(b, ec);
    return ca == cb;
  };
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t k = i + 1; k < files.size(); ++k) {
      const auto& [optA, a] = files[i];
      const auto& [optB, b] = files[k];
      if (a.empty() || b.empty() || a == "-" || b == "-") continue;
      if (same(a, b))
        throw InputError(optA == "input"
                             ? "cannot write '" + b + "' (" + optB + "): it is the input file"
                             : optA + " and " + optB + " name the same file '" + b +
                                   "'; give each output its own file");
    }
}

void writeOutputs(const std::vector<Output>& outputs) {
  std::vector<std::string> written;
  for (const auto& o : outputs) {
    if (o.path.empty()) continue;
    try {
      writeTextFile(o.path, o.text());
    } catch (const InputError& e) {
      std::string done;
      for (const auto& w : written) done += (done.empty() ? "" : ", ") + ("'" + w + "'");
      throw InputError(std::string(e.what()) +
                       (written.empty() ? "; nothing was written" : "; already written: " + done));
    }
    written.push_back(o.path);
  }
}

}  // namespace kwb
