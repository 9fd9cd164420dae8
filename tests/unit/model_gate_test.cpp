// G3's verdicts on the worker's numbers, and G2's deferral to G3's float64 test: the tolerance the
// worker measured held against the engine's threshold.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gate_numbers.hpp"
#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {
namespace {

using nlohmann::json;
using testing_numbers::deferral;
using testing_numbers::isolated;
using testing_numbers::model_verdict;
using testing_numbers::seeds_with;

TEST(Model, EagerMatchFallbackAndMismatch) {
  const Thresholds t;
  json match = {
      {"seeds", json::array({{{"seed", 0}, {"tol_vs_eager", 2e-5}, {"nonfinite_match", true}}})}};
  EXPECT_TRUE(model_verdict(match, t).ok());
  // Off from eager, but no worse against float64 than 10x the compiler: accepted.
  json fallback = {{"seeds", json::array({{{"seed", 0},
                                           {"tol_vs_eager", 3e-3},
                                           {"nonfinite_match", true},
                                           {"candidate_err_f64", 5e-4},
                                           {"baseline_err_f64", 1e-4}}})}};
  const Outcome f = model_verdict(fallback, t);
  EXPECT_TRUE(f.ok());
  EXPECT_NE(f.detail.find("float64 fallback"), std::string::npos);
  json wrong = fallback;
  wrong["seeds"][0]["candidate_err_f64"] = 2e-3;
  EXPECT_EQ(model_verdict(wrong, t).status, Status::kModelMismatch);
  json nan = fallback;
  nan["seeds"][0]["candidate_err_f64"] = "nan";
  EXPECT_EQ(model_verdict(nan, t).status, Status::kModelMismatch);
}

// The fallback's elementwise count: a largest error within 10x of the compiler's passes only when
// the elements off by more than 1% of float64's value are not many more than the compiler's.
TEST(Model, TheFallbackCountsElementsOffRelativeToTheirOwnSize) {
  const Thresholds t;
  json seed = {{"seed", 0},
               {"tol_vs_eager", 1e-3},
               {"nonfinite_match", true},
               {"candidate_err_f64", 1.48},
               {"baseline_err_f64", 1.48},
               {"elements", 2048},
               {"candidate_rel_f64", 129},
               {"baseline_rel_f64", 0}};
  const Outcome flushed = model_verdict({{"seeds", json::array({seed})}}, t);
  EXPECT_EQ(flushed.status, Status::kModelMismatch);
  EXPECT_NE(flushed.detail.find("129 of 2048 elements"), std::string::npos) << flushed.detail;
  seed["candidate_rel_f64"] = 1;  // one element: within the share allowed (at least one)
  EXPECT_TRUE(model_verdict({{"seeds", json::array({seed})}}, t).ok());
  seed["candidate_rel_f64"] = 40;  // the compiler's own count is 4: 10 x 4 + 1 allowed
  seed["baseline_rel_f64"] = 4;
  EXPECT_TRUE(model_verdict({{"seeds", json::array({seed})}}, t).ok());
  seed["candidate_rel_f64"] = 42;
  EXPECT_EQ(model_verdict({{"seeds", json::array({seed})}}, t).status, Status::kModelMismatch);
  seed.erase("candidate_rel_f64");  // a worker that does not count: the largest error decides
  EXPECT_TRUE(model_verdict({{"seeds", json::array({seed})}}, t).ok());
}

// Side effects against the compiler's: a recomposed model whose values match eager still fails
// when it changes an input, parameter or buffer the compiler's graphs leave alone, skips an
// update they make, or returns an output sharing an input's storage where they do not.
TEST(Model, SideEffectsMustBeTheCompilersOwn) {
  const Thresholds t;
  const json seed = {{"seed", 0},
                     {"tol_vs_eager", 1e-6},
                     {"nonfinite_match", true},
                     {"state_changed", json::array({"buffer bn.running_mean"})},
                     {"baseline_state_changed", json::array({"buffer bn.running_mean"})},
                     {"outputs_sharing_inputs", json::array()},
                     {"baseline_outputs_sharing_inputs", json::array()}};
  EXPECT_TRUE(model_verdict({{"seeds", json::array({seed})}}, t).ok());
  json extra = seed;
  extra["state_changed"].push_back("parameter weight");
  const Outcome e = model_verdict({{"seeds", json::array({extra})}}, t);
  EXPECT_EQ(e.status, Status::kMutatedInput);
  EXPECT_NE(e.detail.find("parameter weight"), std::string::npos) << e.detail;
  json skipped = seed;
  skipped["state_changed"] = json::array();
  const Outcome s = model_verdict({{"seeds", json::array({skipped})}}, t);
  EXPECT_EQ(s.status, Status::kModelMismatch);
  EXPECT_NE(s.detail.find("bn.running_mean"), std::string::npos) << s.detail;
  json sharing = seed;
  sharing["outputs_sharing_inputs"] = json::array({0});
  EXPECT_EQ(model_verdict({{"seeds", json::array({sharing})}}, t).status, Status::kAliasedOutput);
  sharing["baseline_outputs_sharing_inputs"] = json::array({0});
  EXPECT_TRUE(model_verdict({{"seeds", json::array({sharing})}}, t).ok());
}

// A model that does not run in float64 (the worker says why) has no fallback: a candidate off
// from eager fails however small its numbers, and so does one whose float64 error is missing.
TEST(Model, NoFloat64ReferenceMeansNoFallback) {
  const Thresholds t;
  json none = {{"seeds", json::array({{{"seed", 0},
                                       {"tol_vs_eager", 3e-4},
                                       {"nonfinite_match", true},
                                       {"max_abs_vs_eager", 3e-4},
                                       {"candidate_err_f64", nullptr},
                                       {"baseline_err_f64", nullptr},
                                       {"float64_error", "RuntimeError: dtypes differ"}}})}};
  const Outcome o = model_verdict(none, t);
  EXPECT_EQ(o.status, Status::kModelMismatch);
  EXPECT_NE(o.detail.find("no float64 reference"), std::string::npos);
  EXPECT_NE(o.detail.find("dtypes differ"), std::string::npos);
  // ... while a candidate that matches eager passes without one
  none["seeds"][0]["tol_vs_eager"] = 5e-5;
  EXPECT_TRUE(model_verdict(none, t).ok());
  json missing = {
      {"seeds", json::array({{{"seed", 0}, {"tol_vs_eager", 1.0}, {"baseline_err_f64", 1e-4}}})}};
  EXPECT_EQ(model_verdict(missing, t).status, Status::kModelMismatch);
}

TEST(Model, SeedErrorsAreFailuresNotFallbacks) {
  json n = {{"seeds", json::array({{{"seed", 1},
                                    {"error", {{"kind", "exception"}, {"message", "boom"}}}}})}};
  EXPECT_EQ(model_verdict(n, Thresholds{}).status, Status::kRaised);
  n["seeds"][0]["error"]["kind"] = "cuda";
  EXPECT_EQ(model_verdict(n, Thresholds{}).status, Status::kCrashed);
}

// One seed whose outputs meet eager at tolerance `tol`, with NaN and Inf alike or not; no float64
// numbers, so anything but a match with eager is a mismatch.
json seed_at(double tol, bool nonfinite_match = true) {
  return {{"seeds", json::array({{{"seed", 0},
                                  {"tol_vs_eager", tol},
                                  {"nonfinite_match", nonfinite_match},
                                  {"max_abs_vs_eager", tol}}})}};
}

TEST(Model, TheToleranceIsHeldAgainstTheEnginesThreshold) {
  const Thresholds t;  // model_tol 1e-4
  const Outcome at = model_verdict(seed_at(1e-4), t);
  EXPECT_TRUE(at.ok()) << at.detail;  // allclose holds at exactly its tolerance
  EXPECT_EQ(at.detail, "1 seeds match eager at 0.0001");
  EXPECT_TRUE(model_verdict(seed_at(9.9e-5), t).ok());
  EXPECT_TRUE(model_verdict(seed_at(0.0), t).ok());
  EXPECT_EQ(model_verdict(seed_at(1.0001e-4), t).status, Status::kModelMismatch);
  EXPECT_EQ(model_verdict(seed_at(2e-4), t).status, Status::kModelMismatch);
  // the threshold is the engine's: a looser one accepts what the default rejects
  Thresholds loose;
  loose.model_tol = 1e-3;
  EXPECT_TRUE(model_verdict(seed_at(2e-4), loose).ok());
}

TEST(Model, NonFiniteValuesInOtherPlacesMatchAtNoTolerance) {
  const Thresholds t;
  EXPECT_EQ(model_verdict(seed_at(0.0, false), t).status, Status::kModelMismatch);
  EXPECT_EQ(model_verdict(seed_at(worker::kInfinity), t).status, Status::kModelMismatch);
  json nan = seed_at(0.0);
  nan["seeds"][0]["tol_vs_eager"] = "nan";  // JSON's spelling of a NaN float: no match either
  EXPECT_EQ(model_verdict(nan, t).status, Status::kModelMismatch);
  // ... and such a seed still gets the float64 fallback, as any other miss
  json fallback = seed_at(0.0, false);
  fallback["seeds"][0]["candidate_err_f64"] = 1e-5;
  fallback["seeds"][0]["baseline_err_f64"] = 1e-5;
  const Outcome f = model_verdict(fallback, t);
  EXPECT_TRUE(f.ok()) << f.detail;
  EXPECT_NE(f.detail.find("float64 fallback"), std::string::npos) << f.detail;
  EXPECT_TRUE(matches_eager(worker::Closeness{1e-4, true}, 1e-4));
  EXPECT_FALSE(matches_eager(worker::Closeness{0.0, false}, 1e-4));
}

// G2's deferral: L3/49's scan gives other float32 bits at other launch settings, and
// exp() of its sums turns them into a few elements far outside 1e-3.
json ill_conditioned_failure(long mismatched, long elements) {
  json n = seeds_with(-1, "", nullptr);
  for (auto& seed : n["seeds"]) {
    seed["elements"] = elements;
    seed["mismatched"] = mismatched;
    seed["max_abs_err"] = 2.11e14;
  }
  return n;
}

json baseline_check(bool seed1_allclose) {
  json seeds = json::array();
  for (int s = 0; s < 3; ++s) {
    seeds.push_back({{"seed", s},
                     {"baseline_tol_vs_eager", s == 1 && !seed1_allclose ? 0.2 : 1e-7},
                     {"baseline_nonfinite_match", true},
                     {"baseline_max_abs_vs_eager", s == 1 && !seed1_allclose ? 3.5e10 : 1e-7}});
  }
  return {{"seeds", seeds}};
}

TEST(IsolatedDeferral, AFewElementsOfAnIllConditionedModelGoToTheFloat64Test) {
  const json n = ill_conditioned_failure(1194, 50331648);
  const Outcome failed = isolated(n, Thresholds{});
  ASSERT_EQ(failed.status, Status::kWrongResult);
  const Outcome deferred = deferral(failed, baseline_check(false), Thresholds{});
  EXPECT_TRUE(deferred.ok()) << deferred.detail;
  EXPECT_EQ(deferred.gate, "G2 isolated");
  EXPECT_TRUE(deferred.numbers.value("deferred_to_float64", false));
  EXPECT_NE(deferred.detail.find("deferred to G3's float64 test"), std::string::npos)
      << deferred.detail;
  EXPECT_NE(deferred.detail.find("seed 1"), std::string::npos) << deferred.detail;
}

TEST(IsolatedDeferral, AWellConditionedModelKeepsTheFailure) {
  const Outcome failed = isolated(ill_conditioned_failure(1194, 50331648), Thresholds{});
  const Outcome kept = deferral(failed, baseline_check(true), Thresholds{});
  EXPECT_EQ(kept.status, Status::kWrongResult);
  EXPECT_EQ(kept.detail, failed.detail);
  // no check of the compiled model at all: nothing to defer on
  EXPECT_EQ(deferral(failed, json::object(), Thresholds{}).status, Status::kWrongResult);
  EXPECT_EQ(deferral(failed, json(nullptr), Thresholds{}).status, Status::kWrongResult);
}

TEST(IsolatedDeferral, TheCompiledModelMissesEagerByTheEnginesThreshold) {
  const Outcome failed = isolated(ill_conditioned_failure(1194, 50331648), Thresholds{});
  json baseline = baseline_check(true);
  baseline["seeds"][1]["baseline_tol_vs_eager"] = 1e-4;  // at the threshold: a match
  EXPECT_EQ(deferral(failed, baseline).status, Status::kWrongResult);
  baseline["seeds"][1]["baseline_tol_vs_eager"] = 1.5e-4;
  EXPECT_TRUE(deferral(failed, baseline).ok());
  Thresholds loose;
  loose.model_tol = 1e-3;
  EXPECT_EQ(deferral(failed, baseline, loose).status, Status::kWrongResult);
  baseline["seeds"][1]["baseline_tol_vs_eager"] = 0.0;
  baseline["seeds"][1]["baseline_nonfinite_match"] = false;  // NaN/Inf elsewhere: a miss
  EXPECT_TRUE(deferral(failed, baseline).ok());
  baseline["seeds"][1].erase("baseline_tol_vs_eager");  // not measured: defers nothing
  EXPECT_EQ(deferral(failed, baseline).status, Status::kWrongResult);
}

TEST(IsolatedDeferral, TooManyElementsOutsideToleranceIsAWrongResult) {
  // 0.1% of the elements is the most a deferral takes: a wrong index or a missed tail is more
  const Outcome failed = isolated(ill_conditioned_failure(60000, 50331648), Thresholds{});
  EXPECT_EQ(deferral(failed, baseline_check(false), Thresholds{}).status, Status::kWrongResult);
  const Outcome at_limit = isolated(ill_conditioned_failure(50331, 50331648), Thresholds{});
  EXPECT_TRUE(deferral(at_limit, baseline_check(false), Thresholds{}).ok());
  // a worker that does not say how many elements there were defers nothing
  json unknown = ill_conditioned_failure(10, 1000000);
  for (auto& seed : unknown["seeds"]) {
    seed.erase("elements");
  }
  EXPECT_EQ(deferral(isolated(unknown, Thresholds{}), baseline_check(false), Thresholds{}).status,
            Status::kWrongResult);
}

TEST(IsolatedDeferral, AnyOtherDefectOfAnySeedIsNeverDeferred) {
  const std::vector<std::pair<std::string, json>> defects = {
      {"unwritten", 3},
      {"out_of_bounds", 1},
      {"nan_mismatch", 2},
      {"inf_mismatch", 1},
      {"side_stream", true},
      {"deterministic", false},
      {"inputs_mutated", json::array({"x"})},
      {"replaced_outputs", json::array({"y"})}};
  for (const auto& [key, value] : defects) {
    json n = ill_conditioned_failure(10, 1000000);
    n["seeds"][2][key] = value;  // the tolerance failure is found first on seed 0
    const Outcome failed = isolated(n, Thresholds{});
    ASSERT_EQ(failed.status, Status::kWrongResult) << key;
    EXPECT_EQ(deferral(failed, baseline_check(false), Thresholds{}).status, Status::kWrongResult)
        << key;
  }
  // other failures pass through untouched
  const Outcome crashed{Status::kCrashed, "G2 isolated", "seed 0: illegal address", json::object()};
  EXPECT_EQ(deferral(crashed, baseline_check(false), Thresholds{}).status, Status::kCrashed);
  // a seed missing from the candidate's numbers defers nothing
  json two = ill_conditioned_failure(10, 1000000);
  two["seeds"].erase(2);
  EXPECT_EQ(deferral(Outcome{Status::kWrongResult, "G2 isolated", "", two}, baseline_check(false),
                     Thresholds{})
                .status,
            Status::kWrongResult);
}

}  // namespace
}  // namespace kernelopt::gate
