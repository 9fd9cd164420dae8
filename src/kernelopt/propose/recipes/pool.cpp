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

std::optional<Match> match_pool(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment) {
  static const std::set<std::string> max_pools = {
      "torch.ops.prims._low_memory_max_pool_with_offsets.default",
      "torch.ops.aten.max_pool2d_with_indices.default",
      "torch.ops.aten.max_pool3d_with_indices.default"};
  static const std::set<std::string> avg_pools = {"torch.ops.aten.avg_pool2d.default",
                                                  "torch.ops.aten.avg_pool3d.default"};
  static const std::string unsqueeze = "torch.ops.aten.unsqueeze.default";
  const auto fragment = single_fragment(code, map, segment);
  if (!fragment) return std::nullopt;
  const inductor::FragmentNode* pool = nullptr;
  const inductor::FragmentNode* lift = nullptr;
  for (const auto& node : fragment->nodes) {
    if (node.op != "call_function" || is_getitem(node)) continue;
    if ((max_pools.count(node.target) != 0 || avg_pools.count(node.target) != 0) &&
        pool == nullptr) {
      pool = &node;
    } else if (node.target == unsqueeze && lift == nullptr) {
      lift = &node;
    } else {
      return std::nullopt;
    }
  }
  if (pool == nullptr || pool->args.size() < 2) return std::nullopt;
  const inductor::FragmentNode* x = nullptr;
  std::optional<long> lift_dim;
  if (lift != nullptr) {
    if (referenced(pool->args[0]) != lift->name || lift->args.size() != 2) return std::nullopt;
    x = first_input(*fragment, *lift);
    lift_dim = integer(lift->args[1]);
    if (!lift_dim) return std::nullopt;
  } else {
    x = first_input(*fragment, *pool);
  }
  if (x == nullptr || !float_dtype(x->dtype) || x->stride.size() != x->shape.size() ||
      !contiguous_after(*x, -1)) {
    return std::nullopt;
  }
  const auto kernel = integer_list(pool->args[1]);
  if (!kernel || kernel->empty() || kernel->size() > 3) return std::nullopt;
  const std::size_t dims = kernel->size();
  const long rank = static_cast<long>(x->shape.size()) + (lift_dim ? 1 : 0);
  if (rank < static_cast<long>(dims) + 1) return std::nullopt;
  // Max: (x, kernel, stride, padding, dilation, ceil_mode); average: (x, kernel, stride, padding,
  // ceil_mode, count_include_pad, divisor_override). Defaults as in ATen (stride [] = the kernel).
  const bool avg = avg_pools.count(pool->target) != 0;
  const auto list_or = [&](std::size_t i, long fill) -> std::optional<std::vector<long>> {
    if (pool->args.size() <= i) return std::vector<long>(dims, fill);
    auto v = integer_list(pool->args[i]);
    if (!v) return std::nullopt;
    if (v->empty()) return std::vector<long>(dims, fill);
    if (v->size() == 1) v->resize(dims, v->front());
    if (v->size() != dims) return std::nullopt;
    return v;
  };
  auto stride = list_or(2, 0);
  const auto padding = list_or(3, 0);
  const auto dilation = avg ? std::optional(std::vector<long>(dims, 1)) : list_or(4, 1);
  if (!stride || !padding || !dilation) return std::nullopt;
  if (std::all_of(stride->begin(), stride->end(), [](long v) { return v == 0; })) stride = kernel;
  // A boolean argument at position i, or its default; nullopt when it is not a literal.
  const auto flag = [&](std::size_t i, bool fallback) -> std::optional<bool> {
    if (pool->args.size() <= i) return fallback;
    if (pool->args[i] != "True" && pool->args[i] != "False") return std::nullopt;
    return pool->args[i] == "True";
  };
  const auto ceil = flag(avg ? 4 : 5, false);
  const auto count_pad = flag(5, true);
  if (!ceil || (avg && !count_pad)) return std::nullopt;
  // The output's last dimension, as PyTorch sizes it: the starting settings fit their columns to
  // it (L1/43's rows of 62 filled a quarter of 256 columns).
  std::optional<long> columns;
  if (const auto width = integer(x->shape.back()); width && stride->back() > 0) {
    const long span = *width + 2 * padding->back() - dilation->back() * (kernel->back() - 1) - 1;
    columns = (span + (*ceil ? stride->back() - 1 : 0)) / stride->back() + 1;
    if (*ceil && (*columns - 1) * stride->back() >= *width + padding->back()) --*columns;
    if (span < 0 || *columns <= 0) return std::nullopt;
  }
  nlohmann::json params = {{"op", avg ? "avg" : "max"}, {"x", x->name},      {"unsqueeze", nullptr},
                           {"kernel", *kernel},         {"stride", *stride}, {"padding", *padding},
                           {"dilation", *dilation},     {"ceil_mode", *ceil}};
  if (columns) params["columns"] = *columns;
  if (lift_dim) params["unsqueeze"] = *lift_dim;
  if (avg) {
    params["count_include_pad"] = *count_pad;
    params["divisor_override"] = nullptr;
    if (pool->args.size() > 6 && pool->args[6] != "None") {
      const auto divisor = integer(pool->args[6]);
      if (!divisor || *divisor <= 0) return std::nullopt;
      params["divisor_override"] = *divisor;
    }
  }
  return Match{"pool", params,
               fmt::format("{} pool {}d, kernel [{}], of {}[{}]", avg ? "average" : "max", dims,
                           fmt::join(*kernel, ", "), x->dtype, fmt::join(x->shape, ", "))};
}

namespace {

class Pool final : public Recipe {
 public:
  std::string_view name() const override { return "pool"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_pool(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
    // Output rows x contiguous output columns per program: columns as many as the output's rows
    // have (a power of two, at most 1024), rows to 1024 and 2048 elements a program; then, for
    // rows of 256 columns or more, four rows of 256.
    const auto& p = match.params;
    const std::int64_t columns = p.value("columns", std::int64_t{256});
    const auto t = fitted_tiles(columns, {1024, 2048}, 64, 32, 1024);
    std::vector<nlohmann::json> settings = {
        {{"rows", t.at(0).first}, {"block", t.at(0).second}, {"num_warps", 4}},
        {{"rows", t.at(1).first}, {"block", t.at(1).second}, {"num_warps", 8}}};
    if (columns >= 256 && t.at(0).second != 256) {  // not twice where the first is 4 x 256
      settings.push_back({{"rows", 4}, {"block", 256}, {"num_warps", 4}});
    }
    // A max pool with stride 1 and a power-of-two window along the last dim: the running-max
    // form first (two loads an element instead of one a tap; pool.py's `sliding`), 256 and 1024
    // windows of each phase a program.
    const long last_kernel = p.at("kernel").back().get<long>();
    if (p.at("op") == "max" && p.at("stride").back().get<long>() == 1 && last_kernel >= 2 &&
        (last_kernel & (last_kernel - 1)) == 0) {
      settings.insert(settings.begin(),
                      {{{"rows", 1}, {"block", 256}, {"num_warps", 4}, {"sliding", 1}},
                       {{"rows", 1}, {"block", 1024}, {"num_warps", 8}, {"sliding", 1}}});
    }
    return settings;
  }

  KnobSpace knobs(const Match& /*match*/, const nlohmann::json& settings) const override {
    if (settings.value("sliding", 0) != 0) {  // one output row a program
      return {{{"block", 8, 4096}, {"num_warps", 1, 16}}, {}, 16384};
    }
    return {{{"rows", 1, 16}, {"block", 32, 2048}, {"num_warps", 1, 16}}, {"rows", "block"}, 8192};
  }
};

}  // namespace

std::unique_ptr<Proposer> make_pool() {
  return std::make_unique<Pool>();
}

}  // namespace kernelopt::propose
