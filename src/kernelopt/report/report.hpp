// `kernelopt report`'s outputs, rendered from summary.json (summary.hpp): report.md with the
// paper's Table 1, report.html (one offline file with inline SVG plots) and the Markdown
// comparison of several runs. Pure functions of their inputs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::report {

// report.md: Table 1, long tail, dispatch classes, failures, cost, then every problem.
// `title` names the run (its directory).
std::string format_report_md(const nlohmann::json& summary, const std::string& title);

// report.html: the same tables and three inline SVG plots (speedup histogram, per-problem
// speedups, headroom before vs after). No scripts and no external resources.
std::string format_report_html(const nlohmann::json& summary, const std::string& title);

// Several runs side by side: per level and overall, each run's counts, geomeans and cost, then
// each problem's class and speedup per run. `runs` pairs a label (the run directory) with its
// summary.
std::string format_compare_md(const std::vector<std::pair<std::string, nlohmann::json>>& runs);

// A Markdown table (header, separator, rows); `|` in cells is escaped.
std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows);

}  // namespace kernelopt::report
