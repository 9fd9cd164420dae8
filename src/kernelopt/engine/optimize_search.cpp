// The optimize loop's search stage: every matched segment, largest first, with its share of the
// budget: a verified replacement from the cache re-checked by the gates, else the segment's search.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/optimize_stages.hpp"
#include "kernelopt/engine/outcome_class.hpp"
#include "kernelopt/engine/reuse.hpp"
#include "kernelopt/engine/segment_search.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

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

}  // namespace

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
  s.usage = proposers.usage();
}

}  // namespace kernelopt::engine
