// The gates' answers as the client reads them: numbers the worker could not write as JSON, fields
// an older worker leaves out, and the documents kept for the store.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kernelopt/worker/replies.hpp"

namespace kernelopt::worker {
namespace {

using json = nlohmann::json;

TEST(GateReplies, ModelCheckSeeds) {
  const json answer = {{"id", 7},
                       {"ok", true},
                       {"worker_exiting", false},
                       {"seeds",
                        {{{"seed", 0},
                          {"error", nullptr},
                          {"tol_vs_eager", 2.5e-5},
                          {"nonfinite_match", true},
                          {"max_abs_vs_eager", 1e-6},
                          {"candidate_err_f64", 3e-7},
                          {"baseline_tol_vs_eager", 1e-6},
                          {"baseline_nonfinite_match", false},
                          {"baseline_max_abs_vs_eager", 2e-6},
                          {"baseline_err_f64", 4e-7}},
                         {{"seed", 1},
                          {"error", {{"kind", "cuda"}, {"message", "illegal address"}}},
                          {"tol_vs_eager", "inf"},
                          {"nonfinite_match", false},
                          {"candidate_err_f64", "nan"},
                          {"baseline_err_f64", nullptr},
                          {"float64_error", "RuntimeError: no float64"}},
                         {{"seed", 2}}}}};
  const ModelCheck check = read_model_check(answer);
  ASSERT_EQ(check.seeds.size(), 3U);
  const ModelSeed& ok = check.seeds[0];
  EXPECT_FALSE(ok.error.has_value());
  ASSERT_TRUE(ok.candidate.has_value());
  EXPECT_EQ(ok.candidate->tol, 2.5e-5);
  EXPECT_TRUE(ok.candidate->nonfinite_match);
  ASSERT_TRUE(ok.baseline.has_value());
  EXPECT_EQ(ok.baseline->tol, 1e-6);
  EXPECT_FALSE(ok.baseline->nonfinite_match);
  EXPECT_EQ(ok.baseline_max_abs_vs_eager, 2e-6);
  EXPECT_EQ(ok.candidate_err_f64, 3e-7);
  EXPECT_EQ(ok.baseline_err_f64, 4e-7);
  EXPECT_FALSE(ok.float64_error.has_value());

  const ModelSeed& failed = check.seeds[1];
  ASSERT_TRUE(failed.error.has_value());
  EXPECT_EQ(failed.error->kind, "cuda");
  EXPECT_EQ(failed.error->message, "illegal address");
  EXPECT_EQ(failed.candidate->tol, kInfinity);  // "inf", "nan" and null read as infinite
  EXPECT_EQ(failed.candidate_err_f64, kInfinity);
  EXPECT_EQ(failed.baseline_err_f64, kInfinity);
  EXPECT_EQ(failed.float64_error, "RuntimeError: no float64");
  EXPECT_FALSE(failed.baseline.has_value());

  const ModelSeed& bare = check.seeds[2];  // nothing measured: never close, no error to compare
  EXPECT_FALSE(bare.candidate.has_value());
  EXPECT_EQ(bare.candidate_err_f64, kInfinity);
  EXPECT_EQ(bare.baseline_err_f64, 0.0);
  EXPECT_EQ(bare.max_abs_vs_eager, 0.0);

  EXPECT_FALSE(check.document.contains("id"));
  EXPECT_EQ(check.document.at("worker_exiting"), false);
  EXPECT_TRUE(read_model_check(json()).seeds.empty());
}

TEST(GateReplies, IsolatedCheck) {
  const json answer = {{"ok", true},
                       {"load_error", nullptr},
                       {"seeds",
                        {{{"seed", 4},
                          {"elements", 4096},
                          {"mismatched", 3},
                          {"unwritten", 1},
                          {"nan_mismatch", 2},
                          {"inf_mismatch", 0},
                          {"out_of_bounds", 5},
                          {"max_abs_err", 0.25},
                          {"inputs_mutated", {"arg0_1"}},
                          {"replaced_outputs", json::array()},
                          {"side_stream", true},
                          {"deterministic", true}},
                         {{"seed", 5}, {"error", {{"kind", "exception"}}}}}}};
  const IsolatedCheck check = read_isolated_check(answer);
  EXPECT_FALSE(check.load_error.has_value());
  ASSERT_EQ(check.seeds.size(), 2U);
  const IsolatedSeed& s = check.seeds[0];
  EXPECT_EQ(s.seed, 4);
  EXPECT_EQ(s.elements, 4096);
  EXPECT_EQ(s.mismatched, 3);
  EXPECT_EQ(s.unwritten, 1);
  EXPECT_EQ(s.nan_mismatch, 2);
  EXPECT_EQ(s.out_of_bounds, 5);
  EXPECT_EQ(s.max_abs_err, 0.25);
  EXPECT_EQ(s.inputs_mutated, (std::vector<std::string>{"arg0_1"}));
  EXPECT_TRUE(s.side_stream);
  EXPECT_TRUE(s.deterministic);
  const IsolatedSeed& raised = check.seeds[1];
  ASSERT_TRUE(raised.error.has_value());
  EXPECT_EQ(raised.error->message, "");  // the gate names it
  EXPECT_FALSE(raised.elements.has_value());
  EXPECT_FALSE(raised.deterministic);  // not measured is not deterministic

  EXPECT_EQ(read_isolated_check({{"load_error", "SyntaxError: x"}}).load_error, "SyntaxError: x");
  EXPECT_EQ(
      read_isolated_check({{"load_error", {{"kind", "syntax"}, {"message", "bad"}}}}).load_error,
      "bad");
}

TEST(GateReplies, StaticCheckAndPairTiming) {
  const StaticCheck check = read_static_check(
      {{"import_error", nullptr},
       {"has_run", true},
       {"run_error", nullptr},
       {"kernels",
        {{{"name", "k0"},
          {"compiled", true},
          {"shared_bytes", 1024},
          {"registers", nullptr},
          {"schedule_dependent", {"a float atomic add (red.global.gpu.add.f32)", "reads %clock"}}},
         {{"name", "k1"}, {"compiled", false}, {"error", "CompilationError: x"}}}}});
  EXPECT_FALSE(check.import_error.has_value());
  EXPECT_TRUE(check.has_run);
  EXPECT_FALSE(check.run_error.has_value());
  ASSERT_EQ(check.kernels.size(), 2U);
  EXPECT_EQ(check.kernels[0].shared_bytes, 1024);
  EXPECT_FALSE(check.kernels[0].registers.has_value());  // ptxas could not say
  EXPECT_EQ(check.kernels[1].error, "CompilationError: x");
  EXPECT_EQ(
      check.kernels[0].schedule_dependent,
      (std::vector<std::string>{"a float atomic add (red.global.gpu.add.f32)", "reads %clock"}));
  EXPECT_TRUE(check.kernels[1].schedule_dependent.empty());  // an older worker, or none found

  const PairTiming pair = read_pair_timing({{"error", nullptr},
                                            {"instances", 2},
                                            {"baseline_ms", {1.0, 1.1}},
                                            {"candidate_ms", {0.9, 0.95}},
                                            {"baseline_instance_ms", {{1.0}, {1.1}}},
                                            {"candidate_instance_ms", {{0.9}, {0.95}}},
                                            {"baseline_median_ms", 1.05},
                                            {"candidate_median_ms", 0.925}});
  EXPECT_FALSE(pair.error.has_value());
  EXPECT_EQ(pair.instances, 2);
  EXPECT_EQ(pair.candidate_ms, (std::vector<double>{0.9, 0.95}));
  EXPECT_EQ(pair.baseline_instance_ms, (std::vector<std::vector<double>>{{1.0}, {1.1}}));
  EXPECT_EQ(pair.candidate_median_ms, 0.925);
  const PairTiming failed =
      read_pair_timing({{"error", {{"kind", "oom"}, {"message", "CUDA out of memory"}}}});
  ASSERT_TRUE(failed.error.has_value());
  EXPECT_EQ(failed.error->kind, "oom");
  EXPECT_TRUE(failed.baseline_ms.empty());
}

}  // namespace
}  // namespace kernelopt::worker
