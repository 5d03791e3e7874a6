// SPDX-License-Identifier: Apache-2.0
// Reading a user's source within its bounds (kwb/cuda/user_kernel.h, SourceLimits): regular
// files only, opened without blocking; the file's size; where its includes may read from, and
// the depth and total size of what it includes. A compile bomb that these cannot see (macros,
// templates) is the compile's time and memory limit's to stop (cli/cmd_nvrtc_child.cpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <map>
#include <string_view>
#include <vector>

#include "kwb/cuda/user_kernel.h"
#include "kwb/include_directives.h"
#include "kwb/nvrtc_prelude.h"

namespace kwb::cuda {
namespace fs = std::filesystem;
namespace {

// A regular file of at most `max` bytes, read without blocking on a FIFO or a device. `what`
// names it in a message; `flag` is the option that raises the bound.
std::string readBounded(const fs::path& p, std::uintmax_t max, const std::string& what,
                        const char* flag) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(what + ": cannot read the file (" + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(what + ": not a regular file (a FIFO, device, socket or folder is refused)");
  }
  const auto tooLarge = [&] {
    ::close(fd);
    return InputError(what + ": larger than " + std::to_string(max) + " bytes (raise it with " +
                      flag + ")");
  };
  if (std::uintmax_t(st.st_size) > max) throw tooLarge();
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, std::size_t(n));
    if (text.size() > max) throw tooLarge();  // it grew while read
  }
  ::close(fd);
  return text;
}

bool within(const fs::path& p, const fs::path& dir) {
  const auto rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

fs::path canonicalOr(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

// Walks every #include of a source (both forms, recursively through the user's own headers):
// each must resolve inside the file's own folder, a --include-dir, or the toolkit's include
// folder, or be one of kwb's stand-ins (kwb/nvrtc_prelude.h). The user's headers that it reads
// are handed to NVRTC in memory under the name they were included by, so NVRTC opens no file of
// the user's itself: what it compiles is what was checked.
class IncludeScan {
 public:
  IncludeScan(const std::string& root, const SourceLimits& limits)
      : m_root(root), m_limits(limits), m_toolkit(canonicalOr(KWB_CUDA_INCLUDE_DIR)) {
    m_allowed.push_back(canonicalOr(fs::absolute(root).parent_path()));
    m_stack.push_back(canonicalOr(fs::absolute(root)));
    for (const auto& d : limits.includeDirs) m_allowed.push_back(canonicalOr(fs::absolute(d)));
  }

  void scan(const fs::path& file, const std::string& text, int depth) {
    if (depth == 0) m_text[m_stack.front()] = text;
    for (const IncludeDirective& inc : includeDirectives(text)) {
      const std::string at = "--source " + m_root + ": line " + std::to_string(inc.line) +
                             (file == fs::path(m_root) ? "" : " of " + file.string()) +
                             ": #include " + spelled(inc);
      if (inc.name.empty())
        throw InputError(at +
                         ": a computed #include (a macro) cannot be checked; write the "
                         "file's name");
      const fs::path found = locate(file, inc, at);
      if (found.empty()) continue;  // the toolkit's, a stand-in, or NVRTC's "cannot open"
      if (const auto [it, fresh] = m_spelling.emplace(inc.name, found); !fresh) {
        if (it->second != found)
          throw InputError(at + ": two files are included as '" + inc.name + "' (" +
                           it->second.string() + ", " + found.string() +
                           "); NVRTC cannot tell them apart: rename one");
        if (std::find(m_stack.begin(), m_stack.end(), found) != m_stack.end() &&
            !guarded(m_text.at(found)))
          throw InputError(at +
                           ": includes itself with no #pragma once or include guard, so it "
                           "nests deeper than any --max-include-depth");
        continue;  // read once: NVRTC takes it from memory as often as it is included
      }
      if (depth + 1 > m_limits.maxIncludeDepth)
        throw InputError(at + " nests deeper than " + std::to_string(m_limits.maxIncludeDepth) +
                         " includes (raise it with --max-include-depth)");
      std::string body = readBounded(found, m_limits.maxTotalBytes - m_total,
                                     at + " (" + found.string() + ")", "--max-include-bytes");
      m_total += body.size();
      m_text[found] = body;
      m_stack.push_back(found);
      scan(found, body, depth + 1);
      m_stack.pop_back();
      m_headers.emplace_back(inc.name, std::move(body));
    }
  }
  std::vector<std::pair<std::string, std::string>> headers() { return std::move(m_headers); }

 private:
  // Whether a header included again inside itself stops: #pragma once, or an include guard.
  static bool guarded(const std::string& text) {
    return text.find("#pragma once") != std::string::npos ||
           text.find("#ifndef") != std::string::npos;
  }
  static std::string spelled(const IncludeDirective& inc) {
    if (inc.name.empty()) return inc.operand;
    return inc.angled ? "<" + inc.name + ">" : "\"" + inc.name + "\"";
  }
  bool allowed(const fs::path& canonical) const {
    for (const auto& d : m_allowed)
      if (within(canonical, d)) return true;
    return false;
  }
  // The user's file the include reads (canonical), or empty when it is the toolkit's, a
  // stand-in's or nobody's. Throws when it would read anything else.
  fs::path locate(const fs::path& includer, const IncludeDirective& inc, const std::string& at) {
    const fs::path name(inc.name);
    std::vector<fs::path> candidates;
    if (name.is_absolute()) {
      candidates.push_back(name);
    } else {
      std::error_code ec;
      candidates.push_back(includer.parent_path() / name);
      for (const auto& d : m_allowed) candidates.push_back(d / name);
      if (inc.angled) {  // NVRTC's --include-path
        candidates.push_back(m_toolkit / name);
        candidates.push_back(m_toolkit / "cccl" / name);
      }
      candidates.push_back(fs::current_path(ec) / name);  // where NVRTC would look too
    }
    for (const fs::path& p : candidates) {
      std::error_code ec;
      if (!fs::exists(fs::symlink_status(p, ec))) continue;
      fs::path c = canonicalOr(p);
      if (allowed(c)) return c;
      if (within(c, m_toolkit)) return {};
      if (!name.is_absolute() && isNvrtcStandIn(inc.name)) return {};
      throw refused(at, c);
    }
    if (!name.is_absolute() && !isNvrtcStandIn(inc.name)) {
      const fs::path t = canonicalOr(m_toolkit / name);
      if (!within(t, m_toolkit)) throw refused(at, t);
    }
    return {};
  }
  InputError refused(const std::string& at, const fs::path& c) const {
    return InputError(at + ": refused: it reads " + c.string() +
                      ", outside the folders a user kernel may include from (its own folder " +
                      m_allowed.front().string() + ", the toolkit's " + m_toolkit.string() +
                      (m_allowed.size() > 1 ? ", --include-dir" : "") + ")");
  }

  std::string m_root;
  SourceLimits m_limits;
  fs::path m_toolkit;
  std::vector<fs::path> m_allowed;
  std::map<std::string, fs::path> m_spelling;
  std::map<fs::path, std::string> m_text;  // of every file read, by canonical path
  std::vector<fs::path> m_stack;           // the files being scanned, the source first
  std::vector<std::pair<std::string, std::string>> m_headers;
  std::uintmax_t m_total = 0;
};

}  // namespace

UserSource readUserSource(const std::string& path, const SourceLimits& limits) {
  UserSource s{path,
               readBounded(path, limits.maxBytes, "--source " + path, "--max-source-bytes"),
               fs::path(path).stem().string(),
               {}};
  IncludeScan scan(path, limits);
  scan.scan(path, s.text, 0);
  s.headers = scan.headers();
  return s;
}

}  // namespace kwb::cuda
