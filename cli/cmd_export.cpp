// SPDX-License-Identifier: Apache-2.0
#include "commands.h"
#include "kwb/error.h"
#include "kwb/exporters.h"
#include "kwb/output_files.h"
#include "kwb/results.h"

namespace kwb::cli {

void addExportCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand("export", "Convert a results document to CSV and/or Markdown");
  struct Opts {
    std::string in, csv, md;
  };
  auto o = std::make_shared<Opts>();
  sub->add_option("results", o->in, "A results .json written by kwb run --json")->required();
  sub->add_option("--csv", o->csv, "Write a CSV table here");
  sub->add_option("--md", o->md, "Write a Markdown report here");
  sub->callback([o, &exitCode] {
    if (o->csv.empty() && o->md.empty())
      throw InputError("export needs --csv FILE and/or --md FILE");
    checkOutputs({{"the results document", o->in}}, {{"--csv", o->csv}, {"--md", o->md}});
    const RunDocument doc = readDocument(o->in);
    writeOutputs({{o->csv, [&] { return toCsv(doc); }, "--csv"},
                  {o->md, [&] { return toMarkdown(doc); }, "--md"}});
    exitCode = kExitOk;
  });
}

}  // namespace kwb::cli
