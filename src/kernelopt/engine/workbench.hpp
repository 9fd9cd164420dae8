#pragma once
// A problem made ready for the gates, shared by `verify` and `optimize`: the problem loaded and
// compiled in the worker, its graphs captured and parsed into the dispatch map, the segments to
// be replaced probed for their real inputs and outputs, and the cascade that judges candidates.
// A candidate that crashes or hangs the worker takes that state with it; the cascade asks the
// workbench to make it again (same compile, checked) before its next request.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/engine/outcome_class.hpp"
#include "kernelopt/engine/verify.hpp"
#include "kernelopt/gate/cascade.hpp"
#include "kernelopt/recompose/bindings.hpp"
#include "kernelopt/store/store.hpp"

namespace kernelopt::engine {

struct Graphs {
  std::vector<analysis::GraphRun> runs;
  std::vector<std::string> texts;  // each graph's output code as Inductor wrote it
  analysis::DispatchMap map;
};

// The GPU time of the graphs' replay and the time the model spends outside its compiled graphs
// (eager code between graph breaks; 0 where unknown).
struct GraphsAndOutside {
  double graphs_ms = 0;
  double outside_ms = 0;
};

// The segments to be replaced, by id, with their interfaces: decided once, from the first
// capture's graphs.
using FacesOf = std::function<std::map<int, recompose::SegmentInterface>(const Graphs&)>;

class Workbench {
 public:
  // Loads, captures and probes (faces_of says which segments); opens RUN_DIR's store and marks
  // the problem running. Throws Error for a problem that does not load or compile.
  Workbench(const VerifyOptions& options,
            worker::Worker& worker,
            Progress progress,
            FacesOf faces_of);

  [[nodiscard]] const Graphs& graphs() const { return graphs_; }

  [[nodiscard]] const nlohmann::json& captured() const { return captured_; }

  [[nodiscard]] const GraphsAndOutside& outside() const { return outside_; }

  [[nodiscard]] const std::map<int, recompose::SegmentInterface>& faces() const { return faces_; }

  // A candidate file for a probed segment, ready for the cascade (an empty path: the segment's
  // interface and tensors alone).
  [[nodiscard]] gate::Candidate candidate(int segment, const std::string& path) const;

  gate::Cascade& cascade() { return *cascade_; }

  store::Store& store() { return store_; }

  [[nodiscard]] std::int64_t problem_id() const { return problem_id_; }

  // Marks the problem done in the store (its class and why) and writes RUN_DIR/NAME, the result
  // document.
  void finish(const nlohmann::json& doc,
              const std::string& name,
              const std::string& outcome_class,
              const std::string& detail);

 private:
  void prepare();
  // The capture's seeds become the gates' seeds: a stress seed the worker left out for want of
  // device memory (named in the capture's `dropped_seeds`, each said on the progress line).
  void keep_captured_seeds();
  void say(const std::string& line) const;

  const VerifyOptions& options_;
  gate::Thresholds thresholds_;  // options_.thresholds, less the seeds the capture left out
  worker::Worker& worker_;
  Progress progress_;
  FacesOf faces_of_;
  store::Store store_;
  std::int64_t problem_id_ = 0;
  nlohmann::json captured_;
  GraphsAndOutside outside_;
  Graphs graphs_;
  std::map<int, recompose::SegmentInterface> faces_;
  std::map<int, nlohmann::json> tensors_;  // the probed tensors, by segment
  int prepared_ = -1;                      // worker.starts() when the state was last made
  int attempt_ = 0;                        // recomposed models written
  std::unique_ptr<gate::Cascade> cascade_;
};

// The analysis the run's segments come from: dispatch-aware or not, split into launches or not.
analysis::AnalysisOptions analysis_options_of(const VerifyOptions& options);

// Gate outcomes as the result document lists them.
nlohmann::json outcomes_json(const std::vector<Outcome>& outcomes);

// A cascade's verdicts as the result document lists them, with the problem's outcome.
nlohmann::json result_json(const gate::CascadeResult& result, const ProblemOutcome& outcome);

// The candidates of `from` in the set the cascade accepted (it may have dropped some segments).
std::vector<gate::Candidate> accepted_of(const gate::CascadeResult& result,
                                         const std::vector<gate::Candidate>& from);

// The end of a run whose candidates went through the cascade: the result document (verdicts,
// outcome class, whole-model ratios where time runs outside the graphs, what `add` adds),
// RUN_DIR/optimized/ when a set was accepted, the store's status and RUN_DIR/FILE.
nlohmann::json finish_run(const VerifyOptions& options,
                          Workbench& bench,
                          const gate::CascadeResult& result,
                          const std::vector<gate::Candidate>& candidates,
                          const std::function<void(nlohmann::json&)>& add,
                          const std::string& file);

}  // namespace kernelopt::engine
