// The --problems SPEC parser and the problem-file discovery of `kernelopt bench`.
#include "kernelopt/engine/bench_spec.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/bench_progress.hpp"

namespace kernelopt::engine {
namespace {

namespace fs = std::filesystem;

std::vector<int> selected(const std::string& spec, int up_to = 12) {
  const ProblemSpec parsed = parse_problem_spec(spec);
  std::vector<int> out;
  for (int n = 1; n <= up_to; ++n) {
    if (parsed.selects(n)) out.push_back(n);
  }
  return out;
}

TEST(ProblemSpec, Words) {
  EXPECT_EQ(selected("odd"), (std::vector<int>{1, 3, 5, 7, 9, 11}));
  EXPECT_EQ(selected("even"), (std::vector<int>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(selected("all").size(), 12U);
  EXPECT_EQ(selected("odd,even").size(), 12U);
}

TEST(ProblemSpec, NumbersAndRanges) {
  EXPECT_EQ(selected("1-3,7"), (std::vector<int>{1, 2, 3, 7}));
  EXPECT_EQ(selected(" 5 , 2-2 "), (std::vector<int>{2, 5}));
  EXPECT_EQ(selected("even,1"), (std::vector<int>{1, 2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(selected("10-100"), (std::vector<int>{10, 11, 12}));
  const ProblemSpec spec = parse_problem_spec("1-20,33");
  EXPECT_TRUE(spec.selects(20));
  EXPECT_FALSE(spec.selects(21));
  EXPECT_TRUE(spec.selects(33));
}

// The message of the Error that parsing `spec` throws (with its tag and exit code checked).
std::string error_of(const std::string& spec) {
  try {
    parse_problem_spec(spec);
  } catch (const Error& error) {
    EXPECT_EQ(error.tag(), "kernelopt.usage");
    EXPECT_EQ(error.code(), ExitCode::kUsage);
    return error.what();
  }
  ADD_FAILURE() << "no error for '" << spec << "'";
  return "";
}

TEST(ProblemSpec, ClearErrors) {
  EXPECT_NE(error_of("").find("it is empty"), std::string::npos);
  EXPECT_NE(error_of("1,,2").find("an empty item"), std::string::npos);
  EXPECT_NE(error_of("odds").find("'odds' is not a problem number or range"), std::string::npos);
  EXPECT_NE(error_of("5-2").find("'5-2' ends before it starts"), std::string::npos);
  EXPECT_NE(error_of("0").find("problem numbers start at 1"), std::string::npos);
  EXPECT_NE(error_of("1-").find("'1-' is not a problem number"), std::string::npos);
  EXPECT_NE(error_of("-3").find("'-3' is not a problem number"), std::string::npos);
  EXPECT_NE(error_of("1.5").find("'1.5'"), std::string::npos);
  EXPECT_NE(error_of("99999999999").find("'99999999999'"), std::string::npos);
  EXPECT_NE(error_of("x").find("--problems 'x'"), std::string::npos);
}

TEST(ProblemNumber, LeadingDigits) {
  EXPECT_EQ(problem_number("19_ReLU"), 19);
  EXPECT_EQ(problem_number("ReLU"), -1);
  EXPECT_EQ(problem_number(""), -1);
}

class FindProblems : public testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("kernelopt-spec-test-" + std::to_string(getpid()));
    fs::remove_all(root_);
    for (const char* name :
         {"1_a.py", "2_b.py", "10_c.py", "3_d.txt", "x_e.py", "4.py", "03_f.py"}) {
      fs::create_directories(root_ / "KernelBench" / "level2");
      std::ofstream(root_ / "KernelBench" / "level2" / name) << "\n";
    }
  }

  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
};

TEST_F(FindProblems, SelectsNumberedPythonFilesInOrder) {
  const auto problems = find_problems(root_.string(), 2, parse_problem_spec("all"));
  ASSERT_EQ(problems.size(), 4U);
  EXPECT_EQ(problems[0].name, "1_a");
  EXPECT_EQ(problems[1].name, "2_b");
  EXPECT_EQ(problems[2].name, "03_f");
  EXPECT_EQ(problems[2].number, 3);
  EXPECT_EQ(problems[3].name, "10_c");
  EXPECT_EQ(problems[3].key(), "level2/10_c");
  EXPECT_EQ(problems[3].document_name(), "level2_10_c.json");
  EXPECT_EQ(find_problems(root_.string(), 2, parse_problem_spec("odd")).size(), 2U);
}

TEST_F(FindProblems, MissingLevelOrEmptySelectionIsAUsageError) {
  EXPECT_THROW(find_problems(root_.string(), 1, parse_problem_spec("all")), Error);
  EXPECT_THROW(find_problems(root_.string(), 2, parse_problem_spec("50-60")), Error);
}

// A quiet bench logs one line per problem; a problem whose search timed no candidate says that a
// search ran, and a baseline-only run's says none did.
TEST(BenchProgress, SaysWhetherASearchRan) {
  const nlohmann::json outcome = {{"class", "matched (synthesis failed)"}, {"measured", false}};
  nlohmann::json searched = {
      {"outcome", outcome}, {"cost", {{"wall_seconds", 2.0}}}, {"error", nullptr}};
  searched["search"] = "beam search over recipes (kernelopt optimize, offline)";
  nlohmann::json plain = searched;
  plain.erase("search");
  testing::internal::CaptureStderr();
  {
    BenchProgress progress(2, 0, true);
    progress.started();
    progress.finished("level2/1_a", searched);
    progress.started();
    progress.finished("level1/3_b", plain);
  }
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("[1/2] level2/1_a: matched (synthesis failed) (searched: no candidate "
                     "reached the timing gate) (2.0 s)"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("[2/2] level1/3_b: matched (synthesis failed) (baseline only: no search "
                     "ran) (2.0 s)"),
            std::string::npos)
      << log;
}

}  // namespace
}  // namespace kernelopt::engine
