// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/family_driver.h"

#include <mutex>

#include "kwb/cuda/gemm_family.h"

namespace kwb::cuda {
namespace {

// GEMM's driver is this library's own: the catalog starts with it, so GEMM is registered in
// this one place for every build and test.
struct Catalog {
  Catalog() {
    drivers.push_back(gemmDriver());
    registerFamily(drivers.back()->family());
  }
  std::mutex lock;
  std::vector<std::shared_ptr<FamilyDriver>> drivers;
};
Catalog& catalog() {
  static Catalog c;
  return c;
}

}  // namespace

void registerFamilyDriver(std::shared_ptr<FamilyDriver> d) {
  if (!d) throw InputError("registerFamilyDriver: no driver given");
  Catalog& c = catalog();  // GEMM first
  registerFamily(d->family());
  const std::lock_guard<std::mutex> guard(c.lock);
  for (auto& g : c.drivers)
    if (g->family().id == d->family().id) {
      g = std::move(d);
      return;
    }
  c.drivers.push_back(std::move(d));
}

FamilyDriver* findFamilyDriver(std::string_view id) {
  Catalog& c = catalog();
  const std::lock_guard<std::mutex> guard(c.lock);
  for (const auto& d : c.drivers)
    if (d->family().id == id) return d.get();
  return nullptr;
}

std::vector<std::string> familyDriverIds() {
  Catalog& c = catalog();
  const std::lock_guard<std::mutex> guard(c.lock);
  std::vector<std::string> out;
  for (const auto& d : c.drivers) out.push_back(d->family().id);
  return out;
}

FamilyDriver& familyDriver(std::string_view id) {
  if (FamilyDriver* d = findFamilyDriver(id)) return *d;
  std::string known;
  for (const std::string& k : familyDriverIds()) known += (known.empty() ? "" : ", ") + k;
  throw InputError("no driver for the family '" + std::string(id) +
                   "' is registered (registered: " + (known.empty() ? std::string("none") : known) +
                   ")");
}

}  // namespace kwb::cuda
