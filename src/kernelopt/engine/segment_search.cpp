// One segment's search: analyst, planner, beam; every candidate through the gates.
#include "kernelopt/engine/segment_search.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/propose/registry.hpp"

namespace kernelopt::engine {

ProposerSet::ProposerSet() : all_(propose::make_proposers()) {}

propose::Proposer* ProposerSet::find(const std::string& name) {
  for (auto& p : all_) {
    if (p->name() == name) return p.get();
  }
  return nullptr;
}

nlohmann::json ProposerSet::usage() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& p : all_) {
    nlohmann::json u = p->usage();
    if (!u.is_null()) out[std::string(p->name())] = std::move(u);
  }
  return out;
}

propose::Proposer& ProposerSet::at(const std::string& name) {
  if (propose::Proposer* p = find(name)) return *p;
  throw Error("kernelopt.proposer", fmt::format("no proposer is named '{}'", name));
}

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

void require_measurable_gain(search::Attempt& a) {
  if (!a.accepted || search::measurably_faster(a)) return;
  // G4 lets a candidate within 3% of the baseline pass (noise); the search keeps only what is
  // measurably faster, so a replacement is never chosen for being as slow.
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

namespace {

// The analyst's verdict, with vendor products (--no-dispatch-aware) bound by their arithmetic.
search::Analysis analyze_segment(const SegmentTask& task, const analysis::Segment& segment) {
  search::Analysis analysis = search::analyze(task.profile);
  if (segment.extern_call) {
    // A vendor matrix product has no memory floor and ncu reads only Triton kernels.
    analysis.bottleneck = search::Bottleneck::kComputeBound;
    analysis.why = fmt::format("{:.3f} ms, an extern matrix product: bound by its arithmetic",
                               task.profile.time_ms);
  }
  return analysis;
}

std::string key_of(const search::Proposal& p) {
  return p.strategy + " " + p.settings.dump();
}

nlohmann::json row_of(const SegmentTask& task,
                      const search::Analysis& analysis,
                      const std::vector<search::Strategy>& strategies,
                      const std::vector<std::string>& dropped,
                      const search::BeamResult& beam,
                      double started_s,
                      double spent_s) {
  nlohmann::json row = {{"segment", task.segment},
                        {"bottleneck", search::to_string(analysis.bottleneck)},
                        {"analysis", analysis.why},
                        {"strategies", nlohmann::json::array()},
                        {"dropped", dropped},
                        {"evaluated", beam.scored.size()},
                        {"rounds", beam.rounds_run},
                        {"stopped", beam.stopped},
                        {"budget_s", task.beam.budget_s - started_s},
                        {"spent_s", spent_s - started_s},
                        {"best", nullptr}};
  for (const auto& s : strategies) {
    row["strategies"].push_back({{"name", s.name}, {"why", s.why}});
  }
  if (beam.best) {
    row["best"] = {{"strategy", beam.best->proposal.strategy},
                   {"settings", beam.best->proposal.settings},
                   {"round", beam.best->proposal.round},
                   {"ratio", beam.best->attempt.ratio.value_or(0.0)}};
  }
  return row;
}

}  // namespace

SegmentResult search_segment(const SegmentTask& task,
                             Workbench& bench,
                             ProposerSet& proposers,
                             search::Memory& memory,
                             const std::function<double()>& spent,
                             const std::vector<MeasureCallback>& callbacks,
                             int& written,
                             const Progress& progress) {
  const auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  const int id = task.segment;
  const std::vector<propose::Match>& offered = *task.offered;
  const auto match_of = [&](const std::string& strategy) -> const propose::Match& {
    for (const auto& m : offered) {
      if (propose::strategy_of(m) == strategy) return m;
    }
    return offered.front();  // the beam only proposes strategies it was given
  };
  const search::Analysis analysis =
      analyze_segment(task, bench.graphs().map.segments[static_cast<std::size_t>(id)]);
  std::map<std::string, std::string> families;  // strategy -> its proposer's family
  for (const auto& m : offered) {
    families[propose::strategy_of(m)] = propose::proposer_of(m);
    if (propose::proposer_of(m) == "agent") memory.independent(propose::strategy_of(m));
  }
  std::vector<std::string> dropped;
  const auto strategies = search::plan(analysis, families, memory, &dropped);
  SegmentResult result;
  std::map<std::string, gate::Candidate> by_settings;  // strategy + settings -> candidate
  search::BeamHooks hooks;
  hooks.initial = [&](const std::string& strategy) {
    const propose::Match& m = match_of(strategy);
    return proposers.at(m.recipe).initial(m);
  };
  hooks.neighbours = [&](const search::Proposal& p) {
    const propose::Match& m = match_of(p.strategy);
    return proposers.at(m.recipe).neighbours(m, p.settings);
  };
  // A proposal's candidate through the gates; where its proposer asks for a directed retry
  // after a failure (the llm proposer, told the gate's error), the corrected candidate is judged
  // next, within the budget, and the last verdict is the proposal's.
  hooks.evaluate = [&](const search::Proposal& p) {
    const propose::Match& match = match_of(p.strategy);
    propose::Proposer& proposer = proposers.at(match.recipe);
    search::Proposal tried = p;
    for (;;) {
      const std::filesystem::path file =
          task.candidates_dir /
          fmt::format("seg{}_{}_r{}_{}.py", id, match.recipe, p.round, written++);
      write_file(file, proposer.source(match, id, tried.settings));
      gate::Candidate c = bench.candidate(id, file.string());
      c.origin = {propose::proposer_of(match), p.strategy, tried.settings};
      say(fmt::format("seg{} round {}: {} {}", id, p.round, p.strategy, tried.settings.dump()));
      const gate::CascadeResult r = bench.cascade().run({c});
      by_settings[key_of(p)] = c;
      search::Attempt a = attempt_of(r);
      a.segment = id;
      result.timed_correct = result.timed_correct || (a.correct && a.ratio);
      require_measurable_gain(a);
      for (const auto& callback : callbacks) {
        callback(Measured{match, tried, c, r, a});
      }
      const auto next = a.correct ? std::nullopt : proposer.retry(match, tried.settings, a);
      if (!next || spent() >= task.beam.budget_s) return a;
      tried.settings = *next;
    }
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
  const double started = spent();
  const search::BeamResult beam = search::beam_search(id, strategies, hooks, task.beam, memory);
  result.row = row_of(task, analysis, strategies, dropped, beam, started, spent());
  if (beam.best) {
    result.best = by_settings.at(key_of(beam.best->proposal));
    for (const auto& r : search::runner_ups(beam, kRunnerUps)) {
      result.runner_ups.push_back(by_settings.at(key_of(r.proposal)));
    }
  }
  return result;
}

}  // namespace kernelopt::engine
