#include "kernelopt/core/outcome.hpp"

#include <array>
#include <utility>

namespace kernelopt {

namespace {

constexpr std::array<std::pair<Status, const char*>, 19> kNames = {{
    {Status::kOk, "ok"},
    {Status::kCompileFailed, "compile_failed"},
    {Status::kResourceExceeded, "resource_exceeded"},
    {Status::kInterfaceError, "interface_error"},
    {Status::kRaised, "raised"},
    {Status::kCrashed, "crashed"},
    {Status::kTimedOut, "timed_out"},
    {Status::kAliasedOutput, "aliased_output"},
    {Status::kSideStream, "side_stream"},
    {Status::kOutOfBounds, "out_of_bounds"},
    {Status::kNotWritten, "not_written"},
    {Status::kMutatedInput, "mutated_input"},
    {Status::kNanInfMismatch, "nan_inf_mismatch"},
    {Status::kWrongResult, "wrong_result"},
    {Status::kNondeterministic, "nondeterministic"},
    {Status::kModelMismatch, "model_mismatch"},
    {Status::kReplayMismatch, "replay_mismatch"},
    {Status::kSlower, "slower"},
    {Status::kSkipped, "skipped"},
}};

}  // namespace

std::string to_string(Status status) {
  for (const auto& [value, name] : kNames) {
    if (value == status) return name;
  }
  return "unknown";
}

Status status_from_string(const std::string& name) {
  for (const auto& [value, text] : kNames) {
    if (name == text) return value;
  }
  return Status::kRaised;
}

nlohmann::json to_json(const Outcome& outcome) {
  return {{"gate", outcome.gate},
          {"status", to_string(outcome.status)},
          {"detail", outcome.detail},
          {"numbers", outcome.numbers}};
}

}  // namespace kernelopt
