// `kernelopt report`: reads a run's problem documents, summarizes them (report/summary.hpp) and
// writes the renderings; --compare puts several runs side by side.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/bench.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/report/report.hpp"
#include "kernelopt/report/summary.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

std::string run_label(const std::string& run_dir) {
  std::string label = run_dir;
  while (label.size() > 1 && label.back() == '/') {
    label.pop_back();
  }
  return label;
}

}  // namespace

std::vector<nlohmann::json> load_documents(const std::string& run_dir) {
  const fs::path dir = fs::path(run_dir) / "problems";
  if (!fs::is_directory(dir)) {
    throw Error("kernelopt.input",
                fmt::format("{}: not a bench run directory (no problems/ folder)", run_dir),
                ExitCode::kUsage);
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<nlohmann::json> docs;
  for (const fs::path& file : files) {
    std::ifstream in(file);
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() ||
        doc.value("schema", "") != "kernelopt.bench.problem/1") {
      throw Error("kernelopt.input",
                  fmt::format("{}: not a bench problem document (schema "
                              "kernelopt.bench.problem/1)",
                              file.string()),
                  ExitCode::kUsage);
    }
    docs.push_back(std::move(doc));
  }
  if (docs.empty()) {
    throw Error("kernelopt.input", fmt::format("{}: no problem documents yet", dir.string()),
                ExitCode::kUsage);
  }
  return docs;
}

nlohmann::json write_summary(const std::string& run_dir) {
  nlohmann::json summary = report::summarize(load_documents(run_dir));
  // `kernelopt remeasure`'s second timing of the accepted replacements, when it ran.
  const fs::path remeasured = fs::path(run_dir) / "remeasure.json";
  if (fs::is_regular_file(remeasured)) {
    nlohmann::json doc = nlohmann::json::parse(read_file(remeasured), nullptr, false);
    if (doc.is_object() && doc.contains("replacements")) {
      summary["remeasure"] = {{"samples", doc.value("samples", 0)},
                              {"slower", doc.value("slower", 0)},
                              {"replacements", doc.at("replacements")}};
    }
  }
  // The bench runs' own wall time (bench_runs.json), which the problems' wall seconds, added
  // up, exceed when problems ran side by side.
  const fs::path runs = fs::path(run_dir) / "bench_runs.json";
  if (fs::is_regular_file(runs)) {
    const nlohmann::json list = nlohmann::json::parse(read_file(runs), nullptr, false);
    if (list.is_array()) {
      double wall = 0;
      for (const auto& run : list) {
        wall += run.value("wall_seconds", 0.0);
      }
      summary["runs"] = {{"runs", list.size()}, {"wall_seconds", wall}};
    }
  }
  write_file(fs::path(run_dir) / "summary.json", summary.dump(1) + "\n");
  return summary;
}

void record_run(const std::string& run_dir,
                const std::string& executor,
                std::size_t problems,
                double wall_seconds) {
  const fs::path file = fs::path(run_dir) / "bench_runs.json";
  nlohmann::json list = fs::is_regular_file(file)
                            ? nlohmann::json::parse(read_file(file), nullptr, false)
                            : nlohmann::json::array();
  if (!list.is_array()) list = nlohmann::json::array();  // unreadable: start it again
  list.push_back({{"executor", executor}, {"problems", problems}, {"wall_seconds", wall_seconds}});
  write_file(file, list.dump(1) + "\n");
}

int report_command(const ReportCommand& command) {
  if (!command.compare) {
    if (command.run_dirs.size() != 1) {
      throw Error("kernelopt.usage",
                  "report takes one run directory (or --compare RUN_A RUN_B ...)",
                  ExitCode::kUsage);
    }
    const std::string& run_dir = command.run_dirs.front();
    const nlohmann::json summary = write_summary(run_dir);
    const std::string title = run_label(run_dir);
    write_file(fs::path(run_dir) / "report.md", report::format_report_md(summary, title));
    write_file(fs::path(run_dir) / "report.html", report::format_report_html(summary, title));
    std::printf("wrote %s, %s and %s\n", (fs::path(run_dir) / "summary.json").c_str(),
                (fs::path(run_dir) / "report.md").c_str(),
                (fs::path(run_dir) / "report.html").c_str());
    return 0;
  }
  if (command.run_dirs.size() < 2) {
    throw Error("kernelopt.usage", "report --compare needs at least two run directories",
                ExitCode::kUsage);
  }
  std::vector<std::pair<std::string, nlohmann::json>> runs;
  for (const std::string& run_dir : command.run_dirs) {
    runs.emplace_back(run_label(run_dir), report::summarize(load_documents(run_dir)));
  }
  const std::string text = report::format_compare_md(runs);
  std::fputs(text.c_str(), stdout);
  if (!command.output.empty()) write_file(command.output, text);
  return 0;
}

}  // namespace kernelopt::engine
