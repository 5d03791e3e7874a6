// SPDX-License-Identifier: Apache-2.0
// kwb run --energy and kwb ab --energy (docs/MEASUREMENT.md, "Energy per launch"): the option's
// values are checked before any device is opened, and a document with energy windows exports
// them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "kwb/error.h"
#include "kwb/exit_codes.h"
#include "kwb/results.h"
#include "energy_output.h"
#include "run_process.h"

TEST(EnergyCli, BadSecondsExit2NamingTheOptionAndTheValue) {
  for (const char* bad : {"0", "-1", "0.05", "nan", "inf", "1e999", "lots", "4000"}) {
    const auto r = runKwb({"run", "--shapes", "64", "--energy", bad});
    EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << bad << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "--energy")) << r.err;
    EXPECT_TRUE(contains(r.err, bad)) << r.err;
  }
  const auto ab = runKwb({"ab", "sgemm.tiled", "sgemm.bank_free", "--energy", "lots"});
  EXPECT_EQ(ab.exitCode, kwb::kExitBadInput) << ab.err;
  EXPECT_TRUE(contains(ab.err, "--energy")) << ab.err;
}

// Bare, it is 1 s; given, any number from 0.1 to 3600. The run then goes on to the device
// (exit 3 here without one), so only "not bad usage" is asserted. One kernel each: on a GPU
// machine every case gets its energy window, and the whole registry at 64 was four minutes.
TEST(EnergyCli, BareOrInRangeSecondsAreAccepted) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--kernels", "sgemm.naive", "--shapes", "64", "--max-time",
                                 "0.01", "--energy"},
        std::vector<std::string>{"run", "--kernels", "sgemm.naive", "--shapes", "64", "--max-time",
                                 "0.01", "--energy", "0.5"},
        std::vector<std::string>{"ab", "sgemm.tiled", "sgemm.bank_free", "--shapes", "64",
                                 "--energy", "0.2"}}) {
    const auto r = runKwb(args);
    EXPECT_NE(r.exitCode, kwb::kExitBadInput) << r.err;
  }
  const auto help = runKwb({"run", "--help"});
  EXPECT_TRUE(contains(help.out, "--energy")) << help.out;
}

TEST(EnergyCli, ExportWritesTheEnergyColumnsAndSection) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("kwb_energy_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  kwb::RunDocument d;
  d.toolVersion = "0.1.0";
  d.settings.energySeconds = 1.0;
  kwb::CaseResult c;
  c.kernel = "sgemm.tiled";
  c.size = kwb::gemmSize({1024, 1024, 1024});
  c.status = kwb::CaseStatus::kPass;
  c.samplesMs = {1.0};
  c.summary.count = 1;
  c.summary.median = 1.0;
  kwb::EnergyReading e;
  e.requestedS = 1.0;
  e.windowS = 1.01;
  e.launches = 1000;
  e.joules = 303.0;
  e.joulesPerLaunch = 0.303;
  e.powerW = 300.0;
  e.counterStepJ = 0.3;
  e.uncertaintyPct = 0.099;
  e.workPerJoule = 7.087;
  e.workUnit = "GFLOP/J";
  c.energy = e;
  d.cases.push_back(c);
  c.kernel = "sgemm.naive";
  c.energy = kwb::EnergyReading{};
  c.energy->requestedS = 1.0;
  c.energy->unavailable = "energy counter unreadable: Not Supported";
  d.cases.push_back(c);
  kwb::writeDocument(d, dir / "r.json");
  const auto r = runKwb({"export", (dir / "r.json").string(), "--csv", (dir / "r.csv").string(),
                         "--md", (dir / "r.md").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string csv = slurp((dir / "r.csv").string());
  EXPECT_TRUE(contains(csv, ",energy_work_per_j,energy_unit,")) << csv;
  EXPECT_TRUE(contains(csv, ",7.087,GFLOP/J,0.099,0.303,300.0,")) << csv;
  EXPECT_TRUE(contains(csv, "energy counter unreadable: Not Supported")) << csv;
  const std::string md = slurp((dir / "r.md").string());
  EXPECT_TRUE(contains(md, "## Energy")) << md;
  EXPECT_TRUE(contains(md, "7.09 GFLOP/J")) << md;
  EXPECT_TRUE(contains(md, "Not Supported")) << md;
  fs::remove_all(dir);
}

// The run table's two columns and the notes under it (cli/energy_output.h, built into this
// test from its source).
TEST(EnergyCli, TableGetsWorkPerJouleAndWattsBeforeTheStatusAndNotesForTheMissing) {
  kwb::RunDocument d;
  kwb::CaseResult c;
  c.kernel = "sgemm.tiled";
  c.size = kwb::gemmSize({512, 512, 512});
  c.status = kwb::CaseStatus::kPass;
  c.samplesMs = {1.0};
  std::vector<std::vector<std::string>> rows{{"kernel", "status"}, {"sgemm.tiled", "pass"}};
  kwb::cli::appendEnergyColumns(rows, d, [](const kwb::CaseResult&) { return true; });
  EXPECT_EQ(rows.front().size(), 2u) << "no --energy: no columns";
  EXPECT_EQ(kwb::cli::energyNotes(d), "");
  d.settings.energySeconds = 1.0;
  kwb::EnergyReading e;
  e.joules = 300;
  e.joulesPerLaunch = 0.3;
  e.powerW = 297.4;
  e.uncertaintyPct = 0.12;
  e.workPerJoule = 0.89;
  e.workUnit = "GFLOP/J";
  c.energy = e;
  d.cases.push_back(c);
  c.kernel = "sgemm.naive";
  c.energy = kwb::EnergyReading{};
  c.energy->unavailable = "energy counter unreadable: No Permission";
  d.cases.push_back(c);
  rows = {{"kernel", "status"}, {"sgemm.tiled", "pass"}, {"sgemm.naive", "pass"}};
  kwb::cli::appendEnergyColumns(rows, d, [](const kwb::CaseResult&) { return true; });
  EXPECT_EQ(rows[0], (std::vector<std::string>{"kernel", "GFLOP/J", "W", "status"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"sgemm.tiled", "0.89 ±0.1%", "297", "pass"}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"sgemm.naive", "", "", "pass"}));
  const std::string notes = kwb::cli::energyNotes(d);
  EXPECT_TRUE(contains(notes,
                       "sgemm.naive 512x512x512: no energy figure: energy counter "
                       "unreadable: No Permission"))
      << notes;
  EXPECT_FALSE(contains(notes, "sgemm.tiled 512")) << "measured cases are in the columns";
  EXPECT_TRUE(contains(kwb::cli::energyNotes(d, true), "sgemm.tiled 512x512x512: 0.89 ±0.1%"));
}
