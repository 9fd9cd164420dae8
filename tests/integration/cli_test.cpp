// The CLI end to end, without a GPU: every kind of bad problem file gives a one-line error naming
// the file and the cause and a non-zero exit, and the engine itself never crashes. These run the
// real binary and the real Python worker (torch on the CPU).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_binary.hpp"

namespace {

using kernelopt::testing_support::Result;

Result run(const std::string& args) {
  return kernelopt::testing_support::kernelopt(args);
}

std::string problem(const std::string& name) {
  return std::string(KERNELOPT_SOURCE_DIR) + "/tests/fixtures/problems/" + name;
}

int count_lines(const std::string& text) {
  int lines = 0;
  for (char c : text) {
    lines += c == '\n' ? 1 : 0;
  }
  return lines;
}

bool has_gpu() {
  return std::system("nvidia-smi -L >/dev/null 2>&1") == 0;
}

struct BadCase {
  const char* file;
  const char* cause;  // must appear in the one error line
  const char* tag;
};

class BadProblem : public testing::TestWithParam<BadCase> {};

TEST_P(BadProblem, OneLineErrorNamingFileAndCause) {
  const BadCase& c = GetParam();
  const Result r = run("check --device cpu --timeout 20 " + problem(c.file));
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_EQ(count_lines(r.output), 1) << r.output;
  EXPECT_NE(r.output.find(std::string("kernelopt: error: [") + c.tag + "]"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(problem(c.file)), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(c.cause), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cli,
    BadProblem,
    testing::Values(
        BadCase{"syntax_error.py", "syntax error at line 4", "kernelopt.problem"},
        BadCase{"no_model.py", "defines no `Model` class", "kernelopt.problem"},
        BadCase{"no_get_inputs.py", "defines no `get_inputs()`", "kernelopt.problem"},
        BadCase{"returns_no_tensor.py", "forward returns no tensor (got float)",
                "kernelopt.problem"},
        BadCase{"raises.py", "forward() raised ValueError: shape mismatch", "kernelopt.problem"},
        BadCase{"out_of_memory.py", "needs more memory than the device has", "kernelopt.problem"},
        BadCase{"kills_process.py",
                "worker process died during `load` (killed by "
                "signal 9)",
                "kernelopt.crash"},
        BadCase{"hangs.py", "hung: no answer to `load` within 20 s", "kernelopt.timeout"},
        BadCase{"missing.py", "no such file", "kernelopt.problem"}),
    [](const testing::TestParamInfo<BadCase>& param) {
      std::string name = param.param.file;
      return name.substr(0, name.find('.'));
    });

TEST(Cli, GoodProblemChecksOnCpu) {
  const Result r = run("check --device cpu " + problem("good_small.py"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("ok on cpu"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("outputs: float32 [16,64]"), std::string::npos) << r.output;
}

TEST(Cli, ShowWithoutGpuSaysSoInOneLine) {
  if (has_gpu()) GTEST_SKIP() << "this machine has a GPU";
  const Result r = run("show " + problem("good_small.py"));
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_EQ(count_lines(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("needs an NVIDIA GPU"), std::string::npos) << r.output;
}

TEST(Cli, OptimizeWithoutGpuSaysSoInOneLineAndWritesNoModule) {
  if (has_gpu()) GTEST_SKIP() << "this machine has a GPU";
  const std::string dir = testing::TempDir() + "kernelopt_optimize_cpu";
  const Result r = run("optimize " + problem("good_small.py") + " -o " + dir);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_EQ(count_lines(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("needs an NVIDIA GPU"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/optimized"));
  const Result missing = run("optimize " + problem("no_such_problem.py") + " -o " + dir);
  EXPECT_EQ(missing.code, 3) << missing.output;
  EXPECT_NE(missing.output.find("no_such_problem.py: no such file"), std::string::npos)
      << missing.output;
}

TEST(Cli, DoctorWithoutGpuSaysWhatIsMissing) {
  if (has_gpu()) GTEST_SKIP() << "this machine has a GPU";
  const Result r = run("doctor");
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("torch:       2.11.0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("triton:      3.6.0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gpu:         none visible to torch"), std::string::npos) << r.output;
  const auto real = [](const std::string& path) {
    return std::filesystem::canonical(path).string();
  };
  EXPECT_NE(r.output.find("engine:      " + real(KERNELOPT_BINARY)), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("package:     " + real(std::string(KERNELOPT_SOURCE_DIR) + "/python")),
            std::string::npos)
      << r.output;
}

TEST(Cli, UsageErrorsExitNonZero) {
  EXPECT_NE(run("").code, 0);
  EXPECT_NE(run("show").code, 0);
  EXPECT_NE(run("check --device tpu " + problem("good_small.py")).code, 0);
  const Result table = run("table " + problem("good_small.py"));
  EXPECT_EQ(table.code, 2) << table.output;
  EXPECT_NE(table.output.find("not a show document"), std::string::npos) << table.output;
}

// `match` reads captured output code offline: on the L2/85 capture it finds the fuse and names
// the producer, the consumer and the buffer; a file that is not output code is a one-line error
// with exit 2, and no JSON is left behind.
TEST(Cli, MatchListsTheStrategiesOfACapturedGraphOffline) {
  const std::string capture = std::string(KERNELOPT_SOURCE_DIR) +
                              "/tests/fixtures/output_code/real/"
                              "h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py";
  const auto dir =
      std::filesystem::temp_directory_path() / ("kernelopt_cli_match_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const Result r = run("match " + capture + " --json " + (dir / "match.json").string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("6 launches (5 Triton), 2 segments"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fuse: triton_poi_fused_convolution_mul_native_group_norm_3 inlined into "
                          "triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_"
                          "group_norm_4 at 16 loads of buf2"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("config: Inductor's 2 kernels of the segment relaunched"),
            std::string::npos)
      << r.output;  // the layout conversions before the convolution, as one segment
  EXPECT_TRUE(std::filesystem::exists(dir / "match.json"));
  const Result bad =
      run("match " + problem("good_small.py") + " --json " + (dir / "bad.json").string());
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_EQ(count_lines(bad.output), 1) << bad.output;
  EXPECT_NE(bad.output.find("not Inductor output code"), std::string::npos) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.json"));
  // A run folder as show -o keeps it: its graphs/graph_0.py, not the instrumented copy.
  std::filesystem::create_directories(dir / "run" / "graphs");
  std::filesystem::copy_file(capture, dir / "run" / "graphs" / "graph_0.py");
  std::filesystem::copy_file(capture, dir / "run" / "graphs" / "graph_0.timed.py");
  const Result folder = run("match " + (dir / "run").string());
  EXPECT_EQ(folder.code, 0) << folder.output;
  EXPECT_NE(folder.output.find("graphs/graph_0.py: 6 launches"), std::string::npos)
      << folder.output;
  EXPECT_EQ(folder.output.find("timed"), std::string::npos) << folder.output;
  std::filesystem::create_directories(dir / "empty");
  const Result empty = run("match " + (dir / "empty").string());
  EXPECT_EQ(empty.code, 2) << empty.output;
  EXPECT_NE(empty.output.find("no graph_N.py under this folder"), std::string::npos)
      << empty.output;
  std::filesystem::remove_all(dir);
}

// `match --write` leaves, beside the list, the first candidate file of each strategy, named by
// graph, segment and strategy: Python that defines run(inputs, outputs), as verify --candidate
// takes it. A bad file among the inputs leaves no candidate behind.
TEST(Cli, MatchWritesEachStrategysFirstCandidate) {
  const std::string capture = std::string(KERNELOPT_SOURCE_DIR) +
                              "/tests/fixtures/output_code/real/"
                              "h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py";
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kernelopt_cli_match_write_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const Result r = run("match " + capture + " --write " + (dir / "cands").string() + " --json " +
                       (dir / "match.json").string());
  EXPECT_EQ(r.code, 0) << r.output;
  const std::string stem = "h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0";
  for (const char* name : {"_seg0_config.py", "_seg1_config.py", "_seg1_fuse.py"}) {
    const auto path = dir / "cands" / (stem + name);
    ASSERT_TRUE(std::filesystem::exists(path)) << path << "\n" << r.output;
    const Result parsed = kernelopt::testing_support::shell(
        "python3 -c \"import ast,sys; t=open(sys.argv[1]).read(); "
        "ast.parse(t); assert 'def run(inputs, outputs):' in t\" " +
        path.string());
    EXPECT_EQ(parsed.code, 0) << path << parsed.output;
  }
  EXPECT_NE(r.output.find("first candidate: "), std::string::npos) << r.output;
  std::ifstream in(dir / "match.json");
  const auto doc = nlohmann::json::parse(in);
  const auto& fuse = doc.at("files").at(0).at("segments").at(1).at("fuse");
  EXPECT_NE(fuse.at("candidate").get<std::string>().find(stem + "_seg1_fuse.py"),
            std::string::npos);
  EXPECT_TRUE(fuse.at("settings").is_object());
  const Result bad = run("match " + capture + " " + problem("good_small.py") + " --write " +
                         (dir / "none").string());
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "none"));
  std::filesystem::remove_all(dir);
}

}  // namespace
