// The dispatch map on a hand-made output code: launches, segments, bytes, floors, classes; and
// the launch instrumentation.
#include "kernelopt/analysis/dispatch.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "kernelopt/analysis/segments.hpp"
#include "kernelopt/inductor/graph_fragment.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/recompose/instrument.hpp"

namespace kernelopt {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(KERNELOPT_SOURCE_DIR) + "/tests/fixtures/output_code/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

analysis::GraphRun mixed_graph(std::vector<double> times) {
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(fixture("a_runner_mixed.py"));
  run.args = {analysis::TensorInfo{{32, 1024}, {1024, 1}, "float32"},
              analysis::TensorInfo{{1024, 1024}, {1024, 1}, "float32"},
              analysis::TensorInfo{{32, 8192}, {8192, 1}, "float32"}};
  run.launch_ms = std::move(times);
  return run;
}

TEST(StorageBytes, ContiguousStridedAndUnknown) {
  EXPECT_EQ(analysis::storage_bytes({"32", "1024"}, {"1024", "1"}, "torch.float32"), 32 * 1024 * 4);
  // A transposed view spans the same storage.
  EXPECT_EQ(analysis::storage_bytes({"1024", "32"}, {"1", "1024"}, "float32"), 32 * 1024 * 4);
  // Padding between rows counts: the last row ends at 3*100 + 10.
  EXPECT_EQ(analysis::storage_bytes({"4", "10"}, {"100", "1"}, "bfloat16"), (3 * 100 + 10) * 2);
  EXPECT_EQ(analysis::storage_bytes({"s0", "4"}, {"4", "1"}, "float32"), std::nullopt);
  EXPECT_EQ(analysis::storage_bytes({"4"}, {"1"}, "mystery"), std::nullopt);
  EXPECT_EQ(analysis::storage_bytes({"0", "4"}, {"4", "1"}, "float32"), 0);
}

TEST(DispatchMap, LaunchesSegmentsAndFloors) {
  // Launch order: relu (triton), mm (extern), softmax (triton), sum (triton).
  const auto map =
      analysis::build_dispatch_map({mixed_graph({0.1, 0.5, 0.2, 0.2})}, {.bandwidth_gbps = 1000});
  ASSERT_EQ(map.launches.size(), 4U);
  EXPECT_EQ(map.launches[1].kind, analysis::LaunchKind::kExtern);
  EXPECT_EQ(map.launches[1].name, "mm");
  EXPECT_FALSE(map.launches[1].floor_ms.has_value());
  EXPECT_DOUBLE_EQ(map.total_ms, 1.0);
  EXPECT_DOUBLE_EQ(map.triton_share, 0.5);
  EXPECT_EQ(map.problem_class, analysis::ProblemClass::kOptimizable);

  // relu reads arg0_1 and writes buf0: 2 x 128 KiB at 1000 GB/s.
  const auto& relu = map.launches[0];
  EXPECT_EQ(relu.bytes, 2 * 32 * 1024 * 4);
  ASSERT_TRUE(relu.floor_ms.has_value());
  EXPECT_NEAR(*relu.floor_ms, 2 * 32 * 1024 * 4 / 1e12 * 1e3, 1e-12);
  EXPECT_NEAR(*relu.headroom, 0.1 / *relu.floor_ms, 1e-9);

  // The extern mm splits the Triton launches into two segments.
  ASSERT_EQ(map.segments.size(), 2U);
  EXPECT_EQ(map.segments[0].launches, std::vector<int>({0}));
  EXPECT_EQ(map.segments[0].inputs, std::vector<std::string>({"arg0_1"}));
  EXPECT_EQ(map.segments[0].outputs, std::vector<std::string>({"buf0"}));
  // softmax works in place on buf1 (reused as buf4); sum writes buf2 (viewed as buf3).
  const auto& second = map.segments[1];
  EXPECT_EQ(second.launches, std::vector<int>({2, 3}));
  EXPECT_EQ(second.inputs, std::vector<std::string>({"buf1", "arg2_1"}));
  EXPECT_EQ(second.outputs, std::vector<std::string>({"buf1", "buf2"}));
  EXPECT_NEAR(second.time_ms, 0.4, 1e-12);
  EXPECT_EQ(second.bytes, (32 * 1024 + 32 * 8192 + 32 * 1024 + 32) * 4);
}

// The kernels a traced call named go to the vendor calls they ran in, and into the document; a
// Triton launch's name is its kernel's already.
TEST(DispatchMap, VendorCallsCarryTheKernelsTheyRan) {
  analysis::GraphRun run = mixed_graph({0.1, 0.5, 0.2, 0.2});
  run.launch_kernels = {{{"triton_poi_relu", 0.1}},
                        {{"sm90_xmma_gemm_f32f32", 0.45}, {"splitKreduce_kernel", 0.05}},
                        {},
                        {{"triton_red_sum", 0.2}}};
  const auto map = analysis::build_dispatch_map({run}, {});
  ASSERT_EQ(map.launches[1].kernels.size(), 2U);
  EXPECT_EQ(map.launches[1].kernels[1].name, "splitKreduce_kernel");
  EXPECT_TRUE(map.launches[0].kernels.empty());
  EXPECT_TRUE(map.launches[3].kernels.empty());
  const nlohmann::json doc = analysis::to_json(map);
  EXPECT_EQ(doc["launches"][1]["kernels"][0],
            (nlohmann::json{{"name", "sm90_xmma_gemm_f32f32"}, {"ms", 0.45}}));
  EXPECT_FALSE(doc["launches"][0].contains("kernels"));

  run.launch_kernels.resize(1);  // fewer traced launches than launches: the rest name none
  EXPECT_TRUE(analysis::build_dispatch_map({run}, {}).launches[1].kernels.empty());
}

TEST(DispatchMap, Classes) {
  const auto vendor = analysis::build_dispatch_map({mixed_graph({0.01, 5.0, 0.01, 0.01})}, {});
  EXPECT_EQ(vendor.problem_class, analysis::ProblemClass::kVendorDominated);
  EXPECT_FALSE(vendor.launches[0].floor_ms.has_value());  // no bandwidth: no floors

  analysis::GraphRun extern_only;
  extern_only.code = inductor::parse_output_code(fixture("f_extern_only.py"));
  extern_only.launch_ms = {1.0};
  const auto none = analysis::build_dispatch_map({extern_only}, {});
  EXPECT_EQ(none.problem_class, analysis::ProblemClass::kNoTriton);
  EXPECT_TRUE(none.segments.empty());
}

// GPU time outside the compiled graphs (eager code between graph breaks: KernelBench's L3/35
// LSTM, H200: 0.031 ms of graphs in a 23.2 ms model) counts in every share as time
// kernelopt cannot replace, so such a model is not searched for its graphs' few microseconds.
TEST(DispatchMap, TimeOutsideTheGraphsCountsInEveryShare) {
  EXPECT_NEAR(analysis::outside_graphs_ms(0.031, 23.233), 23.202, 1e-9);
  EXPECT_EQ(analysis::outside_graphs_ms(13.699, 13.925), 0.0);  // fully compiled: host gaps
  EXPECT_EQ(analysis::outside_graphs_ms(1.4, 1.47), 0.0);
  EXPECT_EQ(analysis::outside_graphs_ms(0.0, 23.2), 0.0);  // unknown times
  EXPECT_EQ(analysis::outside_graphs_ms(0.03, 0.0), 0.0);

  const auto inside = analysis::build_dispatch_map({mixed_graph({0.1, 0.5, 0.2, 0.2})}, {});
  EXPECT_EQ(inside.problem_class, analysis::ProblemClass::kOptimizable);
  const auto outside =
      analysis::build_dispatch_map({mixed_graph({0.1, 0.5, 0.2, 0.2})}, {.outside_ms = 9.0});
  EXPECT_DOUBLE_EQ(outside.total_ms, 1.0);  // the launches' own sum
  EXPECT_DOUBLE_EQ(outside.whole_ms(), 10.0);
  EXPECT_DOUBLE_EQ(outside.triton_share, 0.05);
  EXPECT_DOUBLE_EQ(outside.launches[0].share, 0.01);
  ASSERT_EQ(outside.segments.size(), 2U);
  EXPECT_NEAR(outside.segments[1].share, 0.04, 1e-12);
  EXPECT_EQ(outside.problem_class, analysis::ProblemClass::kVendorDominated);
  EXPECT_DOUBLE_EQ(analysis::to_json(outside).at("outside_graphs_ms").get<double>(), 9.0);
}

// G4's ratio over the graphs as the whole model's: 1.5x on 1 ms of graphs beside 9 ms that do
// not change is 10 / (9 + 1 / 1.5).
TEST(WholeModelRatio, TheTimeOutsideTheGraphsStaysTheSame) {
  EXPECT_NEAR(analysis::whole_model_ratio(1.5, 1.0, 9.0), 10.0 / (9.0 + 1.0 / 1.5), 1e-12);
  EXPECT_NEAR(analysis::whole_model_ratio(0.8, 1.0, 9.0), 10.0 / (9.0 + 1.25), 1e-12);
  EXPECT_DOUBLE_EQ(analysis::whole_model_ratio(1.5, 1.0, 0.0), 1.5);
  EXPECT_DOUBLE_EQ(analysis::whole_model_ratio(1.0, 1.0, 9.0), 1.0);
}

// --no-dispatch-aware: the extern mm becomes replaceable, a segment of its own with no memory
// floor (a product is bound by its arithmetic), and the class counts its time as replaceable.
TEST(DispatchMap, NotDispatchAwareMakesExternProductsReplaceable) {
  analysis::AnalysisOptions options;
  options.bandwidth_gbps = 1000;
  options.dispatch_aware = false;
  const auto map = analysis::build_dispatch_map({mixed_graph({0.01, 5.0, 0.01, 0.01})}, options);
  ASSERT_EQ(map.segments.size(), 3U);
  EXPECT_TRUE(map.launches[1].replaceable);
  EXPECT_EQ(map.segments[1].launches, std::vector<int>({1}));
  EXPECT_TRUE(map.segments[1].extern_call);
  EXPECT_FALSE(map.segments[1].floor_ms.has_value());
  EXPECT_EQ(map.segments[1].inputs, std::vector<std::string>({"buf0", "arg1_1"}));
  EXPECT_EQ(map.segments[1].outputs, std::vector<std::string>({"buf1"}));
  EXPECT_EQ(map.segments[2].launches, std::vector<int>({2, 3}));
  EXPECT_TRUE(map.segments[2].floor_ms.has_value());
  // Vendor-dominated when dispatch-aware (Triton is 0.6% of the time); not here.
  EXPECT_EQ(map.problem_class, analysis::ProblemClass::kOptimizable);
  EXPECT_EQ(analysis::to_json(map).at("dispatch_aware"), false);
  EXPECT_FALSE(
      analysis::to_json(analysis::build_dispatch_map({mixed_graph({0.01, 5.0, 0.01, 0.01})}, {}))
          .contains("dispatch_aware"));

  // A graph of an extern mm and addmm: no Triton kernel, unless the ablation makes them
  // replaceable: two segments, one per call.
  analysis::GraphRun extern_only;
  extern_only.code = inductor::parse_output_code(fixture("f_extern_only.py"));
  extern_only.launch_ms = {1.0, 1.0};
  const auto only = analysis::build_dispatch_map({extern_only}, options);
  EXPECT_EQ(only.problem_class, analysis::ProblemClass::kOptimizable);
  ASSERT_EQ(only.segments.size(), 2U);
  EXPECT_TRUE(only.segments[0].extern_call);
  EXPECT_EQ(only.segments[1].inputs, std::vector<std::string>({"arg2_1", "buf0", "arg3_1"}));
}

analysis::DispatchMap real_map(const std::string& name,
                               const analysis::AnalysisOptions& options = {}) {
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(fixture("real/" + name));
  return analysis::build_dispatch_map({run}, options);
}

// --split-segments: every Triton launch is a segment of its own. On the real L2/85 capture
// (GroupNorm's statistics and normalization after a convolution, then a max pool) the multi-launch
// segments break into their launches, in order; a buffer one launch writes and the next reads is
// the first's output and the second's input.
TEST(DispatchMap, SplitSegmentsGiveEachTritonLaunchItsOwn) {
  const auto whole = real_map("h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py");
  analysis::AnalysisOptions options;
  options.split_launches = true;
  const auto split =
      real_map("h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py", options);
  std::vector<int> launches;
  for (const auto& s : whole.segments) {
    launches.insert(launches.end(), s.launches.begin(), s.launches.end());
  }
  ASSERT_GT(launches.size(), whole.segments.size());  // some segment has several launches
  ASSERT_EQ(split.segments.size(), launches.size());
  for (std::size_t i = 0; i < split.segments.size(); ++i) {
    EXPECT_EQ(split.segments[i].launches, std::vector<int>({launches[i]}));
    EXPECT_EQ(split.segments[i].id, static_cast<int>(i));
  }
  bool chained = false;
  for (std::size_t i = 0; i + 1 < split.segments.size(); ++i) {
    for (const auto& out : split.segments[i].outputs) {
      const auto& next = split.segments[i + 1].inputs;
      chained = chained || std::find(next.begin(), next.end(), out) != next.end();
    }
  }
  EXPECT_TRUE(chained);
  EXPECT_EQ(analysis::to_json(split).at("split_launches"), true);
  EXPECT_FALSE(analysis::to_json(whole).contains("split_launches"));
}

std::optional<std::int64_t> reread(const std::string& name) {
  const auto map = real_map(name);
  std::optional<std::int64_t> total;
  for (const auto& segment : map.segments) {
    if (segment.reread_bytes) total = total.value_or(0) + *segment.reread_bytes;
  }
  return total;
}

// The two-pass floor on real H200 captures: a norm or softmax whose reduction group does not fit
// on chip reads its input twice (GroupNorm's 8 MiB groups, BatchNorm's channels, a 1.5 MiB softmax
// row, the Frobenius norm of the whole tensor); an L2 norm over 65535 floats (just under 256 KiB)
// could stay on chip, and reductions whose result is not combined with their input again
// (argmax, a sum over a dimension, a scan) never need a second read.
TEST(DispatchMap, TwoPassFloorWhereTheGroupDoesNotFitOnChip) {
  EXPECT_EQ(reread("h200_level1_35_GroupNorm__graph_0.py"), 112LL * 64 * 512 * 512 * 4);
  EXPECT_EQ(reread("h200_level1_23_Softmax_graph_0.py"), 4096LL * 393216 * 4);
  EXPECT_EQ(reread("h200_level1_33_BatchNorm_graph_0.py"), 64LL * 64 * 512 * 512 * 4);
  EXPECT_EQ(reread("h200_level1_37_FrobeniusNorm__graph_0.py"), 112LL * 64 * 512 * 512 * 4);
  for (const char* name :
       {"h200_level1_39_L2Norm__graph_0.py", "h200_level1_51_Argmax_over_a_dimension_graph_0.py",
        "h200_level1_47_Sum_reduction_over_a_dimension_graph_0.py",
        "h200_level1_95_CrossEntropyLoss_graph_0.py", "h200_level1_89_cumsum_graph_0.py",
        "h200_level1_19_ReLU_graph_0.py"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(reread(name), std::nullopt);
  }
  // The same L2 norm with a smaller on-chip budget needs the second read.
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(fixture("real/h200_level1_39_L2Norm__graph_0.py"));
  std::vector<inductor::GraphFragment> fragments;
  for (const auto& kernel : run.code.kernels) {
    fragments.push_back(inductor::parse_graph_fragment(kernel.graph_fragment));
  }
  EXPECT_EQ(analysis::reread_bytes(fragments, std::int64_t{64} * 1024), 32768LL * 65535 * 4);
  // The floor counts the second read, and the JSON says it is a two-pass floor.
  analysis::GraphRun softmax;
  softmax.code = inductor::parse_output_code(fixture("real/h200_level1_23_Softmax_graph_0.py"));
  softmax.args = {analysis::TensorInfo{{4096, 393216}, {393216, 1}, "float32"}};
  softmax.launch_ms = {10.0};
  const auto map = analysis::build_dispatch_map({softmax}, {.bandwidth_gbps = 1000});
  ASSERT_EQ(map.segments.size(), 1U);
  const double one_pass = 2.0 * 4096 * 393216 * 4 / 1e12 * 1e3;
  EXPECT_NEAR(*map.segments[0].floor_ms, 1.5 * one_pass, 1e-9);
  EXPECT_EQ(analysis::to_json(map).at("segments")[0].at("floor_passes"), 2);
}

// Replaces every occurrence of `from` in `text`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
  return text;
}

analysis::GraphRun template_mm(const std::string& text) {
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(text);
  run.args = {analysis::TensorInfo{{512, 256}, {256, 1}, "float32"},
              analysis::TensorInfo{{256, 1024}, {1024, 1}, "float32"}};
  run.launch_ms = {0.01, 0.004};  // the mm template, then a GELU
  return run;
}

TEST(DispatchMap, ComputeFloorOfAFullFloat32Product) {
  const std::string text = fixture("e_template_mm.py");
  // 512 x 1024 outputs of 256 multiply-adds: 2.7e8 operations, at 50 TFLOP/s 5.4 us; the bytes
  // (both factors read, the product written) take 3.7 us at 1000 GB/s.
  const analysis::AnalysisOptions options{.bandwidth_gbps = 1000, .fp32_gflops = 50000};
  const double flops = 2.0 * 512 * 1024 * 256;
  const double compute_ms = flops / 50000e9 * 1e3;
  const double memory_ms = (512.0 * 256 + 256.0 * 1024 + 512.0 * 1024) * 4 / 1e12 * 1e3;
  const auto map = analysis::build_dispatch_map({template_mm(text)}, options);
  ASSERT_EQ(map.launches.size(), 2U);
  const auto& mm = map.launches[0];
  ASSERT_TRUE(mm.compute_floor_ms.has_value());
  EXPECT_NEAR(*mm.compute_floor_ms, compute_ms, 1e-12);
  EXPECT_NEAR(*mm.floor_ms, compute_ms, 1e-12);  // the larger of the two
  EXPECT_NEAR(*mm.headroom, 0.01 / compute_ms, 1e-9);
  EXPECT_FALSE(map.launches[1].compute_floor_ms.has_value());  // the GELU
  EXPECT_NEAR(*map.launches[1].floor_ms, 2.0 * 512 * 1024 * 4 / 1e12 * 1e3, 1e-12);
  // The segment of both launches: its memory floor is the mm's (the GELU's reads and writes are
  // the product's, on chip), its compute floor the mm's; the JSON states both.
  ASSERT_EQ(map.segments.size(), 1U);
  EXPECT_NEAR(*map.segments[0].compute_floor_ms, compute_ms, 1e-12);
  EXPECT_NEAR(*map.segments[0].floor_ms, compute_ms, 1e-12);
  EXPECT_NEAR(*map.segments[0].headroom, 0.014 / compute_ms, 1e-9);
  const auto json = analysis::to_json(map);
  EXPECT_NEAR(json.at("segments")[0].at("compute_floor_ms").get<double>(), compute_ms, 1e-12);
  EXPECT_FALSE(json.at("launches")[1].contains("compute_floor_ms"));

  // A slow GPU's memory floor stays where it is the larger.
  const auto slow_memory = analysis::build_dispatch_map(
      {template_mm(text)}, {.bandwidth_gbps = 100, .fp32_gflops = 50000});
  EXPECT_NEAR(*slow_memory.launches[0].floor_ms, memory_ms * 10, 1e-12);
  EXPECT_NEAR(*slow_memory.segments[0].floor_ms, memory_ms * 10, 1e-12);

  // No compute floor without the GPU's rate, with TF32 allowed, or for half-precision products
  // (the tensor cores' rates are not the CUDA cores').
  for (const auto& [label, code, gflops] :
       {std::tuple{"no rate", text, 0.0},
        std::tuple{
            "tf32",
            replaced(replaced(text, "'ALLOW_TF32': False", "'ALLOW_TF32': True"),
                     "ALLOW_TF32 : tl.constexpr = False", "ALLOW_TF32 : tl.constexpr = True"),
            50000.0},
        std::tuple{"bf16", replaced(text, "Tensor \"f32[", "Tensor \"bf16["), 50000.0}}) {
    SCOPED_TRACE(label);
    const auto other = analysis::build_dispatch_map(
        {template_mm(code)}, {.bandwidth_gbps = 1000, .fp32_gflops = gflops});
    EXPECT_FALSE(other.launches[0].compute_floor_ms.has_value());
    EXPECT_FALSE(other.segments[0].compute_floor_ms.has_value());
    EXPECT_NEAR(*other.launches[0].floor_ms, memory_ms, 1e-12);
  }
}

TEST(DispatchMap, ProductFlopsOnARealCapture) {
  // L3/47 NetVlad on the H200: its first template is mm(view(x, [-1, 512]), clusters) of
  // [204800, 512] by [512, 32]; a later template's bmm multiplies expands the fragment does not
  // describe, so it gets no compute floor rather than a guessed one.
  const auto code =
      inductor::parse_output_code(fixture("real/h200_level3_47_NetVladNoGhostClusters_graph_0.py"));
  const inductor::TritonKernel* mm = code.kernel("triton_tem_fused_mm_view_0");
  const inductor::TritonKernel* bmm =
      code.kernel("triton_tem_fused__softmax_bmm_exp_sub_transpose_view_5");
  ASSERT_NE(mm, nullptr);
  ASSERT_NE(bmm, nullptr);
  EXPECT_DOUBLE_EQ(analysis::full_fp32_product_flops(*mm).value_or(0), 2.0 * 204800 * 32 * 512);
  EXPECT_EQ(analysis::full_fp32_product_flops(*bmm), std::nullopt);
  for (const auto& kernel : code.kernels) {
    if (kernel.name.rfind("triton_tem", 0) == 0) continue;
    SCOPED_TRACE(kernel.name);
    EXPECT_EQ(analysis::full_fp32_product_flops(kernel), std::nullopt);
  }
}

TEST(DispatchMap, UntimedGraphWithTritonLaunchesIsOptimizable) {
  // verify builds its map without launch times: no share is known, so Triton launches decide.
  analysis::GraphRun untimed;
  untimed.code = inductor::parse_output_code(fixture("a_runner_mixed.py"));
  const auto map = analysis::build_dispatch_map({untimed}, {});
  EXPECT_DOUBLE_EQ(map.total_ms, 0.0);
  EXPECT_EQ(map.problem_class, analysis::ProblemClass::kOptimizable);
}

TEST(Instrument, MarksBeforeFirstAndAfterEveryLaunch) {
  const std::string text = fixture("a_runner_mixed.py");
  const auto code = inductor::parse_output_code(text);
  const auto timed = recompose::instrument_launches(text, code);
  EXPECT_EQ(timed.launches, 4);
  EXPECT_EQ(timed.marks, 5);
  // Removing the inserted lines gives back the original byte for byte.
  std::istringstream lines(timed.text);
  std::string line;
  std::string restored;
  int marks = 0;
  while (std::getline(lines, line)) {
    if (line == "            _ko_mark()") {
      ++marks;
      continue;
    }
    restored += line + "\n";
  }
  EXPECT_EQ(marks, 5);
  EXPECT_EQ(restored, text);
  // The first mark precedes the first launch; each launch is followed by a mark.
  const auto first = timed.text.find("_ko_mark()");
  EXPECT_LT(first, timed.text.find("triton_poi_fused_relu_0.run("));
  EXPECT_NE(timed.text.find("out=buf1)\n            _ko_mark()\n"), std::string::npos);
}

}  // namespace
}  // namespace kernelopt
