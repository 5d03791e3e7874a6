// SPDX-License-Identifier: Apache-2.0
// A recursive-descent parser to postfix and a stack evaluator: no library on the build
// machines evaluates arithmetic safely (no calls, no side effects) with errors that name the
// token, and the grammar is six rules.
#include "kwb/launch_expr.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "kwb/error.h"

namespace kwb {
namespace {

using Op = LaunchExpr::Op;
constexpr int kMaxDepth = 64;  // of nested parentheses: "(((...": a bounded recursion
constexpr std::size_t kMaxText = 1000;

Op make(Op::Kind kind, double value = 0, std::string name = {}) {
  return Op{kind, value, std::move(name)};
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& where) : m_text(text), m_where(where) {}

  std::vector<std::vector<Op>> list() {
    std::vector<std::vector<Op>> dims;
    do {
      m_out.clear();
      expr(0);
      dims.push_back(m_out);
    } while (accept(','));
    skipSpace();
    if (m_at < m_text.size()) fail("unexpected '" + std::string(1, m_text[m_at]) + "'");
    if (dims.size() > 3) fail("more than 3 dimensions");
    return dims;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(m_where + ": " + what + " at column " + std::to_string(m_at + 1) + " of '" +
                     std::string(m_text) + "'");
  }
  void skipSpace() {
    while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at]))) ++m_at;
  }
  bool accept(char c) {
    skipSpace();
    if (m_at < m_text.size() && m_text[m_at] == c) return ++m_at, true;
    return false;
  }
  void expect(char c) {
    if (!accept(c))
      fail(m_at < m_text.size() ? "expected '" + std::string(1, c) + "', found '" +
                                      std::string(1, m_text[m_at]) + "'"
                                : "expected '" + std::string(1, c) + "' at the end");
  }
  void expr(int depth) {
    if (depth > kMaxDepth) fail("nested deeper than " + std::to_string(kMaxDepth));
    term(depth);
    for (;;) {
      if (accept('+'))
        term(depth), m_out.push_back(make(Op::kAdd));
      else if (accept('-'))
        term(depth), m_out.push_back(make(Op::kSub));
      else
        return;
    }
  }
  void term(int depth) {
    unary(depth);
    for (;;) {
      if (accept('*'))
        unary(depth), m_out.push_back(make(Op::kMul));
      else if (accept('/'))
        unary(depth), m_out.push_back(make(Op::kDiv));
      else
        return;
    }
  }
  void unary(int depth) {
    if (accept('-')) {
      if (depth > kMaxDepth) fail("nested deeper than " + std::to_string(kMaxDepth));
      unary(depth + 1);
      m_out.push_back(make(Op::kNeg));
      return;
    }
    primary(depth);
  }
  void primary(int depth) {
    skipSpace();
    if (m_at >= m_text.size()) fail("expected a number, a name or '(' at the end");
    const char c = m_text[m_at];
    if (accept('(')) {
      expr(depth + 1);
      expect(')');
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      double v = 0;
      while (m_at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_at]))) {
        v = v * 10 + (m_text[m_at++] - '0');
        if (v > 1e15) fail("a number too large");
      }
      m_out.push_back(make(Op::kNum, v));
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = m_at;
      while (m_at < m_text.size() &&
             (std::isalnum(static_cast<unsigned char>(m_text[m_at])) || m_text[m_at] == '_'))
        ++m_at;
      call(std::string(m_text.substr(start, m_at - start)), start, depth);
    } else {
      fail("unexpected '" + std::string(1, c) + "'");
    }
  }
  void call(const std::string& name, std::size_t start, int depth) {
    if (!accept('(')) return m_out.push_back(make(Op::kVar, 0, name));
    static const std::map<std::string, std::pair<Op::Kind, int>> fns{
        {"ceil", {Op::kCeil, 1}}, {"floor", {Op::kFloor, 1}},      {"min", {Op::kMin, 2}},
        {"max", {Op::kMax, 2}},   {"ceil_div", {Op::kCeilDiv, 2}}, {"CEIL_DIV", {Op::kCeilDiv, 2}}};
    const auto f = fns.find(name);
    if (f == fns.end()) {
      m_at = start;
      fail("unknown function '" + name + "' (known: ceil, floor, min, max, ceil_div)");
    }
    for (int i = 0; i < f->second.second; ++i) {
      if (i > 0) expect(',');
      expr(depth + 1);
    }
    expect(')');
    m_out.push_back(make(f->second.first));
  }

  std::string_view m_text;
  const std::string& m_where;
  std::size_t m_at = 0;
  std::vector<Op> m_out;
};

double evaluate(const std::vector<Op>& ops, const LaunchExpr& e, const ExprEnv& env, int depth);

double lookup(const std::string& name, const LaunchExpr& e, const ExprEnv& env, int depth) {
  if (const auto v = env.vars.find(name); v != env.vars.end()) return v->second;
  if (env.defines) {
    if (const auto d = env.defines->find(name); d != env.defines->end()) {
      if (depth >= 8)
        throw InputError(e.where + ": the define " + name + " refers to defines 8 deep");
      const LaunchExpr inner = parseLaunchExpr(d->second, e.where + ": the define " + name);
      if (inner.dims.size() != 1)
        throw InputError(e.where + ": the define " + name + " = " + d->second +
                         " is not one number");
      return evaluate(inner.dims[0], inner, env, depth + 1);
    }
  }
  std::string known;
  for (const auto& [k, v] : env.vars) known += (known.empty() ? "" : ", ") + k;
  if (env.defines)
    for (const auto& [k, v] : *env.defines) known += (known.empty() ? "" : ", ") + k;
  throw InputError(e.where + ": unknown name '" + name + "' in '" + e.text +
                   "' (known: " + (known.empty() ? "none" : known) + ")");
}

double evaluate(const std::vector<Op>& ops, const LaunchExpr& e, const ExprEnv& env, int depth) {
  std::vector<double> st;
  for (const Op& op : ops) {
    if (op.kind == Op::kNum) {
      st.push_back(op.value);
      continue;
    }
    if (op.kind == Op::kVar) {
      st.push_back(lookup(op.name, e, env, depth));
      continue;
    }
    const double b = st.back();
    if (op.kind == Op::kNeg || op.kind == Op::kCeil || op.kind == Op::kFloor) {
      st.back() = op.kind == Op::kNeg ? -b : op.kind == Op::kCeil ? std::ceil(b) : std::floor(b);
      continue;
    }
    st.pop_back();
    double& a = st.back();
    if ((op.kind == Op::kDiv || op.kind == Op::kCeilDiv) && b == 0)
      throw InputError(e.where + ": division by zero in '" + e.text + "'");
    switch (op.kind) {
      case Op::kAdd:
        a += b;
        break;
      case Op::kSub:
        a -= b;
        break;
      case Op::kMul:
        a *= b;
        break;
      case Op::kDiv:
        a /= b;
        break;
      case Op::kMin:
        a = std::min(a, b);
        break;
      case Op::kMax:
        a = std::max(a, b);
        break;
      default:
        a = std::ceil(a / b);
        break;  // kCeilDiv
    }
  }
  return st.back();
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

LaunchExpr parseLaunchExpr(std::string_view text, std::string where) {
  if (text.size() > kMaxText)
    throw InputError(where + ": longer than " + std::to_string(kMaxText) + " characters");
  LaunchExpr e{std::string(text), std::move(where), {}};
  e.dims = Parser(text, e.where).list();
  return e;
}

std::vector<std::string> exprNames(const LaunchExpr& e) {
  std::vector<std::string> names;
  for (const auto& d : e.dims)
    for (const Op& op : d)
      if (op.kind == Op::kVar && std::find(names.begin(), names.end(), op.name) == names.end())
        names.push_back(op.name);
  return names;
}

std::array<long long, 3> evaluateDims(const LaunchExpr& e, const ExprEnv& env, long long maxX) {
  std::array<long long, 3> out{1, 1, 1};
  static const char* kAxis[] = {"x", "y", "z"};
  for (std::size_t i = 0; i < e.dims.size(); ++i) {
    const double v = evaluate(e.dims[i], e, env, 0);
    const long long max = i == 0 ? maxX : 65535;
    std::string at;
    for (const auto& [k, val] : env.vars) at += " " + k + "=" + number(val);
    if (v != std::floor(v))
      throw InputError(e.where + ": " + kAxis[i] + " = " + number(v) + " at" + at +
                       " is not a whole number: round it with ceil(...) or floor(...) in '" +
                       e.text + "'");
    if (v < 1 || v > double(max))
      throw InputError(e.where + ": " + kAxis[i] + " = " + number(v) + " at" + at +
                       " is outside 1 … " + std::to_string(max) + " ('" + e.text + "')");
    out[i] = (long long)v;
  }
  return out;
}

}  // namespace kwb
