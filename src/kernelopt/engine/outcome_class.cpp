#include "kernelopt/engine/outcome_class.hpp"

#include <fmt/format.h>

#include "kernelopt/core/check.hpp"
#include "kernelopt/search/roles.hpp"

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

bool confirm_choice(gate::CascadeResult& result, const Outcome& again) {
  KO_CHECK(result.accepted.has_value());
  Outcome& verdict = result.attempts[*result.accepted].outcomes.back();
  search::Attempt a;
  search::read_timing(again.numbers, a);
  const bool confirmed = again.ok() && search::measurably_faster(a);
  nlohmann::json numbers = again.numbers.is_object() ? again.numbers : nlohmann::json::object();
  nlohmann::json first = nlohmann::json::object();
  for (const char* name : {"ratio", "ratio_low", "ratio_high", "ratio_worst_capture"}) {
    if (verdict.numbers.contains(name)) first[name] = verdict.numbers.at(name);
  }
  first["detail"] = verdict.detail;
  numbers["first"] = first;
  if (confirmed) {
    verdict = Outcome{Status::kOk, "G4 performance",
                      fmt::format("confirmed by a second measurement: {}", again.detail), numbers};
    return true;
  }
  verdict = Outcome{again.ok() ? Status::kSlower : again.status, "G4 performance",
                    fmt::format("not confirmed by a second measurement: {} (first: {})",
                                again.detail, verdict.detail),
                    numbers};
  result.accepted.reset();
  return false;
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

void to_whole_model(nlohmann::json& outcome, double graphs_ms, double outside_ms) {
  if (outside_ms <= 0 || graphs_ms <= 0 || outcome.contains("graphs_ratio") ||
      !outcome.contains("ratio") || !outcome.at("ratio").is_number()) {
    return;
  }
  for (const char* key : {"ratio", "ratio_low", "ratio_high"}) {
    if (!outcome.contains(key) || !outcome.at(key).is_number()) continue;
    outcome[std::string("graphs_") + key] = outcome.at(key);
    outcome[key] =
        analysis::whole_model_ratio(outcome.at(key).get<double>(), graphs_ms, outside_ms);
  }
  outcome["note"] = fmt::format(
      "whole-model ratio: G4's {:.3f}x over the compiled graphs ({:.3f} ms), with {:.3f} ms of "
      "GPU time outside them unchanged",
      outcome.at("graphs_ratio").get<double>(), graphs_ms, outside_ms);
  // "optimized" is a measurable gain of the problem: at least 1.01x, the interval above 1.0.
  const double low = outcome.value("ratio_low", 0.0);
  if (outcome.value("class", "") == "optimized" &&
      (outcome.at("ratio").get<double>() < 1.01 || low <= 1.0)) {
    outcome["class"] = "matched (optimized)";
  }
}

}  // namespace kernelopt::engine
