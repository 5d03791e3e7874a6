// SPDX-License-Identifier: Apache-2.0
#include "kwb/user_kernel_spec.h"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <cstdio>
#include <regex>
#include <sstream>

#include "kwb/error.h"
#include "kwb/nvrtc_prelude.h"

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

void parseBlock(UserLaunchSpec& s, std::string_view text, const std::string& where) {
  const auto x = text.find_first_of("xX");
  if (x != std::string_view::npos && x > 0 && std::isdigit(static_cast<unsigned char>(text[0]))) {
    s.block = parseDim2(text, where);
    s.blockExpr.reset();
    return;
  }
  s.blockExpr = parseLaunchExpr(text, where);
  if (s.blockExpr->dims.size() > 2)
    throw InputError(where + ": '" + std::string(text) + "': a block has at most 2 dimensions");
  s.block.reset();
}

namespace {
// A grid or block value may hold spaces ("ceil(N / 32), 4"): the words up to balanced
// parentheses, and on past an operator or a comma at either side of a space.
std::string balancedValue(std::string value, std::istringstream& words) {
  const auto depth = [](const std::string& v) {
    return std::count(v.begin(), v.end(), '(') - std::count(v.begin(), v.end(), ')');
  };
  const auto unfinished = [&] {
    if (depth(value) > 0 || std::string_view(",+-*/(").find(value.back()) != std::string::npos)
      return true;
    words >> std::ws;
    const int next = words.peek();
    return next != EOF && std::string_view(",+-*/)").find(char(next)) != std::string::npos;
  };
  std::string more;
  while (unfinished() && words >> more) value += " " + more;
  return value;
}
}  // namespace

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
      const std::string key = word.substr(0, eq);
      std::string value = word.substr(eq + 1);
      const std::string what = where + ": " + key;
      if (key == "block" || key == "grid") value = balancedValue(value, words);
      if (key == "entry")
        s.entry = value;
      else if (key == "block")
        parseBlock(s, value, what);
      else if (key == "grid")
        s.grid = parseLaunchExpr(value, what);
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
                         "' in the kwb: header (known: entry, block, grid, tile, smem, precision, "
                         "define)");
    }
  }
  return s;
}

UserLaunchSpec merge(UserLaunchSpec base, const UserLaunchSpec& over) {
  if (over.entry) base.entry = over.entry;
  if (over.block || over.blockExpr) {
    base.block = over.block;
    base.blockExpr = over.blockExpr;
  }
  if (over.grid) base.grid = over.grid;
  if (over.tile && !over.grid) base.grid.reset();  // --tile on the command line beats grid=
  if (over.tile) base.tile = over.tile;
  if (over.smemBytes) base.smemBytes = over.smemBytes;
  if (over.precision) base.precision = over.precision;
  for (const auto& [k, v] : over.defines) base.defines[k] = v;
  return base;
}

UserLaunchSpec applyDefaults(UserLaunchSpec s, const std::string& defaultEntry) {
  if (!s.entry) s.entry = defaultEntry;
  // A name, maybe qualified, maybe with template arguments: it is compiled as a name expression
  // (or, for nvcc, written after the source), so nothing that could start a directive or end a
  // statement.
  static const std::regex kEntry(R"([A-Za-z_][A-Za-z0-9_:]*(<[A-Za-z0-9_:<>, ()*+\-]*>)?)");
  if (!std::regex_match(*s.entry, kEntry))
    throw InputError("--entry '" + *s.entry +
                     "': not a kernel name (a C++ name, with template arguments in <...>)");
  const ExprEnv env{{}, &s.defines};
  if (s.blockExpr) {
    const auto d = evaluateDims(*s.blockExpr, env, 1024);
    if (d[0] * d[1] > 1024)
      throw InputError(s.blockExpr->where + ": " + std::to_string(d[0] * d[1]) +
                       " threads; a block has at most 1024");
    s.block = Dim2{int(d[0]), int(d[1])};
  }
  if (s.grid) {  // names are checked now, values at each launch (they depend on the shape)
    ExprEnv probe{{{"M", 1024}, {"N", 1024}, {"K", 1024}}, &s.defines};
    for (const std::string& name : exprNames(*s.grid))
      if (!probe.vars.count(name) && !s.defines.count(name))
        throw InputError(s.grid->where + ": unknown name '" + name + "' in '" + s.grid->text +
                         "' (known: M, N, K and the defines)");
  }
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

namespace {
// "void k<64, 64>(int, float*)" → "k<64,64>": the name without return type, parameters, spaces.
std::string demangledName(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !d) return mangled;
  std::string full(d.get()), name;
  int angle = 0;
  for (char ch : full) {
    if (ch == '<') ++angle;
    if (ch == '>') --angle;
    if (ch == '(' && angle == 0) break;
    if (ch == ' ' && angle == 0) {
      name.clear();  // a return type ("void ") before a template's name
      continue;
    }
    if (ch != ' ') name += ch;
  }
  return name;
}
std::string withoutSpaces(std::string_view s) {
  std::string out;
  for (char ch : s)
    if (ch != ' ') out += ch;
  return out;
}
}  // namespace

std::optional<std::string> resolveEntry(std::string_view ptx, std::string_view name) {
  const auto entries = ptxEntries(ptx);
  if (std::find(entries.begin(), entries.end(), name) != entries.end()) return std::string(name);
  std::optional<std::string> found;
  for (const auto& e : entries)
    if (demangledName(e) == withoutSpaces(name)) {
      if (found) return std::nullopt;  // overloads: ambiguous by name
      found = e;
    }
  return found;
}

std::string checkContract(std::string_view ptx, std::string_view name, std::string_view file) {
  // A user kernel is loaded on its own and launched by kwb on the case's stream: a device-side
  // launch (CUDA dynamic parallelism) could run work on other streams, and any other external
  // function could not be resolved at load time. The driver provides printf's and assert's.
  static const char* kProvided[] = {"vprintf", "__assertfail", "malloc", "free"};
  for (const std::string& f : ptxExternFunctions(ptx)) {
    if (std::find(std::begin(kProvided), std::end(kProvided), f) != std::end(kProvided)) continue;
    if (f.find("LaunchDevice") != std::string::npos || f.find("CDP") != std::string::npos)
      throw InputError(std::string(file) + ": launches kernels from the device (" + f +
                       "); a user kernel must do all its work on the stream kwb launches it on");
    throw InputError(std::string(file) + ": calls the external function " + f +
                     ", which a kernel loaded on its own cannot resolve");
  }
  const auto entry = resolveEntry(ptx, name);
  const auto n = entry ? ptxEntryParamCount(ptx, *entry) : std::nullopt;
  if (!n) {
    std::string have;
    for (const auto& e : ptxEntries(ptx)) have += (have.empty() ? "" : ", ") + demangledName(e);
    throw InputError(std::string(file) + ": no kernel entry '" + std::string(name) +
                     "'; the file has: " + (have.empty() ? "none" : have) +
                     " (choose one with --entry; a template kernel by its arguments, "
                     "--entry 'k<64,64>')");
  }
  if (*n != kContractParams)
    throw InputError(std::string(file) + ": kernel '" + std::string(name) + "' takes " +
                     std::to_string(*n) +
                     " parameters; the contract is 8: (int M, int N, int K, "
                     "float alpha, const float* A, const float* B, float beta, float* C)");
  return *entry;
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
  s += compileHints(log);
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
