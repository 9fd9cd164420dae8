// The head's side of `bench --executor ray` that needs no cluster: the bench options a node runs a
// problem with, the cluster's one-line description, and the cost a run spread over nodes reports
// (GPU-seconds per node, the bench runs' own wall time). The cluster itself runs in
// tests/python/test_ray_executor.py.
#include "kernelopt/engine/bench_ray.hpp"

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kernelopt/engine/bench.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/report/report.hpp"
#include "kernelopt/report/summary.hpp"
#include "kernelopt/report/tables.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Args = std::vector<std::string>;

json node_doc(int number, const std::string& node, double gpu_seconds) {
  json cost = {{"gpu_seconds", gpu_seconds}, {"wall_seconds", gpu_seconds + 1}};
  if (!node.empty()) cost["node"] = node;
  return {{"schema", "kernelopt.bench.problem/1"},
          {"problem", std::to_string(number) + "_p"},
          {"level", 1},
          {"number", number},
          {"status", "done"},
          {"outcome", {{"class", "fallback"}, {"reason", "vendor-dominated"}, {"ratio", 1.0}}},
          {"error", nullptr},
          {"cost", cost},
          {"show", {{"replay_ms", 1.0}, {"class", "vendor_dominated"}}}};
}

TEST(RayNodeArguments, BaselineOnlyPassesTheLimitsAndTimedCalls) {
  engine::BenchCommand command;
  command.timeout = std::chrono::seconds(600);
  command.iters = 50;
  EXPECT_EQ(engine::node_arguments(command), (Args{"--timeout", "600", "--iters", "50"}));
}

TEST(RayNodeArguments, SearchPassesItsSettingsAblationsAndCache) {
  engine::BenchCommand command;
  command.search = true;
  command.gate_timeout = std::chrono::seconds(90);
  command.samples = 40;
  command.flags.no_beam = true;
  command.flags.budget_s = 120;
  command.flags.cache_dir = "cache dir";
  EXPECT_EQ(engine::node_arguments(command),
            (Args{"--timeout", "1800", "--iters", "30", "--search", "--gate-timeout", "90",
                  "--samples", "40", "--no-beam", "--budget", "120", "--cache", "cache dir"}));
}

TEST(RayCluster, DescribedByItsNodesAndGpus) {
  EXPECT_EQ(engine::describe_cluster(
                {{"gpu-a", "10.0.0.1", 2, 32, "H100"}, {"gpu-b", "10.0.0.2", 1, 16, ""}}),
            "2 nodes, 3 GPUs: gpu-a (2 x H100), gpu-b (1 x GPU)");
  EXPECT_EQ(engine::describe_cluster({{"vm", "10.0.0.3", 0, 2, ""}}),
            "1 node, 0 GPUs: vm (2 CPUs)");
}

TEST(RaySummary, GpuSecondsAddUpPerNode) {
  const json s = report::summarize(
      {node_doc(1, "gpu-b", 10), node_doc(2, "gpu-a", 20), node_doc(3, "gpu-b", 30)});
  ASSERT_EQ(s["nodes"].size(), 2U);
  EXPECT_EQ(s["nodes"][0]["node"], "gpu-a");
  EXPECT_EQ(s["nodes"][0]["problems"], 1);
  EXPECT_DOUBLE_EQ(s["nodes"][1]["gpu_seconds"].get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(s["nodes"][1]["wall_seconds"].get<double>(), 42.0);
  EXPECT_EQ(s["problems"][0]["node"], "gpu-b");
  const report::Table t = report::node_table(s);
  ASSERT_EQ(t.rows.size(), 3U);
  EXPECT_EQ(t.rows.back(), (std::vector<std::string>{"all nodes", "3", "60.0", "63.0"}));
  // A run on one machine has no node breakdown, and its report no such section.
  const json here = report::summarize({node_doc(1, "", 10)});
  EXPECT_FALSE(here.contains("nodes"));
  EXPECT_TRUE(here["problems"][0]["node"].is_null());
  EXPECT_EQ(report::format_report_md(here, "r").find("By Ray node"), std::string::npos);
  EXPECT_NE(report::format_report_md(s, "r").find("### By Ray node"), std::string::npos);
}

TEST(RaySummary, TheBenchRunsWallTimeIsAddedUpAcrossRuns) {
  const fs::path dir = fs::temp_directory_path() / ("kernelopt-runs-" + std::to_string(getpid()));
  fs::remove_all(dir);
  engine::write_file(dir / "problems" / "level1_1_p.json", node_doc(1, "gpu-a", 5).dump());
  EXPECT_FALSE(engine::write_summary(dir.string()).contains("runs"));
  engine::record_run(dir.string(), "ray", 3, 12.5);
  engine::record_run(dir.string(), "thread", 1, 2.5);
  const json s = engine::write_summary(dir.string());
  EXPECT_EQ(s["runs"]["runs"], 2);
  EXPECT_DOUBLE_EQ(s["runs"]["wall_seconds"].get<double>(), 15.0);
  EXPECT_EQ(report::run_wall_text(s).rfind("The bench runs took 15.0 s of wall time (2 runs", 0),
            0U);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kernelopt
