// G3 model: the recomposed model against eager at `model_tol`; else the float64 fallback.
#include <string>

#include <fmt/format.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

namespace {

const char* const kGate = "G3 model";

Outcome mismatch(const worker::ModelCheck& n, std::string detail) {
  return Outcome{Status::kModelMismatch, kGate, std::move(detail), n.document};
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
    if (s.candidate && matches_eager(*s.candidate, t.model_tol)) continue;
    if (s.float64_error) {  // no fallback to take
      return mismatch(n, fmt::format("seed {}: differs from eager by {:.3g}, and the model has no "
                                     "float64 reference for the fallback ({})",
                                     s.seed, s.max_abs_vs_eager, *s.float64_error));
    }
    // A candidate's error that is not there is not small: only a number can pass.
    if (s.candidate_err_f64 <= t.float64_factor * s.baseline_err_f64) {
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

Outcome check_model(GateContext& ctx, const Recomposed& recomposed) {
  const auto answer =
      gate_client(ctx).model_check({recomposed, ctx.thresholds.seeds}, ctx.deadline);
  if (!answer.ok()) return refused(ctx, answer, kGate);
  return judge_model(*answer, ctx.thresholds);
}

Outcome check_performance(GateContext& ctx, const Recomposed& recomposed) {
  const auto answer =
      gate_client(ctx).time_pair({recomposed, ctx.thresholds.samples, 5}, ctx.deadline);
  if (!answer.ok()) return refused(ctx, answer, "G4 performance");
  return judge_performance(*answer, ctx.thresholds);
}

}  // namespace kernelopt::gate
