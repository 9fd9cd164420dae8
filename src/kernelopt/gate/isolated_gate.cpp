// G2 isolated: the candidate against the compiler's own segment, on the real inputs of each seed.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

namespace {

const char* const kGate = "G2 isolated";

long count(const nlohmann::json& seed, const char* key) {
  return seed.contains(key) && seed[key].is_number() ? seed[key].get<long>() : 0;
}

bool non_empty(const nlohmann::json& seed, const char* key) {
  return seed.contains(key) && seed[key].is_array() && !seed[key].empty();
}

// The first failure of one seed, in the order of the cheapest explanation.
Outcome judge_seed(const nlohmann::json& s, const std::vector<std::string>& scratch) {
  const int seed = s.value("seed", -1);
  auto fail = [&](Status status, const std::string& what) {
    return Outcome{status, kGate, fmt::format("seed {}: {}", seed, what), nullptr};
  };
  if (s.contains("error") && s["error"].is_object()) {
    const auto& e = s["error"];
    return fail(e.value("kind", "") == "cuda" ? Status::kCrashed : Status::kRaised,
                e.value("message", "run() failed"));
  }
  if (non_empty(s, "replaced_outputs")) {
    return fail(Status::kAliasedOutput, "replaced outputs " + s["replaced_outputs"].dump());
  }
  if (s.value("side_stream", false)) return fail(Status::kSideStream, "used another stream");
  if (count(s, "out_of_bounds") > 0) {
    return fail(Status::kOutOfBounds,
                fmt::format("{} guard elements overwritten", count(s, "out_of_bounds")));
  }
  if (count(s, "unwritten") > 0) {
    return fail(Status::kNotWritten,
                fmt::format("{} output elements never written", count(s, "unwritten")));
  }
  if (non_empty(s, "inputs_mutated")) {
    nlohmann::json changed = nlohmann::json::array();
    for (const auto& root : s["inputs_mutated"]) {
      if (!root.is_string() ||
          std::find(scratch.begin(), scratch.end(), root.get<std::string>()) == scratch.end()) {
        changed.push_back(root);
      }
    }
    if (!changed.empty()) return fail(Status::kMutatedInput, "changed inputs " + changed.dump());
  }
  if (count(s, "nan_mismatch") + count(s, "inf_mismatch") > 0) {
    return fail(Status::kNanInfMismatch,
                fmt::format("NaN/Inf in other places ({} NaN, {} Inf positions)",
                            count(s, "nan_mismatch"), count(s, "inf_mismatch")));
  }
  if (count(s, "mismatched") > 0) {
    return fail(Status::kWrongResult,
                fmt::format("{} elements outside tolerance (max abs error {:.3g})",
                            count(s, "mismatched"), s.value("max_abs_err", 0.0)));
  }
  if (!s.value("deterministic", false)) {
    return fail(Status::kNondeterministic, "two runs on the same inputs differ");
  }
  return Outcome{Status::kOk, kGate, "", nullptr};
}

}  // namespace

Outcome judge_isolated(const nlohmann::json& n,
                       const Thresholds& t,
                       const std::vector<std::string>& scratch) {
  if (n.contains("load_error") && !n["load_error"].is_null()) {
    const auto& e = n["load_error"];  // {kind, message}, or a plain message
    const std::string why = e.is_string() ? e.get<std::string>() : e.value("message", e.dump());
    return Outcome{Status::kCompileFailed, kGate, "does not load: " + why, n};
  }
  const auto seeds = n.value("seeds", nlohmann::json::array());
  if (seeds.size() < t.seeds.size()) {
    return Outcome{Status::kRaised, kGate,
                   fmt::format("only {} of {} seeds were checked", seeds.size(), t.seeds.size()),
                   n};
  }
  double worst = 0;
  for (const auto& seed : seeds) {
    Outcome outcome = judge_seed(seed, scratch);
    if (!outcome.ok()) {
      outcome.numbers = n;
      return outcome;
    }
    worst = std::max(worst, seed.value("max_abs_err", 0.0));
  }
  return Outcome{Status::kOk, kGate,
                 fmt::format("{} seeds match (max abs error {:.3g})", seeds.size(), worst), n};
}

namespace {

// The elements outside tolerance of a G2 failure (the largest count and error over the seeds).
struct Stray {
  long outside = 0;
  long elements = 0;
  double worst = 0;
};

// The part of a deferral that needs no model check: `failed` is a G2 failure by tolerance only
// (every other check of every seed passes) on at most `deferral_fraction` of the elements.
std::optional<Stray> could_defer(const Outcome& failed,
                                 const Thresholds& t,
                                 const std::vector<std::string>& scratch) {
  if (failed.status != Status::kWrongResult || !failed.numbers.is_object()) return std::nullopt;
  const auto seeds = failed.numbers.value("seeds", nlohmann::json::array());
  if (seeds.size() < t.seeds.size()) return std::nullopt;
  Stray stray;
  for (const auto& seed : seeds) {
    nlohmann::json within = seed;
    within["mismatched"] = 0;  // every other check of the seed must pass as it is
    if (!judge_seed(within, scratch).ok()) return std::nullopt;
    if (!seed.contains("elements") || !seed["elements"].is_number()) return std::nullopt;
    stray.outside = std::max(stray.outside, count(seed, "mismatched"));
    stray.elements = std::max(stray.elements, count(seed, "elements"));
    stray.worst = std::max(stray.worst, seed.value("max_abs_err", 0.0));
  }
  if (stray.elements <= 0 || static_cast<double>(stray.outside) >
                                 t.deferral_fraction * static_cast<double>(stray.elements)) {
    return std::nullopt;
  }
  return stray;
}

}  // namespace

Outcome judge_isolated_deferral(const Outcome& failed,
                                const nlohmann::json& baseline_model,
                                const Thresholds& t,
                                const std::vector<std::string>& scratch) {
  const std::optional<Stray> stray = could_defer(failed, t, scratch);
  if (!stray) return failed;
  const auto model_seeds = baseline_model.is_object()
                               ? baseline_model.value("seeds", nlohmann::json::array())
                               : nlohmann::json::array();
  for (const auto& s : model_seeds) {
    if (!s.contains("baseline_allclose_1e4") || s.value("baseline_allclose_1e4", true)) continue;
    Outcome deferred{
        Status::kOk, kGate,
        fmt::format("at most {} of {} elements outside {} (max abs error {:.3g}), and "
                    "the compiled model itself misses eager at {} (seed {}: {:.3g}): "
                    "deferred to G3's float64 test",
                    stray->outside, stray->elements, t.isolated_rtol, stray->worst, t.model_tol,
                    s.value("seed", -1), s.value("baseline_max_abs_vs_eager", 0.0)),
        failed.numbers};
    deferred.numbers["deferred_to_float64"] = true;
    return deferred;
  }
  return failed;
}

Outcome check_isolated(GateContext& ctx, const Candidate& candidate) {
  Outcome failed;
  const nlohmann::json numbers = ask_gate(ctx,
                                          {{"op", "check_candidate"},
                                           {"segment", candidate.segment},
                                           {"candidate", candidate.path},
                                           {"seeds", ctx.thresholds.seeds},
                                           {"rtol", ctx.thresholds.isolated_rtol},
                                           {"atol", ctx.thresholds.isolated_atol}},
                                          kGate, failed);
  if (!failed.ok()) return failed;
  Outcome outcome = judge_isolated(numbers, ctx.thresholds, candidate.face.scratch);
  // A deferral needs the compiled model's own check against eager. It is asked once per problem,
  // and only for a failure that an ill-conditioned model would defer.
  if (!could_defer(outcome, ctx.thresholds, candidate.face.scratch)) return outcome;
  if (ctx.baseline_model.is_null()) {
    Outcome asked;
    const nlohmann::json model = ask_gate(ctx,
                                          {{"op", "model_check"},
                                           {"recomposed", nlohmann::json::object()},
                                           {"seeds", ctx.thresholds.seeds}},
                                          kGate, asked);
    // asked once even when it fails: an empty answer defers nothing
    ctx.baseline_model = asked.ok() ? model : nlohmann::json::object();
  }
  return judge_isolated_deferral(outcome, ctx.baseline_model, ctx.thresholds,
                                 candidate.face.scratch);
}

}  // namespace kernelopt::gate
