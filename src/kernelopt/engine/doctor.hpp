// `kernelopt doctor` and the environment facts other commands need: whether there is a GPU, and
// the copy bandwidth measured on it (kept in a cache file so that show does not measure it again).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/worker/replies.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::engine {

// The doctor's findings: the worker's environment plus ncu and bandwidth probes where a GPU is
// present. Never throws for a missing GPU or torch: those are findings.
nlohmann::json run_doctor(worker::Worker& worker);

// The doctor's findings as lines for the terminal, and the exit status they call for.
struct DoctorReport {
  std::string text;   // one line per finding, then what to do when a requirement is not met
  int exit_code = 0;  // 0 when the GPU path can run; 6 (kEnvironment) when torch, Triton or numpy
                      // is missing or outside its supported range; else 4 (kNoGpu)
};

// `findings` is run_doctor's; `engine` is the binary's own path, shown beside the package's.
DoctorReport format_doctor(const nlohmann::json& findings, const std::string& engine);

// The worker's environment; throws Error(kernelopt.nogpu, exit 4) naming `what` when torch sees
// no CUDA GPU.
worker::Environment require_gpu(worker::Worker& worker, const std::string& what);

// The copy bandwidth of this GPU in GB/s: from the doctor's cache when it was measured on the same
// GPU, else measured now (and cached).
double copy_bandwidth_gbps(worker::Worker& worker);

// The GPU's peak float32 rate on its CUDA cores in GFLOP/s, as the worker computes it from the
// device's properties (`fp32_gflops` of its env); 0 when unknown (the compute floors are then off).
double fp32_peak_gflops(const nlohmann::json& env);

// The cache file: $KERNELOPT_CACHE_DIR, else $XDG_CACHE_HOME/kernelopt, else ~/.cache/kernelopt.
std::string doctor_cache_path();

}  // namespace kernelopt::engine
