// G1 static: the candidate compiles for the target, and what it compiled fits the chip.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

namespace {

const char* const kGate = "G1 static";

Outcome verdict(Status status, std::string detail, const nlohmann::json& numbers) {
  return Outcome{status, kGate, std::move(detail), numbers};
}

}  // namespace

Outcome judge_static(const worker::StaticCheck& n,
                     const Thresholds& t,
                     bool schedule_dependent_ok) {
  if (n.import_error) {
    return verdict(Status::kCompileFailed, "does not import: " + *n.import_error, n.document);
  }
  if (!n.has_run) {
    return verdict(Status::kInterfaceError, "defines no run(inputs, outputs)", n.document);
  }
  if (n.kernels.empty()) {
    const std::string why = n.run_error ? "run() failed before any launch: " + *n.run_error
                                        : "run() launches no Triton kernel";
    return verdict(Status::kInterfaceError, why, n.document);
  }
  for (const auto& k : n.kernels) {
    if (!k.compiled) {
      return verdict(Status::kCompileFailed,
                     fmt::format("{} does not compile for sm_{}: {}", k.name, t.arch,
                                 k.error.empty() ? "unknown error" : k.error),
                     n.document);
    }
    if (k.shared_bytes && *k.shared_bytes > t.shared_limit) {
      return verdict(Status::kResourceExceeded,
                     fmt::format("{} needs {} bytes of shared memory, the limit is {}", k.name,
                                 *k.shared_bytes, t.shared_limit),
                     n.document);
    }
    if (k.registers && *k.registers > t.register_limit) {
      return verdict(Status::kResourceExceeded,
                     fmt::format("{} needs {} registers per thread", k.name, *k.registers),
                     n.document);
    }
    // Two runs on an idle GPU place one wave's blocks alike, so G2's bitwise comparison can miss
    // a result that depends on scheduling; the instructions that make it so are read here.
    if (!k.schedule_dependent.empty() && !schedule_dependent_ok) {
      return verdict(Status::kNondeterministic,
                     fmt::format("{}: {}: its result can depend on where or when its blocks run, "
                                 "and the compiler's segment does not",
                                 k.name, fmt::join(k.schedule_dependent, ", ")),
                     n.document);
    }
  }
  return verdict(Status::kOk,
                 fmt::format("{} kernel(s) compile for sm_{}", n.kernels.size(), t.arch),
                 n.document);
}

Outcome check_static(GateContext& ctx, const Candidate& candidate) {
  const auto answer = gate_client(ctx).static_check(
      {candidate.path, candidate.tensors, ctx.thresholds.arch}, ctx.deadline);
  if (!answer.ok()) return refused(ctx, answer, kGate);
  return judge_static(*answer, ctx.thresholds, candidate.face.schedule_dependent);
}

}  // namespace kernelopt::gate
