#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/inductor/graph_fragment.hpp"
#include "kernelopt/propose/proposer.hpp"
#include "kernelopt/propose/recipes/fragment.hpp"
#include "kernelopt/propose/recipes/matchers.hpp"
#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::propose {

std::optional<Match> match_norm(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment) {
  static const std::string pow = "torch.ops.aten.pow.Tensor_Scalar";
  static const std::string mul = "torch.ops.aten.mul.Tensor";
  static const std::string abs = "torch.ops.aten.abs.default";
  static const std::string sum = "torch.ops.aten.sum.dim_IntList";
  static const std::string mean = "torch.ops.aten.mean.dim";
  static const std::string vnorm = "torch.ops.aten.linalg_vector_norm.default";
  static const std::string add = "torch.ops.aten.add.Tensor";
  static const std::string add_scalar = "torch.ops.aten.add.Scalar";
  static const std::string sqrt = "torch.ops.aten.sqrt.default";
  static const std::string rsqrt = "torch.ops.aten.rsqrt.default";
  static const std::string clamp = "torch.ops.aten.clamp_min.default";
  static const std::string div = "torch.ops.aten.div.Tensor";
  // Steps that keep the values: a broadcast of the divisor, a cast of the input or the result.
  static const std::string expand = "torch.ops.aten.expand.default";
  static const std::string convert = "torch.ops.prims.convert_element_type.default";
  if (segment.outputs.size() != 1) return std::nullopt;
  const auto fragments = all_fragments(code, map, segment);
  if (!fragments) return std::nullopt;
  const auto index = index_nodes(*fragments, {pow, mul, abs, sum, mean, vnorm, add, add_scalar,
                                              sqrt, rsqrt, clamp, div, expand, convert});
  if (!index) return std::nullopt;
  const auto through = [&](const inductor::FragmentNode* node) {
    while (node != nullptr && (node->target == expand || node->target == convert) &&
           !node->args.empty()) {
      node = index->arg(node->args[0]);
    }
    return node;
  };
  const auto operand = [&](const inductor::FragmentNode* node, std::size_t i) {
    return i < node->args.size() ? through(index->arg(node->args[i])) : nullptr;
  };
  std::set<const inductor::FragmentNode*> used;  // the nodes the form accounts for
  const inductor::FragmentNode* reduction = nullptr;
  for (const auto* node : index->calls) {
    if (node->target == sum || node->target == mean || node->target == vnorm) {
      if (reduction != nullptr) return std::nullopt;
      reduction = node;
    }
  }
  if (reduction == nullptr || reduction->args.size() < 2) return std::nullopt;
  used.insert(reduction);
  // The statistic: squares (pow 2, or x * x) or absolute values, summed or averaged; or the
  // L2 norm itself (linalg_vector_norm, the root taken).
  const bool by_norm = reduction->target == vnorm;
  const inductor::FragmentNode* x = nullptr;
  long p = 2;
  if (by_norm) {
    x = operand(reduction, 0);
    if (reduction->args[1] != "2" && reduction->args[1] != "2.0") return std::nullopt;
  } else {
    const inductor::FragmentNode* stat = operand(reduction, 0);
    if (stat == nullptr) return std::nullopt;
    used.insert(stat);
    const bool squared =
        (stat->target == pow && stat->args.size() == 2 &&
         (stat->args[1] == "2" || stat->args[1] == "2.0")) ||
        (stat->target == mul && stat->args.size() == 2 && operand(stat, 0) == operand(stat, 1));
    if (!squared && stat->target != abs) return std::nullopt;
    x = operand(stat, 0);
    p = squared ? 2 : 1;
  }
  if (x == nullptr || x->op != "placeholder" || !float_dtype(x->dtype)) return std::nullopt;
  const long rank = static_cast<long>(x->shape.size());
  if (rank < 1 || x->stride.size() != x->shape.size()) return std::nullopt;
  // One dimension, kept: sum(s, [d], True), mean(s, [d], True), norm(x, 2, [d], True).
  const std::size_t dim_arg = by_norm ? 2 : 1;
  const bool keepdim =
      (reduction->args.size() > dim_arg + 1 && reduction->args[dim_arg + 1] == "True") ||
      std::find(reduction->kwargs.begin(), reduction->kwargs.end(), "keepdim: True") !=
          reduction->kwargs.end();
  auto dim = reduction->args.size() > dim_arg ? integer(reduction->args[dim_arg]) : std::nullopt;
  if (!dim || !keepdim) return std::nullopt;
  if (*dim < 0) *dim += rank;
  if (*dim < 0 || *dim >= rank || !contiguous_after(*x, *dim)) return std::nullopt;
  // The innermost dimension runs as row_two_pass's rows: x must be contiguous as a whole.
  if (*dim == rank - 1 && !contiguous_after(*x, -1)) return std::nullopt;
  const auto n = integer(x->shape[static_cast<std::size_t>(*dim)]);
  if (!n || *n < 1) return std::nullopt;
  // The node that alone takes `from` as its first operand (through casts and broadcasts).
  const auto next = [&](const inductor::FragmentNode* from) -> const inductor::FragmentNode* {
    const inductor::FragmentNode* found = nullptr;
    for (const auto* node : index->calls) {
      if (used.count(node) != 0 || node->target == expand || node->target == convert) continue;
      for (std::size_t i = 0; i < node->args.size(); ++i) {
        if (operand(node, i) != from) continue;
        if (found != nullptr && found != node) return nullptr;
        found = node;
      }
    }
    return found;
  };
  // A literal operand >= 0 and finite, as a number.
  const auto constant = [&](const inductor::FragmentNode* node) -> std::optional<double> {
    if (node->args.size() != 2) return std::nullopt;
    const auto value = literal(node->args[1]);
    if (!value || !std::isfinite(*value) || *value < 0) return std::nullopt;
    return value;
  };
  double eps = 0.0;
  double floor = 0.0;
  const inductor::FragmentNode* at = reduction;
  const inductor::FragmentNode* step = next(at);
  // [+ eps] (not after a norm: that eps would be outside the root), [root], [clamp].
  if (step != nullptr && !by_norm && (step->target == add || step->target == add_scalar)) {
    const auto value = constant(step);
    if (!value) return std::nullopt;
    eps = *value;
    used.insert(step);
    at = step;
    step = next(at);
  }
  bool reciprocal = false;
  if (p == 2 && !by_norm) {
    if (step == nullptr) return std::nullopt;
    const bool half = step->target == pow && step->args.size() == 2 && step->args[1] == "0.5";
    if (step->target != sqrt && step->target != rsqrt && !half) return std::nullopt;
    reciprocal = step->target == rsqrt;
    used.insert(step);
    at = step;
    step = next(at);
  }
  if (step != nullptr && step->target == clamp && !reciprocal) {
    const auto value = constant(step);
    if (!value) return std::nullopt;
    floor = *value;
    used.insert(step);
    at = step;
    step = next(at);
  }
  // x / d, or x * rsqrt(...).
  if (step == nullptr || step->args.size() != 2) return std::nullopt;
  if (reciprocal ? (step->target != mul || !((operand(step, 0) == x && operand(step, 1) == at) ||
                                             (operand(step, 1) == x && operand(step, 0) == at)))
                 : (step->target != div || operand(step, 0) != x || operand(step, 1) != at)) {
    return std::nullopt;
  }
  used.insert(step);
  at = step;
  // [* weight]: a float graph input holding n values along the dimension, aligned from the right.
  const inductor::FragmentNode* weight = nullptr;
  if ((step = next(at)) != nullptr) {
    if (step->target != mul || step->args.size() != 2) return std::nullopt;
    weight = operand(step, operand(step, 0) == at ? 1 : 0);
    if (weight == nullptr || weight == x || weight->op != "placeholder" ||
        !float_dtype(weight->dtype)) {
      return std::nullopt;
    }
    const long w_rank = static_cast<long>(weight->shape.size());
    if (w_rank > rank) return std::nullopt;
    for (long d = 0; d < w_rank; ++d) {
      const auto size = integer(weight->shape[static_cast<std::size_t>(d)]);
      const long x_dim = rank - w_rank + d;
      if (!size || *size != (x_dim == *dim ? *n : 1)) return std::nullopt;
    }
    if (rank - w_rank > *dim) return std::nullopt;  // the weight does not reach the dimension
    used.insert(step);
  }
  for (const auto* node : index->calls) {
    if (used.count(node) == 0 && node->target != expand && node->target != convert) {
      return std::nullopt;  // a step the form does not know
    }
  }
  const bool last = *dim == rank - 1;
  nlohmann::json params = {{"x", x->name},
                           {"dim", *dim},
                           {"size", *n},
                           {"p", p},
                           {"mean", reduction->target == mean},
                           {"eps", eps},
                           {"clamp", floor},
                           {"weight", nullptr},
                           {"last", last}};
  if (weight != nullptr) params["weight"] = weight->name;
  if (last) {
    params["row_bytes"] = *n * element_bytes(x->dtype);
  } else if (const long columns = columns_after(*x, *dim); columns > 0) {
    params["columns"] = columns;
  }
  const char* kind = p == 1 ? "L1" : (reduction->target == mean ? "RMS" : "L2");
  std::string extras;
  if (eps != 0.0) extras += fmt::format(", + {} inside", eps);
  if (floor != 0.0) extras += fmt::format(", at least {}", floor);
  if (weight != nullptr) extras += fmt::format(", times {}", weight->name);
  return Match{"norm_dim", params,
               fmt::format("{} normalization over dim {} of {}[{}]{}", kind, *dim, x->dtype,
                           fmt::join(x->shape, ", "), extras)};
}

namespace {

// Settings for a norm over a dimension that is not the innermost. A dimension of at most 1024
// held whole in registers (rows_per_step 0: one read of x), with as many columns as make 4096
// and 2048 elements a program (on an H100, walking 80 channels twice ran at 0.70x of Inductor's
// one pass); then reduce_dim's tiles, walked twice: as wide as few columns, else 8 x 128 and
// 4 x 256.
std::vector<nlohmann::json> middle_settings(const Match& match) {
  const std::int64_t columns = match.params.value("columns", std::int64_t{0});
  const std::int64_t size = match.params.value("size", std::int64_t{0});
  std::vector<nlohmann::json> settings;
  if (size > 0 && size <= kResidentNormRows) {
    const std::int64_t rows = next_power_of_two(size);
    const std::int64_t widest = columns > 0 ? next_power_of_two(columns) : 256;
    for (const std::int64_t elements : {4096, 2048}) {
      const std::int64_t block =
          std::clamp<std::int64_t>(elements / rows, 1, std::min<std::int64_t>(widest, 256));
      settings.push_back({{"rows_per_step", 0},
                          {"cols_per_program", block},
                          {"num_warps", rows * block >= 4096 ? 8 : 4}});
    }
  }
  if (columns > 0 && columns < 128) {
    for (auto& tile : narrow_column_tiles(columns)) {
      settings.push_back(std::move(tile));
    }
    return settings;
  }
  settings.push_back({{"rows_per_step", 8}, {"cols_per_program", 128}, {"num_warps", 4}});
  settings.push_back({{"rows_per_step", 4}, {"cols_per_program", 256}, {"num_warps", 4}});
  return settings;
}

class NormDim final : public Recipe {
 public:
  std::string_view name() const override { return "norm_dim"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_norm(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
    return match.params.value("last", false) ? row_settings(match) : middle_settings(match);
  }

  KnobSpace knobs(const Match& match, const nlohmann::json& settings) const override {
    if (match.params.value("last", false)) return row_knobs(true);
    if (settings.value("rows_per_step", 1L) != 0) return walking_tile_knobs();
    // The whole dimension in registers: norm_dim.py holds at most 32768 elements.
    return {{{"cols_per_program", 1, 256}, {"num_warps", 1, 16}},
            {"cols_per_program"},
            std::max<long>(1, 32768 / next_power_of_two(match.params.value("size", 1L)))};
  }
};

}  // namespace

std::unique_ptr<Proposer> make_norm_dim() {
  return std::make_unique<NormDim>();
}

}  // namespace kernelopt::propose
