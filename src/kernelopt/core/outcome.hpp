// A candidate's fate: an ordinary result, not an exception. Stored as text, shown with its reason.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kernelopt {

enum class Status {
  kOk,                // passed the gate
  kCompileFailed,     // does not import, does not compile for the target
  kResourceExceeded,  // shared memory or registers do not fit
  kInterfaceError,    // no run(inputs, outputs), or it launches no Triton kernel
  kRaised,            // run() raised
  kCrashed,           // a CUDA error or a dead worker
  kTimedOut,          // no answer within the deadline
  kAliasedOutput,     // replaced an output tensor instead of writing into it
  kSideStream,        // launched work on a stream other than the current one
  kOutOfBounds,       // wrote outside its outputs (guard bands changed)
  kNotWritten,        // left output elements unwritten (NaN poison survived)
  kMutatedInput,      // changed an input that the original segment does not change
  kNanInfMismatch,    // NaN or Inf in other places than the reference
  kWrongResult,       // values outside the tolerance
  kNondeterministic,  // two runs on the same inputs differ
  kModelMismatch,     // the recomposed model differs from eager, also against float64
  kReplayMismatch,    // replayed in a CUDA graph, it computes other outputs than called directly
  kSlower,            // the recomposed model is slower than the baseline
  kSkipped            // not checked: an earlier gate failed
};

std::string to_string(Status status);

// The status named by to_string; kRaised for an unknown name (a store written by a newer build).
Status status_from_string(const std::string& name);

// One gate's verdict with its reason and the numbers it rests on.
struct Outcome {
  Status status = Status::kOk;
  std::string gate;                                   // "G1 static", "G2 isolated", ...
  std::string detail;                                 // one line for humans
  nlohmann::json numbers = nlohmann::json::object();  // what the verdict rests on

  bool ok() const { return status == Status::kOk; }
};

nlohmann::json to_json(const Outcome& outcome);

}  // namespace kernelopt
