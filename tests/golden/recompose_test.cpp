// Golden files for the segment edits of output code: probes and substitution. For each listed
// fixture, every segment is probed and every segment replaced by "segN.py"; the results are
// compared with tests/fixtures/recompose/NAME.{probed,recomposed}.py (KERNELOPT_UPDATE_GOLDEN=1
// rewrites them). Independent checks: the patched modules parse as Python, and everything outside
// the edited regions stays byte for byte.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/recompose/bindings.hpp"
#include "kernelopt/recompose/patch.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;

fs::path fixtures_dir() {
  return fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures";
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Patched {
  std::string source;
  std::string probed;
  std::string recomposed;
  std::vector<recompose::SegmentInterface> faces;
};

Patched patch(const std::string& fixture, bool dispatch_aware = true, bool split = false) {
  Patched p;
  p.source = read_file(fixtures_dir() / "output_code" / fixture);
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(p.source);
  analysis::AnalysisOptions options;
  options.dispatch_aware = dispatch_aware;
  options.split_launches = split;
  const auto map = analysis::build_dispatch_map({run}, options);
  std::vector<recompose::Replacement> replacements;
  for (const auto& segment : map.segments) {
    p.faces.push_back(recompose::segment_interface(run.code, map, segment));
    replacements.push_back({p.faces.back(), "seg" + std::to_string(segment.id) + ".py"});
  }
  p.probed = recompose::probe_segments(p.source, run.code, p.faces);
  p.recomposed = recompose::substitute_segments(p.source, run.code, replacements);
  return p;
}

void expect_golden(const fs::path& path, const std::string& actual) {
  const char* update = std::getenv("KERNELOPT_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing; KERNELOPT_UPDATE_GOLDEN=1 creates it";
  EXPECT_EQ(actual, read_file(path)) << path;
}

bool parses_as_python(const std::string& text) {
  const fs::path tmp =
      fs::temp_directory_path() / ("kernelopt_recompose_check_" + std::to_string(getpid()) + ".py");
  std::ofstream(tmp, std::ios::binary) << text;
  const std::string command =
      "python3 -c \"import ast,sys; ast.parse(open(sys.argv[1]).read())\" " + tmp.string();
  const int status = std::system(command.c_str());
  fs::remove(tmp);
  return status == 0;
}

std::vector<std::string> cases() {
  return {
      "a_runner_mixed.py",
      "b_def_call_grid.py",
      "c_conv_epilogue.py",
      "real/h200_level1_33_BatchNorm_graph_0.py",
      "real/h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py",
      "real/h200_level3_43_MinGPTCausalAttention_graph_0.py",
      "real/h200_level1_95_CrossEntropyLoss_graph_0.py",
  };
}

TEST(RecomposeGolden, ProbesAndSubstitutionMatchTheirGoldens) {
  for (const auto& name : cases()) {
    SCOPED_TRACE(name);
    const Patched p = patch(name);
    ASSERT_FALSE(p.faces.empty());
    const std::string stem = fs::path(name).stem().string();
    expect_golden(fixtures_dir() / "recompose" / (stem + ".probed.py"), p.probed);
    expect_golden(fixtures_dir() / "recompose" / (stem + ".recomposed.py"), p.recomposed);
    EXPECT_TRUE(parses_as_python(p.probed));
    EXPECT_TRUE(parses_as_python(p.recomposed));
  }
}

TEST(Recompose, EveryRealCaptureGetsAnInterfaceForEverySegment) {
  // Each segment of each output code captured on the H200 can be probed and replaced; with
  // --split-segments, each Triton launch too.
  int segments = 0;
  int launches = 0;
  for (const auto& entry : fs::directory_iterator(fixtures_dir() / "output_code" / "real")) {
    if (entry.path().extension() != ".py") continue;
    SCOPED_TRACE(entry.path().filename().string());
    const Patched p = patch("real/" + entry.path().filename().string());
    segments += static_cast<int>(p.faces.size());
    EXPECT_TRUE(parses_as_python(p.recomposed));
    const Patched split = patch("real/" + entry.path().filename().string(), true, true);
    launches += static_cast<int>(split.faces.size());
    EXPECT_TRUE(parses_as_python(split.recomposed));
    EXPECT_TRUE(parses_as_python(split.probed));
  }
  EXPECT_GT(segments, 20);
  EXPECT_GT(launches, segments);
}

TEST(Recompose, ScratchInputsAreThoseTheSegmentOverwritesAndNothingReadsLater) {
  // L2/85: the group norm is applied in place to the convolution's output buf2 (buf6 = buf2),
  // which only the pool after it reads: scratch of segment 1. Segment 0 writes only its outputs.
  const Patched p = patch("real/h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py");
  ASSERT_EQ(p.faces.size(), 2U);
  EXPECT_TRUE(p.faces[0].scratch.empty());
  EXPECT_EQ(p.faces[1].scratch, std::vector<std::string>{"buf2"});
  EXPECT_EQ(p.faces[1].inputs.count("buf2"), 1U);
  EXPECT_EQ(p.faces[1].outputs.count("buf2"), 0U);
  // L1/33: the batch norm's running statistics are graph inputs it updates: outputs, not scratch.
  for (const auto& face : patch("real/h200_level1_33_BatchNorm_graph_0.py").faces) {
    EXPECT_TRUE(face.scratch.empty());
  }
}

TEST(Recompose, ASegmentWhoseKernelsAddAtomicallyIsScheduleDependent) {
  // Inductor writes "atomic_add_found" into every kernel's metadata: only the call counts.
  std::string source = read_file(fixtures_dir() / "output_code" / "b_def_call_grid.py");
  for (const auto& face : patch("b_def_call_grid.py").faces) {
    EXPECT_FALSE(face.schedule_dependent);
  }
  const std::string store = "tl.store(out_ptr0 + (x0), tmp2, xmask)";
  const auto at = source.find(store);
  ASSERT_NE(at, std::string::npos);
  source.replace(at, store.size(), "tl.atomic_add(out_ptr0 + (x0), tmp2, xmask)");
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(source);
  const auto map = analysis::build_dispatch_map({run}, analysis::AnalysisOptions{});
  int dependent = 0;
  for (const auto& segment : map.segments) {
    bool has_sum = false;
    for (int index : segment.launches) {
      has_sum = has_sum || map.launches[index].name == "triton_red_fused_add_relu_sum_1";
    }
    const auto face = recompose::segment_interface(run.code, map, segment);
    EXPECT_EQ(face.schedule_dependent, has_sum) << "segment " << segment.id;
    dependent += face.schedule_dependent ? 1 : 0;
  }
  EXPECT_EQ(dependent, 1);
}

TEST(Recompose, AllocationInsideASegmentIsNotAnInput) {
  // CrossEntropyLoss: buf4 is allocated between the segment's second and third launch and
  // passed to the third as in_out_ptr (as buf8); it holds nothing from before the segment.
  const Patched p = patch("real/h200_level1_95_CrossEntropyLoss_graph_0.py");
  ASSERT_EQ(p.faces.size(), 1U);
  const auto& face = p.faces[0];
  EXPECT_EQ(face.inputs.count("buf4"), 0U);
  EXPECT_EQ(face.inputs.size(), 2U);  // the logits and the targets
  EXPECT_EQ(face.outputs.count("buf4"), 1U);
  EXPECT_EQ(face.outputs.at("buf4"), "buf8");  // its live name after the segment
}

TEST(Recompose, ProbesOnlyAddLines) {
  for (const auto& name : cases()) {
    SCOPED_TRACE(name);
    const Patched p = patch(name);
    std::istringstream lines(p.probed);
    std::string line;
    std::string restored;
    int probes = 0;
    while (std::getline(lines, line)) {
      if (line.find("_ko_probe(") != std::string::npos) {
        ++probes;
        continue;
      }
      restored += line + "\n";
    }
    int points = 0;  // one "in" probe per segment, one "out" probe per distinct final step
    for (const auto& face : p.faces) {
      std::set<int> steps;
      for (const auto& [root, step] : face.output_steps) {
        steps.insert(step);
      }
      points += 1 + static_cast<int>(steps.size());
    }
    EXPECT_EQ(probes, points);
    EXPECT_EQ(restored, p.source);
  }
}

TEST(Recompose, MixedGraphInterfacesUseLiveNames) {
  const Patched p = patch("a_runner_mixed.py");
  ASSERT_EQ(p.faces.size(), 2U);
  // The softmax + sum segment: buf1 lives on as buf4 (a reuse) and buf2 only as the view buf3.
  const auto& second = p.faces[1];
  EXPECT_EQ(second.inputs.at("buf1"), "buf4");
  EXPECT_EQ(second.inputs.at("arg2_1"), "arg2_1");
  EXPECT_EQ(second.outputs.at("buf1"), "buf4");
  EXPECT_EQ(second.outputs.at("buf2"), "buf3");
  // The launches are gone, the call is there, the extern mm and everything else stays.
  EXPECT_EQ(p.recomposed.find("triton_per_fused__softmax_1.run("), std::string::npos);
  EXPECT_EQ(p.recomposed.find("triton_red_fused_sum_2.run("), std::string::npos);
  EXPECT_NE(p.recomposed.find("_ko_segment_1({'arg2_1': arg2_1, 'buf1': buf4}, "
                              "{'buf1': buf4, 'buf2': buf3})"),
            std::string::npos);
  EXPECT_NE(p.recomposed.find("extern_kernels.mm(buf0, reinterpret_tensor(arg1_1"),
            std::string::npos);
  // The dels of the region come after the call, in their order.
  const auto call = p.recomposed.find("_ko_segment_1(");
  EXPECT_LT(call, p.recomposed.find("del buf2", call));
  EXPECT_LT(p.recomposed.find("del buf2", call), p.recomposed.find("del arg2_1", call));
  // The kernels' definitions stay (unused ones cost nothing) and the loader precedes Runner.
  EXPECT_LT(p.recomposed.find("_ko_segment_1 = _ko_candidate('seg1.py')"),
            p.recomposed.find("class Runner"));
}

// --no-dispatch-aware: the extern mm is a segment of its own between the two Triton segments; its
// line becomes the call of its candidate, with the transposed weight's root as an input and the
// preallocated out= buffer as the output; nothing else changes.
TEST(Recompose, ExternProductReplacedWhenNotDispatchAware) {
  const Patched p = patch("a_runner_mixed.py", false);
  ASSERT_EQ(p.faces.size(), 3U);
  const auto& mm = p.faces[1];
  EXPECT_EQ(mm.first_step, mm.last_step);
  EXPECT_EQ(mm.inputs,
            (std::map<std::string, std::string>{{"arg1_1", "arg1_1"}, {"buf0", "buf0"}}));
  EXPECT_EQ(mm.outputs, (std::map<std::string, std::string>{{"buf1", "buf1"}}));
  EXPECT_EQ(p.recomposed.find("extern_kernels.mm("), std::string::npos);
  EXPECT_NE(p.recomposed.find("_ko_segment_1({'arg1_1': arg1_1, 'buf0': buf0}, {'buf1': buf1})"),
            std::string::npos)
      << p.recomposed;
  // The other segments are the dispatch-aware ones, renumbered around it.
  const Patched aware = patch("a_runner_mixed.py");
  EXPECT_EQ(p.faces[2].inputs, aware.faces[1].inputs);
  EXPECT_EQ(p.faces[2].outputs, aware.faces[1].outputs);
  const fs::path tmp = fs::temp_directory_path() /
                       ("kernelopt_extern_recomposed_" + std::to_string(getpid()) + ".py");
  std::ofstream(tmp) << p.recomposed;
  const std::string command =
      "python3 -c \"import ast,sys; ast.parse(open(sys.argv[1]).read())\" " + tmp.string();
  EXPECT_EQ(std::system(command.c_str()), 0);
  fs::remove(tmp);
}

}  // namespace
}  // namespace kernelopt
