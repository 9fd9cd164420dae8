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

std::optional<Match> match_cross_entropy(const inductor::OutputCode& code,
                                         const analysis::DispatchMap& map,
                                         const analysis::Segment& segment) {
  static const std::string online = "torch.ops.prims.prepare_softmax_online.default";
  static const std::string amax = "torch.ops.aten.amax.default";
  static const std::string ne = "torch.ops.aten.ne.Scalar";
  static const std::string gather = "torch.ops.aten.gather.default";
  static const std::string total = "torch.ops.aten.sum.default";
  static const std::string div = "torch.ops.aten.div.Tensor";
  static const std::set<std::string> allowed = {online,
                                                amax,
                                                ne,
                                                gather,
                                                total,
                                                div,
                                                "torch.ops.aten.exp.default",
                                                "torch.ops.aten.sum.dim_IntList",
                                                "torch.ops.aten.sub.Tensor",
                                                "torch.ops.aten.log.default",
                                                "torch.ops.aten.full.default",
                                                "torch.ops.aten.where.self",
                                                "torch.ops.aten.unsqueeze.default",
                                                "torch.ops.aten.squeeze.dim",
                                                "torch.ops.aten.neg.default",
                                                "torch.ops.prims.convert_element_type.default"};
  const auto found = all_fragments(code, map, segment);
  if (!found) return std::nullopt;
  const std::vector<inductor::GraphFragment>& fragments = *found;
  const inductor::FragmentNode* softmax = nullptr;
  const inductor::FragmentNode* not_ignored = nullptr;
  const inductor::GraphFragment* softmax_fragment = nullptr;
  const inductor::GraphFragment* target_fragment = nullptr;
  bool has_gather = false;
  bool has_total = false;
  bool has_div = false;
  for (const auto& fragment : fragments) {
    for (const auto& node : fragment.nodes) {
      if (node.op != "call_function" || is_getitem(node)) continue;
      if (allowed.count(node.target) == 0) return std::nullopt;
      if ((node.target == online || node.target == amax) && softmax == nullptr) {
        softmax = &node;
        softmax_fragment = &fragment;
      }
      if (node.target == ne && not_ignored == nullptr) {
        not_ignored = &node;
        target_fragment = &fragment;
      }
      has_gather |= node.target == gather;
      has_total |= node.target == total;
      has_div |= node.target == div;
    }
  }
  if (softmax == nullptr || not_ignored == nullptr || !has_gather || !has_total) {
    return std::nullopt;
  }
  const inductor::FragmentNode* logits = first_input(*softmax_fragment, *softmax);
  const inductor::FragmentNode* target = first_input(*target_fragment, *not_ignored);
  if (logits == nullptr || target == nullptr || !float_dtype(logits->dtype)) return std::nullopt;
  if (target->dtype != "i64" && target->dtype != "i32") return std::nullopt;
  if (logits->shape.size() != 2 || logits->stride.size() != 2 || target->shape.size() != 1) {
    return std::nullopt;
  }
  const auto dim = softmax->args.size() > 1 ? integer(softmax->args[1]) : std::nullopt;
  const auto ignore = not_ignored->args.size() > 1 ? integer(not_ignored->args[1]) : std::nullopt;
  if (!dim || (*dim != 1 && *dim != -1) || !ignore || !contiguous_after(*logits, 0)) {
    return std::nullopt;
  }
  const std::string reduction = has_div ? "mean" : "sum";
  return Match{
      "cross_entropy",
      {{"reduction", reduction}, {"ignore_index", *ignore}},
      fmt::format("cross-entropy ({}) of {}[{}] logits, {} targets, ignore_index {}", reduction,
                  logits->dtype, fmt::join(logits->shape, ", "), target->dtype, *ignore)};
}

namespace {

class CrossEntropy final : public Recipe {
 public:
  std::string_view name() const override { return "cross_entropy"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_cross_entropy(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& /*match*/) const override {
    // Two whole rows per program and 8 warps won for 32768 x 4096 on the H200.
    return {{{"rows", 2}, {"num_warps", 8}},
            {{"rows", 1}, {"num_warps", 8}},
            {{"rows", 4}, {"num_warps", 16}}};
  }

  KnobSpace knobs(const Match& /*match*/, const nlohmann::json& /*settings*/) const override {
    return {{{"rows", 1, 8}, {"num_warps", 1, 32}}, {}, 16384};
  }
};

}  // namespace

std::unique_ptr<Proposer> make_cross_entropy() {
  return std::make_unique<CrossEntropy>();
}

}  // namespace kernelopt::propose
