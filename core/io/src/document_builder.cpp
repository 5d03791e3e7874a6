// SPDX-License-Identifier: Apache-2.0
// DocumentBuilder (kwb/events.h): a results document from the events of one or more engines.
#include <algorithm>

#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/family.h"
#include "kwb/progression.h"

namespace kwb {

void DocumentBuilder::apply(const StreamEvent& e) {
  switch (e.type) {
    case EventType::kHello:
      m_doc.toolVersion = e.toolVersion;
      m_doc.gitRevision = e.gitRevision;
      m_doc.host = e.host;
      if (m_plans == 0) m_doc.timestamp = e.timestamp;  // the start of the run
      m_doc.schemaVersion = e.schemaVersion;
      m_done = false;
      break;
    case EventType::kDevice:
      if (e.gpu >= 0 && e.device) {  // a pool's engine: each GPU listed once
        if (m_gpuDevice.count(e.gpu)) break;
        m_gpuDevice[e.gpu] = int(m_doc.devices.size());
        m_doc.devices.push_back(*e.device);
        m_doc.devices.back().index = e.gpu;
        if (!m_doc.device) m_doc.device = m_doc.devices.front();
        break;
      }
      m_doc.device = e.device;
      break;
    case EventType::kPlan:
      ++m_plans;
      m_doc.settings = e.settings;
      m_plan = e.plan;
      for (const auto& k : e.kernels)
        if (!m_doc.kernelInfo(k.id)) m_doc.kernels.push_back(k);
      for (const auto& f : e.families)
        if (std::none_of(m_doc.families.begin(), m_doc.families.end(),
                         [&](const FamilyInfo& g) { return g.id == f.id; }))
          m_doc.families.push_back(f);
      for (const auto& p : m_plan) listKernelIfMissing(m_doc, p.kernel);  // older engines
      break;
    case EventType::kCaseStarted:
      m_running = e.index;
      break;
    case EventType::kCaseFinished:
    case EventType::kCaseFailed:
      if (e.result) {
        m_doc.cases.push_back(*e.result);
        listMissingFamilies(m_doc);  // older engines list none
        CaseResult& c = m_doc.cases.back();
        if (const auto gpu = m_gpuDevice.find(e.gpu); gpu != m_gpuDevice.end())
          c.device = gpu->second;
        deriveOlderSchemaFigures(c, m_doc.family(c.problem()), m_doc.schemaVersion,
                                 m_doc.deviceOf(c));
        listKernelIfMissing(m_doc, e.result->kernel, toString(e.result->precision));
      }
      m_running = -1;
      break;
    case EventType::kLog:
      break;
    case EventType::kDone:
      if (!(m_doc.knownAnswer.ran && !m_doc.knownAnswer.passed)) m_doc.knownAnswer = e.knownAnswer;
      // One engine: its verdict. Several: the rule over all their cases.
      m_doc.progression =
          m_plans > 1 && e.progression.checked ? checkProgression(m_doc) : e.progression;
      m_doc.wallSeconds += e.wallSeconds;
      if (e.launchOverhead) m_doc.launchOverhead = e.launchOverhead;
      m_exitCode = e.exitCode;
      m_done = true;
      break;
  }
}

std::optional<CaseResult> DocumentBuilder::markCrashed(const std::string& why) {
  if (m_running < 0 || std::size_t(m_running) >= m_plan.size()) return std::nullopt;
  const PlannedCase& p = m_plan[std::size_t(m_running)];
  CaseResult c;
  c.kernel = p.kernel;
  c.size = p.size;
  if (const KernelInfo* k = m_doc.kernelInfo(p.kernel)) {
    try {
      c.precision = parsePrecision(k->precision);
    } catch (const InputError&) {  // a precision this build does not know: keep the default
    }
  }
  c.status = CaseStatus::kCrashed;
  c.message = why;
  m_doc.cases.push_back(c);
  m_running = -1;
  return c;
}

ProgressionCheck DocumentBuilder::progression() const {
  return m_done ? m_doc.progression : checkProgression(m_doc);
}

}  // namespace kwb
