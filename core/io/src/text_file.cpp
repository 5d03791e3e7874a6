// SPDX-License-Identifier: Apache-2.0
#include "kwb/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

#include "kwb/error.h"
#include "output_target.h"

namespace kwb {

std::string readTextFile(const std::filesystem::path& path, std::string_view what,
                         std::uintmax_t maxBytes) {
  const std::string name = std::string(what) + " '" + path.string() + "'";
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw InputError("cannot open " + name + ": " + std::generic_category().message(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    throw InputError("cannot read " + name + ": " + std::generic_category().message(errno));
  if (S_ISDIR(st.st_mode)) throw InputError("cannot read " + name + ": it is a folder");
  if (!S_ISREG(st.st_mode))
    throw InputError("cannot read " + name +
                     ": not a regular file (a device, FIFO or socket is not read)");
  if (std::uintmax_t(st.st_size) > maxBytes)
    throw InputError("cannot read " + name + ": it is " + std::to_string(st.st_size) +
                     " bytes, more than the " + std::to_string(maxBytes) + " allowed");
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  text.resize(std::size_t(st.st_size));
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      // The file grew since fstat: read on, within the bound.
      if (text.size() > maxBytes)
        throw InputError("cannot read " + name + ": more than the " + std::to_string(maxBytes) +
                         " bytes allowed");
      text.resize(text.size() + 65536);
    }
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw InputError("cannot read " + name + ": " + std::generic_category().message(errno));
    if (n == 0) break;
    got += std::size_t(n);
  }
  text.resize(got);
  return text;
}

namespace {
// The process's umask, read without changing it (umask(2) can only set it, which would race with
// other threads creating files): Linux reports it in /proc/self/status.
mode_t currentUmask() {
  if (std::FILE* f = std::fopen("/proc/self/status", "re")) {
    char line[256];
    unsigned mask = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f))
      found = std::sscanf(line, "Umask: %o", &mask) == 1;
    std::fclose(f);
    if (found) return mode_t(mask);
  }
  return 022;
}
}  // namespace

void writeBytesFile(const std::filesystem::path& path, const char* data, std::size_t size,
                    const std::string& option) {
  namespace fs = std::filesystem;
  // Where the bytes go: links followed (a link stays a link), and only onto a regular file.
  const detail::OutputTarget t = detail::checkedOutputTarget(path, option);
  const std::string prefix = detail::cannotWrite(path.string(), option);
  auto fail = [&](const std::string& why) { return InputError(prefix + why); };
  // A temporary file of a unique name beside the target (O_EXCL: never an existing file or a
  // link), renamed over it once complete: readers see the old bytes or the new, never a part.
  const fs::path& target = t.file;
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmp = (dir / target.filename()).string();
  tmp.insert(tmp.size() - target.filename().string().size(), 1, '.');
  tmp += ".XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    throw fail("cannot create a file in folder '" + dir.string() +
               "': " + std::generic_category().message(errno));
  auto abandon = [&](const std::string& why) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return fail(why);
  };
  // The new file keeps the old one's mode (and owner, where allowed); a new one gets the
  // usual 0666 less the umask instead of mkstemp's 0600.
  mode_t mode = 0;
  if (t.exists) {
    mode = t.st.st_mode & 07777;
    if (::fchown(fd, t.st.st_uid, t.st.st_gid) != 0) {
      // Not the owner: the file becomes ours, as any rewrite by this user would.
    }
  } else {
    mode = 0666 & ~currentUmask();
  }
  if (::fchmod(fd, mode) != 0) throw abandon(std::generic_category().message(errno));
  // A file-size limit fails a write with EFBIG (kwb and kwb-gui ignore SIGXFSZ), a full disk
  // with ENOSPC: either abandons the temporary file.
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw abandon("writing failed (" + std::generic_category().message(n < 0 ? errno : ENOSPC) +
                    ")");
    done += std::size_t(n);
  }
  if (::fsync(fd) != 0)
    throw abandon("writing failed (" + std::generic_category().message(errno) + ")");
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    throw fail("writing failed (" + std::generic_category().message(errno) + ")");
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw fail(std::generic_category().message(err));
  }
}

void writeTextFile(const std::filesystem::path& path, std::string_view text,
                   const std::string& option) {
  writeBytesFile(path, text.data(), text.size(), option);
}

}  // namespace kwb
