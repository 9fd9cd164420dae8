// G2 isolated: the candidate against the compiler's own segment, on the real inputs of each seed.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

namespace {

const char* const kGate = "G2 isolated";

// Root names as a verdict's detail lists them: a JSON array.
std::string listed(const std::vector<std::string>& names) {
  return nlohmann::json(names).dump();
}

bool is_scratch(const std::string& root, const std::vector<std::string>& scratch) {
  return std::find(scratch.begin(), scratch.end(), root) != scratch.end();
}

// The first failure of one seed, in the order of the cheapest explanation.
Outcome judge_seed(const worker::IsolatedSeed& s, const std::vector<std::string>& scratch) {
  auto fail = [&](Status status, const std::string& what) {
    return Outcome{status, kGate, fmt::format("seed {}: {}", s.seed, what), nullptr};
  };
  if (s.error) {
    return fail(s.error->kind == "cuda" ? Status::kCrashed : Status::kRaised,
                s.error->message.empty() ? "run() failed" : s.error->message);
  }
  if (!s.replaced_outputs.empty()) {
    return fail(Status::kAliasedOutput, "replaced outputs " + listed(s.replaced_outputs));
  }
  if (!s.relaid_tensors.empty()) {
    return fail(Status::kAliasedOutput,
                "re-strided or re-pointed tensors " + listed(s.relaid_tensors));
  }
  if (s.sanitizer_errors && *s.sanitizer_errors > 0) {
    return fail(s.sanitizer == "racecheck" ? Status::kNondeterministic : Status::kOutOfBounds,
                fmt::format("compute-sanitizer {}: {} error(s): {}", s.sanitizer,
                            *s.sanitizer_errors, s.sanitizer_detail));
  }
  if (s.side_stream) return fail(Status::kSideStream, "used another stream");
  if (!s.stray_writes.empty()) {
    return fail(Status::kOutOfBounds,
                "wrote into tensors it was not given " + listed(s.stray_writes));
  }
  if (s.out_of_bounds > 0) {
    return fail(Status::kOutOfBounds,
                fmt::format("{} guard elements overwritten", s.out_of_bounds));
  }
  if (s.unwritten > 0) {
    return fail(Status::kNotWritten, fmt::format("{} output elements never written", s.unwritten));
  }
  std::vector<std::string> changed;
  for (const auto& root : s.inputs_mutated) {
    if (!is_scratch(root, scratch)) changed.push_back(root);
  }
  if (!changed.empty()) return fail(Status::kMutatedInput, "changed inputs " + listed(changed));
  if (s.nan_mismatch + s.inf_mismatch > 0) {
    return fail(Status::kNanInfMismatch,
                fmt::format("NaN/Inf in other places ({} NaN, {} Inf positions)", s.nan_mismatch,
                            s.inf_mismatch));
  }
  if (s.mismatched > 0) {
    return fail(Status::kWrongResult,
                fmt::format("{} elements outside tolerance (max abs error {:.3g})", s.mismatched,
                            s.max_abs_err));
  }
  // Bitwise equality of two runs is itself the measurement: there is no threshold to move here.
  if (!s.deterministic) {
    return fail(Status::kNondeterministic, "two runs on the same inputs differ");
  }
  return Outcome{Status::kOk, kGate, "", nullptr};
}

}  // namespace

Outcome judge_isolated(const worker::IsolatedCheck& n,
                       const Thresholds& t,
                       const std::vector<std::string>& scratch) {
  if (n.load_error) {
    return Outcome{Status::kCompileFailed, kGate, "does not load: " + *n.load_error, n.document};
  }
  if (n.seeds.size() < t.seeds.size()) {
    return Outcome{Status::kRaised, kGate,
                   fmt::format("only {} of {} seeds were checked", n.seeds.size(), t.seeds.size()),
                   n.document};
  }
  double worst = 0;
  for (const auto& seed : n.seeds) {
    Outcome outcome = judge_seed(seed, scratch);
    if (!outcome.ok()) {
      outcome.numbers = n.document;
      return outcome;
    }
    worst = std::max(worst, seed.max_abs_err);
  }
  return Outcome{Status::kOk, kGate,
                 fmt::format("{} seeds match (max abs error {:.3g})", n.seeds.size(), worst),
                 n.document};
}

namespace {

// The elements outside tolerance of a G2 failure (the largest count and error over the seeds).
struct Stray {
  long outside = 0;
  long elements = 0;
  double worst = 0;
};

// The part of a deferral that needs no model check: `failed` is a G2 failure by tolerance only
// (every other check of every seed of `n` passes) on at most `deferral_fraction` of the elements.
std::optional<Stray> could_defer(const Outcome& failed,
                                 const worker::IsolatedCheck& n,
                                 const Thresholds& t,
                                 const std::vector<std::string>& scratch) {
  if (failed.status != Status::kWrongResult) return std::nullopt;
  if (n.seeds.size() < t.seeds.size()) return std::nullopt;
  Stray stray;
  for (const auto& seed : n.seeds) {
    worker::IsolatedSeed within = seed;
    within.mismatched = 0;  // every other check of the seed must pass as it is
    if (!judge_seed(within, scratch).ok()) return std::nullopt;
    if (!seed.elements) return std::nullopt;
    stray.outside = std::max(stray.outside, seed.mismatched);
    stray.elements = std::max(stray.elements, *seed.elements);
    stray.worst = std::max(stray.worst, seed.max_abs_err);
  }
  if (stray.elements <= 0 || static_cast<double>(stray.outside) >
                                 t.deferral_fraction * static_cast<double>(stray.elements)) {
    return std::nullopt;
  }
  return stray;
}

}  // namespace

Outcome judge_isolated_deferral(const Outcome& failed,
                                const worker::IsolatedCheck& numbers,
                                const worker::ModelCheck& baseline_model,
                                const Thresholds& t,
                                const std::vector<std::string>& scratch) {
  const std::optional<Stray> stray = could_defer(failed, numbers, t, scratch);
  if (!stray) return failed;
  for (const auto& s : baseline_model.seeds) {
    if (!s.baseline || matches_eager(*s.baseline, t.model_tol)) continue;
    Outcome deferred{Status::kOk, kGate,
                     fmt::format("at most {} of {} elements outside {} (max abs error {:.3g}), and "
                                 "the compiled model itself misses eager at {} (seed {}: {:.3g}): "
                                 "deferred to G3's float64 test",
                                 stray->outside, stray->elements, t.isolated_rtol, stray->worst,
                                 t.model_tol, s.seed, s.baseline_max_abs_vs_eager),
                     failed.numbers};
    deferred.numbers["deferred_to_float64"] = true;
    return deferred;
  }
  return failed;
}

Outcome check_isolated(GateContext& ctx, const Candidate& candidate) {
  const Thresholds& t = ctx.thresholds;
  const auto answer = gate_client(ctx).check_candidate(
      {candidate.segment, candidate.path, t.seeds, t.isolated_rtol, t.isolated_atol, t.sanitize},
      ctx.deadline);
  if (!answer.ok()) return refused(ctx, answer, kGate);
  Outcome outcome = judge_isolated(*answer, t, candidate.face.scratch);
  // A deferral needs the compiled model's own check against eager. It is asked once per problem,
  // and only for a failure that an ill-conditioned model would defer.
  if (!could_defer(outcome, *answer, t, candidate.face.scratch)) return outcome;
  if (ctx.baseline_model.is_null()) {
    const auto model = gate_client(ctx).model_check({{}, t.seeds, {}}, ctx.deadline);
    // asked once even when it fails: an empty answer defers nothing
    ctx.baseline_model = model.ok() ? model->document : nlohmann::json::object();
  }
  return judge_isolated_deferral(outcome, *answer, worker::read_model_check(ctx.baseline_model), t,
                                 candidate.face.scratch);
}

}  // namespace kernelopt::gate
