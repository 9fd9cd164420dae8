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

// Times every target and writes RUN_DIR/remeasure.json; prints one line per target. Returns 0
// when no replacement is slower than the baseline (interval entirely under 1.0), 1 otherwise.
int remeasure_command(const RemeasureCommand& command);

}  // namespace kernelopt::engine
