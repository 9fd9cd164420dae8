#pragma once
// The profiler's Nsight Compute half: runs a problem's compiled forward under `ncu` (the sections
// SpeedOfLight, Occupancy and LaunchStats, `--clock-control none`, only the Triton kernels of one
// forward inside an NVTX range) and reads its CSV. Where ncu is missing or cannot read the
// counters, the profile is empty and says why; the search goes on with times alone.
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kernelopt/profile/counters.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::profile {

struct NcuProfile {
  std::map<std::string, KernelCounters> kernels;  // by kernel name (its last launch)
  std::string error;                              // why there are none, or ""
  double seconds = 0;                             // wall time of the ncu run(s)
  bool out_of_memory = false;   // the profiled program ran out of GPU memory (its log says so)
  bool retried = false;         // run_ncu_with_room freed memory and ran ncu a second time
  bool released_first = false;  // run_ncu_with_room freed memory before its first run
};

// Parses `ncu --csv` output (one row per metric: ..., "Kernel Name", ..., "Metric Name",
// "Metric Unit", "Metric Value"); rows of a kernel's later launches overwrite earlier ones.
// Lines that are not CSV rows (ncu's and the program's own output) are skipped.
std::map<std::string, KernelCounters> parse_ncu_csv(const std::string& text);

// ncu's `--kernel-name` value for the named Triton kernels, `regex:(a|b|...)` (names are
// identifiers; a name that is not is left out), or `regex:triton_` (every Triton kernel) when
// `kernels` names none.
std::string kernel_filter(const std::vector<std::string>& kernels);

// Runs `ncu ... python -m kernelopt.worker.ncu_target PROBLEM` with the worker's environment
// (so the run's Inductor cache makes the compile a load), killed after `timeout`; `scratch` holds
// its output files. Only `kernels` are profiled (kernel_filter): ncu replays each profiled kernel
// several times, saving and restoring the memory it writes, so on L3's models a profile of every
// kernel took 22-32 s of a 100 s search budget and, on L3/31, more than the 49 s it was given.
NcuProfile run_ncu(const worker::WorkerOptions& worker,
                   const std::string& problem,
                   const std::string& scratch,
                   std::chrono::seconds timeout,
                   const std::vector<std::string>& kernels = {});

// Whether the worker should stop before ncu's first run, so that the profiled forward gets the
// GPU to itself: the memory free beside the worker (`free_bytes`, as the driver sees it) is under
// what the worker's own forward and captures peaked at (`peak_bytes`), a bound on what the
// profiled forward may need, plus 1 GiB for ncu's own process. Unknown amounts (<= 0) say no.
// Retrying after an out-of-memory run alone was not enough: on L3/31 (H100) the failed
// run was not followed by a second one (the retry needs 10 s of ncu's limit left after it).
bool ncu_needs_room(double free_bytes, double peak_bytes);

// run_ncu, and where the profiled program ran out of GPU memory, `release()` (which frees what
// this process's worker holds on the GPU and says whether it freed anything) and run_ncu again
// with what is left of `timeout` (at least 10 s). The profiled forward runs beside the worker,
// whose captures of three seeds can fill the GPU: on an 80 GB H100, L3/31's worker held 75 GiB
// and the profiled forward's 8 GiB allocation was refused, so the search had no counters (on the
// 141 GB H200 it fit). With `release_first` (ncu_needs_room said so), `release()` comes before
// the first run instead, and a run that still runs out of memory is not repeated.
NcuProfile run_ncu_with_room(const worker::WorkerOptions& worker,
                             const std::string& problem,
                             const std::string& scratch,
                             std::chrono::seconds timeout,
                             const std::vector<std::string>& kernels,
                             const std::function<bool()>& release,
                             bool release_first = false);

}  // namespace kernelopt::profile
