#include "kernelopt/report/tables.hpp"

#include <fmt/format.h>

#include "kernelopt/report/summary.hpp"

namespace kernelopt::report {

namespace {

// The level rows then the overall row, each with its first cell.
std::vector<std::pair<std::string, nlohmann::json>> groups(const nlohmann::json& summary) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  for (const auto& level : summary.at("levels")) {
    out.emplace_back(fmt::format("level {}", level.at("level").get<int>()), level);
  }
  out.emplace_back("overall", summary.at("overall"));
  return out;
}

std::string count(const nlohmann::json& counts, const std::string& key) {
  return std::to_string(counts.value(key, 0));
}

// Fallback reasons: the four of DESIGN section 4, then any other seen in the run.
std::vector<std::string> fallback_columns(const nlohmann::json& summary) {
  std::vector<std::string> out(kFallbackReasons.begin(), kFallbackReasons.end());
  for (const auto& [reason, n] : summary.at("overall").at("fallback_reasons").items()) {
    if (std::find(out.begin(), out.end(), reason) == out.end()) out.push_back(reason);
  }
  return out;
}

}  // namespace

std::string times_text(const nlohmann::json& value) {
  return value.is_number() ? fmt::format("{:.3f}x", value.get<double>()) : "-";
}

std::string percent_text(const nlohmann::json& value) {
  return value.is_number() ? fmt::format("{:.1f}%", 100.0 * value.get<double>()) : "-";
}

std::string number_text(const nlohmann::json& value, int decimals) {
  return value.is_number() ? fmt::format("{:.{}f}", value.get<double>(), decimals) : "-";
}

Table table1(const nlohmann::json& summary) {
  const std::vector<std::string> reasons = fallback_columns(summary);
  Table t;
  t.header = {"level", "problems", "optimized", "matched (optimized)",
              "matched (synthesis failed)"};
  for (const auto& reason : reasons) {
    t.header.push_back("fallback: " + reason);
  }
  t.header.insert(t.header.end(), {"failed", "geomean speedup", "optimized rate"});
  for (const auto& [name, g] : groups(summary)) {
    const nlohmann::json& classes = g.at("classes");
    std::vector<std::string> row = {
        name, std::to_string(g.value("problems", 0)), count(classes, "optimized"),
        count(classes, "matched (optimized)"), count(classes, "matched (synthesis failed)")};
    for (const auto& reason : reasons) {
      row.push_back(count(g.at("fallback_reasons"), reason));
    }
    row.push_back(count(classes, "failed"));
    row.push_back(times_text(g.at("geomean_speedup")));
    row.push_back(percent_text(g.at("optimized_rate")));
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table long_tail_table(const nlohmann::json& summary) {
  Table t;
  t.header = {"level",    "problems with a speedup", ">= 5x", "2x-5x",
              "1.01x-2x", "geomean (optimized only)"};
  for (const auto& [name, g] : groups(summary)) {
    const nlohmann::json& tail = g.at("long_tail");
    t.rows.push_back({name, std::to_string(g.value("speedup_problems", 0)), count(tail, "ge_5x"),
                      count(tail, "2x_to_5x"), count(tail, "1.01x_to_2x"),
                      times_text(g.at("geomean_speedup_optimized"))});
  }
  return t;
}

Table dispatch_table(const nlohmann::json& summary) {
  Table t;
  t.header = {"level", "no_triton_kernel", "vendor_dominated", "optimizable"};
  for (const auto& [name, g] : groups(summary)) {
    const nlohmann::json& d = g.at("dispatch_classes");
    t.rows.push_back({name, count(d, "no_triton_kernel"), count(d, "vendor_dominated"),
                      count(d, "optimizable")});
  }
  return t;
}

Table failure_table(const nlohmann::json& summary) {
  Table t;
  t.header = {"level"};
  for (const auto& [reason, n] : summary.at("overall").at("failure_reasons").items()) {
    t.header.push_back(reason);
  }
  for (const auto& [name, g] : groups(summary)) {
    std::vector<std::string> row = {name};
    for (std::size_t i = 1; i < t.header.size(); ++i) {
      row.push_back(count(g.at("failure_reasons"), t.header[i]));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table cost_table(const nlohmann::json& summary) {
  Table t;
  t.header = {"level",
              "GPU-hours",
              "GPU-seconds",
              "median GPU-s a problem",
              "median search s (searched problems)",
              "wall seconds (sum)",
              "LLM tokens"};
  for (const auto& [name, g] : groups(summary)) {
    const nlohmann::json& group = g;  // a structured binding cannot be captured before C++20
    const auto field = [&group](const char* key) {
      return group.contains(key) ? group.at(key) : nlohmann::json(nullptr);
    };
    t.rows.push_back({name, number_text(g.at("gpu_hours"), 3), number_text(g.at("gpu_seconds"), 1),
                      number_text(field("median_gpu_seconds"), 1),
                      number_text(field("median_search_seconds"), 1),
                      number_text(g.at("wall_seconds"), 1),
                      std::to_string(g.value("llm_tokens", 0))});
  }
  return t;
}

Table node_table(const nlohmann::json& summary) {
  Table t;
  t.header = {"node", "problems", "GPU-seconds", "wall seconds (sum)"};
  int problems = 0;
  double gpu = 0;
  double wall = 0;
  for (const auto& node : summary.value("nodes", nlohmann::json::array())) {
    problems += node.value("problems", 0);
    gpu += node.value("gpu_seconds", 0.0);
    wall += node.value("wall_seconds", 0.0);
    t.rows.push_back({node.value("node", "?"), std::to_string(node.value("problems", 0)),
                      number_text(node.at("gpu_seconds"), 1),
                      number_text(node.at("wall_seconds"), 1)});
  }
  t.rows.push_back(
      {"all nodes", std::to_string(problems), number_text(gpu, 1), number_text(wall, 1)});
  return t;
}

std::string run_wall_text(const nlohmann::json& summary) {
  if (!summary.contains("runs")) return "";
  const nlohmann::json& runs = summary.at("runs");
  const int count = runs.value("runs", 0);
  return fmt::format(
      "The bench runs took {} s of wall time ({} run{} of `kernelopt bench` that reached their "
      "end); the wall seconds above add up each problem's own, side by side on several GPUs.",
      number_text(runs.at("wall_seconds"), 1), count, count == 1 ? "" : "s");
}

Table problem_table(const nlohmann::json& summary) {
  Table t;
  t.header = {"level",
              "problem",
              "class",
              "baseline ms (replay)",
              "CUDA graphs ms",
              "compiled ms",
              "eager ms",
              "optimized ms",
              "speedup [interval]",
              "floor ms",
              "headroom before / after",
              "Triton share",
              "GPU s"};
  for (const auto& r : summary.at("problems")) {
    std::string cls = r.value("class", "?");
    if (!r.value("reason", "").empty()) cls += " (" + r.value("reason", "") + ")";
    const std::string speedup =
        r["speedup"].is_number()
            ? fmt::format("{} [{}, {}]{}", number_text(r["speedup"], 3),
                          number_text(r["speedup_low"], 3), number_text(r["speedup_high"], 3),
                          r.value("speedup_measured", false) ? "" : " (baseline)")
            : "-";
    t.rows.push_back({r["level"].is_number() ? std::to_string(r["level"].get<int>()) : "-",
                      r.value("problem", "?"), cls, number_text(r["baseline_ms"], 3),
                      number_text(r["cudagraphs_ms"], 3), number_text(r["compiled_ms"], 3),
                      number_text(r["eager_ms"], 3), number_text(r["optimized_ms"], 3), speedup,
                      number_text(r["floor_ms"], 3),
                      times_text(r["headroom_before"]) + " / " + times_text(r["headroom_after"]),
                      percent_text(r["triton_share"]), number_text(r["gpu_seconds"], 1)});
  }
  return t;
}

}  // namespace kernelopt::report
