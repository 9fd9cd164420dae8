// The cascade's vendor knobs, against a scripted worker (tests/fixtures/workers/vendor_worker.py)
// that answers G3 and G4 with fixed numbers, the real worker needing a GPU for them: a knob is
// checked on top of a set with its settings named in both requests, timed against the same set
// without it, kept only where that is measurably faster, and stored apart from the set's own
// verdicts, so that a resumed run does not ask again.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kernelopt/engine/show.hpp"
#include "kernelopt/gate/cascade.hpp"
#include "kernelopt/store/store.hpp"
#include "store_temp_dir.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct ScriptedRun {
  fs::path dir;
  fs::path requests;
  worker::Worker worker;
  store::Store store;
  std::int64_t problem;
  gate::Cascade cascade;

  static worker::WorkerOptions options(const fs::path& requests, const std::string& wrong) {
    const std::string source = KERNELOPT_SOURCE_DIR;
    worker::WorkerOptions o;
    o.argv = {"python3", source + "/tests/fixtures/workers/vendor_worker.py"};
    o.env = {"KERNELOPT_PYTHON_DIR=" + source + "/python", "KO_REQUESTS=" + requests.string(),
             "KO_WRONG_KNOB=" + wrong, "PYTHONUNBUFFERED=1"};
    return o;
  }

  explicit ScriptedRun(const fs::path& run_dir, const std::string& wrong = "")
      : dir(run_dir),
        requests(run_dir / "requests.jsonl"),
        worker(options(requests, wrong)),
        store(store::Store::open(run_dir.string())),
        problem(store.upsert_problem("vendor", "vendor.py")),
        cascade(
            gate::GateContext{
                &worker, "vendor.py", std::chrono::milliseconds(60000), {}, {}, nullptr},
            &store,
            problem,
            [](const std::vector<gate::Candidate>&) { return gate::Recomposed{}; }) {}

  // The requests of `op` the worker received, in order.
  [[nodiscard]] std::vector<json> asked(const std::string& op) const {
    std::vector<json> out;
    std::ifstream in(requests);
    for (std::string line; std::getline(in, line);) {
      json r = json::parse(line);
      if (r.value("op", "") == op) out.push_back(std::move(r));
    }
    return out;
  }
};

class VendorCascade : public store::TempDirTest {};

TEST_F(VendorCascade, AKnobIsTimedAgainstTheSetWithoutItAndKeptOnlyWhereFaster) {
  ScriptedRun run(dir_path());
  const gate::SetVerdicts fast = run.cascade.check_knob({}, "cudnn_benchmark");
  ASSERT_TRUE(fast.passed()) << fast.outcomes.back().detail;
  EXPECT_EQ(fast.vendor, std::vector<std::string>{"cudnn_benchmark"});
  EXPECT_EQ(fast.outcomes[0].gate, "G3 model");
  EXPECT_EQ(fast.outcomes[1].gate, "G4 vendor");
  EXPECT_EQ(fast.outcomes[1].numbers.value("speed_class", ""), "faster");
  EXPECT_NEAR(fast.outcomes[1].numbers.value("ratio", 0.0), 1.2, 1e-9);

  const gate::SetVerdicts same = run.cascade.check_knob({}, "cublaslt");
  ASSERT_TRUE(same.passed());  // correct and not slower, yet not faster: the stage keeps it out
  EXPECT_NE(same.outcomes[1].numbers.value("speed_class", ""), "faster");

  const auto checks = run.asked("model_check");
  const auto pairs = run.asked("time_pair");
  ASSERT_EQ(checks.size(), 2U);
  ASSERT_EQ(pairs.size(), 2U);
  EXPECT_EQ(checks[0].at("vendor"), json({"cudnn_benchmark"}));
  EXPECT_EQ(pairs[0].at("vendor"), json({"cudnn_benchmark"}));
  // the baseline side is the same set without the knob: here the compiled graphs, sent as such
  EXPECT_EQ(pairs[0].at("baseline_recomposed"), json::object());
  EXPECT_EQ(pairs[1].at("vendor"), json({"cublaslt"}));
}

TEST_F(VendorCascade, AKnobWhoseOutputsDifferFailsG3AndIsNeverTimed) {
  ScriptedRun run(dir_path(), "cudnn_benchmark");
  const gate::SetVerdicts v = run.cascade.check_knob({}, "cudnn_benchmark");
  EXPECT_FALSE(v.passed());
  ASSERT_EQ(v.outcomes.size(), 1U);
  EXPECT_EQ(v.outcomes[0].status, Status::kModelMismatch);
  EXPECT_TRUE(run.asked("time_pair").empty());
}

TEST_F(VendorCascade, KnobsTogetherAreCheckedAgainstTheCompiledGraphsAndStoredApart) {
  {
    ScriptedRun run(dir_path());
    (void)run.cascade.check_knob({}, "cudnn_benchmark");
    const gate::SetVerdicts together = run.cascade.check_set({}, {"cudnn_benchmark"});
    ASSERT_TRUE(together.passed());
    EXPECT_EQ(together.outcomes[1].gate, "G4 performance");
    const Outcome again = run.cascade.confirm({}, {"cudnn_benchmark"});
    EXPECT_TRUE(again.ok());
    const auto pairs = run.asked("time_pair");
    ASSERT_EQ(pairs.size(), 3U);
    for (std::size_t i = 1; i < pairs.size(); ++i) {
      EXPECT_FALSE(pairs[i].contains("baseline_recomposed")) << pairs[i].dump();
      EXPECT_EQ(pairs[i].at("vendor"), json({"cudnn_benchmark"}));
    }
    // The set without knobs is another set: its verdicts are not the knob's.
    const gate::SetVerdicts plain = run.cascade.check_set({}, {});
    EXPECT_EQ(run.asked("model_check").size(), 3U);
    EXPECT_FALSE(run.asked("model_check").back().contains("vendor"));
    EXPECT_FALSE(plain.outcomes.empty());
  }
  // Resumed over the same run directory: every verdict comes from the store.
  ScriptedRun resumed(dir_path());
  const std::size_t before = resumed.asked("time_pair").size();
  EXPECT_TRUE(resumed.cascade.check_knob({}, "cudnn_benchmark").passed());
  EXPECT_TRUE(resumed.cascade.check_set({}, {"cudnn_benchmark"}).passed());
  EXPECT_EQ(resumed.asked("time_pair").size(), before);
}

// show --vendor: each knob that applies and runs around the compiled graphs is timed on the
// captured graphs under its settings against the same graphs under the defaults; the others are
// not timed, and a knob the worker cannot time says why without failing the rest.
TEST_F(VendorCascade, ShowTimesEachKnobThatRunsAroundTheGraphs) {
  ScriptedRun run(dir_path());
  worker::Captured captured;
  for (int i = 0; i < 2; ++i) {
    worker::CapturedGraph graph;
    graph.index = i;
    graph.path = (dir_path() / "graphs" / ("graph_" + std::to_string(i) + ".py")).string();
    captured.graphs.push_back(graph);
  }
  json knobs = {{"knobs",
                 {{{"name", "cudnn_benchmark"}, {"applies", true}, {"around_graphs", true}},
                  {{"name", "cublaslt"}, {"applies", true}, {"around_graphs", true}},
                  {{"name", "channels_last"}, {"applies", true}, {"around_graphs", false}},
                  {{"name", "workspace"}, {"applies", false}, {"around_graphs", false}},
                  {{"name", "no_such_knob"}, {"applies", true}, {"around_graphs", true}}}}};
  engine::ShowOptions options;
  options.problem = "vendor.py";
  options.iters = 10;
  options.timeout = std::chrono::seconds(60);
  std::vector<std::string> said;
  engine::time_knobs(run.worker, captured, knobs, options,
                     [&](const std::string& line) { said.push_back(line); });

  const json& fast = knobs["knobs"][0]["measured"];
  EXPECT_NEAR(fast.value("ratio", 0.0), 1.2, 1e-9);
  EXPECT_EQ(fast.value("speed_class", ""), "faster");
  EXPECT_GT(fast.value("saved_ms", 0.0), 0.1);
  EXPECT_LE(fast.value("ratio_low", 0.0), fast.value("ratio", 0.0));
  EXPECT_NEAR(knobs["knobs"][1]["measured"].value("ratio", 0.0), 1.0, 1e-9);
  EXPECT_FALSE(knobs["knobs"][2].contains("measured"));
  EXPECT_FALSE(knobs["knobs"][3].contains("measured"));
  EXPECT_NE(knobs["knobs"][4]["measured"].value("error", "").find("unknown op"), std::string::npos)
      << knobs["knobs"][4].dump();
  const auto pairs = run.asked("time_pair");
  ASSERT_EQ(pairs.size(), 3U);  // the refused one included
  EXPECT_EQ(pairs[0].at("vendor"), json({"cudnn_benchmark"}));
  EXPECT_EQ(pairs[0].at("recomposed"),
            json({{"0", captured.graphs[0].path}, {"1", captured.graphs[1].path}}));
  EXPECT_FALSE(pairs[0].contains("baseline_recomposed"));  // the defaults: the compiled graphs
  EXPECT_EQ(pairs[0].at("samples"), 10);
  EXPECT_EQ(said.size(), 3U);
}

}  // namespace
}  // namespace kernelopt
