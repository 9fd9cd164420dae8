#pragma once
// The search's roles (DESIGN section 3.4), as plain C++ with no GPU in them: what the profiler
// measured about a segment, the strategy analyst's verdict on it, the summarizer's memory of what
// was tried and what it gave, and the planner that orders the strategies worth trying next. The
// engine feeds them the worker's numbers; the beam (beam.hpp) and the proposers act on them.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/profile/counters.hpp"

namespace kernelopt::search {

using profile::KernelCounters;

// What the profiler knows about one segment: its time and floor (always), and the counters of
// its longest kernel where ncu could read them.
struct SegmentProfile {
  int segment = 0;
  double time_ms = 0;
  std::optional<double> floor_ms;
  // Where floor_ms is the two-pass floor (a norm or softmax whose rows do not fit on chip): the
  // one-pass floor, which a kernel whose second read hits L2 can approach.
  std::optional<double> one_pass_floor_ms;
  // floor_ms is the compute floor of full-float32 matrix products (their multiply-adds at the
  // GPU's peak float32 rate), not a memory floor.
  bool compute_floor = false;
  double share = 0;  // of the model's GPU time
  std::optional<KernelCounters> counters;
};

// A segment whose time is under this multiple of its floor has nothing to gain: the analyst calls
// it near-optimal and the bench's triage does not search it. For a two-pass floor the measure is
// the one-pass floor: rows split among programs reread from L2 (L1/23's softmax beat its two-pass
// floor by 5%).
inline constexpr double kNearFloor = 1.03;

// What a segment could give, in ms: its time above its floor (the one-pass floor where there is
// one), and at least kMinPotential of its time (a floor says nothing of a compute-bound kernel).
inline constexpr double kMinPotential = 0.05;
double potential_ms(const SegmentProfile& profile);

// The seconds of what is left of a problem's search budget that the next segment gets: in
// proportion to its potential over that of every segment not searched yet, itself included. What a
// segment leaves unspent (a plateau) passes to the next ones; the last gets all that is left.
double budget_share(double left_s, double potential, double remaining_potential);

// The one-pass floor of a segment of show's JSON whose floor is two-pass ("reread_bytes" > 0):
// floor_ms * bytes / (bytes + reread_bytes); nullopt otherwise.
std::optional<double> one_pass_floor(const nlohmann::json& segment);

// What show's JSON says of a segment: id, time, share, floor, and the one-pass floor where the
// floor is two-pass (no counters).
SegmentProfile segment_profile(const nlohmann::json& segment);

// Whether a segment of show's JSON is at its floor: the analyst's near-optimal verdict on it (the
// one-pass floor where it has one).
bool at_floor(const nlohmann::json& segment);

enum class Bottleneck { kNearOptimal, kMemoryBound, kComputeBound, kUnderutilized, kUnknown };

std::string to_string(Bottleneck b);

// The strategy analyst's verdict on a segment.
struct Analysis {
  int segment = 0;
  Bottleneck bottleneck = Bottleneck::kUnknown;
  std::optional<double> headroom;  // time / floor
  std::string why;                 // one line, with the numbers it used
};

// Near the floor (headroom under 1.03) is near-optimal whatever the counters say. With counters:
// memory-bound when SOL memory is at least 60%, compute-bound when SOL compute is, underutilized
// when both are under 40% or the achieved occupancy is under 25%. Without counters (no ncu, or
// --no-profile) a segment above its floor is memory-bound (the floor is a memory floor) when its
// headroom is known, unknown otherwise.
Analysis analyze(const SegmentProfile& profile);

// One candidate's fate, as the summarizer records it.
struct Attempt {
  int segment = 0;
  std::string strategy;     // "recipe:scan", ...
  nlohmann::json settings;  // the launch settings it was written with
  int round = 0;
  bool correct = false;             // passed the static and correctness gates
  std::optional<double> ratio;      // G4's median ratio, when it got there
  std::optional<double> ratio_low;  // the low end of its 95% confidence interval
  // The slowest candidate capture against the fastest baseline capture (per-capture medians),
  // when G4 timed several captures of each side.
  std::optional<double> ratio_worst_capture;
  bool accepted = false;
  std::string failed_gate;  // "", or the first gate that stopped it
  std::string reason;       // that gate's reason
};

// A candidate is chosen only when it is measurably faster: a median of at least kMinSpeedup, a
// confidence interval wholly above 1.0 and, when G4 timed several captures of each side, every
// candidate capture faster than every baseline capture. G4 passes candidates down to 0.97x
// (noise); a replacement at 1.001x is noise too, and a separate run can find it at 0.998x. The
// capture rule is for where a graph's buffers land deciding a vendor kernel's speed (L2/61:
// about one capture in three ran 7% faster, on either side): a search that times fifty
// candidates picks the one whose captures were luckiest, so a gain that the placement lottery
// can produce is not taken for one.
inline constexpr double kMinSpeedup = 1.01;
bool measurably_faster(const Attempt& attempt);

// G4's numbers (ratio, ratio_low, ratio_worst_capture) into an attempt, each where it is a number.
void read_timing(const nlohmann::json& numbers, Attempt& attempt);

// The summarizer: what was tried per segment and strategy, what it gave and why it failed, so
// the planner does not try a failed direction blindly again. Disabled (the --no-memory ablation),
// it records nothing and remembers nothing.
class Memory {
 public:
  explicit Memory(bool enabled = true) : enabled_(enabled) {}

  void record(const Attempt& attempt);
  // Whether these exact settings of this strategy were already tried on the segment.
  [[nodiscard]] bool tried(int segment,
                           const std::string& strategy,
                           const nlohmann::json& settings) const;
  // Why a strategy is not worth more tries on the segment, or nullopt: it produced a wrong or
  // crashing candidate (its code is wrong, other settings will not mend it), or two or more of
  // its candidates were timed and the best of them ran at most 0.8x of the baseline.
  [[nodiscard]] std::optional<std::string> abandoned(int segment,
                                                     const std::string& strategy) const;
  // Per segment and strategy: tries, correct, best ratio, the failures with their reasons.
  [[nodiscard]] nlohmann::json summary() const;

  [[nodiscard]] const std::vector<Attempt>& attempts() const { return attempts_; }

  [[nodiscard]] bool enabled() const { return enabled_; }

  // Marks a strategy whose candidates are independent samples (a language model's chains, each
  // with its own directed retries): a wrong one does not abandon it.
  void independent(const std::string& strategy) { independent_.push_back(strategy); }

 private:
  bool enabled_;
  std::vector<std::string> independent_;
  std::vector<Attempt> attempts_;
};

// A strategy the planner chose for a segment.
struct Strategy {
  std::string name;  // "recipe:scan"
  std::string why;
};

// The planner: the strategies worth trying on the segment, best first, from the ones the
// proposers offer for it (`offered`, strategy name -> the proposer's kind: "recipe" or
// "config"), the analysis and the memory. A near-optimal segment gets none. Memory-bound and
// unknown segments try recipes (fewer passes, better access) before launch configurations;
// underutilized and compute-bound ones try configurations first; a language model's chains
// (kind "agent") come last. Strategies the memory has abandoned are left out, with the reason in
// `dropped`.
std::vector<Strategy> plan(const Analysis& analysis,
                           const std::map<std::string, std::string>& offered,
                           const Memory& memory,
                           std::vector<std::string>* dropped = nullptr);

}  // namespace kernelopt::search
