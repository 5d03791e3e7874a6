// SPDX-License-Identifier: Apache-2.0
#pragma once
// The input sets a case's timed launches rotate through (kwb run --fresh-inputs K,
// docs/MEASUREMENT.md "Fresh inputs"), one rule for every family's driver: the seeds of the
// further sets, how many fit the device memory, the rotation launch by launch, and how the
// case records it.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kwb {
struct CaseResult;
}

namespace kwb::cuda {

struct DriverContext;

// The seed of input set `set` of a case seeded with `seed`: set 0 is the case's own; each further
// set steps by an odd constant, so K sets have K distinct seeds.
std::uint64_t inputSetSeed(std::uint64_t seed, int set);

// The sets the run asks for (RunConfig::freshInputs, at least 1); 1 outside a run and in a
// verification-only run.
int inputSetsWanted(const DriverContext& ctx);

// How many of `wanted` sets of `setBytes` each fit: the one the case has, plus as many further
// ones as `freeBytes` holds with `headroomBytes` to spare (never fewer than 1).
int inputSetsThatFit(int wanted, double setBytes, double freeBytes, double headroomBytes);
// The same against the device's free memory now (cudaMemGetInfo).
int inputSetsThatFitNow(int wanted, double setBytes, double headroomBytes);

// Records the sets a case's timed launches read in c.inputSets and, when fewer than `wanted`
// fitted, says so in c.timerNote ("" otherwise): the figures are then not those of K sets.
void recordInputSets(CaseResult& c, int sets, int wanted);

// Which set the next timed launch reads, and which the last one read. Shared by the launch
// closure and the case's timed-output check.
class InputRotation {
 public:
  explicit InputRotation(int sets) : m_sets(sets < 1 ? 1 : sets) {}
  int sets() const { return m_sets; }
  int next() const { return m_next; }
  int last() const { return m_last; }
  // The set this launch reads; the next launch reads the one after it.
  int take() {
    m_last = m_next;
    m_next = (m_next + 1) % m_sets;
    return m_last;
  }

 private:
  int m_sets;
  int m_next = 0;
  int m_last = 0;
};

// One launch that reads set after set of the rotation's, a set a call (inside a captured graph as
// in isolated samples): `launchOn(j)`, called once per set here, is the launch on set j.
std::function<void()> rotatedLaunch(std::shared_ptr<InputRotation> rotation,
                                    const std::function<std::function<void()>(int set)>& launchOn);

}  // namespace kwb::cuda
