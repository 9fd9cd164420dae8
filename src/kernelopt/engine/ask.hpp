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

// Where the kernelopt Python package lives: $KERNELOPT_PYTHON_DIR, else, for the binary that
// `pip install` put in SITE/kernelopt/_engine/, SITE; else the `python/` folder of the source tree
// this binary was built in or sits in. Throws when none is found.
std::string find_python_dir();

// This binary's own path (/proc/self/exe); empty where it cannot be read.
std::string engine_binary();

// A worker with the default command for this installation: the interpreter is $KERNELOPT_PYTHON,
// else the source tree's .venv, else the installed package's own (PREFIX/bin/pythonX.Y of
// PREFIX/lib/pythonX.Y/site-packages), else python3 on PATH.
worker::WorkerOptions default_options();

// default_options() with Inductor's cache inside the run directory (RUN_DIR/inductor-cache):
// every worker of one run directory then reuses the same compiled graphs and autotuning choices,
// so a baseline measured again in a later process of the run (a resumed bench, a second verify)
// is the same compiled baseline. max-autotune's choice otherwise varies between processes
// (examples/l2_norm_rows.py: 0.749 ms in one, 0.997 ms in another).
worker::WorkerOptions pinned_options(const std::string& run_dir);

}  // namespace kernelopt::engine
