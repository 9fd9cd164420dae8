// G3 model: the recomposed model against eager at 1e-4; else the float64 fallback.
#include <limits>
#include <string>

#include <fmt/format.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

namespace {

const char* const kGate = "G3 model";

nlohmann::json as_request_map(const Recomposed& recomposed) {
  nlohmann::json map = nlohmann::json::object();
  for (const auto& [graph, path] : recomposed) {
    map[std::to_string(graph)] = path;
  }
  return map;
}

double number(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) return 0.0;
  if (j[key].is_number()) return j[key].get<double>();
  return std::numeric_limits<double>::infinity();  // "nan" / "inf" travel as strings
}

}  // namespace

Outcome judge_model(const nlohmann::json& n, const Thresholds& t) {
  const auto seeds = n.value("seeds", nlohmann::json::array());
  if (seeds.empty()) return Outcome{Status::kRaised, kGate, "no seed was checked", n};
  int fallbacks = 0;
  for (const auto& s : seeds) {
    if (s.contains("error") && s["error"].is_object()) {
      return Outcome{s["error"].value("kind", "") == "cuda" ? Status::kCrashed : Status::kRaised,
                     kGate,
                     fmt::format("seed {}: {}", s.value("seed", -1),
                                 s["error"].value("message", "the recomposed model failed")),
                     n};
    }
    if (s.value("allclose_1e4", false)) continue;
    if (s.contains("float64_error") && !s["float64_error"].is_null()) {  // no fallback to take
      return Outcome{
          Status::kModelMismatch, kGate,
          fmt::format("seed {}: differs from eager by {:.3g}, and the model has no "
                      "float64 reference for the fallback ({})",
                      s.value("seed", -1), number(s, "max_abs_vs_eager"),
                      s["float64_error"].is_string() ? s["float64_error"].get<std::string>()
                                                     : std::string("unknown")),
          n};
    }
    // A candidate's error that is not there is not small: only a number can pass.
    const double candidate = s.contains("candidate_err_f64")
                                 ? number(s, "candidate_err_f64")
                                 : std::numeric_limits<double>::infinity();
    const double baseline = number(s, "baseline_err_f64");
    if (candidate <= t.float64_factor * baseline) {
      ++fallbacks;
      continue;
    }
    return Outcome{Status::kModelMismatch, kGate,
                   fmt::format("seed {}: differs from eager by {:.3g}; against float64 {:.3g} vs "
                               "the compiler's {:.3g} (more than {}x)",
                               s.value("seed", -1), number(s, "max_abs_vs_eager"), candidate,
                               baseline, t.float64_factor),
                   n};
  }
  return Outcome{
      Status::kOk, kGate,
      fallbacks == 0
          ? fmt::format("{} seeds match eager at {}", seeds.size(), t.model_tol)
          : fmt::format("{} of {} seeds accepted by the float64 fallback", fallbacks, seeds.size()),
      n};
}

Outcome check_model(GateContext& ctx, const Recomposed& recomposed) {
  Outcome failed;
  const nlohmann::json numbers = ask_gate(ctx,
                                          {{"op", "model_check"},
                                           {"recomposed", as_request_map(recomposed)},
                                           {"seeds", ctx.thresholds.seeds}},
                                          kGate, failed);
  if (!failed.ok()) return failed;
  return judge_model(numbers, ctx.thresholds);
}

Outcome check_performance(GateContext& ctx, const Recomposed& recomposed) {
  Outcome failed;
  const nlohmann::json numbers = ask_gate(ctx,
                                          {{"op", "time_pair"},
                                           {"recomposed", as_request_map(recomposed)},
                                           {"samples", ctx.thresholds.samples},
                                           {"warmup", 5}},
                                          "G4 performance", failed);
  if (!failed.ok()) return failed;
  return judge_performance(numbers, ctx.thresholds);
}

}  // namespace kernelopt::gate
