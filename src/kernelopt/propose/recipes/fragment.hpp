// Shared by the recipe proposers: reading a segment's graph fragments (literals, inputs, the
// nodes by name), starting tiles, and a candidate file's opening.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/graph_fragment.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/propose/proposer.hpp"

namespace kernelopt::propose {

// An integer literal ("8", "-1", "[1]"), or nullopt.
std::optional<long> integer(std::string text);
// A floating-point literal, or nullopt.
std::optional<double> literal(const std::string& text);
bool number(const std::string& text);
// Whether the input's dimensions after `dim` are contiguous (literal sizes and strides).
bool contiguous_after(const inductor::FragmentNode& input, long dim);
// The elements after `dim` (0 when a size is not literal).
long columns_after(const inductor::FragmentNode& input, long dim);
// Every launch's fragment of the segment, in order; nullopt when one is missing.
std::optional<std::vector<inductor::GraphFragment>> all_fragments(const inductor::OutputCode& code,
                                                                  const analysis::DispatchMap& map,
                                                                  const analysis::Segment& segment);
// The fragment of a one-launch segment, or nullopt.
std::optional<inductor::GraphFragment> single_fragment(const inductor::OutputCode& code,
                                                       const analysis::DispatchMap& map,
                                                       const analysis::Segment& segment);
// The node name an argument refers to: "%arg0_1" -> "arg0_1".
std::string referenced(const std::string& arg);
// Whether a dim argument ("1", "-1", "[1]") names the last of `rank` dimensions.
bool is_last_dim(const std::string& arg, long rank);
bool is_getitem(const inductor::FragmentNode& node);
bool float_dtype(const std::string& dtype);
// Bytes per element of a float_dtype.
long element_bytes(const std::string& dtype);
// row_two_pass's parameters: the op, and the bytes of a row when its length is a literal.
nlohmann::json row_params(const char* op, const inductor::FragmentNode& input);

// Every node of a segment's fragments by name (a later kernel sees an earlier one's result as a
// placeholder of the same name: the call_function definition wins), and the call_functions once
// each in order (getitems aside).
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

// The index of the fragments; nullopt if a call's target is not `allowed`.
std::optional<NodeIndex> index_nodes(const std::vector<inductor::GraphFragment>& fragments,
                                     const std::set<std::string>& allowed);
// The placeholder a node's first argument names, or nullptr.
const inductor::FragmentNode* first_input(const inductor::GraphFragment& fragment,
                                          const inductor::FragmentNode& node);
// "[1, 8]" -> {1, 8}; "[]" -> {}; nullopt when not a list of integers.
std::optional<std::vector<long>> integer_list(const std::string& text);

// Starting tiles fitted to a dimension: `columns` rounded up to a power of two within
// [least_block, most_block], and as many rows as make each of `elements` a program, within
// [1, most_rows]. (rows, block) pairs.
std::vector<std::pair<std::int64_t, std::int64_t>> fitted_tiles(
    std::int64_t columns,
    std::initializer_list<std::int64_t> elements,
    std::int64_t most_rows,
    std::int64_t least_block = 16,
    std::int64_t most_block = std::numeric_limits<std::int64_t>::max());
// reduce_dim's tiles for fewer than 128 columns after the reduced dimension (also norm_dim's).
std::vector<nlohmann::json> narrow_column_tiles(std::int64_t columns);

// The recipes' common half: a candidate calls launch(inputs, outputs, PARAMS, SETTINGS) of
// python/kernelopt/recipes/<recipe>.py with the match's params and the settings as Python
// literals, so how a recipe's parameters become its call is written once, in the recipe's module.
class Recipe : public Proposer {
 public:
  [[nodiscard]] std::string_view family() const override { return "recipe"; }

  [[nodiscard]] std::string source(const Match& match,
                                   int segment,
                                   const nlohmann::json& settings) const override;
};

// A JSON value as the Python literal of the same value (null None, true True, objects dicts).
std::string python_literal(const nlohmann::json& value);

// Starting settings of a recipe over rows (row_two_pass, and norm_dim over the innermost dim).
std::vector<nlohmann::json> row_settings(const Match& match);
// The knobs of the recipes over rows (row_two_pass, group_norm, norm_dim over the innermost
// dim): block, warps, programs per SM, split, the second pass's direction, and where
// `persistent_toggle`, one program per row <-> one per SM.
KnobSpace row_knobs(bool persistent_toggle);
// The knobs of the recipes that walk rows of a dimension that is not the innermost (reduce_dim,
// norm_dim's walking tiles).
KnobSpace walking_tile_knobs();

}  // namespace kernelopt::propose
