#pragma once
// The optimize loop's stages after profiling, which optimize.cpp runs in order: the segments'
// search, largest first, reusing a verified replacement where the cache has one
// (optimize_search.cpp); the chosen set timed again, recorded in the cache (optimize_choice.cpp).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/optimize.hpp"
#include "kernelopt/engine/profiling.hpp"
#include "kernelopt/engine/workbench.hpp"
#include "kernelopt/gate/cascade.hpp"
#include "kernelopt/propose/match.hpp"
#include "kernelopt/store/cache.hpp"

namespace kernelopt::engine {

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
  // What the proposers spent besides GPU time (the llm proposer's requests, tokens and cost).
  nlohmann::json usage = nlohmann::json::object();
};

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
                     const Progress& progress);

// The search chose the best of many timed candidates: time the choice again (fresh captures)
// and keep it only if that measurement is measurably faster too. If it is not, the runner-ups
// take their turn (each segment's next accepted candidate by ratio), each timed again the same
// way; the first confirmed set is kept, else the first verdict stays.
nlohmann::json confirm_choice_set(Workbench& bench,
                                  const Search& s,
                                  gate::CascadeResult& result,
                                  std::vector<gate::Candidate>& candidates,
                                  const Progress& say);

// The vendor stage (--vendor, docs/vendor.md): the knobs the worker says apply to the model and
// can run around the compiled graphs as they are, each gated on top of the accepted set (the
// compiler's graphs where none was): G3 with the knob, then G4 against the same set without it.
// The knobs measurably faster alone are then gated together against the compiled graphs and
// timed again; where that holds, their attempt becomes `result`'s accepted one. Returns the
// document's `vendor` part: each knob's verdict, what was kept and why.
nlohmann::json tune_vendor(const VerifyOptions& options,
                           worker::Worker& worker,
                           Workbench& bench,
                           gate::CascadeResult& result,
                           const std::vector<gate::Candidate>& candidates,
                           const Progress& say);

// The search's part of the document.
void add_search(nlohmann::json& doc, const Search& s);

// Records the confirmed choice in the cache: each candidate with its source, the numbers G4 gave
// it in the search, and its segment's interface names (for reuse under other names).
void record_verified(store::Cache& cache,
                     const VerifyOptions& options,
                     const Workbench& bench,
                     const Search& s,
                     const std::vector<gate::Candidate>& accepted);

// Nothing proposed or nothing accepted: the compiler's module stays, as its own class says. The
// class of the search as a whole: a correct candidate that was timed and not chosen makes it a
// performance-gate fallback; otherwise the last candidate's class says why.
// `vendor`: the vendor stage's part of the document, where it ran (null: it did not).
nlohmann::json nothing_chosen(const VerifyOptions& options,
                              Workbench& bench,
                              const Search& s,
                              const nlohmann::json& vendor = nullptr);

}  // namespace kernelopt::engine
