#pragma once
// Recipes matched on a segment's Graph fragment (the FX nodes Inductor wrote above its kernel):
// the first step of the `recipe` proposer (issue 5). A match names the recipe and its parameters;
// `candidate_source` writes the candidate file that calls the recipe
// (python/kernelopt/recipes/), to be checked by the gates like any other candidate.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::search {

struct RecipeMatch {
  std::string recipe;     // "reduce_dim"
  nlohmann::json params;  // reduce_dim: {"op": "argmax", "dim": 1}
  std::string why;        // one line: the node that matched
};

// reduce_dim: a segment of one launch computing one sum / max / min / amax / amin / argmax /
// argmin over one dimension that is not the innermost, of a floating-point graph input whose
// dimensions after it are contiguous. std::nullopt otherwise.
std::optional<RecipeMatch> match_reduce_dim(const inductor::OutputCode& code,
                                            const analysis::DispatchMap& map,
                                            const analysis::Segment& segment);

// The candidate file (Python) for a match, with the recipe's launch settings.
std::string candidate_source(const RecipeMatch& match, int segment, const nlohmann::json& settings);

}  // namespace kernelopt::search
