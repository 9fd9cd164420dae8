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

std::optional<Match> match_reduce_dim(const inductor::OutputCode& code,
                                      const analysis::DispatchMap& map,
                                      const analysis::Segment& segment) {
  static const std::map<std::string, std::string> ops = {
      {"torch.ops.aten.argmax.default", "argmax"}, {"torch.ops.aten.argmin.default", "argmin"},
      {"torch.ops.aten.amax.default", "max"},      {"torch.ops.aten.amin.default", "min"},
      {"torch.ops.aten.max.dim", "max"},           {"torch.ops.aten.min.dim", "min"},
      {"torch.ops.aten.sum.dim_IntList", "sum"},   {"torch.ops.aten.mean.dim", "mean"},
      {"torch.ops.aten.prod.dim_int", "prod"}};
  const auto fragment = single_fragment(code, map, segment);
  if (!fragment) return std::nullopt;
  const inductor::FragmentNode* reduction = nullptr;
  for (const auto& node : fragment->nodes) {
    if (node.op != "call_function" || is_getitem(node)) continue;  // max.dim returns a pair
    if (reduction != nullptr || ops.count(node.target) == 0) return std::nullopt;
    reduction = &node;
  }
  if (reduction == nullptr || reduction->args.size() < 2) return std::nullopt;
  const inductor::FragmentNode* input = first_input(*fragment, *reduction);
  if (input == nullptr || !float_dtype(input->dtype)) return std::nullopt;
  auto dim = integer(reduction->args[1]);
  const long rank = static_cast<long>(input->shape.size());
  if (!dim || rank < 2 || input->stride.size() != input->shape.size()) return std::nullopt;
  if (*dim < 0) *dim += rank;
  if (*dim < 0 || *dim >= rank - 1 || !contiguous_after(*input, *dim)) return std::nullopt;
  nlohmann::json params = {{"op", ops.at(reduction->target)}, {"dim", *dim}};
  // The contiguous columns after the reduced dimension, where the sizes are literals: few of them
  // get narrower tiles.
  if (const long columns = columns_after(*input, *dim); columns > 0) params["columns"] = columns;
  return Match{"reduce_dim", params,
               fmt::format("{} over dim {} of {}[{}]", reduction->target, *dim, input->dtype,
                           fmt::join(input->shape, ", "))};
}

namespace {

class ReduceDim final : public Recipe {
 public:
  std::string_view name() const override { return "reduce_dim"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_reduce_dim(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
    // Fewer than 128 columns: tiles as wide as the columns (a power of two, at least 16) and as
    // many rows a step as make 512 and 1024 elements (at most 32).
    const std::int64_t columns = match.params.value("columns", std::int64_t{0});
    if (columns > 0 && columns < 128) return narrow_column_tiles(columns);
    // Arg-reductions won with 8 x 128 tiles, plain ones with 2 x 1024 (H200).
    return {{{"rows_per_step", 8}, {"cols_per_program", 128}, {"num_warps", 4}},
            {{"rows_per_step", 8}, {"cols_per_program", 256}, {"num_warps", 4}},
            {{"rows_per_step", 2}, {"cols_per_program", 1024}, {"num_warps", 8}}};
  }

  KnobSpace knobs(const Match& /*match*/, const nlohmann::json& /*settings*/) const override {
    return walking_tile_knobs();
  }
};

}  // namespace

std::unique_ptr<Proposer> make_reduce_dim() {
  return std::make_unique<ReduceDim>();
}

}  // namespace kernelopt::propose
