#include "kernelopt/bench/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/core/check.hpp"
#include "kernelopt/core/error.hpp"

namespace kernelopt::bench {
namespace {

constexpr std::size_t kMinSamples = 5;

[[noreturn]] void fail(const std::string& message) {
  throw Error("kernelopt.stats", message);
}

void check_samples(const std::vector<double>& samples, const char* which) {
  if (samples.size() < kMinSamples) {
    fail(fmt::format("ratio_of_medians needs at least {} {} samples, got {}", kMinSamples, which,
                     samples.size()));
  }
  for (const double s : samples) {
    if (!std::isfinite(s) || s <= 0.0) {
      fail(fmt::format("ratio_of_medians: {} sample {} is not a finite positive time", which, s));
    }
  }
}

// The median of `samples`, which is reordered; `samples` must not be empty.
double median_in_place(std::vector<double>& samples) {
  KO_CHECK(!samples.empty());
  const std::size_t mid = samples.size() / 2;
  const auto mid_it = samples.begin() + static_cast<std::ptrdiff_t>(mid);
  std::nth_element(samples.begin(), mid_it, samples.end());
  if (samples.size() % 2 == 1) return *mid_it;
  const double below = *std::max_element(samples.begin(), mid_it);
  return below + (*mid_it - below) / 2.0;
}

// A uniform index in [0, n): rejection of the low 2^64 mod n values removes the modulo bias.
// Written out because std::uniform_int_distribution differs between standard libraries.
std::size_t draw_index(std::mt19937_64& gen, std::size_t n) {
  const auto bound = static_cast<std::uint64_t>(n);
  const std::uint64_t threshold = (0 - bound) % bound;
  std::uint64_t r = gen();
  while (r < threshold) {
    r = gen();
  }
  return static_cast<std::size_t>(r % bound);
}

// Median of a resample of `samples` drawn with replacement; `scratch` is reused between calls.
double resampled_median(const std::vector<double>& samples,
                        std::mt19937_64& gen,
                        std::vector<double>& scratch) {
  scratch.resize(samples.size());
  for (double& x : scratch) {
    x = samples[draw_index(gen, samples.size())];
  }
  return median_in_place(scratch);
}

// The p-quantile of sorted values, interpolating linearly between order statistics.
double percentile(const std::vector<double>& sorted, double p) {
  KO_CHECK(!sorted.empty());
  const double pos = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

void check_options(int resamples, double confidence) {
  if (resamples < 1) {
    fail(fmt::format("ratio_of_medians: resamples must be >= 1, got {}", resamples));
  }
  if (!(confidence > 0.0 && confidence < 1.0)) {
    fail(fmt::format("ratio_of_medians: confidence must be in (0, 1), got {}", confidence));
  }
}

// One side's instances, checked, and their samples pooled.
std::vector<double> pooled(const std::vector<std::vector<double>>& groups, const char* which) {
  if (groups.empty()) fail(fmt::format("ratio_of_medians: no {} instance", which));
  std::vector<double> all;
  for (const std::vector<double>& g : groups) {
    if (g.empty()) fail(fmt::format("ratio_of_medians: an empty {} instance", which));
    all.insert(all.end(), g.begin(), g.end());
  }
  check_samples(all, which);
  return all;
}

// Both sides' instances and the options, checked; each side's samples pooled.
std::pair<std::vector<double>, std::vector<double>> checked_pools(
    const std::vector<std::vector<double>>& baseline,
    const std::vector<std::vector<double>>& candidate,
    int resamples,
    double confidence) {
  std::vector<double> base_all = pooled(baseline, "baseline");
  std::vector<double> cand_all = pooled(candidate, "candidate");
  check_options(resamples, confidence);
  return {std::move(base_all), std::move(cand_all)};
}

// Median of a two-level resample: instances drawn with replacement, then samples within each.
double resampled_grouped_median(const std::vector<std::vector<double>>& groups,
                                std::mt19937_64& gen,
                                std::vector<double>& scratch) {
  scratch.clear();
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const std::vector<double>& g = groups[draw_index(gen, groups.size())];
    for (std::size_t i = 0; i < g.size(); ++i) {
      scratch.push_back(g[draw_index(gen, g.size())]);
    }
  }
  return median_in_place(scratch);
}

RatioEstimate estimate_from(std::vector<double> ratios,
                            double ratio,
                            double confidence,
                            std::size_t n_baseline,
                            std::size_t n_candidate) {
  std::sort(ratios.begin(), ratios.end());
  RatioEstimate out;
  out.ratio = ratio;
  out.low = percentile(ratios, (1.0 - confidence) / 2.0);
  out.high = percentile(ratios, (1.0 + confidence) / 2.0);
  out.n_baseline = static_cast<int>(n_baseline);
  out.n_candidate = static_cast<int>(n_candidate);
  out.confidence = confidence;
  return out;
}

}  // namespace

double median(std::vector<double> samples) {
  if (samples.empty()) fail("median of no samples");
  return median_in_place(samples);
}

RatioEstimate ratio_of_medians(const std::vector<double>& baseline,
                               const std::vector<double>& candidate,
                               int resamples,
                               double confidence,
                               std::uint64_t seed) {
  check_samples(baseline, "baseline");
  check_samples(candidate, "candidate");
  check_options(resamples, confidence);

  std::mt19937_64 gen(seed);
  std::vector<double> scratch;
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(resamples));
  for (int i = 0; i < resamples; ++i) {
    const double b = resampled_median(baseline, gen, scratch);
    const double c = resampled_median(candidate, gen, scratch);
    ratios.push_back(b / c);
  }
  return estimate_from(std::move(ratios), median(baseline) / median(candidate), confidence,
                       baseline.size(), candidate.size());
}

RatioEstimate ratio_of_medians_grouped(const std::vector<std::vector<double>>& baseline,
                                       const std::vector<std::vector<double>>& candidate,
                                       int resamples,
                                       double confidence,
                                       std::uint64_t seed) {
  const auto [base_all, cand_all] = checked_pools(baseline, candidate, resamples, confidence);

  std::mt19937_64 gen(seed);
  std::vector<double> scratch;
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(resamples));
  for (int i = 0; i < resamples; ++i) {
    const double b = resampled_grouped_median(baseline, gen, scratch);
    const double c = resampled_grouped_median(candidate, gen, scratch);
    ratios.push_back(b / c);
  }
  return estimate_from(std::move(ratios), median(base_all) / median(cand_all), confidence,
                       base_all.size(), cand_all.size());
}

bool pairable(const std::vector<std::vector<double>>& baseline,
              const std::vector<std::vector<double>>& candidate) {
  if (baseline.empty() || baseline.size() != candidate.size()) return false;
  for (std::size_t k = 0; k < baseline.size(); ++k) {
    if (baseline[k].size() != candidate[k].size()) return false;
  }
  return true;
}

RatioEstimate ratio_of_medians_paired(const std::vector<std::vector<double>>& baseline,
                                      const std::vector<std::vector<double>>& candidate,
                                      int resamples,
                                      double confidence,
                                      std::uint64_t seed) {
  const auto [base_all, cand_all] = checked_pools(baseline, candidate, resamples, confidence);
  if (!pairable(baseline, candidate)) {
    fail("ratio_of_medians_paired: the sides need as many instances and samples in each");
  }
  std::mt19937_64 gen(seed);
  std::vector<double> b;
  std::vector<double> c;
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(resamples));
  for (int i = 0; i < resamples; ++i) {
    b.clear();
    c.clear();
    for (std::size_t k = 0; k < baseline.size(); ++k) {
      const std::size_t pick = draw_index(gen, baseline.size());
      const std::vector<double>& bk = baseline[pick];
      const std::vector<double>& ck = candidate[pick];
      for (std::size_t j = 0; j < bk.size(); ++j) {
        const std::size_t at = draw_index(gen, bk.size());
        b.push_back(bk[at]);
        c.push_back(ck[at]);
      }
    }
    ratios.push_back(median_in_place(b) / median_in_place(c));
  }
  return estimate_from(std::move(ratios), median(base_all) / median(cand_all), confidence,
                       base_all.size(), cand_all.size());
}

SpeedClass classify(const RatioEstimate& estimate, double faster_min, double slower_max) {
  if (estimate.ratio >= faster_min && estimate.low > 1.0) return SpeedClass::kFaster;
  if (estimate.ratio < slower_max) return SpeedClass::kSlower;
  return SpeedClass::kMatched;
}

std::string_view to_string(SpeedClass speed_class) {
  switch (speed_class) {
    case SpeedClass::kFaster:
      return "faster";
    case SpeedClass::kMatched:
      return "matched";
    case SpeedClass::kSlower:
      return "slower";
  }
  KO_CHECK(false);
  return "";
}

}  // namespace kernelopt::bench
