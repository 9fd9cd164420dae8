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

std::optional<Match> match_scan(const inductor::OutputCode& code,
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
                          std::string why) -> std::optional<Match> {
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
    return Match{"scan", std::move(params), std::move(why)};
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

namespace {

class Scan final : public Recipe {
 public:
  std::string_view name() const override { return "scan"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_scan(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
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

  KnobSpace knobs(const Match& /*match*/, const nlohmann::json& /*settings*/) const override {
    return {{{"rows", 1, 64}, {"block", 16, 8192}, {"num_warps", 1, 16}}, {"rows", "block"}, 16384};
  }
};

}  // namespace

std::unique_ptr<Proposer> make_scan() {
  return std::make_unique<Scan>();
}

}  // namespace kernelopt::propose
