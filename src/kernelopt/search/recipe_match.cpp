#include "kernelopt/search/recipe_match.hpp"

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

// Every node of a segment's fragments by name (a later kernel sees an earlier one's result as a
// placeholder of the same name: the call_function definition wins), and the call_functions once
// each in order (getitems aside). nullopt if a call's target is not `allowed`.
struct NodeIndex {
  std::map<std::string, const inductor::FragmentNode*> nodes;
  std::vector<const inductor::FragmentNode*> calls;

  // The node an argument ("%name") refers to, or nullptr.
  const inductor::FragmentNode* arg(const std::string& text) const {
    if (text.empty() || text[0] != '%') return nullptr;
    const auto it = nodes.find(text.substr(1));
    return it == nodes.end() ? nullptr : it->second;
  }
};

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

// L2 normalization as torch.norm(x, p=2, dim, keepdim=True) decomposes on the GPU:
// pow(x, 2), sum(pow, [dim], True), pow(sum, 0.5), div(x, pow).
std::optional<RecipeMatch> match_l2_by_powers(const inductor::GraphFragment& fragment,
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
  return RecipeMatch{
      "row_two_pass", row_params("l2_normalize", *input),
      fmt::format("l2_normalize over the last dim of {}[{}] (pow, sum, pow 0.5, div)", input->dtype,
                  fmt::join(input->shape, ", "))};
}

// L1 normalization, x / sum(abs(x), [last], keepdim=True) (or the mean of abs(x)): abs, sum or
// mean over the last dimension with keepdim, div(x, that).
std::optional<RecipeMatch> match_l1(const inductor::GraphFragment& fragment,
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
  return RecipeMatch{"row_two_pass", row_params(op, *input),
                     fmt::format("{} over the last dim of {}[{}] (abs, {}, div)", op, input->dtype,
                                 fmt::join(input->shape, ", "), by_sum ? "sum" : "mean")};
}

}  // namespace

bool identifier(const std::string& text) {
  return inductor::detail::is_identifier(text);
}

// The root buffer a name holds just before step `step`, through reuses (`bufN = bufM; del bufM`,
// the same tensor under a new name); nullopt when the name is a view (its tensor is not the
// root's).
std::optional<std::string> reused_root(const inductor::OutputCode& code,
                                       int step,
                                       const std::string& name) {
  std::map<std::string, std::optional<std::string>> roots;  // name -> root; nullopt: a view
  for (int s = 0; s < step; ++s) {
    const inductor::Step& st = code.steps[static_cast<std::size_t>(s)];
    if (st.defines.empty()) continue;
    const std::string& defined = st.defines.front();
    if (st.kind == inductor::StepKind::kReuse) {
      const auto it = roots.find(st.alias_of);
      roots[defined] = it != roots.end() ? it->second : std::optional<std::string>(st.alias_of);
    } else if (st.kind == inductor::StepKind::kReinterpret) {
      roots[defined] = std::nullopt;
    } else {
      roots.erase(defined);  // a buffer of its own
    }
  }
  const auto it = roots.find(name);
  return it != roots.end() ? it->second : std::optional<std::string>(name);
}

std::optional<RecipeMatch> match_reduce_dim(const inductor::OutputCode& code,
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
  return RecipeMatch{"reduce_dim", params,
                     fmt::format("{} over dim {} of {}[{}]", reduction->target, *dim, input->dtype,
                                 fmt::join(input->shape, ", "))};
}

std::optional<RecipeMatch> match_row_two_pass(const inductor::OutputCode& code,
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
    return RecipeMatch{"row_two_pass", row_params(form.op, *input),
                       fmt::format("{} over the last dim of {}[{}] ({})", form.op, input->dtype,
                                   fmt::join(input->shape, ", "), reduction->target)};
  }
  return std::nullopt;
}

std::optional<RecipeMatch> match_cross_entropy(const inductor::OutputCode& code,
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
  return RecipeMatch{
      "cross_entropy",
      {{"reduction", reduction}, {"ignore_index", *ignore}},
      fmt::format("cross-entropy ({}) of {}[{}] logits, {} targets, ignore_index {}", reduction,
                  logits->dtype, fmt::join(logits->shape, ", "), target->dtype, *ignore)};
}

namespace {

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

// The nodes of a shifted scan input.
constexpr std::string_view kFull = "torch.ops.aten.full.default";
constexpr std::string_view kSlice = "torch.ops.aten.slice.Tensor";
constexpr std::string_view kCat = "torch.ops.aten.cat.default";
constexpr std::string_view kPad = "torch.ops.aten.constant_pad_nd.default";

// A scan's input shifted by one along a dimension: `x` (nullptr when the input is not shifted),
// the dimension as written, whether x's last element is dropped (an exclusive scan) or the
// output is one longer (the neutral element in front), and the nodes' names.
struct ShiftedInput {
  const inductor::FragmentNode* x = nullptr;
  std::string dim;
  bool exclusive = false;
  std::string how;
};

// The shift of a scan's input `source`, if it is one: cat([full(neutral), x[:-1] or x], d) or
// constant_pad_nd(x[:-1] or x, [1, 0], neutral) over the last dim (checked by the caller); an
// empty ShiftedInput when `source` is no shift and no full, slice, cat or pad is in the segment;
// nullopt for any other use of those nodes (a shift the recipe does not compute).
std::optional<ShiftedInput> shifted_scan_input(const NodeIndex& index,
                                               const inductor::FragmentNode* source,
                                               double neutral) {
  std::set<const inductor::FragmentNode*> shifts;
  for (const auto* node : index.calls) {
    if (node->target == kFull || node->target == kSlice || node->target == kCat ||
        node->target == kPad) {
      shifts.insert(node);
    }
  }
  if (source == nullptr || (source->target != kCat && source->target != kPad)) {
    if (!shifts.empty()) return std::nullopt;
    return ShiftedInput{};
  }
  ShiftedInput out;
  const inductor::FragmentNode* body = nullptr;  // x or x[:-1]
  std::set<const inductor::FragmentNode*> used = {source};
  if (source->target == kCat) {
    // cat([%full, %body], dim): the list's two names.
    if (source->args.size() != 2) return std::nullopt;
    const std::string& list = source->args[0];
    if (list.size() < 2 || list.front() != '[' || list.back() != ']') return std::nullopt;
    const auto names =
        inductor::detail::split_top_level(std::string_view(list).substr(1, list.size() - 2));
    if (names.size() != 2) return std::nullopt;
    const inductor::FragmentNode* lead = index.arg(names[0]);
    body = index.arg(names[1]);
    if (lead == nullptr || lead->target != kFull || lead->args.size() < 2 || body == nullptr) {
      return std::nullopt;
    }
    const auto value = literal(lead->args[1]);
    const auto lead_shape = integer_list(lead->args[0]);
    if (!value || *value != neutral || !lead_shape || lead_shape->empty() ||
        lead_shape->back() != 1) {
      return std::nullopt;
    }
    used.insert(lead);
    out.dim = source->args[1];
    out.how = "cat of the neutral element";
  } else {
    // constant_pad_nd(%body, [1, 0], neutral): one element in front of the last dim.
    if (source->args.size() != 3 || source->args[1] != "[1, 0]") return std::nullopt;
    const auto value = literal(source->args[2]);
    if (!value || *value != neutral) return std::nullopt;
    body = index.arg(source->args[0]);
    out.dim = "-1";
    out.how = "constant_pad_nd";
  }
  if (body == nullptr) return std::nullopt;
  if (body->target == kSlice) {
    // x[..., :-1] (or :n - 1) along the shifted dim.
    if (body->args.size() != 4 || body->args[2] != "0") return std::nullopt;
    const inductor::FragmentNode* x = index.arg(body->args[0]);
    if (x == nullptr || x->shape.empty()) return std::nullopt;
    const auto end = integer(body->args[3]);
    const auto n = integer(x->shape.back());
    if (!end || !(*end == -1 || (n && *end == *n - 1))) return std::nullopt;
    const auto rank = static_cast<long>(x->shape.size());
    if (!is_last_dim(body->args[1], rank) || !is_last_dim(out.dim, rank)) return std::nullopt;
    used.insert(body);
    out.x = x;
    out.exclusive = true;
  } else {
    out.x = body;
  }
  for (const auto* node : shifts) {
    if (used.count(node) == 0) return std::nullopt;  // another cat, slice, pad or full
  }
  return out;
}

}  // namespace

std::optional<RecipeMatch> match_scan(const inductor::OutputCode& code,
                                      const analysis::DispatchMap& map,
                                      const analysis::Segment& segment) {
  static const std::string cumsum = "torch.ops.aten.cumsum.default";
  static const std::string cumprod = "torch.ops.aten.cumprod.default";
  static const std::string sub = "torch.ops.aten.sub.Tensor";  // cumsum(x) - x: exclusive
  static const std::string flip = "torch.ops.aten.flip.default";
  static const std::string rev = "torch.ops.prims.rev.default";  // flip after decomposition
  static const std::string mul = "torch.ops.aten.mul.Tensor";
  static const std::string div = "torch.ops.aten.div.Tensor";  // an epilogue: result / constant
  const auto fragments = all_fragments(code, map, segment);
  if (!fragments) return std::nullopt;
  // With a shifted input's nodes (shifted_scan_input).
  const auto index =
      index_nodes(*fragments, {cumsum, cumprod, flip, rev, mul, sub, div, std::string(kFull),
                               std::string(kSlice), std::string(kCat), std::string(kPad)});
  if (!index) return std::nullopt;
  const auto arg_node = [&](const std::string& arg) { return index->arg(arg); };
  // The epilogue, at most one: the result times or over a literal number (a scaled scan,
  // cumsum(x) / sqrt(n)); Inductor fuses it into the kernel that writes the result.
  const inductor::FragmentNode* epilogue = nullptr;
  std::vector<const inductor::FragmentNode*> calls;
  for (const auto* node : index->calls) {
    const bool scaled = node->args.size() == 2 && number(node->args[1]) &&
                        (node->target == div || node->target == mul);
    if (node->target == div && !scaled) return std::nullopt;
    if (!scaled) {
      calls.push_back(node);
    } else if (epilogue != nullptr) {
      return std::nullopt;
    } else {
      epilogue = node;
    }
  }
  const inductor::FragmentNode* scan = nullptr;
  const inductor::FragmentNode* minus = nullptr;
  int flips = 0;
  int muls = 0;
  for (const auto* node : calls) {
    if (node->target == cumsum || node->target == cumprod) {
      if (scan != nullptr) return std::nullopt;
      scan = node;
    }
    if (node->target == sub) {
      if (minus != nullptr) return std::nullopt;
      minus = node;
    }
    flips += node->target == flip || node->target == rev ? 1 : 0;
    muls += node->target == mul ? 1 : 0;
  }
  if (scan == nullptr || scan->args.size() < 2 || (flips != 0 && flips != 2) || muls > 1) {
    return std::nullopt;
  }
  // An exclusive sum as a model writes it, the inclusive one minus the element: sub(scan's final
  // result, its source); not for a product.
  if (minus != nullptr && (scan->target != cumsum || minus->args.size() != 2)) return std::nullopt;
  const bool prod = scan->target == cumprod;
  // Both forms end the same way: the epilogue's multiplier ("scale") and the row's length
  // ("columns": short rows get programs of several rows) into params, and the match, whose
  // description gets the epilogue's words; nullopt for an epilogue the kernel cannot apply.
  const auto finish = [&](nlohmann::json params, const inductor::FragmentNode& x,
                          std::string why) -> std::optional<RecipeMatch> {
    if (epilogue != nullptr) {
      // Inductor, too, multiplies by the reciprocal. By inf or NaN, over zero or over a number
      // whose reciprocal overflows (1 / c is inf): left to Inductor.
      const double c = *literal(epilogue->args[1]);
      const double scale = epilogue->target == div ? 1.0 / c : c;
      if (!std::isfinite(c) || !std::isfinite(scale)) return std::nullopt;
      params["scale"] = scale;
      why += fmt::format(" {} {}", epilogue->target == div ? "over" : "times", c);
    }
    if (const auto columns = integer(x.shape.back()); columns && *columns > 0) {
      params["columns"] = *columns;
    }
    return RecipeMatch{"scan", std::move(params), std::move(why)};
  };
  const auto shift = shifted_scan_input(*index, arg_node(scan->args[0]), prod ? 1.0 : 0.0);
  if (!shift) return std::nullopt;
  if (shift->x != nullptr) {
    // The shifted forms stand alone: no flip, mask, subtraction beside them.
    if (flips != 0 || muls != 0 || minus != nullptr || shift->x->op != "placeholder" ||
        !float_dtype(shift->x->dtype)) {
      return std::nullopt;
    }
    const long rank = static_cast<long>(shift->x->shape.size());
    if (rank < 1 || shift->x->stride.size() != shift->x->shape.size() ||
        !contiguous_after(*shift->x, -1) || !is_last_dim(scan->args[1], rank) ||
        !is_last_dim(shift->dim, rank)) {
      return std::nullopt;
    }
    if (epilogue != nullptr && index->arg(epilogue->args[0]) != scan) return std::nullopt;
    nlohmann::json params = {{"x", shift->x->name},
                             {"mask", nullptr},
                             {"reverse", false},
                             {"op", prod ? "prod" : "sum"},
                             {"minus", false}};
    params[shift->exclusive ? "exclusive" : "prepend"] = true;
    return finish(
        std::move(params), *shift->x,
        fmt::format("{} {} over the last dim of {}[{}] ({})",
                    shift->exclusive ? "exclusive" : "neutral-first", prod ? "cumprod" : "cumsum",
                    shift->x->dtype, fmt::join(shift->x->shape, ", "), shift->how));
  }
  // Walk back from the scan's input: [flip] <- [mul(x, mask)] <- x.
  const inductor::FragmentNode* source = arg_node(scan->args[0]);
  const bool reverse = flips == 2;
  if (reverse) {
    if (source == nullptr || (source->target != flip && source->target != rev)) {
      return std::nullopt;
    }
    source = arg_node(source->args.empty() ? "" : source->args[0]);
  }
  const inductor::FragmentNode* x = source;
  const inductor::FragmentNode* mask = nullptr;
  if (source != nullptr && source->target == mul) {
    if (source->args.size() != 2) return std::nullopt;
    x = arg_node(source->args[0]);
    mask = arg_node(source->args[1]);
    if (x != nullptr && mask != nullptr && x->dtype == "b8") std::swap(x, mask);  // mask * x
    if (mask == nullptr || mask->op != "placeholder") return std::nullopt;
    if (mask->dtype != "b8" && !float_dtype(mask->dtype)) return std::nullopt;
  } else if (muls != 0) {
    return std::nullopt;  // a multiply somewhere else (after the scan): not this recipe
  }
  if (x == nullptr || x->op != "placeholder" || !float_dtype(x->dtype)) return std::nullopt;
  const long rank = static_cast<long>(x->shape.size());
  if (rank < 1 || x->stride.size() != x->shape.size() || !contiguous_after(*x, -1)) {
    return std::nullopt;
  }
  if (mask != nullptr && (mask->shape != x->shape || mask->stride != x->stride)) {
    return std::nullopt;
  }
  if (!is_last_dim(scan->args[1], rank)) return std::nullopt;
  // Whether an argument is `made` (a node's result), or that result as a later kernel sees it: a
  // placeholder of its own name that is not a graph input of the segment.
  const auto is_result = [&](const std::string& arg, const inductor::FragmentNode* made) {
    const inductor::FragmentNode* node = arg_node(arg);
    return node == made || (node != nullptr && node->op == "placeholder" && node != x &&
                            node != mask && node->shape == x->shape);
  };
  // Both flips over exactly the scanned dimension, the second one of the scan's result.
  const inductor::FragmentNode* result = scan;  // the inclusive scan, flipped back if reversed
  for (const auto* node : calls) {
    if (node->target != flip && node->target != rev) continue;
    if (node != arg_node(scan->args[0])) result = node;
    if (node->args.size() < 2 || !is_last_dim(node->args[1], rank)) return std::nullopt;
    // flip(scan's result) or flip(scan's input).
    if (!is_result(node->args[0], scan) && arg_node(node->args[0]) != source) return std::nullopt;
  }
  // sub(result, source): the second operand is what was scanned.
  if (minus != nullptr &&
      (!is_result(minus->args[0], result) || arg_node(minus->args[1]) != source)) {
    return std::nullopt;
  }
  // The epilogue takes the final result (after the flip back and the subtraction).
  const inductor::FragmentNode* final_node = minus != nullptr ? minus : result;
  if (epilogue != nullptr && !is_result(epilogue->args[0], final_node)) return std::nullopt;
  nlohmann::json params = {{"x", x->name},
                           {"mask", nullptr},
                           {"reverse", reverse},
                           {"op", prod ? "prod" : "sum"},
                           {"minus", minus != nullptr}};
  if (mask != nullptr) params["mask"] = mask->name;
  return finish(
      std::move(params), *x,
      fmt::format("{}{}{} over the last dim of {}[{}]{}", reverse ? "reversed " : "",
                  prod ? "cumprod" : "cumsum", minus != nullptr ? " minus the element" : "",
                  x->dtype, fmt::join(x->shape, ", "),
                  mask != nullptr ? " times a " + mask->dtype + " mask" : ""));
}

std::optional<RecipeMatch> match_norm(const inductor::OutputCode& code,
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
  return RecipeMatch{"norm_dim", params,
                     fmt::format("{} normalization over dim {} of {}[{}]{}", kind, *dim, x->dtype,
                                 fmt::join(x->shape, ", "), extras)};
}

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

std::optional<RecipeMatch> match_group_norm(const inductor::OutputCode& code,
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
  return RecipeMatch{
      "group_norm", params,
      fmt::format("{} norm ({} {}, eps {}{}{}) of {}[{}]", kind, groups,
                  kind == "layer" ? "trailing dims" : "groups", *eps,
                  weight != nullptr ? ", weight" : "", bias != nullptr ? ", bias" : "", x->dtype,
                  fmt::join(x->shape, ", "))};
}

std::optional<RecipeMatch> match_pool(const inductor::OutputCode& code,
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
  return RecipeMatch{
      "pool", params,
      fmt::format("{} pool {}d, kernel [{}], of {}[{}]", avg ? "average" : "max", dims,
                  fmt::join(*kernel, ", "), x->dtype, fmt::join(x->shape, ", "))};
}

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
std::optional<RecipeMatch> match_gemm_template(const inductor::OutputCode& code,
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
  return RecipeMatch{
      "gemm", params,
      fmt::format("Triton template {} into {}[{}]", product_op(*product), product->dtype, shape)};
}

}  // namespace

std::optional<RecipeMatch> match_gemm(const inductor::OutputCode& code,
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
  return RecipeMatch{"gemm", params,
                     fmt::format("extern {} into {}[{}] of {}", step.target, out->dtype.substr(6),
                                 fmt::join(out->shape, ", "), fmt::join(names, ", "))};
}

std::optional<RecipeMatch> match_recipe(const inductor::OutputCode& code,
                                        const analysis::DispatchMap& map,
                                        const analysis::Segment& segment) {
  if (auto m = match_gemm(code, map, segment)) return m;
  if (auto m = match_reduce_dim(code, map, segment)) return m;
  if (auto m = match_row_two_pass(code, map, segment)) return m;
  if (auto m = match_norm(code, map, segment)) return m;
  if (auto m = match_cross_entropy(code, map, segment)) return m;
  if (auto m = match_scan(code, map, segment)) return m;
  if (auto m = match_group_norm(code, map, segment)) return m;
  return match_pool(code, map, segment);
}

std::string proposer_of(const RecipeMatch& match) {
  if (match.recipe == "fuse" || match.recipe == "split" || match.recipe == "retile") {
    return "rewrite";
  }
  return match.recipe == "config" || match.recipe == "rewrite" ? match.recipe : "recipe";
}

std::string strategy_of(const RecipeMatch& match) {
  return proposer_of(match) == "recipe" ? "recipe:" + match.recipe : match.recipe;
}

std::vector<RecipeMatch> match_strategies(const inductor::OutputCode& code,
                                          const analysis::DispatchMap& map,
                                          const analysis::Segment& segment) {
  std::vector<RecipeMatch> out;
  auto recipe = match_recipe(code, map, segment);
  auto config = match_config(code, map, segment);
  auto rewrite = match_rewrite(code, map, segment);
  auto fuse = match_fuse(code, map, segment);
  auto split = split_of(fuse, rewrite, config);  // builds on the others' launches
  auto retile = retile_of(fuse, rewrite, config);
  for (auto* match : {&recipe, &config, &rewrite, &fuse, &split, &retile}) {
    if (*match) out.push_back(std::move(**match));
  }
  return out;
}

namespace {

// Starting tiles fitted to a dimension: `columns` rounded up to a power of two within
// [least_block, most_block], and as many rows as make each of `elements` a program, within
// [1, most_rows]. (rows, block) pairs.
std::vector<std::pair<std::int64_t, std::int64_t>> fitted_tiles(
    std::int64_t columns,
    std::initializer_list<std::int64_t> elements,
    std::int64_t most_rows,
    std::int64_t least_block = 16,
    std::int64_t most_block = std::numeric_limits<std::int64_t>::max()) {
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

}  // namespace

std::vector<nlohmann::json> recipe_settings(const RecipeMatch& match) {
  if (match.recipe == "config") return config_settings(match);
  if (match.recipe == "rewrite") return rewrite_settings(match);
  if (match.recipe == "split" || match.recipe == "retile") {
    return on_bases_settings(match, fuse_settings);
  }
  if (match.recipe == "fuse") return fuse_settings(match);
  if (match.recipe == "reduce_dim") {
    // Fewer than 128 columns: tiles as wide as the columns (a power of two, at least 16) and as
    // many rows a step as make 512 and 1024 elements (at most 32).
    const std::int64_t columns = match.params.value("columns", std::int64_t{0});
    if (columns > 0 && columns < 128) return narrow_column_tiles(columns);
    // Arg-reductions won with 8 x 128 tiles, plain ones with 2 x 1024 (H200, results/gates/).
    return {{{"rows_per_step", 8}, {"cols_per_program", 128}, {"num_warps", 4}},
            {{"rows_per_step", 8}, {"cols_per_program", 256}, {"num_warps", 4}},
            {{"rows_per_step", 2}, {"cols_per_program", 1024}, {"num_warps", 8}}};
  }
  if (match.recipe == "norm_dim" && !match.params.value("last", false)) {
    // A dimension of at most 1024 held whole in registers (rows_per_step 0: one read of x), with
    // as many columns as make 4096 and 2048 elements a program (session 32, H100: walking 80
    // channels twice ran at 0.70x of Inductor's one pass); then reduce_dim's tiles, walked twice:
    // as wide as few columns, else 8 x 128 and 4 x 256.
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
  if (match.recipe == "gemm") {
    // Tiles of the usual Triton GEMM configurations: large square tiles, and two rectangles.
    return {{{"block_m", 128},
             {"block_n", 128},
             {"block_k", 32},
             {"group_m", 8},
             {"num_warps", 8},
             {"num_stages", 3}},
            {{"block_m", 64},
             {"block_n", 128},
             {"block_k", 32},
             {"group_m", 8},
             {"num_warps", 4},
             {"num_stages", 4}},
            {{"block_m", 128},
             {"block_n", 64},
             {"block_k", 32},
             {"group_m", 8},
             {"num_warps", 4},
             {"num_stages", 4}}};
  }
  if (match.recipe == "pool") {
    // Output rows x contiguous output columns per program: columns as many as the output's rows
    // have (a power of two, at most 1024), rows to 1024 and 2048 elements a program; then, for
    // rows of 256 columns or more, four rows of 256.
    const std::int64_t columns = match.params.value("columns", std::int64_t{256});
    const auto t = fitted_tiles(columns, {1024, 2048}, 64, 32, 1024);
    std::vector<nlohmann::json> settings = {
        {{"rows", t.at(0).first}, {"block", t.at(0).second}, {"num_warps", 4}},
        {{"rows", t.at(1).first}, {"block", t.at(1).second}, {"num_warps", 8}}};
    // Not twice where the first tile is already 4 x 256.
    if (columns >= 256 && t.at(0).second != 256) {
      settings.push_back({{"rows", 4}, {"block", 256}, {"num_warps", 4}});
    }
    // A max pool with stride 1 and a power-of-two window along the last dim: the running-max
    // form first (two loads an element instead of one a tap; pool.py's `sliding`), 256 and 1024
    // windows of each phase a program.
    const auto& p = match.params;
    const long last_kernel = p.at("kernel").back().get<long>();
    if (p.at("op") == "max" && p.at("stride").back().get<long>() == 1 && last_kernel >= 2 &&
        (last_kernel & (last_kernel - 1)) == 0) {
      settings.insert(settings.begin(),
                      {{{"rows", 1}, {"block", 256}, {"num_warps", 4}, {"sliding", 1}},
                       {{"rows", 1}, {"block", 1024}, {"num_warps", 8}, {"sliding", 1}}});
    }
    return settings;
  }
  if (match.recipe == "scan") {
    // Rows shorter than 1024: a chunk as long as the row (a power of two) and as many rows a
    // program as make 2048, 4096 and 1024 elements (at most 64 rows).
    const std::int64_t columns = match.params.value("columns", std::int64_t{0});
    if (columns > 0 && columns < 1024) {
      const auto t = fitted_tiles(columns, {2048, 4096, 1024}, 64);
      return {{{"rows", t.at(0).first}, {"block", t.at(0).second}, {"num_warps", 4}},
              {{"rows", t.at(1).first}, {"block", t.at(1).second}, {"num_warps", 8}},
              {{"rows", t.at(2).first}, {"block", t.at(2).second}, {"num_warps", 2}}};
    }
    // Inductor's looped scan runs one row per program in 1024-2048 chunks; a row per program with
    // wide chunks, and several rows per program for shorter rows.
    return {{{"rows", 1}, {"block", 2048}, {"num_warps", 8}},
            {{"rows", 1}, {"block", 1024}, {"num_warps", 4}},
            {{"rows", 4}, {"block", 512}, {"num_warps", 8}}};
  }
  if (match.recipe == "group_norm") {
    // Groups split among programs as row_two_pass's long rows (4 per SM: 1.05x on L1/23's
    // softmax rows, H200 call L), a wider variant, and a group per program.
    return {
        {{"block", 4096}, {"num_warps", 8}, {"programs_per_sm", 4}, {"reverse", 1}, {"split", 0}},
        {{"block", 8192}, {"num_warps", 16}, {"programs_per_sm", 2}, {"reverse", 1}, {"split", 0}},
        {{"block", 2048}, {"num_warps", 8}, {"programs_per_sm", 4}, {"reverse", 1}, {"split", 1}}};
  }
  if (match.recipe == "cross_entropy") {
    // Two whole rows per program and 8 warps won for 32768 x 4096 on the H200 (call 6).
    return {{{"rows", 2}, {"num_warps", 8}},
            {{"rows", 1}, {"num_warps", 8}},
            {{"rows", 4}, {"num_warps", 16}}};
  }
  // row_two_pass: the winners of 54 settings on the H200 for L2 normalization (4096 x 16 warps,
  // one program per row, backward second pass) and softmax (1024 x 16 warps, forward), and the
  // best persistent setting (results/gates/variants/call7_*).
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

std::vector<nlohmann::json> recipe_neighbours(const RecipeMatch& match,
                                              const nlohmann::json& settings) {
  struct Knob {
    const char* key;
    long low;
    long high;
  };

  if (settings.contains("on")) {  // a split's or retile's further base: that base's neighbours
    const auto [on_base, own] = on_chosen_base(match, settings);
    std::vector<nlohmann::json> out = recipe_neighbours(on_base, own);
    for (auto& s : out) {
      s["on"] = settings.at("on");
    }
    return out;
  }
  // Per recipe: its knobs, and the most elements one program may hold (product of the element
  // knobs) before it spills.
  if (match.recipe == "fuse" || match.params.contains("launches")) {
    return fuse_neighbours(match, settings);  // per launch of a whole segment
  }
  std::vector<Knob> knobs;
  std::vector<const char*> elements;
  long max_elements = 16384;
  const bool middle_norm = match.recipe == "norm_dim" && !match.params.value("last", false);
  if (middle_norm && settings.value("rows_per_step", 1L) == 0) {
    // The whole dimension in registers: norm_dim.py holds at most 32768 elements.
    knobs = {{"cols_per_program", 1, 256}, {"num_warps", 1, 16}};
    elements = {"cols_per_program"};
    max_elements = std::max<long>(1, 32768 / next_power_of_two(match.params.value("size", 1L)));
  } else if (match.recipe == "reduce_dim" || middle_norm) {
    knobs = {{"rows_per_step", 1, 32}, {"cols_per_program", 16, 2048}, {"num_warps", 1, 16}};
    elements = {"rows_per_step", "cols_per_program"};
    max_elements = 8192;
  } else if (match.recipe == "pool" && settings.value("sliding", 0) != 0) {
    knobs = {{"block", 8, 4096}, {"num_warps", 1, 16}};  // one output row a program
  } else if (match.recipe == "pool") {
    knobs = {{"rows", 1, 16}, {"block", 32, 2048}, {"num_warps", 1, 16}};
    elements = {"rows", "block"};
    max_elements = 8192;
  } else if (match.recipe == "scan") {
    knobs = {{"rows", 1, 64}, {"block", 16, 8192}, {"num_warps", 1, 16}};
    elements = {"rows", "block"};
  } else if (match.recipe == "cross_entropy") {
    knobs = {{"rows", 1, 8}, {"num_warps", 1, 32}};
  } else if (match.recipe == "gemm") {
    knobs = {{"block_m", 16, 256}, {"block_n", 16, 256}, {"block_k", 16, 128},
             {"group_m", 1, 16},   {"num_warps", 1, 16}, {"num_stages", 1, 6}};
    elements = {"block_m", "block_n"};
    max_elements = 32768;
  } else if (match.recipe == "config" && match.params.value("kind", "") == "template") {
    return {};  // a template inside a fused segment keeps Inductor's launch
  } else if (match.recipe == "config" || match.recipe == "rewrite") {
    knobs = {{"XBLOCK", 1, 4096},    {"YBLOCK", 1, 1024},
             {"R0_BLOCK", 16, 8192}, {"num_warps", 1, 32},
             {"num_stages", 1, 4},   {"SPLIT", 2, 256},  // a split launch's chunks a row
             {"RESIDENT", 1, 8},                         // a two-walk split's programs per SM
             {"SB", 1, 1024},        {"CHUNK", 16, 1L << 24}};  // a retile's tile and chunk
    elements = {"XBLOCK", "YBLOCK", "R0_BLOCK"};
    if (match.params.contains("fixed")) {  // a persistent reduction's whole row per program
      max_elements =
          std::max<long>(1, max_elements / match.params.at("fixed").value("R0_BLOCK", 1L));
    }
  } else if (match.recipe == "row_two_pass" || match.recipe == "group_norm" ||
             match.recipe == "norm_dim") {
    knobs = {
        {"block", 256, 16384}, {"num_warps", 1, 32}, {"programs_per_sm", 1, 4}, {"split", 2, 256}};
    elements = {"block"};
  }
  std::vector<nlohmann::json> out;
  const auto fits = [&](const nlohmann::json& s) {
    long product = 1;
    for (const char* key : elements) {
      product *= s.value(key, 1L);
    }
    return product <= max_elements;
  };
  for (const Knob& knob : knobs) {
    if (!settings.contains(knob.key)) continue;
    const long value = settings.at(knob.key).get<long>();
    for (const long next : {value * 2, value / 2}) {
      if (value == 0 || next < knob.low || next > knob.high) continue;
      nlohmann::json s = settings;
      s[knob.key] = next;
      if (fits(s) && config_fits(match, s)) {
        out.push_back(std::move(s));
      }
    }
  }
  const bool row_norm = match.recipe == "norm_dim" && match.params.value("last", false);
  if (match.recipe == "row_two_pass" || match.recipe == "group_norm" || row_norm) {
    nlohmann::json flipped = settings;
    flipped["reverse"] = settings.value("reverse", 1) != 0 ? 0 : 1;
    out.push_back(std::move(flipped));
  }
  if (match.recipe == "row_two_pass" || row_norm) {
    nlohmann::json persistent = settings;  // one program per row <-> one per SM
    persistent["programs_per_sm"] = settings.value("programs_per_sm", 0) == 0 ? 1 : 0;
    out.push_back(std::move(persistent));
  }
  return out;
}

namespace {

// A candidate file's opening, up to the body of run(): the docstring, the recipe's import (the
// module is python/kernelopt/recipes/<recipe>.py), the signature.
std::string prelude(const RecipeMatch& match, int segment, const std::string& function) {
  return fmt::format(
      "\"\"\"Segment {}: {}.\n\nWritten by kernelopt from the {} recipe "
      "(python/kernelopt/recipes/{}.py).\n\"\"\"\n\n"
      "from kernelopt.recipes.{} import {}\n\n\n"
      "def run(inputs, outputs):\n",
      segment, match.why, match.recipe, match.recipe, match.recipe, function);
}

}  // namespace

std::string candidate_source(const RecipeMatch& match,
                             int segment,
                             const nlohmann::json& settings) {
  if (match.recipe == "config" || match.recipe == "rewrite") {
    return config_source(match, segment, settings);
  }
  if (match.recipe == "split" || match.recipe == "retile") {
    const auto [on_base, own] = on_chosen_base(match, settings);
    return fuse_source(on_base, segment, own);
  }
  if (match.recipe == "fuse") return fuse_source(match, segment, settings);
  if (match.recipe == "gemm") {
    const auto& p = match.params;
    std::vector<std::string> operands;
    for (const auto& operand : p.at("operands")) {
      const std::string name = operand.at("name").get<std::string>();
      const auto& view = operand.at("view");
      std::string text = view.is_null() ? fmt::format("inputs[\"{}\"]", name)
                                        : fmt::format("view(inputs[\"{}\"], {}, {}, {})", name,
                                                      view.at("size").get<std::string>(),
                                                      view.at("stride").get<std::string>(),
                                                      view.at("offset").get<long>());
      if (operand.contains("reshape")) {
        text += fmt::format(".reshape({})", operand.at("reshape").get<std::string>());
      }
      operands.push_back(std::move(text));
    }
    const bool bias = operands.size() == 3;
    return prelude(match, segment, "gemm, view") +
           fmt::format(
               "    a = {a}\n"
               "    b = {b}\n"
               "    bias = {bias}\n"
               "    out = outputs[\"{out}\"]{out_view}\n"
               "    gemm(a, b, out, bias, {alpha}, {beta}, block_m={bm}, block_n={bn}, "
               "block_k={bk},\n"
               "         group_m={gm}, num_warps={warps}, num_stages={stages})\n",
               fmt::arg("a", operands[bias ? 1 : 0]), fmt::arg("b", operands[bias ? 2 : 1]),
               fmt::arg("bias", bias ? operands[0] : std::string("None")),
               fmt::arg("out", p.at("out").get<std::string>()),
               fmt::arg("out_view",
                        p.contains("out_shape")
                            ? fmt::format(".view({})", p.at("out_shape").get<std::string>())
                            : std::string()),
               fmt::arg("alpha", p.at("alpha").get<std::string>()),
               fmt::arg("beta", p.at("beta").get<std::string>()),
               fmt::arg("bm", settings.value("block_m", 64)),
               fmt::arg("bn", settings.value("block_n", 64)),
               fmt::arg("bk", settings.value("block_k", 32)),
               fmt::arg("gm", settings.value("group_m", 8)),
               fmt::arg("warps", settings.value("num_warps", 4)),
               fmt::arg("stages", settings.value("num_stages", 3)));
  }
  if (match.recipe == "pool") {
    const auto& p = match.params;
    const std::string lift = p.at("unsqueeze").is_null()
                                 ? ""
                                 : fmt::format(".unsqueeze({})", p.at("unsqueeze").get<long>());
    const auto list = [&](const char* key) {
      return fmt::format("[{}]", fmt::join(p.at(key).get<std::vector<long>>(), ", "));
    };
    const bool avg = p.at("op") == "avg";
    const std::string call =
        avg ? fmt::format("avg_pool(x, out, {}, {}, {}, {}, {}, {}, ", list("kernel"),
                          list("stride"), list("padding"),
                          p.at("ceil_mode").get<bool>() ? "True" : "False",
                          p.at("count_include_pad").get<bool>() ? "True" : "False",
                          p.at("divisor_override").is_null()
                              ? std::string("None")
                              : std::to_string(p.at("divisor_override").get<long>()))
            : fmt::format("max_pool(x, out, {}, {}, {}, {}, ", list("kernel"), list("stride"),
                          list("padding"), list("dilation"));
    return prelude(match, segment, avg ? "avg_pool" : "max_pool") +
           fmt::format(
               "    x = inputs[\"{x}\"]{lift}\n"
               "    (out,) = outputs.values()\n"
               "    {call}rows={rows}, block={block}, num_warps={warps}{ceil}{sliding})\n",
               fmt::arg("x", p.at("x").get<std::string>()), fmt::arg("lift", lift),
               fmt::arg("call", call), fmt::arg("rows", settings.value("rows", 4)),
               fmt::arg("block", settings.value("block", 256)),
               fmt::arg("warps", settings.value("num_warps", 4)),
               fmt::arg("ceil", avg ? ""
                                    : (p.at("ceil_mode").get<bool>() ? ", ceil_mode=True"
                                                                     : ", ceil_mode=False")),
               fmt::arg("sliding", settings.value("sliding", 0) != 0 ? ", sliding=1" : ""));
  }
  if (match.recipe == "scan") {
    const bool masked = !match.params.at("mask").is_null();
    return prelude(match, segment, "cumsum_rows") +
           fmt::format(
               "    x = inputs[\"{x}\"]\n"
               "    mask = {mask}\n"
               "    (out,) = outputs.values()\n"
               "    n = x.shape[-1]\n"
               "    cumsum_rows(x.view(-1, n), out.view(-1, n{wider}),\n"
               "                None if mask is None else mask.view(-1, n),\n"
               "                {reverse}, {rows}, {block}, {warps}, \"{op}\", "
               "minus={minus}{scale}{shift})\n",
               fmt::arg("wider", match.params.value("prepend", false) ? " + 1" : ""),
               fmt::arg("shift", match.params.value("prepend", false)     ? ", prepend=True"
                                 : match.params.value("exclusive", false) ? ", exclusive=True"
                                                                          : ""),
               fmt::arg("x", match.params.at("x").get<std::string>()),
               fmt::arg("mask", masked ? fmt::format("inputs[\"{}\"]",
                                                     match.params.at("mask").get<std::string>())
                                       : std::string("None")),
               fmt::arg("reverse", match.params.at("reverse").get<bool>() ? "True" : "False"),
               fmt::arg("op", match.params.value("op", "sum")),
               fmt::arg("minus", match.params.value("minus", false) ? "True" : "False"),
               fmt::arg("scale",
                        match.params.contains("scale")
                            ? fmt::format(", scale={}", match.params.at("scale").get<double>())
                            : std::string()),
               fmt::arg("rows", settings.value("rows", 1)),
               fmt::arg("block", settings.value("block", 1024)),
               fmt::arg("warps", settings.value("num_warps", 4)));
  }
  if (match.recipe == "cross_entropy") {
    return prelude(match, segment, "cross_entropy") +
           fmt::format(
               "    x = next(t for t in inputs.values() if t.is_floating_point())\n"
               "    target = next(t for t in inputs.values() if not t.is_floating_point())\n"
               "    (out,) = outputs.values()\n"
               "    cross_entropy(x, target, out, \"{reduction}\", {ignore}, {rows}, {warps})\n",
               fmt::arg("reduction", match.params.at("reduction").get<std::string>()),
               fmt::arg("ignore", match.params.at("ignore_index").get<long>()),
               fmt::arg("rows", settings.value("rows", 2)),
               fmt::arg("warps", settings.value("num_warps", 8)));
  }
  if (match.recipe == "group_norm") {
    const auto& p = match.params;
    const auto tensor = [](const nlohmann::json& name) {
      return name.is_null() ? std::string("None")
                            : fmt::format("inputs[\"{}\"]", name.get<std::string>());
    };
    const bool layer = p.value("kind", "group") == "layer";
    const char* function = layer ? "layer_norm" : "group_norm";
    return prelude(match, segment, function) +
           fmt::format(
               "    (out,) = outputs.values()\n"
               "    {function}({x}, {w}, {b}, out, {groups}, {eps}, {block}, {warps}, {pps}, "
               "{split}, {reverse})\n",
               fmt::arg("function", function), fmt::arg("x", tensor(p.at("x"))),
               fmt::arg("w", tensor(p.at("weight"))), fmt::arg("b", tensor(p.at("bias"))),
               fmt::arg("groups", p.at(layer ? "dims" : "groups").get<long>()),
               fmt::arg("eps", p.at("eps").get<std::string>()),
               fmt::arg("block", settings.value("block", 4096)),
               fmt::arg("warps", settings.value("num_warps", 8)),
               fmt::arg("pps", settings.value("programs_per_sm", 4)),
               fmt::arg("split", settings.value("split", 0)),
               fmt::arg("reverse", settings.value("reverse", 1)));
  }
  if (match.recipe == "norm_dim") {
    const auto& p = match.params;
    const bool last = p.value("last", false);
    const std::string tiles =
        last ? fmt::format("block={}, num_warps={}, programs_per_sm={}, reverse={}, split={}",
                           settings.value("block", 2048), settings.value("num_warps", 8),
                           settings.value("programs_per_sm", 1),
                           settings.value("reverse", 1) != 0 ? "True" : "False",
                           settings.value("split", 1))
             : fmt::format("rows_per_step={}, cols_per_program={}, num_warps={}",
                           settings.value("rows_per_step", 8),
                           settings.value("cols_per_program", 128), settings.value("num_warps", 4));
    return prelude(match, segment, "norm_dim") +
           fmt::format(
               "    x = inputs[\"{x}\"]\n"
               "    weight = {weight}\n"
               "    (out,) = outputs.values()\n"
               "    norm_dim(x, out, {dim}, p={p}, mean={mean}, eps={eps}, clamp={clamp}, "
               "weight=weight,\n"
               "             {tiles})\n",
               fmt::arg("x", p.at("x").get<std::string>()),
               fmt::arg("weight",
                        p.at("weight").is_null()
                            ? std::string("None")
                            : fmt::format("inputs[\"{}\"]", p.at("weight").get<std::string>())),
               fmt::arg("dim", p.at("dim").get<long>()), fmt::arg("p", p.at("p").get<long>()),
               fmt::arg("mean", p.at("mean").get<bool>() ? "True" : "False"),
               fmt::arg("eps", p.at("eps").get<double>()),
               fmt::arg("clamp", p.at("clamp").get<double>()), fmt::arg("tiles", tiles));
  }
  if (match.recipe == "row_two_pass") {
    return prelude(match, segment, "row_two_pass") +
           fmt::format(
               "    (x,) = inputs.values()\n"
               "    (out,) = outputs.values()\n"
               "    n = x.shape[-1]\n"
               "    row_two_pass(x.view(-1, n), out.view(-1, n), \"{op}\", {block}, {warps}, "
               "{pps}, "
               "{reverse}{split})\n",
               fmt::arg("op", match.params.at("op").get<std::string>()),
               fmt::arg("block", settings.value("block", 2048)),
               fmt::arg("warps", settings.value("num_warps", 8)),
               fmt::arg("pps", settings.value("programs_per_sm", 1)),
               fmt::arg("reverse", settings.value("reverse", 1)),
               fmt::arg("split", settings.contains("split")
                                     ? fmt::format(", split={}", settings.at("split").get<long>())
                                     : std::string()));
  }
  return prelude(match, segment, "reduce_dim") +
         fmt::format(
             "    (x,) = inputs.values()\n"
             "    (out,) = outputs.values()\n"
             "    reduce_dim(x, out, {dim}, \"{op}\", {rb}, {cb}, {warps})\n",
             fmt::arg("dim", match.params.at("dim").get<long>()),
             fmt::arg("op", match.params.at("op").get<std::string>()),
             fmt::arg("rb", settings.value("rows_per_step", 8)),
             fmt::arg("cb", settings.value("cols_per_program", 256)),
             fmt::arg("warps", settings.value("num_warps", 4)));
}

}  // namespace kernelopt::search
