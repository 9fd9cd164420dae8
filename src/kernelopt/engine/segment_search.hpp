#pragma once
// One segment's search in the optimize loop: the analyst's verdict, the planner's strategies, and
// the beam over the proposers' candidates, each judged by the gates and passed to the measure
// callbacks.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/optimize.hpp"
#include "kernelopt/engine/workbench.hpp"
#include "kernelopt/propose/proposer.hpp"
#include "kernelopt/search/roles.hpp"

namespace kernelopt::engine {

// What the loop hands a segment's search.
struct SegmentTask {
  int segment = 0;
  const std::vector<propose::Match>* offered = nullptr;  // the strategies the proposers offer
  search::SegmentProfile profile;                        // the profiler's numbers
  search::BeamOptions beam;                              // its budget ends at beam.budget_s
  std::filesystem::path candidates_dir;                  // where candidate files are written
};

// What the loop keeps of it.
struct SegmentResult {
  nlohmann::json row;                       // the document's "search" entry
  std::optional<gate::Candidate> best;      // the accepted, measurably faster candidate
  std::vector<gate::Candidate> runner_ups;  // the next accepted ones, best first
  bool timed_correct = false;               // a correct candidate reached G4
};

// How many runner-ups per segment the confirmation tries after the choice (each costs one G4).
inline constexpr std::size_t kRunnerUps = 2;

// The proposers of one run by name (fresh instances: what they observe stays in the run).
class ProposerSet {
 public:
  ProposerSet();
  propose::Proposer& at(const std::string& name);
  // The proposer named `name`, or nullptr (a cached candidate's proposer this build lacks).
  propose::Proposer* find(const std::string& name);
  // What the proposers spent besides GPU time, by name, where any says (Proposer::usage).
  [[nodiscard]] nlohmann::json usage() const;

 private:
  std::vector<std::unique_ptr<propose::Proposer>> all_;
};

// A G4 pass below kMinSpeedup (noise) is not a choice: the attempt is marked not accepted.
void require_measurable_gain(search::Attempt& attempt);

// A single candidate's cascade as the summarizer records it.
search::Attempt attempt_of(const gate::CascadeResult& result);

SegmentResult search_segment(const SegmentTask& task,
                             Workbench& bench,
                             ProposerSet& proposers,
                             search::Memory& memory,
                             const std::function<double()>& spent,
                             const std::vector<MeasureCallback>& callbacks,
                             int& written,
                             const Progress& progress);

}  // namespace kernelopt::engine
