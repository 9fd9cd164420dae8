#pragma once
// Beam search over one segment's candidates: round 1 tries every planned strategy's starting
// settings (within its share of the budget; the starts left over go to round 2); each later
// round tries the settings next to those of the beam's best (the proposer's neighbours), keeping
// the `width` best correct candidates by their G4 ratio. A beam that has converged on one
// strategy while another gave a correct candidate gives its last place to that other strategy's
// best (the diversity constraint). A strategy the memory has abandoned gets no more candidates.
// It stops after `rounds`, when a round has nothing new to try, or when the budget of seconds is
// spent (the engine's clock runs over the whole problem; checked before every evaluation, so one
// evaluation may overrun it). The gates are the evaluation; the engine passes them in, so the
// search itself runs without a GPU in the tests.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/search/roles.hpp"

namespace kernelopt::search {

struct Proposal {
  int segment = 0;
  std::string strategy;
  nlohmann::json settings;
  int round = 1;
};

// A proposal after the gates: `attempt` carries the verdicts as the memory records them.
struct Scored {
  Proposal proposal;
  Attempt attempt;
};

struct BeamOptions {
  int width = 3;   // --no-beam: 1
  int rounds = 5;  // --rounds
  // The value of hooks.spent at which the search ends: the clock runs over the whole problem, so
  // a segment searched after others gets the clock's value at its start plus its share.
  double budget_s = 180;
  bool diversity = true;  // --no-beam: off
  // A plateau ends the search: after `patience` rounds in a row that raised the best correct
  // candidate's ratio by less than `min_gain`, later rounds would tune noise.
  int patience = 2;
  double min_gain = 0.005;
  // Round 1's share of the segment's budget (of budget_s minus the clock at the search's start):
  // past it (once every strategy's first start is tried) the
  // other starts are tried in round 2, after the neighbours of the beam's best.
  double first_round_share = 0.5;
};

struct BeamResult {
  std::vector<Scored> scored;  // every evaluation, in order
  std::optional<Scored> best;  // the accepted candidate with the highest ratio
  int rounds_run = 0;
  std::string stopped;  // why the search ended
};

struct BeamHooks {
  // The starting settings of a strategy (round 1).
  std::function<std::vector<nlohmann::json>(const std::string& strategy)> initial;
  // Settings next to a proposal's (later rounds).
  std::function<std::vector<nlohmann::json>(const Proposal&)> neighbours;
  // Runs the gates on a proposal.
  std::function<Attempt(const Proposal&)> evaluate;
  // Seconds of the worker's (GPU) time on the problem's clock (not reset per segment).
  std::function<double()> spent;
};

BeamResult beam_search(int segment,
                       const std::vector<Strategy>& strategies,
                       const BeamHooks& hooks,
                       const BeamOptions& options,
                       Memory& memory);

// The accepted candidates other than the best, highest ratio first, each strategy and settings
// once, at most `n`: what the engine tries next when a second measurement does not confirm the
// best (a choice made on a lucky baseline measurement; examples/l2_norm_rows).
std::vector<Scored> runner_ups(const BeamResult& result, std::size_t n);

}  // namespace kernelopt::search
