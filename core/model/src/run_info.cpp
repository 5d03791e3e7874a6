// SPDX-License-Identifier: Apache-2.0
#include "kwb/run_info.h"

#include <unistd.h>

#include <ctime>

namespace kwb {

std::string hostName() {
  char buf[256] = {};
  return ::gethostname(buf, sizeof buf - 1) == 0 ? buf : "unknown";
}

std::string utcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

RunDocument stampedDocument(std::string toolVersion, std::string gitRevision) {
  RunDocument doc;
  doc.toolVersion = std::move(toolVersion);
  doc.gitRevision = std::move(gitRevision);
  doc.timestamp = utcTimestamp();
  doc.host = hostName();
  return doc;
}

CaseResult skippedCase(const KernelDescriptor& k, const CaseSize& s, const std::string& why) {
  CaseResult c;
  c.kernel = k.id;
  c.size = s;
  c.precision = k.precision;
  c.status = CaseStatus::kSkipped;
  c.message = why;
  return c;
}

}  // namespace kwb
