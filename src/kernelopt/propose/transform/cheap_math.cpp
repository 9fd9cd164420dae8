// The rewrite proposer's arithmetic rewrite: fewer transcendental calls for the same value.
//
// Mish, x * tanh(softplus(x)), reaches Inductor's kernels as
//
//     A = tl.full([1, 1], 20.0, tl.float32)     # softplus's threshold
//     B = X > A
//     C = libdevice.exp(X)
//     D = libdevice.log1p(C)
//     E = tl.where(B, X, D)                     # softplus(X)
//     T = libdevice.tanh(E)
//
// three calls to libdevice (an exponential, a log1p and a tanh, each a few dozen instructions),
// which make an elementwise epilogue compute-bound. With s = softplus(x) = log(1 + e^x),
// tanh(s) = ((1 + e^x)^2 - 1) / ((1 + e^x)^2 + 1) = n / (n + 2) with n = e^x (e^x + 2): one
// exponential (C, already there), a multiply-add and a division. Past the threshold Inductor takes
// tanh(x) for x > 20, which is 1.0 in float32 (tanh saturates there from about 9), so the rewrite
// takes 1.0 there too. A NaN stays NaN (n is NaN), -inf gives 0 as log1p(0) did, and n stays
// finite below the threshold (e^20 (e^20 + 2) is about 2.4e17). The statements D and E are left
// in place; the compiler drops what no longer has a reader.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"

namespace kernelopt::propose {

namespace py = inductor::detail;

namespace {

// The right side of the last single-name assignment to `name` before line `before`, trimmed; ""
// when there is none.
std::string definition(const std::vector<std::string>& lines,
                       std::size_t before,
                       const std::string& name) {
  for (std::size_t j = before; j-- > 0;) {
    std::string rhs;
    const auto targets = py::assigned_names(py::trim(lines[j]), &rhs);
    if (targets.size() == 1 && targets[0] == name) return std::string(py::trim(rhs));
    // A def line starts the kernel: nothing before it belongs to this one.
    if (py::trim(lines[j]).rfind("def ", 0) == 0) return "";
  }
  return "";
}

// The single argument of `callee(ARG)` when `text` is that call and ARG a name; "" otherwise.
std::string single_name_arg(const std::string& text, std::string_view callee) {
  const auto args = py::call_args(text, callee);
  if (!args || args->size() != 1 || !py::is_identifier((*args)[0])) return "";
  return (*args)[0];
}

}  // namespace

std::optional<CheapMath> cheaper_math_source(const std::string& source) {
  std::vector<std::string> lines;
  for (const auto& line : py::split_lines(source)) {
    lines.emplace_back(line);
  }
  CheapMath out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string rhs;
    const auto targets = py::assigned_names(py::trim(lines[i]), &rhs);
    if (targets.size() != 1) continue;
    const std::string& t = targets[0];
    const std::string e = single_name_arg(std::string(py::trim(rhs)), "libdevice.tanh");
    if (e.empty()) continue;
    // E = tl.where(B, X, D)
    const auto where = py::call_args(definition(lines, i, e), "tl.where");
    if (!where || where->size() != 3) continue;
    const std::string& b = (*where)[0];
    const std::string& x = (*where)[1];
    const std::string& d = (*where)[2];
    // D = libdevice.log1p(C); C = exp(X); B = X > A; A = the threshold 20.0
    const std::string c = single_name_arg(definition(lines, i, d), "libdevice.log1p");
    if (c.empty() || !py::is_identifier(b) || !py::is_identifier(x)) continue;
    const std::string c_rhs = definition(lines, i, c);
    if (single_name_arg(c_rhs, "libdevice.exp") != x &&
        single_name_arg(c_rhs, "tl_math.exp") != x) {
      continue;
    }
    const std::string b_rhs = definition(lines, i, b);
    const std::string prefix = x + " > ";
    if (b_rhs.rfind(prefix, 0) != 0) continue;
    const std::string a = b_rhs.substr(prefix.size());
    const auto full = py::call_args(definition(lines, i, a), "tl.full");
    if (!py::is_identifier(a) || !full || full->size() != 3 || (*full)[1] != "20.0") continue;
    const std::string n = t + "_n";
    if (source.find(n) != std::string::npos) continue;
    const std::string pad(py::indentation(lines[i]), ' ');
    lines[i] =
        fmt::format("{0}{1} = {2} * ({2} + 2.0)\n{0}{3} = tl.where({4}, 1.0, {1} / ({1} + 2.0))",
                    pad, n, c, t, b);
    ++out.mish;
  }
  if (out.mish == 0) return std::nullopt;
  for (const auto& line : lines) {
    out.source += line + "\n";
  }
  return out;
}

int cheaper_math_launch(nlohmann::json& launch) {
  if (launch.value("kind", "") == "template") return 0;
  const auto cheap = cheaper_math_source(launch.at("source").get<std::string>());
  if (!cheap) return 0;
  launch["source"] = cheap->source;
  return cheap->mish;
}

}  // namespace kernelopt::propose
