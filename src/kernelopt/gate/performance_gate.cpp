// G4 performance: interleaved replays of baseline and candidate, ratio of medians with a
// bootstrap interval (two-level when the worker timed several captures of each side, and paired
// when their samples were taken in turns, one baseline sample right before one candidate sample);
// rejected under the minimum ratio; before the ratio, the replays' outputs checked.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "kernelopt/bench/stats.hpp"
#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

namespace {

// The replays checked after timing: for every seed, the candidate's replayed outputs must match
// the baseline's as closely as the same graphs called directly do (twice that tolerance, or
// model_tol when larger), with NaN and infinities alike wherever the direct calls had them
// alike. The reason when they do not; nullopt when they do (or the worker checked none).
std::optional<std::string> replay_mismatch(const worker::PairTiming& n, const Thresholds& t) {
  for (const auto& c : n.replay_checks) {
    if (c.error) {
      return fmt::format("seed {}: the replays could not be checked: {}", c.seed, c.error->message);
    }
    const double allowed = std::max(2 * c.direct_tol, t.model_tol);
    if (c.direct_nonfinite_match && !c.replay_nonfinite_match) {
      return fmt::format(
          "seed {}: replayed, NaN or infinities sit elsewhere than in the "
          "baseline's replay (called directly they sit alike)",
          c.seed);
    }
    if (!(c.replay_tol <= allowed)) {
      return fmt::format(
          "seed {}: replayed, matches the baseline's replay at {:.3g} only; called "
          "directly at {:.3g} (allowed {:.3g})",
          c.seed, c.replay_tol, c.direct_tol, allowed);
    }
  }
  return std::nullopt;
}

}  // namespace

Outcome judge_performance(const worker::PairTiming& n, const Thresholds& t) {
  if (auto why = replay_mismatch(n, t)) {
    return Outcome{Status::kReplayMismatch, "G4 performance", *why, n.document};
  }
  const std::vector<double>& baseline = n.baseline_ms;
  const std::vector<double>& candidate = n.candidate_ms;
  if (baseline.size() < 5 || candidate.size() < 5) {
    return Outcome{Status::kRaised, "G4 performance", "too few timing samples", n.document};
  }
  // Samples per captured instance when the worker timed several captures of each side: the
  // interval then also covers how much the captures disagree (stats.hpp).
  const auto& base_groups = n.baseline_instance_ms;
  const auto& cand_groups = n.candidate_instance_ms;
  const bool grouped = !base_groups.empty() && !cand_groups.empty();
  // The worker times instance k of each side in turns (b0, c0, b1, c1, ...), so sample j of
  // baseline instance k and of candidate instance k are neighbours in time: paired, a drift of
  // the clock that hits both alike leaves the interval alone (stats.hpp).
  const bool paired = grouped && bench::pairable(base_groups, cand_groups);
  const bench::RatioEstimate r = paired ? bench::ratio_of_medians_paired(base_groups, cand_groups)
                                 : grouped
                                     ? bench::ratio_of_medians_grouped(base_groups, cand_groups)
                                     : bench::ratio_of_medians(baseline, candidate);
  nlohmann::json numbers = n.document;
  numbers["interval"] = paired ? "paired" : grouped ? "grouped" : "plain";
  numbers["ratio"] = r.ratio;
  numbers["ratio_low"] = r.low;
  numbers["ratio_high"] = r.high;
  bench::SpeedClass speed = bench::classify(r, 1.01, t.min_ratio);
  if (grouped) {
    // Every candidate capture against every baseline capture: the slowest candidate capture's
    // median over the fastest baseline capture's. Under 1.0, which capture a side got can undo
    // the gain, and it is not called faster.
    double fastest_base = std::numeric_limits<double>::infinity();
    double slowest_cand = 0.0;
    for (const auto& g : base_groups) {
      fastest_base = std::min(fastest_base, bench::median(g));
    }
    for (const auto& g : cand_groups) {
      slowest_cand = std::max(slowest_cand, bench::median(g));
    }
    const double worst = fastest_base / slowest_cand;
    numbers["ratio_worst_capture"] = worst;
    if (speed == bench::SpeedClass::kFaster && !(worst > 1.0)) speed = bench::SpeedClass::kMatched;
  }
  numbers["speed_class"] = bench::to_string(speed);
  const std::string captures = grouped ? fmt::format(" of {} + {} captures{}", base_groups.size(),
                                                     cand_groups.size(), paired ? ", paired" : "")
                                       : std::string();
  const std::string text = fmt::format("{:.3f}x [{:.3f}, {:.3f}] over {} + {} samples{}", r.ratio,
                                       r.low, r.high, r.n_baseline, r.n_candidate, captures);
  if (r.ratio < t.min_ratio) {
    return Outcome{Status::kSlower, "G4 performance", "slower: " + text, numbers};
  }
  return Outcome{Status::kOk, "G4 performance", text, numbers};
}

}  // namespace kernelopt::gate
