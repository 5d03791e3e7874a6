// SPDX-License-Identifier: Apache-2.0
// Foreign bytes never crash, hang or lose a file (docs/RELIABILITY.md): every loader turns any
// problem into an InputError naming the input, integers read are range-checked, shapes read
// follow the typed rules, inputs are bounded, and writes are atomic, unique and keep the target.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/preset.h"
#include "kwb/results.h"
#include "kwb/results_json.h"
#include "kwb/text_file.h"
#include "sample_document.h"
#include "test_support.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void spit(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// The InputError text of reading `text` as a results document, or "" when it reads.
std::string docError(const std::string& text) {
  try {
    kwb::parseDocument(text, "crafted.json");
  } catch (const kwb::InputError& e) {
    return e.what();
  }
  return "";
}

// The sample document as JSON, edited by `edit`, read back: the InputError text or "".
template <class Edit>
std::string editedDocError(Edit edit) {
  json j = json::parse(kwb::toJsonText(makeSampleDocument()));
  edit(j);
  return docError(j.dump());
}

bool has(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

}  // namespace

// Finding 1: nlohmann throws out_of_range (not parse_error) for 1e400; it escaped as exit 4.
TEST(Reliability, OutOfRangeNumberIsBadInputNamingTheFile) {
  std::string text = kwb::toJsonText(makeSampleDocument());
  const auto at = text.find("\"wallSeconds\": ");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 15, "1e400");
  text.erase(at + 15 + 5, text.find('\n', at) - (at + 15 + 5));
  const std::string m = docError(text);
  EXPECT_TRUE(has(m, "'crafted.json'")) << m;
  EXPECT_TRUE(has(m, "1e400")) << m;
  EXPECT_FALSE(has(m, "[json.exception")) << "raw nlohmann text: " << m;
}

TEST(Reliability, OutOfRangeNumberInAnEventNamesFileAndLine) {
  try {
    kwb::parseEventLine(R"({"event":"log","elapsedS":1e400,"level":"info","message":"x"})",
                        "run.jsonl", 12);
    FAIL() << "1e400 was read";
  } catch (const kwb::InputError& e) {
    EXPECT_TRUE(has(e.what(), "run.jsonl:12")) << e.what();
  }
}

TEST(Reliability, OutOfRangeNumberInAPresetNamesTheFile) {
  try {
    kwb::parseSuite(R"({"name":"x","shapes":["64"],"extra":-1e999})", "p.json");
    FAIL() << "1e999 was read";
  } catch (const kwb::InputError& e) {
    EXPECT_TRUE(has(e.what(), "'p.json'")) << e.what();
  }
}

// Finding 6: float → int conversions without a range check were undefined behaviour
// (smCount 1e30 exported as -2147483648 SMs), and large integers wrapped.
TEST(Reliability, IntegerFieldsAreRangeChecked) {
  const std::string huge = editedDocError([](json& j) { j["device"]["smCount"] = 1e30; });
  EXPECT_TRUE(has(huge, "smCount")) << huge;
  EXPECT_TRUE(has(huge, "out of range")) << huge;
  EXPECT_TRUE(
      has(editedDocError([](json& j) { j["device"]["smCount"] = 4294967296LL; }), "smCount"));
  EXPECT_TRUE(has(editedDocError([](json& j) { j["cases"][0]["launchesPerSample"] = 1.5; }),
                  "launchesPerSample"));
  EXPECT_TRUE(has(editedDocError([](json& j) { j["settings"]["seed"] = -1; }), "seed"));
  EXPECT_TRUE(
      has(editedDocError([](json& j) { j["cases"][0]["summary"]["count"] = -3; }), "count"));
  EXPECT_TRUE(has(editedDocError([](json& j) {
                    j["cases"][0]["verification"]["compare"]["errorGrid"]["mismatches"][0] = 1e300;
                  }),
                  "mismatches"));
  // A whole number written as a float is still read.
  EXPECT_EQ(editedDocError([](json& j) { j["device"]["smCount"] = 132.0; }), "");
}

TEST(Reliability, RangeErrorsDoNotPrintHugeNumbersInFull) {
  const std::string m =
      editedDocError([](json& j) { j["device"]["smCount"] = 1.7976931348623157e308; });
  EXPECT_FALSE(has(m, "179769313486")) << m;
  EXPECT_TRUE(has(m, "1.79769e+308")) << m;
}

TEST(Reliability, TuningIntegersAreRangeChecked) {
  kwb::RunDocument d = makeSampleDocument();
  kwb::TuneGrid g;
  g.kernel = "sgemm.warp_tiled";
  g.shape = {64, 64, 64};
  kwb::CaseResult c = d.cases.front();
  c.kernel = "sgemm.warp_tiled[c0]";
  c.config = kwb::TuneConfig{"c0", {{"BM", 128}}};
  g.results.push_back(c);
  d.tuning = g;
  json j = json::parse(kwb::toJsonText(d));
  EXPECT_EQ(docError(j.dump()), "");
  json bad = j;
  bad["tuning"]["results"][0]["config"]["params"]["BM"] = 1e30;
  EXPECT_TRUE(has(docError(bad.dump()), "params")) << docError(bad.dump());
  bad = j;
  bad["tuning"]["results"][0]["summary"]["count"] = 1e30;
  EXPECT_TRUE(has(docError(bad.dump()), "count")) << docError(bad.dump());
  // A schema 2 result ({config, status, ..., samples}) is range-checked as well.
  bad = j;
  bad["tuning"]["results"][0] = json::parse(
      R"({"config":{"name":"c0","params":{"BM":128}},"status":"pass","medianMs":1.0,"samples":1e30})");
  EXPECT_TRUE(has(docError(bad.dump()), "samples")) << docError(bad.dump());
}

// Finding 6: loaded shapes were not validated, so -1x0x-5 was plotted with a GFLOP/s.
TEST(Reliability, LoadedShapesFollowTheTypedRules) {
  const std::string m =
      editedDocError([](json& j) { j["cases"][0]["size"]["axes"][0]["value"] = 0; });
  EXPECT_TRUE(has(m, "bad gemm size '0x1024x1024': m must be at least 1")) << m;
  EXPECT_TRUE(
      has(editedDocError([](json& j) { j["cases"][0]["size"]["axes"][1]["value"] = 4294967296LL; }),
          "n is above 2147483647"));
  EXPECT_TRUE(has(editedDocError([](json& j) { j["cases"][0]["size"]["axes"][2]["value"] = -5; }),
                  "outside 0 to 2^62"));
  // Where no shape applies (no known-answer test ran), 0x0x0 is what is written, and read.
  EXPECT_EQ(editedDocError([](json& j) {
              j["knownAnswer"]["ran"] = false;
              j["knownAnswer"]["shape"] = {{"m", 0}, {"n", 0}, {"k", 0}};
            }),
            "");
  try {
    kwb::parseEventLine(
        R"({"event":"case_started","index":0,"kernel":"k","shape":{"m":0,"n":1,"k":1}})", "s.jsonl",
        3);
    FAIL() << "a 0-wide shape was read";
  } catch (const kwb::InputError& e) {
    EXPECT_TRUE(has(e.what(), "s.jsonl:3")) << e.what();
  }
}

// Finding 6/7: rows × cols wrapped around (-1 × -1 = 1 cell), and grids were unbounded
// (1 × 2,000,000 ran a report past 300 s).
TEST(Reliability, ErrorGridsAreBoundedAndDoNotWrap) {
  const std::string wrap = editedDocError([](json& j) {
    j["cases"][0]["verification"]["compare"]["errorGrid"] = {
        {"rows", -1}, {"cols", -1}, {"maxAbs", {0.0}}, {"mismatches", {0}}};
  });
  EXPECT_TRUE(has(wrap, "errorGrid")) << wrap;
  const std::string wide = editedDocError([](json& j) {
    j["cases"][0]["verification"]["compare"]["errorGrid"] = {{"rows", 1},
                                                             {"cols", kwb::kErrorGridCells + 1},
                                                             {"maxAbs", json::array()},
                                                             {"mismatches", json::array()}};
    for (int i = 0; i <= kwb::kErrorGridCells; ++i) {
      j["cases"][0]["verification"]["compare"]["errorGrid"]["maxAbs"].push_back(0.0);
      j["cases"][0]["verification"]["compare"]["errorGrid"]["mismatches"].push_back(0);
    }
  });
  EXPECT_TRUE(has(wide, "errorGrid")) << wide;
}

// Finding 5: NaN and ±Inf were written as null, which the reader refused.
TEST(Reliability, NonFiniteFiguresAreWrittenSoTheyReadBack) {
  kwb::RunDocument d = makeSampleDocument();
  d.settings.maxNoise = std::nan("");
  d.settings.maxTimeS = INFINITY;
  d.cases[0].gflops = INFINITY;
  d.cases[0].summary.cv = std::nan("");
  d.knownAnswer.maxRelError = -INFINITY;
  const std::string text = kwb::toJsonText(d);
  kwb::RunDocument back;
  ASSERT_NO_THROW(back = kwb::parseDocument(text, "nonfinite.json"));
  EXPECT_TRUE(std::isnan(back.settings.maxNoise));
  EXPECT_TRUE(std::isinf(back.settings.maxTimeS));
  EXPECT_TRUE(std::isinf(back.cases[0].gflops));
  EXPECT_TRUE(std::isnan(back.cases[0].summary.cv));
  EXPECT_EQ(back.knownAnswer.maxRelError, -INFINITY);
  EXPECT_EQ(kwb::toJsonText(back), text);

  kwb::StreamEvent e(kwb::EventType::kCaseFinished);
  e.index = 0;
  e.result = d.cases[0];
  EXPECT_NO_THROW(kwb::parseEventLine(kwb::toJsonLine(e), "mem", 1));
}

// Finding 8: `kwb replay` exited with whatever exitCode the file held (256 became 0).
TEST(Reliability, DoneEventExitCodeIsOneKwbDocuments) {
  for (const char* code : {"256", "-1", "5"}) {
    const std::string line = std::string(R"({"event":"done","exitCode":)") + code +
                             R"(,"knownAnswer":{"ran":false,"passed":false,"detail":"",)"
                             R"("shape":{"m":0,"n":0,"k":0},"maxRelError":0},)"
                             R"("progression":{"checked":false,"violations":[]},"wallSeconds":1})";
    try {
      kwb::parseEventLine(line, "r.jsonl", 9);
      FAIL() << "exitCode " << code << " was read";
    } catch (const kwb::InputError& e) {
      EXPECT_TRUE(has(e.what(), "r.jsonl:9")) << e.what();
      EXPECT_TRUE(has(e.what(), "exitCode")) << e.what();
    }
  }
}

TEST(Reliability, EventTimesThatWouldStallReplayAreRefused) {
  for (const char* t : {"-1", "1e300", "\"NaN\""}) {
    const std::string line =
        std::string(R"({"event":"log","level":"info","message":"m","elapsedS":)") + t + "}";
    EXPECT_THROW(kwb::parseEventLine(line, "r.jsonl", 1), kwb::InputError) << t;
  }
}

// Finding 7: a FIFO or /dev/zero read as a results file hung; now refused at once.
TEST(Reliability, NonRegularFilesAreRefusedWithoutBlocking) {
  const fs::path dir = tempDir("fifo");
  const fs::path fifo = dir / "r.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    kwb::readDocument(fifo);  // blocked forever before
    FAIL() << "a FIFO was read";
  } catch (const kwb::InputError& e) {
    EXPECT_TRUE(has(e.what(), fifo.string())) << e.what();
    EXPECT_TRUE(has(e.what(), "not a regular file")) << e.what();
  }
  EXPECT_THROW(kwb::readDocument("/dev/zero"), kwb::InputError);
  EXPECT_THROW(kwb::loadSuite(fifo.string(), dir), kwb::InputError);
  try {
    kwb::readDocument(dir);
    FAIL() << "a folder was read";
  } catch (const kwb::InputError& e) {
    EXPECT_TRUE(has(e.what(), "folder")) << e.what();
  }
  fs::remove_all(dir);
}

TEST(Reliability, OversizedFilesAreRefusedUnread) {
  const fs::path dir = tempDir("big");
  const fs::path big = dir / "r.json";
  { std::ofstream(big) << "{}"; }
  fs::resize_file(big, kwb::kMaxDocumentBytes + 1);  // sparse: no disk used
  try {
    kwb::readDocument(big);
    FAIL() << "an oversized file was read";
  } catch (const kwb::InputError& e) {
    EXPECT_TRUE(has(e.what(), big.string())) << e.what();
    EXPECT_TRUE(has(e.what(), "allowed")) << e.what();
  }
  fs::remove_all(dir);
}

// Finding 2: outputs destroyed what they should not.
TEST(Reliability, WriteRefusesTargetsThatAreNotRegularFiles) {
  const fs::path dir = tempDir("nonregular");
  const fs::path fifo = dir / "out.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    kwb::writeTextFile(fifo, "text");
    FAIL() << "a FIFO was replaced";
  } catch (const kwb::InputError& e) {
    EXPECT_TRUE(has(e.what(), fifo.string())) << e.what();
  }
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced by a file";
  EXPECT_THROW(kwb::writeTextFile(dir, "text"), kwb::InputError);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1)
      << "a temporary file was left behind";
  fs::remove_all(dir);
}

TEST(Reliability, WriteNeverFollowsALinkAtAGuessableTemporaryName) {
  const fs::path dir = tempDir("symlink");
  const fs::path victim = dir / "victim.txt";
  spit(victim, "precious");
  const fs::path out = dir / "out.csv";
  fs::create_symlink(victim, out.string() + ".tmp");
  kwb::writeTextFile(out, "new text");
  EXPECT_EQ(slurp(victim), "precious");
  EXPECT_EQ(slurp(out), "new text");
  fs::remove_all(dir);
}

TEST(Reliability, WriteKeepsTheTargetsModeAndWritesThroughALink) {
  const fs::path dir = tempDir("mode");
  const fs::path out = dir / "out.csv";
  spit(out, "old");
  fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  kwb::writeTextFile(out, "new");
  EXPECT_EQ(slurp(out), "new");
  EXPECT_EQ(fs::status(out).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);

  // A new file gets 0666 less the umask, not mkstemp's 0600.
  const mode_t mask = ::umask(022);
  kwb::writeTextFile(dir / "new.csv", "new");
  ::umask(mask);
  EXPECT_EQ(fs::status(dir / "new.csv").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);

  const fs::path link = dir / "link.csv";
  fs::create_symlink(out, link);
  kwb::writeTextFile(link, "through the link");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(out), "through the link");

  // A read-only file stays read-only: refused (as a user), or rewritten keeping 0444 (as root).
  fs::permissions(out, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  try {
    kwb::writeTextFile(out, "again");
  } catch (const kwb::InputError& e) {
    EXPECT_TRUE(has(e.what(), "not writable")) << e.what();
    EXPECT_EQ(slurp(out), "through the link");
  }
  EXPECT_EQ(fs::status(out).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(out, fs::perms::owner_all);
  fs::remove_all(dir);
}

// Issue #33: a dangling link was replaced by a file; through a link, a FIFO, socket or device
// must be refused as it is directly.
TEST(Reliability, WriteThroughADanglingLinkCreatesTheFileItNamesAndKeepsTheLink) {
  const fs::path dir = tempDir("dangling");
  fs::create_directories(dir / "sub");
  fs::create_symlink("sub/new.md", dir / "link.md");  // relative to the link's folder
  const std::string bytes = std::string("\x89PNG") + '\0' + "binary\n";  // not text
  kwb::writeBytesFile(dir / "link.md", bytes.data(), bytes.size());
  EXPECT_TRUE(fs::is_symlink(dir / "link.md")) << "the link was replaced by a file";
  EXPECT_EQ(slurp(dir / "sub" / "new.md"), bytes);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir / "sub"), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(Reliability, WriteRefusesNonRegularTargetsThroughALink) {
  const fs::path dir = tempDir("nonregular-link");
  std::vector<fs::path> targets{dir / "fifo", dir / "sock", dir / "folder"};
  ASSERT_EQ(::mkfifo(targets[0].c_str(), 0600), 0);
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", targets[1].c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << targets[1];
  fs::create_directory(targets[2]);
  // A character device of this folder's own (/dev/null's numbers), where mknod is allowed.
  if (::mknod((dir / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0)
    targets.push_back(dir / "null");
  for (const fs::path& target : targets) {
    const fs::path link = target.string() + ".link";
    fs::create_symlink(target, link);
    for (const fs::path& path : {target, link}) {
      try {
        kwb::writeTextFile(path, "text");
        ADD_FAILURE() << path << " was written";
      } catch (const kwb::InputError& e) {
        EXPECT_TRUE(has(e.what(), path.string())) << e.what();
      }
    }
    struct stat st {};
    ASSERT_EQ(::lstat(target.c_str(), &st), 0);
    EXPECT_FALSE(S_ISREG(st.st_mode)) << target << " was replaced by a file";
    EXPECT_TRUE(fs::is_symlink(link));
  }
  ::close(s);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()),
            std::ptrdiff_t(2 * targets.size()))
      << "a temporary file was left behind";
  fs::remove_all(dir);
}

TEST(Reliability, ConcurrentWritersNeverMixTheirFiles) {
  const fs::path dir = tempDir("concurrent");
  const fs::path out = dir / "out.json";
  const std::string a(1 << 20, 'a'), b(1 << 20, 'b');
  std::atomic<int> failures = 0;
  auto writer = [&](const std::string& text) {
    for (int i = 0; i < 20; ++i) try {
        kwb::writeTextFile(out, text);
      } catch (const kwb::InputError&) {
        ++failures;  // with one shared temporary name, a rename found it gone
      }
  };
  std::thread t1(writer, std::cref(a)), t2(writer, std::cref(b));
  t1.join();
  t2.join();
  EXPECT_EQ(failures, 0);
  const std::string got = slurp(out);
  EXPECT_TRUE(got == a || got == b) << "a mixed or truncated file of " << got.size() << " bytes";
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

// A full disk (here a file-size limit) fails the write and leaves the old file whole.
TEST(Reliability, WriteThatRunsOutOfSpaceKeepsTheOldFile) {
  const fs::path dir = tempDir("fsize");
  const fs::path out = dir / "out.json";
  spit(out, "old and whole");
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string error;
  try {
    kwb::writeTextFile(out, std::string(100000, 'x'));
  } catch (const kwb::InputError& e) {
    error = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  EXPECT_TRUE(has(error, out.string())) << error;
  EXPECT_EQ(slurp(out), "old and whole");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1)
      << "a temporary file was left behind";
  fs::remove_all(dir);
}
