#pragma once
// `kernelopt remeasure`: each accepted replacement timed again against the compiler's baseline in
// a separate run (a fresh worker that loads the problem, compiles it through the run's Inductor
// cache and replays both interleaved), so a speedup that was the first run's luck shows. Takes an
// optimize or verify run directory (RUN_DIR/optimized/) or a bench run directory (every problem
// whose outcome is "optimized" or "matched (optimized)": RUN_DIR/search/<problem>/optimized/).
#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::engine {

struct RemeasureCommand {
  std::string run_dir;
  int samples = 30;                    // replays per side
  std::chrono::seconds timeout{1800};  // each load / capture / timing request
  std::string json;                    // also write the document here
  bool again = false;                  // --again: time every target, also those timed before
};

// One optimized module to time again: a label and its folder (with manifest.json).
struct RemeasureTarget {
  std::string problem;
  std::string optimized_dir;
  nlohmann::json first;  // the outcome the first run recorded (class, ratio, interval)
};

// The targets of a run directory, in order. Throws Error (usage, exit 2) when the folder is
// neither an optimize/verify run with optimized/ nor a bench run.
std::vector<RemeasureTarget> remeasure_targets(const std::string& run_dir);

// The row of an earlier RUN_DIR/remeasure.json that already re-measured `target`: the same
// problem with the same first outcome (so not searched again since), timed with as many samples;
// null when there is none.
nlohmann::json earlier_row(const nlohmann::json& earlier,
                           const RemeasureTarget& target,
                           int samples);

// Times every target and writes RUN_DIR/remeasure.json, after each target; a target the earlier
// document already re-measured (earlier_row) keeps its row unless `again`, so a run of problems
// added one at a time (or a killed remeasure) times only what is new. Prints one line per target.
// Returns 0 when no replacement is slower than the baseline (interval entirely under 1.0), 1
// otherwise.
int remeasure_command(const RemeasureCommand& command);

}  // namespace kernelopt::engine
