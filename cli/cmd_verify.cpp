// kwb verify: the correctness pipeline alone (canary, tolerance, negative control, alpha/beta)
// over a suite, as a pass/fail table. No timing.

#include <chrono>
#include <iostream>

#include "commands.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/error.h"
#include "kwb/results.h"
#include "kwb/run_info.h"
#include "output.h"
#include "registry.h"
#include "run_options.h"

namespace kwb::cli {
namespace {

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", v);
  return buf;
}

std::string verifyTable(const RunDocument& doc) {
  std::vector<std::vector<std::string>> rows{{"kernel", "shape", "status", "max abs err",
                                              "max rel err", "mismatches", "unwritten",
                                              "negative control", "ran"}};
  for (const auto& c : doc.cases) {
    std::vector<std::string> r{c.kernel, toString(c.shape), std::string(toString(c.status))};
    if (const auto& v = c.verification) {
      // The worse of the two runs (beta = 0 and alpha/beta), so no failure hides in a column.
      const CompareReport& ab = v->alphaBeta ? *v->alphaBeta : v->compare;
      r.push_back(sci(std::max(v->compare.maxAbsError, ab.maxAbsError)));
      r.push_back(sci(std::max(v->compare.maxRelError, ab.maxRelError)));
      r.push_back(std::to_string(v->compare.mismatches + (v->alphaBeta ? ab.mismatches : 0)));
      r.push_back(std::to_string(v->unwritten));
      r.emplace_back(v->negativeControlRejected ? "rejected" : "ACCEPTED");
    } else {
      r.insert(r.end(), {"", "", "", "", ""});
    }
    r.push_back(c.ranKernel.empty() ? "" : c.ranKernel);
    rows.push_back(std::move(r));
  }
  return formatTable(rows);
}

int verifyCommand(const Selection& selection, const std::string& json) {
  checkWritable(json);
  const ResolvedSelection sel = resolve(selection, "spec-correctness");  // InputError → 2
  const auto started = std::chrono::steady_clock::now();
  RunDocument doc = stampedDocument(KWB_VERSION, KWB_GIT_REVISION);
  doc.settings.suite = sel.suiteName;
  doc.settings.seed = selection.seed;
  doc.settings.verifyOnly = true;
  doc.device = cuda::queryDevice(selection.device);  // NoDeviceError → exit 3
  std::cerr << formatBanner(*doc.device);

  cuda::GemmSession session(selection.device);
  doc.knownAnswer = session.knownAnswerTest();  // reported; the run goes on
  std::cout << "known-answer test: " << (doc.knownAnswer.passed ? "pass" : "FAIL") << " ("
            << doc.knownAnswer.detail << ")\n\n";

  const std::size_t total = sel.shapes.size() * sel.kernels.size();
  std::string stopReason;  // set once a sticky CUDA error lost the context
  for (const Shape& s : sel.shapes)
    for (const KernelDescriptor* k : sel.kernels) {
      if (!stopReason.empty()) {
        doc.cases.push_back(skippedCase(*k, s, stopReason));
        continue;
      }
      try {
        doc.cases.push_back(session.verifyCase(*k, s, selection.seed));
      } catch (const InputError& e) {  // e.g. too large for the free device memory
        doc.cases.push_back(skippedCase(*k, s, e.what()));
      } catch (const cuda::ContextLost& e) {
        doc.cases.push_back(e.result());
        stopReason = "not run: the CUDA context was lost after " + k->id + " " + toString(s);
      } catch (const cuda::CudaError& e) {  // from prepare (e.g. cudaMalloc), before verify
        CaseResult c = skippedCase(*k, s, e.what());
        c.status = CaseStatus::kError;
        doc.cases.push_back(c);
        if (e.sticky())
          stopReason = "not run: the CUDA context was lost after " + k->id + " " + toString(s);
      }
      const CaseResult& c = doc.cases.back();
      std::cerr << "[" << doc.cases.size() << "/" << total << "] " << c.kernel << " "
                << toString(c.shape) << ": " << toString(c.status) << '\n';
    }
  doc.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!json.empty()) writeDocument(doc, json);

  std::cout << verifyTable(doc);
  bool allGood = doc.knownAnswer.passed;
  std::size_t bad = 0;
  for (const auto& c : doc.cases) {
    if (isGood(c.status)) continue;
    allGood = false;
    if (bad++ == 0) std::cout << "\nnot passed:\n";
    std::cout << "  " << c.kernel << " " << toString(c.shape) << ": " << toString(c.status)
              << (c.message.empty() ? "" : ": " + c.message) << '\n';
  }
  std::cout << '\n'
            << doc.cases.size() - bad << " of " << doc.cases.size() << " cases pass (seed "
            << selection.seed << ")\n";
  return allGood ? kExitOk : kExitCaseFailed;
}

}  // namespace

void addVerifyCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "verify",
      "Check kernels against cuBLAS: canary, spec tolerance, negative control, alpha/beta "
      "(default suite: spec-correctness; exit 0 when every case and the known-answer test pass, "
      "1 otherwise)");
  auto sel = std::make_shared<Selection>();
  auto json = std::make_shared<std::string>();
  addSelectionOptions(*sub, *sel, "spec-correctness");
  sub->add_option("--json", *json, "Also write the results document to FILE");
  sub->callback([sel, json, &exitCode] { exitCode = verifyCommand(*sel, *json); });
}

}  // namespace kwb::cli
