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

// L2 normalization as torch.norm(x, p=2, dim, keepdim=True) decomposes on the GPU:
// pow(x, 2), sum(pow, [dim], True), pow(sum, 0.5), div(x, pow).
std::optional<Match> match_l2_by_powers(const inductor::GraphFragment& fragment,
                                        const std::multiset<std::string>& targets) {
  static const std::string power = "torch.ops.aten.pow.Tensor_Scalar";
  static const std::string sum = "torch.ops.aten.sum.dim_IntList";
  static const std::string div = "torch.ops.aten.div.Tensor";
  if (targets != std::multiset<std::string>{power, power, sum, div}) return std::nullopt;
  const inductor::FragmentNode* square = nullptr;
  const inductor::FragmentNode* total = nullptr;
  const inductor::FragmentNode* root = nullptr;
  for (const auto& node : fragment.nodes) {
    if (node.target == power && node.args.size() == 2) {
      if (node.args[1] == "2" || node.args[1] == "2.0") square = &node;
      if (node.args[1] == "0.5") root = &node;
    }
    if (node.target == sum) total = &node;
  }
  if (square == nullptr || total == nullptr || root == nullptr || total->args.size() < 3) {
    return std::nullopt;
  }
  if (referenced(total->args[0]) != square->name || referenced(root->args[0]) != total->name ||
      total->args[2] != "True") {
    return std::nullopt;
  }
  const inductor::FragmentNode* input = first_input(fragment, *square);
  if (input == nullptr || !float_dtype(input->dtype)) return std::nullopt;
  const long rank = static_cast<long>(input->shape.size());
  if (rank < 1 || input->stride.size() != input->shape.size()) return std::nullopt;
  if (!is_last_dim(total->args[1], rank) || !contiguous_after(*input, -1)) return std::nullopt;
  return Match{"row_two_pass", row_params("l2_normalize", *input),
               fmt::format("l2_normalize over the last dim of {}[{}] (pow, sum, pow 0.5, div)",
                           input->dtype, fmt::join(input->shape, ", "))};
}

// L1 normalization, x / sum(abs(x), [last], keepdim=True) (or the mean of abs(x)): abs, sum or
// mean over the last dimension with keepdim, div(x, that).
std::optional<Match> match_l1(const inductor::GraphFragment& fragment,
                              const std::multiset<std::string>& targets) {
  static const std::string abs = "torch.ops.aten.abs.default";
  static const std::string sum = "torch.ops.aten.sum.dim_IntList";
  static const std::string mean = "torch.ops.aten.mean.dim";
  static const std::string div = "torch.ops.aten.div.Tensor";
  const bool by_sum = targets == std::multiset<std::string>{abs, sum, div};
  if (!by_sum && targets != std::multiset<std::string>{abs, mean, div}) return std::nullopt;
  const inductor::FragmentNode* magnitude = nullptr;
  const inductor::FragmentNode* total = nullptr;
  const inductor::FragmentNode* quotient = nullptr;
  for (const auto& node : fragment.nodes) {
    if (node.target == abs) magnitude = &node;
    if (node.target == sum || node.target == mean) total = &node;
    if (node.target == div) quotient = &node;
  }
  if (total->args.size() < 3 || total->args[2] != "True" || quotient->args.size() != 2 ||
      referenced(total->args[0]) != magnitude->name ||
      referenced(quotient->args[1]) != total->name ||
      referenced(quotient->args[0]) != referenced(magnitude->args.at(0))) {
    return std::nullopt;
  }
  const inductor::FragmentNode* input = first_input(fragment, *magnitude);
  if (input == nullptr || !float_dtype(input->dtype)) return std::nullopt;
  const long rank = static_cast<long>(input->shape.size());
  if (rank < 1 || input->stride.size() != input->shape.size()) return std::nullopt;
  if (!is_last_dim(total->args[1], rank) || !contiguous_after(*input, -1)) return std::nullopt;
  const char* op = by_sum ? "l1_normalize" : "l1_mean_normalize";
  return Match{"row_two_pass", row_params(op, *input),
               fmt::format("{} over the last dim of {}[{}] (abs, {}, div)", op, input->dtype,
                           fmt::join(input->shape, ", "), by_sum ? "sum" : "mean")};
}

}  // namespace

std::optional<Match> match_row_two_pass(const inductor::OutputCode& code,
                                        const analysis::DispatchMap& map,
                                        const analysis::Segment& segment) {
  const auto fragment = single_fragment(code, map, segment);
  if (!fragment) return std::nullopt;
  std::multiset<std::string> targets;
  for (const auto& node : fragment->nodes) {
    if (node.op == "call_function" && !is_getitem(node)) targets.insert(node.target);
  }

  // The node sets Inductor's decompositions give (the reduction first: it names the input and dim).
  struct Form {
    const char* op;
    std::multiset<std::string> targets;
  };

  static const std::string online = "torch.ops.prims.prepare_softmax_online.default";
  static const std::string amax = "torch.ops.aten.amax.default";
  static const std::string norm = "torch.ops.aten.linalg_vector_norm.default";
  static const std::string sub = "torch.ops.aten.sub.Tensor";
  static const std::string exp = "torch.ops.aten.exp.default";
  static const std::string sum = "torch.ops.aten.sum.dim_IntList";
  static const std::string div = "torch.ops.aten.div.Tensor";
  static const std::string log = "torch.ops.aten.log.default";
  static const std::vector<std::pair<Form, std::string>> forms = {
      {{"softmax", {online, sub, exp, div}}, online},
      {{"softmax", {amax, sub, exp, sum, div}}, amax},
      {{"log_softmax", {online, sub, sub, log}}, online},
      {{"log_softmax", {amax, sub, sub, exp, sum, log}}, amax},
      {{"l2_normalize", {norm, div}}, norm}};
  if (auto l2 = match_l2_by_powers(*fragment, targets)) return l2;
  if (auto l1 = match_l1(*fragment, targets)) return l1;
  for (const auto& [form, reducer] : forms) {
    if (targets != form.targets) continue;
    const inductor::FragmentNode* reduction = nullptr;
    for (const auto& node : fragment->nodes) {
      if (node.target == reducer) reduction = &node;
    }
    if (reduction == nullptr) return std::nullopt;
    const inductor::FragmentNode* input = first_input(*fragment, *reduction);
    if (input == nullptr || !float_dtype(input->dtype)) return std::nullopt;
    const long rank = static_cast<long>(input->shape.size());
    if (rank < 1 || input->stride.size() != input->shape.size()) return std::nullopt;
    if (!contiguous_after(*input, -1)) return std::nullopt;  // the whole input, row-major
    const std::size_t dim_arg = reducer == norm ? 2 : 1;     // norm(x, ord, dim, keepdim)
    if (reduction->args.size() <= dim_arg || !is_last_dim(reduction->args[dim_arg], rank)) {
      return std::nullopt;
    }
    if (reducer == norm) {
      const std::string& ord = reduction->args[1];
      const bool keepdim = (reduction->args.size() > 3 && reduction->args[3] == "True") ||
                           std::find(reduction->kwargs.begin(), reduction->kwargs.end(),
                                     "keepdim: True") != reduction->kwargs.end();
      if ((ord != "2" && ord != "2.0") || !keepdim) return std::nullopt;
    }
    return Match{"row_two_pass", row_params(form.op, *input),
                 fmt::format("{} over the last dim of {}[{}] ({})", form.op, input->dtype,
                             fmt::join(input->shape, ", "), reduction->target)};
  }
  return std::nullopt;
}

namespace {

class RowTwoPass final : public Recipe {
 public:
  std::string_view name() const override { return "row_two_pass"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_row_two_pass(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
    return row_settings(match);
  }

  KnobSpace knobs(const Match& /*match*/, const nlohmann::json& /*settings*/) const override {
    return row_knobs(true);
  }
};

}  // namespace

std::vector<nlohmann::json> row_settings(const Match& match) {
  // The winners of 54 settings on the H200 for L2 normalization (4096 x 16 warps, one program
  // per row, backward second pass) and softmax (1024 x 16 warps, forward), and the best
  // persistent setting (results/recipes/).
  std::vector<nlohmann::json> settings = {
      {{"block", 4096}, {"num_warps", 16}, {"programs_per_sm", 0}, {"reverse", 1}},
      {{"block", 1024}, {"num_warps", 16}, {"programs_per_sm", 0}, {"reverse", 0}},
      {{"block", 4096}, {"num_warps", 8}, {"programs_per_sm", 2}, {"reverse", 1}}};
  // Rows so long that a row per program overflows L2 (or of unknown length): rows split among
  // programs, as many as keep the rows in flight within half of L2 ("split": 0, the recipe
  // computes it from the GPU's L2 and SM count). Four programs per SM: with one or two, the
  // split ran at 0.52-0.87x of Inductor's softmax on 4096 x 393216 (too few loads in flight).
  if (match.params.value("row_bytes", kSplitRowBytes) >= kSplitRowBytes) {
    settings.push_back(
        {{"block", 4096}, {"num_warps", 8}, {"programs_per_sm", 4}, {"reverse", 1}, {"split", 0}});
  }
  return settings;
}

KnobSpace row_knobs(bool persistent_toggle) {
  KnobSpace space{{{"block", 256, 16384},
                   {"num_warps", 1, 32},
                   {"programs_per_sm", 1, 4},
                   {"split", 2, 256},
                   {"reverse", 0, 1, Knob::Kind::kToggle, 1}},
                  {"block"},
                  16384};
  if (persistent_toggle) {  // one program per row <-> one per SM
    space.knobs.push_back({"programs_per_sm", 0, 1, Knob::Kind::kToggle, 0});
  }
  return space;
}

KnobSpace walking_tile_knobs() {
  return {{{"rows_per_step", 1, 32}, {"cols_per_program", 16, 2048}, {"num_warps", 1, 16}},
          {"rows_per_step", "cols_per_program"},
          8192};
}

std::unique_ptr<Proposer> make_row_two_pass() {
  return std::make_unique<RowTwoPass>();
}

}  // namespace kernelopt::propose
