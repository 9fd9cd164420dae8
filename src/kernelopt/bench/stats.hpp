// Timing statistics: medians, the ratio of two medians with a bootstrap confidence interval, and
// the speed class a ratio puts a candidate in (DESIGN.md section 4). Pure functions, no I/O.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace kernelopt::bench {

// The median of `samples` (the mean of the two middle values for an even count). Throws
// Error("kernelopt.stats") when `samples` is empty.
double median(std::vector<double> samples);

// A speedup with its percentile bootstrap confidence interval.
struct RatioEstimate {
  double ratio = 0.0;   // median(baseline) / median(candidate): > 1 means the candidate is faster
  double low = 0.0;     // lower bound of the interval on `ratio`
  double high = 0.0;    // upper bound of the interval on `ratio`
  int n_baseline = 0;   // how many baseline samples the estimate rests on
  int n_candidate = 0;  // how many candidate samples the estimate rests on
  double confidence = 0.0;  // the interval's nominal coverage, e.g. 0.95
};

// The ratio of medians median(baseline) / median(candidate) of two sets of timings (taken
// interleaved in one run, but not assumed paired), with a percentile bootstrap interval:
// `resamples` times, each set is resampled with replacement independently and the ratio of
// medians recomputed; low and high are the (1-confidence)/2 and (1+confidence)/2 percentiles.
// Deterministic for a given `seed` on every platform. Throws Error("kernelopt.stats") when a set
// has fewer than 5 samples, a sample is not a finite positive number, `resamples` < 1 or
// `confidence` is not strictly between 0 and 1.
RatioEstimate ratio_of_medians(const std::vector<double>& baseline,
                               const std::vector<double>& candidate,
                               int resamples = 2000,
                               double confidence = 0.95,
                               std::uint64_t seed = 1);

// The same ratio for timings taken on several captured instances of each side (CUDA graphs
// captured apart, whose buffers sit at different addresses): the point estimate is the ratio of
// the medians of each side's pooled samples, and the interval comes from a two-level bootstrap:
// each resample draws as many instances as the side has, with replacement, then within each
// drawn instance as many samples as it has, with replacement. So when the instances of a side
// disagree (a placement that speeds up a vendor kernel in one capture), the interval widens
// with that spread instead of treating one capture as the whole truth. With one instance per side
// it is ratio_of_medians' bootstrap. Throws Error("kernelopt.stats") when a side has no instance,
// an empty instance, fewer than 5 samples in all, or a sample that is not a finite positive time.
RatioEstimate ratio_of_medians_grouped(const std::vector<std::vector<double>>& baseline,
                                       const std::vector<std::vector<double>>& candidate,
                                       int resamples = 2000,
                                       double confidence = 0.95,
                                       std::uint64_t seed = 1);

// The same ratio for instances timed in pairs: baseline instance k's sample j was taken right
// before candidate instance k's sample j (the worker replays b0, c0, b1, c1, ... in turns), so a
// drift of the GPU's clock over the run moves both alike. The point estimate is
// ratio_of_medians_grouped's; the interval comes from a paired two-level bootstrap: each resample
// draws as many instance pairs as there are, with replacement, then within each drawn pair as
// many sample pairs as it has, with replacement, both sides of a pair together. A drift shared by
// the two sides then does not widen the interval (L3/43: a steady 1.5% gain in every
// pair, an unpaired interval of [0.97, 1.06]), while captures that disagree still do, since
// instances are resampled. Throws Error("kernelopt.stats") as ratio_of_medians_grouped does, and
// when the two sides do not have the same number of instances and of samples in each.
RatioEstimate ratio_of_medians_paired(const std::vector<std::vector<double>>& baseline,
                                      const std::vector<std::vector<double>>& candidate,
                                      int resamples = 2000,
                                      double confidence = 0.95,
                                      std::uint64_t seed = 1);

// Whether two sides' instances can be paired: as many instances, and as many samples in each.
bool pairable(const std::vector<std::vector<double>>& baseline,
              const std::vector<std::vector<double>>& candidate);

// Where a ratio puts a candidate against its baseline.
enum class SpeedClass {
  kFaster,   // ratio >= faster_min and the whole interval above 1
  kMatched,  // neither clearly faster nor slower
  kSlower    // ratio < slower_max
};

// kFaster when ratio >= faster_min and low > 1.0; kSlower when ratio < slower_max; else kMatched.
SpeedClass classify(const RatioEstimate& estimate,
                    double faster_min = 1.01,
                    double slower_max = 0.97);

// "faster", "matched" or "slower".
std::string_view to_string(SpeedClass speed_class);

}  // namespace kernelopt::bench
