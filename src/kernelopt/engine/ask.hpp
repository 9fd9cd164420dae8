// One request to the worker, with every way it can go wrong turned into a one-line Error.
#pragma once

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/worker/worker.hpp"

namespace kernelopt::engine {

// Sends `request` and returns the worker's response object (ok == true). Throws kernelopt::Error:
// the worker's own error (its tag and message, with an exit code chosen by tag), or, when the
// worker timed out, crashed or wrote garbage, a message that names `subject` (the problem file or
// "the worker") and what happened. The worker is killed in those cases and restarts on demand.
nlohmann::json ask(worker::Worker& worker,
                   const nlohmann::json& request,
                   std::chrono::milliseconds deadline,
                   const std::string& subject);

// Where the kernelopt Python package lives: $KERNELOPT_PYTHON_DIR, else the `python/` folder of
// the source tree this binary was built in or sits in. Throws when none is found.
std::string find_python_dir();

// A worker with the default command for this installation.
worker::WorkerOptions default_options();

}  // namespace kernelopt::engine
