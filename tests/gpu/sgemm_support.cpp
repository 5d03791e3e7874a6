// SPDX-License-Identifier: Apache-2.0
#include "sgemm_support.h"

#include <cctype>
#include <memory>

namespace kwb::test {
namespace {

std::unique_ptr<cuda::GemmSession>& sessionSlot() {
  static std::unique_ptr<cuda::GemmSession> s;
  return s;
}

class SessionEnvironment : public testing::Environment {
 public:
  void TearDown() override { sessionSlot().reset(); }
};

[[maybe_unused]] testing::Environment* const g_env =
    testing::AddGlobalTestEnvironment(new SessionEnvironment);

}  // namespace

cuda::GemmSession& session() {
  auto& s = sessionSlot();
  if (!s) s = std::make_unique<cuda::GemmSession>(0);
  return *s;
}

std::vector<std::string> kernelIds(bool (*pred)(const KernelDescriptor&)) {
  std::vector<std::string> ids;
  for (const auto& k : kernels::registry().all())
    if (pred(k)) ids.push_back(k.id);
  return ids;
}

std::string paramName(const testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

void expectVerified(const CaseResult& c, const KernelDescriptor& k, std::uint64_t seed) {
  SCOPED_TRACE(k.id + " " + toString(c.shape()) + " seed " + std::to_string(seed));
  const bool fastPath = c.shape().multipleOf(k.alignment);
  const CaseStatus want = fastPath ? CaseStatus::kPass : CaseStatus::kFallback;
  EXPECT_EQ(toString(c.status), toString(want)) << c.message;
  EXPECT_EQ(c.fallback, !fastPath);
  ASSERT_TRUE(c.verification.has_value()) << c.message;
  const Verification& v = *c.verification;
  EXPECT_EQ(v.seed, seed);
  EXPECT_EQ(v.tolerance.rtol, k.rtol());
  EXPECT_EQ(v.tolerance.atol, k.atol());
  EXPECT_EQ(v.reference, k.reference ? "gpu.fp64" : "cublas.sgemm");
  EXPECT_EQ(v.unwritten, 0);
  EXPECT_EQ(v.compare.mismatches, 0) << c.message;
  EXPECT_EQ(v.compare.elements, c.shape().m * c.shape().n);
  ASSERT_TRUE(v.alphaBeta.has_value());
  EXPECT_EQ(v.alphaBeta->mismatches, 0) << c.message;
  EXPECT_TRUE(v.negativeControlRejected);
}

}  // namespace kwb::test
