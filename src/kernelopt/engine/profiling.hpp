#pragma once
// The profiler's stage of the optimize loop: each searched segment's time, floor and share (from
// bench's baseline document or timed now), and, where Nsight Compute can read them and the
// budget leaves room, the counters of each segment's longest kernel.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/workbench.hpp"
#include "kernelopt/propose/match.hpp"
#include "kernelopt/search/roles.hpp"

namespace kernelopt::engine {

struct Profiles {
  std::map<int, search::SegmentProfile> segments;       // by segment id
  nlohmann::json launches = nlohmann::json::array();    // every launch's name, time_ms, floor_ms
  nlohmann::json counters_note = "off (--no-profile)";  // what ncu gave, for the document
};

// Times the segments of `matches` and reads their counters within the seconds `left_s` says
// are left of the search's budget once they are timed.
Profiles profile_segments(const VerifyOptions& options,
                          worker::Worker& worker,
                          const Workbench& bench,
                          const std::map<int, std::vector<propose::Match>>& matches,
                          const std::function<double()>& left_s,
                          const Progress& progress);

}  // namespace kernelopt::engine
