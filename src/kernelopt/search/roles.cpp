#include "kernelopt/search/roles.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/analysis/dispatch.hpp"

namespace kernelopt::search {

namespace {

constexpr double kBusyPct = 60.0;       // SOL % that makes a unit the bottleneck
constexpr double kIdlePct = 40.0;       // both units under this: underutilized
constexpr double kLowOccupancy = 25.0;  // achieved occupancy % under this: underutilized
constexpr double kLosingRatio = 0.8;    // a strategy whose best is this slow is lost
constexpr int kLosingTries = 2;         // once it has had this many timed candidates

}  // namespace

std::string to_string(Bottleneck b) {
  switch (b) {
    case Bottleneck::kNearOptimal:
      return "near-optimal";
    case Bottleneck::kMemoryBound:
      return "memory-bound";
    case Bottleneck::kComputeBound:
      return "compute-bound";
    case Bottleneck::kUnderutilized:
      return "underutilized";
    case Bottleneck::kUnknown:
      break;
  }
  return "unknown";
}

std::optional<double> one_pass_floor(const nlohmann::json& segment) {
  const auto number = [&](const char* key) {
    return segment.contains(key) && segment.at(key).is_number() ? segment.at(key).get<double>()
                                                                : 0.0;
  };
  const double floor = number("floor_ms");
  const double bytes = number("bytes");
  const double reread = number("reread_bytes");
  if (floor <= 0 || bytes <= 0 || reread <= 0) return std::nullopt;
  // Where a product's arithmetic sets the floor, no memory floor is what is left to reach.
  if (analysis::compute_floor_holds(segment)) return std::nullopt;
  return floor * bytes / (bytes + reread);
}

SegmentProfile segment_profile(const nlohmann::json& segment) {
  SegmentProfile p;
  p.segment = segment.value("id", 0);
  p.time_ms = segment.value("time_ms", 0.0);
  p.share = segment.value("share", 0.0);
  if (segment.contains("floor_ms") && segment.at("floor_ms").is_number()) {
    p.floor_ms = segment.at("floor_ms").get<double>();
  }
  p.one_pass_floor_ms = one_pass_floor(segment);
  p.compute_floor = analysis::compute_floor_holds(segment);
  return p;
}

bool at_floor(const nlohmann::json& segment) {
  return analyze(segment_profile(segment)).bottleneck == Bottleneck::kNearOptimal;
}

double potential_ms(const SegmentProfile& p) {
  double floor = p.one_pass_floor_ms.value_or(p.floor_ms.value_or(0));
  if (floor <= 0) floor = p.time_ms * (1 - kMinPotential);
  return std::max(p.time_ms - floor, p.time_ms * kMinPotential);
}

double budget_share(double left_s, double potential, double remaining_potential) {
  if (left_s <= 0) return 0;
  if (remaining_potential <= potential || remaining_potential <= 0) return left_s;
  return left_s * std::max(potential, 0.0) / remaining_potential;
}

Analysis analyze(const SegmentProfile& p) {
  Analysis a;
  a.segment = p.segment;
  if (p.floor_ms && *p.floor_ms > 0) a.headroom = p.time_ms / *p.floor_ms;
  std::string head = a.headroom
                         ? fmt::format("{:.3f} ms, {:.2f}x its floor", p.time_ms, *a.headroom)
                         : fmt::format("{:.3f} ms, floor unknown", p.time_ms);
  // A two-pass floor is near only when the one-pass floor is too.
  double measure = a.headroom.value_or(0);
  if (a.headroom && p.one_pass_floor_ms && *p.one_pass_floor_ms > 0) {
    measure = p.time_ms / *p.one_pass_floor_ms;
    head += fmt::format(" (two-pass; {:.2f}x the one-pass floor)", measure);
  }
  if (a.headroom && measure < kNearFloor) {
    a.bottleneck = Bottleneck::kNearOptimal;
    a.why = head;
    return a;
  }
  if (!p.counters) {
    if (a.headroom && p.compute_floor) {
      a.bottleneck = Bottleneck::kComputeBound;
      a.why =
          head + "; no counters: the floor is a compute floor (float32 products at the peak rate)";
      return a;
    }
    a.bottleneck = a.headroom ? Bottleneck::kMemoryBound : Bottleneck::kUnknown;
    a.why = head + (a.headroom ? "; no counters: the floor is a memory floor" : "; no counters");
    return a;
  }
  const KernelCounters& c = *p.counters;
  const std::string counters = fmt::format(
      "; SOL memory {:.0f}%, compute {:.0f}%, occupancy {:.0f}% (of {:.0f}%), "
      "{} registers",
      c.memory_pct, c.compute_pct, c.achieved_occupancy, c.theoretical_occupancy, c.registers);
  a.why = head + counters;
  const bool memory_busy = c.memory_pct >= kBusyPct && c.memory_pct >= c.compute_pct;
  const bool compute_busy = !memory_busy && c.compute_pct >= kBusyPct;
  const bool idle = (c.memory_pct < kIdlePct && c.compute_pct < kIdlePct) ||
                    (c.achieved_occupancy > 0 && c.achieved_occupancy < kLowOccupancy);
  // Between the marks and above the floor, the bytes are what is left to win.
  a.bottleneck = compute_busy           ? Bottleneck::kComputeBound
                 : !memory_busy && idle ? Bottleneck::kUnderutilized
                                        : Bottleneck::kMemoryBound;
  return a;
}

void Memory::record(const Attempt& attempt) {
  if (enabled_) attempts_.push_back(attempt);
}

bool Memory::tried(int segment, const std::string& strategy, const nlohmann::json& settings) const {
  return std::any_of(attempts_.begin(), attempts_.end(), [&](const Attempt& a) {
    return a.segment == segment && a.strategy == strategy && a.settings == settings;
  });
}

std::optional<std::string> Memory::abandoned(int segment, const std::string& strategy) const {
  int timed = 0;
  double best = 0;
  for (const Attempt& a : attempts_) {
    if (a.segment != segment || a.strategy != strategy) continue;
    if (!a.correct &&
        std::find(independent_.begin(), independent_.end(), strategy) == independent_.end()) {
      return fmt::format("a candidate failed {} ({})",
                         a.failed_gate.empty() ? "a gate" : a.failed_gate, a.reason);
    }
    if (a.ratio) {
      ++timed;
      best = std::max(best, *a.ratio);
    }
  }
  if (timed >= kLosingTries && best <= kLosingRatio) {
    return fmt::format("{} candidates, the best at {:.2f}x of the baseline", timed, best);
  }
  return std::nullopt;
}

nlohmann::json Memory::summary() const {
  std::map<std::pair<int, std::string>, nlohmann::json> rows;
  for (const Attempt& a : attempts_) {
    nlohmann::json& row = rows[{a.segment, a.strategy}];
    if (row.is_null()) {
      row = {{"segment", a.segment},
             {"strategy", a.strategy},
             {"tries", 0},
             {"correct", 0},
             {"accepted", 0},
             {"best_ratio", nullptr},
             {"failures", nlohmann::json::array()}};
    }
    row["tries"] = row["tries"].get<int>() + 1;
    row["correct"] = row["correct"].get<int>() + (a.correct ? 1 : 0);
    row["accepted"] = row["accepted"].get<int>() + (a.accepted ? 1 : 0);
    if (a.ratio && (row["best_ratio"].is_null() || *a.ratio > row["best_ratio"].get<double>())) {
      row["best_ratio"] = *a.ratio;
    }
    if (!a.accepted) {
      row["failures"].push_back({{"round", a.round},
                                 {"settings", a.settings},
                                 {"gate", a.failed_gate},
                                 {"reason", a.reason}});
    }
  }
  nlohmann::json out = nlohmann::json::array();
  for (auto& [key, row] : rows) {
    out.push_back(std::move(row));
  }
  return out;
}

bool measurably_faster(const Attempt& attempt) {
  return attempt.ratio && *attempt.ratio >= kMinSpeedup && attempt.ratio_low &&
         *attempt.ratio_low > 1.0 &&
         (!attempt.ratio_worst_capture || *attempt.ratio_worst_capture > 1.0);
}

void read_timing(const nlohmann::json& numbers, Attempt& attempt) {
  const auto read = [&](const char* name) -> std::optional<double> {
    if (numbers.is_object() && numbers.contains(name) && numbers.at(name).is_number()) {
      return numbers.at(name).get<double>();
    }
    return std::nullopt;
  };
  attempt.ratio = read("ratio");
  attempt.ratio_low = read("ratio_low");
  attempt.ratio_worst_capture = read("ratio_worst_capture");
}

std::vector<Strategy> plan(const Analysis& analysis,
                           const std::map<std::string, std::string>& offered,
                           const Memory& memory,
                           std::vector<std::string>* dropped) {
  std::vector<Strategy> out;
  if (analysis.bottleneck == Bottleneck::kNearOptimal) return out;
  // Recipes change the algorithm (passes, access pattern): the lever for bytes. Launch
  // configurations change parallelism and per-program work: the lever for idle units. A rewrite
  // changes Inductor's own kernel: fewer passes, or less arithmetic per element (shifted sums
  // instead of a Welford division), the lever for a compute-bound segment.
  const std::vector<const char*> order =
      analysis.bottleneck == Bottleneck::kComputeBound
          ? std::vector<const char*>{"rewrite", "config", "recipe", "agent"}
      : analysis.bottleneck == Bottleneck::kUnderutilized
          ? std::vector<const char*>{"config", "rewrite", "recipe", "agent"}
          : std::vector<const char*>{"recipe", "rewrite", "config", "agent"};
  for (const char* kind : order) {
    for (const auto& [name, proposer] : offered) {
      if (proposer != kind) continue;
      if (const auto why = memory.abandoned(analysis.segment, name)) {
        if (dropped != nullptr) dropped->push_back(name + ": " + *why);
        continue;
      }
      out.push_back(
          {name,
           fmt::format("{} segment ({})", to_string(analysis.bottleneck),
                       proposer == std::string("agent")
                           ? "a language model's chains: planner, executor, directed retries"
                       : proposer == std::string("recipe") ? "a recipe: fewer passes, better access"
                       : proposer == std::string("rewrite")
                           ? "a rewrite of Inductor's kernel: fewer passes or less arithmetic"
                           : "launch configuration: parallelism, work per program")});
    }
  }
  return out;
}

}  // namespace kernelopt::search
