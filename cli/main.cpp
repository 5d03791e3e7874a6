// SPDX-License-Identifier: Apache-2.0
// kwb — the Kernel Workbench engine. No Qt; the GUI drives it over --stream.
#include <csignal>
#include <cstdio>
#include <exception>

#include "commands.h"
#include "pool_run.h"
#include "kwb/cuda/check.h"
#include "kwb/error.h"

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) fails a write with EFBIG, which the writer reports (exit 2) and
  // cleans up after, instead of killing kwb with its temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  kwb::cli::rememberCommandLine(argc, argv);
  CLI::App app{
      "kwb — Kernel Workbench engine: verify and benchmark CUDA kernel variants "
      "against cuBLAS",
      "kwb"};
  app.set_version_flag("--version",
                       std::string("kwb ") + KWB_VERSION + " (" + KWB_GIT_REVISION + ")");
  app.require_subcommand(1);
  int exitCode = kwb::kExitOk;
  kwb::cli::addListCommand(app, exitCode);
  kwb::cli::addDeviceCommand(app, exitCode);
  kwb::cli::addVerifyCommand(app, exitCode);
  kwb::cli::addConformanceCommand(app, exitCode);
  kwb::cli::addRunCommand(app, exitCode);
  kwb::cli::addReplayCommand(app, exitCode);
  kwb::cli::addExportCommand(app, exitCode);
  kwb::cli::addTuneCommand(app, exitCode);
  kwb::cli::addCompareCommand(app, exitCode);
  kwb::cli::addAbCommand(app, exitCode);
  kwb::cli::addProfileCommand(app, exitCode);
  kwb::cli::addCompileCommand(app, exitCode);
  kwb::cli::addMergeCommand(app, exitCode);
  kwb::cli::addShardFailureCommand(app, exitCode);
  kwb::cli::addSlurmCommand(app, exitCode);
  kwb::cli::addNvrtcChildCommand(app, exitCode);
  // CLI11 says only "a subcommand is required" for a misspelt one; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (const auto* sub : app.get_subcommands({})) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      found = found || sub->check_name(argv[1]);
    }
    if (!found) {
      std::fprintf(stderr, "kwb: error: unknown command '%s' (known: %s); see kwb --help\n",
                   argv[1], known.c_str());
      return kwb::kExitBadInput;
    }
  }
  try {
    kwb::cli::commandRegistry();  // registers the build's families before a command names one
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kwb::kExitBadInput;
  } catch (const kwb::InputError& e) {
    std::fprintf(stderr, "kwb: error: %s\n", e.what());
    return kwb::kExitBadInput;
  } catch (const kwb::NoDeviceError& e) {
    std::fprintf(stderr, "kwb: %s\n", e.what());
    return kwb::kExitNoDevice;
  } catch (const kwb::cuda::CudaError& e) {
    std::fprintf(stderr, "kwb: CUDA error: %s\n", e.what());
    return kwb::kExitInternal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kwb: internal error: %s\n", e.what());
    return kwb::kExitInternal;
  }
  return exitCode;
}
