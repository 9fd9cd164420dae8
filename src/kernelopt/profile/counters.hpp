#pragma once

// What Nsight Compute measured about one kernel: the profiler fills it, the strategy analyst
// (search/roles.hpp) reads it.

namespace kernelopt::profile {

// Nsight Compute's numbers for one kernel (the sections SpeedOfLight, Occupancy, LaunchStats).
struct KernelCounters {
  double memory_pct = 0;          // SOL memory throughput, % of peak
  double compute_pct = 0;         // SOL compute (SM) throughput, % of peak
  double achieved_occupancy = 0;  // %
  double theoretical_occupancy = 0;
  int registers = 0;       // per thread
  double grid_size = 0;    // programs launched
  double duration_us = 0;  // the profiled launch's duration
};

}  // namespace kernelopt::profile
