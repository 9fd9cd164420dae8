// The paper's outcome classes (Table 1), decided from the dispatch class and the cascade.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/gate/cascade.hpp"

namespace kernelopt::engine {

struct ProblemOutcome {
  std::string outcome_class;    // "optimized", "matched (optimized)", "matched (synthesis failed)",
                                // "fallback"
  std::string reason;           // for a fallback: vendor-dominated, no Triton kernel, rejected by
                                // the performance gate, model-level correctness
  std::optional<double> ratio;  // the accepted set's speedup over the baseline
  std::optional<double> low;
  std::optional<double> high;
};

ProblemOutcome classify_problem(analysis::ProblemClass dispatch, const gate::CascadeResult& result);

nlohmann::json to_json(const ProblemOutcome& outcome);

// G4 replays the compiled graphs only. Where the model spends `outside_ms` of GPU time outside
// them (eager code between graph breaks), turns the outcome's measured ratio and interval into
// the whole model's (analysis::whole_model_ratio, `graphs_ms` the graphs' replay), keeps G4's as
// graphs_ratio, graphs_ratio_low and graphs_ratio_high, and says so in "note"; an "optimized"
// class whose whole-model gain is under 1.01x or not above 1.0 becomes "matched (optimized)",
// as classify_problem would have named it. Does nothing
// without such time, without a measured ratio, or where the outcome already has graphs_ratio.
void to_whole_model(nlohmann::json& outcome, double graphs_ms, double outside_ms);

// Applies a second G4 measurement (`again`, Cascade::confirm) of the accepted set of `result`:
// when it is measurably faster too (search::measurably_faster: >= 1.01x, an interval above 1.0,
// the slowest candidate capture ahead of the fastest baseline capture), it replaces the first
// G4 verdict (whose numbers stay under "first") and the choice stands, so the reported ratio is
// the one measured without selection; otherwise the verdict becomes a G4 rejection, nothing is
// accepted, and false is returned. `result` must have an accepted set.
bool confirm_choice(gate::CascadeResult& result, const Outcome& again);

}  // namespace kernelopt::engine
