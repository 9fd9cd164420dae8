#include <charconv>

#include <fmt/format.h>

#include "kernelopt/report/plots.hpp"
#include "kernelopt/report/report.hpp"
#include "kernelopt/report/svg.hpp"
#include "kernelopt/report/tables.hpp"

namespace kernelopt::report {

namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1100px; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
table { border-collapse: collapse; font-size: 12px; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; white-space: nowrap; }
th { background: #f0f3f7; white-space: normal; } td.text, th:first-child { text-align: left; }
.wide { overflow-x: auto; }
.note { background: #fff6e0; border-left: 4px solid #e9a23b; padding: 8px 12px; }
.plot { border: 1px solid #e5e5e5; margin: 8px 0; }
)";

// Whether a cell reads as a number ("12", "1.000x", "0.0%", "1.000 [0.9, 1.1]", "-"):
// right-aligned.
bool numeric(const std::string& cell) {
  if (cell == "-") return true;
  std::string token = cell.substr(0, cell.find(' '));
  if (!token.empty() && (token.back() == 'x' || token.back() == '%')) token.pop_back();
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  return !token.empty() && ec == std::errc() && end == token.data() + token.size();
}

std::string html_table(const Table& t) {
  std::string out = "<div class=\"wide\"><table>\n<tr>";
  for (const auto& h : t.header) {
    out += "<th>" + xml_escape(h) + "</th>";
  }
  out += "</tr>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (const auto& c : row) {
      out += (numeric(c) ? "<td>" : "<td class=\"text\">") + xml_escape(c) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table></div>\n";
}

std::string plot(const std::string& heading, const std::string& caption, const std::string& svg) {
  return fmt::format("<h2>{}</h2>\n<p>{}</p>\n<div class=\"plot\">\n{}</div>\n",
                     xml_escape(heading), xml_escape(caption), svg);
}

}  // namespace

std::string format_report_html(const nlohmann::json& summary, const std::string& title) {
  const nlohmann::json& rows = summary.at("problems");
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>kernelopt bench report: {}</title>\n<style>{}</style>\n</head>\n<body>\n"
      "<h1>kernelopt bench report: {}</h1>\n",
      xml_escape(title), kStyle, xml_escape(title));
  if (summary.value("baseline_only", false)) {
    out += fmt::format("<p class=\"note\"><b>Baseline-only run.</b> {}.</p>\n",
                       xml_escape(summary.value("note", "")));
  } else if (summary.contains("note") && summary.at("note").is_string()) {
    out += fmt::format("<p class=\"note\"><b>No replacement.</b> {}.</p>\n",
                       xml_escape(summary.at("note").get<std::string>()));
  }
  out += "<h2>Table 1: outcome classes</h2>\n" + html_table(table1(summary));
  out +=
      "<p>Geomean speedup over the problems that returned a module, fallbacks at their ratio; "
      "failed problems are counted apart. Baseline: <code>replay_ms</code>, the compiled graphs "
      "replayed as one CUDA graph with static inputs.</p>\n";
  out += plot("Speedup distribution", "Problems per speedup bin (failed problems have none).",
              speedup_histogram_svg(rows));
  out += plot("Speedup per problem",
              "Sorted by speedup, log axis; the bar runs from 1x to the speedup, the whisker is "
              "its interval, the colour its class.",
              speedup_bars_svg(rows));
  out += plot("Headroom before and after",
              "Summed launch time over the floor (segment floors plus non-Triton launch times), "
              "per problem, log axis; 1x is at the floor.",
              headroom_svg(rows));
  out += "<h2>Long tail</h2>\n" + html_table(long_tail_table(summary));
  out += "<h2>Dispatch classes (kernelopt show)</h2>\n" + html_table(dispatch_table(summary));
  if (!summary.at("overall").at("failure_reasons").empty()) {
    out += "<h2>Failures</h2>\n" + html_table(failure_table(summary));
  }
  out += "<h2>Cost</h2>\n" + html_table(cost_table(summary));
  if (const std::string wall = run_wall_text(summary); !wall.empty()) {
    out += "<p>" + xml_escape(wall) + "</p>\n";
  }
  if (summary.contains("nodes")) out += "<h3>By Ray node</h3>\n" + html_table(node_table(summary));
  out += "<h2>Problems</h2>\n" + html_table(problem_table(summary));
  return out + "</body>\n</html>\n";
}

}  // namespace kernelopt::report
