// SPDX-License-Identifier: Apache-2.0
#include <iostream>

#include "commands.h"
#include "kwb/cuda/device.h"
#include "kwb/results_json.h"
#include "output.h"
#include "run_options.h"

namespace kwb::cli {

void addDeviceCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand("device", "Show the CUDA device banner (exit 3 when none)");
  struct Opts {
    bool json = false;
    int index = 0;
  };
  auto o = std::make_shared<Opts>();
  sub->add_flag("--json", o->json, "Print the device as JSON");
  sub->add_option("--device", o->index, "Device index")->check(kDeviceIndex);
  sub->callback([o, &exitCode] {
    const DeviceInfo d = cuda::queryDevice(o->index);  // throws NoDeviceError → exit 3
    if (o->json)
      std::cout << nlohmann::json(d).dump(2) << '\n';
    else
      std::cout << formatBanner(d);
    exitCode = 0;
  });
}

}  // namespace kwb::cli
