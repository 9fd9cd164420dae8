// The profiler's stage: times, floors and Nsight Compute's counters of the searched segments.
#include "kernelopt/engine/profiling.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/optimize.hpp"
#include "kernelopt/engine/show.hpp"
#include "kernelopt/profile/ncu.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

worker::Environment worker_env(worker::Worker& worker, const VerifyOptions& options) {
  worker::Client client = raising_client(worker, options.problem);
  return *client.env({}, std::chrono::duration_cast<std::chrono::milliseconds>(options.timeout));
}

// The profiler's times: each segment's time, floor and share, from the baseline's show document
// when the caller has one, else measured now (every launch timed, the copy bandwidth measured);
// `launches` gets the launches' own (name, time_ms, floor_ms, as the show document lists them).
std::map<int, search::SegmentProfile> timed_segments(worker::Worker& worker,
                                                     const nlohmann::json& captured,
                                                     const VerifyOptions& options,
                                                     nlohmann::json& launches) {
  std::map<int, search::SegmentProfile> out;
  const auto from = [&](const nlohmann::json& seg) {
    out[seg.at("id").get<int>()] = search::segment_profile(seg);
  };
  if (options.baseline.is_object() && options.baseline.contains("segments")) {
    for (const auto& seg : options.baseline.at("segments")) {
      from(seg);
    }
    launches = options.baseline.value("launches", nlohmann::json::array());
    return out;
  }
  ShowOptions timing;
  timing.iters = 20;
  timing.timeout = options.timeout;
  std::vector<analysis::GraphRun> runs;
  for (const auto& graph : captured.at("graphs")) {
    runs.push_back(time_graph(worker, graph, timing, options.problem));
  }
  analysis::AnalysisOptions analysis_options = analysis_options_of(options);
  analysis_options.bandwidth_gbps = copy_bandwidth_gbps(worker);
  analysis_options.fp32_gflops = fp32_peak_gflops(worker_env(worker, options).document);
  const nlohmann::json map =
      analysis::to_json(analysis::build_dispatch_map(runs, analysis_options));
  for (const auto& seg : map.at("segments")) {
    from(seg);
  }
  launches = map.value("launches", nlohmann::json::array());
  return out;
}

// The kernels whose counters the search reads: a segment's counters are those of its longest
// kernel, so each searched segment's longest timed launch (all its launches when none was timed).
std::vector<std::string> counter_kernels(const std::map<int, std::vector<propose::Match>>& matches,
                                         const analysis::DispatchMap& map,
                                         const nlohmann::json& timed_launches) {
  std::vector<std::string> names;
  for (const auto& [id, offered] : matches) {
    const analysis::Segment& seg = map.segments[static_cast<std::size_t>(id)];
    std::string longest;
    double most = -1;
    for (const int launch : seg.launches) {
      const auto index = static_cast<std::size_t>(launch);
      const std::string& name = map.launches[index].name;
      if (index >= timed_launches.size() || timed_launches[index].value("name", "") != name ||
          !timed_launches[index].contains("time_ms")) {
        continue;
      }
      const double t = timed_launches[index].at("time_ms").get<double>();
      if (t > most) {
        most = t;
        longest = name;
      }
    }
    if (!longest.empty()) {
      names.push_back(longest);
      continue;
    }
    for (const int launch : seg.launches) {
      names.push_back(map.launches[static_cast<std::size_t>(launch)].name);
    }
  }
  return names;
}

}  // namespace

namespace {

// The worker's free and peak memory, for whether ncu's profiled forward needs the GPU to itself.
nlohmann::json worker_memory(worker::Worker& worker,
                             const VerifyOptions& options,
                             const Progress& say) {
  try {
    return worker_env(worker, options).document;
  } catch (const std::exception& e) {  // unknown: the out-of-memory retry still stands
    if (say) say(fmt::format("the worker's memory is unknown: {}", e.what()));
    return nlohmann::json::object();
  }
}

// Reads the counters of each segment's longest kernel with Nsight Compute, within `limit`.
// Where the profiled forward finds no room beside the worker's captures, the worker goes (the
// gates' ensure_ready loads the problem again from the run's Inductor cache): before the first
// run where the worker's own peak would not fit in what is free beside it, else after a run that
// ran out of memory. Returns the note for the document.
std::string read_counters(const VerifyOptions& options,
                          worker::Worker& worker,
                          const Workbench& bench,
                          const std::map<int, std::vector<propose::Match>>& matches,
                          std::chrono::seconds limit,
                          Profiles& profiles,
                          const Progress& say) {
  const analysis::DispatchMap& map = bench.graphs().map;
  const auto release = [&] {
    if (!worker.running()) return false;
    if (say) say("stopping the worker so that the profiled forward gets the GPU to itself");
    worker.kill();
    return true;
  };
  const nlohmann::json env = worker_memory(worker, options, say);
  const double free_b = env.value("free_memory_bytes", 0.0);
  const double peak_b = env.value("peak_memory_bytes", 0.0);
  const profile::NcuProfile ncu = profile::run_ncu_with_room(
      worker.options(), options.problem, (fs::path(options.run_dir) / "work" / "ncu").string(),
      limit, counter_kernels(matches, map, profiles.launches), release,
      profile::ncu_needs_room(free_b, peak_b));
  // A segment's counters are those of its longest profiled kernel.
  for (auto& [id, p] : profiles.segments) {
    for (const int launch : map.segments[static_cast<std::size_t>(id)].launches) {
      const auto it = ncu.kernels.find(map.launches[launch].name);
      if (it == ncu.kernels.end()) continue;
      if (!p.counters || it->second.duration_us > p.counters->duration_us) {
        p.counters = it->second;
      }
    }
  }
  // The amounts go into every note: where a run still fails, the note says what was free.
  const std::string room = free_b > 0 && peak_b > 0
                               ? fmt::format("{:.1f} GB free beside the worker, its peak {:.1f} GB",
                                             free_b / 1e9, peak_b / 1e9)
                               : std::string("the worker's memory unknown");
  const std::string stopped =
      ncu.released_first ? fmt::format(" (the worker stopped first: {})", room)
      : ncu.retried
          ? fmt::format(" (a second run, the worker stopped: the first ran out of memory; {})",
                        room)
          : fmt::format(" ({})", room);
  return (ncu.error.empty()
              ? fmt::format("{} kernel(s) in {:.1f} s", ncu.kernels.size(), ncu.seconds)
              : ncu.error) +
         stopped;
}

}  // namespace

Profiles profile_segments(const VerifyOptions& options,
                          worker::Worker& worker,
                          const Workbench& bench,
                          const std::map<int, std::vector<propose::Match>>& matches,
                          const std::function<double()>& left_s,
                          const Progress& progress) {
  Profiles out;
  if (matches.empty()) return out;
  if (progress) progress("profiling the segments");
  out.segments = timed_segments(worker, bench.captured(), options, out.launches);
  if (!options.counters) return out;
  // Nsight Compute replays the model once per kernel: with little of the budget left (a long
  // compile against the problem's deadline) the counters would leave nothing for candidates
  // (L3/27: 38 s left, all spent before the first candidate). ncu then gets at most half of what
  // is left, and is skipped under a minute.
  const double left = left_s();
  const auto limit = counters_limit(left, options.timeout);
  if (!limit) {
    out.counters_note = fmt::format("skipped: {:.0f} s of the search's budget left, under {:.0f} s",
                                    left, kMinCountersBudgetS);
    if (progress) progress(out.counters_note.get<std::string>());
    return out;
  }
  if (progress) progress("reading the Triton kernels' counters with Nsight Compute");
  out.counters_note = read_counters(options, worker, bench, matches, *limit, out, progress);
  return out;
}

}  // namespace kernelopt::engine
