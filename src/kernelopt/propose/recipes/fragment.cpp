#include "kernelopt/propose/recipes/fragment.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
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
#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::propose {

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

// A literal number as a fragment or a launch writes it ("101.19288512538814", "2", "-0.5"), or
// nullopt.
std::optional<double> literal(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

bool number(const std::string& text) {
  return literal(text).has_value();
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

// The number of elements in the dimensions after `dim`, where their sizes are literals; 0 when
// one is not.
long columns_after(const inductor::FragmentNode& input, long dim) {
  long columns = 1;
  for (long d = dim + 1; d < static_cast<long>(input.shape.size()) && columns > 0; ++d) {
    const auto size = integer(input.shape[static_cast<std::size_t>(d)]);
    columns = size ? columns * *size : 0;
  }
  return columns;
}

// The Graph fragments of every launch of a segment; nullopt if one is not a Triton kernel of the
// output code.
std::optional<std::vector<inductor::GraphFragment>> all_fragments(
    const inductor::OutputCode& code,
    const analysis::DispatchMap& map,
    const analysis::Segment& segment) {
  std::vector<inductor::GraphFragment> fragments;
  for (const int index : segment.launches) {
    const std::string& name = map.launches[index].name;
    const auto kernel = std::find_if(code.kernels.begin(), code.kernels.end(),
                                     [&](const auto& k) { return k.name == name; });
    if (kernel == code.kernels.end()) return std::nullopt;
    fragments.push_back(inductor::parse_graph_fragment(kernel->graph_fragment));
  }
  return fragments;
}

// The Graph fragment of a one-launch segment's kernel.
std::optional<inductor::GraphFragment> single_fragment(const inductor::OutputCode& code,
                                                       const analysis::DispatchMap& map,
                                                       const analysis::Segment& segment) {
  if (segment.launches.size() != 1) return std::nullopt;
  auto fragments = all_fragments(code, map, segment);
  if (!fragments) return std::nullopt;
  return std::move(fragments->front());
}

// The node name an argument refers to: "%arg0_1" -> "arg0_1".
std::string referenced(const std::string& arg) {
  return arg.substr(arg.rfind('%') + 1);
}

// Whether a dim argument ("1", "-1", "[1]") names the last of `rank` dimensions.
bool is_last_dim(const std::string& arg, long rank) {
  auto dim = integer(arg);
  if (!dim) return false;
  if (*dim < 0) *dim += rank;
  return *dim == rank - 1;
}

bool is_getitem(const inductor::FragmentNode& node) {
  return node.target == "<built-in function getitem>" || node.target == "operator.getitem";
}

bool float_dtype(const std::string& dtype) {
  return dtype == "f32" || dtype == "f16" || dtype == "bf16";
}

// Bytes per element of a float_dtype.
long element_bytes(const std::string& dtype) {
  return dtype == "f32" ? 4 : 2;
}

// row_two_pass's parameters: the op, and the bytes of a row when its length is a literal.
nlohmann::json row_params(const char* op, const inductor::FragmentNode& input) {
  nlohmann::json params = {{"op", op}};
  const auto cols = input.shape.empty() ? std::nullopt : integer(input.shape.back());
  if (cols) params["row_bytes"] = *cols * element_bytes(input.dtype);
  return params;
}

std::optional<NodeIndex> index_nodes(const std::vector<inductor::GraphFragment>& fragments,
                                     const std::set<std::string>& allowed) {
  NodeIndex index;
  for (const auto& fragment : fragments) {
    for (const auto& node : fragment.nodes) {
      if (node.op == "call_function" && !is_getitem(node)) {
        if (allowed.count(node.target) == 0) return std::nullopt;
        const auto known = index.nodes.find(node.name);
        if (known == index.nodes.end() || known->second->op != "call_function") {
          index.calls.push_back(&node);
        }
        index.nodes[node.name] = &node;
      } else if (index.nodes.count(node.name) == 0) {
        index.nodes[node.name] = &node;
      }
    }
  }
  return index;
}

// The placeholder a node's first argument names, or nullptr.
const inductor::FragmentNode* first_input(const inductor::GraphFragment& fragment,
                                          const inductor::FragmentNode& node) {
  if (node.args.empty()) return nullptr;
  const inductor::FragmentNode* input = inductor::find_node(fragment, referenced(node.args[0]));
  return input != nullptr && input->op == "placeholder" ? input : nullptr;
}

// "[1, 8]" -> {1, 8}; "[]" -> {}; nullopt when not a list of integers.
std::optional<std::vector<long>> integer_list(const std::string& text) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return std::nullopt;
  std::vector<long> out;
  std::stringstream items(text.substr(1, text.size() - 2));
  std::string item;
  while (std::getline(items, item, ',')) {
    const auto start = item.find_first_not_of(' ');
    if (start == std::string::npos) continue;  // "[]"
    const auto value = integer(item.substr(start, item.find_last_not_of(' ') - start + 1));
    if (!value) return std::nullopt;
    out.push_back(*value);
  }
  return out;
}

// Starting tiles fitted to a dimension: `columns` rounded up to a power of two within
// [least_block, most_block], and as many rows as make each of `elements` a program, within
// [1, most_rows]. (rows, block) pairs.
std::vector<std::pair<std::int64_t, std::int64_t>> fitted_tiles(
    std::int64_t columns,
    std::initializer_list<std::int64_t> elements,
    std::int64_t most_rows,
    std::int64_t least_block,
    std::int64_t most_block) {
  const std::int64_t block =
      std::clamp<std::int64_t>(next_power_of_two(columns), least_block, most_block);
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (const std::int64_t e : elements) {
    out.emplace_back(std::clamp<std::int64_t>(e / block, 1, most_rows), block);
  }
  return out;
}

// reduce_dim's tiles for fewer than 128 columns after the reduced dimension (also norm_dim's
// walking tiles): as wide as the columns (a power of two, at least 16), as many rows a step as
// make 1024 and 512 elements (at most 32).
std::vector<nlohmann::json> narrow_column_tiles(std::int64_t columns) {
  std::vector<nlohmann::json> settings;
  for (const auto& [rows, block] : fitted_tiles(columns, {1024, 512}, 32)) {
    settings.push_back({{"rows_per_step", rows}, {"cols_per_program", block}, {"num_warps", 4}});
  }
  return settings;
}

std::string python_literal(const nlohmann::json& value) {
  if (value.is_null()) return "None";
  if (value.is_boolean()) return value.get<bool>() ? "True" : "False";
  if (value.is_array()) {
    std::vector<std::string> items;
    for (const auto& item : value) {
      items.push_back(python_literal(item));
    }
    return fmt::format("[{}]", fmt::join(items, ", "));
  }
  if (value.is_object()) {
    std::vector<std::string> items;
    for (const auto& [key, item] : value.items()) {
      items.push_back(fmt::format("{}: {}", nlohmann::json(key).dump(), python_literal(item)));
    }
    return fmt::format("{{{}}}", fmt::join(items, ", "));
  }
  if (value.is_number_float() && !std::isfinite(value.get<double>())) {
    const double number = value.get<double>();
    return std::isnan(number) ? "float(\"nan\")"
           : number > 0       ? "float(\"inf\")"
                              : "float(\"-inf\")";
  }
  return value.dump();  // numbers, and strings (JSON's escapes are Python's)
}

std::string Recipe::source(const Match& match, int segment, const nlohmann::json& settings) const {
  return fmt::format(
      "\"\"\"Segment {segment}: {why}.\n\nWritten by kernelopt from the {recipe} recipe "
      "(python/kernelopt/recipes/{recipe}.py), whose launch() turns the match's parameters and "
      "the launch settings into its call.\n\"\"\"\n\n"
      "from kernelopt.recipes import {recipe}\n\n"
      "PARAMS = {params}\n"
      "SETTINGS = {settings}\n\n\n"
      "def run(inputs, outputs):\n"
      "    {recipe}.launch(inputs, outputs, PARAMS, SETTINGS)\n",
      fmt::arg("segment", segment), fmt::arg("why", match.why), fmt::arg("recipe", match.recipe),
      fmt::arg("params", python_literal(match.params)),
      fmt::arg("settings", python_literal(settings)));
}

}  // namespace kernelopt::propose
