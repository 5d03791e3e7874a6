// SPDX-License-Identifier: Apache-2.0
// The family driver registry (kwb/cuda/family_driver.h): a registered driver is found by its
// family's id and its declaration joins the family catalog; an unknown id is refused naming the
// registered ones; a kernel's family-owned launcher is read back as its driver's type, and a
// launcher of another type is refused naming the kernel. Host code, no GPU needed.
#include "kwb/cuda/family_driver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kwb/error.h"
#include "test_support.h"

namespace {

using kwb::cuda::DriverContext;
using kwb::cuda::FamilyCase;
using kwb::cuda::FamilyDriver;

kwb::Work planted(const kwb::CaseResult&) { return {1.0, 2.0}; }

// A family that only declares itself: enough for the registry.
class PlantedDriver : public FamilyDriver {
 public:
  PlantedDriver(const std::string& id, const std::string& title) {
    m_family.id = id;
    m_family.title = title;
    m_family.axes = {{"count", kwb::AxisKind::kCount, {}, {}, 0}};
    m_family.headline = kwb::Metric::kGbps;
    m_family.reference = id + ".ref";
    m_family.work = planted;
  }
  const kwb::Family& family() const override { return m_family; }
  std::unique_ptr<FamilyCase> prepare(const kwb::KernelDescriptor&, const kwb::CaseSize&,
                                      const DriverContext&) override {
    throw kwb::InputError("planted: no device here");
  }
  kwb::KnownAnswer knownAnswer(const kwb::KernelDescriptor&, const DriverContext&) override {
    return {};
  }

 private:
  kwb::Family m_family;
};

struct PlantedArgs {
  int n = 0;
};
using PlantedLaunchFn = int (*)(const PlantedArgs&);
int plantedLaunch(const PlantedArgs& a) { return a.n + 1; }

}  // namespace

TEST(FamilyDriver, ARegisteredDriverIsFoundAndItsFamilyCatalogued) {
  kwb::cuda::registerFamilyDriver(std::make_shared<PlantedDriver>("planted_a", "Planted A"));
  FamilyDriver* d = kwb::cuda::findFamilyDriver("planted_a");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->family().title, "Planted A");
  EXPECT_EQ(&kwb::cuda::familyDriver("planted_a"), d);
  // Its declaration and work are the catalog's, so documents and figures know the family.
  const kwb::Family& f = kwb::findFamily("planted_a");
  EXPECT_EQ(f.reference, "planted_a.ref");
  ASSERT_NE(f.work, nullptr);
  EXPECT_EQ(f.work(kwb::CaseResult{}).bytes, 2.0);
  EXPECT_EQ(kwb::cuda::findFamilyDriver("planted_nope"), nullptr);
}

TEST(FamilyDriver, ASecondRegistrationOfAnIdReplacesTheFirst) {
  kwb::cuda::registerFamilyDriver(std::make_shared<PlantedDriver>("planted_b", "First"));
  kwb::cuda::registerFamilyDriver(std::make_shared<PlantedDriver>("planted_b", "Second"));
  EXPECT_EQ(kwb::cuda::familyDriver("planted_b").family().title, "Second");
  EXPECT_EQ(kwb::findFamily("planted_b").title, "Second");
  const auto ids = kwb::cuda::familyDriverIds();
  EXPECT_EQ(std::count(ids.begin(), ids.end(), "planted_b"), 1);
}

TEST(FamilyDriver, AnUnknownFamilyIsRefusedNamingTheRegisteredOnes) {
  kwb::cuda::registerFamilyDriver(std::make_shared<PlantedDriver>("planted_c", "C"));
  const std::string e = errorOf([] { kwb::cuda::familyDriver("histogramm"); });
  EXPECT_NE(e.find("'histogramm'"), std::string::npos) << e;
  EXPECT_NE(e.find("planted_c"), std::string::npos) << e;
  EXPECT_EQ(errorOf([] { kwb::cuda::registerFamilyDriver(nullptr); }),
            "registerFamilyDriver: no driver given");
}

TEST(FamilyDriver, AKernelsLauncherIsReadAsItsFamilysType) {
  kwb::KernelDescriptor k;
  k.id = "planted.one";
  k.problem = "planted_a";
  k.launcher = PlantedLaunchFn{&plantedLaunch};
  EXPECT_EQ(kwb::cuda::launcherOf<PlantedLaunchFn>(k)(PlantedArgs{41}), 42);
  // A launcher of another family's type (or none) is refused naming the kernel.
  k.launcher = 3.5;
  const std::string wrong = errorOf([&] { kwb::cuda::launcherOf<PlantedLaunchFn>(k); });
  EXPECT_NE(wrong.find("kernel planted.one has no launcher of its family's type"),
            std::string::npos)
      << wrong;
  EXPECT_NE(wrong.find("the planted_a driver takes"), std::string::npos) << wrong;
  k.launcher.reset();
  EXPECT_NE(errorOf([&] { kwb::cuda::launcherOf<PlantedLaunchFn>(k); }).find("it has none"),
            std::string::npos);
}

TEST(FamilyDriver, RunStatesAreMadeOnceAndDroppedLastMadeFirst) {
  std::vector<std::string> dropped;
  struct Noted {
    std::vector<std::string>* log;
    std::string name;
    ~Noted() { log->push_back(name); }
  };
  int made = 0;
  {
    kwb::cuda::DriverStates states;
    const auto make = [&](const char* name) {
      return [&made, &dropped, name] {
        ++made;
        return std::make_unique<Noted>(Noted{&dropped, name});
      };
    };
    Noted& a = states.get<Noted>("a", make("a"));
    Noted& again = states.get<Noted>("a", make("a2"));
    EXPECT_EQ(&a, &again);
    EXPECT_EQ(again.name, "a");
    states.get<Noted>("b", make("b"));
    EXPECT_EQ(made, 2);
    dropped.clear();  // the temporaries the factory moved from
  }
  EXPECT_EQ(dropped, (std::vector<std::string>{"b", "a"}));
}
