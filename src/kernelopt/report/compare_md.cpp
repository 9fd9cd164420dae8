#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/report/report.hpp"
#include "kernelopt/report/tables.hpp"

namespace kernelopt::report {

namespace {

using Runs = std::vector<std::pair<std::string, nlohmann::json>>;

// The aggregate of `level` (0: overall) in a summary, or null when the run has no such level.
nlohmann::json group(const nlohmann::json& summary, int level) {
  if (level == 0) return summary.at("overall");
  for (const auto& g : summary.at("levels")) {
    if (g.at("level") == level) return g;
  }
  return nullptr;
}

std::string class_count(const nlohmann::json& g, const char* cls) {
  return g.is_null() ? "-" : std::to_string(g.at("classes").value(cls, 0));
}

std::string group_table(const Runs& runs, int level) {
  std::vector<std::string> header = {"metric"};
  std::vector<nlohmann::json> groups;
  for (const auto& [label, summary] : runs) {
    header.push_back(label);
    groups.push_back(group(summary, level));
  }
  std::vector<std::vector<std::string>> rows;
  auto add = [&](const std::string& metric, auto&& text) {
    std::vector<std::string> row = {metric};
    for (const auto& g : groups) {
      row.push_back(g.is_null() ? "-" : text(g));
    }
    rows.push_back(std::move(row));
  };
  add("problems", [](const auto& g) { return std::to_string(g.value("problems", 0)); });
  for (const char* cls :
       {"optimized", "matched (optimized)", "matched (synthesis failed)", "fallback", "failed"}) {
    add(cls, [cls](const auto& g) { return class_count(g, cls); });
  }
  add("geomean speedup", [](const auto& g) { return times_text(g.at("geomean_speedup")); });
  add("optimized rate", [](const auto& g) { return percent_text(g.at("optimized_rate")); });
  add("geomean (optimized only)",
      [](const auto& g) { return times_text(g.at("geomean_speedup_optimized")); });
  add(">= 5x / 2x-5x / 1.01x-2x", [](const auto& g) {
    const auto& t = g.at("long_tail");
    return fmt::format("{} / {} / {}", t.value("ge_5x", 0), t.value("2x_to_5x", 0),
                       t.value("1.01x_to_2x", 0));
  });
  add("GPU-hours", [](const auto& g) { return number_text(g.at("gpu_hours"), 3); });
  add("LLM tokens", [](const auto& g) { return std::to_string(g.value("llm_tokens", 0)); });
  // Which vendor knobs won problems (--vendor): "none" where the stage kept none.
  add("vendor knobs won", [](const auto& g) {
    std::vector<std::string> won;
    // A named copy: items() keeps a reference to it for the whole loop.
    const nlohmann::json knobs = g.value("vendor_knobs_won", nlohmann::json::object());
    for (const auto& [knob, n] : knobs.items()) {
      won.push_back(fmt::format("{} {}", knob, n.template get<int>()));
    }
    return won.empty() ? std::string("none") : fmt::format("{}", fmt::join(won, ", "));
  });
  return markdown_table(header, rows);
}

std::string problem_table(const Runs& runs) {
  using Key = std::tuple<int, int, std::string>;
  std::map<Key, std::vector<nlohmann::json>> by_problem;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (const auto& r : runs[i].second.at("problems")) {
      const Key key{r.value("level", 0), r["number"].is_number() ? r["number"].get<int>() : 0,
                    r.value("problem", "?")};
      auto& cells = by_problem[key];
      cells.resize(runs.size());
      cells[i] = r;
    }
  }
  std::vector<std::string> header = {"level", "problem"};
  for (const auto& [label, summary] : runs) {
    header.push_back(label + ": class");
    header.push_back(label + ": speedup");
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& [key, cells] : by_problem) {
    std::vector<std::string> row = {std::to_string(std::get<0>(key)), std::get<2>(key)};
    for (const auto& r : cells) {
      row.push_back(r.is_null() ? "-" : r.value("class", "?"));
      row.push_back(r.is_null() ? "-" : times_text(r["speedup"]));
    }
    rows.push_back(std::move(row));
  }
  return markdown_table(header, rows);
}

}  // namespace

std::string format_compare_md(const Runs& runs) {
  std::string out = "# kernelopt bench comparison\n\n";
  std::set<int> levels;
  for (const auto& [label, summary] : runs) {
    out +=
        fmt::format("- **{}**: {} problems{}\n", label, summary.at("overall").value("problems", 0),
                    summary.value("baseline_only", false) ? ", baseline-only" : "");
    for (const auto& g : summary.at("levels")) {
      levels.insert(g.at("level").get<int>());
    }
  }
  out += "\n## Overall\n\n" + group_table(runs, 0);
  for (const int level : levels) {
    out += fmt::format("\n## Level {}\n\n", level) + group_table(runs, level);
  }
  out += "\n## Problems\n\n" + problem_table(runs);
  return out;
}

}  // namespace kernelopt::report
