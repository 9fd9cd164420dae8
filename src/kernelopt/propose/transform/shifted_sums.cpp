// The rewrite proposer's shifted sums: a looped reduction's per-lane Welford update (a division per
// element) made per-lane sums of the value and its square, shifted by the lane's first value, from
// which the mean and M2 follow after the loop.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/detail/statement_text.hpp"
#include "kernelopt/propose/transform/buffer_names.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"

namespace kernelopt::propose {

namespace py = inductor::detail;
using detail::joined_call;
using detail::trim;
using inductor::detail::assigned_names;
using inductor::detail::indentation;

namespace {

// Whether `name`, as last assigned before line `before`, is zero everywhere: `tl.full(S, 0, T)` or
// `tl.full(S, 0.0, T)`, a `tl.broadcast_to` of a zero, or a `tl.where` of two zeros (Inductor's
// M2 of a single element, padded).
bool zero_valued(const std::vector<std::string>& lines,
                 std::size_t before,
                 const std::string& name,
                 int depth = 0) {
  if (depth > 8) return false;
  for (std::size_t j = before; j-- > 0;) {
    std::string rhs;
    const auto lhs = assigned_names(trim(lines[j]), &rhs);
    if (lhs.size() != 1 || lhs[0] != name) continue;
    if (const auto full = py::call_args(rhs, "tl.full")) {
      return full->size() == 3 && ((*full)[1] == "0" || (*full)[1] == "0.0");
    }
    if (const auto b = py::call_args(rhs, "tl.broadcast_to")) {
      return b->size() == 2 && identifier((*b)[0]) && zero_valued(lines, j, (*b)[0], depth + 1);
    }
    if (const auto w = py::call_args(rhs, "tl.where")) {
      return w->size() == 3 && identifier((*w)[1]) && identifier((*w)[2]) &&
             zero_valued(lines, j, (*w)[1], depth + 1) && zero_valued(lines, j, (*w)[2], depth + 1);
    }
    return false;
  }
  return false;
}

}  // namespace

std::optional<ShiftedSums> shifted_sums_source(const std::string& source) {
  std::vector<std::string> lines;
  for (const auto& line : py::split_lines(source)) {
    lines.emplace_back(line);
  }
  ShiftedSums out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const bool reduce = lines[i].find("triton_helpers.welford_reduce(") != std::string::npos;
    const bool combine_call = lines[i].find("triton_helpers.welford_combine(") != std::string::npos;
    if (!reduce && !combine_call) continue;
    std::size_t last = i;
    const std::string call = joined_call(lines, i, last);
    std::string rhs;
    const auto lhs = assigned_names(call, &rhs);
    // `N_mean_next, N_m2_next, N_weight_next = welford_reduce(V, N_mean, N_m2, N_weight, roffset
    // == 0)`, or `= welford_combine(N_mean, N_m2, N_weight, V, M, W)` with M zero (each element a
    // value of weight W: Inductor's form for a split reduction with padding, W 1 or 0); then the
    // three masked updates, one mask.
    std::vector<std::string> acc;  // N_mean, N_m2, N_weight as the call names them
    std::string value;
    std::string weight;  // W; empty for welford_reduce (weight 1)
    if (reduce) {
      const auto args = py::call_args(rhs, "triton_helpers.welford_reduce");
      if (!args || args->size() != 5 || (*args)[4] != "roffset == 0") return std::nullopt;
      acc = {(*args)[1], (*args)[2], (*args)[3]};
      value = (*args)[0];
    } else {
      const auto args = py::call_args(rhs, "triton_helpers.welford_combine");
      if (!args || args->size() != 6) return std::nullopt;
      // A combine of partial statistics (M not zero: a split reduction's second stage) stays.
      if (!identifier((*args)[4]) || !zero_valued(lines, i, (*args)[4])) continue;
      acc = {(*args)[0], (*args)[1], (*args)[2]};
      value = (*args)[3];
      weight = (*args)[5];
      if (!identifier(weight)) return std::nullopt;
    }
    if (lhs.size() != 3 || acc[0].size() <= 5) return std::nullopt;
    const std::string name = acc[0].substr(0, acc[0].size() - 5);
    if (acc[0] != name + "_mean" || acc[1] != name + "_m2" || acc[2] != name + "_weight" ||
        lhs[0] != name + "_mean_next" || lhs[1] != name + "_m2_next" ||
        lhs[2] != name + "_weight_next" || !identifier(value) || last + 3 >= lines.size()) {
      return std::nullopt;
    }
    std::string mask;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::string part = std::array{"_mean", "_m2", "_weight"}[k];
      std::string where_rhs;
      const auto target = assigned_names(trim(lines[last + 1 + k]), &where_rhs);
      const auto where = py::call_args(where_rhs, "tl.where");
      if (target.size() != 1 || target[0] != name + part || !where || where->size() != 3 ||
          (*where)[1] != name + part + "_next" || (*where)[2] != name + part ||
          (!mask.empty() && (*where)[0] != mask)) {
        return std::nullopt;
      }
      mask = (*where)[0];
    }
    // The accumulators' zero initialisations (before the loop) and the final welford (after it).
    std::size_t init = lines.size();
    std::size_t final_line = lines.size();
    const std::string zero_weight = fmt::format("{}_weight = tl.zeros(", name);
    const std::string combine =
        fmt::format("triton_helpers.welford({0}_mean, {0}_m2, {0}_weight", name);
    for (std::size_t j = 0; j < lines.size(); ++j) {
      const std::string t = trim(lines[j]);
      if (j < i && t.rfind(zero_weight, 0) == 0) init = j;
      if (j > last && final_line == lines.size() && t.find(combine) != std::string::npos) {
        final_line = j;
      }
    }
    if (init == lines.size() || final_line == lines.size()) return std::nullopt;
    const std::string pad(indentation(lines[i]), ' ');
    const std::string final_pad(indentation(lines[final_line]), ' ');
    const std::string zeros = trim(lines[init]).substr((name + "_weight = ").size());
    const std::string init_pad(indentation(lines[init]), ' ');
    // The new statements, in the names of this reduction: {n} its name, {m} the mask, {v} the
    // value, {w} the element weight.
    const auto text = [&](const char* pattern, const std::string& indent) {
      return indent + fmt::format(fmt::runtime(pattern), fmt::arg("n", name), fmt::arg("m", mask),
                                  fmt::arg("v", value), fmt::arg("w", weight));
    };
    std::vector<std::string> loop;
    if (weight.empty()) {
      for (const char* pattern : {"{n}_shift = tl.where(({n}_weight == 0) & ({m}), {v}, {n}_shift)",
                                  "{n}_dx = tl.where({m}, {v} - {n}_shift, 0.0)",
                                  "{n}_sum = {n}_sum + {n}_dx", "{n}_sq = {n}_sq + {n}_dx * {n}_dx",
                                  "{n}_weight = tl.where({m}, {n}_weight + 1, {n}_weight)"}) {
        loop.push_back(text(pattern, pad));
      }
    } else {  // each element counts with its weight W (0 for padding): weighted sums
      for (const char* pattern :
           {"{n}_w = tl.where({m}, {w}, 0.0)",
            "{n}_shift = tl.where(({n}_weight == 0) & ({n}_w > 0), {v}, {n}_shift)",
            "{n}_dx = tl.where({n}_w > 0, {v} - {n}_shift, 0.0)",
            "{n}_sum = {n}_sum + {n}_w * {n}_dx", "{n}_sq = {n}_sq + {n}_w * {n}_dx * {n}_dx",
            "{n}_weight = {n}_weight + {n}_w"}) {
        loop.push_back(text(pattern, pad));
      }
    }
    std::vector<std::string> after;
    for (const char* pattern : {"{n}_n = tl.where({n}_weight == 0, 1.0, {n}_weight)",
                                "{n}_mean = {n}_shift + {n}_sum / {n}_n",
                                "{n}_m2 = tl.maximum({n}_sq - {n}_sum * {n}_sum / {n}_n, 0.0)"}) {
      after.push_back(text(pattern, final_pad));
    }
    std::vector<std::string> zero_lines;
    for (const char* part : {"_shift", "_sum", "_sq"}) {
      zero_lines.push_back(fmt::format("{}{}{} = {}", init_pad, name, part, zeros));
    }
    // Edit from the bottom up so the earlier indices stay valid.
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(final_line), after.begin(),
                 after.end());
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i),
                lines.begin() + static_cast<std::ptrdiff_t>(last + 4));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), loop.begin(), loop.end());
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(init + 1), zero_lines.begin(),
                 zero_lines.end());
    ++out.count;
    i += loop.size() + zero_lines.size();
  }
  if (out.count == 0) return std::nullopt;
  for (const auto& line : lines) {
    out.source += line + "\n";
  }
  return out;
}

}  // namespace kernelopt::propose
