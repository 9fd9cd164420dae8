#include "kernelopt/search/beam.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "kernelopt/search/detail/interleave.hpp"

namespace kernelopt::search {

namespace {

double ratio_of(const Scored& s) {
  return s.attempt.ratio.value_or(0.0);
}

// The highest ratio of a correct candidate so far (0 when none was timed).
double best_correct(const std::vector<Scored>& scored) {
  double best = 0.0;
  for (const Scored& s : scored) {
    if (s.attempt.correct) best = std::max(best, ratio_of(s));
  }
  return best;
}

// The beam: the `width` best correct candidates by ratio; with diversity, a beam of one strategy
// gives its last place to the best correct candidate of another strategy, if any.
std::vector<Scored> select(const std::vector<Scored>& scored, const BeamOptions& options) {
  std::vector<Scored> correct;
  for (const Scored& s : scored) {
    if (s.attempt.correct && s.attempt.ratio) correct.push_back(s);
  }
  std::stable_sort(correct.begin(), correct.end(),
                   [](const Scored& a, const Scored& b) { return ratio_of(a) > ratio_of(b); });
  const auto width = static_cast<std::size_t>(std::max(1, options.width));
  std::vector<Scored> beam(correct.begin(),
                           correct.begin() + static_cast<long>(std::min(width, correct.size())));
  if (options.diversity && beam.size() >= 2) {
    const std::string& first = beam.front().proposal.strategy;
    const bool one = std::all_of(beam.begin(), beam.end(),
                                 [&](const Scored& s) { return s.proposal.strategy == first; });
    if (one) {
      const auto other = std::find_if(correct.begin(), correct.end(), [&](const Scored& s) {
        return s.proposal.strategy != first;
      });
      if (other != correct.end()) beam.back() = *other;
    }
  }
  return beam;
}

}  // namespace

BeamResult beam_search(int segment,
                       const std::vector<Strategy>& strategies,
                       const BeamHooks& hooks,
                       const BeamOptions& options,
                       Memory& memory) {
  BeamResult result;
  bool out_of_budget = false;
  // The clock (hooks.spent) runs over the whole problem and budget_s is the value at which this
  // segment's search ends: round 1's share is of what is left from here, not from zero.
  const double start_s = hooks.spent();
  const double first_round_end_s =
      start_s + options.first_round_share * (options.budget_s - start_s);
  std::string abandoned;  // why the memory dropped a strategy's proposals, the last one
  // Evaluates the round's proposals in order, unless the budget is spent; skips what the memory
  // says was tried and repeats within the round. With `deferred`, the proposals after the first
  // `wave` are left to it once the round's share of the budget is spent.
  auto run_round = [&](std::vector<Proposal> proposals, std::size_t wave = 0,
                       std::vector<Proposal>* deferred = nullptr) {
    int evaluated = 0;
    std::vector<Proposal> seen;
    for (std::size_t i = 0; i < proposals.size(); ++i) {
      Proposal& p = proposals[i];
      if (deferred != nullptr && i >= wave && hooks.spent() >= first_round_end_s) {
        deferred->assign(std::make_move_iterator(proposals.begin() + static_cast<long>(i)),
                         std::make_move_iterator(proposals.end()));
        break;
      }
      const bool repeat = std::any_of(seen.begin(), seen.end(), [&](const Proposal& q) {
        return q.strategy == p.strategy && q.settings == p.settings;
      });
      if (repeat || memory.tried(segment, p.strategy, p.settings)) continue;
      if (const auto why = memory.abandoned(segment, p.strategy)) {
        abandoned = p.strategy + ": " + *why;
        continue;
      }
      if (hooks.spent() >= options.budget_s) {
        out_of_budget = true;
        break;
      }
      seen.push_back(p);
      Attempt attempt = hooks.evaluate(p);
      attempt.segment = segment;
      attempt.strategy = p.strategy;
      attempt.settings = p.settings;
      attempt.round = p.round;
      memory.record(attempt);
      result.scored.push_back({p, attempt});
      ++evaluated;
    }
    return evaluated;
  };

  // Round 1 takes the strategies' starting settings in turn (each one's first, then each one's
  // second, ...): a budget that ends inside the round has tried every strategy, not only the first
  // one's list (L1/41: config's four starts left the pool recipe one). Once every strategy's
  // first start is tried and the round's share of the budget is spent, its other starts wait
  // behind round 2's neighbours of the best (L2/65: eleven starts took the whole budget, and the
  // tile next to the best start, which had won in an earlier run, was never tried).
  std::vector<std::vector<Proposal>> starts;
  starts.reserve(strategies.size());
  std::size_t wave = 0;  // strategies with a start: the length of round 1's first wave
  for (const Strategy& s : strategies) {
    std::vector<Proposal>& own = starts.emplace_back();
    for (auto& settings : hooks.initial(s.name)) {
      own.push_back({segment, s.name, std::move(settings), 1});
    }
    wave += own.empty() ? 0 : 1;
  }
  std::vector<Proposal> deferred;
  run_round(detail::interleaved(starts), wave, &deferred);
  result.rounds_run = 1;
  int flat_rounds = 0;  // rounds in a row without a gain of min_gain
  for (int round = 2; round <= options.rounds && !out_of_budget; ++round) {
    const double before = best_correct(result.scored);
    std::vector<Proposal> next;
    for (const Scored& parent : select(result.scored, options)) {
      for (const auto& settings : hooks.neighbours(parent.proposal)) {
        next.push_back({segment, parent.proposal.strategy, settings, round});
      }
    }
    for (Proposal& p : deferred) {
      p.round = round;
      next.push_back(std::move(p));
    }
    deferred.clear();
    if (next.empty() || run_round(next) == 0) {
      if (!out_of_budget) {
        result.stopped =
            next.empty() || abandoned.empty()
                ? fmt::format("converged: round {} had nothing new to try", round)
                : fmt::format("round {}: the memory dropped the strategy ({})", round, abandoned);
      }
      break;
    }
    result.rounds_run = round;
    const double after = best_correct(result.scored);
    flat_rounds = after >= before + options.min_gain ? 0 : flat_rounds + 1;
    if (options.patience > 0 && flat_rounds >= options.patience && round < options.rounds &&
        !out_of_budget) {
      result.stopped = fmt::format(
          "plateau: {} round(s) in a row raised the best by less than {:.1f}% (best {:.3f}x)",
          flat_rounds, 100.0 * options.min_gain, after);
      break;
    }
  }
  if (out_of_budget) {
    result.stopped = fmt::format("budget spent ({:.0f} s of {:.0f} s)", hooks.spent() - start_s,
                                 options.budget_s - start_s);
  } else if (result.stopped.empty()) {
    result.stopped = fmt::format("{} round(s) run", result.rounds_run);
  }
  for (const Scored& s : result.scored) {
    if (s.attempt.accepted && (!result.best || ratio_of(s) > ratio_of(*result.best))) {
      result.best = s;
    }
  }
  return result;
}

std::vector<Scored> runner_ups(const BeamResult& result, std::size_t n) {
  std::vector<Scored> out;
  if (!result.best) return out;
  const auto same = [](const Scored& a, const Scored& b) {
    return a.proposal.strategy == b.proposal.strategy && a.proposal.settings == b.proposal.settings;
  };
  for (const Scored& s : result.scored) {
    if (!s.attempt.accepted || same(s, *result.best)) continue;
    if (std::any_of(out.begin(), out.end(), [&](const Scored& o) { return same(o, s); })) continue;
    out.push_back(s);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Scored& a, const Scored& b) { return ratio_of(a) > ratio_of(b); });
  if (out.size() > n) out.resize(n);
  return out;
}

}  // namespace kernelopt::search
