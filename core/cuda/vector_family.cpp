// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/vector_family.h"

#include <cstring>
#include <mutex>

#include "kwb/error.h"

namespace kwb::cuda {
namespace {

struct Catalog {
  std::mutex lock;
  std::vector<std::shared_ptr<const VectorFamily>> families;
};
Catalog& catalog() {
  static Catalog c;
  return c;
}

}  // namespace

double vectorValue(std::uint32_t bits, ElementType type) {
  if (type == ElementType::kInt32) return double(std::int32_t(bits));
  float f;
  std::memcpy(&f, &bits, 4);
  return double(f);
}

double vectorWrap(std::int64_t v) { return double(std::int32_t(std::uint32_t(v))); }

void registerVectorFamily(std::shared_ptr<const VectorFamily> f) {
  registerFamily(f->family());
  Catalog& c = catalog();
  const std::lock_guard<std::mutex> guard(c.lock);
  for (auto& g : c.families)
    if (g->family().id == f->family().id) {
      g = std::move(f);
      return;
    }
  c.families.push_back(std::move(f));
}

const VectorFamily* findVectorFamily(std::string_view id) {
  Catalog& c = catalog();
  const std::lock_guard<std::mutex> guard(c.lock);
  for (const auto& f : c.families)
    if (f->family().id == id) return f.get();
  return nullptr;
}

const VectorFamily& vectorFamily(std::string_view id) {
  if (const VectorFamily* f = findVectorFamily(id)) return *f;
  std::string known;
  {
    Catalog& c = catalog();
    const std::lock_guard<std::mutex> guard(c.lock);
    for (const auto& f : c.families) known += (known.empty() ? "" : ", ") + f->family().id;
  }
  throw InputError("no 1-D family '" + std::string(id) + "' is registered (registered: " +
                   (known.empty() ? std::string("none") : known) + ")");
}

}  // namespace kwb::cuda
