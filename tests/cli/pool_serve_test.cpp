// SPDX-License-Identifier: Apache-2.0
// The pool worker's loop (cli/pool_serve.h) in this process, no GPU: requests on a replaced
// standard input, the shard_end lines read back from standard output, and an engine that can or
// cannot go on after a shard.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "kwb/error.h"
#include "kwb/pool_protocol.h"
#include "pool_serve.h"

namespace {

// Runs serveShards over `requests`; `ran` gets each shard run, `out` standard output.
struct Served {
  int code = -1;
  std::vector<std::string> ran;
  std::string out, err;
};

// The standard streams replaced for a scope and given back at its end, thrown through or not
// (a stream left on a destroyed buffer would crash the next test's output).
class Redirect {
 public:
  Redirect(std::ios& stream, std::streambuf* to) : m_stream(stream), m_old(stream.rdbuf(to)) {}
  ~Redirect() { m_stream.rdbuf(m_old); }
  Redirect(const Redirect&) = delete;
  Redirect& operator=(const Redirect&) = delete;

 private:
  std::ios& m_stream;
  std::streambuf* m_old;
};

Served serve(const std::string& requests, int shardCode, const std::vector<bool>& usableAfter,
             const std::function<void()>& startEngine = {}) {
  Served s;
  std::istringstream in(requests);
  std::ostringstream out, err;
  const Redirect toIn(std::cin, in.rdbuf()), toOut(std::cout, out.rdbuf()),
      toErr(std::cerr, err.rdbuf());
  std::size_t probes = 0;
  s.code = kwb::cli::serveShards(
      [&](const std::string& shard, const std::string& json) {
        s.ran.push_back(shard + " " + json);
        return shardCode;
      },
      [&] { return probes < usableAfter.size() ? bool(usableAfter[probes++]) : true; },
      startEngine);
  s.out = out.str();
  s.err = err.str();
  return s;
}

const std::string kThree =
    "{\"op\":\"shard\",\"shard\":\"1/3\",\"json\":\"a.json\"}\n"
    "\n"
    "{\"op\":\"shard\",\"shard\":\"2/3\",\"json\":\"b.json\"}\n"
    "{\"op\":\"shard\",\"shard\":\"3/3\",\"json\":\"c.json\"}\n";

TEST(PoolServe, EveryRequestRunsInOrderAndEndsWithItsShardEndLine) {
  const Served s = serve(kThree, kwb::kExitCaseFailed, {});
  EXPECT_EQ(s.code, kwb::kExitOk);
  EXPECT_EQ(s.ran, (std::vector<std::string>{"1/3 a.json", "2/3 b.json", "3/3 c.json"}));
  for (int i = 1; i <= 3; ++i)
    EXPECT_NE(s.out.find("\"shard\":" + std::to_string(i)), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("\"exitCode\":1"), std::string::npos) << s.out;
  EXPECT_TRUE(s.err.empty()) << s.err;
  // Each end line says the worker's seconds on its shard.
  std::istringstream lines(s.out);
  int said = 0;
  for (std::string line; std::getline(lines, line);)
    if (const auto end = kwb::parseShardEnd(line)) {
      EXPECT_GE(end->workerS, 0.0) << line;
      ++said;
    }
  EXPECT_EQ(said, 3) << s.out;
}

// After a shard that lost the CUDA context the worker answers that shard and ends, saying why,
// so that the pool starts a fresh one: the shards after it are not taken.
TEST(PoolServe, AnEngineThatCannotGoOnEndsTheWorkerAfterItsShard) {
  const Served s = serve(kThree, kwb::kExitOk, {true, false});
  EXPECT_EQ(s.code, kwb::kExitOk);
  EXPECT_EQ(s.ran, (std::vector<std::string>{"1/3 a.json", "2/3 b.json"}));
  EXPECT_NE(s.out.find("\"shard\":2"), std::string::npos) << s.out;
  EXPECT_EQ(s.out.find("\"shard\":3"), std::string::npos) << s.out;
  EXPECT_NE(s.err.find("CUDA context was lost in shard 2/3"), std::string::npos) << s.err;
}

// A shard that ends otherwise than 0 or 1 (no device: 3) ends the worker with that status,
// without asking the engine.
TEST(PoolServe, AShardThatEndsOtherwiseEndsTheWorkerWithItsStatus) {
  const Served s = serve(kThree, kwb::kExitNoDevice, {true, true, true});
  EXPECT_EQ(s.code, kwb::kExitNoDevice);
  EXPECT_EQ(s.ran.size(), 1u);
  EXPECT_NE(s.out.find("\"exitCode\":3"), std::string::npos) << s.out;
}

// The worker starts its engine before its first request and says so with its first line, which
// the pool's timeline times; an engine that cannot start (no device) is left to the first shard
// to report, and the line still comes.
TEST(PoolServe, TheWorkerStartsItsEngineFirstAndSaysSoBeforeAnyShard) {
  int started = 0;
  std::size_t ranWhenStarted = 99;
  Served s;
  s = serve(kThree, kwb::kExitOk, {}, [&] {
    ++started;
    ranWhenStarted = s.ran.size();
  });
  EXPECT_EQ(started, 1);
  EXPECT_EQ(ranWhenStarted, 0u) << "the engine started after a shard had run";
  EXPECT_EQ(s.out.rfind(kwb::workerReadyLine() + "\n", 0), 0u) << s.out;
  const Served failing =
      serve(kThree, kwb::kExitNoDevice, {}, [] { throw kwb::NoDeviceError("no CUDA device"); });
  EXPECT_EQ(failing.out.rfind(kwb::workerReadyLine() + "\n", 0), 0u) << failing.out;
  EXPECT_EQ(failing.code, kwb::kExitNoDevice);
  EXPECT_EQ(failing.ran.size(), 1u);
}

TEST(PoolServe, ABadRequestIsRefusedNamingItsLine) {
  try {
    (void)serve("{\"op\":\"shard\",\"shard\":\"1/2\",\"json\":\"a.json\"}\nnot json\n",
                kwb::kExitOk, {});
    FAIL() << "a bad request line was taken";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

}  // namespace
