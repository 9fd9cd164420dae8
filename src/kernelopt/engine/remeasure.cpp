#include "kernelopt/engine/remeasure.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/bench.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/show.hpp"
#include "kernelopt/gate/gate.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

nlohmann::json read_json(const fs::path& path) {
  nlohmann::json doc = nlohmann::json::parse(read_file(path), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    throw Error("kernelopt.input", fmt::format("{}: not a JSON object", path.string()),
                ExitCode::kUsage);
  }
  return doc;
}

// One target: load the problem copy in the optimized folder, capture the compiled baseline,
// replay it interleaved with the recomposed graphs.
nlohmann::json time_target(const RemeasureTarget& target,
                           const RemeasureCommand& command,
                           worker::Worker& worker) {
  const fs::path dir = target.optimized_dir;
  const nlohmann::json manifest = read_json(dir / "manifest.json");
  const fs::path problem = dir / manifest.at("problem").get<std::string>();
  handshake(worker);
  require_gpu(worker, "kernelopt remeasure");
  worker::Client client = raising_client(worker, target.problem);
  client.load({fs::absolute(problem).string(), target.problem, "cuda"}, command.timeout);
  const fs::path work = fs::path(command.run_dir) / "remeasure" / fs::path(target.problem).stem();
  fs::create_directories(work);
  client.capture({fs::absolute(work).string(), {0}, false}, command.timeout);
  worker::RecomposedGraphs recomposed;
  const auto& graphs = manifest.at("graphs");
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    recomposed[static_cast<int>(i)] = fs::absolute(dir / graphs[i].get<std::string>()).string();
  }
  // The vendor knobs the graphs were verified under, where the manifest names any.
  const auto vendor = manifest.value("vendor", std::vector<std::string>{});
  const worker::PairTiming timed =
      *client.time_pair({recomposed, command.samples, 5, vendor, std::nullopt}, command.timeout);
  // Judged as G4 judges: the same samples check, ratio of medians and interval.
  const Outcome perf = gate::judge_performance(timed, gate::Thresholds{});
  if (perf.status == Status::kRaised) {
    throw Error("kernelopt.worker",
                fmt::format("{}: {} ({})", target.problem, perf.detail,
                            timed.error ? timed.error->kind + ": " + timed.error->message
                                        : std::string("the worker reported no error")));
  }
  const double high = perf.numbers.at("ratio_high").get<double>();
  return {{"problem", target.problem},
          {"first", target.first},
          {"ratio", perf.numbers.at("ratio")},
          {"ratio_low", perf.numbers.at("ratio_low")},
          {"ratio_high", high},
          {"baseline_median_ms", timed.baseline_median_ms},
          {"candidate_median_ms", timed.candidate_median_ms},
          {"samples", timed.baseline_ms.size()},
          {"instances", timed.instances},
          {"baseline_instance_median_ms", timed.baseline_instance_median_ms},
          {"candidate_instance_median_ms", timed.candidate_instance_median_ms},
          {"slower", high < 1.0}};
}

}  // namespace

std::vector<RemeasureTarget> remeasure_targets(const std::string& run_dir) {
  const fs::path root = run_dir;
  std::vector<RemeasureTarget> out;
  if (fs::is_regular_file(root / "optimized" / "manifest.json")) {
    const nlohmann::json manifest = read_json(root / "optimized" / "manifest.json");
    out.push_back({root.filename().string(), (root / "optimized").string(),
                   manifest.value("outcome", nlohmann::json())});
    return out;
  }
  if (!fs::is_directory(root / "problems")) {
    throw Error("kernelopt.usage",
                fmt::format("remeasure: {} holds neither optimized/ (an optimize or verify run) "
                            "nor problems/ (a bench run)",
                            run_dir),
                ExitCode::kUsage);
  }
  for (const nlohmann::json& doc : load_documents(run_dir)) {
    const nlohmann::json outcome = doc.value("outcome", nlohmann::json::object());
    const std::string cls = outcome.value("class", "");
    if (cls != "optimized" && cls != "matched (optimized)") continue;
    // The search folder is named as the problem's document (bench_task).
    const BenchProblem problem{doc.value("level", 0), doc.value("number", 0),
                               doc.value("problem", ""), ""};
    const std::string name = fs::path(problem.document_name()).stem().string();
    const fs::path optimized = root / "search" / name / "optimized";
    if (!fs::is_regular_file(optimized / "manifest.json")) {
      throw Error(
          "kernelopt.input",
          fmt::format("remeasure: {} was accepted but {} is missing", name, optimized.string()),
          ExitCode::kUsage);
    }
    out.push_back({name, optimized.string(), outcome});
  }
  return out;
}

nlohmann::json earlier_row(const nlohmann::json& earlier,
                           const RemeasureTarget& target,
                           int samples) {
  if (!earlier.is_object() || earlier.value("schema", "") != "kernelopt.remeasure/1" ||
      earlier.value("samples", 0) != samples || !earlier.contains("replacements") ||
      !earlier.at("replacements").is_array()) {
    return nullptr;
  }
  for (const nlohmann::json& row : earlier.at("replacements")) {
    if (row.is_object() && row.value("problem", "") == target.problem &&
        row.value("first", nlohmann::json()) == target.first && row.contains("ratio")) {
      return row;
    }
  }
  return nullptr;
}

int remeasure_command(const RemeasureCommand& command) {
  const std::vector<RemeasureTarget> targets = remeasure_targets(command.run_dir);
  const fs::path path = fs::path(command.run_dir) / "remeasure.json";
  nlohmann::json earlier;
  if (!command.again && fs::is_regular_file(path)) {
    earlier = nlohmann::json::parse(read_file(path), nullptr, false);
  }
  nlohmann::json rows = nlohmann::json::array();
  int slower = 0;
  const auto document = [&] {
    return nlohmann::json{{"schema", "kernelopt.remeasure/1"},
                          {"run_dir", command.run_dir},
                          {"samples", command.samples},
                          {"replacements", rows},
                          {"slower", slower}};
  };
  for (const RemeasureTarget& target : targets) {
    nlohmann::json row = earlier_row(earlier, target, command.samples);
    const bool kept = !row.is_null();
    if (!kept) {
      // A fresh worker per target, with the run's Inductor cache: the baseline compiles to the
      // module the first run measured.
      worker::Worker worker(pinned_options(command.run_dir));
      row = time_target(target, command, worker);
    }
    const bool is_slower = row.value("slower", false);
    slower += is_slower ? 1 : 0;
    // Re-measured over the compiled graphs, as G4 measured: where optimize turned G4's ratio into
    // the whole model's (GPU time outside the graphs), the first ratio shown is G4's own.
    const bool over_graphs = target.first.contains("graphs_ratio");
    const std::string first_key = over_graphs ? "graphs_ratio" : "ratio";
    const std::string first =
        target.first.contains(first_key) && target.first.at(first_key).is_number()
            ? fmt::format("{:.3f}x{}", target.first.at(first_key).get<double>(),
                          over_graphs ? " (over the graphs)" : "")
            : std::string("-");
    const int instances = row.value("instances", 1);
    const std::string captures =
        instances > 1 ? fmt::format(", {} captures of each side", instances) : std::string();
    fmt::print("{}: first {}, again {:.3f}x [{:.3f}, {:.3f}]{}{}{}\n", target.problem, first,
               row.at("ratio").get<double>(), row.value("ratio_low", 0.0),
               row.value("ratio_high", 0.0), captures,
               is_slower ? "  SLOWER than the baseline" : "",
               kept ? " (kept from the earlier re-measurement)" : "");
    rows.push_back(std::move(row));
    // Written after every target: a run killed between two keeps what it timed.
    write_file(path, document().dump(1) + "\n");
  }
  if (targets.empty()) {
    fmt::print("{}: no accepted replacement to re-measure\n", command.run_dir);
  }
  const nlohmann::json doc = document();
  write_file(path, doc.dump(1) + "\n");
  if (!command.json.empty()) write_file(command.json, doc.dump(1) + "\n");
  return slower == 0 ? 0 : 1;
}

}  // namespace kernelopt::engine
