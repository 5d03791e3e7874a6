// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>

#include "kwb/kernel_descriptor.h"
#include "kwb/run_document.h"

namespace kwb {

// Facts every results document records about where and when it was made.
std::string hostName();      // "unknown" when the system will not say
std::string utcTimestamp();  // ISO 8601, "2026-11-22T01:30:00Z"

// An empty results document stamped with the tool that writes it, the host and the time.
RunDocument stampedDocument(std::string toolVersion, std::string gitRevision);

// A case that did not run, with the reason (`skipped`).
CaseResult skippedCase(const KernelDescriptor& k, const CaseSize& s, const std::string& why);
inline CaseResult skippedCase(const KernelDescriptor& k, const Shape& s, const std::string& why) {
  return skippedCase(k, gemmSize(s), why);
}

}  // namespace kwb
