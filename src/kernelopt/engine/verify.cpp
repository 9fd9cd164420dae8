// The verify pipeline. The worker captures and measures; the engine finds the segments, decides
// what to probe, judges every gate and writes the optimized module.
#include "kernelopt/engine/verify.hpp"

#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/outcome_class.hpp"
#include "kernelopt/gate/cascade.hpp"
#include "kernelopt/recompose/patch.hpp"
#include "kernelopt/search/recipe_match.hpp"
#include "kernelopt/store/store.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

struct Graphs {
  std::vector<analysis::GraphRun> runs;
  std::vector<std::string> texts;
  analysis::DispatchMap map;
};

Graphs parse_graphs(const nlohmann::json& captured) {
  Graphs g;
  for (const auto& graph : captured.at("graphs")) {
    g.texts.push_back(read_file(graph.at("path").get<std::string>()));
    g.runs.push_back(parse_graph(graph, g.texts.back()));
  }
  g.map = analysis::build_dispatch_map(g.runs, {});
  return g;
}

// Probes the segments that have candidates and returns their tensors, by segment.
std::map<int, nlohmann::json> probe(worker::Worker& worker,
                                    const Graphs& g,
                                    const std::map<int, recompose::SegmentInterface>& faces,
                                    const fs::path& dir,
                                    const VerifyOptions& options) {
  std::map<int, std::vector<recompose::SegmentInterface>> by_graph;
  for (const auto& [id, face] : faces) {
    by_graph[face.graph].push_back(face);
  }
  std::map<int, nlohmann::json> tensors;
  for (const auto& [graph, list] : by_graph) {
    const fs::path path = dir / fmt::format("graph_{}.probed.py", graph);
    write_file(path, recompose::probe_segments(g.texts[graph], g.runs[graph].code, list));
    nlohmann::json ids = nlohmann::json::array();
    for (const auto& face : list) {
      ids.push_back(face.segment);
    }
    const nlohmann::json response = ask(
        worker,
        {{"op", "segment_capture"}, {"graph", graph}, {"path", path.string()}, {"segments", ids}},
        options.timeout, options.problem);
    for (const auto& s : response.at("segments")) {
      tensors[s.at("id").get<int>()] = {{"inputs", s.at("inputs")}, {"outputs", s.at("outputs")}};
    }
  }
  return tensors;
}

// `files` (segment -> candidate file) as gate candidates; `several` allows more than one per
// segment (verify --each, optimize).
std::vector<gate::Candidate> make_candidates(const std::string& problem,
                                             const std::vector<std::pair<int, std::string>>& files,
                                             bool several,
                                             const Graphs& g,
                                             std::map<int, recompose::SegmentInterface>& faces) {
  std::vector<gate::Candidate> candidates;
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
    candidates.push_back({segment, fs::absolute(path).string(), faces[segment], nullptr});
  }
  return candidates;
}

nlohmann::json outcomes_json(const std::vector<Outcome>& outcomes) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& o : outcomes) {
    list.push_back(to_json(o));
  }
  return list;
}

nlohmann::json result_json(const gate::CascadeResult& result, const ProblemOutcome& outcome) {
  nlohmann::json doc;
  doc["candidates"] = nlohmann::json::array();
  for (const auto& c : result.candidates) {
    doc["candidates"].push_back({{"segment", c.candidate.segment},
                                 {"file", c.candidate.path},
                                 {"passed", c.passed()},
                                 {"gates", outcomes_json(c.outcomes)}});
  }
  doc["attempts"] = nlohmann::json::array();
  for (const auto& a : result.attempts) {
    doc["attempts"].push_back(
        {{"segments", a.segments}, {"passed", a.passed()}, {"gates", outcomes_json(a.outcomes)}});
  }
  doc["outcome"] = to_json(outcome);
  return doc;
}

// The recipe proposer: candidate files for the segments a recipe matches, and what it said about
// every segment.
std::vector<std::pair<int, std::string>> propose(const Graphs& g,
                                                 const fs::path& dir,
                                                 const std::map<int, std::string>& skip,
                                                 nlohmann::json& said) {
  std::vector<std::pair<int, std::string>> out;
  said = nlohmann::json::array();
  for (const analysis::Segment& seg : g.map.segments) {
    if (const auto why = skip.find(seg.id); why != skip.end()) {
      said.push_back(
          {{"segment", seg.id}, {"recipe", nullptr}, {"candidates", 0}, {"skipped", why->second}});
      continue;
    }
    const auto match = search::match_recipe(g.runs[seg.graph].code, g.map, seg);
    if (!match) {
      said.push_back({{"segment", seg.id}, {"recipe", nullptr}, {"candidates", 0}});
      continue;
    }
    const auto settings = search::recipe_settings(*match);
    for (std::size_t i = 0; i < settings.size(); ++i) {
      const fs::path file = dir / fmt::format("seg{}_{}_{}.py", seg.id, match->recipe, i);
      write_file(file, search::candidate_source(*match, seg.id, settings[i]));
      out.emplace_back(seg.id, file.string());
    }
    said.push_back({{"segment", seg.id},
                    {"recipe", match->recipe},
                    {"params", match->params},
                    {"why", match->why},
                    {"candidates", settings.size()}});
  }
  return out;
}

// The accepted candidate with the highest ratio, per segment, from `each`'s results.
std::vector<gate::Candidate> fastest_accepted(const std::vector<gate::Candidate>& candidates,
                                              const std::vector<gate::CascadeResult>& results) {
  std::map<int, std::pair<double, gate::Candidate>> best;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!results[i].accepted) continue;
    const auto& perf = results[i].attempts[*results[i].accepted].outcomes.back();
    const double ratio = perf.numbers.value("ratio", 0.0);
    auto it = best.find(candidates[i].segment);
    if (it == best.end() || ratio > it->second.first) {
      best[candidates[i].segment] = {ratio, candidates[i]};
    }
  }
  std::vector<gate::Candidate> chosen;
  chosen.reserve(best.size());
  for (const auto& [segment, entry] : best) {
    chosen.push_back(entry.second);
  }
  return chosen;
}

}  // namespace

nlohmann::json run_verify(const VerifyOptions& options,
                          worker::Worker& worker,
                          const Progress& progress) {
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  if (!fs::is_regular_file(options.problem)) {
    throw Error("kernelopt.problem", fmt::format("{}: no such file", options.problem),
                ExitCode::kProblem);
  }
  handshake(worker);
  require_gpu(worker, "kernelopt verify");
  const fs::path run_dir = options.run_dir;
  fs::create_directories(run_dir / "work");
  store::Store store = store::Store::open(run_dir.string());
  const std::int64_t problem_id =
      store.upsert_problem(fs::path(options.problem).stem().string(), options.problem);
  store.set_problem_status(problem_id, store::ProblemStatus::kRunning, "", "");
  // The worker's state: the loaded problem, its capture and the segments' tensors. A candidate
  // that hangs or crashes the worker takes that state with it; prepare() restores it.
  nlohmann::json captured;
  nlohmann::json proposals = nlohmann::json::array();  // optimize: what the proposer said
  Graphs graphs;
  std::map<int, recompose::SegmentInterface> faces;
  std::vector<gate::Candidate> candidates;
  int prepared = -1;  // worker.starts() when the state was last made
  auto prepare = [&] {
    say(fmt::format("loading and compiling {} ({} seeds)", options.problem,
                    options.thresholds.seeds.size()));
    ask(worker,
        {{"op", "load"},
         {"problem", fs::absolute(options.problem).string()},
         {"label", options.problem},
         {"device", "cuda"}},
        options.timeout, options.problem);
    captured = ask(worker,
                   {{"op", "capture"},
                    {"run_dir", (run_dir / "work").string()},
                    {"seeds", options.thresholds.seeds},
                    {"references", true}},
                   options.timeout, options.problem);
    Graphs fresh = parse_graphs(captured);
    if (prepared >= 0 && fresh.texts != graphs.texts) {
      throw Error("kernelopt.capture",
                  fmt::format("{}: recompiling after a worker restart gave different output code",
                              options.problem));
    }
    graphs = std::move(fresh);
    if (candidates.empty() && options.propose) {
      say("matching recipes to the segments");
      const auto files = propose(graphs, run_dir / "candidates", options.skip, proposals);
      if (files.empty()) return;
      candidates =
          make_candidates(options.problem, files, true, graphs, faces);  // several settings
    } else if (candidates.empty()) {
      candidates =
          make_candidates(options.problem, options.candidates, options.each, graphs, faces);
    }
    say("capturing the segments' real inputs and outputs");
    const auto tensors = probe(worker, graphs, faces, run_dir / "work", options);
    for (auto& c : candidates) {
      c.tensors = tensors.count(c.segment) != 0 ? tensors.at(c.segment) : nullptr;
    }
    prepared = worker.starts();
  };
  prepare();

  const fs::path attempt_dir = run_dir / "work" / "recomposed";
  int attempt = 0;
  auto recompose = [&](const std::vector<gate::Candidate>& set) {
    const fs::path dir = attempt_dir / std::to_string(attempt++);
    gate::Recomposed out;
    for (std::size_t g = 0; g < graphs.runs.size(); ++g) {
      out[static_cast<int>(g)] =
          emit_graph(dir.string(), static_cast<int>(g), graphs.texts[g], graphs.runs[g].code, set);
    }
    return out;
  };
  gate::GateContext context{
      &worker, options.problem,
      std::chrono::duration_cast<std::chrono::milliseconds>(options.gate_timeout),
      options.thresholds, [&] {
        if (!worker.running() || worker.starts() != prepared) prepare();
      }};
  gate::Cascade cascade(context, &store, problem_id, recompose);
  std::vector<gate::Candidate> chosen;  // optimize: the fastest accepted candidate per segment
  nlohmann::json tried = nlohmann::json::array();
  if (options.propose) {
    say(fmt::format("{} candidate(s) from recipes; the gates on each alone", candidates.size()));
    std::vector<gate::CascadeResult> results;
    for (const auto& c : candidates) {
      results.push_back(cascade.run({c}));
      tried.push_back(
          result_json(results.back(), classify_problem(graphs.map.problem_class, results.back())));
    }
    chosen = fastest_accepted(candidates, results);
    if (chosen.empty()) {
      // Nothing proposed or nothing accepted: the compiler's module stays, as its own class says.
      const gate::CascadeResult none = results.empty() ? gate::CascadeResult{} : results.back();
      const ProblemOutcome outcome = classify_problem(graphs.map.problem_class, none);
      nlohmann::json doc = {{"problem", options.problem},
                            {"segments", graphs.map.segments.size()},
                            {"proposals", proposals},
                            {"tried", tried},
                            {"outcome", to_json(outcome)}};
      store.set_problem_status(problem_id, store::ProblemStatus::kDone, outcome.outcome_class,
                               outcome.reason);
      write_file(run_dir / "optimize.json", doc.dump(1) + "\n");
      return doc;
    }
    candidates = chosen;
  }
  if (options.each) {
    say("running the gates on each candidate alone");
    nlohmann::json each = nlohmann::json::array();
    for (const auto& c : candidates) {
      const gate::CascadeResult one = cascade.run({c});
      each.push_back(result_json(one, classify_problem(graphs.map.problem_class, one)));
    }
    nlohmann::json doc = {
        {"problem", options.problem}, {"segments", graphs.map.segments.size()}, {"each", each}};
    store.set_problem_status(problem_id, store::ProblemStatus::kDone, "", "each candidate alone");
    write_file(run_dir / "verify.json", doc.dump(1) + "\n");
    return doc;
  }
  say("running the gates");
  const gate::CascadeResult result = cascade.run(candidates);
  const ProblemOutcome outcome = classify_problem(graphs.map.problem_class, result);
  nlohmann::json doc = result_json(result, outcome);
  doc["problem"] = options.problem;
  doc["segments"] = graphs.map.segments.size();
  if (options.propose) {
    doc["proposals"] = proposals;
    doc["tried"] = tried;
  }
  if (result.accepted) {
    std::vector<gate::Candidate> accepted;
    for (const auto& c : candidates) {
      const auto& segs = result.attempts[*result.accepted].segments;
      if (std::find(segs.begin(), segs.end(), c.segment) != segs.end()) accepted.push_back(c);
    }
    doc["optimized"] = write_optimized(run_dir / "optimized", options.problem, captured,
                                       graphs.texts, graphs.runs, accepted, doc);
  }
  store.set_problem_status(problem_id, store::ProblemStatus::kDone, outcome.outcome_class,
                           outcome.reason);
  write_file(run_dir / (options.propose ? "optimize.json" : "verify.json"), doc.dump(1) + "\n");
  return doc;
}

}  // namespace kernelopt::engine
