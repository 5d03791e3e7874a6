// SPDX-License-Identifier: Apache-2.0
// Reading a user's source within its bounds (kwb/cuda/user_kernel.h, SourceLimits): regular
// files only, opened without blocking; the file's size; the depth and total size of what it
// includes with #include "...". A compile bomb that these cannot see (macros, templates) is the
// compile's time and memory limit's to stop (cli/cmd_nvrtc_child.cpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include "kwb/cuda/user_kernel.h"

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

// Walks the #include "..." of a source, each found beside the file that includes it or in the
// working directory (where NVRTC looks); what is found nowhere is NVRTC's to report.
// The names of its #include "..." lines, in order.
std::vector<std::string> quotedIncludes(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    const auto skip = [&] {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    };
    skip();
    if (line.empty() || line.front() != '#') continue;
    line.remove_prefix(1);
    skip();
    if (line.substr(0, 7) != "include") continue;
    line.remove_prefix(7);
    skip();
    if (line.empty() || line.front() != '"') continue;
    const std::size_t close = line.find('"', 1);
    if (close != std::string_view::npos) out.emplace_back(line.substr(1, close - 1));
  }
  return out;
}

class IncludeScan {
 public:
  IncludeScan(const std::string& root, const SourceLimits& limits)
      : m_root(root), m_limits(limits) {}

  void scan(const fs::path& file, const std::string& text, int depth) {
    for (const std::string& quoted : quotedIncludes(text)) {
      const fs::path found = locate(file, quoted);
      if (found.empty()) continue;
      const std::string what = "--source " + m_root + ": its include '" + found.string() + "'";
      if (depth + 1 > m_limits.maxIncludeDepth)
        throw InputError(what + " nests deeper than " + std::to_string(m_limits.maxIncludeDepth) +
                         " includes (raise it with --max-include-depth)");
      const std::string inc =
          readBounded(found, m_limits.maxTotalBytes - m_total, what, "--max-include-bytes");
      m_total += inc.size();
      scan(found, inc, depth + 1);
    }
  }

 private:
  static fs::path locate(const fs::path& includer, const fs::path& name) {
    std::error_code ec;
    for (const fs::path& dir : {includer.parent_path(), fs::current_path(ec)}) {
      fs::path p = name.is_absolute() ? name : dir / name;
      if (fs::exists(fs::symlink_status(p, ec))) return p;
      if (name.is_absolute()) break;
    }
    return {};
  }

  std::string m_root;
  SourceLimits m_limits;
  std::uintmax_t m_total = 0;
};

}  // namespace

UserSource readUserSource(const std::string& path, const SourceLimits& limits) {
  UserSource s{path, readBounded(path, limits.maxBytes, "--source " + path, "--max-source-bytes"),
               fs::path(path).stem().string()};
  IncludeScan(path, limits).scan(path, s.text, 0);
  return s;
}

}  // namespace kwb::cuda
