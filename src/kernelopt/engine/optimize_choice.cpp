// The optimize loop's last stages: the chosen set timed again (the runner-ups in turn where it is
// not confirmed) and recorded in the cache, and the document's search part, chosen or not.
#include <cstddef>
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

void add_search(nlohmann::json& doc, const Search& s) {
  doc["proposals"] = s.proposals;
  doc["counters"] = s.counters;
  doc["search"] = s.searched;
  doc["memory"] = s.memory_summary;
  doc["tried"] = s.tried;
  if (s.usage.contains("llm")) doc["llm"] = s.usage.at("llm");
}

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

nlohmann::json nothing_chosen(const VerifyOptions& options,
                              Workbench& bench,
                              const Search& s,
                              const nlohmann::json& vendor) {
  const ProblemOutcome outcome = classify_problem(bench.graphs().map.problem_class, {});
  nlohmann::json verdict = s.tried.empty() ? to_json(outcome) : s.tried.back().at("outcome");
  if (s.timed_correct) {
    verdict = to_json(ProblemOutcome{"fallback", "rejected by the performance gate", {}, {}, {}});
  }
  nlohmann::json doc = {{"problem", options.problem},
                        {"segments", bench.graphs().map.segments.size()}};
  add_search(doc, s);
  if (!vendor.is_null()) doc["vendor"] = vendor;
  doc["outcome"] = verdict;
  bench.finish(doc, "optimize.json", verdict.value("class", outcome.outcome_class),
               verdict.value("reason", outcome.reason));
  return doc;
}

}  // namespace kernelopt::engine
