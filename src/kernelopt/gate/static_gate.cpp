// G1 static: the candidate compiles for the target, and what it compiled fits the chip.
#include <fmt/format.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

namespace {

const char* const kGate = "G1 static";

Outcome verdict(Status status, std::string detail, const nlohmann::json& numbers) {
  return Outcome{status, kGate, std::move(detail), numbers};
}

}  // namespace

Outcome judge_static(const nlohmann::json& n, const Thresholds& t) {
  if (n.contains("import_error") && !n["import_error"].is_null()) {
    return verdict(Status::kCompileFailed,
                   "does not import: " + n["import_error"].get<std::string>(), n);
  }
  if (!n.value("has_run", false)) {
    return verdict(Status::kInterfaceError, "defines no run(inputs, outputs)", n);
  }
  const auto kernels = n.value("kernels", nlohmann::json::array());
  if (kernels.empty()) {
    const std::string why =
        n.contains("run_error") && n["run_error"].is_string()
            ? "run() failed before any launch: " + n["run_error"].get<std::string>()
            : "run() launches no Triton kernel";
    return verdict(Status::kInterfaceError, why, n);
  }
  for (const auto& k : kernels) {
    const std::string name = k.value("name", "?");
    if (!k.value("compiled", false)) {
      return verdict(Status::kCompileFailed,
                     fmt::format("{} does not compile for sm_{}: {}", name, t.arch,
                                 k.value("error", "unknown error")),
                     n);
    }
    if (k.contains("shared_bytes") && k["shared_bytes"].is_number() &&
        k["shared_bytes"].get<long>() > t.shared_limit) {
      return verdict(Status::kResourceExceeded,
                     fmt::format("{} needs {} bytes of shared memory, the limit is {}", name,
                                 k["shared_bytes"].get<long>(), t.shared_limit),
                     n);
    }
    if (k.contains("registers") && k["registers"].is_number() &&
        k["registers"].get<int>() > t.register_limit) {
      return verdict(
          Status::kResourceExceeded,
          fmt::format("{} needs {} registers per thread", name, k["registers"].get<int>()), n);
    }
  }
  return verdict(Status::kOk, fmt::format("{} kernel(s) compile for sm_{}", kernels.size(), t.arch),
                 n);
}

Outcome check_static(GateContext& ctx, const Candidate& candidate) {
  Outcome failed;
  const nlohmann::json numbers = ask_gate(ctx,
                                          {{"op", "static_check"},
                                           {"candidate", candidate.path},
                                           {"interface", candidate.tensors},
                                           {"arch", ctx.thresholds.arch}},
                                          kGate, failed);
  if (!failed.ok()) return failed;
  return judge_static(numbers, ctx.thresholds);
}

}  // namespace kernelopt::gate
