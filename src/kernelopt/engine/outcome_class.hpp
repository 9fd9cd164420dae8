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

}  // namespace kernelopt::engine
