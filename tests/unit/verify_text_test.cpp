// What `kernelopt verify` prints: one cascade, and `--each` (one cascade per candidate); and
// what `show` prints about time outside the compiled graphs.
#include "kernelopt/report/verify_text.hpp"

#include <gtest/gtest.h>

#include "kernelopt/report/show_text.hpp"

namespace kernelopt {
namespace {

nlohmann::json one(const std::string& file, bool passed, const std::string& cls) {
  nlohmann::json gate = {
      {"gate", "G1 static"}, {"status", passed ? "ok" : "compile_failed"}, {"detail", "d"}};
  nlohmann::json doc = {
      {"candidates", {{{"segment", 0}, {"file", file}, {"passed", passed}, {"gates", {gate}}}}},
      {"attempts", nlohmann::json::array()},
      {"outcome", {{"class", cls}, {"reason", ""}, {"ratio", nullptr}}}};
  if (passed) {
    doc["attempts"].push_back({{"segments", {0}}, {"passed", true}, {"gates", {gate}}});
    doc["outcome"]["ratio"] = 1.5;
    doc["outcome"]["ratio_low"] = 1.4;
    doc["outcome"]["ratio_high"] = 1.6;
  }
  return doc;
}

TEST(VerifyText, OneCascade) {
  nlohmann::json doc = one("good.py", true, "optimized");
  doc["problem"] = "p.py";
  doc["segments"] = 1;
  doc["optimized"] = "dir";
  const std::string text = report::format_verify(doc);
  EXPECT_NE(text.find("p.py: 1 segment(s)"), std::string::npos);
  EXPECT_NE(text.find("seg0 good.py -> passed"), std::string::npos);
  EXPECT_NE(text.find("model with segments [0] -> accepted"), std::string::npos);
  EXPECT_NE(text.find("outcome: optimized, 1.500x [1.400, 1.600]"), std::string::npos);
  EXPECT_NE(text.find("wrote optimized/"), std::string::npos);
}

// optimize's deployed timing: the ratio a user gets from kernelopt.load, the in-place ratio, a
// warning where the deployed module is slower, and a failed measurement said as such.
TEST(VerifyText, DeployedTiming) {
  nlohmann::json doc = one("good.py", true, "optimized");
  doc["optimized"] = "dir";
  doc["deployed"] = {{"ratio", 1.17},
                     {"ratio_low", 1.16},
                     {"ratio_high", 1.18},
                     {"module_ms", 0.4},
                     {"baseline_ms", 0.468},
                     {"speed_class", "faster"},
                     {"input_bytes", 5e8},
                     {"in_place",
                      {{"ratio", 1.3},
                       {"ratio_low", 1.29},
                       {"ratio_high", 1.31},
                       {"module_ms", 0.36},
                       {"baseline_ms", 0.468},
                       {"speed_class", "faster"}}}};
  std::string text = report::format_verify(doc);
  EXPECT_NE(text.find("as deployed: kernelopt.load 1.170x [1.160, 1.180] (0.4000 ms against "
                      "0.4680 ms, faster)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(500.0 MB copied per call)"), std::string::npos) << text;
  EXPECT_NE(text.find("with the inputs in place (module.static_inputs()): 1.300x"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("warning"), std::string::npos);
  doc["deployed"]["speed_class"] = "slower";
  EXPECT_NE(report::format_verify(doc).find("warning: as deployed the module is slower"),
            std::string::npos);
  doc["deployed"] = {{"error", "the worker timed out"}};
  text = report::format_verify(doc);
  EXPECT_NE(text.find("as deployed: not measured: the worker timed out"), std::string::npos)
      << text;
  doc.erase("deployed");
  EXPECT_EQ(report::format_verify(doc).find("as deployed"), std::string::npos);
}

TEST(VerifyText, EachCandidateAlone) {
  // A document of `verify --each` has no top-level candidates/attempts/outcome (this aborted).
  const nlohmann::json doc = {
      {"problem", "p.py"},
      {"segments", 1},
      {"each", {one("a.py", true, "optimized"), one("b.py", false, "matched (synthesis failed)")}}};
  const std::string text = report::format_verify(doc);
  EXPECT_NE(text.find("seg0 a.py -> passed"), std::string::npos);
  EXPECT_NE(text.find("seg0 b.py -> rejected"), std::string::npos);
  EXPECT_NE(text.find("outcome: matched (synthesis failed)\n"), std::string::npos);
  EXPECT_EQ(text.find("wrote optimized/"), std::string::npos);
}

TEST(VerifyText, OptimizeSaysWhatItProposedAndTried) {
  nlohmann::json doc = one("seg0_reduce_dim_0.py", true, "optimized");
  doc["problem"] = "p.py";
  doc["segments"] = 2;
  doc["proposals"] = {
      {{"segment", 0}, {"recipe", "reduce_dim"}, {"why", "argmax over dim 1"}, {"candidates", 3}},
      {{"segment", 1},
       {"recipe", nullptr},
       {"candidates", 0},
       {"config", "Inductor's pointwise kernel k relaunched with other settings"}}};
  doc["tried"] = {one("seg0_reduce_dim_0.py", true, "optimized"),
                  one("seg1_config_r1_1.py", false, "fallback")};
  doc["tried"][0]["round"] = 2;
  doc["tried"][0]["settings"] = {{"rows_per_step", 8}};
  doc["tried"][1]["round"] = 1;
  doc["tried"][1]["strategy"] = "config";
  doc["tried"][1]["settings"] = {{"XBLOCK", 512}};
  doc["search"] = {{{"segment", 0},
                    {"bottleneck", "memory-bound"},
                    {"analysis", "2.679 ms, 1.33x its floor"},
                    {"evaluated", 7},
                    {"rounds", 3},
                    {"stopped", "converged: round 4 had nothing new to try"},
                    {"best", {{"settings", {{"rows_per_step", 8}}}, {"ratio", 1.0899}}}}};
  doc["counters"] = "1 kernel(s) in 29.2 s";
  const std::string text = report::format_verify(doc);
  EXPECT_NE(text.find("seg0: recipe reduce_dim (argmax over dim 1)\n"), std::string::npos);
  EXPECT_NE(text.find("tried (round 2, {\"rows_per_step\":8}):"), std::string::npos) << text;
  EXPECT_NE(text.find("seg1: no recipe matches\n  seg1: config (Inductor's pointwise kernel k "
                      "relaunched with other settings)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tried (round 1, config {\"XBLOCK\":512}):"), std::string::npos) << text;
  EXPECT_NE(text.find("seg0 search: memory-bound (2.679 ms, 1.33x its floor); 7 candidate(s) over "
                      "3 round(s), converged: round 4 had nothing new to try; best "
                      "{\"rows_per_step\":8} at 1.090x"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("counters: 1 kernel(s) in 29.2 s"), std::string::npos);
  EXPECT_NE(text.find("seg1: no recipe matches"), std::string::npos);
  EXPECT_NE(text.find("  chosen:\n"), std::string::npos);
  // Tried, nothing chosen: it says the compiler's kernels stay.
  nlohmann::json lost = doc;
  lost.erase("candidates");
  EXPECT_NE(report::format_verify(lost).find("chosen: none; the compiler's kernels stay"),
            std::string::npos);

  // Nothing proposed: the outcome alone.
  const nlohmann::json none = {
      {"problem", "p.py"},
      {"segments", 1},
      {"proposals", {{{"segment", 0}, {"recipe", nullptr}, {"candidates", 0}}}},
      {"tried", nlohmann::json::array()},
      {"outcome", {{"class", "matched (synthesis failed)"}, {"reason", ""}, {"ratio", nullptr}}}};
  const std::string quiet = report::format_verify(none);
  EXPECT_NE(quiet.find("outcome: matched (synthesis failed)"), std::string::npos);
  EXPECT_EQ(quiet.find("chosen:"), std::string::npos);

  // A segment the triage left alone says why.
  nlohmann::json skipped = none;
  skipped["proposals"][0]["skipped"] = "at its floor (headroom 0.99x): nothing to gain";
  EXPECT_NE(report::format_verify(skipped).find(
                "seg0: skipped: at its floor (headroom 0.99x): nothing to gain"),
            std::string::npos);
}

// A show document of an optimizable model on an H200 with no launches or segments yet, its times
// unknown.
nlohmann::json show_doc(const char* problem, double triton_share) {
  nlohmann::json doc = {{"problem", problem},
                        {"environment", {{"gpu", "NVIDIA H200"}}},
                        {"launches", nlohmann::json::array()},
                        {"segments", nlohmann::json::array()},
                        {"class", "optimizable"},
                        {"triton_share", triton_share}};
  for (const char* key : {"eager_ms", "compiled_ms", "compiled_gpu_ms", "cudagraphs_ms",
                          "replay_ms", "compile_s", "launch_sum_ms", "launch_sum_over_gpu"}) {
    doc[key] = nullptr;
  }
  return doc;
}

// A model whose GPU time runs mostly outside its compiled graphs (L3/35's LSTM on the H200) says
// so under its class; a fully compiled one says nothing of it.
TEST(ShowText, SaysWhenGpuTimeRunsOutsideTheGraphs) {
  nlohmann::json doc = show_doc("35_LSTM", 0.66);
  EXPECT_EQ(report::format_show(doc).find("outside the compiled graphs"), std::string::npos);
  doc["outside_graphs_ms"] = 23.202;
  doc["class"] = "vendor_dominated";
  const std::string text = report::format_show(doc);
  EXPECT_NE(text.find("23.202 ms of GPU time runs outside the compiled graphs"), std::string::npos)
      << text;
}

// The configuration cuDNN and cuBLAS run with is printed where the model makes a vendor call.
TEST(ShowText, NamesTheVendorConfigurationWhereThereAreVendorCalls) {
  nlohmann::json doc = show_doc("67_Conv2d_GELU_GlobalAvgPool", 0.4);
  doc["environment"]["vendor_config"] = {{"cudnn.benchmark", false},
                                         {"float32_matmul_precision", "highest"}};
  EXPECT_EQ(report::format_show(doc).find("vendor calls run with"), std::string::npos);
  doc["launches"].push_back({{"dispatch", "extern"},
                             {"kind", "extern"},
                             {"name", "extern_kernels.convolution"},
                             {"aten_ops", {"aten.convolution"}},
                             {"time_ms", 1.0},
                             {"share", 0.6},
                             {"floor_ms", nullptr},
                             {"headroom", nullptr}});
  std::string text = report::format_show(doc);
  EXPECT_NE(text.find("vendor calls run with: cudnn.benchmark false, float32_matmul_precision "
                      "highest\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("vendor knobs"), std::string::npos);  // not asked
  doc["vendor_knobs"] = {
      {"convolutions", 1},
      {"products", 0},
      {"knobs",
       {{{"name", "cudnn_benchmark"}, {"applies", true}, {"reason", ""}},
        {{"name", "cublaslt"}, {"applies", false}, {"reason", "no matrix product"}}}}};
  text = report::format_show(doc);
  EXPECT_NE(text.find("vendor knobs (1 convolution(s), 0 matrix product(s) in an eager forward):\n"
                      "  cudnn_benchmark  applies\n"
                      "  cublaslt         does not apply: no matrix product\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("kernels of the vendor calls"), std::string::npos);  // none traced
  doc["launches"][0]["kernels"] = {{{"name", "cudnn_infer_conv2d_k1"}, {"ms", 0.61}},
                                   {{"name", "nchwToNhwcKernel"}, {"ms", 0.02}}};
  text = report::format_show(doc);
  EXPECT_NE(text.find("kernels of the vendor calls (one call traced by the profiler; ms in that "
                      "call):\n"
                      "  0 extern_kernels.convolut~    0.6100  cudnn_infer_conv2d_k1\n"
                      "  0 extern_kernels.convolut~    0.0200  nchwToNhwcKernel\n"),
            std::string::npos)
      << text;
  // show --vendor: a knob timed against the defaults says its ratio and the time it saves.
  doc["vendor_knobs"]["knobs"][0]["measured"] = {{"ratio", 1.062},
                                                 {"ratio_low", 1.041},
                                                 {"ratio_high", 1.08},
                                                 {"speed_class", "faster"},
                                                 {"saved_ms", 0.0583}};
  doc["vendor_knobs"]["knobs"][1]["measured"] = {{"error", "the worker hung"}};
  text = report::format_show(doc);
  EXPECT_NE(
      text.find("  cudnn_benchmark  applies\n                   1.062x [1.041, 1.080] against "
                "the defaults (faster): saves 0.0583 ms a forward\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("no matrix product\n                   not measured: the worker hung\n"),
            std::string::npos);
  doc["vendor_knobs"]["knobs"][0]["measured"]["saved_ms"] = -0.01;
  EXPECT_NE(report::format_show(doc).find("(faster): costs 0.0100 ms"), std::string::npos);
  doc["vendor_knobs"] = {{"error", "p.py: hung"}};
  EXPECT_NE(report::format_show(doc).find("vendor knobs: not known (p.py: hung)"),
            std::string::npos);
}

// A segment says which floor holds: a full-float32 product's arithmetic where it is the larger
// (L1/7 on the H200), else two-pass where its group does not fit on chip, else nothing.
TEST(ShowText, SaysWhichFloorHolds) {
  nlohmann::json segment = {{"id", 0},
                            {"graph", 0},
                            {"launches", {0}},
                            {"time_ms", 3.386},
                            {"share", 1.0},
                            {"floor_ms", 2.054},
                            {"headroom", 1.65},
                            {"inputs", {"arg0_1"}},
                            {"outputs", {"buf0"}},
                            {"compute_floor_ms", 2.054}};
  nlohmann::json doc = show_doc("7_Matmul", 1.0);
  doc["segments"].push_back(segment);
  const auto says = [&](const char* words) {
    return report::format_show(doc).find(words) != std::string::npos;
  };
  EXPECT_TRUE(says("floor 2.0540 ms (compute: float32 products at the GPU's peak rate)"));
  doc["segments"][0]["compute_floor_ms"] = 1.0;  // under the memory floor: not the one that holds
  doc["segments"][0]["floor_passes"] = 2;
  EXPECT_FALSE(says("(compute:"));
  EXPECT_TRUE(says("floor 2.0540 ms (two-pass: the group does not fit on chip)"));
  doc["segments"][0].erase("floor_passes");
  EXPECT_TRUE(says("floor 2.0540 ms headroom 1.65x"));
}

}  // namespace
}  // namespace kernelopt
