// `kernelopt bench` and `kernelopt report` end to end with the real binary. Without a GPU, bench
// must still load and validate every problem of a small KernelBench-shaped folder and record each
// as failed with its reason; report must render Table 1 from a stored run built from the show
// documents measured on the H200 (tests/fixtures/documents/show/), and headless Chromium must draw
// report.html.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kernelopt/engine/bench_document.hpp"
#include "kernelopt/engine/bench_spec.hpp"
#include "kernelopt/engine/remeasure.hpp"
#include "kernelopt/store/store.hpp"
#include "run_binary.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() {
  return KERNELOPT_SOURCE_DIR;
}

using testing_support::kernelopt;
using testing_support::Result;
using testing_support::shell;

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
  fs::copy_file(source_dir() / "tests/fixtures/problems/good_small.py", level / "1_good_small.py");
  fs::copy_file(source_dir() / "tests/fixtures/problems/syntax_error.py",
                level / "2_syntax_error.py");
  fs::copy_file(source_dir() / "examples/layernorm_gelu_residual.py",
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

// A stand-in worker that says it has two GPUs and answers the show pipeline's requests with fixed
// numbers (the captured graph is ReLU's real output code), so that the GPU path of bench (a thread
// and a worker per GPU, CUDA_VISIBLE_DEVICES, the time limit, resuming) runs on any machine. Each
// load appends "problem device" to $FAKE_LOG; a problem named *hang* never answers its capture.
constexpr const char* kFakeWorker = R"PY(
import json, os, shutil, sys, time
out = sys.stdout
for line in sys.stdin:
    req = json.loads(line)
    op, res = req["op"], {"id": req["id"], "ok": True}
    if op == "hello":
        res.update(protocol=2, pid=os.getpid())
    elif op == "env":
        res.update(cuda_available=True, gpu_count=2, gpu="Fake GPU", free_memory_bytes=1000,
                   peak_memory_bytes=500, bandwidth={"bandwidth_gbps": 4000.0})
    elif op == "load":
        with open(os.environ["FAKE_LOG"], "a") as log:
            log.write(f"{os.path.basename(req['problem'])} {os.environ.get('CUDA_VISIBLE_DEVICES')}\n")
        res.update(inputs=[], outputs=[])
        hang = "hang" in req["problem"] and "searchhang" not in req["problem"]
        search_hang = "searchhang" in req["problem"]
    elif op == "capture":
        time.sleep(3600 if hang else 3 if search_hang else 1)
        os.makedirs(req["run_dir"], exist_ok=True)
        path = os.path.join(req["run_dir"], "graph_0.py")
        shutil.copy(os.environ["FAKE_GRAPH"], path)
        res.update(compile_s=1.0, seeds=[], graphs=[{"index": 0, "path": path, "calls": 1, "args": [
            {"shape": [4096, 393216], "stride": [393216, 1], "dtype": "float32"}]}])
    elif op == "time_launches":
        res.update(intervals=[{"median_ms": 30.0 if search_hang else 3.0}] * (req["marks"] - 1))
    elif op in ("time_model", "time_replay"):
        res.update(median_ms=3.5, min_ms=3.4, max_ms=3.6, samples_ms=[3.5])
    elif search_hang:
        time.sleep(3600)  # the search's first request of its own never returns
    out.write(json.dumps(res) + "\n")
    out.flush()
)PY";

// The stand-in worker as a kernelopt package under `python`, for KERNELOPT_PYTHON_DIR.
fs::path fake_worker_package(const fs::path& python) {
  fs::create_directories(python / "kernelopt/worker");
  std::ofstream(python / "kernelopt/__init__.py") << "";
  std::ofstream(python / "kernelopt/worker/__init__.py") << "";
  std::ofstream(python / "kernelopt/worker/__main__.py") << kFakeWorker;
  return python;
}

TEST_F(BenchTest, GpuPathRunsAWorkerPerGpuAndKillsAHungProblem) {
  const fs::path python = fake_worker_package(dir_ / "fake");
  const fs::path level = dir_ / "kb/level2";
  fs::create_directories(level);
  for (const char* name : {"1_a.py", "2_b.py", "3_hang.py", "4_c.py", "5_d.py"}) {
    std::ofstream(level / name) << "\n";
  }
  const fs::path run = dir_ / "run";
  const std::string command =
      "env -u CUDA_VISIBLE_DEVICES KERNELOPT_PYTHON_DIR=" + python.string() +
      " KERNELOPT_CACHE_DIR=" + (dir_ / "cache").string() + " FAKE_LOG=" + (dir_ / "log").string() +
      " FAKE_GRAPH=" +
      (source_dir() / "tests/fixtures/output_code/real/h200_level1_19_ReLU_graph_0.py").string() +
      " " + KERNELOPT_BINARY + " bench " + (dir_ / "kb").string() +
      " --level 2 --problems all --timeout 4 -q -o " + run.string();
  const Result r = shell(command);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_EQ(last_line(r.output),
            "kernelopt: bench: 1 of 5 problems failed; see " + (run / "summary.json").string())
      << r.output;
  const std::string log = read(dir_ / "log");
  EXPECT_NE(log.find(" 0\n"), std::string::npos) << log;
  EXPECT_NE(log.find(" 1\n"), std::string::npos) << log;

  const nlohmann::json hung = read_json(run / "problems/level2_3_hang.json");
  EXPECT_EQ(hung["outcome"]["reason"], "timed out");
  EXPECT_NE(hung["error"]["message"].get<std::string>().find("not finished within --timeout 4 s"),
            std::string::npos)
      << hung.dump();
  EXPECT_LT(hung["cost"]["gpu_seconds"].get<double>(), 10);
  const nlohmann::json done = read_json(run / "problems/level2_1_a.json");
  EXPECT_EQ(done["outcome"]["class"], "matched (synthesis failed)");
  EXPECT_EQ(done["show"]["replay_ms"], 3.5);
  EXPECT_EQ(done["cost"]["free_memory_bytes"], 1000);
  EXPECT_EQ(done["cost"]["peak_memory_bytes"], 500);
  EXPECT_GT(done["cost"]["gpu_seconds"].get<double>(), 0.5);
  const nlohmann::json summary = read_json(run / "summary.json");
  EXPECT_EQ(summary["overall"]["classes"]["matched (synthesis failed)"], 4);
  EXPECT_EQ(summary["overall"]["failure_reasons"]["timed out"], 1);
  EXPECT_EQ(summary["overall"]["geomean_speedup"], 1.0);

  // A rerun skips the four done problems and redoes only the one that failed.
  fs::remove(dir_ / "log");
  const Result again = shell(command);
  EXPECT_EQ(again.code, 1) << again.output;
  EXPECT_NE(again.output.find("4 problems already done"), std::string::npos) << again.output;
  const std::string redone = read(dir_ / "log");
  EXPECT_EQ(redone.rfind("3_hang.py ", 0), 0U) << redone;
  EXPECT_EQ(std::count(redone.begin(), redone.end(), '\n'), 1) << redone;
  const store::Store store = store::Store::open(run.string());
  EXPECT_EQ(store.problem("level2/1_a")->status, store::ProblemStatus::kDone);
  EXPECT_EQ(store.problem("level2/3_hang")->status, store::ProblemStatus::kFailed);

  // Problems that have not had their turn run before a failed one is retried: with two workers,
  // the two new problems are taken first and the hung one only when one of them is finished.
  for (const char* name : {"6_e.py", "7_f.py"}) {
    std::ofstream(level / name) << "\n";
  }
  fs::remove(dir_ / "log");
  const Result third = shell(command);
  EXPECT_EQ(third.code, 1) << third.output;
  const std::string order = read(dir_ / "log");
  EXPECT_EQ(std::count(order.begin(), order.end(), '\n'), 3) << order;
  EXPECT_NE(order.find("\n3_hang.py "), std::string::npos) << order;
  EXPECT_GT(order.find("3_hang.py "), order.find("6_e.py ")) << order;
  EXPECT_GT(order.find("3_hang.py "), order.find("7_f.py ")) << order;
}

// --timeout holds the baseline; the search gets as much again from its own start, so a long
// compile leaves it its time. A problem whose capture takes 3 s of a 4 s limit and whose search
// hangs keeps its measured baseline, and its worker is killed 4 s after the search started.
TEST_F(BenchTest, TheSearchGetsItsOwnTimeLimitAfterTheBaseline) {
  const fs::path python = fake_worker_package(dir_ / "fake");
  fs::create_directories(dir_ / "kb/level2");
  std::ofstream(dir_ / "kb/level2/1_searchhang.py") << "\n";
  const fs::path run = dir_ / "run";
  const Result r = shell(
      "env -u CUDA_VISIBLE_DEVICES KERNELOPT_PYTHON_DIR=" + python.string() +
      " KERNELOPT_CACHE_DIR=" + (dir_ / "cache").string() + " FAKE_LOG=" + (dir_ / "log").string() +
      " FAKE_GRAPH=" +
      (source_dir() / "tests/fixtures/output_code/real/h200_level1_19_ReLU_graph_0.py").string() +
      " " + KERNELOPT_BINARY + " bench " + (dir_ / "kb").string() +
      " --level 2 --problems all --timeout 4 --search --no-profile --gate-timeout 30 -q -o " +
      run.string());
  const nlohmann::json doc = read_json(run / "problems/level2_1_searchhang.json");
  EXPECT_EQ(doc["status"], "done") << doc.dump() << r.output;
  EXPECT_EQ(doc["show"]["replay_ms"], 3.5) << doc.dump();
  EXPECT_NE(doc["outcome"]["reason"].get<std::string>().find(
                "timed out (--timeout 4 s, counted from the search's start)"),
            std::string::npos)
      << doc.dump();
  const nlohmann::json& cost = doc["cost"];
  EXPECT_GE(cost["baseline_seconds"].get<double>(), 3.0) << cost.dump();
  EXPECT_GE(cost["search_seconds"].get<double>(), 3.5) << cost.dump();
  EXPECT_LT(cost["search_seconds"].get<double>(), 8.0) << cost.dump();
  EXPECT_GT(cost["gpu_seconds"].get<double>(), 6.5) << cost.dump();  // more than one --timeout
  const nlohmann::json summary = read_json(run / "summary.json");
  EXPECT_EQ(summary["overall"]["searched_problems_timed"], 1) << summary.dump();
}

// A run directory keeps the mode of its first run: a --search run is not resumed baseline-only
// (nor the other way round), so one summary never mixes the two.
TEST_F(BenchTest, ARunDirectoryKeepsItsSearchMode) {
  if (has_gpu()) GTEST_SKIP() << "this machine has a GPU: the no-GPU path does not run here";
  const fs::path kb = make_kernelbench(dir_ / "kb");
  const fs::path run = dir_ / "run";
  const std::string base =
      "bench " + kb.string() + " --level 1 --problems 1 --timeout 120 -q -o " + run.string();
  const Result searched = kernelopt(base + " --search --gate-timeout 30 --samples 10");
  EXPECT_EQ(searched.code, 4) << searched.output;  // loaded and validated; no GPU to measure
  EXPECT_EQ(read_json(run / "bench_mode.json"),
            (nlohmann::json{{"search", true}, {"perf_gate", true}, {"flags", ""}}));
  const Result plain = kernelopt(base);
  EXPECT_EQ(plain.code, 2) << plain.output;
  EXPECT_EQ(last_line(plain.output),
            "kernelopt: error: [kernelopt.usage] bench: " + run.string() +
                " holds a --search run; rerun it that way, or use another run directory for "
                "baseline-only")
      << plain.output;
  const Result ablated = kernelopt(base + " --search --no-perf-gate");
  EXPECT_EQ(ablated.code, 2) << ablated.output;
  EXPECT_NE(ablated.output.find("for --search --no-perf-gate"), std::string::npos)
      << ablated.output;
  // Every other ablation is part of the mode too, and needs --search.
  const Result greedy = kernelopt(base + " --search --no-beam --rounds 2");
  EXPECT_EQ(greedy.code, 2) << greedy.output;
  EXPECT_NE(greedy.output.find("for --search --no-beam --rounds 2"), std::string::npos)
      << greedy.output;
  const Result dispatch = kernelopt(base + " --search --no-dispatch-aware");
  EXPECT_EQ(dispatch.code, 2) << dispatch.output;
  EXPECT_NE(dispatch.output.find("for --search --no-dispatch-aware"), std::string::npos)
      << dispatch.output;
  const Result split = kernelopt(base + " --search --split-segments");
  EXPECT_EQ(split.code, 2) << split.output;
  EXPECT_NE(split.output.find("for --search --split-segments"), std::string::npos) << split.output;
  const Result alone = kernelopt(base + " --no-perf-gate --no-memory");
  EXPECT_EQ(alone.code, 2) << alone.output;
  EXPECT_NE(alone.output.find("--no-perf-gate --no-memory set(s) the search: add --search"),
            std::string::npos)
      << alone.output;
  // A run directory from before the mode file (problems, no bench_mode.json) is baseline-only.
  fs::remove(run / "bench_mode.json");
  const Result old = kernelopt(base + " --search");
  EXPECT_EQ(old.code, 2) << old.output;
  EXPECT_NE(old.output.find("holds a baseline-only run"), std::string::npos) << old.output;
  // A mode file from before the ablation flags ({search, perf_gate}) resumes as the same mode.
  std::ofstream(run / "bench_mode.json") << R"({"search": true, "perf_gate": true})";
  const Result resumed = kernelopt(base + " --search");
  EXPECT_EQ(resumed.code, 4) << resumed.output;
  std::ofstream(run / "bench_mode.json") << R"({"search": true, "perf_gate": false})";
  EXPECT_EQ(kernelopt(base + " --search --no-perf-gate").code, 4);
}

// remeasure finds a bench run's accepted replacements (optimized and matched (optimized), not the
// fallbacks) and an optimize run's optimized/; without a GPU it loads nothing and exits 4; a folder
// that is neither, or an accepted problem whose optimized/ is gone, is a usage error.
TEST_F(BenchTest, RemeasureFindsTheAcceptedReplacements) {
  const fs::path run = dir_ / "bench_run";
  fs::create_directories(run / "problems");
  // A problem document as bench writes it (levelL_NAME.json), for level 1, NAME "N_tail".
  const auto problem = [&](const std::string& name, const std::string& cls, bool optimized) {
    const std::string stem = name.substr(std::string("level1_").size());
    std::ofstream(run / "problems" / (name + ".json")) << nlohmann::json{
        {"schema", "kernelopt.bench.problem/1"},
        {"level", 1},
        {"number", std::stoi(stem)},
        {"problem", stem},
        {"outcome", {{"class", cls}, {"ratio", 1.2}}}}.dump();
    if (!optimized) return;
    const fs::path dir = run / "search" / name / "optimized";
    fs::create_directories(dir);
    fs::copy_file(fs::path(KERNELOPT_SOURCE_DIR) / "examples/row_sum.py", dir / "problem.py");
    std::ofstream(dir / "manifest.json") << nlohmann::json{
        {"schema", "kernelopt.optimized/1"},
        {"problem", "problem.py"},
        {"graphs", {"graph_0.py"}}}.dump();
  };
  problem("level1_1_a", "fallback", false);
  const Result none = kernelopt("remeasure " + run.string());
  EXPECT_EQ(none.code, 0) << none.output;
  EXPECT_NE(none.output.find("no accepted replacement to re-measure"), std::string::npos);
  EXPECT_EQ(read_json(run / "remeasure.json")["slower"], 0);
  problem("level1_2_b", "optimized", true);
  problem("level1_3_c", "matched (optimized)", true);
  problem("level1_4_d", "matched (synthesis failed)", false);
  const auto targets = engine::remeasure_targets(run.string());
  ASSERT_EQ(targets.size(), 2U);
  EXPECT_EQ(targets[0].problem, "level1_2_b");
  EXPECT_EQ(targets[1].problem, "level1_3_c");
  EXPECT_EQ(targets[1].first["ratio"], 1.2);
  if (!has_gpu()) {
    const Result no_gpu = kernelopt("remeasure " + run.string());
    EXPECT_EQ(no_gpu.code, 4) << no_gpu.output;
  }
  // Targets an earlier remeasure.json already timed (same problem, same first outcome, same
  // samples) keep their rows: with both kept nothing needs the GPU; --again times them anew.
  const auto row = [](const std::string& name, const nlohmann::json& first) {
    return nlohmann::json{{"problem", name},   {"first", first},    {"ratio", 1.19},
                          {"ratio_low", 1.18}, {"ratio_high", 1.2}, {"slower", false}};
  };
  nlohmann::json earlier = {
      {"schema", "kernelopt.remeasure/1"},
      {"samples", 30},
      {"replacements", {row("level1_2_b", targets[0].first), row("level1_3_c", targets[1].first)}},
      {"slower", 0}};
  EXPECT_FALSE(engine::earlier_row(earlier, targets[0], 30).is_null());
  EXPECT_TRUE(engine::earlier_row(earlier, targets[0], 50).is_null());  // other samples
  nlohmann::json searched_again = targets[1].first;
  searched_again["ratio"] = 1.3;  // the problem's outcome changed since: timed again
  EXPECT_TRUE(engine::earlier_row(earlier, {"level1_3_c", "", searched_again}, 30).is_null());
  EXPECT_TRUE(engine::earlier_row(nlohmann::json("x"), targets[0], 30).is_null());
  std::ofstream(run / "remeasure.json") << earlier.dump();
  const Result kept = kernelopt("remeasure " + run.string());
  EXPECT_EQ(kept.code, 0) << kept.output;
  EXPECT_NE(kept.output.find("level1_3_c: first 1.200x, again 1.190x [1.180, 1.200] (kept"),
            std::string::npos)
      << kept.output;
  EXPECT_EQ(read_json(run / "remeasure.json")["replacements"].size(), 2U);
  if (!has_gpu()) {
    const Result again = kernelopt("remeasure --again " + run.string());
    EXPECT_EQ(again.code, 4) << again.output;
  }
  // An optimize run directory: its own optimized/.
  const auto one = engine::remeasure_targets((run / "search" / "level1_2_b").string());
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0].problem, "level1_2_b");
  fs::remove_all(run / "search" / "level1_3_c");
  const Result gone = kernelopt("remeasure " + run.string());
  EXPECT_EQ(gone.code, 2) << gone.output;
  EXPECT_NE(gone.output.find("level1_3_c was accepted but"), std::string::npos) << gone.output;
  const Result neither = kernelopt("remeasure " + (dir_ / "nothing").string());
  EXPECT_EQ(neither.code, 2) << neither.output;
  EXPECT_NE(neither.output.find("holds neither optimized/"), std::string::npos) << neither.output;
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
  for (const auto& entry : fs::directory_iterator(source_dir() / "tests/fixtures/documents/show")) {
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
  // No run had the vendor stage: no knob won a problem in either.
  EXPECT_EQ(row_cells(compare, "vendor knobs won"),
            (std::vector<std::string>{"vendor knobs won", "none", "none"}));

  // A remeasure.json in the run directory becomes a section of the report and of summary.json.
  EXPECT_EQ(md.find("Re-measured in a separate run"), std::string::npos);
  std::ofstream(run / "remeasure.json") << nlohmann::json{
      {"schema", "kernelopt.remeasure/1"},
      {"samples", 30},
      {"slower", 1},
      {"replacements",
       {{{"problem", "level1_39_a"},
         {"first", {{"ratio", 1.289}}},
         {"ratio", 1.281},
         {"ratio_low", 1.27},
         {"ratio_high", 1.29},
         {"slower", false}},
        {{"problem", "level1_23_b"},
         {"first", {{"ratio", 0.973}}},
         {"ratio", 0.96},
         {"ratio_low", 0.95},
         {"ratio_high", 0.97},
         {"slower", true}}}}}.dump();
  ASSERT_EQ(kernelopt("report " + run.string()).code, 0);
  const std::string again = read(run / "report.md");
  EXPECT_NE(again.find("1 of 2 accepted replacements slower than the baseline"), std::string::npos)
      << again;
  EXPECT_EQ(
      row_cells(again, "level1_23_b"),
      (std::vector<std::string>{"level1_23_b", "0.973", "0.960 [0.950, 0.970]", "**slower**"}));
  EXPECT_EQ(read_json(run / "summary.json")["remeasure"]["slower"], 1);
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
  const Result check = shell("python3 " + (source_dir() / "tests/python/png_check.py").string() +
                             " " + shot.string() + " --min-colours 32 --min-ink 0.05");
  EXPECT_EQ(check.code, 0) << check.output;
}

}  // namespace
}  // namespace kernelopt
