// The optimize loop (optimize.hpp). Its stages, in order: match (which proposers apply to each
// segment), prepare (load, capture, probe: the workbench), profile (times, floors, counters),
// then per segment, largest first, with its share of the budget: reuse (a verified replacement
// from the cache, re-checked by the gates) or search (plan, propose, gate, record, observe);
// then the chosen set through the gates together, timed again (confirmation, with the
// runner-ups), and emitted.
#include "kernelopt/engine/optimize.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/outcome_class.hpp"
#include "kernelopt/engine/profiling.hpp"
#include "kernelopt/engine/reuse.hpp"
#include "kernelopt/engine/segment_search.hpp"
#include "kernelopt/propose/registry.hpp"
#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

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
  options.use_cache = !flags.no_cache;
  options.cache_dir = flags.cache_dir;
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
  if (flags.no_cache) text += " --no-cache";
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

namespace {

// The proposers' first step: which recipe matches each segment (at most one), whether the
// config proposer can relaunch its kernel, whether the rewrite proposer can make it one pass, and
// what was said about every segment. A segment's strategies are its matches: "recipe:NAME",
// "config", "rewrite", "fuse", "split" and "retile".
std::map<int, std::vector<propose::Match>> match_segments(const Graphs& g,
                                                          const std::map<int, std::string>& skip,
                                                          nlohmann::json& said) {
  std::map<int, std::vector<propose::Match>> out;
  said = nlohmann::json::array();
  for (const analysis::Segment& seg : g.map.segments) {
    if (const auto why = skip.find(seg.id); why != skip.end()) {
      said.push_back({{"segment", seg.id}, {"recipe", nullptr}, {"skipped", why->second}});
      continue;
    }
    nlohmann::json row = {{"segment", seg.id}, {"recipe", nullptr}};
    for (auto& match : propose::match_strategies(g.runs[seg.graph].code, g.map, seg)) {
      if (propose::proposer_of(match) == "recipe") {
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

// What the loop gathers for the document, beside the workbench's verdicts.
struct Search {
  nlohmann::json proposals = nlohmann::json::array();  // what the proposers said of each segment
  nlohmann::json counters = "off (--no-profile)";
  nlohmann::json searched = nlohmann::json::array();  // per segment: analysis, strategies, best
  nlohmann::json tried = nlohmann::json::array();     // every judged candidate
  std::vector<gate::Candidate> chosen;                // per segment, its best
  std::map<int, std::vector<gate::Candidate>> runner_ups;
  bool timed_correct = false;     // a correct candidate reached G4
  nlohmann::json memory_summary;  // the summarizer's: per segment and strategy
  // What the cache records of a judged candidate, by its file: the segment's fingerprint, who
  // made it, its settings and G4's numbers.
  std::map<std::string, store::VerifiedSegment> judged;
  std::map<int, std::string> fingerprints;  // by segment, where the cache is on
};

// The cache's row for a judged candidate, or nullopt when it did not get through G4.
std::optional<store::VerifiedSegment> verified_of(const Measured& m, const std::string& fp) {
  if (!m.attempt.ratio) return std::nullopt;
  store::VerifiedSegment v;
  v.fingerprint = fp;
  v.proposer = m.candidate.origin.proposer;
  v.strategy = m.proposal.strategy;
  v.settings = m.proposal.settings;
  v.ratio = *m.attempt.ratio;
  v.ratio_low = m.attempt.ratio_low.value_or(*m.attempt.ratio);
  return v;
}

// The measure callbacks: the document's list of judged candidates, the proposer's observe.
std::vector<MeasureCallback> measure_callbacks(Search& s,
                                               ProposerSet& proposers,
                                               const Graphs& graphs) {
  return {
      [&s, &graphs](const Measured& m) {
        nlohmann::json entry =
            result_json(m.result, classify_problem(graphs.map.problem_class, m.result));
        entry["strategy"] = m.proposal.strategy;
        entry["settings"] = m.proposal.settings;
        entry["round"] = m.proposal.round;
        s.tried.push_back(std::move(entry));
      },
      [&proposers](const Measured& m) {
        if (propose::Proposer* p = proposers.find(m.match.recipe)) {
          p->observe(m.match, m.proposal.settings, m.attempt);
        }
      },
      [&s](const Measured& m) {
        const auto fp = s.fingerprints.find(m.candidate.segment);
        if (fp == s.fingerprints.end()) return;
        if (auto v = verified_of(m, fp->second)) s.judged[m.candidate.path] = std::move(*v);
      },
  };
}

// The cache's verified candidates for the segment, best first (at most two), each through the
// gates again in this run: the first accepted and measurably faster one is the segment's choice,
// with no search. Returns whether one was.
bool reuse_cached(const store::Cache& cache,
                  const SegmentTask& task,
                  Workbench& bench,
                  const std::vector<MeasureCallback>& callbacks,
                  Search& s,
                  const Progress& progress) {
  const int id = task.segment;
  const auto hits = cache.lookup(s.fingerprints.at(id));
  const auto start = std::chrono::steady_clock::now();
  const analysis::Segment& segment = bench.graphs().map.segments[static_cast<std::size_t>(id)];
  for (std::size_t k = 0; k < hits.size() && k < 2; ++k) {
    const store::VerifiedSegment& hit = hits[k];
    const fs::path file = task.candidates_dir / fmt::format("seg{}_cached_{}.py", id, k);
    write_file(file, reused_source(hit, segment));
    if (progress) {
      progress(fmt::format("seg{}: a verified {} {} from the cache ({:.3f}x when recorded)", id,
                           hit.strategy, hit.settings.dump(), hit.ratio));
    }
    gate::Candidate c = bench.candidate(id, file.string());
    c.origin = {hit.proposer, hit.strategy, hit.settings};
    const gate::CascadeResult r = bench.cascade().run({c});
    search::Attempt a = attempt_of(r);
    require_measurable_gain(a);
    const std::string name =
        hit.strategy.rfind("recipe:", 0) == 0 ? hit.strategy.substr(7) : hit.strategy;
    const propose::Match match{name, nlohmann::json::object(), "from the cache"};
    const search::Proposal proposal{id, hit.strategy, hit.settings, 0};
    for (const auto& callback : callbacks) {
      callback(Measured{match, proposal, c, r, a});
    }
    if (!a.accepted) continue;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    s.chosen.push_back(c);
    s.searched.push_back({{"segment", id},
                          {"reused",
                           {{"fingerprint", hit.fingerprint},
                            {"strategy", hit.strategy},
                            {"settings", hit.settings},
                            {"recorded_ratio", hit.ratio},
                            {"found_on", hit.problem},
                            {"seconds", seconds}}},
                          {"evaluated", k + 1},
                          {"best",
                           {{"strategy", hit.strategy},
                            {"settings", hit.settings},
                            {"round", 0},
                            {"ratio", a.ratio.value_or(0.0)}}}});
    return true;
  }
  return false;
}

// Searches every matched segment, largest first. The problem's budget is split among its
// segments by what each could give (potential_ms): a segment's unspent share passes on, so one
// segment's beam does not take the whole budget from the others (L3/27: 120 s on one segment of
// five).
void search_segments(const VerifyOptions& options,
                     Workbench& bench,
                     std::optional<store::Cache>& cache,
                     const nlohmann::json& env,
                     const std::map<int, std::vector<propose::Match>>& matches,
                     const Profiles& profiles,
                     const std::function<double()>& spent,
                     double problem_budget_s,
                     Search& s,
                     const Progress& progress) {
  std::vector<int> order;
  order.reserve(matches.size());
  for (const auto& [id, offered] : matches) {
    order.push_back(id);
  }
  const auto time_of = [&](int id) {
    return profiles.segments.count(id) != 0 ? profiles.segments.at(id).time_ms : 0.0;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return time_of(a) > time_of(b); });
  std::map<int, double> potential;  // a segment without a profile: 0
  double remaining_potential = 0;
  for (const int id : order) {
    if (profiles.segments.count(id) != 0) {
      potential[id] = search::potential_ms(profiles.segments.at(id));
    }
    remaining_potential += potential[id];
  }
  ProposerSet proposers;
  search::Memory memory(options.memory);
  const auto callbacks = measure_callbacks(s, proposers, bench.graphs());
  int written = 0;
  for (const int id : order) {
    SegmentTask task;
    task.segment = id;
    task.offered = &matches.at(id);
    task.profile.segment = id;
    if (profiles.segments.count(id) != 0) task.profile = profiles.segments.at(id);
    task.beam = options.beam;
    const double now = spent();
    task.beam.budget_s =
        now + search::budget_share(problem_budget_s - now, potential[id], remaining_potential);
    remaining_potential -= potential[id];
    task.candidates_dir = fs::path(options.run_dir) / "candidates";
    if (cache) {
      s.fingerprints[id] = segment_fingerprint(bench.graphs(), bench.candidate(id, ""), env);
      if (reuse_cached(*cache, task, bench, callbacks, s, progress)) continue;
    }
    SegmentResult r =
        search_segment(task, bench, proposers, memory, spent, callbacks, written, progress);
    s.timed_correct = s.timed_correct || r.timed_correct;
    if (r.best) {
      s.chosen.push_back(*r.best);
      s.runner_ups[id] = std::move(r.runner_ups);
    }
    s.searched.push_back(std::move(r.row));
  }
  s.memory_summary = memory.summary();
}

// The search chose the best of many timed candidates: time the choice again (fresh captures)
// and keep it only if that measurement is measurably faster too. If it is not, the runner-ups
// take their turn (each segment's next accepted candidate by ratio), each timed again the same
// way; the first confirmed set is kept, else the first verdict stays.
nlohmann::json confirm_choice_set(Workbench& bench,
                                  const Search& s,
                                  gate::CascadeResult& result,
                                  std::vector<gate::Candidate>& candidates,
                                  const Progress& say) {
  const auto confirm = [&](gate::CascadeResult& r, const std::vector<gate::Candidate>& set) {
    const Outcome again = bench.cascade().confirm(set);
    const bool confirmed = confirm_choice(r, again);
    nlohmann::json files = nlohmann::json::array();
    for (const auto& c : set) {
      files.push_back(c.path);
    }
    if (say) say(fmt::format("{}: {}", confirmed ? "confirmed" : "not confirmed", again.detail));
    return std::pair{confirmed, nlohmann::json{{"confirmed", confirmed},
                                               {"status", to_string(again.status)},
                                               {"detail", again.detail},
                                               {"candidates", files},
                                               {"numbers", again.numbers}}};
  };
  if (say) say("timing the chosen replacement again (confirmation)");
  auto [confirmed, first] = confirm(result, accepted_of(result, candidates));
  nlohmann::json confirmation = {{"choice", first}, {"runner_ups", nlohmann::json::array()}};
  for (std::size_t k = 0; !confirmed && k < kRunnerUps; ++k) {
    std::vector<gate::Candidate> next;
    for (const auto& [segment, list] : s.runner_ups) {
      if (k < list.size()) next.push_back(list[k]);
    }
    if (next.empty()) break;
    if (say) {
      say(fmt::format("not confirmed: the runner-up{} {} in turn", next.size() > 1 ? "s" : "",
                      k + 1));
    }
    gate::CascadeResult retry = bench.cascade().run(next);
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
  return confirmation;
}

// The search's part of the document.
void add_search(nlohmann::json& doc, const Search& s) {
  doc["proposals"] = s.proposals;
  doc["counters"] = s.counters;
  doc["search"] = s.searched;
  doc["memory"] = s.memory_summary;
  doc["tried"] = s.tried;
}

// Records the confirmed choice in the cache: each candidate with its source, the numbers G4 gave
// it in the search, and its segment's interface names (for reuse under other names).
void record_verified(store::Cache& cache,
                     const VerifyOptions& options,
                     const Workbench& bench,
                     const Search& s,
                     const std::vector<gate::Candidate>& accepted) {
  for (const auto& c : accepted) {
    const auto it = s.judged.find(c.path);
    if (it == s.judged.end()) continue;
    store::VerifiedSegment v = it->second;
    v.source = read_file(c.path);
    v.gates = {{"interface",
                interface_of(bench.graphs().map.segments[static_cast<std::size_t>(c.segment)])}};
    v.problem = options.problem;
    cache.record(v);
  }
}

// Nothing proposed or nothing accepted: the compiler's module stays, as its own class says. The
// class of the search as a whole: a correct candidate that was timed and not chosen makes it a
// performance-gate fallback; otherwise the last candidate's class says why.
nlohmann::json nothing_chosen(const VerifyOptions& options, Workbench& bench, const Search& s) {
  const ProblemOutcome outcome = classify_problem(bench.graphs().map.problem_class, {});
  nlohmann::json verdict = s.tried.empty() ? to_json(outcome) : s.tried.back().at("outcome");
  if (s.timed_correct) {
    verdict = to_json(ProblemOutcome{"fallback", "rejected by the performance gate", {}, {}, {}});
  }
  nlohmann::json doc = {{"problem", options.problem},
                        {"segments", bench.graphs().map.segments.size()}};
  add_search(doc, s);
  doc["outcome"] = verdict;
  bench.finish(doc, "optimize.json", verdict.value("class", outcome.outcome_class),
               verdict.value("reason", outcome.reason));
  return doc;
}

}  // namespace

nlohmann::json run_optimize(const VerifyOptions& options,
                            worker::Worker& worker,
                            const Progress& progress) {
  if (!fs::is_regular_file(options.problem)) {
    throw Error("kernelopt.problem", fmt::format("{}: no such file", options.problem),
                ExitCode::kProblem);
  }
  handshake(worker);
  require_gpu(worker, "kernelopt optimize");
  Search s;
  std::map<int, std::vector<propose::Match>> matches;
  Workbench bench(options, worker, progress, [&](const Graphs& graphs) {
    if (progress) progress("matching the proposers to the segments");
    matches = match_segments(graphs, options.skip, s.proposals);
    std::map<int, recompose::SegmentInterface> faces;
    for (const auto& [id, offered] : matches) {
      const analysis::Segment& seg = graphs.map.segments[static_cast<std::size_t>(id)];
      faces[id] = recompose::segment_interface(graphs.runs[seg.graph].code, graphs.map, seg);
    }
    return faces;
  });
  // The budget counts the worker's time from here: profiling, ncu and every candidate.
  const auto start = std::chrono::steady_clock::now();
  const auto spent = [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const double budget_s = search_budget(options, start);
  Profiles profiles = profile_segments(
      options, worker, bench, matches, [&] { return budget_s - spent(); }, progress);
  s.counters = profiles.counters_note;
  // A whole segment's launches, ordered by what each could give, for the search's neighbours.
  for (auto& [id, offered] : matches) {
    propose::set_launch_potentials(offered,
                                   bench.graphs().map.segments[static_cast<std::size_t>(id)],
                                   bench.graphs().map, profiles.launches);
  }
  std::optional<store::Cache> cache = open_cache(options, progress);
  worker::Client client = raising_client(worker, options.problem);
  const nlohmann::json env =
      cache
          ? client.env({}, std::chrono::duration_cast<std::chrono::milliseconds>(options.timeout))
                ->document
          : nlohmann::json();
  search_segments(options, bench, cache, env, matches, profiles, spent, budget_s, s, progress);
  if (s.chosen.empty()) return nothing_chosen(options, bench, s);
  std::vector<gate::Candidate> candidates = s.chosen;
  if (progress) progress("running the gates");
  gate::CascadeResult result = bench.cascade().run(candidates);
  nlohmann::json confirmation;
  if (result.accepted && options.thresholds.min_ratio > 0.0) {
    confirmation = confirm_choice_set(bench, s, result, candidates, progress);
  }
  if (cache && !confirmation.is_null() && confirmation.value("confirmed", false)) {
    record_verified(*cache, options, bench, s, accepted_of(result, candidates));
  }
  return finish_run(
      options, bench, result, candidates,
      [&](nlohmann::json& doc) {
        add_search(doc, s);
        if (!confirmation.is_null()) doc["confirmation"] = confirmation;
      },
      "optimize.json");
}

}  // namespace kernelopt::engine
