// The verify pipeline. The worker captures and measures; the engine finds the segments, decides
// what to probe, judges every gate and writes the optimized module.
#include "kernelopt/engine/verify.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/outcome_class.hpp"
#include "kernelopt/gate/cascade.hpp"
#include "kernelopt/profile/ncu.hpp"
#include "kernelopt/recompose/patch.hpp"
#include "kernelopt/search/recipe_match.hpp"
#include "kernelopt/search/roles.hpp"
#include "kernelopt/store/store.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

// How many runner-ups per segment the confirmation tries after the choice (each costs one G4).
constexpr std::size_t kRunnerUps = 2;

struct Graphs {
  std::vector<analysis::GraphRun> runs;
  std::vector<std::string> texts;
  analysis::DispatchMap map;
};

// The analysis the run's segments come from: dispatch-aware or not, split into launches or not.
analysis::AnalysisOptions analysis_options_of(const VerifyOptions& options) {
  analysis::AnalysisOptions out;
  out.dispatch_aware = options.dispatch_aware;
  out.split_launches = options.split_launches;
  return out;
}

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

// The graphs' replay and the GPU time the model spends outside its compiled graphs (eager code
// between graph breaks: the compiled model's GPU time less the replay, analysis::
// outside_graphs_ms). Timed once, right after the first capture, or taken from bench's baseline
// document (`options.baseline`, its show), which has timed both already; outside 0 where a time
// is unknown.
struct GraphsAndOutside {
  double graphs_ms = 0;
  double outside_ms = 0;
};

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

// The proposers' first step: which recipe matches each segment (at most one), whether the
// config proposer can relaunch its kernel, whether the rewrite proposer can make it one pass, and
// what was said about every segment. A segment's strategies are its matches: "recipe:NAME",
// "config", "rewrite", "fuse", "split" and "retile".
std::map<int, std::vector<search::RecipeMatch>> match_segments(
    const Graphs& g, const std::map<int, std::string>& skip, nlohmann::json& said) {
  std::map<int, std::vector<search::RecipeMatch>> out;
  said = nlohmann::json::array();
  for (const analysis::Segment& seg : g.map.segments) {
    if (const auto why = skip.find(seg.id); why != skip.end()) {
      said.push_back({{"segment", seg.id}, {"recipe", nullptr}, {"skipped", why->second}});
      continue;
    }
    nlohmann::json row = {{"segment", seg.id}, {"recipe", nullptr}};
    for (auto& match : search::match_strategies(g.runs[seg.graph].code, g.map, seg)) {
      if (search::proposer_of(match) == "recipe") {
        row["recipe"] = match.recipe;
        row["params"] = match.params;
        row["why"] = match.why;
      } else {
        row[match.recipe] = match.why;  // "config", "rewrite", "fuse", "split" or "retile"
      }
      out[seg.id].push_back(std::move(match));
    }
    said.push_back(std::move(row));
  }
  return out;
}

// The profiler's times: each segment's time, floor and share, from the baseline's show document
// when the caller has one, else measured now (every launch timed, the copy bandwidth measured);
// `launches` gets the launches' own (name, time_ms, floor_ms, as the show document lists them).
std::map<int, search::SegmentProfile> profile_segments(worker::Worker& worker,
                                                       const nlohmann::json& captured,
                                                       const VerifyOptions& options,
                                                       nlohmann::json& launches) {
  std::map<int, search::SegmentProfile> out;
  const auto from = [&](const nlohmann::json& seg) {
    out[seg.at("id").get<int>()] = search::segment_profile(seg);
  };
  if (options.baseline.is_object() && options.baseline.contains("segments")) {
    for (const auto& seg : options.baseline.at("segments")) {
      from(seg);
    }
    launches = options.baseline.value("launches", nlohmann::json::array());
    return out;
  }
  ShowOptions timing;
  timing.iters = 20;
  timing.timeout = options.timeout;
  std::vector<analysis::GraphRun> runs;
  for (const auto& graph : captured.at("graphs")) {
    runs.push_back(time_graph(worker, graph, timing, options.problem));
  }
  analysis::AnalysisOptions analysis_options = analysis_options_of(options);
  analysis_options.bandwidth_gbps = copy_bandwidth_gbps(worker);
  analysis_options.fp32_gflops =
      fp32_peak_gflops(ask(worker, {{"op", "env"}}, options.timeout, options.problem));
  const nlohmann::json map =
      analysis::to_json(analysis::build_dispatch_map(runs, analysis_options));
  for (const auto& seg : map.at("segments")) {
    from(seg);
  }
  launches = map.value("launches", nlohmann::json::array());
  return out;
}

// The kernels whose counters the search reads: a segment's counters are those of its longest
// kernel, so each searched segment's longest timed launch (all its launches when none was timed).
std::vector<std::string> counter_kernels(
    const std::map<int, std::vector<search::RecipeMatch>>& matches,
    const analysis::DispatchMap& map,
    const nlohmann::json& timed_launches) {
  std::vector<std::string> names;
  for (const auto& [id, offered] : matches) {
    const analysis::Segment& seg = map.segments[static_cast<std::size_t>(id)];
    std::string longest;
    double most = -1;
    for (const int launch : seg.launches) {
      const auto index = static_cast<std::size_t>(launch);
      const std::string& name = map.launches[index].name;
      if (index >= timed_launches.size() || timed_launches[index].value("name", "") != name ||
          !timed_launches[index].contains("time_ms")) {
        continue;
      }
      const double t = timed_launches[index].at("time_ms").get<double>();
      if (t > most) {
        most = t;
        longest = name;
      }
    }
    if (!longest.empty()) {
      names.push_back(longest);
      continue;
    }
    for (const int launch : seg.launches) {
      names.push_back(map.launches[static_cast<std::size_t>(launch)].name);
    }
  }
  return names;
}

// The candidates of `from` in the set the cascade accepted (it may have dropped some segments).
std::vector<gate::Candidate> accepted_of(const gate::CascadeResult& result,
                                         const std::vector<gate::Candidate>& from) {
  std::vector<gate::Candidate> set;
  const auto& segs = result.attempts[*result.accepted].segments;
  for (const auto& c : from) {
    if (std::find(segs.begin(), segs.end(), c.segment) != segs.end()) set.push_back(c);
  }
  return set;
}

// A single candidate's cascade as the summarizer records it.
search::Attempt attempt_of(const gate::CascadeResult& result) {
  search::Attempt a;
  a.correct = true;
  const auto note = [&](const Outcome& o) {
    if (o.ok() || !a.failed_gate.empty()) return;
    a.failed_gate = o.gate;
    a.reason = o.detail;
    if (o.gate.rfind("G4", 0) != 0) a.correct = false;  // G4 says slower, not wrong
  };
  for (const auto& c : result.candidates) {
    for (const auto& o : c.outcomes) {
      note(o);
    }
  }
  if (!result.attempts.empty()) {
    for (const auto& o : result.attempts.front().outcomes) {
      note(o);
      if (o.gate.rfind("G4", 0) == 0 && o.numbers.contains("ratio") &&
          o.numbers.at("ratio").is_number()) {
        search::read_timing(o.numbers, a);
      }
    }
  } else if (a.failed_gate.empty()) {
    a.correct = false;  // never reached the model gates
  }
  a.accepted = result.accepted.has_value();
  return a;
}

}  // namespace

void apply_search_flags(const SearchFlags& flags, VerifyOptions& options) {
  options.beam.width = flags.no_beam ? 1 : flags.beam_width;
  options.beam.diversity = !flags.no_beam;
  options.beam.rounds = flags.rounds;
  options.beam.budget_s = flags.budget_s;
  options.memory = !flags.no_memory;
  options.counters = !flags.no_profile;
  if (flags.no_perf_gate) options.thresholds.min_ratio = 0.0;
  options.dispatch_aware = !flags.no_dispatch_aware;
  options.split_launches = flags.split_segments;
}

std::string search_flags_text(const SearchFlags& flags) {
  const SearchFlags defaults;
  std::string text;
  if (flags.no_perf_gate) text += " --no-perf-gate";
  if (flags.no_beam) text += " --no-beam";
  if (!flags.no_beam && flags.beam_width != defaults.beam_width) {
    text += fmt::format(" --beam-width {}", flags.beam_width);
  }
  if (flags.rounds != defaults.rounds) text += fmt::format(" --rounds {}", flags.rounds);
  if (flags.budget_s != defaults.budget_s) text += fmt::format(" --budget {:g}", flags.budget_s);
  if (flags.no_profile) text += " --no-profile";
  if (flags.no_memory) text += " --no-memory";
  if (flags.no_dispatch_aware) text += " --no-dispatch-aware";
  if (flags.split_segments) text += " --split-segments";
  return text.empty() ? text : text.substr(1);
}

std::optional<std::chrono::seconds> counters_limit(double left_s, std::chrono::seconds timeout) {
  if (left_s < kMinCountersBudgetS) return std::nullopt;
  return std::min({timeout, std::chrono::seconds(120),
                   std::chrono::seconds(static_cast<std::int64_t>(left_s / 2))});
}

double search_budget(const VerifyOptions& options, std::chrono::steady_clock::time_point now) {
  if (!options.deadline) return options.beam.budget_s;
  const double left =
      std::chrono::duration<double>(*options.deadline - now).count() - kDeadlineMarginSeconds;
  return std::clamp(left, 0.0, options.beam.budget_s);
}

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
  GraphsAndOutside outside;  // GPU time outside the compiled graphs (analysis::outside_graphs_ms)
  nlohmann::json proposals = nlohmann::json::array();  // optimize: what the proposer said
  Graphs graphs;
  std::map<int, recompose::SegmentInterface> faces;
  std::vector<gate::Candidate> candidates;
  std::map<int, std::vector<search::RecipeMatch>> matches;  // optimize: segment -> its strategies
  std::map<int, nlohmann::json> segment_tensors;            // the probed tensors, by segment
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
    Graphs fresh = parse_graphs(captured, options);
    if (prepared >= 0 && fresh.texts != graphs.texts) {
      throw Error("kernelopt.capture",
                  fmt::format("{}: recompiling after a worker restart gave different output code",
                              options.problem));
    }
    graphs = std::move(fresh);
    if (prepared < 0) outside = time_outside_graphs(worker, options, progress);
    if (options.propose) {
      if (prepared < 0) {
        say("matching recipes to the segments");
        matches = match_segments(graphs, options.skip, proposals);
      }
      for (const auto& [id, offered] : matches) {
        const analysis::Segment& seg = graphs.map.segments[static_cast<std::size_t>(id)];
        faces[id] = recompose::segment_interface(graphs.runs[seg.graph].code, graphs.map, seg);
      }
      if (faces.empty()) return;
    } else if (candidates.empty()) {
      candidates =
          make_candidates(options.problem, options.candidates, options.each, graphs, faces);
    }
    say("capturing the segments' real inputs and outputs");
    segment_tensors = probe(worker, graphs, faces, run_dir / "work", options);
    for (auto& c : candidates) {
      c.tensors = segment_tensors.count(c.segment) != 0 ? segment_tensors.at(c.segment) : nullptr;
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
      &worker,
      options.problem,
      std::chrono::duration_cast<std::chrono::milliseconds>(options.gate_timeout),
      options.thresholds,
      [&] {
        if (!worker.running() || worker.starts() != prepared) prepare();
      },
      nullptr};
  gate::Cascade cascade(context, &store, problem_id, recompose);
  std::vector<gate::Candidate> chosen;  // optimize: the fastest accepted candidate per segment
  // optimize: per segment, the next accepted candidates by ratio, tried in turn when the
  // confirmation does not confirm the choice
  std::map<int, std::vector<gate::Candidate>> runner_ups;
  nlohmann::json tried = nlohmann::json::array();
  nlohmann::json searched = nlohmann::json::array();
  search::Memory memory(options.memory);
  nlohmann::json counters_note = "off (--no-profile)";  // optimize: what the profiler's ncu gave
  if (options.propose) {
    // The budget counts the worker's time from here: profiling, ncu and every candidate.
    const auto start = std::chrono::steady_clock::now();
    const auto spent = [start] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    search::BeamOptions beam_options = options.beam;
    beam_options.budget_s = search_budget(options, start);
    if (!matches.empty()) say("profiling the segments");
    nlohmann::json timed_launches = nlohmann::json::array();
    auto profiles = matches.empty() ? std::map<int, search::SegmentProfile>{}
                                    : profile_segments(worker, captured, options, timed_launches);
    // A whole segment's launches, ordered by what each could give, for the search's neighbours.
    for (auto& [id, offered] : matches) {
      search::set_launch_potentials(offered, graphs.map.segments[static_cast<std::size_t>(id)],
                                    graphs.map, timed_launches);
    }
    // Nsight Compute replays the model once per kernel: with little of the budget left (a long
    // compile against the problem's deadline) the counters would leave nothing for candidates
    // (L3/27 in session 11: 38 s left, all spent before the first candidate). ncu then gets at
    // most half of what is left, and is skipped under a minute.
    const double left_s = beam_options.budget_s - spent();
    const auto ncu_limit = counters_limit(left_s, options.timeout);
    if (options.counters && !matches.empty() && !ncu_limit) {
      counters_note = fmt::format("skipped: {:.0f} s of the search's budget left, under {:.0f} s",
                                  left_s, kMinCountersBudgetS);
      say(counters_note.get<std::string>());
    } else if (options.counters && !matches.empty()) {
      say("reading the Triton kernels' counters with Nsight Compute");
      // Where the profiled forward finds no room beside the worker's captures, the worker goes
      // (the gates' ensure_ready loads the problem again from the run's Inductor cache): before
      // the first run where the worker's own peak would not fit in what is free beside it, else
      // after a run that ran out of memory.
      const auto release = [&] {
        if (!worker.running()) return false;
        say("stopping the worker so that the profiled forward gets the GPU to itself");
        worker.kill();
        return true;
      };
      nlohmann::json env = nlohmann::json::object();
      try {
        env = ask(worker, {{"op", "env"}}, options.timeout, options.problem);
      } catch (const std::exception& e) {  // unknown: the out-of-memory retry still stands
        say(fmt::format("the worker's memory is unknown: {}", e.what()));
      }
      const double free_b = env.value("free_memory_bytes", 0.0);
      const double peak_b = env.value("peak_memory_bytes", 0.0);
      const profile::NcuProfile ncu = profile::run_ncu_with_room(
          worker.options(), options.problem, (run_dir / "work" / "ncu").string(), *ncu_limit,
          counter_kernels(matches, graphs.map, timed_launches), release,
          profile::ncu_needs_room(free_b, peak_b));
      // The amounts go into every note: where a run still fails, the note says what was free.
      const std::string room =
          free_b > 0 && peak_b > 0
              ? fmt::format("{:.1f} GB free beside the worker, its peak {:.1f} GB", free_b / 1e9,
                            peak_b / 1e9)
              : std::string("the worker's memory unknown");
      const std::string stopped =
          ncu.released_first ? fmt::format(" (the worker stopped first: {})", room)
          : ncu.retried
              ? fmt::format(" (a second run, the worker stopped: the first ran out of memory; {})",
                            room)
              : fmt::format(" ({})", room);
      counters_note = (ncu.error.empty() ? fmt::format("{} kernel(s) in {:.1f} s",
                                                       ncu.kernels.size(), ncu.seconds)
                                         : ncu.error) +
                      stopped;
      // A segment's counters are those of its longest profiled kernel.
      for (auto& [id, p] : profiles) {
        const analysis::Segment& seg = graphs.map.segments[static_cast<std::size_t>(id)];
        for (const int launch : seg.launches) {
          const auto it = ncu.kernels.find(graphs.map.launches[launch].name);
          if (it == ncu.kernels.end()) continue;
          if (!p.counters || it->second.duration_us > p.counters->duration_us) {
            p.counters = it->second;
          }
        }
      }
    }
    // Largest segments first: the budget is for the whole problem.
    std::vector<int> order;
    order.reserve(matches.size());
    for (const auto& [id, offered] : matches) {
      order.push_back(id);
    }
    const auto time_of = [&](int id) {
      return profiles.count(id) != 0 ? profiles.at(id).time_ms : 0.0;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return time_of(a) > time_of(b); });
    int written = 0;
    bool timed_correct = false;  // a correct candidate reached G4
    // The problem's budget is split among its segments by what each could give (potential_ms):
    // the largest first, and a segment's unspent share passes on, so one segment's beam does not
    // take the whole budget from the others (L3/27, session 11: 120 s on one segment of five).
    std::map<int, double> potential;  // a segment without a profile: 0
    double remaining_potential = 0;
    for (const int id : order) {
      if (profiles.count(id) != 0) potential[id] = search::potential_ms(profiles.at(id));
      remaining_potential += potential[id];
    }
    const double problem_budget_s = beam_options.budget_s;
    for (const int id : order) {
      const std::vector<search::RecipeMatch>& offered = matches.at(id);
      const auto match_of = [&](const std::string& strategy) -> const search::RecipeMatch& {
        for (const auto& m : offered) {
          if (search::strategy_of(m) == strategy) return m;
        }
        return offered.front();  // the beam only proposes strategies it was given
      };
      search::SegmentProfile profile;
      profile.segment = id;
      if (profiles.count(id) != 0) profile = profiles.at(id);
      search::Analysis analysis = search::analyze(profile);
      if (graphs.map.segments[static_cast<std::size_t>(id)].extern_call) {
        // --no-dispatch-aware: a vendor matrix product has no memory floor and ncu reads only
        // Triton kernels; its arithmetic bounds it.
        analysis.bottleneck = search::Bottleneck::kComputeBound;
        analysis.why = fmt::format("{:.3f} ms, an extern matrix product: bound by its arithmetic",
                                   profile.time_ms);
      }
      std::map<std::string, std::string> proposers;  // strategy -> its proposer
      for (const auto& m : offered) {
        proposers[search::strategy_of(m)] = search::proposer_of(m);
      }
      std::vector<std::string> dropped;
      const auto strategies = search::plan(analysis, proposers, memory, &dropped);
      std::map<std::string, gate::Candidate> by_settings;  // strategy + settings -> candidate
      const auto key = [](const search::Proposal& p) {
        return p.strategy + " " + p.settings.dump();
      };
      search::BeamHooks hooks;
      hooks.initial = [&](const std::string& strategy) {
        return search::recipe_settings(match_of(strategy));
      };
      hooks.neighbours = [&](const search::Proposal& p) {
        return search::recipe_neighbours(match_of(p.strategy), p.settings);
      };
      hooks.evaluate = [&](const search::Proposal& p) {
        const search::RecipeMatch& match = match_of(p.strategy);
        const fs::path file =
            run_dir / "candidates" /
            fmt::format("seg{}_{}_r{}_{}.py", id, match.recipe, p.round, written++);
        write_file(file, search::candidate_source(match, id, p.settings));
        const std::string& strategy = p.strategy;
        const gate::Candidate c{id, fs::absolute(file).string(), faces.at(id),
                                segment_tensors.count(id) != 0 ? segment_tensors.at(id) : nullptr};
        say(fmt::format("seg{} round {}: {} {}", id, p.round, strategy, p.settings.dump()));
        const gate::CascadeResult r = cascade.run({c});
        nlohmann::json entry = result_json(r, classify_problem(graphs.map.problem_class, r));
        entry["strategy"] = strategy;
        entry["settings"] = p.settings;
        entry["round"] = p.round;
        tried.push_back(std::move(entry));
        by_settings[key(p)] = c;
        search::Attempt a = attempt_of(r);
        timed_correct = timed_correct || (a.correct && a.ratio);
        if (a.accepted && !search::measurably_faster(a)) {
          // G4 lets a candidate within 3% of the baseline pass (noise); the search keeps only
          // what is measurably faster, so a replacement is never chosen for being as slow.
          a.accepted = false;
          a.failed_gate = "search";
          a.reason = fmt::format(
              "passed G4 at {:.3f}x [{:.3f}, ...]{}, not measurably faster than the baseline "
              "(needs >= {:.2f}x, an interval above 1.0 and its slowest capture faster than the "
              "baseline's fastest)",
              a.ratio.value_or(0.0), a.ratio_low.value_or(0.0),
              a.ratio_worst_capture
                  ? fmt::format(", slowest capture against fastest {:.3f}x", *a.ratio_worst_capture)
                  : std::string(),
              search::kMinSpeedup);
        }
        return a;
      };
      hooks.spent = spent;
      std::vector<std::string> names;
      names.reserve(strategies.size());
      for (const auto& st : strategies) {
        names.push_back(st.name);
      }
      say(fmt::format("seg{}: {} ({}); strategies: {}", id, search::to_string(analysis.bottleneck),
                      analysis.why,
                      names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
      const double now = spent();
      search::BeamOptions segment_options = beam_options;
      segment_options.budget_s =
          now + search::budget_share(problem_budget_s - now, potential[id], remaining_potential);
      remaining_potential -= potential[id];
      const search::BeamResult beam =
          search::beam_search(id, strategies, hooks, segment_options, memory);
      nlohmann::json row = {{"segment", id},
                            {"bottleneck", search::to_string(analysis.bottleneck)},
                            {"analysis", analysis.why},
                            {"strategies", nlohmann::json::array()},
                            {"dropped", dropped},
                            {"evaluated", beam.scored.size()},
                            {"rounds", beam.rounds_run},
                            {"stopped", beam.stopped},
                            {"budget_s", segment_options.budget_s - now},
                            {"spent_s", spent() - now},
                            {"best", nullptr}};
      for (const auto& s : strategies) {
        row["strategies"].push_back({{"name", s.name}, {"why", s.why}});
      }
      if (beam.best) {
        row["best"] = {{"strategy", beam.best->proposal.strategy},
                       {"settings", beam.best->proposal.settings},
                       {"round", beam.best->proposal.round},
                       {"ratio", beam.best->attempt.ratio.value_or(0.0)}};
        chosen.push_back(by_settings.at(key(beam.best->proposal)));
        for (const auto& r : search::runner_ups(beam, kRunnerUps)) {
          runner_ups[id].push_back(by_settings.at(key(r.proposal)));
        }
      }
      searched.push_back(std::move(row));
    }
    if (chosen.empty()) {
      // Nothing proposed or nothing accepted: the compiler's module stays, as its own class says.
      const gate::CascadeResult none{};
      const ProblemOutcome outcome = classify_problem(graphs.map.problem_class, none);
      // The class of the search as a whole: a correct candidate that was timed and not chosen
      // makes it a performance-gate fallback; otherwise the last candidate's class says why.
      nlohmann::json verdict = tried.empty() ? to_json(outcome) : tried.back().at("outcome");
      if (timed_correct) {
        verdict =
            to_json(ProblemOutcome{"fallback", "rejected by the performance gate", {}, {}, {}});
      }
      nlohmann::json doc = {{"problem", options.problem},
                            {"segments", graphs.map.segments.size()},
                            {"proposals", proposals},
                            {"counters", counters_note},
                            {"search", searched},
                            {"memory", memory.summary()},
                            {"tried", tried},
                            {"outcome", verdict}};
      store.set_problem_status(problem_id, store::ProblemStatus::kDone,
                               doc["outcome"].value("class", outcome.outcome_class),
                               doc["outcome"].value("reason", outcome.reason));
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
  gate::CascadeResult result = cascade.run(candidates);
  nlohmann::json confirmation;
  if (options.propose && result.accepted && options.thresholds.min_ratio > 0.0) {
    // The search chose the best of many timed candidates: time the choice again (fresh
    // captures) and keep it only if that measurement is measurably faster too. If it is not,
    // the runner-ups take their turn (each segment's next accepted candidate by ratio), each
    // timed again the same way; the first confirmed set is kept, else the first verdict stays.
    const auto confirm = [&](gate::CascadeResult& r, const std::vector<gate::Candidate>& set) {
      const Outcome again = cascade.confirm(set);
      const bool confirmed = confirm_choice(r, again);
      nlohmann::json files = nlohmann::json::array();
      for (const auto& c : set) {
        files.push_back(c.path);
      }
      say(fmt::format("{}: {}", confirmed ? "confirmed" : "not confirmed", again.detail));
      return std::pair{confirmed, nlohmann::json{{"confirmed", confirmed},
                                                 {"status", to_string(again.status)},
                                                 {"detail", again.detail},
                                                 {"candidates", files},
                                                 {"numbers", again.numbers}}};
    };
    say("timing the chosen replacement again (confirmation)");
    auto [confirmed, first] = confirm(result, accepted_of(result, candidates));
    confirmation = {{"choice", first}, {"runner_ups", nlohmann::json::array()}};
    for (std::size_t k = 0; !confirmed && k < kRunnerUps; ++k) {
      std::vector<gate::Candidate> next;
      for (const auto& [segment, list] : runner_ups) {
        if (k < list.size()) next.push_back(list[k]);
      }
      if (next.empty()) break;
      say(fmt::format("not confirmed: the runner-up{} {} in turn", next.size() > 1 ? "s" : "",
                      k + 1));
      gate::CascadeResult retry = cascade.run(next);
      nlohmann::json entry = {{"accepted", retry.accepted.has_value()}};
      if (retry.accepted) {
        auto [ok, again] = confirm(retry, accepted_of(retry, next));
        entry = std::move(again);
        entry["accepted"] = true;
        if (ok) {
          confirmed = true;
          result = std::move(retry);
          candidates = next;
        }
      }
      confirmation["runner_ups"].push_back(std::move(entry));
    }
    confirmation["confirmed"] = confirmed;
  }
  const ProblemOutcome outcome = classify_problem(graphs.map.problem_class, result);
  nlohmann::json doc = result_json(result, outcome);
  if (outside.outside_ms > 0) {
    doc["outside_graphs_ms"] = outside.outside_ms;
    to_whole_model(doc["outcome"], outside.graphs_ms, outside.outside_ms);
  }
  doc["problem"] = options.problem;
  doc["segments"] = graphs.map.segments.size();
  if (options.propose) {
    doc["proposals"] = proposals;
    doc["counters"] = counters_note;
    doc["search"] = searched;
    doc["memory"] = memory.summary();
    doc["tried"] = tried;
    if (!confirmation.is_null()) doc["confirmation"] = confirmation;
  }
  if (result.accepted) {
    doc["optimized"] =
        write_optimized(run_dir / "optimized", options.problem, captured, graphs.texts, graphs.runs,
                        accepted_of(result, candidates), doc);
  }
  store.set_problem_status(problem_id, store::ProblemStatus::kDone, outcome.outcome_class,
                           outcome.reason);
  write_file(run_dir / (options.propose ? "optimize.json" : "verify.json"), doc.dump(1) + "\n");
  return doc;
}

}  // namespace kernelopt::engine
