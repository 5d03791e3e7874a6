// SPDX-License-Identifier: Apache-2.0
#include "kwb/ncu_profile.h"

#include <cxxabi.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <memory>
#include <string_view>
#include <utility>

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

// Scale to base units where the units row says otherwise (ns, bytes and bytes per second are
// the base): "usecond", "Mbyte", "Gbyte/second", "Kbyte/block".
double scaled(double v, const std::string& unit) {
  static const std::map<std::string, double> factor{
      {"usecond", 1e3}, {"us", 1e3}, {"msecond", 1e6}, {"ms", 1e6},
      {"second", 1e9},  {"KB", 1e3}, {"MB", 1e6},      {"GB", 1e9}};
  if (const auto it = factor.find(unit); it != factor.end()) return v * it->second;
  static const std::map<char, double> prefix{{'K', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}};
  if (unit.size() >= 5 && unit.compare(1, 4, "byte") == 0)
    if (const auto it = prefix.find(unit[0]); it != prefix.end()) return v * it->second;
  return v;
}

// The table of a raw page: its header, units (empty where ncu printed none) and rows.
struct RawTable {
  std::vector<std::string> header, units;
  std::vector<std::vector<std::string>> rows;
  std::map<std::string, std::size_t> col;

  bool has(const std::string& metric) const { return col.count(metric) != 0; }
  double value(const std::vector<std::string>& row, const std::string& metric) const {
    const auto it = col.find(metric);
    return it == col.end() ? 0.0 : scaled(number(row[it->second]), units[it->second]);
  }
  std::string text(const std::vector<std::string>& row, const std::string& column) const {
    const auto it = col.find(column);
    return it == col.end() ? std::string() : row[it->second];
  }
};

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

namespace {

RawTable readRawTable(std::string_view csv, std::string_view source) {
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
  RawTable t;
  t.header = rows.front();
  for (std::size_t i = 0; i < t.header.size(); ++i) t.col[t.header[i]] = i;
  if (!t.has("Kernel Name"))
    throw InputError(std::string(source) + ": the table has no \"Kernel Name\" column");
  std::size_t first = 1;
  t.units.assign(t.header.size(), std::string());
  if (rows.size() > 1 && rows[1][0].empty()) t.units = rows[first++];
  t.rows.assign(rows.begin() + std::ptrdiff_t(first), rows.end());
  return t;
}

// Every stall reason of a row, most cycles per issued instruction first.
std::vector<NcuStall> stallsOf(const RawTable& t, const std::vector<std::string>& row) {
  std::vector<NcuStall> out;
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    const std::string& h = t.header[i];
    if (h.size() <= kStallPrefix.size() + kStallSuffix.size() || h.rfind(kStallPrefix, 0) != 0 ||
        h.compare(h.size() - kStallSuffix.size(), kStallSuffix.size(), kStallSuffix) != 0)
      continue;
    std::string reason =
        h.substr(kStallPrefix.size(), h.size() - kStallPrefix.size() - kStallSuffix.size());
    // "selected" is issuing, "not_selected" is eligible but waiting its turn: not stalls.
    if (reason == "selected" || reason == "not_selected") continue;
    out.push_back({std::move(reason), number(row[i])});
  }
  std::stable_sort(out.begin(), out.end(), [](const NcuStall& a, const NcuStall& b) {
    return a.cyclesPerIssue > b.cyclesPerIssue;
  });
  return out;
}

NcuKernelFigures figuresOf(const RawTable& t, const std::vector<std::string>& row) {
  NcuKernelFigures k;
  k.name = readableKernelName(t.text(row, "Kernel Name"));
  k.durationUs = t.value(row, "gpu__time_duration.sum") / 1e3;
  k.smThroughputPct = t.value(row, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
  k.memoryThroughputPct =
      t.value(row, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
  k.achievedOccupancyPct = t.value(row, "sm__warps_active.avg.pct_of_peak_sustained_active");
  k.dramReadBytes = t.value(row, "dram__bytes_read.sum");
  k.dramWriteBytes = t.value(row, "dram__bytes_write.sum");
  // --set full records reads and writes; a custom metric list may give the sum.
  k.dramBytes = t.has("dram__bytes.sum") ? t.value(row, "dram__bytes.sum")
                                         : k.dramReadBytes + k.dramWriteBytes;
  k.dram = {k.dramBytes, t.value(row, "dram__bytes.sum.per_second")};
  k.l2 = {t.value(row, "lts__t_bytes.sum"), t.value(row, "lts__t_bytes.sum.per_second")};
  k.l1 = {t.value(row, "l1tex__t_bytes.sum"), t.value(row, "l1tex__t_bytes.sum.per_second")};
  k.stalls = stallsOf(t, row);
  if (!k.stalls.empty() && k.stalls.front().cyclesPerIssue > 0) {
    k.topStall = k.stalls.front().reason;
    k.topStallCyclesPerIssue = k.stalls.front().cyclesPerIssue;
  }
  k.grid = t.text(row, "Grid Size");
  k.block = t.text(row, "Block Size");
  k.registersPerThread = t.value(row, "launch__registers_per_thread");
  k.sharedMemPerBlockBytes = t.value(row, "launch__shared_mem_per_block_static") +
                             t.value(row, "launch__shared_mem_per_block_dynamic");
  k.theoreticalOccupancyPct = t.value(row, "sm__maximum_warps_per_active_cycle_pct");
  k.wavesPerSm = t.value(row, "launch__waves_per_multiprocessor");
  return k;
}

}  // namespace

std::vector<NcuKernelFigures> parseNcuRawCsv(std::string_view csv, std::string_view source) {
  const RawTable t = readRawTable(csv, source);
  std::vector<NcuKernelFigures> out;
  out.reserve(t.rows.size());
  for (const auto& row : t.rows) out.push_back(figuresOf(t, row));
  return out;
}

namespace {

// Adds `b`'s figures to `a` (launch statistics are the kernel's, not summed).
void accumulate(NcuKernelFigures& a, const NcuKernelFigures& b) {
  using Sum = std::pair<double*, double>;
  for (auto [x, y] : std::initializer_list<Sum>{{&a.durationUs, b.durationUs},
                                                {&a.smThroughputPct, b.smThroughputPct},
                                                {&a.memoryThroughputPct, b.memoryThroughputPct},
                                                {&a.achievedOccupancyPct, b.achievedOccupancyPct},
                                                {&a.dramBytes, b.dramBytes},
                                                {&a.dramReadBytes, b.dramReadBytes},
                                                {&a.dramWriteBytes, b.dramWriteBytes},
                                                {&a.dram.bytes, b.dram.bytes},
                                                {&a.dram.bytesPerSecond, b.dram.bytesPerSecond},
                                                {&a.l2.bytes, b.l2.bytes},
                                                {&a.l2.bytesPerSecond, b.l2.bytesPerSecond},
                                                {&a.l1.bytes, b.l1.bytes},
                                                {&a.l1.bytesPerSecond, b.l1.bytesPerSecond}})
    *x += y;
  for (const NcuStall& s : b.stalls) {
    auto it = std::find_if(a.stalls.begin(), a.stalls.end(),
                           [&](const NcuStall& t) { return t.reason == s.reason; });
    if (it == a.stalls.end())
      a.stalls.push_back({s.reason, s.cyclesPerIssue});
    else
      it->cyclesPerIssue += s.cyclesPerIssue;
  }
}

void divide(NcuKernelFigures& a, double n) {
  for (double* x :
       {&a.durationUs, &a.smThroughputPct, &a.memoryThroughputPct, &a.achievedOccupancyPct,
        &a.dramBytes, &a.dramReadBytes, &a.dramWriteBytes, &a.dram.bytes, &a.dram.bytesPerSecond,
        &a.l2.bytes, &a.l2.bytesPerSecond, &a.l1.bytes, &a.l1.bytesPerSecond})
    *x /= n;
  for (NcuStall& s : a.stalls) s.cyclesPerIssue /= n;
  std::stable_sort(a.stalls.begin(), a.stalls.end(), [](const NcuStall& x, const NcuStall& y) {
    return x.cyclesPerIssue > y.cyclesPerIssue;
  });
  if (!a.stalls.empty() && a.stalls.front().cyclesPerIssue > 0) {
    a.topStall = a.stalls.front().reason;
    a.topStallCyclesPerIssue = a.stalls.front().cyclesPerIssue;
  }
}

}  // namespace

std::vector<NcuKernelFigures> ncuMeanPerKernel(const NcuProfile& p) {
  std::vector<NcuKernelFigures> out;
  std::vector<int> launches;
  for (const auto& k : p.kernels) {
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const NcuKernelFigures& m) { return m.name == k.name; });
    if (it == out.end()) {
      out.push_back(k);
      launches.push_back(1);
      continue;
    }
    accumulate(*it, k);
    ++launches[std::size_t(it - out.begin())];
  }
  for (std::size_t i = 0; i < out.size(); ++i) divide(out[i], launches[i]);
  return out;
}

const std::vector<std::string>& ncuExtraMetrics() {
  static const std::vector<std::string> metrics{"launch__registers_per_thread",
                                                "launch__shared_mem_per_block_static",
                                                "launch__shared_mem_per_block_dynamic",
                                                "launch__waves_per_multiprocessor",
                                                "sm__maximum_warps_per_active_cycle_pct",
                                                "sm__warps_active.avg.pct_of_peak_sustained_active",
                                                "dram__bytes_read.sum",
                                                "dram__bytes_write.sum",
                                                "dram__bytes.sum",
                                                "dram__bytes.sum.per_second",
                                                "lts__t_bytes.sum",
                                                "lts__t_bytes.sum.per_second",
                                                "l1tex__t_bytes.sum",
                                                "l1tex__t_bytes.sum.per_second"};
  return metrics;
}

NcuPerCase ncuPerCase(const NcuProfile& p) {
  NcuPerCase out;
  if (p.kernels.empty()) return out;
  for (const auto& k : p.kernels) {
    out.caseLaunches += k.name == p.kernels.front().name ? 1 : 0;
    out.dramBytes += k.dramBytes;
    out.durationUs += k.durationUs;
  }
  out.dramBytes /= out.caseLaunches;
  out.durationUs /= out.caseLaunches;
  return out;
}

namespace {
std::string metricList() {
  std::string list;
  for (const auto& m : ncuExtraMetrics()) list += (list.empty() ? "" : ",") + m;
  return list;
}
}  // namespace

std::vector<std::string> caseSizeOptions(const CaseSize& size, const std::string& shapeOption) {
  if (isGemm(size)) return {shapeOption, toString(shapeOf(size))};
  return {"--family", size.family, "--sizes", sizeLabel(size)};
}

std::vector<std::string> ncuProfileArgs(const std::string& ncu, const std::string& kwb,
                                        const std::string& kernel, const CaseSize& size,
                                        const std::string& reportBase, int launchCount) {
  std::vector<std::string> args{ncu,
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
                                "--metrics",
                                metricList(),
                                kwb,
                                "run",
                                "--kernels",
                                kernel};
  const auto sized = caseSizeOptions(size, "--shapes");
  args.insert(args.end(), sized.begin(), sized.end());
  args.insert(args.end(),
              {"--timer", "host", "--samples", "1", "--warmups", "1", "--no-cupti-check",
               // the one case asked for is profiled, whatever its estimate
               "--max-case-seconds", "0"});
  return args;
}

std::vector<std::string> ncuImportArgs(const std::string& ncu, const std::string& report) {
  return {ncu, "--import", report, "--csv", "--page", "raw", "--print-units", "base"};
}

std::string ncuReportStem(const std::string& kernel, const CaseSize& size) {
  // The kernel's characters as they always were; the size's spaces separate its axes.
  auto safe = [](const std::string& text, char space) {
    std::string out;
    for (char ch : text)
      out += std::isalnum(static_cast<unsigned char>(ch)) != 0 ||
                     std::string_view("._-^").find(ch) != std::string_view::npos
                 ? ch
             : ch == ' ' ? space
                         : '_';
    return out;
  };
  return safe(kernel, '_') + "-" + safe(sizeLabel(size), '-');
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

}  // namespace kwb
