#include <fmt/format.h>

#include "kernelopt/report/report.hpp"
#include "kernelopt/report/tables.hpp"

namespace kernelopt::report {

namespace {

std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string render(const Table& t) {
  return markdown_table(t.header, t.rows);
}

}  // namespace

std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows) {
  std::string out = "|";
  std::string rule = "|";
  for (const auto& h : header) {
    out += " " + cell(h) + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const auto& c : row) {
      out += " " + cell(c) + " |";
    }
    out += "\n";
  }
  return out;
}

std::string format_report_md(const nlohmann::json& summary, const std::string& title) {
  const nlohmann::json& overall = summary.at("overall");
  std::string out = fmt::format("# kernelopt bench report: {}\n\n", title);
  if (summary.value("baseline_only", false)) {
    out += fmt::format("**Baseline-only run.** {}.\n\n", summary.value("note", ""));
  } else if (summary.contains("note") && summary.at("note").is_string()) {
    out += fmt::format("**No replacement.** {}.\n\n", summary.at("note").get<std::string>());
  }
  out += "## Table 1: outcome classes\n\n" + render(table1(summary));
  out += fmt::format(
      "\nGeomean speedup: over the {} problems that returned a module, fallbacks at their ratio; "
      "the {} failed problems returned none and are counted apart. Optimized rate: optimized "
      "problems over all problems. The baseline is `replay_ms`: the compiled graphs replayed as "
      "one CUDA graph with static inputs.\n\n",
      overall.value("speedup_problems", 0), overall.at("classes").value("failed", 0));
  out += "## Long tail\n\n" + render(long_tail_table(summary));
  out += "\n## Dispatch classes (kernelopt show)\n\n" + render(dispatch_table(summary));
  if (!overall.at("failure_reasons").empty()) {
    out += "\n## Failures\n\n" + render(failure_table(summary));
  }
  if (summary.contains("remeasure")) {
    const nlohmann::json& again = summary.at("remeasure");
    std::vector<std::vector<std::string>> rows;
    for (const auto& r : again.at("replacements")) {
      const nlohmann::json first = r.value("first", nlohmann::json::object());
      rows.push_back({r.value("problem", "?"),
                      first.contains("ratio") && first.at("ratio").is_number()
                          ? fmt::format("{:.3f}", first.at("ratio").get<double>())
                          : "-",
                      fmt::format("{:.3f} [{:.3f}, {:.3f}]", r.value("ratio", 0.0),
                                  r.value("ratio_low", 0.0), r.value("ratio_high", 0.0)),
                      r.value("slower", false) ? "**slower**" : "no"});
    }
    out += fmt::format(
        "\n## Re-measured in a separate run (`kernelopt remeasure`)\n\n{} of {} accepted "
        "replacements slower than the baseline (interval entirely under 1.0), {} + {} "
        "samples.\n\n",
        again.value("slower", 0), again.at("replacements").size(), again.value("samples", 0),
        again.value("samples", 0));
    out += markdown_table({"problem", "first ratio", "again [95% interval]", "slower"}, rows);
  }
  out += "\n## Cost\n\n" + render(cost_table(summary));
  if (const std::string wall = run_wall_text(summary); !wall.empty()) out += "\n" + wall + "\n";
  if (summary.contains("nodes")) out += "\n### By Ray node\n\n" + render(node_table(summary));
  out +=
      "\n## Problems\n\nfloor ms: the sum of the segments' floors (two-pass for a norm or "
      "softmax whose reduction group does not fit on chip: its input is read twice; for a "
      "full-float32 matrix template, its multiply-adds at the GPU's peak float32 rate where "
      "that is more) plus the time of every "
      "launch outside a segment (extern and ATen calls), on the launch-time basis; headroom: "
      "summed launch time over that floor.\n\n" +
      render(problem_table(summary));
  std::string errors;
  for (const auto& r : summary.at("problems")) {
    if (r["error"].is_string()) {
      errors +=
          fmt::format("- level {} {}: {}\n", r["level"].is_number() ? r["level"].get<int>() : 0,
                      r.value("problem", "?"), r["error"].get<std::string>());
    }
  }
  if (!errors.empty()) out += "\n## Errors\n\n" + errors;
  return out;
}

}  // namespace kernelopt::report
