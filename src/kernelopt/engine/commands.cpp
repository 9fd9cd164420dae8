#include "kernelopt/engine/commands.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/deployed.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/optimize.hpp"
#include "kernelopt/propose/registry.hpp"
#include "kernelopt/report/show_text.hpp"
#include "kernelopt/report/verify_text.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

std::string json_name(const nlohmann::json& doc) {
  const std::string level =
      doc["level"].is_number() ? fmt::format("level{}_", doc["level"].get<int>()) : "";
  return level + doc.value("problem", "problem") + ".json";
}

std::string shape_text(const worker::TensorDescription& t) {
  if (!t.is_tensor) return t.python;
  return fmt::format("{} {}", t.dtype, nlohmann::json(t.shape).dump());
}

}  // namespace

int doctor_command() {
  worker::Worker worker(default_options());
  const DoctorReport report = format_doctor(run_doctor(worker), engine_binary());
  std::fputs(report.text.c_str(), stdout);
  return report.exit_code;
}

int show_command(const ShowCommand& command) {
  const bool many = command.problems.size() > 1;
  std::vector<nlohmann::json> docs;
  int status = 0;
  for (const std::string& problem : command.problems) {
    ShowOptions options = command.options;
    options.problem = problem;
    if (many && !options.run_dir.empty()) {
      options.run_dir = (fs::path(options.run_dir) / fs::path(problem).stem()).string();
    }
    try {
      worker::Worker worker(default_options());
      Progress progress;
      if (!command.quiet) {
        progress = [](const std::string& line) { std::fprintf(stderr, "... %s\n", line.c_str()); };
      }
      nlohmann::json doc = run_show(options, worker, progress);
      std::fputs(report::format_show(doc).c_str(), stdout);
      std::fflush(stdout);
      if (!command.json.empty()) {
        const fs::path path =
            many ? fs::path(command.json) / json_name(doc) : fs::path(command.json);
        write_file(path, doc.dump(1) + "\n");
      }
      docs.push_back(std::move(doc));
    } catch (const Error& error) {
      if (!many) throw;
      std::fprintf(stderr, "kernelopt: error: [%s] %s\n", error.tag().c_str(), error.what());
      if (status == 0) status = static_cast<int>(error.code());
    }
  }
  if (!command.markdown.empty()) write_file(command.markdown, report::format_show_table(docs));
  return status;
}

int verify_command(VerifyCommand command) {
  for (const auto& spec : command.candidates) {
    command.options.candidates.push_back(parse_candidate_spec(spec));
  }
  if (command.options.run_dir.empty()) {
    command.options.run_dir = (fs::path("runs") / (command.optimize ? "optimize" : "verify") /
                               fs::path(command.options.problem).stem())
                                  .string();
  }
  worker::Worker worker(pinned_options(command.options.run_dir));
  const Progress progress = [](const std::string& line) {
    std::fprintf(stderr, "... %s\n", line.c_str());
  };
  nlohmann::json doc = command.optimize ? run_optimize(command.options, worker, progress)
                                        : run_verify(command.options, worker, progress);
  if (command.optimize && command.deployed_iters > 0 && doc.contains("optimized")) {
    progress(
        "timing the written module as deployed: kernelopt.load against "
        "torch.compile(mode=\"max-autotune\"), in a fresh worker");
    doc["deployed"] =
        measure_deployed(worker, (fs::path(command.options.run_dir) / "optimized").string(),
                         command.deployed_iters, command.options.timeout, command.options.problem);
    write_file(fs::path(command.options.run_dir) / "optimize.json", doc.dump(1) + "\n");
  }
  if (!command.json.empty()) write_file(command.json, doc.dump(1) + "\n");
  std::fputs(report::format_verify(doc).c_str(), stdout);
  return doc.contains("optimized") || doc.contains("each") ? 0 : 1;
}

int table_command(const std::vector<std::string>& files) {
  std::vector<nlohmann::json> docs;
  for (const std::string& file : files) {
    std::ifstream in(file);
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (!in || doc.is_discarded() || doc.value("schema", "") != "kernelopt.show/1") {
      throw Error("kernelopt.input", fmt::format("{}: not a show document", file),
                  ExitCode::kUsage);
    }
    docs.push_back(std::move(doc));
  }
  std::fputs(report::format_show_table(docs).c_str(), stdout);
  return 0;
}

int match_command(const MatchCommand& command) {
  nlohmann::json doc = {{"schema", "kernelopt.match/1"}, {"files", nlohmann::json::array()}};
  std::string text;
  std::vector<std::pair<fs::path, std::string>> candidates;  // written once every file parsed
  // A folder stands for the output code under it: every graph_N.py (show's run folder keeps them
  // in graphs/; graph_N.timed.py is its instrumented copy), in name order.
  std::vector<std::string> files;
  for (const std::string& path : command.files) {
    if (!fs::is_directory(path)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(path)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && name.rfind("graph_", 0) == 0 &&
          entry.path().extension() == ".py" && name.find(".timed.") == std::string::npos) {
        found.push_back(entry.path().string());
      }
    }
    if (found.empty()) {
      throw Error("kernelopt.input", fmt::format("{}: no graph_N.py under this folder", path),
                  ExitCode::kUsage);
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  for (const std::string& file : files) {
    const std::string source = read_file(file);
    analysis::GraphRun run;
    try {
      run.code = inductor::parse_output_code(source);
    } catch (const Error& error) {
      throw Error("kernelopt.input",
                  fmt::format("{}: not Inductor output code ({})", file, error.what()),
                  ExitCode::kUsage);
    }
    analysis::AnalysisOptions options;
    options.split_launches = command.split_segments;
    const analysis::DispatchMap map = analysis::build_dispatch_map({run}, options);
    nlohmann::json segments = nlohmann::json::array();
    int triton = 0;
    for (const auto& launch : map.launches) {
      triton += launch.kind == analysis::LaunchKind::kTriton ? 1 : 0;
    }
    text += fmt::format("{}: {} launches ({} Triton), {} segments\n", file, map.launches.size(),
                        triton, map.segments.size());
    for (const analysis::Segment& seg : map.segments) {
      std::vector<std::string> names;
      for (const int index : seg.launches) {
        names.push_back(map.launches[static_cast<std::size_t>(index)].name);
      }
      nlohmann::json row = {{"segment", seg.id},
                            {"launches", names},
                            {"inputs", seg.inputs},
                            {"outputs", seg.outputs}};
      text += fmt::format("  segment {}: {}\n", seg.id, fmt::join(names, ", "));
      const auto matches = propose::match_strategies(run.code, map, seg);
      for (const auto& match : matches) {
        // Keyed "recipe", "config", "rewrite", "fuse", "split" or "retile"; named "recipe:NAME" or
        // the same.
        const std::string key = propose::proposer_of(match) == "recipe" ? "recipe" : match.recipe;
        row[key] = {{"name", propose::strategy_of(match)}, {"why", match.why}};
        text += fmt::format("    {}: {}\n", propose::strategy_of(match), match.why);
        if (match.params.contains("other_bases")) {  // a split's or retile's further bases
          std::vector<std::string> on;
          for (const auto& other : match.params.at("other_bases")) {
            on.push_back(other.at("on").get<std::string>());
          }
          row[key]["other_bases"] = on;
          text += fmt::format("      also on the {} launches (settings \"on\")\n",
                              fmt::join(on, " and "));
        }
        if (command.write.empty()) continue;
        const auto settings = propose::initial_settings(match);
        if (settings.empty()) continue;
        std::string name = propose::strategy_of(match);
        std::replace(name.begin(), name.end(), ':', '_');
        const fs::path path =
            fs::path(command.write) /
            fmt::format("{}_seg{}_{}.py", fs::path(file).stem().string(), seg.id, name);
        candidates.emplace_back(path, propose::source_of(match, seg.id, settings.front()));
        row[key]["candidate"] = path.string();
        row[key]["settings"] = settings.front();
        text +=
            fmt::format("      first candidate: {} {}\n", path.string(), settings.front().dump());
      }
      if (matches.empty()) text += "    nothing matches\n";
      segments.push_back(std::move(row));
    }
    doc["files"].push_back({{"file", file}, {"segments", segments}});
  }
  for (const auto& [path, source] : candidates) {
    write_file(path, source);
  }
  if (!command.json.empty()) write_file(command.json, doc.dump(2) + "\n");
  std::fputs(text.c_str(), stdout);
  return 0;
}

int check_command(const CheckCommand& command) {
  worker::Worker worker(default_options());
  handshake(worker);
  const worker::Loaded loaded =
      *raising_client(worker, command.problem)
           .load({fs::absolute(command.problem).string(), command.problem, command.device},
                 std::chrono::duration_cast<std::chrono::milliseconds>(command.timeout));
  std::string inputs;
  for (const auto& t : loaded.inputs) {
    inputs += (inputs.empty() ? "" : ", ") + shape_text(t);
  }
  std::string outputs;
  for (const auto& t : loaded.outputs) {
    outputs += (outputs.empty() ? "" : ", ") + shape_text(t);
  }
  std::printf("%s: ok on %s | %lld parameters | inputs: %s | outputs: %s\n",
              command.problem.c_str(), loaded.device.c_str(), loaded.parameters, inputs.c_str(),
              outputs.c_str());
  return 0;
}

}  // namespace kernelopt::engine
