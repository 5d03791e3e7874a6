// SPDX-License-Identifier: Apache-2.0
#include "output_target.h"

#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "kwb/error.h"

namespace kwb::detail {

namespace fs = std::filesystem;

std::string cannotWrite(const std::string& path, const std::string& option) {
  return "cannot write '" + path + "'" + (option.empty() ? "" : " (" + option + ")") + ": ";
}

namespace {

std::string errnoText(int err) { return std::generic_category().message(err); }

// The file `path` names once its links are followed; a dangling link gives the file it names.
fs::path followLinks(const fs::path& path, const std::string& prefix) {
  fs::path p = path;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ENOENT) return p;
      if (errno == ENOTDIR) throw InputError(prefix + "a folder on its path is a file");
      throw InputError(prefix + errnoText(errno));
    }
    if (!S_ISLNK(st.st_mode)) return p;
    if (hops == 40) throw InputError(prefix + "too many symbolic links (a loop?)");
    std::error_code ec;
    const fs::path link = fs::read_symlink(p, ec);
    if (ec) throw InputError(prefix + "cannot follow the link: " + ec.message());
    p = link.is_absolute() ? link : p.parent_path() / link;
  }
}

}  // namespace

OutputTarget checkedOutputTarget(const fs::path& path, const std::string& option) {
  const std::string prefix = cannotWrite(path.string(), option);
  OutputTarget t;
  t.file = followLinks(path, prefix);
  const std::string via = t.file == path ? "" : " (the link names '" + t.file.string() + "')";
  t.exists = ::stat(t.file.c_str(), &t.st) == 0;
  const int statError = t.exists ? 0 : errno;
  if (t.exists && S_ISDIR(t.st.st_mode)) throw InputError(prefix + "it is a folder" + via);
  if (t.exists && !S_ISREG(t.st.st_mode))
    throw InputError(prefix + "not a regular file (a device, FIFO or socket is never replaced)" +
                     via);
  if (!t.exists && statError != ENOENT) throw InputError(prefix + errnoText(statError) + via);
  if (!t.file.has_filename()) throw InputError(prefix + "it names a folder");
  const fs::path dir = t.file.has_parent_path() ? t.file.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(prefix + "folder '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError(prefix + "folder '" + dir.string() + "' is not writable");
  if (t.exists && ::access(t.file.c_str(), W_OK) != 0)
    throw InputError(prefix + "the file is not writable" + via);
  const fs::path realDir = fs::canonical(dir, ec);
  if (ec) throw InputError(prefix + "folder '" + dir.string() + "': " + ec.message());
  t.real = realDir / t.file.filename();
  return t;
}

}  // namespace kwb::detail
