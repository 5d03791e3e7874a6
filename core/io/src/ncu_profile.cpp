// SPDX-License-Identifier: Apache-2.0
#include "kwb/ncu_profile.h"

#include <cxxabi.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "json_read.h"
#include "kwb/error.h"

namespace kwb {
namespace {

// One CSV record: fields separated by commas, optionally quoted with "" escaping a quote.
std::vector<std::string> splitCsvLine(std::string_view line, bool& ok) {
  std::vector<std::string> out(1);
  bool quoted = false;
  ok = true;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        out.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else if (ch != '\r') {
      out.back() += ch;
    }
  }
  ok = !quoted;
  return out;
}

// "1,234.5" (ncu groups thousands) → 1234.5; "n/a" or empty → 0.
double number(const std::string& text) {
  std::string digits;
  for (char ch : text)
    if (ch != ',') digits += ch;
  char* end = nullptr;
  const double v = std::strtod(digits.c_str(), &end);
  return end == digits.c_str() ? 0.0 : v;
}

// Scale to base units where the units row says otherwise (ns and bytes are the base).
double scaled(double v, const std::string& unit) {
  static const std::map<std::string, double> factor{
      {"usecond", 1e3}, {"us", 1e3},    {"msecond", 1e6}, {"ms", 1e6},
      {"second", 1e9},  {"Kbyte", 1e3}, {"Mbyte", 1e6},   {"Gbyte", 1e9},
      {"KB", 1e3},      {"MB", 1e6},    {"GB", 1e9}};
  const auto it = factor.find(unit);
  return it == factor.end() ? v : v * it->second;
}

constexpr std::string_view kStallPrefix = "smsp__average_warps_issue_stalled_";
constexpr std::string_view kStallSuffix = "_per_issue_active.ratio";

}  // namespace

std::string readableKernelName(std::string_view name) {
  std::string out(name);
  if (out.rfind("_Z", 0) == 0) {
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> demangled(
        abi::__cxa_demangle(out.c_str(), nullptr, nullptr, &status), &std::free);
    if (status == 0 && demangled) out = demangled.get();
  }
  // "<unnamed>::" first, then an "unnamed>::" that begins a name (its '<' lost): at the start
  // or after a character no identifier holds.
  auto replaceAll = [&out](std::string_view from, bool startOfName) {
    static constexpr std::string_view kCxx = "(anonymous namespace)::";
    for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at)) {
      const char before = at == 0 ? ' ' : out[at - 1];
      if (startOfName && (std::isalnum(static_cast<unsigned char>(before)) || before == '_')) {
        at += from.size();
        continue;
      }
      out.replace(at, from.size(), kCxx);
      at += kCxx.size();
    }
  };
  replaceAll("<unnamed>::", false);
  replaceAll("unnamed>::", true);
  return out;
}

std::vector<NcuKernelFigures> parseNcuRawCsv(std::string_view csv, std::string_view source) {
  std::vector<std::vector<std::string>> rows;
  std::size_t lineNo = 0, headerLine = 0;
  bool inTable = false;
  while (!csv.empty()) {
    const std::size_t nl = csv.find('\n');
    const std::string_view line = csv.substr(0, nl);
    csv = nl == std::string_view::npos ? std::string_view{} : csv.substr(nl + 1);
    ++lineNo;
    // ncu prints its own "==PROF==" lines and warnings before the table.
    if (!inTable && line.rfind("\"ID\"", 0) != 0) continue;
    if (!inTable) headerLine = lineNo;
    inTable = true;
    if (line.empty() || line == "\r") continue;
    bool ok = true;
    rows.push_back(splitCsvLine(line, ok));
    if (!ok || rows.back().size() != rows.front().size())
      throw InputError(std::string(source) + ": line " + std::to_string(lineNo) +
                       ": not a row of the table begun on line " + std::to_string(headerLine));
  }
  if (rows.empty())
    throw InputError(std::string(source) +
                     ": no Nsight Compute table (a header row starting with \"ID\")");
  const auto& header = rows.front();
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  if (!col.count("Kernel Name"))
    throw InputError(std::string(source) + ": the table has no \"Kernel Name\" column");
  std::size_t first = 1;
  std::vector<std::string> units(header.size());
  if (rows.size() > 1 && rows[1][0].empty()) units = rows[first++];

  auto value = [&](const std::vector<std::string>& row, const std::string& metric) {
    const auto it = col.find(metric);
    return it == col.end() ? 0.0 : scaled(number(row[it->second]), units[it->second]);
  };
  std::vector<NcuKernelFigures> out;
  for (std::size_t r = first; r < rows.size(); ++r) {
    const auto& row = rows[r];
    NcuKernelFigures k;
    k.name = readableKernelName(row[col["Kernel Name"]]);
    k.durationUs = value(row, "gpu__time_duration.sum") / 1e3;
    k.smThroughputPct = value(row, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
    k.memoryThroughputPct =
        value(row, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
    k.achievedOccupancyPct = value(row, "sm__warps_active.avg.pct_of_peak_sustained_active");
    // --set full records reads and writes; a custom metric list may give the sum.
    k.dramBytes = col.count("dram__bytes.sum")
                      ? value(row, "dram__bytes.sum")
                      : value(row, "dram__bytes_read.sum") + value(row, "dram__bytes_write.sum");
    for (std::size_t i = 0; i < header.size(); ++i) {
      const std::string& h = header[i];
      if (h.size() <= kStallPrefix.size() + kStallSuffix.size() || h.rfind(kStallPrefix, 0) != 0 ||
          h.compare(h.size() - kStallSuffix.size(), kStallSuffix.size(), kStallSuffix) != 0)
        continue;
      const std::string reason =
          h.substr(kStallPrefix.size(), h.size() - kStallPrefix.size() - kStallSuffix.size());
      // "selected" is issuing, "not_selected" is eligible but waiting its turn: not stalls.
      if (reason == "selected" || reason == "not_selected") continue;
      const double v = number(row[i]);
      if (v > k.topStallCyclesPerIssue) {
        k.topStallCyclesPerIssue = v;
        k.topStall = reason;
      }
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<std::string> ncuProfileArgs(const std::string& ncu, const std::string& kwb,
                                        const std::string& kernel, const Shape& shape,
                                        const std::string& reportBase, int launchCount) {
  return {ncu,
          "--set",
          "full",
          "--force-overwrite",
          "--export",
          reportBase,
          "--nvtx",
          "--nvtx-include",
          "kwb_samples/",
          "--kernel-name",
          "regex:^(?!blockingKernel)",
          "--launch-count",
          std::to_string(launchCount),
          kwb,
          "run",
          "--kernels",
          kernel,
          "--shapes",
          toString(shape),
          "--timer",
          "host",
          "--samples",
          "1",
          "--warmups",
          "1",
          "--no-cupti-check",
          "--max-case-seconds",  // the one case asked for is profiled, whatever its estimate
          "0"};
}

std::vector<std::string> ncuImportArgs(const std::string& ncu, const std::string& report) {
  return {ncu, "--import", report, "--csv", "--page", "raw", "--print-units", "base"};
}

std::string ncuReportStem(const std::string& kernel, const Shape& shape) {
  std::string stem;
  for (char ch : kernel)
    stem += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-')
                ? ch
                : '_';
  return stem + "-" + toString(shape);
}

std::optional<std::string> findNcu(const std::string& engineDir) {
  auto executable = [](const std::string& p) { return ::access(p.c_str(), X_OK) == 0; };
  if (!engineDir.empty() && executable(engineDir + "/ncu")) return engineDir + "/ncu";
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (!rest.empty()) {
      const std::size_t colon = rest.find(':');
      const std::string dir(rest.substr(0, colon));
      if (!dir.empty() && executable(dir + "/ncu")) return dir + "/ncu";
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  if (executable("/usr/local/cuda/bin/ncu")) return std::string("/usr/local/cuda/bin/ncu");
  return std::nullopt;
}

std::string ncuProfileToJson(const NcuProfile& p) {
  nlohmann::json ks = nlohmann::json::array();
  for (const auto& k : p.kernels)
    ks.push_back({{"name", k.name},
                  {"durationUs", k.durationUs},
                  {"smThroughputPct", k.smThroughputPct},
                  {"memoryThroughputPct", k.memoryThroughputPct},
                  {"achievedOccupancyPct", k.achievedOccupancyPct},
                  {"dramBytes", k.dramBytes},
                  {"topStall", k.topStall},
                  {"topStallCyclesPerIssue", k.topStallCyclesPerIssue}});
  const nlohmann::json j{{"kernel", p.kernel}, {"shape", toString(p.shape)},
                         {"config", p.config}, {"revision", p.gitRevision},
                         {"ncu", p.ncuPath},   {"report", p.reportPath},
                         {"kernels", ks}};
  return j.dump(2);
}

NcuProfile ncuProfileFromJson(std::string_view text, std::string_view source) {
  try {
    nlohmann::json j;
    try {
      j = jsonread::parse(text);
    } catch (const InputError& e) {  // nested too deep, or a duplicate key
      throw InputError(std::string(source) + ": not a kwb profile: " + e.what());
    }
    NcuProfile p;
    p.kernel = j.at("kernel").get<std::string>();
    p.shape = parseShape(j.at("shape").get<std::string>());
    p.config = j.value("config", std::string());
    p.gitRevision = j.value("revision", std::string());
    p.ncuPath = j.at("ncu").get<std::string>();
    p.reportPath = j.at("report").get<std::string>();
    for (const auto& k : j.at("kernels")) {
      NcuKernelFigures f;
      f.name = k.at("name").get<std::string>();
      f.durationUs = k.at("durationUs").get<double>();
      f.smThroughputPct = k.at("smThroughputPct").get<double>();
      f.memoryThroughputPct = k.at("memoryThroughputPct").get<double>();
      f.achievedOccupancyPct = k.at("achievedOccupancyPct").get<double>();
      f.dramBytes = k.at("dramBytes").get<double>();
      f.topStall = k.at("topStall").get<std::string>();
      f.topStallCyclesPerIssue = k.at("topStallCyclesPerIssue").get<double>();
      p.kernels.push_back(std::move(f));
    }
    return p;
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(std::string(source) + ": not a kwb profile: " + e.what());
  }
}

}  // namespace kwb
