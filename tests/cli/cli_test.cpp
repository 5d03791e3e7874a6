// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "kwb/error.h"
#include "kwb/results_json.h"
#include "kwb/kernel_info.h"
#include "kwb/size_json.h"
#include "run_process.h"

TEST(Cli, VersionPrintsVersion) {
  const auto r = runKwb({"--version"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_TRUE(contains(r.out, "kwb 0.1.0")) << r.out;
}

TEST(Cli, HelpListsSubcommands) {
  const auto r = runKwb({"--help"});
  EXPECT_EQ(r.exitCode, 0);
  for (const char* sub : {"list", "device"}) EXPECT_TRUE(contains(r.out, sub)) << r.out;
}

TEST(Cli, NoSubcommandIsUsageError) {
  const auto r = runKwb({});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_FALSE(r.err.empty());
}

TEST(Cli, UnknownSubcommandExits2) {
  const auto r = runKwb({"frobnicate"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "frobnicate")) << r.err;
}

TEST(Cli, UnknownOptionExits2) {
  const auto r = runKwb({"list", "--bogus"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--bogus")) << r.err;
}

TEST(Cli, NegativeCaseTimeoutExits2NamingIt) {
  const auto r = runKwb({"run", "--case-timeout", "-1", "--shapes", "64"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--case-timeout")) << r.err;
}

// --fresh-inputs K takes 2 to 64 input sets; bare, it is 2 (the run then goes on to the device).
TEST(Cli, FreshInputsBelowTwoOrNotANumberExits2NamingIt) {
  for (const char* bad : {"1", "0", "65", "two"}) {
    const auto r = runKwb({"run", "--fresh-inputs", bad, "--shapes", "64"});
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << bad;
    EXPECT_TRUE(contains(r.err, "--fresh-inputs")) << r.err;
  }
  const auto bare = runKwb({"run", "--shapes", "64", "--max-time", "0.01", "--fresh-inputs"});
  EXPECT_NE(bare.exitCode, kwb::kExitBadInput) << bare.err;
}

// Every family takes --fresh-inputs: no device here (exit 3); on a GPU each case rotated through
// the 4 sets and the document records the setting.
TEST(Cli, FreshInputsAreTakenByEveryOneDimensionalFamily) {
  const std::vector<std::pair<std::string, std::string>> sizes = {
      {"reduce", "4099"}, {"scan", "4099"}, {"histogram", "4099 256 bins"}, {"sort", "4099"}};
  for (const auto& [family, size] : sizes) {
    const std::string json = ::testing::TempDir() + "fresh_" + family + ".json";
    const auto r = runKwb({"run", "--family", family, "--sizes", size, "--fresh-inputs", "4",
                           "--max-time", "0.01", "--json", json});
    if (r.exitCode == kwb::kExitNoDevice) continue;
    ASSERT_EQ(r.exitCode, kwb::kExitOk) << family << ": " << r.err;
    const auto doc = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(doc["settings"]["freshInputs"], 4) << family;
    ASSERT_FALSE(doc["cases"].empty()) << family;
    for (const auto& c : doc["cases"]) EXPECT_EQ(c["inputSets"], 4) << family << " " << c["kernel"];
  }
}

TEST(Cli, ListJsonIsValidAndComplete) {
  const auto r = runKwb({"list", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  for (const auto& k : j) {
    EXPECT_TRUE(k.at("id").is_string());
    EXPECT_TRUE(k.at("precision").is_string());
  }
}

// `kwb list --json` carries the fields of a document's kernel entry, and core reads it back.
TEST(Cli, ListJsonReadsBackAsKernelInfo) {
  const auto r = runKwb({"list", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const auto& k : nlohmann::json::parse(r.out))
    for (const char* key :
         {"id", "name", "family", "stage", "precision", "reference", "description", "tunable"})
      EXPECT_TRUE(k.contains(key)) << key << " missing in " << k.dump();
  const std::vector<kwb::KernelInfo> list = kwb::parseKernelList(r.out, "kwb list --json");
  ASSERT_FALSE(list.empty());
  const auto naive = std::find_if(list.begin(), list.end(),
                                  [](const kwb::KernelInfo& k) { return k.id == "sgemm.naive"; });
  ASSERT_NE(naive, list.end());
  EXPECT_EQ(naive->stage, 1);
  EXPECT_FALSE(naive->reference);
  EXPECT_TRUE(
      std::any_of(list.begin(), list.end(), [](const kwb::KernelInfo& k) { return k.reference; }));
}

// `kwb list --families --json`: every family's declaration, which reads back as a FamilyInfo
// (the GUI parses presets and typed sizes of the engine's families by them).
TEST(Cli, ListFamiliesGivesEachFamilysDeclaration) {
  const auto r = runKwb({"list", "--families", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::vector<std::string> ids;
  for (const auto& j : nlohmann::json::parse(r.out)) {
    const auto f = j.get<kwb::FamilyInfo>();
    EXPECT_FALSE(f.axes.empty()) << f.id;
    EXPECT_FALSE(f.reference.empty()) << f.id;
    ids.push_back(f.id);
  }
  for (const char* id : {"gemm", "reduce", "scan", "histogram", "sort"})
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  const auto table = runKwb({"list", "--families"});
  ASSERT_EQ(table.exitCode, 0) << table.err;
  EXPECT_TRUE(contains(table.out, "count, type, bins, distribution")) << table.out;
  EXPECT_FALSE(contains(table.out, "sgemm.naive")) << "families, not kernels: " << table.out;
}

TEST(Cli, ListTableHasHeader) {
  const auto r = runKwb({"list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "precision")) << r.out;
}

// On a machine without a GPU `kwb device` must exit 3 with a readable reason; with a
// GPU it prints the banner. Either way the contract is checked, never skipped.
TEST(Cli, DeviceReportsBannerOrNoDevice) {
  const auto r = runKwb({"device"});
  if (r.exitCode == kwb::kExitNoDevice) {
    EXPECT_TRUE(contains(r.err, "no CUDA device")) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  } else {
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "SMs")) << r.out;
  }
}

TEST(Cli, DeviceJsonOrNoDevice) {
  const auto r = runKwb({"device", "--json"});
  if (r.exitCode == kwb::kExitNoDevice) {
    EXPECT_TRUE(r.out.empty()) << r.out;
  } else {
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out).at("name").is_string());
  }
}

TEST(Cli, BadDeviceIndexIsUsageError) {
  EXPECT_EQ(runKwb({"device", "--device", "-1"}).exitCode, kwb::kExitBadInput);
  EXPECT_EQ(runKwb({"device", "--device", "abc"}).exitCode, kwb::kExitBadInput);
}
