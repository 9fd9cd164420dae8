// The readers of the gates' answers: static_check (G1), check_candidate (G2), model_check (G3)
// and time_pair (G4). Numbers only: the verdicts are the gates'.
#include <optional>

#include "kernelopt/worker/fields.hpp"
#include "kernelopt/worker/replies.hpp"

namespace kernelopt::worker {

namespace {

using detail::flag;
using detail::integer;
using detail::number;
using detail::text;

std::optional<long> present_count(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<long>();
}

KernelCompile read_kernel(const nlohmann::json& k) {
  KernelCompile kernel;
  kernel.name = text(k, "name", "?");
  kernel.compiled = flag(k, "compiled", false);
  kernel.error = text(k, "error", "");
  if (const auto shared = present_count(k, "shared_bytes")) kernel.shared_bytes = *shared;
  if (const auto registers = present_count(k, "registers")) {
    kernel.registers = static_cast<int>(*registers);
  }
  kernel.schedule_dependent = detail::names(k, "schedule_dependent");
  return kernel;
}

IsolatedSeed read_isolated_seed(const nlohmann::json& s) {
  IsolatedSeed seed;
  seed.seed = static_cast<int>(integer(s, "seed", -1));
  seed.error = detail::run_error(s, "error");
  seed.elements = present_count(s, "elements");
  seed.mismatched = integer(s, "mismatched", 0);
  seed.unwritten = integer(s, "unwritten", 0);
  seed.nan_mismatch = integer(s, "nan_mismatch", 0);
  seed.inf_mismatch = integer(s, "inf_mismatch", 0);
  seed.out_of_bounds = integer(s, "out_of_bounds", 0);
  seed.max_abs_err = number(s, "max_abs_err", 0);
  seed.inputs_mutated = detail::names(s, "inputs_mutated");
  seed.replaced_outputs = detail::names(s, "replaced_outputs");
  seed.relaid_tensors = detail::names(s, "relaid_tensors");
  seed.stray_writes = detail::names(s, "stray_writes");
  seed.side_stream = flag(s, "side_stream", false);
  seed.deterministic = flag(s, "deterministic", false);
  seed.sanitizer = text(s, "sanitizer", "");
  seed.sanitizer_errors = present_count(s, "sanitizer_errors");
  seed.sanitizer_detail = text(s, "sanitizer_detail", "");
  return seed;
}

// `<prefix>tol_vs_eager` and `<prefix>nonfinite_match`; nullopt when the tolerance is missing.
std::optional<Closeness> read_closeness(const nlohmann::json& s, const std::string& prefix) {
  const std::string tol = prefix + "tol_vs_eager";
  if (!s.contains(tol)) return std::nullopt;
  return Closeness{number(s, tol.c_str(), kInfinity),
                   flag(s, (prefix + "nonfinite_match").c_str(), false)};
}

ModelSeed read_model_seed(const nlohmann::json& s) {
  ModelSeed seed;
  seed.seed = static_cast<int>(integer(s, "seed", -1));
  seed.error = detail::run_error(s, "error");
  seed.candidate = read_closeness(s, "");
  seed.baseline = read_closeness(s, "baseline_");
  seed.max_abs_vs_eager = number(s, "max_abs_vs_eager", 0);
  seed.baseline_max_abs_vs_eager = number(s, "baseline_max_abs_vs_eager", 0);
  seed.candidate_err_f64 = number(s, "candidate_err_f64", kInfinity);
  seed.baseline_err_f64 = number(s, "baseline_err_f64", 0);
  if (s.contains("candidate_rel_f64") && s.at("candidate_rel_f64").is_number()) {
    seed.candidate_rel_f64 = number(s, "candidate_rel_f64", 0);
  }
  if (s.contains("baseline_rel_f64") && s.at("baseline_rel_f64").is_number()) {
    seed.baseline_rel_f64 = number(s, "baseline_rel_f64", 0);
  }
  seed.elements = number(s, "elements", 0);
  seed.float64_error = detail::message(s, "float64_error");
  seed.state_changed = detail::names(s, "state_changed");
  seed.baseline_state_changed = detail::names(s, "baseline_state_changed");
  seed.outputs_sharing_inputs = detail::names(s, "outputs_sharing_inputs");
  seed.baseline_outputs_sharing_inputs = detail::names(s, "baseline_outputs_sharing_inputs");
  return seed;
}

ReplayCheck read_replay_check(const nlohmann::json& s) {
  ReplayCheck check;
  check.seed = static_cast<int>(integer(s, "seed", -1));
  check.error = detail::run_error(s, "error");
  check.replay_tol = number(s, "replay_tol", kInfinity);
  check.replay_nonfinite_match = flag(s, "replay_nonfinite_match", false);
  check.direct_tol = number(s, "direct_tol", kInfinity);
  check.direct_nonfinite_match = flag(s, "direct_nonfinite_match", false);
  return check;
}

}  // namespace

StaticCheck read_static_check(const nlohmann::json& response) {
  StaticCheck check;
  check.document = results_of(response);
  const nlohmann::json& d = check.document;
  check.import_error = detail::message(d, "import_error");
  check.has_run = flag(d, "has_run", false);
  if (d.contains("run_error") && d.at("run_error").is_string()) {
    check.run_error = d.at("run_error").get<std::string>();
  }
  check.kernels = detail::each(d, "kernels", read_kernel);
  return check;
}

IsolatedCheck read_isolated_check(const nlohmann::json& response) {
  IsolatedCheck check;
  check.document = results_of(response);
  const nlohmann::json& d = check.document;
  if (d.contains("load_error") && !d.at("load_error").is_null()) {
    const nlohmann::json& e = d.at("load_error");  // {kind, message}, or a plain message
    check.load_error = e.is_string() ? e.get<std::string>() : text(e, "message", e.dump());
  }
  check.seeds = detail::each(d, "seeds", read_isolated_seed);
  return check;
}

ModelCheck read_model_check(const nlohmann::json& response) {
  ModelCheck check;
  check.document = results_of(response);
  check.seeds = detail::each(check.document, "seeds", read_model_seed);
  return check;
}

PairTiming read_pair_timing(const nlohmann::json& response) {
  PairTiming pair;
  pair.document = results_of(response);
  const nlohmann::json& d = pair.document;
  pair.error = detail::run_error(d, "error");
  pair.instances = static_cast<int>(integer(d, "instances", 1));
  pair.baseline_ms = detail::numbers(d, "baseline_ms");
  pair.candidate_ms = detail::numbers(d, "candidate_ms");
  pair.baseline_instance_ms = detail::number_lists(d, "baseline_instance_ms");
  pair.candidate_instance_ms = detail::number_lists(d, "candidate_instance_ms");
  pair.baseline_instance_median_ms = detail::numbers(d, "baseline_instance_median_ms");
  pair.candidate_instance_median_ms = detail::numbers(d, "candidate_instance_median_ms");
  pair.baseline_median_ms = number(d, "baseline_median_ms", 0);
  pair.candidate_median_ms = number(d, "candidate_median_ms", 0);
  pair.replay_checks = detail::each(d, "replay_checks", read_replay_check);
  return pair;
}

}  // namespace kernelopt::worker
