// The gates' judges on numbers written as the worker writes them, read as the client reads them:
// shared by the gates' unit tests.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/gate/gate.hpp"
#include "kernelopt/worker/replies.hpp"

namespace kernelopt::gate::testing_numbers {

using nlohmann::json;

inline Outcome isolated(const json& n,
                        const Thresholds& t = {},
                        const std::vector<std::string>& scratch = {}) {
  return judge_isolated(worker::read_isolated_check(n), t, scratch);
}

inline Outcome deferral(const Outcome& failed,
                        const json& baseline_model,
                        const Thresholds& t = {}) {
  return judge_isolated_deferral(failed, worker::read_isolated_check(failed.numbers),
                                 worker::read_model_check(baseline_model), t);
}

inline Outcome static_verdict(const json& n,
                              const Thresholds& t,
                              bool schedule_dependent_ok = false) {
  return judge_static(worker::read_static_check(n), t, schedule_dependent_ok);
}

inline Outcome model_verdict(const json& n, const Thresholds& t) {
  return judge_model(worker::read_model_check(n), t);
}

inline Outcome performance_verdict(const json& n, const Thresholds& t) {
  return judge_performance(worker::read_pair_timing(n), t);
}

// One seed of check_candidate that passes every check.
inline json good_seed(int seed) {
  return {{"seed", seed},
          {"max_abs_err", 1e-6},
          {"max_rel_err", 1e-6},
          {"mismatched", 0},
          {"unwritten", 0},
          {"nan_mismatch", 0},
          {"inf_mismatch", 0},
          {"out_of_bounds", 0},
          {"inputs_mutated", json::array()},
          {"replaced_outputs", json::array()},
          {"side_stream", false},
          {"deterministic", true}};
}

// A good seed for each of the default thresholds' seeds, `key` of the seed at index `bad` set to
// `value` (none when `bad` is -1).
inline json seeds_with(int bad, const std::string& key, const json& value) {
  json seeds = json::array();
  const std::vector<int> all = Thresholds{}.seeds;  // the plain draws first, then the stress seeds
  for (std::size_t s = 0; s < all.size(); ++s) {
    json seed = good_seed(all[s]);
    if (static_cast<int>(s) == bad) seed[key] = value;
    seeds.push_back(seed);
  }
  return {{"seeds", seeds}};
}

}  // namespace kernelopt::gate::testing_numbers
