// Errors for misuse and a broken environment. A candidate's failure is never an Error: it is an
// Outcome (see outcome.hpp). Errors are caught once, in main and in the worker loop.
#pragma once

#include <stdexcept>
#include <string>

namespace kernelopt {

// Process exit codes, stable for scripts.
enum class ExitCode : int {
  kOk = 0,
  kFailure = 1,     // generic failure
  kUsage = 2,       // bad command line
  kProblem = 3,     // the problem file is bad (does not import, no Model, raises, ...)
  kNoGpu = 4,       // the job needs an NVIDIA GPU and there is none
  kWorker = 5,      // the worker process crashed, hung or spoke nonsense
  kEnvironment = 6  // python, torch or triton missing or broken
};

// An error with a stable tag such as "kernelopt.problem" and the exit code main returns.
class Error : public std::runtime_error {
 public:
  Error(std::string tag, const std::string& message, ExitCode code = ExitCode::kFailure)
      : std::runtime_error(message), tag_(std::move(tag)), code_(code) {}

  // The stable tag, without brackets.
  const std::string& tag() const noexcept { return tag_; }

  ExitCode code() const noexcept { return code_; }

 private:
  std::string tag_;
  ExitCode code_;
};

}  // namespace kernelopt
