#include "kernelopt/engine/outcome_class.hpp"

namespace kernelopt::engine {

namespace {

bool any_candidate_passed(const gate::CascadeResult& result) {
  for (const auto& c : result.candidates) {
    if (c.passed()) return true;
  }
  return false;
}

bool failed_at(const gate::CascadeResult& result, const char* gate) {
  for (const auto& attempt : result.attempts) {
    if (!attempt.outcomes.empty() && !attempt.outcomes.back().ok() &&
        attempt.outcomes.back().gate == gate) {
      return true;
    }
  }
  return false;
}

}  // namespace

ProblemOutcome classify_problem(analysis::ProblemClass dispatch,
                                const gate::CascadeResult& result) {
  ProblemOutcome out;
  if (result.accepted) {
    const Outcome& perf = result.attempts[*result.accepted].outcomes.back();
    out.ratio = perf.numbers.value("ratio", 0.0);
    out.low = perf.numbers.value("ratio_low", 0.0);
    out.high = perf.numbers.value("ratio_high", 0.0);
    out.outcome_class =
        (*out.ratio >= 1.01 && *out.low > 1.0) ? "optimized" : "matched (optimized)";
    return out;
  }
  if (dispatch == analysis::ProblemClass::kNoTriton) {
    return {"fallback", "no Triton kernel", {}, {}, {}};
  }
  if (dispatch == analysis::ProblemClass::kVendorDominated && !any_candidate_passed(result)) {
    return {"fallback", "vendor-dominated", {}, {}, {}};
  }
  if (!any_candidate_passed(result)) return {"matched (synthesis failed)", "", {}, {}, {}};
  if (failed_at(result, "G4 performance") && !failed_at(result, "G3 model")) {
    return {"fallback", "rejected by the performance gate", {}, {}, {}};
  }
  return {"fallback", "model-level correctness", {}, {}, {}};
}

nlohmann::json to_json(const ProblemOutcome& o) {
  auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  return {{"class", o.outcome_class},
          {"reason", o.reason},
          {"ratio", opt(o.ratio)},
          {"ratio_low", opt(o.low)},
          {"ratio_high", opt(o.high)}};
}

}  // namespace kernelopt::engine
