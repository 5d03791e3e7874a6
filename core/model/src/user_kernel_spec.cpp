// SPDX-License-Identifier: Apache-2.0
#include "kwb/user_kernel_spec.h"

#include <cctype>
#include <cstdio>
#include <regex>
#include <sstream>

#include "kwb/error.h"

namespace kwb {
namespace {

constexpr int kContractParams = 8;  // M, N, K, alpha, A, B, beta, C

int parsePositive(std::string_view text, std::string_view what, int max) {
  if (text.empty() || text.size() > 9)
    throw InputError(std::string(what) + ": '" + std::string(text) + "' is not a number");
  int v = 0;
  for (char ch : text) {
    if (!std::isdigit(static_cast<unsigned char>(ch)))
      throw InputError(std::string(what) + ": '" + std::string(text) + "' is not a number");
    v = v * 10 + (ch - '0');
  }
  if (v < 0 || v > max)
    throw InputError(std::string(what) + ": " + std::string(text) + " is out of range 0 … " +
                     std::to_string(max));
  return v;
}

}  // namespace

Dim2 parseDim2(std::string_view text, std::string_view what) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos)
    throw InputError(std::string(what) + ": '" + std::string(text) + "' is not WxH (e.g. 16x16)");
  Dim2 d{parsePositive(text.substr(0, x), what, 4096),
         parsePositive(text.substr(x + 1), what, 4096)};
  if (d.x == 0 || d.y == 0)
    throw InputError(std::string(what) + ": '" + std::string(text) + "' has a zero");
  return d;
}

UserLaunchSpec parseHeader(std::string_view source, std::string_view file) {
  UserLaunchSpec s;
  std::istringstream in{std::string(source)};
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line.compare(start, 7, "// kwb:") != 0) continue;
    const std::string where = std::string(file) + ":" + std::to_string(lineNo);
    std::istringstream words(line.substr(start + 7));
    std::string word;
    while (words >> word) {
      const auto eq = word.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == word.size())
        throw InputError(where + ": '" + word + "' is not key=value in the kwb: header");
      const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      const std::string what = where + ": " + key;
      if (key == "entry")
        s.entry = value;
      else if (key == "block")
        s.block = parseDim2(value, what);
      else if (key == "tile")
        s.tile = parseDim2(value, what);
      else if (key == "smem")
        s.smemBytes = parsePositive(value, what, 1 << 20);
      else if (key == "precision") {
        if (value == "fp32")
          s.precision = Precision::kFp32;
        else if (value == "fp16")
          s.precision = Precision::kFp16Fp32Acc;
        else
          throw InputError(what + ": '" + value + "' is not fp32 or fp16");
      } else if (key == "define") {
        const auto e2 = value.find('=');
        s.defines[value.substr(0, e2)] = e2 == std::string::npos ? "1" : value.substr(e2 + 1);
      } else
        throw InputError(where + ": unknown key '" + key +
                         "' in the kwb: header (known: entry, block, tile, smem, precision, "
                         "define)");
    }
  }
  return s;
}

UserLaunchSpec merge(UserLaunchSpec base, const UserLaunchSpec& over) {
  if (over.entry) base.entry = over.entry;
  if (over.block) base.block = over.block;
  if (over.tile) base.tile = over.tile;
  if (over.smemBytes) base.smemBytes = over.smemBytes;
  if (over.precision) base.precision = over.precision;
  for (const auto& [k, v] : over.defines) base.defines[k] = v;
  return base;
}

UserLaunchSpec applyDefaults(UserLaunchSpec s, const std::string& defaultEntry) {
  if (!s.entry) s.entry = defaultEntry;
  if (!s.block) s.block = Dim2{16, 16};
  if (!s.tile) s.tile = Dim2{64, 64};
  if (!s.smemBytes) s.smemBytes = 0;
  if (!s.precision) s.precision = Precision::kFp32;
  return s;
}

std::vector<std::string> ptxEntries(std::string_view ptx) {
  std::vector<std::string> names;
  static const std::regex re(R"(\.entry\s+([A-Za-z_$][A-Za-z0-9_$]*))");
  const std::string text(ptx);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it)
    names.push_back((*it)[1]);
  return names;
}

std::optional<int> ptxEntryParamCount(std::string_view ptx, std::string_view name) {
  const std::string text(ptx);
  const std::regex re(R"(\.entry\s+)" + std::string(name) + R"(\s*\()");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return std::nullopt;
  const auto open = std::size_t(m.position(0) + m.length(0));
  const auto close = text.find(')', open);
  const std::string params =
      text.substr(open, close == std::string::npos ? std::string::npos : close - open);
  int count = 0;
  for (auto p = params.find(".param"); p != std::string::npos; p = params.find(".param", p + 6))
    ++count;
  return count;
}

std::vector<std::string> ptxExternFunctions(std::string_view ptx) {
  std::vector<std::string> out;
  const std::string text(ptx);
  static const std::regex decl(R"(\.extern\s+\.func\s*(\([^)]*\))?\s*([A-Za-z_$%][\w$]*))");
  for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it)
    out.push_back((*it)[2].str());
  return out;
}

void checkContract(std::string_view ptx, std::string_view name, std::string_view file) {
  // A user kernel is loaded on its own and launched by kwb on the case's stream: a device-side
  // launch (CUDA dynamic parallelism) could run work on other streams, and any other external
  // function could not be resolved at load time.
  for (const std::string& f : ptxExternFunctions(ptx)) {
    if (f.find("LaunchDevice") != std::string::npos || f.find("CDP") != std::string::npos)
      throw InputError(std::string(file) + ": launches kernels from the device (" + f +
                       "); a user kernel must do all its work on the stream kwb launches it on");
    throw InputError(std::string(file) + ": calls the external function " + f +
                     ", which a kernel loaded on its own cannot resolve");
  }
  const auto n = ptxEntryParamCount(ptx, name);
  if (!n) {
    std::string have;
    for (const auto& e : ptxEntries(ptx)) have += (have.empty() ? "" : ", ") + e;
    throw InputError(std::string(file) + ": no kernel entry '" + std::string(name) +
                     "' (extern \"C\" __global__); the file has: " +
                     (have.empty() ? "none" : have) + " (choose one with --entry)");
  }
  if (*n != kContractParams)
    throw InputError(std::string(file) + ": kernel '" + std::string(name) + "' takes " +
                     std::to_string(*n) +
                     " parameters; the contract is 8: (int M, int N, int K, "
                     "float alpha, const float* A, const float* B, float beta, float* C)");
}

std::vector<Diagnostic> parseCompileLog(std::string_view log) {
  std::vector<Diagnostic> out;
  static const std::regex head(
      R"(^(.*)\((\d+)\): (error|warning|remark|catastrophic error)[^:]*: (.*)$)");
  std::istringstream in{std::string(log)};
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, head)) continue;
    Diagnostic d{m[1], std::stoi(m[2]), 0, m[3], m[4]};
    // NVRTC echoes the source line indented by 2, then a caret under the column.
    for (std::size_t j = i + 1; j < lines.size() && j <= i + 2; ++j) {
      const auto caret = lines[j].find('^');
      if (caret != std::string::npos && lines[j].find_first_not_of(" \t") == caret) {
        d.column = caret >= 2 ? int(caret) - 1 : 1;
        break;
      }
    }
    out.push_back(d);
  }
  return out;
}

std::string formatCompileError(std::string_view file, std::string_view log) {
  std::string s = std::string(file) + ": compilation failed\n";
  for (const auto& d : parseCompileLog(log))
    s += d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " +
         d.severity + ": " + d.message + "\n";
  s += "--- NVRTC log ---\n" + std::string(log);
  return s;
}

std::string sourceHash(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace kwb
