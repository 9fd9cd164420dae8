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
#include "kernelopt/propose/transform/buffer_names.hpp"

namespace kernelopt::propose {

namespace {

// A literal sequence of integers between `open` and `close`, as Inductor writes sizes and
// strides ("(8192, 8192)", "(4, )") and a fragment writes a shape ("[2048, 256]").
bool int_sequence(const std::string& text, char open, char close) {
  if (text.size() < 2 || text.front() != open || text.back() != close) return false;
  return std::all_of(text.begin() + 1, text.end() - 1, [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == ',' || c == ' ';
  });
}

// One operand of an extern product: a root buffer the launch reads, as is (under its own name or
// a reuse's) or as Inductor's reinterpret_tensor view of it (literal sizes, strides and offset).
std::optional<nlohmann::json> product_operand(const std::string& arg,
                                              const inductor::OutputCode& code,
                                              const analysis::Launch& launch) {
  const auto root = [&](const std::string& name) -> std::optional<std::string> {
    auto r = reused_root(code, launch.step, name);
    if (!r || std::find(launch.reads.begin(), launch.reads.end(), *r) == launch.reads.end()) {
      return std::nullopt;
    }
    return r;
  };
  if (identifier(arg)) {
    const auto name = root(arg);
    if (!name) return std::nullopt;
    return nlohmann::json{{"name", *name}, {"view", nullptr}};
  }
  const auto view = inductor::detail::call_args(arg, "reinterpret_tensor");
  if (!view || view->size() != 4 || !identifier((*view)[0]) ||
      !int_sequence((*view)[1], '(', ')') || !int_sequence((*view)[2], '(', ')') ||
      !integer((*view)[3])) {
    return std::nullopt;
  }
  const auto name = root((*view)[0]);
  if (!name) return std::nullopt;
  return nlohmann::json{
      {"name", *name},
      {"view", {{"size", (*view)[1]}, {"stride", (*view)[2]}, {"offset", *integer((*view)[3])}}}};
}

}  // namespace

namespace {

// The aten product a fragment node computes ("mm", "bmm", "addmm"), or "".
std::string product_op(const inductor::FragmentNode& node) {
  for (const char* op : {"mm", "bmm", "addmm"}) {
    if (node.target == fmt::format("torch.ops.aten.{}.default", op)) return op;
  }
  return "";
}

bool is_reshape(const inductor::FragmentNode& node) {
  return node.target == "torch.ops.aten.reshape.default" ||
         node.target == "torch.ops.aten.view.default" ||
         node.target == "torch.ops.aten._unsafe_view.default";
}

// gemm on a Triton template (max-autotune's own Triton matrix product): a one-launch segment
// whose fragment is one mm / bmm / addmm (no alpha or beta) of placeholders the launch reads, or
// of reshapes of them, optionally reshaped once more as the returned node.
std::optional<Match> match_gemm_template(const inductor::OutputCode& code,
                                         const analysis::DispatchMap& map,
                                         const analysis::Segment& segment) {
  const auto fragment = single_fragment(code, map, segment);
  if (!fragment || fragment->returns.size() != 1) return std::nullopt;
  const analysis::Launch& launch = map.launches[segment.launches.front()];
  if (launch.writes.size() != 1) return std::nullopt;
  const inductor::FragmentNode* product = nullptr;
  for (const auto& node : fragment->nodes) {
    if (product_op(node).empty()) continue;
    if (product != nullptr) return std::nullopt;  // two products: not one GEMM
    product = &node;
  }
  if (product == nullptr || !float_dtype(product->dtype) || !product->kwargs.empty()) {
    return std::nullopt;
  }
  const auto placeholder = [&](const std::string& arg) -> const inductor::FragmentNode* {
    const auto* node = inductor::find_node(*fragment, referenced(arg));
    if (node == nullptr || node->op != "placeholder" ||
        std::find(launch.reads.begin(), launch.reads.end(), node->name) == launch.reads.end()) {
      return nullptr;
    }
    return node;
  };
  std::set<std::string> used = {product->name};
  nlohmann::json operands = nlohmann::json::array();
  for (const std::string& arg : product->args) {
    if (const auto* input = placeholder(arg)) {
      operands.push_back({{"name", input->name}, {"view", nullptr}});
      continue;
    }
    const auto* node = inductor::find_node(*fragment, referenced(arg));
    if (node == nullptr || !is_reshape(*node) || node->args.size() != 2 ||
        !int_sequence(node->args[1], '[', ']')) {
      return std::nullopt;
    }
    const auto* input = placeholder(node->args[0]);
    if (input == nullptr) return std::nullopt;
    used.insert(node->name);
    operands.push_back({{"name", input->name}, {"view", nullptr}, {"reshape", node->args[1]}});
  }
  if (operands.size() != (product_op(*product) == "addmm" ? 3U : 2U)) return std::nullopt;
  // Returned: the product, or one reshape of it.
  const auto* returned = inductor::find_node(*fragment, fragment->returns.front());
  if (returned == nullptr) return std::nullopt;
  if (returned != product) {
    if (!is_reshape(*returned) || returned->args.empty() ||
        referenced(returned->args[0]) != product->name) {
      return std::nullopt;
    }
    used.insert(returned->name);
  }
  for (const auto& node : fragment->nodes) {  // nothing else computed
    if (node.op != "placeholder" && used.count(node.name) == 0) return std::nullopt;
  }
  for (const auto& size : product->shape) {
    if (!integer(size)) return std::nullopt;
  }
  const std::string shape = fmt::format("{}", fmt::join(product->shape, ", "));
  nlohmann::json params = {{"op", product_op(*product)},
                           {"operands", operands},
                           {"alpha", "1"},
                           {"beta", "1"},
                           {"out", launch.writes.front()},
                           {"out_shape", "(" + shape + ")"}};
  return Match{
      "gemm", params,
      fmt::format("Triton template {} into {}[{}]", product_op(*product), product->dtype, shape)};
}

}  // namespace

std::optional<Match> match_gemm(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment) {
  if (!segment.extern_call) return match_gemm_template(code, map, segment);
  if (segment.launches.size() != 1) return std::nullopt;

  const analysis::Launch& launch = map.launches[segment.launches.front()];
  const inductor::Step& step = code.steps[static_cast<std::size_t>(launch.step)];
  if (!analysis::replaceable_extern(step)) return std::nullopt;
  const bool with_bias = step.target == "addmm" || step.target == "baddbmm";
  nlohmann::json params = {{"op", step.target},
                           {"operands", nlohmann::json::array()},
                           {"alpha", "1"},
                           {"beta", "1"},
                           {"out", nullptr}};
  for (const std::string& arg : step.args) {
    const auto eq = arg.find('=');
    const bool keyword = eq != std::string::npos && identifier(arg.substr(0, eq));
    if (!keyword) {
      auto operand = product_operand(arg, code, launch);
      if (!operand) return std::nullopt;
      params["operands"].push_back(std::move(*operand));
      continue;
    }
    const std::string key = arg.substr(0, eq);
    const std::string value = arg.substr(eq + 1);
    if (key == "out" && identifier(value) && launch.writes == std::vector<std::string>{value}) {
      params["out"] = value;
    } else if ((key == "alpha" || key == "beta") && number(value)) {
      params[key] = value;
    } else {
      return std::nullopt;
    }
  }
  if (params["out"].is_null() || params["operands"].size() != (with_bias ? 3U : 2U)) {
    return std::nullopt;
  }
  const inductor::Buffer* out = code.buffer(params["out"].get<std::string>());
  if (out == nullptr || !out->shape_known ||
      (out->dtype != "torch.float32" && out->dtype != "torch.float16" &&
       out->dtype != "torch.bfloat16")) {
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (const auto& operand : params["operands"]) {
    names.push_back((operand.at("view").is_null() ? "" : "view of ") +
                    operand.at("name").get<std::string>());
  }
  return Match{"gemm", params,
               fmt::format("extern {} into {}[{}] of {}", step.target, out->dtype.substr(6),
                           fmt::join(out->shape, ", "), fmt::join(names, ", "))};
}

namespace {

class Gemm final : public Recipe {
 public:
  std::string_view name() const override { return "gemm"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_gemm(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& /*match*/) const override {
    // Tiles of the usual Triton GEMM configurations: large square tiles, and two rectangles.
    const auto tile = [](int m, int n, int warps, int stages) {
      return nlohmann::json{{"block_m", m}, {"block_n", n},       {"block_k", 32},
                            {"group_m", 8}, {"num_warps", warps}, {"num_stages", stages}};
    };
    return {tile(128, 128, 8, 3), tile(64, 128, 4, 4), tile(128, 64, 4, 4)};
  }

  KnobSpace knobs(const Match& /*match*/, const nlohmann::json& /*settings*/) const override {
    return {{{"block_m", 16, 256},
             {"block_n", 16, 256},
             {"block_k", 16, 128},
             {"group_m", 1, 16},
             {"num_warps", 1, 16},
             {"num_stages", 1, 6}},
            {"block_m", "block_n"},
            32768};
  }
};

}  // namespace

std::unique_ptr<Proposer> make_gemm() {
  return std::make_unique<Gemm>();
}

}  // namespace kernelopt::propose
