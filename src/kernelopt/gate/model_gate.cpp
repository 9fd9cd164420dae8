// G3 model: the recomposed model against eager at `model_tol`; else the float64 fallback.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

namespace {

const char* const kGate = "G3 model";

Outcome mismatch(const worker::ModelCheck& n, std::string detail) {
  return Outcome{Status::kModelMismatch, kGate, std::move(detail), n.document};
}

// Names in `a` and not in `b`.
std::vector<std::string> missing_from(const std::vector<std::string>& a,
                                      const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const auto& name : a) {
    if (std::find(b.begin(), b.end(), name) == b.end()) out.push_back(name);
  }
  return out;
}

// The recomposed model's side effects against the compiler's: the same inputs, parameters and
// buffers changed (none the compiler's graphs leave alone, none they update left alone), and
// the same outputs sharing an input's storage. nullopt when they agree.
std::optional<Outcome> side_effects(const worker::ModelCheck& n, const worker::ModelSeed& s) {
  const auto extra = missing_from(s.state_changed, s.baseline_state_changed);
  if (!extra.empty()) {
    return Outcome{Status::kMutatedInput, kGate,
                   fmt::format("seed {}: changes {} (the compiler's graphs do not)", s.seed,
                               nlohmann::json(extra).dump()),
                   n.document};
  }
  const auto skipped = missing_from(s.baseline_state_changed, s.state_changed);
  if (!skipped.empty()) {
    return Outcome{Status::kModelMismatch, kGate,
                   fmt::format("seed {}: leaves {} unchanged (the compiler's graphs update it)",
                               s.seed, nlohmann::json(skipped).dump()),
                   n.document};
  }
  if (s.outputs_sharing_inputs != s.baseline_outputs_sharing_inputs) {
    return Outcome{Status::kAliasedOutput, kGate,
                   fmt::format("seed {}: outputs {} share an input's storage (the compiler's: {})",
                               s.seed, nlohmann::json(s.outputs_sharing_inputs).dump(),
                               nlohmann::json(s.baseline_outputs_sharing_inputs).dump()),
                   n.document};
  }
  return std::nullopt;
}

// The fallback's elementwise test: the largest error passing says nothing of small elements,
// whose rounding hides under a large one's. The elements off by more than 1% of float64's own
// value may number at most float64_factor x the compiler's, plus float64_rel_share of the
// elements (at least one). The reason when they exceed it; nullopt when they do not, or when
// the worker did not count them.
std::optional<std::string> relatively_off(const worker::ModelSeed& s, const Thresholds& t) {
  if (!s.candidate_rel_f64 || !s.baseline_rel_f64) return std::nullopt;
  const double allowed =
      t.float64_factor * *s.baseline_rel_f64 + std::max(1.0, t.float64_rel_share * s.elements);
  if (*s.candidate_rel_f64 <= allowed) return std::nullopt;
  return fmt::format(
      "seed {}: within {}x of the compiler's largest float64 error, but {:.0f} of {:.0f} elements "
      "are off by more than 1% of float64's value (the compiler's: {:.0f}; at most {:.0f})",
      s.seed, t.float64_factor, *s.candidate_rel_f64, s.elements, *s.baseline_rel_f64, allowed);
}

}  // namespace

bool matches_eager(const worker::Closeness& closeness, double tol) {
  return closeness.nonfinite_match && closeness.tol <= tol;  // a NaN tolerance matches nothing
}

Outcome judge_model(const worker::ModelCheck& n, const Thresholds& t) {
  if (n.seeds.empty()) return Outcome{Status::kRaised, kGate, "no seed was checked", n.document};
  int fallbacks = 0;
  for (const auto& s : n.seeds) {
    if (s.error) {
      return Outcome{
          s.error->kind == "cuda" ? Status::kCrashed : Status::kRaised, kGate,
          fmt::format("seed {}: {}", s.seed,
                      s.error->message.empty() ? "the recomposed model failed" : s.error->message),
          n.document};
    }
    if (auto effect = side_effects(n, s)) return *effect;
    if (s.candidate && matches_eager(*s.candidate, t.model_tol)) continue;
    if (s.float64_error) {  // no fallback to take
      return mismatch(n, fmt::format("seed {}: differs from eager by {:.3g}, and the model has no "
                                     "float64 reference for the fallback ({})",
                                     s.seed, s.max_abs_vs_eager, *s.float64_error));
    }
    // A candidate's error that is not there is not small: only a number can pass.
    if (s.candidate_err_f64 <= t.float64_factor * s.baseline_err_f64) {
      if (auto off = relatively_off(s, t)) return mismatch(n, *off);
      ++fallbacks;
      continue;
    }
    return mismatch(n, fmt::format("seed {}: differs from eager by {:.3g}; against float64 {:.3g} "
                                   "vs the compiler's {:.3g} (more than {}x)",
                                   s.seed, s.max_abs_vs_eager, s.candidate_err_f64,
                                   s.baseline_err_f64, t.float64_factor));
  }
  return Outcome{Status::kOk, kGate,
                 fallbacks == 0
                     ? fmt::format("{} seeds match eager at {}", n.seeds.size(), t.model_tol)
                     : fmt::format("{} of {} seeds accepted by the float64 fallback", fallbacks,
                                   n.seeds.size()),
                 n.document};
}

Outcome check_model(GateContext& ctx,
                    const Recomposed& recomposed,
                    const std::vector<std::string>& vendor) {
  const auto answer =
      gate_client(ctx).model_check({recomposed, ctx.thresholds.seeds, vendor}, ctx.deadline);
  if (!answer.ok()) return refused(ctx, answer, kGate);
  return judge_model(*answer, ctx.thresholds);
}

Outcome check_performance(GateContext& ctx,
                          const Recomposed& recomposed,
                          const std::vector<std::string>& vendor,
                          const std::optional<Recomposed>& against) {
  const auto answer = gate_client(ctx).time_pair(
      {recomposed, ctx.thresholds.samples, 5, vendor, against}, ctx.deadline);
  if (!answer.ok()) return refused(ctx, answer, "G4 performance");
  return judge_performance(*answer, ctx.thresholds);
}

}  // namespace kernelopt::gate
