// One problem of a bench run, in its own fresh worker: the show pipeline under a wall-clock limit
// on a GPU, or, without one, a load-only check. Always returns the problem's document; a problem
// that fails is a document with its error, never an exception.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/bench_spec.hpp"
#include "kernelopt/engine/optimize.hpp"
#include "kernelopt/engine/verify.hpp"
#include "kernelopt/gate/gate.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::engine {

// What every problem of a run shares.
struct BenchContext {
  worker::WorkerOptions worker;  // how to start a worker (a GPU's variable is added per problem)
  std::string run_dir;           // captured output code goes to RUN_DIR/capture/<problem>/
  // Wall-clock limit of a problem's baseline (worker start included), and, with --search, of its
  // search again, counted from the search's start.
  std::chrono::seconds timeout{1800};
  int iters = 30;             // timed calls per measurement
  double bandwidth_gbps = 0;  // the copy bandwidth the floors use, measured once per run
  bool search = false;        // run optimize after the baseline (optimizable problems)
  std::chrono::seconds gate_timeout{120};
  gate::Thresholds thresholds;  // the search's gates (--samples; min_ratio 0 with --no-perf-gate)
  SearchFlags flags;            // the search's beam, budget and ablations
};

// Which GPU a worker gets: its index among the visible GPUs and the CUDA_VISIBLE_DEVICES value.
struct GpuSlot {
  int index = 0;
  std::string device;  // e.g. "0", or the parent's own entry such as "3" or "GPU-<uuid>"
};

// Segments a --search run leaves alone, with why, from the baseline's show document: under 2% of
// the launch time, or within 3% of their one-pass floor (headroom < 1.03).
std::map<int, std::string> worthless_segments(const nlohmann::json& show);

// Runs the baseline pipeline (run_show) for `problem` in a fresh worker on `gpu`, then, with
// context.search and an optimizable problem, the search (run_verify with propose) in the same
// worker, its files under RUN_DIR/search/<problem>/; a search that fails or runs out of time
// leaves the measured baseline (class kept, the reason says what happened). The worker
// is killed (SIGKILL to its process group) when the baseline passes context.timeout (the problem
// then fails with tag kernelopt.timeout) or the search passes context.timeout from its own start
// (the baseline stays; the search's reason says it timed out), so a long compile does not eat
// the search's budget. Records free GPU memory before and torch's peak allocation after, and the
// seconds of the baseline and of the search.
nlohmann::json run_problem_on_gpu(const BenchProblem& problem,
                                  const BenchContext& context,
                                  const GpuSlot& gpu);

// Without a GPU: loads and validates the problem in a fresh worker on the CPU without running
// its forward; a good problem fails with "needs an NVIDIA GPU" (tag kernelopt.nogpu), a bad one
// with its own error.
nlohmann::json check_problem_without_gpu(const BenchProblem& problem, const BenchContext& context);

}  // namespace kernelopt::engine
