// The verify pipeline: hand-written candidates through the gates. The worker captures and
// measures; the engine finds the segments, decides what to probe, judges every gate and writes
// the optimized module.
#include "kernelopt/engine/verify.hpp"

#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/outcome_class.hpp"
#include "kernelopt/engine/workbench.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

// The interfaces of the segments `files` (segment -> candidate file) replace, checked: each
// segment exists, each file exists, one file a segment unless `several` (verify --each).
std::map<int, recompose::SegmentInterface> faces_of(
    const std::string& problem,
    const std::vector<std::pair<int, std::string>>& files,
    bool several,
    const Graphs& g) {
  std::map<int, recompose::SegmentInterface> faces;
  std::set<int> seen;
  for (const auto& [segment, path] : files) {
    if (segment < 0 || segment >= static_cast<int>(g.map.segments.size())) {
      throw Error("kernelopt.usage",
                  fmt::format("{}: no segment {} (the problem has {}; see `kernelopt show`)",
                              problem, segment, g.map.segments.size()),
                  ExitCode::kUsage);
    }
    if (!seen.insert(segment).second && !several) {
      throw Error("kernelopt.usage", fmt::format("two candidates for segment {}", segment),
                  ExitCode::kUsage);
    }
    if (!fs::is_regular_file(path)) {
      throw Error("kernelopt.usage", fmt::format("{}: no such candidate file", path),
                  ExitCode::kUsage);
    }
    const analysis::Segment& seg = g.map.segments[segment];
    faces[segment] = recompose::segment_interface(g.runs[seg.graph].code, g.map, seg);
  }
  return faces;
}

}  // namespace

nlohmann::json run_verify(const VerifyOptions& options,
                          worker::Worker& worker,
                          const Progress& progress) {
  if (!fs::is_regular_file(options.problem)) {
    throw Error("kernelopt.problem", fmt::format("{}: no such file", options.problem),
                ExitCode::kProblem);
  }
  handshake(worker);
  require_gpu(worker, "kernelopt verify");
  Workbench bench(options, worker, progress, [&](const Graphs& graphs) {
    return faces_of(options.problem, options.candidates, options.each, graphs);
  });
  std::vector<gate::Candidate> candidates;
  for (const auto& [segment, path] : options.candidates) {
    candidates.push_back(bench.candidate(segment, path));
  }
  const analysis::ProblemClass problem_class = bench.graphs().map.problem_class;
  if (options.each) {
    if (progress) progress("running the gates on each candidate alone");
    nlohmann::json each = nlohmann::json::array();
    for (const auto& c : candidates) {
      const gate::CascadeResult one = bench.cascade().run({c});
      each.push_back(result_json(one, classify_problem(problem_class, one)));
    }
    nlohmann::json doc = {{"problem", options.problem},
                          {"segments", bench.graphs().map.segments.size()},
                          {"each", each}};
    bench.finish(doc, "verify.json", "", "each candidate alone");
    return doc;
  }
  if (progress) progress("running the gates");
  const gate::CascadeResult result = bench.cascade().run(candidates);
  return finish_run(options, bench, result, candidates, nullptr, "verify.json");
}

}  // namespace kernelopt::engine
