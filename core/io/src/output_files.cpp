// SPDX-License-Identifier: Apache-2.0
#include "kwb/output_files.h"

#include <sys/stat.h>

#include <filesystem>

#include "kwb/error.h"
#include "kwb/text_file.h"
#include "output_target.h"

namespace kwb {

namespace {

bool given(const std::string& path) { return !path.empty() && path != "-"; }

std::string quoted(const NamedPath& p) { return p.option + " '" + p.path + "'"; }

}  // namespace

void checkOutputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  std::vector<std::pair<const NamedPath*, detail::OutputTarget>> checked;
  for (const NamedPath& out : outputs) {
    if (!given(out.path)) continue;
    detail::OutputTarget t = detail::checkedOutputTarget(out.path, out.option);
    // An input is the same file when its device and inode are the output's (a link, a hard
    // link, another spelling of the path); an output not written yet is no input.
    for (const NamedPath& in : inputs) {
      struct stat st {};
      if (!given(in.path) || !t.exists || ::stat(in.path.c_str(), &st) != 0) continue;
      if (st.st_dev == t.st.st_dev && st.st_ino == t.st.st_ino)
        throw InputError(detail::cannotWrite(out.path, out.option) + "it is the input file (" +
                         quoted(in) + ")");
    }
    // Two outputs: one existing file, or one path once links are followed.
    for (const auto& [other, o] : checked) {
      const bool same = t.exists && o.exists
                            ? t.st.st_dev == o.st.st_dev && t.st.st_ino == o.st.st_ino
                            : t.real == o.real;
      if (same)
        throw InputError(quoted(*other) + " and " + quoted(out) +
                         " name the same file; give each output its own file");
    }
    checked.emplace_back(&out, std::move(t));
  }
}

void writeOutputs(const std::vector<Output>& outputs) {
  std::vector<std::string> written;
  for (const auto& o : outputs) {
    if (o.path.empty()) continue;
    try {
      writeTextFile(o.path, o.text(), o.option);
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
