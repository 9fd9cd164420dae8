// `kernelopt bench` and `kernelopt report` end to end with the real binary. Without a GPU, bench
// must still load and validate every problem of a small KernelBench-shaped folder and record each
// as failed with its reason; report must render Table 1 from a stored run built from the show
// documents measured on the H200 (results/show/), and headless Chromium must draw report.html.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kernelopt/engine/bench_document.hpp"
#include "kernelopt/engine/bench_spec.hpp"
#include "kernelopt/store/store.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = KERNELOPT_SOURCE_DIR;

struct Result {
  int code = -1;
  std::string output;  // stdout and stderr together
};

Result shell(const std::string& command) {
  Result result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) {
    result.output += buffer.data();
  }
  const int status = pclose(pipe);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

Result kernelopt(const std::string& args) {
  return shell(std::string(KERNELOPT_BINARY) + " " + args);
}

std::string last_line(const std::string& text) {
  const std::size_t end = text.find_last_not_of('\n');
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - start);
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json read_json(const fs::path& path) {
  return nlohmann::json::parse(read(path));
}

bool has_gpu() {
  return std::system("nvidia-smi -L >/dev/null 2>&1") == 0;
}

// A fresh temporary folder per test, removed at its end.
class BenchTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("kernelopt-bench-test-" + std::to_string(getpid()) + "-" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }

  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
};

// levelN/1_good_small.py, 2_syntax_error.py, 3_layernorm_gelu_residual.py.
fs::path make_kernelbench(const fs::path& root) {
  const fs::path level = root / "KernelBench" / "level1";
  fs::create_directories(level);
  fs::copy_file(kSource / "tests/fixtures/problems/good_small.py", level / "1_good_small.py");
  fs::copy_file(kSource / "tests/fixtures/problems/syntax_error.py", level / "2_syntax_error.py");
  fs::copy_file(kSource / "examples/layernorm_gelu_residual.py",
                level / "3_layernorm_gelu_residual.py");
  std::ofstream(level / "README.md") << "not a problem\n";
  return root;
}

TEST_F(BenchTest, WithoutGpuEveryProblemIsLoadedAndRecordedAsFailed) {
  if (has_gpu()) GTEST_SKIP() << "this machine has a GPU: the no-GPU path does not run here";
  const fs::path kb = make_kernelbench(dir_ / "kb");
  const fs::path run = dir_ / "run";
  const std::string command =
      "bench " + kb.string() + " --level 1 --problems all --timeout 120 -q -o " + run.string();
  const Result r = kernelopt(command);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_EQ(last_line(r.output),
            "kernelopt: error: [kernelopt.nogpu] bench: no NVIDIA GPU here: 2 of 3 problems "
            "loaded and validated, none measured; all are recorded as failed in " +
                (run / "summary.json").string() + " (see `kernelopt doctor`)")
      << r.output;

  const nlohmann::json bad = read_json(run / "problems/level1_2_syntax_error.json");
  EXPECT_EQ(bad["status"], "failed");
  EXPECT_EQ(bad["outcome"]["reason"], "problem error");
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("syntax error at line 4"),
            std::string::npos);
  for (const char* good : {"level1_1_good_small.json", "level1_3_layernorm_gelu_residual.json"}) {
    const nlohmann::json doc = read_json(run / "problems" / good);
    EXPECT_EQ(doc["outcome"]["class"], "failed") << good;
    EXPECT_EQ(doc["outcome"]["reason"], "needs an NVIDIA GPU") << good;
    EXPECT_EQ(doc["error"]["tag"], "kernelopt.nogpu") << good;
  }
  const nlohmann::json summary = read_json(run / "summary.json");
  EXPECT_EQ(summary["overall"]["problems"], 3);
  EXPECT_EQ(summary["overall"]["classes"]["failed"], 3);
  EXPECT_EQ(summary["overall"]["failure_reasons"]["needs an NVIDIA GPU"], 2);
  EXPECT_EQ(summary["overall"]["failure_reasons"]["problem error"], 1);

  // Failed problems are redone on a rerun; nothing crashes and the store stays sound.
  const Result again = kernelopt(command);
  EXPECT_EQ(again.code, 4) << again.output;
  EXPECT_EQ(again.output.find("skipped"), std::string::npos) << again.output;
  const store::Store store = store::Store::open(run.string());
  EXPECT_EQ(store.integrity_check(), "ok");
  ASSERT_EQ(store.problems().size(), 3U);
  for (const auto& row : store.problems()) {
    EXPECT_EQ(row.status, store::ProblemStatus::kFailed) << row.name;
  }
}

TEST_F(BenchTest, BadArgumentsGiveOneLineAndExitTwo) {
  const fs::path kb = make_kernelbench(dir_ / "kb");
  for (const char* args : {"--level 1 --problems 5-2", "--level 1 --problems odd,x",
                           "--level 7 --problems all", "--level 1 --problems 40-50"}) {
    const Result r =
        kernelopt("bench " + kb.string() + " " + args + " -o " + (dir_ / "r").string());
    EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_NE(r.output.find("kernelopt: error: [kernelopt.usage]"), std::string::npos) << r.output;
  }
}

// Per level (0: overall): the Table 1 counts computed here from the show documents' classes.
using Counts = std::map<int, std::map<std::string, int>>;

// A run directory made of the committed H200 show documents, in the runner's own format.
Counts make_stored_run(const fs::path& run) {
  fs::create_directories(run / "problems");
  Counts counts;
  for (const auto& entry : fs::directory_iterator(kSource / "results/show")) {
    if (entry.path().extension() != ".json") continue;
    const nlohmann::json show = read_json(entry.path());
    engine::BenchProblem problem;
    problem.level = show["level"].get<int>();
    problem.name = show["problem"].get<std::string>();
    problem.number = engine::problem_number(problem.name);
    problem.path = "KernelBench/level" + std::to_string(problem.level) + "/" + problem.name + ".py";
    engine::ProblemCost cost;
    cost.gpu_seconds = 90;
    cost.wall_seconds = 91;
    const nlohmann::json doc = engine::done_document(problem, show, cost);
    std::ofstream(run / "problems" / problem.document_name()) << doc.dump(1);
    const std::string cls = show["class"];
    const std::string column = cls == "no_triton_kernel"   ? "fallback: no Triton kernel"
                               : cls == "vendor_dominated" ? "fallback: vendor-dominated"
                                                           : "matched (synthesis failed)";
    for (const int level : {problem.level, 0}) {
      ++counts[level]["problems"];
      ++counts[level][column];
    }
  }
  return counts;
}

// The cells of the Markdown table row that starts with `first`.
std::vector<std::string> row_cells(const std::string& markdown, const std::string& first) {
  std::istringstream in(markdown);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| " + first + " |", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream parts(line.substr(1));
    for (std::string cell; std::getline(parts, cell, '|');) {
      cells.push_back(cell.substr(1, cell.size() - 2));
    }
    return cells;
  }
  return {};
}

TEST_F(BenchTest, ReportRendersTableOneFromAStoredGpuRun) {
  const fs::path run = dir_ / "run";
  const Counts counts = make_stored_run(run);
  const Result r = kernelopt("report " + run.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string md = read(run / "report.md");
  const std::vector<std::string> columns = row_cells(md, "level");
  ASSERT_FALSE(columns.empty()) << md;
  for (const auto& [level, expected] : counts) {
    const std::string name = level == 0 ? "overall" : "level " + std::to_string(level);
    const std::vector<std::string> cells = row_cells(md, name);
    ASSERT_EQ(cells.size(), columns.size()) << name << "\n" << md;
    for (std::size_t i = 1; i < columns.size(); ++i) {
      const auto it = expected.find(columns[i]);
      if (columns[i] == "geomean speedup") {
        EXPECT_EQ(cells[i], "1.000x") << name;
      } else if (columns[i] == "optimized rate") {
        EXPECT_EQ(cells[i], "0.0%") << name;
      } else {
        EXPECT_EQ(cells[i], std::to_string(it == expected.end() ? 0 : it->second))
            << name << ": " << columns[i];
      }
    }
  }
  EXPECT_NE(md.find("Baseline-only run"), std::string::npos);
  const std::string html = read(run / "report.html");
  for (const char* banned : {"<script", "src=", "href=", "<link", "url("}) {
    EXPECT_EQ(html.find(banned), std::string::npos) << banned;
  }
  int plots = 0;
  for (std::size_t at = html.find("<svg"); at != std::string::npos;
       at = html.find("<svg", at + 1)) {
    ++plots;
  }
  EXPECT_EQ(plots, 3);

  const fs::path other = dir_ / "other";
  fs::create_directories(other / "problems");
  fs::copy(run / "problems/level1_19_ReLU.json", other / "problems/level1_19_ReLU.json");
  const Result cmp = kernelopt("report --compare " + run.string() + " " + other.string() + " -o " +
                               (dir_ / "compare.md").string());
  ASSERT_EQ(cmp.code, 0) << cmp.output;
  const std::string compare = read(dir_ / "compare.md");
  EXPECT_EQ(compare, cmp.output);
  const std::vector<std::string> problems = row_cells(compare, "problems");
  ASSERT_EQ(problems.size(), 3U) << compare;
  EXPECT_EQ(problems[1], std::to_string(counts.at(0).at("problems")));
  EXPECT_EQ(problems[2], "1");
}

std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    if (shell(std::string("command -v ") + name + " >/dev/null").code == 0) return name;
  }
  return "";
}

TEST_F(BenchTest, ChromiumDrawsTheHtmlReport) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    GTEST_SKIP() << "chromium is not installed (scripts/setup.sh installs it): report.html is "
                    "not rendered here";
  }
  const fs::path run = dir_ / "run";
  make_stored_run(run);
  ASSERT_EQ(kernelopt("report " + run.string()).code, 0);
  const fs::path shot = dir_ / "report.png";
  const Result r = shell(chromium +
                         " --headless --no-sandbox --disable-gpu --hide-scrollbars "
                         "--user-data-dir=" +
                         (dir_ / "profile").string() + " --screenshot=" + shot.string() +
                         " --window-size=1200,1600 file://" + (run / "report.html").string());
  ASSERT_TRUE(fs::exists(shot)) << r.output;
  const Result check = shell("python3 " + (kSource / "tests/python/png_check.py").string() + " " +
                             shot.string() + " --min-colours 32 --min-ink 0.05");
  EXPECT_EQ(check.code, 0) << check.output;
}

}  // namespace
}  // namespace kernelopt
