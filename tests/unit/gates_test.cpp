// The gates' verdicts on worker numbers: each status from the numbers that must produce it. G3 and
// G2's deferral to it are in model_gate_test.cpp.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gate_numbers.hpp"
#include "kernelopt/engine/outcome_class.hpp"
#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {
namespace {

using nlohmann::json;
using testing_numbers::isolated;
using testing_numbers::performance_verdict;
using testing_numbers::seeds_with;
using testing_numbers::static_verdict;

TEST(Isolated, GoodSeedsPass) {
  const Outcome o = isolated(seeds_with(-1, "", nullptr), Thresholds{});
  EXPECT_TRUE(o.ok()) << o.detail;
  EXPECT_EQ(o.gate, "G2 isolated");
}

TEST(Isolated, ScratchInputsTheSegmentItselfOverwritesMayChange) {
  // buf2 is overwritten in place by the compiler's own segment and read by nothing after it; any
  // other changed input still fails, and is the only one named.
  const json changed = seeds_with(0, "inputs_mutated", json::array({"buf2", "arg1_1"}));
  const Outcome strict = isolated(changed, Thresholds{});
  EXPECT_EQ(strict.status, Status::kMutatedInput);
  const Outcome relaxed = isolated(changed, Thresholds{}, {"buf2"});
  EXPECT_EQ(relaxed.status, Status::kMutatedInput);
  EXPECT_NE(relaxed.detail.find("arg1_1"), std::string::npos) << relaxed.detail;
  EXPECT_EQ(relaxed.detail.find("buf2"), std::string::npos) << relaxed.detail;
  const Outcome only_scratch =
      isolated(seeds_with(0, "inputs_mutated", json::array({"buf2"})), Thresholds{}, {"buf2"});
  EXPECT_TRUE(only_scratch.ok()) << only_scratch.detail;
}

struct Planted {
  const char* key;
  json value;
  Status status;
};

class IsolatedFailure : public testing::TestWithParam<Planted> {};

TEST_P(IsolatedFailure, EachDefectHasItsStatus) {
  const Planted& p = GetParam();
  const Outcome o = isolated(seeds_with(1, p.key, p.value), Thresholds{});
  EXPECT_EQ(to_string(o.status), to_string(p.status)) << o.detail;
  EXPECT_NE(o.detail.find("seed 1"), std::string::npos) << o.detail;
}

INSTANTIATE_TEST_SUITE_P(
    Gates,
    IsolatedFailure,
    testing::Values(Planted{"mismatched", 12, Status::kWrongResult},
                    Planted{"unwritten", 100, Status::kNotWritten},
                    Planted{"out_of_bounds", 3, Status::kOutOfBounds},
                    Planted{"inputs_mutated", json::array({"arg0_1"}), Status::kMutatedInput},
                    Planted{"nan_mismatch", 1, Status::kNanInfMismatch},
                    Planted{"inf_mismatch", 2, Status::kNanInfMismatch},
                    Planted{"deterministic", false, Status::kNondeterministic},
                    Planted{"side_stream", true, Status::kSideStream},
                    Planted{"replaced_outputs", json::array({"buf0"}), Status::kAliasedOutput},
                    Planted{"relaid_tensors", json::array({"buf0"}), Status::kAliasedOutput},
                    Planted{"stray_writes", json::array({"out buf0"}), Status::kOutOfBounds},
                    Planted{"error", json{{"kind", "exception"}, {"message", "boom"}},
                            Status::kRaised},
                    Planted{"error", json{{"kind", "cuda"}, {"message", "illegal address"}},
                            Status::kCrashed}));

// compute-sanitizer's run on the first seed: memcheck's errors are out-of-bounds accesses,
// racecheck's hazards nondeterminism; a run that could not happen (no count) rejects nothing.
TEST(Isolated, SanitizerReportsAreJudged) {
  json n = seeds_with(0, "sanitizer_errors", 1);
  n["seeds"][0]["sanitizer"] = "memcheck";
  n["seeds"][0]["sanitizer_detail"] = "Invalid __global__ read of size 4 bytes";
  const Outcome memcheck = isolated(n, Thresholds{});
  EXPECT_EQ(memcheck.status, Status::kOutOfBounds);
  EXPECT_NE(memcheck.detail.find("Invalid __global__ read"), std::string::npos) << memcheck.detail;
  n["seeds"][0]["sanitizer"] = "racecheck";
  EXPECT_EQ(isolated(n, Thresholds{}).status, Status::kNondeterministic);
  n["seeds"][0]["sanitizer_errors"] = nullptr;
  n["seeds"][0]["sanitizer_detail"] = "compute-sanitizer not found";
  EXPECT_TRUE(isolated(n, Thresholds{}).ok());
  n["seeds"][0]["sanitizer_errors"] = 0;
  EXPECT_TRUE(isolated(n, Thresholds{}).ok());
}

TEST(Isolated, MissingSeedsFail) {
  json n = seeds_with(-1, "", nullptr);
  n["seeds"].erase(2);
  EXPECT_FALSE(isolated(n, Thresholds{}).ok());
}

TEST(Isolated, OutOfBoundsIsReportedBeforeTheWrongValuesItCauses) {
  json n = seeds_with(0, "out_of_bounds", 5);
  n["seeds"][0]["mismatched"] = 7;
  EXPECT_EQ(isolated(n, Thresholds{}).status, Status::kOutOfBounds);
}

TEST(Static, Verdicts) {
  const Thresholds t;
  json ok = {
      {"has_run", true},
      {"kernels",
       json::array(
           {{{"name", "k"}, {"compiled", true}, {"shared_bytes", 1024}, {"registers", 40}}})}};
  EXPECT_TRUE(static_verdict(ok, t).ok());
  EXPECT_EQ(static_verdict({{"import_error", "SyntaxError: bad"}}, t).status,
            Status::kCompileFailed);
  EXPECT_EQ(static_verdict({{"has_run", false}}, t).status, Status::kInterfaceError);
  EXPECT_EQ(static_verdict({{"has_run", true}, {"kernels", json::array()}}, t).status,
            Status::kInterfaceError);
  json bad = ok;
  bad["kernels"][0]["compiled"] = false;
  bad["kernels"][0]["error"] = "type mismatch";
  EXPECT_EQ(static_verdict(bad, t).status, Status::kCompileFailed);
  json big = ok;
  big["kernels"][0]["shared_bytes"] = 300000;
  EXPECT_EQ(static_verdict(big, t).status, Status::kResourceExceeded);
  json regs = ok;
  regs["kernels"][0]["registers"] = 300;
  EXPECT_EQ(static_verdict(regs, t).status, Status::kResourceExceeded);
}

TEST(Static, ScheduleDependentKernelsAreNondeterministicUnlessTheSegmentIsToo) {
  const Thresholds t;
  json smid = {{"has_run", true},
               {"kernels", json::array({{{"name", "k"},
                                         {"compiled", true},
                                         {"shared_bytes", 0},
                                         {"schedule_dependent", {"reads %smid"}}}})}};
  const Outcome o = static_verdict(smid, t);
  EXPECT_EQ(o.status, Status::kNondeterministic);
  EXPECT_EQ(o.gate, "G1 static");
  EXPECT_NE(o.detail.find("k: reads %smid"), std::string::npos) << o.detail;
  // the compiler's own segment adds floats atomically: the candidate is no worse
  EXPECT_TRUE(static_verdict(smid, t, true).ok());
  smid["kernels"][0]["schedule_dependent"] = json::array();
  EXPECT_TRUE(static_verdict(smid, t).ok());
}

TEST(Isolated, LoadErrorIsACompileFailure) {
  const Outcome o =
      isolated({{"load_error", "SyntaxError: x"}, {"seeds", json::array()}}, Thresholds{});
  EXPECT_EQ(o.status, Status::kCompileFailed);
  const Outcome object =
      isolated({{"load_error", {{"kind", "syntax"}, {"message", "SyntaxError: y"}}},
                {"seeds", json::array()}},
               Thresholds{});
  EXPECT_EQ(object.status, Status::kCompileFailed);
  EXPECT_NE(object.detail.find("SyntaxError: y"), std::string::npos);
}

TEST(Performance, RatioAndRejection) {
  const Thresholds t;
  std::vector<double> base;
  std::vector<double> fast;
  std::vector<double> slow;
  for (int i = 0; i < 30; ++i) {
    const double jitter = 0.01 * ((i * 7) % 5);
    base.push_back(1.0 + jitter);
    fast.push_back(0.8 + jitter);
    slow.push_back(1.1 + jitter);
  }
  const Outcome faster = performance_verdict({{"baseline_ms", base}, {"candidate_ms", fast}}, t);
  EXPECT_TRUE(faster.ok());
  EXPECT_NEAR(faster.numbers["ratio"].get<double>(), 1.02 / 0.82, 1e-9);
  EXPECT_GT(faster.numbers["ratio_low"].get<double>(), 1.0);
  const Outcome slower = performance_verdict({{"baseline_ms", base}, {"candidate_ms", slow}}, t);
  EXPECT_EQ(slower.status, Status::kSlower);
  EXPECT_FALSE(performance_verdict({{"baseline_ms", {1.0}}, {"candidate_ms", {1.0}}}, t).ok());
}

// The replays checked after timing: a candidate whose replayed outputs stray from the
// baseline's further than the same graphs called directly is rejected however fast it is.
TEST(Performance, ReplaysThatComputeOtherwiseThanDirectCallsAreRejected) {
  const Thresholds t;
  std::vector<double> base(30, 1.0);
  std::vector<double> fast(30, 0.1);
  const json agree = {{"seed", 0},
                      {"replay_tol", 3e-6},
                      {"replay_nonfinite_match", true},
                      {"direct_tol", 2e-6},
                      {"direct_nonfinite_match", true}};
  json stale = agree;
  stale["seed"] = 1;
  stale["replay_tol"] = 0.4;
  json n = {{"baseline_ms", base}, {"candidate_ms", fast}, {"replay_checks", json::array({agree})}};
  EXPECT_TRUE(performance_verdict(n, t).ok());
  n["replay_checks"].push_back(stale);
  const Outcome o = performance_verdict(n, t);
  EXPECT_EQ(o.status, Status::kReplayMismatch);
  EXPECT_NE(o.detail.find("seed 1"), std::string::npos) << o.detail;
  json nan = agree;
  nan["replay_nonfinite_match"] = false;
  n["replay_checks"] = json::array({nan});
  EXPECT_EQ(performance_verdict(n, t).status, Status::kReplayMismatch);
  n["replay_checks"] =
      json::array({{{"seed", 0}, {"error", {{"kind", "python"}, {"message", "boom"}}}}});
  EXPECT_EQ(performance_verdict(n, t).status, Status::kReplayMismatch);
  EXPECT_EQ(to_string(Status::kReplayMismatch), "replay_mismatch");
}

TEST(Performance, CapturesThatDisagreeAreNotAGain) {
  // Three captures of each side: the baseline's run at 2.70, 2.80 and 2.90 ms, the candidate's
  // at 2.75. Pooled as one set the candidate is a sure 1.8% gain; resampling the captures shows
  // that which capture a side got decides the sign, and it is no gain (nor a loss).
  const Thresholds t;
  std::vector<std::vector<double>> base(3);
  std::vector<std::vector<double>> cand(3);
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 30; ++i) {
      const double jitter = 0.001 * ((i * 7) % 5);
      base[k].push_back(2.70 + 0.1 * k + jitter);
      cand[k].push_back(2.75 + jitter);
    }
  }
  std::vector<double> base_all;
  std::vector<double> cand_all;
  for (int k = 0; k < 3; ++k) {
    base_all.insert(base_all.end(), base[k].begin(), base[k].end());
    cand_all.insert(cand_all.end(), cand[k].begin(), cand[k].end());
  }
  const Outcome one =
      performance_verdict({{"baseline_ms", base_all}, {"candidate_ms", cand_all}}, t);
  EXPECT_GT(one.numbers["ratio_low"].get<double>(), 1.0);  // as if one capture: a sure gain
  const Outcome grouped = performance_verdict({{"baseline_ms", base_all},
                                               {"candidate_ms", cand_all},
                                               {"baseline_instance_ms", base},
                                               {"candidate_instance_ms", cand}},
                                              t);
  ASSERT_TRUE(grouped.ok()) << grouped.detail;  // not slower either
  EXPECT_DOUBLE_EQ(grouped.numbers["ratio"].get<double>(), one.numbers["ratio"].get<double>());
  EXPECT_LT(grouped.numbers["ratio_low"].get<double>(), 1.0);
  EXPECT_NE(grouped.numbers["speed_class"].get<std::string>(), "faster");
  EXPECT_NE(grouped.detail.find("3 + 3 captures"), std::string::npos) << grouped.detail;
  // The fastest baseline capture (2.70 ms) against the slowest candidate capture (2.75 ms).
  EXPECT_NEAR(grouped.numbers["ratio_worst_capture"].get<double>(), 2.702 / 2.752, 1e-9);
  // Captures that agree, with a real gain: faster, every candidate capture ahead.
  for (int k = 0; k < 3; ++k) {
    for (auto& s : base[k]) {
      s += 0.1 * (1 - k);  // all at 2.80 + jitter
    }
    for (auto& s : cand[k]) {
      s -= 0.05;  // all at 2.70 + jitter
    }
  }
  const Outcome gain = performance_verdict({{"baseline_ms", {2.8, 2.8, 2.8, 2.8, 2.8}},
                                            {"candidate_ms", {2.7, 2.7, 2.7, 2.7, 2.7}},
                                            {"baseline_instance_ms", base},
                                            {"candidate_instance_ms", cand}},
                                           t);
  ASSERT_TRUE(gain.ok()) << gain.detail;
  EXPECT_EQ(gain.numbers["speed_class"].get<std::string>(), "faster") << gain.detail;
  EXPECT_NEAR(gain.numbers["ratio_worst_capture"].get<double>(), 2.802 / 2.702, 1e-9);
}

TEST(Performance, PairedSamplesTakeOutADriftBothSidesShare) {
  // The worker replays b0, c0, b1, c1, b2, c2 in turns; a clock that slows over the run (9.7 to
  // 11.0 ms) hits each pair alike. A 2% gain in every pair is faster, and says it was paired.
  const Thresholds t;
  std::vector<std::vector<double>> base(3);
  std::vector<std::vector<double>> cand(3);
  std::vector<double> base_all;
  std::vector<double> cand_all;
  for (int j = 0; j < 10; ++j) {
    for (int k = 0; k < 3; ++k) {
      const double clock = 9.7 + 1.3 * (j / 9.0) * (j / 9.0) + 0.002 * ((j * 3 + k) % 4);
      base[k].push_back(clock);
      cand[k].push_back(clock / 1.02 + 0.001 * ((j + k) % 3));
      base_all.push_back(base[k].back());
      cand_all.push_back(cand[k].back());
    }
  }
  const Outcome paired = performance_verdict({{"baseline_ms", base_all},
                                              {"candidate_ms", cand_all},
                                              {"baseline_instance_ms", base},
                                              {"candidate_instance_ms", cand}},
                                             t);
  ASSERT_TRUE(paired.ok()) << paired.detail;
  EXPECT_EQ(paired.numbers["interval"].get<std::string>(), "paired");
  EXPECT_NE(paired.detail.find("3 + 3 captures, paired"), std::string::npos) << paired.detail;
  EXPECT_GT(paired.numbers["ratio_low"].get<double>(), 1.01) << paired.detail;
  EXPECT_EQ(paired.numbers["speed_class"].get<std::string>(), "faster") << paired.detail;
  // The same samples with one candidate sample fewer cannot be paired: the interval is the
  // unpaired one, which the drift spans.
  cand[2].pop_back();
  cand_all.pop_back();
  const Outcome unpaired = performance_verdict({{"baseline_ms", base_all},
                                                {"candidate_ms", cand_all},
                                                {"baseline_instance_ms", base},
                                                {"candidate_instance_ms", cand}},
                                               t);
  ASSERT_TRUE(unpaired.ok()) << unpaired.detail;
  EXPECT_EQ(unpaired.numbers["interval"].get<std::string>(), "grouped");
  EXPECT_LT(unpaired.numbers["ratio_low"].get<double>(), 1.0) << unpaired.detail;
  EXPECT_NE(unpaired.numbers["speed_class"].get<std::string>(), "faster");
}

// A search's accepted set, its first G4 at 1.05x [1.02, 1.08].
CascadeResult accepted_once() {
  CascadeResult r;
  CandidateVerdicts c;
  c.candidate.segment = 0;
  c.outcomes = {Outcome{Status::kOk, "G1 static", "", json::object()},
                Outcome{Status::kOk, "G2 isolated", "", json::object()}};
  r.candidates.push_back(c);
  SetVerdicts set;
  set.segments = {0};
  set.outcomes = {Outcome{Status::kOk, "G3 model", "", json::object()},
                  Outcome{Status::kOk,
                          "G4 performance",
                          "1.050x",
                          {{"ratio", 1.05}, {"ratio_low", 1.02}, {"ratio_high", 1.08}}}};
  r.attempts.push_back(set);
  r.accepted = 0;
  return r;
}

TEST(Confirmation, AConfirmedChoiceReportsTheSecondMeasurement) {
  CascadeResult r = accepted_once();
  const Outcome again{
      Status::kOk,
      "G4 performance",
      "1.040x",
      {{"ratio", 1.04}, {"ratio_low", 1.03}, {"ratio_high", 1.05}, {"ratio_worst_capture", 1.02}}};
  EXPECT_TRUE(engine::confirm_choice(r, again));
  ASSERT_TRUE(r.accepted.has_value());
  const engine::ProblemOutcome o =
      engine::classify_problem(analysis::ProblemClass::kOptimizable, r);
  EXPECT_EQ(o.outcome_class, "optimized");
  EXPECT_DOUBLE_EQ(*o.ratio, 1.04);  // not the first, selected measurement
  const Outcome& verdict = r.attempts[0].outcomes.back();
  EXPECT_DOUBLE_EQ(verdict.numbers["first"]["ratio"].get<double>(), 1.05);
  EXPECT_NE(verdict.detail.find("confirmed"), std::string::npos);
}

TEST(Confirmation, AChoiceTheSecondMeasurementDoesNotBearOutIsRejected) {
  // L2/61's choice under the capture rule (H200, 2026-12-03), had it been timed again as it
  // was in its re-measurement: 1.000x [0.925, 1.010].
  CascadeResult r = accepted_once();
  const Outcome again{Status::kOk,
                      "G4 performance",
                      "1.000x",
                      {{"ratio", 1.000},
                       {"ratio_low", 0.925},
                       {"ratio_high", 1.010},
                       {"ratio_worst_capture", 0.92}}};
  EXPECT_FALSE(engine::confirm_choice(r, again));
  EXPECT_FALSE(r.accepted.has_value());
  const engine::ProblemOutcome o =
      engine::classify_problem(analysis::ProblemClass::kOptimizable, r);
  EXPECT_EQ(o.outcome_class, "fallback");
  EXPECT_EQ(o.reason, "rejected by the performance gate");
  EXPECT_EQ(r.attempts[0].outcomes.back().status, Status::kSlower);
  // Faster by the median and interval, but its slowest capture behind the baseline's fastest.
  CascadeResult lucky = accepted_once();
  EXPECT_FALSE(engine::confirm_choice(
      lucky, Outcome{Status::kOk,
                     "G4 performance",
                     "1.014x",
                     {{"ratio", 1.014}, {"ratio_low", 1.0007}, {"ratio_worst_capture", 0.999}}}));
}

TEST(Confirmation, AFailedSecondMeasurementIsARejectionWithItsStatus) {
  CascadeResult r = accepted_once();
  const Outcome again{Status::kCrashed, "G4 performance", "worker died", json::object()};
  EXPECT_FALSE(engine::confirm_choice(r, again));
  EXPECT_EQ(r.attempts[0].outcomes.back().status, Status::kCrashed);
  EXPECT_EQ(engine::classify_problem(analysis::ProblemClass::kOptimizable, r).reason,
            "rejected by the performance gate");
}

}  // namespace
}  // namespace kernelopt::gate
