// The workbench: load, capture, parse, probe; restored after a worker restart.
#include "kernelopt/engine/workbench.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/show.hpp"
#include "kernelopt/recompose/patch.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

Graphs parse_graphs(const nlohmann::json& captured, const VerifyOptions& options) {
  Graphs g;
  for (const auto& graph : captured.at("graphs")) {
    g.texts.push_back(read_file(graph.at("path").get<std::string>()));
    g.runs.push_back(parse_graph(graph, g.texts.back()));
  }
  g.map = analysis::build_dispatch_map(g.runs, analysis_options_of(options));
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
    worker::Client client = raising_client(worker, options.problem);
    const auto captured = *client.segment_capture(
        {graph, path.string(), ids.get<std::vector<int>>()},
        std::chrono::duration_cast<std::chrono::milliseconds>(options.timeout));
    for (const auto& s : captured) {
      tensors[s.id] = {{"inputs", s.inputs}, {"outputs", s.outputs}};
    }
  }
  return tensors;
}

// The graphs' replay and the GPU time the model spends outside its compiled graphs (eager code
// between graph breaks: the compiled model's GPU time less the replay, analysis::
// outside_graphs_ms). Timed once, right after the first capture, or taken from bench's baseline
// document (`options.baseline`, its show), which has timed both already; outside 0 where a time
// is unknown.
GraphsAndOutside time_outside_graphs(worker::Worker& worker,
                                     const VerifyOptions& options,
                                     const Progress& progress) {
  const nlohmann::json& show = options.baseline;
  if (show.is_object() && show.contains("replay_ms") && show.at("replay_ms").is_number()) {
    const auto outside = show.find("outside_graphs_ms");
    return {show.at("replay_ms").get<double>(),
            outside != show.end() && outside->is_number() ? outside->get<double>() : 0.0};
  }
  ShowOptions timing;
  timing.iters = 10;
  timing.timeout = options.timeout;
  nlohmann::json model;
  nlohmann::json replay;
  try {
    model = time_variant(worker, "compiled", "queued", timing, options.problem);
    replay = time_variant(worker, "replay", "synced", timing, options.problem);
  } catch (const std::exception& e) {
    // A model whose graphs cannot be replayed is no reason to stop here (G4 will say so for its
    // candidates); a worker that died is.
    if (!worker.running()) throw;
    if (progress) {
      progress(fmt::format("the time outside the compiled graphs is unknown: {}", e.what()));
    }
    return {};
  }
  const double graphs = replay.value("median_ms", 0.0);
  const double outside = analysis::outside_graphs_ms(graphs, model.value("median_ms", 0.0));
  if (outside > 0 && progress) {
    progress(
        fmt::format("{:.3f} ms of the model's {:.3f} ms of GPU time runs outside its compiled "
                    "graphs: ratios are the whole model's",
                    outside, model.value("median_ms", 0.0)));
  }
  return {graphs, outside};
}

store::Store open_store(const std::string& run_dir) {
  fs::create_directories(fs::path(run_dir) / "work");
  return store::Store::open(run_dir);
}

}  // namespace

analysis::AnalysisOptions analysis_options_of(const VerifyOptions& options) {
  analysis::AnalysisOptions out;
  out.dispatch_aware = options.dispatch_aware;
  out.split_launches = options.split_launches;
  return out;
}

namespace {}  // namespace

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
    nlohmann::json attempt = {
        {"segments", a.segments}, {"passed", a.passed()}, {"gates", outcomes_json(a.outcomes)}};
    if (!a.vendor.empty()) attempt["vendor"] = a.vendor;
    doc["attempts"].push_back(std::move(attempt));
  }
  doc["outcome"] = to_json(outcome);
  return doc;
}

std::vector<gate::Candidate> accepted_of(const gate::CascadeResult& result,
                                         const std::vector<gate::Candidate>& from) {
  std::vector<gate::Candidate> set;
  const auto& segs = result.attempts[*result.accepted].segments;
  for (const auto& c : from) {
    if (std::find(segs.begin(), segs.end(), c.segment) != segs.end()) set.push_back(c);
  }
  return set;
}

Workbench::Workbench(const VerifyOptions& options,
                     worker::Worker& worker,
                     Progress progress,
                     FacesOf faces_of)
    : options_(options),
      thresholds_(options.thresholds),
      worker_(worker),
      progress_(std::move(progress)),
      faces_of_(std::move(faces_of)),
      store_(open_store(options.run_dir)) {
  problem_id_ = store_.upsert_problem(fs::path(options.problem).stem().string(), options.problem);
  store_.set_problem_status(problem_id_, store::ProblemStatus::kRunning, "", "");
  prepare();
  const fs::path attempt_dir = fs::path(options.run_dir) / "work" / "recomposed";
  auto recompose = [this, attempt_dir](const std::vector<gate::Candidate>& set) {
    const fs::path dir = attempt_dir / std::to_string(attempt_++);
    gate::Recomposed out;
    for (std::size_t g = 0; g < graphs_.runs.size(); ++g) {
      out[static_cast<int>(g)] = emit_graph(dir.string(), static_cast<int>(g), graphs_.texts[g],
                                            graphs_.runs[g].code, set);
    }
    return out;
  };
  gate::GateContext context{
      &worker_,
      options_.problem,
      std::chrono::duration_cast<std::chrono::milliseconds>(options_.gate_timeout),
      thresholds_,
      [this] {
        if (!worker_.running() || worker_.starts() != prepared_) prepare();
      },
      nullptr};
  cascade_ = std::make_unique<gate::Cascade>(context, &store_, problem_id_, recompose);
}

void Workbench::keep_captured_seeds() {
  const auto& dropped = captured_.value("dropped_seeds", nlohmann::json::array());
  if (!dropped.is_array() || dropped.empty()) return;
  std::vector<int> kept;
  for (const auto& s : captured_.value("seeds", nlohmann::json::array())) {
    if (s.is_object() && s.contains("seed") && s.at("seed").is_number_integer()) {
      kept.push_back(s.at("seed").get<int>());
    }
  }
  for (const auto& d : dropped) {
    if (d.is_object()) {
      say(fmt::format("seed {} left out: {}", d.value("seed", -1), d.value("why", "")));
    }
  }
  thresholds_.seeds = kept;
}

void Workbench::say(const std::string& line) const {
  if (progress_) progress_(line);
}

void Workbench::prepare() {
  const fs::path work = fs::path(options_.run_dir) / "work";
  say(fmt::format("loading and compiling {} ({} seeds)", options_.problem,
                  thresholds_.seeds.size()));
  worker::Client client = raising_client(worker_, options_.problem);
  const auto deadline = std::chrono::duration_cast<std::chrono::milliseconds>(options_.timeout);
  (void)*client.load({fs::absolute(options_.problem).string(), options_.problem, "cuda"}, deadline);
  captured_ = client.capture({work.string(), thresholds_.seeds, true}, deadline)->document;
  keep_captured_seeds();
  Graphs fresh = parse_graphs(captured_, options_);
  if (prepared_ >= 0 && fresh.texts != graphs_.texts) {
    throw Error("kernelopt.capture",
                fmt::format("{}: recompiling after a worker restart gave different output code",
                            options_.problem));
  }
  graphs_ = std::move(fresh);
  if (prepared_ < 0) {
    outside_ = time_outside_graphs(worker_, options_, progress_);
    faces_ = faces_of_(graphs_);
  }
  if (faces_.empty()) return;
  say("capturing the segments' real inputs and outputs");
  tensors_ = probe(worker_, graphs_, faces_, work, options_);
  prepared_ = worker_.starts();
}

gate::Candidate Workbench::candidate(int segment, const std::string& path) const {
  gate::Candidate c;
  c.segment = segment;
  c.path = path.empty() ? path : fs::absolute(path).string();
  c.face = faces_.at(segment);
  c.tensors = tensors_.count(segment) != 0 ? tensors_.at(segment) : nullptr;
  return c;
}

void Workbench::finish(const nlohmann::json& doc,
                       const std::string& name,
                       const std::string& outcome_class,
                       const std::string& detail) {
  store_.set_problem_status(problem_id_, store::ProblemStatus::kDone, outcome_class, detail);
  write_file(fs::path(options_.run_dir) / name, doc.dump(1) + "\n");
}

nlohmann::json finish_run(const VerifyOptions& options,
                          Workbench& bench,
                          const gate::CascadeResult& result,
                          const std::vector<gate::Candidate>& candidates,
                          const std::function<void(nlohmann::json&)>& add,
                          const std::string& file) {
  const Graphs& graphs = bench.graphs();
  const ProblemOutcome outcome = classify_problem(graphs.map.problem_class, result);
  nlohmann::json doc = result_json(result, outcome);
  if (bench.outside().outside_ms > 0) {
    doc["outside_graphs_ms"] = bench.outside().outside_ms;
    to_whole_model(doc["outcome"], bench.outside().graphs_ms, bench.outside().outside_ms);
  }
  doc["problem"] = options.problem;
  doc["segments"] = graphs.map.segments.size();
  if (add) add(doc);
  if (result.accepted) {
    doc["optimized"] =
        write_optimized(fs::path(options.run_dir) / "optimized", options.problem, bench.captured(),
                        graphs.texts, graphs.runs, accepted_of(result, candidates),
                        result.attempts[*result.accepted].vendor, doc);
  }
  bench.finish(doc, file, outcome.outcome_class, outcome.reason);
  return doc;
}

}  // namespace kernelopt::engine
