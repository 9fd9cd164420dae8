// Floors above the one-pass memory floor. Whether a segment's algorithm must read its
// input twice: a reduction whose result is combined again with the data it reduced (a norm, a
// softmax) needs that data a second time unless one reduction group stays on chip while it is
// used. And the arithmetic of a full-float32 matrix product, which its bytes say nothing about.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernelopt/analysis/segments.hpp"
#include "kernelopt/inductor/graph_fragment.hpp"

namespace kernelopt::analysis {

namespace {

using inductor::FragmentNode;

// Reductions as Inductor's fragments name them, with the index of their dims argument (-1: a
// reduction over every element).
const std::map<std::string, int>& reductions() {
  static const std::map<std::string, int> table = {
      {"torch.ops.aten.sum.dim_IntList", 1},
      {"torch.ops.aten.sum.default", -1},
      {"torch.ops.aten.mean.dim", 1},
      {"torch.ops.aten.mean.default", -1},
      {"torch.ops.aten.amax.default", 1},
      {"torch.ops.aten.amin.default", 1},
      {"torch.ops.aten.var_mean.correction", 1},
      {"torch.ops.aten.var.correction", 1},
      {"torch.ops.aten.prod.dim_int", 1},
      {"torch.ops.aten.max.dim", 1},
      {"torch.ops.aten.min.dim", 1},
      {"torch.ops.aten.logsumexp.default", 1},
      {"torch.ops.aten.linalg_vector_norm.default", 2},
      {"torch.ops.prims.prepare_softmax_online.default", 1},
  };
  return table;
}

// The nodes an argument names: every `%name` in it (lists too: "[%a, %b]"). A hand scan, not
// std::regex: GCC 12's <regex> warns (maybe-uninitialized) under the ASan build's -Werror.
std::vector<std::string> references(const FragmentNode& node) {
  const auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  };
  std::vector<std::string> out;
  for (const auto& arg : node.args) {
    for (std::size_t i = arg.find('%'); i != std::string::npos; i = arg.find('%', i + 1)) {
      std::size_t end = i + 1;
      while (end < arg.size() && name_char(arg[end])) {
        ++end;
      }
      if (end > i + 1 && std::isdigit(static_cast<unsigned char>(arg[i + 1])) == 0) {
        out.push_back(arg.substr(i + 1, end - i - 1));
      }
    }
  }
  return out;
}

std::optional<std::int64_t> number(const std::string& text) {
  try {
    std::size_t used = 0;
    const long long value = std::stoll(text, &used);
    if (used != text.size()) return std::nullopt;
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::int64_t> numel(const FragmentNode& node) {
  if (node.shape.empty() && node.dtype.empty()) return std::nullopt;  // untyped (multi-output)
  std::int64_t n = 1;
  for (const auto& size : node.shape) {
    const auto v = number(size);
    if (!v) return std::nullopt;
    n *= *v;
  }
  return n;
}

int itemsize(const std::string& short_dtype) {
  static const std::map<std::string, int> sizes = {{"f64", 8}, {"f32", 4}, {"f16", 2}, {"bf16", 2},
                                                   {"i64", 8}, {"i32", 4}, {"i8", 1},  {"b8", 1}};
  const auto it = sizes.find(short_dtype);
  return it == sizes.end() ? 0 : it->second;
}

// Elements of `source` that one output of the reduction combines: the product of the reduced
// dimensions (a literal dim or list of dims), or every element.
std::optional<std::int64_t> reduced_extent(const FragmentNode& reduction,
                                           int dims_arg,
                                           const FragmentNode& source) {
  const auto total = numel(source);
  if (!total) return std::nullopt;
  if (dims_arg < 0 || static_cast<int>(reduction.args.size()) <= dims_arg ||
      reduction.args[static_cast<std::size_t>(dims_arg)] == "None") {
    return total;  // every element: sum(x), or dims None
  }
  std::string dims = reduction.args[static_cast<std::size_t>(dims_arg)];
  dims.erase(std::remove_if(dims.begin(), dims.end(),
                            [](char c) { return c == '[' || c == ']' || c == ' '; }),
             dims.end());
  const auto rank = static_cast<std::int64_t>(source.shape.size());
  std::int64_t extent = 1;
  std::size_t start = 0;
  while (start <= dims.size()) {
    const std::size_t comma = std::min(dims.find(',', start), dims.size());
    auto dim = number(dims.substr(start, comma - start));
    if (!dim) return std::nullopt;
    if (*dim < 0) *dim += rank;
    if (*dim < 0 || *dim >= rank) return std::nullopt;
    const auto size = number(source.shape[static_cast<std::size_t>(*dim)]);
    if (!size) return std::nullopt;
    extent *= *size;
    start = comma + 1;
  }
  return extent;
}

}  // namespace

std::optional<std::int64_t> reread_bytes(const std::vector<inductor::GraphFragment>& fragments,
                                         std::int64_t on_chip_bytes) {
  // The segment's nodes, merged: a computed node wins over a placeholder of the same name.
  std::map<std::string, FragmentNode> nodes;
  for (const auto& fragment : fragments) {
    for (const auto& node : fragment.nodes) {
      auto [it, added] = nodes.emplace(node.name, node);
      if (!added && it->second.op == "placeholder" && node.op != "placeholder") it->second = node;
    }
  }
  // Edges: a node's inputs. The outputs of a multi-output node (var_mean, max.dim, the online
  // softmax) reach other kernels as placeholders named getitem*: inputs of those nodes.
  std::map<std::string, std::vector<std::string>> inputs;
  std::vector<std::string> multi_output;
  for (const auto& [name, node] : nodes) {
    if (node.op != "placeholder") inputs[name] = references(node);
    if (node.op != "placeholder" && !numel(node)) multi_output.push_back(name);
  }
  for (const auto& [name, node] : nodes) {
    if (node.op == "placeholder" && name.rfind("getitem", 0) == 0) inputs[name] = multi_output;
  }
  const auto closure = [&](const std::string& from, bool downstream) {
    std::set<std::string> seen;
    std::vector<std::string> todo = {from};
    while (!todo.empty()) {
      const std::string at = todo.back();
      todo.pop_back();
      if (downstream) {
        for (const auto& [name, list] : inputs) {
          if (std::find(list.begin(), list.end(), at) != list.end() && seen.insert(name).second) {
            todo.push_back(name);
          }
        }
      } else {
        for (const auto& name : inputs[at]) {
          if (seen.insert(name).second) todo.push_back(name);
        }
      }
    }
    return seen;
  };
  const auto leaves = [&](const std::string& name) {  // the placeholders a node comes from
    std::set<std::string> out;
    auto up = closure(name, false);
    up.insert(name);
    for (const auto& n : up) {
      const auto it = nodes.find(n);
      if (it != nodes.end() && it->second.op == "placeholder" && n.rfind("getitem", 0) != 0) {
        out.insert(n);
      }
    }
    return out;
  };
  std::int64_t total = 0;
  std::set<std::string> counted;  // each source once (softmax: a max and a sum of one row)
  for (const auto& [name, node] : nodes) {
    const auto kind = reductions().find(node.target);
    if (kind == reductions().end() || node.op == "placeholder") continue;
    const auto refs = references(node);
    if (refs.empty() || nodes.count(refs.front()) == 0) continue;
    const FragmentNode& source = nodes.at(refs.front());
    const auto extent = reduced_extent(node, kind->second, source);
    const int size = itemsize(source.dtype);
    if (!extent || size == 0 || *extent * size <= on_chip_bytes) continue;
    // Is the reduction's result combined again with its own source's data?
    const std::set<std::string> after = closure(name, true);
    const std::set<std::string> from = leaves(source.name);
    bool again = false;
    for (const auto& d : after) {
      for (const auto& arg : inputs[d]) {
        if (after.count(arg) != 0 || arg == name) continue;
        const auto arg_leaves = leaves(arg);
        again = again || std::any_of(arg_leaves.begin(), arg_leaves.end(),
                                     [&](const std::string& l) { return from.count(l) != 0; });
      }
    }
    if (again && counted.insert(source.name).second) total += *numel(source) * size;
  }
  if (total == 0) return std::nullopt;
  return total;
}

std::optional<double> full_fp32_product_flops(const inductor::TritonKernel& kernel) {
  const std::string& src = kernel.source;
  const bool tf32_off = src.find("'ALLOW_TF32': False") != std::string::npos ||
                        src.find("ALLOW_TF32 : tl.constexpr = False") != std::string::npos;
  if (!tf32_off || src.find("tl.dot(") == std::string::npos) return std::nullopt;
  // The first factor's index among the arguments: addmm and baddbmm take the bias first.
  static const std::map<std::string, std::size_t> products = {
      {"torch.ops.aten.mm.default", 0},
      {"torch.ops.aten.bmm.default", 0},
      {"torch.ops.aten.addmm.default", 1},
      {"torch.ops.aten.baddbmm.default", 1}};
  const inductor::GraphFragment fragment = inductor::parse_graph_fragment(kernel.graph_fragment);
  std::map<std::string, const FragmentNode*> by_name;
  for (const auto& node : fragment.nodes) {
    by_name[node.name] = &node;
  }
  double flops = 0;
  for (const auto& node : fragment.nodes) {
    const auto product = products.find(node.target);
    if (product == products.end() || node.op == "placeholder") continue;
    if (node.dtype != "f32" || node.args.size() <= product->second) return std::nullopt;
    const std::string& arg = node.args[product->second];
    if (arg.size() < 2 || arg.front() != '%') return std::nullopt;
    const auto factor = by_name.find(arg.substr(1));
    if (factor == by_name.end() || factor->second->dtype != "f32" ||
        factor->second->shape.empty()) {
      return std::nullopt;
    }
    const auto k = number(factor->second->shape.back());
    const auto out = numel(node);
    if (!k || !out) return std::nullopt;
    flops += 2.0 * static_cast<double>(*out) * static_cast<double>(*k);
  }
  if (flops <= 0) return std::nullopt;
  return flops;
}

void raise_floor(std::optional<double> compute_floor_ms,
                 double time_ms,
                 std::optional<double>& floor_ms,
                 std::optional<double>& headroom) {
  if (!compute_floor_ms || *compute_floor_ms <= 0) return;
  if (floor_ms && *floor_ms >= *compute_floor_ms) return;
  floor_ms = compute_floor_ms;
  headroom = time_ms / *compute_floor_ms;
}

}  // namespace kernelopt::analysis
