// The report's tables as cells, built once from summary.json and rendered as Markdown
// (report_md.cpp) or HTML (report_html.cpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::report {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as long as header
};

// The paper's Table 1: a row per level and one overall; columns problems, optimized, matched
// (optimized), matched (synthesis failed), fallback by reason, failed, geomean speedup, optimized
// rate.
Table table1(const nlohmann::json& summary);

// Per level and overall: the long tail bins and the geomean over optimized problems only.
Table long_tail_table(const nlohmann::json& summary);

// Per level and overall: the dispatch classes kernelopt show found.
Table dispatch_table(const nlohmann::json& summary);

// Per level and overall: why problems failed (a column per reason seen).
Table failure_table(const nlohmann::json& summary);

// Per level and overall: GPU-hours, GPU-seconds, wall seconds, LLM tokens.
Table cost_table(const nlohmann::json& summary);

// With problems run on Ray nodes (summary "nodes"): a row per node (problems, GPU-seconds, wall
// seconds) and the total over the nodes.
Table node_table(const nlohmann::json& summary);

// "The bench runs took X s of wall time (N runs) ..." from summary "runs"; "" without it.
std::string run_wall_text(const nlohmann::json& summary);

// One row per problem: class, times, speedup with its interval, floor, headroom, cost.
Table problem_table(const nlohmann::json& summary);

// Formatting shared by the renderers: "1.234x" or "-" for null.
std::string times_text(const nlohmann::json& value);

// "12.3%" or "-" for null.
std::string percent_text(const nlohmann::json& value);

// A number with `decimals` decimals, or "-" for null.
std::string number_text(const nlohmann::json& value, int decimals);

}  // namespace kernelopt::report
