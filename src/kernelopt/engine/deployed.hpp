#pragma once
// The optimized module timed as a user deploys it (docs/python-api.md, "Deployed speed"):
// `kernelopt.load(dir)` against `torch.compile(model, mode="max-autotune")`, each called with the
// model's inputs, in a fresh worker process. The performance gate times both sides as CUDA graphs
// replayed on inputs in place; a deployed module also copies each call's inputs into its graph's
// buffers and runs Python around the replay, so where those weigh, a user gets less than G4's
// ratio. `optimize` reports both.
#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/worker/worker.hpp"

namespace kernelopt::engine {

// Restarts `worker` and asks it to time the module in `optimized_dir` (`iters` calls of each
// side, in turns). Returns the document's `deployed` part: the ratio of max-autotune's median
// over the module's with its interval and speed class, judged as G4 judges a ratio; the same for
// the module called with its inputs in place (`in_place`); each side's median ms, how it ran, the
// bytes of inputs copied per call, each side's largest difference from eager and the seconds it
// took. A failure is recorded as {"error": ...}, not raised: the optimized module stands.
nlohmann::json measure_deployed(worker::Worker& worker,
                                const std::string& optimized_dir,
                                int iters,
                                std::chrono::seconds timeout,
                                const std::string& subject);

}  // namespace kernelopt::engine
