#include "kernelopt/search/recipe_match.hpp"

#include <charconv>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/graph_fragment.hpp"

namespace kernelopt::search {

namespace {

std::optional<long> integer(std::string text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);  // a one-element dim list: "[1]"
  }
  long value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// Whether the dimensions after `dim` are one contiguous run (literal sizes and strides only).
bool contiguous_after(const inductor::FragmentNode& input, long dim) {
  long expected = 1;
  for (long d = static_cast<long>(input.shape.size()) - 1; d > dim; --d) {
    const auto size = integer(input.shape[d]);
    const auto stride = integer(input.stride[d]);
    if (!size || !stride) return false;
    if (*size != 1 && *stride != expected) return false;
    expected *= *size;
  }
  return true;
}

}  // namespace

std::optional<RecipeMatch> match_reduce_dim(const inductor::OutputCode& code,
                                            const analysis::DispatchMap& map,
                                            const analysis::Segment& segment) {
  static const std::map<std::string, std::string> ops = {
      {"torch.ops.aten.argmax.default", "argmax"}, {"torch.ops.aten.argmin.default", "argmin"},
      {"torch.ops.aten.amax.default", "max"},      {"torch.ops.aten.amin.default", "min"},
      {"torch.ops.aten.max.dim", "max"},           {"torch.ops.aten.min.dim", "min"},
      {"torch.ops.aten.sum.dim_IntList", "sum"}};
  if (segment.launches.size() != 1) return std::nullopt;
  const analysis::Launch& launch = map.launches[segment.launches[0]];
  const inductor::TritonKernel* kernel = nullptr;
  for (const auto& k : code.kernels) {
    if (k.name == launch.name) kernel = &k;
  }
  if (kernel == nullptr) return std::nullopt;
  const auto fragment = inductor::parse_graph_fragment(kernel->graph_fragment);
  const inductor::FragmentNode* reduction = nullptr;
  for (const auto& node : fragment.nodes) {
    if (node.op != "call_function") continue;
    if (node.target == "<built-in function getitem>" || node.target == "operator.getitem") {
      continue;  // max.dim / min.dim return (values, indices)
    }
    if (reduction != nullptr || ops.count(node.target) == 0) return std::nullopt;
    reduction = &node;
  }
  if (reduction == nullptr || reduction->args.size() < 2) return std::nullopt;
  const std::string source = reduction->args[0].substr(reduction->args[0].rfind('%') + 1);
  const inductor::FragmentNode* input = inductor::find_node(fragment, source);
  if (input == nullptr || input->op != "placeholder") return std::nullopt;
  if (input->dtype != "f32" && input->dtype != "f16" && input->dtype != "bf16") return std::nullopt;
  auto dim = integer(reduction->args[1]);
  const long rank = static_cast<long>(input->shape.size());
  if (!dim || rank < 2 || input->stride.size() != input->shape.size()) return std::nullopt;
  if (*dim < 0) *dim += rank;
  if (*dim < 0 || *dim >= rank - 1 || !contiguous_after(*input, *dim)) return std::nullopt;
  return RecipeMatch{"reduce_dim",
                     {{"op", ops.at(reduction->target)}, {"dim", *dim}},
                     fmt::format("{} over dim {} of {}[{}]", reduction->target, *dim, input->dtype,
                                 fmt::join(input->shape, ", "))};
}

std::string candidate_source(const RecipeMatch& match,
                             int segment,
                             const nlohmann::json& settings) {
  return fmt::format(
      "\"\"\"Segment {seg}: {why}.\n\nWritten by kernelopt from the reduce_dim recipe "
      "(python/kernelopt/recipes/reduce_dim.py).\n\"\"\"\n\n"
      "from kernelopt.recipes.reduce_dim import reduce_dim\n\n\n"
      "def run(inputs, outputs):\n"
      "    (x,) = inputs.values()\n"
      "    (out,) = outputs.values()\n"
      "    reduce_dim(x, out, {dim}, \"{op}\", {rb}, {cb}, {warps})\n",
      fmt::arg("seg", segment), fmt::arg("why", match.why),
      fmt::arg("dim", match.params.at("dim").get<long>()),
      fmt::arg("op", match.params.at("op").get<std::string>()),
      fmt::arg("rb", settings.value("rows_per_step", 8)),
      fmt::arg("cb", settings.value("cols_per_program", 256)),
      fmt::arg("warps", settings.value("num_warps", 4)));
}

}  // namespace kernelopt::search
