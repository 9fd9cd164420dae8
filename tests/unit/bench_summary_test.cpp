// summary.json's math on hand-made documents with known answers: classes, fallback and failure
// reasons, geomeans (fallbacks at their ratio, failed problems left out), the optimized rate, the
// long tail, floors and headroom, cost; and the baseline-only outcome of each dispatch class.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/bench.hpp"
#include "kernelopt/engine/bench_document.hpp"
#include "kernelopt/engine/bench_task.hpp"
#include "kernelopt/engine/outcome_class.hpp"
#include "kernelopt/report/report.hpp"
#include "kernelopt/report/summary.hpp"

namespace kernelopt {
namespace {

using nlohmann::json;

json doc(
    int level, int number, const std::string& cls, double ratio, const std::string& reason = "") {
  return {{"schema", "kernelopt.bench.problem/1"},
          {"problem", std::to_string(number) + "_p"},
          {"level", level},
          {"number", number},
          {"status", cls == "failed" ? "failed" : "done"},
          {"outcome",
           {{"class", cls},
            {"reason", reason},
            {"ratio", cls == "failed" ? json(nullptr) : json(ratio)},
            {"ratio_low", cls == "failed" ? json(nullptr) : json(ratio * 0.99)},
            {"ratio_high", cls == "failed" ? json(nullptr) : json(ratio * 1.01)},
            {"measured", true}}},
          {"error", cls == "failed" ? json{{"tag", "kernelopt.timeout"}, {"message", "hung"}}
                                    : json(nullptr)},
          {"cost", {{"gpu_seconds", 360.0}, {"wall_seconds", 400.0}, {"llm_tokens", 10}}},
          {"show",
           cls == "failed" ? json(nullptr) : json{{"replay_ms", 2.0}, {"class", "optimizable"}}}};
}

std::vector<json> run() {
  return {doc(1, 3, "optimized", 6.0),
          doc(1, 1, "optimized", 3.0),
          doc(2, 5, "matched (optimized)", 1.0),
          doc(2, 2, "fallback", 0.96, "rejected by the performance gate"),
          doc(2, 7, "optimized", 1.5),
          doc(2, 9, "failed", 0, "timed out"),
          doc(1, 4, "matched (synthesis failed)", 1.0)};
}

TEST(Summary, ClassCountsGeomeansAndLongTail) {
  const json s = report::summarize(run());
  const json& all = s["overall"];
  EXPECT_EQ(all["problems"], 7);
  EXPECT_EQ(all["classes"]["optimized"], 3);
  EXPECT_EQ(all["classes"]["matched (optimized)"], 1);
  EXPECT_EQ(all["classes"]["matched (synthesis failed)"], 1);
  EXPECT_EQ(all["classes"]["fallback"], 1);
  EXPECT_EQ(all["classes"]["failed"], 1);
  EXPECT_EQ(all["fallback_reasons"]["rejected by the performance gate"], 1);
  EXPECT_EQ(all["fallback_reasons"]["vendor-dominated"], 0);
  EXPECT_EQ(all["failure_reasons"]["timed out"], 1);
  EXPECT_EQ(all["speedup_problems"], 6);
  EXPECT_NEAR(all["geomean_speedup"].get<double>(), std::pow(6.0 * 3 * 1 * 0.96 * 1.5 * 1, 1.0 / 6),
              1e-12);
  EXPECT_NEAR(all["geomean_speedup_optimized"].get<double>(), 3.0, 1e-12);
  EXPECT_NEAR(all["optimized_rate"].get<double>(), 3.0 / 7, 1e-12);
  EXPECT_EQ(all["long_tail"]["ge_5x"], 1);
  EXPECT_EQ(all["long_tail"]["2x_to_5x"], 1);
  EXPECT_EQ(all["long_tail"]["1.01x_to_2x"], 1);
  EXPECT_NEAR(all["gpu_hours"].get<double>(), 0.7, 1e-12);
  EXPECT_NEAR(all["wall_seconds"].get<double>(), 2800, 1e-9);
  EXPECT_EQ(all["llm_tokens"], 70);
  EXPECT_FALSE(s["baseline_only"].get<bool>());
}

TEST(Summary, TheVendorKnobsEachProblemWonAreCountedPerKnob) {
  std::vector<json> docs = run();
  docs[0]["optimize"] = {{"vendor", {{"kept", {"cudnn_benchmark"}}}}};
  docs[1]["optimize"] = {{"vendor", {{"kept", {"cudnn_benchmark", "cublaslt"}}}}};
  docs[2]["optimize"] = {{"vendor", {{"kept", json::array()}}}};  // the stage ran, kept none
  const json s = report::summarize(docs);
  EXPECT_EQ(s["overall"]["vendor_knobs_won"], (json{{"cudnn_benchmark", 2}, {"cublaslt", 1}}));
  EXPECT_EQ(s["levels"][1]["vendor_knobs_won"], json::object());
  std::map<std::string, json> by_problem;
  for (const auto& r : s["problems"]) {
    by_problem[r["problem"].get<std::string>()] = r["vendor_knobs"];
  }
  EXPECT_EQ(by_problem["1_p"], json({"cudnn_benchmark", "cublaslt"}));
  EXPECT_EQ(by_problem["5_p"], json::array());
  EXPECT_TRUE(by_problem["9_p"].is_null());  // no stage: null, not "none kept"
}

TEST(Summary, PerLevelAndSortedRows) {
  const json s = report::summarize(run());
  ASSERT_EQ(s["levels"].size(), 2U);
  const json& one = s["levels"][0];
  EXPECT_EQ(one["level"], 1);
  EXPECT_EQ(one["problems"], 3);
  EXPECT_NEAR(one["geomean_speedup"].get<double>(), std::cbrt(18.0), 1e-12);
  EXPECT_NEAR(one["geomean_speedup_optimized"].get<double>(), std::sqrt(18.0), 1e-12);
  const json& two = s["levels"][1];
  EXPECT_EQ(two["problems"], 4);
  EXPECT_EQ(two["classes"]["failed"], 1);
  EXPECT_NEAR(two["optimized_rate"].get<double>(), 0.25, 1e-12);
  std::vector<std::string> order;
  for (const auto& r : s["problems"]) {
    order.push_back(std::to_string(r["level"].get<int>()) + "/" + r["problem"].get<std::string>());
  }
  EXPECT_EQ(order, (std::vector<std::string>{"1/1_p", "1/3_p", "1/4_p", "2/2_p", "2/5_p", "2/7_p",
                                             "2/9_p"}));
  EXPECT_NEAR(s["problems"][1]["optimized_ms"].get<double>(), 2.0 / 6, 1e-12);
  EXPECT_TRUE(s["problems"][6]["speedup"].is_null());
  EXPECT_EQ(s["problems"][6]["error"], "hung");
}

TEST(Summary, EmptyGroupsHaveNullGeomeans) {
  const json s = report::summarize({doc(3, 1, "failed", 0, "timed out")});
  EXPECT_TRUE(s["overall"]["geomean_speedup"].is_null());
  EXPECT_TRUE(s["overall"]["geomean_speedup_optimized"].is_null());
  EXPECT_EQ(s["overall"]["optimized_rate"], 0.0);
  EXPECT_TRUE(report::geomean({}).is_null());
  EXPECT_NEAR(report::geomean({2.0, 8.0}).get<double>(), 4.0, 1e-12);
}

// The cost medians: GPU seconds over every problem; search seconds only over the problems whose
// search recorded them (older documents and unsearched problems have none).
TEST(Summary, MedianCostsPerProblemAndPerSearch) {
  std::vector<json> docs = {doc(2, 1, "optimized", 1.2), doc(2, 3, "fallback", 1.0),
                            doc(2, 5, "fallback", 1.0), doc(2, 7, "optimized", 1.1)};
  const double gpu[] = {100.0, 400.0, 50.0, 250.0};
  const json search[] = {json(90.0), json(nullptr), json(30.0), json(120.0)};
  for (std::size_t i = 0; i < docs.size(); ++i) {
    docs[i]["cost"]["gpu_seconds"] = gpu[i];
    docs[i]["cost"]["search_seconds"] = search[i];
  }
  const json all = report::summarize(docs)["overall"];
  EXPECT_NEAR(all["median_gpu_seconds"].get<double>(), 175.0, 1e-12);  // (100 + 250) / 2
  EXPECT_EQ(all["searched_problems_timed"], 3);
  EXPECT_NEAR(all["median_search_seconds"].get<double>(), 90.0, 1e-12);
  const json none = report::summarize(run())["overall"];
  EXPECT_NEAR(none["median_gpu_seconds"].get<double>(), 360.0, 1e-12);
  EXPECT_TRUE(none["median_search_seconds"].is_null());
  EXPECT_EQ(none["searched_problems_timed"], 0);
}

// A show document: two Triton segments (one without a known floor) and one cuBLAS call.
json show_with_floors() {
  return {{"replay_ms", 6.0},
          {"launch_sum_ms", 5.0},
          {"triton_share", 0.6},
          {"class", "optimizable"},
          {"launches",
           {{{"dispatch", "triton"}, {"time_ms", 2.5}},
            {{"dispatch", "extern"}, {"time_ms", 2.0}},
            {{"dispatch", "triton"}, {"time_ms", 0.5}}}},
          {"segments",
           {{{"time_ms", 2.5}, {"floor_ms", 1.0}}, {{"time_ms", 0.5}, {"floor_ms", nullptr}}}}};
}

TEST(Summary, FloorIsSegmentFloorsPlusOtherLaunches) {
  json d = doc(1, 1, "optimized", 2.0);
  d["show"] = show_with_floors();
  const json row = report::summary_row(d);
  EXPECT_NEAR(row["floor_ms"].get<double>(), 1.0 + 0.5 + 2.0, 1e-12);
  EXPECT_NEAR(row["headroom_before"].get<double>(), 5.0 / 3.5, 1e-12);
  EXPECT_NEAR(row["headroom_after"].get<double>(), 5.0 / 3.5 / 2.0, 1e-12);
  EXPECT_NEAR(row["optimized_ms"].get<double>(), 3.0, 1e-12);
  EXPECT_EQ(row["baseline_ms"], 6.0);
  EXPECT_EQ(row["triton_share"], 0.6);
}

TEST(BaselineOutcome, EachDispatchClass) {
  const json none = engine::baseline_outcome({{"class", "no_triton_kernel"}});
  EXPECT_EQ(none["class"], "fallback");
  EXPECT_EQ(none["reason"], "no Triton kernel");
  const json vendor = engine::baseline_outcome({{"class", "vendor_dominated"}});
  EXPECT_EQ(vendor["class"], "fallback");
  EXPECT_EQ(vendor["reason"], "vendor-dominated");
  const json open = engine::baseline_outcome({{"class", "optimizable"}});
  EXPECT_EQ(open["class"], "matched (synthesis failed)");
  EXPECT_EQ(open["reason"], "");
  for (const json& o : {none, vendor, open}) {
    EXPECT_EQ(o["ratio"], 1.0);
    EXPECT_EQ(o["ratio_low"], 1.0);
    EXPECT_EQ(o["ratio_high"], 1.0);
    EXPECT_FALSE(o["measured"].get<bool>());
  }
  EXPECT_THROW(engine::baseline_outcome({{"class", "huh"}}), Error);
}

TEST(BaselineOutcome, BaselineOnlyRunsSayTheSpeedupIsByConstruction) {
  engine::BenchProblem problem{1, 19, "19_ReLU", "KernelBench/level1/19_ReLU.py"};
  engine::ProblemCost cost;
  cost.gpu_seconds = 7200;
  json show = show_with_floors();
  show["problem"] = "19_ReLU";
  show["level"] = 1;
  const json s = report::summarize({engine::done_document(problem, show, cost)});
  EXPECT_TRUE(s["baseline_only"].get<bool>());
  EXPECT_NE(s["note"].get<std::string>().find("1.0 by construction"), std::string::npos);
  EXPECT_EQ(s["overall"]["geomean_speedup"], 1.0);
  EXPECT_EQ(s["overall"]["classes"]["matched (synthesis failed)"], 1);
  EXPECT_EQ(s["overall"]["dispatch_classes"]["optimizable"], 1);
  EXPECT_EQ(s["overall"]["gpu_hours"], 2.0);
  const std::string md = report::format_report_md(s, "run");
  EXPECT_NE(md.find("| level 1 | 1 | 0 | 0 | 1 | 0 | 0 | 0 | 0 | 0 | 1.000x | 0.0% |"),
            std::string::npos)
      << md;
  const std::string cmp = report::format_compare_md({{"a", s}, {"b", report::summarize(run())}});
  EXPECT_NE(cmp.find("| problems | 1 | 7 |"), std::string::npos) << cmp;
  EXPECT_NE(cmp.find("| optimized | 0 | 3 |"), std::string::npos) << cmp;
}

// Optimize documents written on the H200 (tests/fixtures/documents/optimize/): a --search run's
// problem takes optimize's outcome and its G4 ratio; a search without a timed candidate, or one
// that did not finish, keeps the baseline at 1.0.
json optimize_document(const std::string& name) {
  std::ifstream in(std::filesystem::path(KERNELOPT_SOURCE_DIR) /
                   "tests/fixtures/documents/optimize" / name);
  std::ostringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

TEST(SearchOutcome, TakesOptimizesOutcomeAndRatio) {
  const json show = {{"class", "optimizable"}};
  const json won = optimize_document("95_CrossEntropyLoss.json");
  const json o = engine::search_outcome(show, {won, ""});
  EXPECT_EQ(o["class"], "optimized");
  EXPECT_TRUE(o["measured"].get<bool>());
  EXPECT_NEAR(o["ratio"].get<double>(), 1.301, 0.001);
  EXPECT_LT(o["ratio_low"].get<double>(), o["ratio"].get<double>());

  const json none = optimize_document("91_cumsum_reverse_no_recipe.json");  // no recipe matched
  const json n = engine::search_outcome(show, {none, ""});
  EXPECT_EQ(n["class"], "matched (synthesis failed)");
  EXPECT_FALSE(n["measured"].get<bool>());
  EXPECT_EQ(n["ratio"], 1.0);

  const json cut = engine::search_outcome(show, {nullptr, "timed out (--timeout 300 s)"});
  EXPECT_EQ(cut["class"], "matched (synthesis failed)");
  EXPECT_EQ(cut["reason"], "search did not finish: timed out (--timeout 300 s)");
  EXPECT_FALSE(cut["measured"].get<bool>());

  // In a summary the searched problem counts at its measured ratio.
  engine::BenchProblem problem{1, 95, "95_CrossEntropyLoss", "KernelBench/level1/95.py"};
  json s_show = show_with_floors();
  s_show["problem"] = "95_CrossEntropyLoss";
  s_show["level"] = 1;
  const json doc = engine::done_document(problem, s_show, {}, engine::SearchResult{won, ""});
  EXPECT_EQ(doc["search"], "beam search over recipes (kernelopt optimize, offline)");
  const json s = report::summarize({doc});
  EXPECT_FALSE(s["baseline_only"].get<bool>());
  EXPECT_EQ(s["overall"]["classes"]["optimized"], 1);
  EXPECT_NEAR(s["overall"]["geomean_speedup"].get<double>(), 1.301, 0.001);
}

// Where the model spends GPU time outside its compiled graphs, optimize turns G4's ratio over the
// graphs into the whole model's (with bench's show times, or its own); G4's own numbers stay
// beside it, and bench takes that outcome as it is.
TEST(SearchOutcome, RatioOfTheWholeModelWhereTimeRunsOutsideTheGraphs) {
  const json won = optimize_document("95_CrossEntropyLoss.json");
  const json inside = engine::search_outcome({{"class", "optimizable"}}, {won, ""});
  const double g4 = inside["ratio"].get<double>();
  EXPECT_FALSE(inside.contains("graphs_ratio"));
  json whole = won;
  engine::to_whole_model(whole["outcome"], 1.0, 9.0);
  const json o = engine::search_outcome({{"class", "optimizable"}}, {whole, ""});
  EXPECT_DOUBLE_EQ(o["graphs_ratio"].get<double>(), g4);
  EXPECT_NEAR(o["ratio"].get<double>(), 10.0 / (9.0 + 1.0 / g4), 1e-12);
  EXPECT_NEAR(o["ratio_low"].get<double>(), 10.0 / (9.0 + 1.0 / inside["ratio_low"].get<double>()),
              1e-12);
  EXPECT_LT(o["ratio"].get<double>(), g4);
  EXPECT_NE(o["note"].get<std::string>().find("whole-model ratio"), std::string::npos);
  EXPECT_EQ(o["class"], "optimized");  // 1.301x on 1 ms beside 9 ms: still >= 1.01x

  // Turned once: a second call changes nothing.
  json twice = o;
  engine::to_whole_model(twice, 1.0, 9.0);
  EXPECT_EQ(twice, o);
  // A gain of the graphs too small for the model stays accepted, no longer "optimized".
  json small = {{"class", "optimized"}, {"ratio", 1.05}, {"ratio_low", 1.04}, {"ratio_high", 1.06}};
  engine::to_whole_model(small, 1.0, 9.0);
  EXPECT_EQ(small["class"], "matched (optimized)");
  EXPECT_NEAR(small["ratio"].get<double>(), 10.0 / (9.0 + 1.0 / 1.05), 1e-12);
  EXPECT_DOUBLE_EQ(small["graphs_ratio_high"].get<double>(), 1.06);
  json untouched = {{"class", "optimized"}, {"ratio", 1.05}};
  engine::to_whole_model(untouched, 1.0, 0.0);  // no time outside the graphs
  EXPECT_FALSE(untouched.contains("graphs_ratio"));
}

// A --search run in which no problem took a replacement is not a baseline-only run: the report
// says the search ran and returned the baselines (it said "No search ran" before).
TEST(SearchOutcome, SearchWithoutReplacementIsNotBaselineOnly) {
  engine::BenchProblem problem{1, 91, "91_cumsum_reverse", "KernelBench/level1/91.py"};
  json show = show_with_floors();
  show["problem"] = "91_cumsum_reverse";
  show["level"] = 1;
  const json none = optimize_document("91_cumsum_reverse_no_recipe.json");  // no recipe matched
  const json doc = engine::done_document(problem, show, {}, engine::SearchResult{none, ""});
  const json s = report::summarize({doc});
  EXPECT_FALSE(s["baseline_only"].get<bool>());
  EXPECT_TRUE(s["problems"][0]["searched"].get<bool>());
  EXPECT_NE(s["note"].get<std::string>().find("search ran"), std::string::npos);
  const std::string md = report::format_report_md(s, "run");
  EXPECT_EQ(md.find("Baseline-only run"), std::string::npos);
  EXPECT_NE(md.find("**No replacement.**"), std::string::npos);
  EXPECT_NE(report::format_report_html(s, "run").find("<b>No replacement.</b>"), std::string::npos);
}

// Triage on the show documents of a level-1 bench run on the H200
// (tests/fixtures/documents/bench_problems/): a segment at its floor or with a tiny share is not
// searched; one with headroom is.
json stored_show(const std::string& name) {
  std::ifstream in(std::filesystem::path(KERNELOPT_SOURCE_DIR) /
                   "tests/fixtures/documents/bench_problems" / name);
  std::ostringstream text;
  text << in.rdbuf();
  return json::parse(text.str()).at("show");
}

TEST(SearchTriage, SkipsSegmentsAtTheirFloorOrWithATinyShare) {
  const auto relu = engine::worthless_segments(stored_show("level1_19_ReLU.json"));
  ASSERT_EQ(relu.size(), 1U);  // headroom 0.99x
  EXPECT_EQ(relu.at(0).rfind("at its floor (headroom 0.99x)", 0), 0U) << relu.at(0);
  EXPECT_TRUE(engine::worthless_segments(stored_show("level1_39_L2Norm_.json")).empty());
  // A transposed convolution: its first Triton segment is 1.0% of the time (headroom 1.95x) and is
  // skipped for its share; the second, 26% at 1.04x, is searched.
  const auto conv = engine::worthless_segments(
      stored_show("level1_81_conv_transposed_2D_asymmetric_input_square_kernel___dilated____"
                  "padded____strided__.json"));
  ASSERT_EQ(conv.size(), 1U);
  EXPECT_NE(conv.at(0).find("% of the GPU time: not worth a search"), std::string::npos);
  EXPECT_TRUE(engine::worthless_segments(json::object()).empty());
  // A norm at its two-pass floor is searched: the one-pass floor leaves 1.48x.
  const json norm = {{"segments",
                      {{{"id", 0},
                        {"share", 1.0},
                        {"time_ms", 5.25},
                        {"floor_ms", 5.31},
                        {"headroom", 5.25 / 5.31},
                        {"bytes", 15.0e9},
                        {"reread_bytes", 7.5e9}}}}};
  EXPECT_TRUE(engine::worthless_segments(norm).empty());
}

// Every worker of a run directory compiles into the run's own Inductor cache, so that the
// baseline's autotuning choice is the same in every process of the run.
TEST(PinnedOptions, InductorsCacheLivesInTheRunDirectory) {
  const auto options = engine::pinned_options("runs/x/../y");
  const std::string want =
      "TORCHINDUCTOR_CACHE_DIR=" +
      (std::filesystem::current_path() / "runs/y/inductor-cache").lexically_normal().string();
  EXPECT_NE(std::find(options.env.begin(), options.env.end(), want), options.env.end());
  EXPECT_EQ(options.argv, engine::default_options().argv);
}

// The run's context carries the command's search settings: --no-perf-gate makes G4 reject nothing
// (its threshold once stayed at 0.97 because the flag never reached the context).
TEST(BenchContext, CarriesTheSearchSettings) {
  engine::BenchCommand command;
  command.run_dir = "runs/ctx";
  command.search = true;
  command.samples = 12;
  command.gate_timeout = std::chrono::seconds(45);
  const engine::BenchContext gated = engine::bench_context(command);
  EXPECT_TRUE(gated.search);
  EXPECT_EQ(gated.thresholds.samples, 12);
  EXPECT_EQ(gated.thresholds.min_ratio, gate::Thresholds{}.min_ratio);
  EXPECT_EQ(gated.gate_timeout, std::chrono::seconds(45));
  EXPECT_EQ(gated.worker.env, engine::pinned_options("runs/ctx").env);
  command.flags.no_perf_gate = true;
  EXPECT_EQ(engine::bench_context(command).thresholds.min_ratio, 0.0);
}

}  // namespace
}  // namespace kernelopt
