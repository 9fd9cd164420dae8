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

namespace kernelopt::propose {

namespace {

// The node's literal sizes, or nullopt.
std::optional<std::vector<long>> literal_shape(const inductor::FragmentNode& node) {
  std::vector<long> sizes;
  for (const auto& size : node.shape) {
    const auto value = integer(size);
    if (!value) return std::nullopt;
    sizes.push_back(*value);
  }
  return sizes;
}

long product(std::vector<long>::const_iterator first, std::vector<long>::const_iterator last) {
  return std::accumulate(first, last, 1L, std::multiplies<>());
}

}  // namespace

std::optional<Match> match_group_norm(const inductor::OutputCode& code,
                                      const analysis::DispatchMap& map,
                                      const analysis::Segment& segment) {
  static const std::string reshape = "torch.ops.aten.reshape.default";
  static const std::string view_op = "torch.ops.aten.view.default";
  static const std::string unsqueeze = "torch.ops.aten.unsqueeze.default";
  static const std::string repeat = "torch.ops.aten.repeat.default";
  static const std::string var_mean = "torch.ops.aten.var_mean.correction";
  static const std::set<std::string> allowed = {reshape,
                                                view_op,
                                                var_mean,
                                                unsqueeze,
                                                repeat,
                                                "torch.ops.aten.squeeze.dims",
                                                "torch.ops.aten.sub.Tensor",
                                                "torch.ops.aten.add.Tensor",
                                                "torch.ops.aten.rsqrt.default",
                                                "torch.ops.aten.mul.Tensor",
                                                "torch.ops.prims.convert_element_type.default"};
  if (segment.outputs.size() != 1) return std::nullopt;  // mean / rstd also kept: training
  const auto fragments = all_fragments(code, map, segment);
  if (!fragments) return std::nullopt;
  const auto index = index_nodes(*fragments, allowed);
  if (!index) return std::nullopt;
  const std::vector<const inductor::FragmentNode*>& calls = index->calls;
  const auto arg_node = [&](const std::string& arg) { return index->arg(arg); };
  // A placeholder reached through unsqueezes and a repeat (a weight or bias), or nullptr.
  const auto affine_input = [&](const std::string& arg) -> const inductor::FragmentNode* {
    const inductor::FragmentNode* node = arg_node(arg);
    while (node != nullptr && (node->target == unsqueeze || node->target == repeat) &&
           !node->args.empty()) {
      node = arg_node(node->args[0]);
    }
    return node != nullptr && node->op == "placeholder" ? node : nullptr;
  };
  const inductor::FragmentNode* stats = nullptr;
  bool has_rsqrt = false;
  for (const auto* node : calls) {
    if (node->target == var_mean) {
      if (stats != nullptr) return std::nullopt;
      stats = node;
    }
    has_rsqrt |= node->target == "torch.ops.aten.rsqrt.default";
  }
  if (stats == nullptr || !has_rsqrt || stats->args.size() != 2 ||
      std::find(stats->kwargs.begin(), stats->kwargs.end(), "correction: 0") ==
          stats->kwargs.end()) {
    return std::nullopt;
  }
  const auto dims = integer_list(stats->args[1]);
  const inductor::FragmentNode* source = arg_node(stats->args[0]);
  if (!dims || dims->empty() || source == nullptr) return std::nullopt;
  // x is the statistics' input, or the input of the reshape they read.
  const bool reshaped = source->target == reshape || source->target == view_op;
  const inductor::FragmentNode* x = reshaped && source->args.size() == 2
                                        ? arg_node(source->args[0])
                                        : (source->op == "placeholder" ? source : nullptr);
  if (x == nullptr || x->op != "placeholder" || !float_dtype(x->dtype) ||
      x->stride.size() != x->shape.size() || !contiguous_after(*x, -1)) {
    return std::nullopt;
  }
  const auto sizes = literal_shape(*x);
  if (!sizes || sizes->size() < 2) return std::nullopt;
  const long rank = static_cast<long>(sizes->size());
  // The three forms: group [N, G, C / G, prod(spatial)] over [2, 3]; instance [1, N * C,
  // *spatial] over [0, 2, ...]; layer: x itself over its trailing dims.
  std::string kind;
  long groups = 0;
  long row = 0;  // elements per row (a group, an instance, a layer)
  std::vector<long> affine_shape;
  if (reshaped) {
    const auto grouped = integer_list(source->args[1]);
    if (!grouped || rank < 3) return std::nullopt;
    const long spatial = product(sizes->begin() + 2, sizes->end());
    std::vector<long> instance_dims = {0};
    for (long d = 2; d < rank; ++d) {
      instance_dims.push_back(d);
    }
    if (grouped->size() == 4 && *dims == std::vector<long>{2, 3} && (*grouped)[0] == (*sizes)[0] &&
        (*grouped)[1] > 0 && (*grouped)[1] * (*grouped)[2] == (*sizes)[1] &&
        (*grouped)[3] == spatial) {
      kind = "group";
      groups = (*grouped)[1];
      row = (*grouped)[2] * spatial;
    } else if (static_cast<long>(grouped->size()) == rank && (*grouped)[0] == 1 &&
               (*grouped)[1] == (*sizes)[0] * (*sizes)[1] &&
               std::equal(grouped->begin() + 2, grouped->end(), sizes->begin() + 2) &&
               *dims == instance_dims) {
      kind = "instance";
      groups = (*sizes)[1];
      row = spatial;
    } else {
      return std::nullopt;
    }
    affine_shape = {(*sizes)[1]};
  } else {
    const long first = dims->front();
    for (std::size_t i = 0; i < dims->size(); ++i) {
      if ((*dims)[i] != first + static_cast<long>(i)) return std::nullopt;
    }
    if (first < 1 || dims->back() != rank - 1) return std::nullopt;
    kind = "layer";
    groups = rank - first;  // for a layer norm: how many trailing dims
    row = product(sizes->begin() + first, sizes->end());
    affine_shape.assign(sizes->begin() + first, sizes->end());
  }
  // eps: add(variance, literal); weight: mul(_, parameter); bias: add(_, parameter).
  std::optional<std::string> eps;
  const inductor::FragmentNode* weight = nullptr;
  const inductor::FragmentNode* bias = nullptr;
  for (const auto* node : calls) {
    if (node->args.size() != 2) continue;
    const inductor::FragmentNode* param = affine_input(node->args[1]);
    if (param != nullptr && param->name == x->name) param = nullptr;
    if (node->target == "torch.ops.aten.add.Tensor") {
      if (param != nullptr) {
        bias = param;
      } else if (node->args[1].find('%') == std::string::npos) {
        eps = node->args[1];
      }
    }
    if (node->target == "torch.ops.aten.mul.Tensor" && param != nullptr) weight = param;
  }
  for (const auto* p : {weight, bias}) {
    if (p != nullptr && (literal_shape(*p) != affine_shape || !float_dtype(p->dtype) ||
                         !contiguous_after(*p, -1))) {
      return std::nullopt;
    }
  }
  if (!eps) return std::nullopt;
  nlohmann::json params = {{"kind", kind},
                           {"x", x->name},
                           {"weight", weight != nullptr ? nlohmann::json(weight->name) : nullptr},
                           {"bias", bias != nullptr ? nlohmann::json(bias->name) : nullptr},
                           {kind == "layer" ? "dims" : "groups", groups},
                           {"eps", *eps},
                           {"row_bytes", row * element_bytes(x->dtype)}};
  return Match{"group_norm", params,
               fmt::format("{} norm ({} {}, eps {}{}{}) of {}[{}]", kind, groups,
                           kind == "layer" ? "trailing dims" : "groups", *eps,
                           weight != nullptr ? ", weight" : "", bias != nullptr ? ", bias" : "",
                           x->dtype, fmt::join(x->shape, ", "))};
}

namespace {

class GroupNorm final : public Recipe {
 public:
  std::string_view name() const override { return "group_norm"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_group_norm(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& /*match*/) const override {
    // Groups split among programs as row_two_pass's long rows (4 per SM: 1.05x on L1/23's
    // softmax rows on the H200), a wider variant, and a group per program.
    return {
        {{"block", 4096}, {"num_warps", 8}, {"programs_per_sm", 4}, {"reverse", 1}, {"split", 0}},
        {{"block", 8192}, {"num_warps", 16}, {"programs_per_sm", 2}, {"reverse", 1}, {"split", 0}},
        {{"block", 2048}, {"num_warps", 8}, {"programs_per_sm", 4}, {"reverse", 1}, {"split", 1}}};
  }

  KnobSpace knobs(const Match& /*match*/, const nlohmann::json& /*settings*/) const override {
    return row_knobs(false);
  }
};

}  // namespace

std::unique_ptr<Proposer> make_group_norm() {
  return std::make_unique<GroupNorm>();
}

}  // namespace kernelopt::propose
