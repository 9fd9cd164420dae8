// The cascade: each candidate through G1 and G2 (cheapest first, stopping at the first failure),
// then the set of candidates that passed through G3 and G4 on the recomposed model, with two
// directed retries (dropping candidates) when the set fails a model gate. Every verdict goes to
// the store as it is made, and a verdict already in the store is not asked for again: a run
// killed at any point resumes where it stopped.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernelopt/gate/gate.hpp"
#include "kernelopt/store/store.hpp"

namespace kernelopt::gate {

struct CandidateVerdicts {
  Candidate candidate;
  std::vector<Outcome> outcomes;  // one per gate run, in order; the last failed unless all ok

  bool passed() const;
};

struct SetVerdicts {
  std::vector<int> segments;        // the candidates of the set, by segment
  std::vector<std::string> vendor;  // the vendor knobs the set runs under
  std::vector<Outcome> outcomes;    // G3, then G4 when G3 passed

  bool passed() const;
};

struct CascadeResult {
  std::vector<CandidateVerdicts> candidates;
  std::vector<SetVerdicts> attempts;    // the first set, then the retries
  std::optional<std::size_t> accepted;  // index into attempts
};

// Writes the recomposed model of a set of candidates; returns graph -> module path.
using Recomposer = std::function<Recomposed(const std::vector<Candidate>&)>;

class Cascade {
 public:
  // `store` may be null (no persistence); `problem_id` is the store's problem row.
  Cascade(GateContext context, store::Store* store, std::int64_t problem_id, Recomposer recompose);

  // Runs the whole cascade over `candidates` (at most one per segment).
  CascadeResult run(const std::vector<Candidate>& candidates);

  // G4 once more on a set that passed, with fresh captures ("G4 confirmation" in the store, so a
  // resumed run does not time it twice). A search that picks the best of many timed candidates
  // picks the one whose measurement was luckiest; a second, independent measurement of the
  // choice is free of that selection.
  Outcome confirm(const std::vector<Candidate>& set, const std::vector<std::string>& vendor = {});

  // A vendor knob alone on top of `set` (which may be empty: the compiler's graphs): G3 with the
  // set's forward under the knob's settings, then G4 with the set under the knob against the
  // same set without it ("G4 vendor"), so that the ratio is the knob's own.
  SetVerdicts check_knob(const std::vector<Candidate>& set, const std::string& knob);

  // `set` under the `vendor` knobs through G3 and G4 against the compiled graphs.
  SetVerdicts check_set(const std::vector<Candidate>& set,
                        const std::vector<std::string>& vendor = {});

 private:
  CandidateVerdicts check_candidate(const Candidate& candidate);
  // G3 and G4 on `set` under `vendor`: G4 against the compiled graphs, or (`against_set`) against
  // the same set without the knobs, stored as "G4 vendor" in a row of their own.
  SetVerdicts check_attempt(const std::vector<Candidate>& set,
                            const std::vector<std::string>& vendor,
                            bool against_set);
  std::int64_t set_row(const std::vector<Candidate>& set,
                       const std::vector<std::string>& vendor = {},
                       const std::string& kind = "set");
  Outcome remembered(std::int64_t row,
                     const std::string& gate,
                     const std::function<Outcome()>& check);
  std::int64_t candidate_row(int segment,
                             const std::string& key,
                             const std::string& path,
                             const Origin& origin);

  GateContext context_;
  store::Store* store_;
  std::int64_t problem_id_;
  Recomposer recompose_;
};

// A stable key for a candidate file: FNV-1a 64 of its bytes, in hex.
std::string content_key(const std::string& path);

}  // namespace kernelopt::gate
