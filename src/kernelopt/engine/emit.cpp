#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/verify.hpp"
#include "kernelopt/recompose/patch.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

std::pair<int, std::string> parse_candidate_spec(const std::string& spec) {
  const auto eq = spec.find('=');
  std::string segment = eq == std::string::npos ? "" : spec.substr(0, eq);
  if (segment.rfind("seg", 0) == 0) segment = segment.substr(3);
  const bool digits =
      !segment.empty() && segment.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || eq + 1 >= spec.size()) {
    throw Error("kernelopt.usage",
                fmt::format("--candidate {}: expected SEGMENT=FILE, e.g. seg2=my_kernel.py", spec),
                ExitCode::kUsage);
  }
  return {std::stoi(segment), spec.substr(eq + 1)};
}

std::string emit_graph(const std::string& dir,
                       int graph,
                       const std::string& source,
                       const inductor::OutputCode& code,
                       const std::vector<gate::Candidate>& replaced) {
  fs::create_directories(dir);
  std::vector<recompose::Replacement> replacements;
  for (const auto& c : replaced) {
    if (c.face.graph != graph) continue;
    const std::string file = fmt::format("seg{}.py", c.segment);
    fs::copy_file(c.path, fs::path(dir) / file, fs::copy_options::overwrite_existing);
    replacements.push_back({c.face, file});
  }
  const fs::path module = fs::path(dir) / fmt::format("graph_{}.py", graph);
  write_file(module, recompose::substitute_segments(source, code, replacements));
  return module.string();
}

nlohmann::json write_optimized(const fs::path& dir,
                               const std::string& problem,
                               const nlohmann::json& captured,
                               const std::vector<std::string>& texts,
                               const std::vector<analysis::GraphRun>& runs,
                               const std::vector<gate::Candidate>& accepted,
                               const std::vector<std::string>& vendor,
                               const nlohmann::json& verdicts) {
  const fs::path tmp = dir.string() + ".tmp";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  nlohmann::json manifest;
  manifest["schema"] = "kernelopt.optimized/1";
  manifest["problem"] = "problem.py";
  manifest["mode"] = "max-autotune-no-cudagraphs";
  manifest["graphs"] = nlohmann::json::array();
  for (std::size_t g = 0; g < texts.size(); ++g) {
    emit_graph(tmp.string(), static_cast<int>(g), texts[g], runs[g].code, accepted);
    manifest["graphs"].push_back(fmt::format("graph_{}.py", g));
  }
  manifest["call_order"] = captured.value("call_order", nlohmann::json::array());
  manifest["segments"] = nlohmann::json::array();
  for (const auto& c : accepted) {
    manifest["segments"].push_back(c.segment);
  }
  // The vendor knobs the verified graphs ran under: kernelopt.load runs them under the same.
  manifest["vendor"] = vendor;
  manifest["outcome"] = verdicts.value("outcome", nlohmann::json::object());
  fs::copy_file(problem, tmp / "problem.py", fs::copy_options::overwrite_existing);
  // The worker's runtime record (environment, inputs, the graphs' argument bindings) travels
  // with the module: kernelopt.load checks and runs it.
  const std::string runtime = captured.value("runtime", std::string());
  if (!runtime.empty() && fs::is_regular_file(runtime)) {
    fs::copy_file(runtime, tmp / "runtime.json", fs::copy_options::overwrite_existing);
  }
  write_file(tmp / "manifest.json", manifest.dump(1) + "\n");
  fs::remove_all(dir);
  fs::rename(tmp, dir);
  return manifest;
}

}  // namespace kernelopt::engine
