// `kernelopt verify`: run the gate cascade on hand-written candidates and, when the recomposed
// model is accepted, write RUN_DIR/optimized/. Stages: handshake, environment, load, capture
// (3 seeds), parse + segments, probes (each segment's real inputs and outputs), the cascade,
// the outcome class, emission.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/show.hpp"
#include "kernelopt/gate/gate.hpp"
#include "kernelopt/search/beam.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::engine {

struct VerifyOptions {
  std::string problem;                                  // the problem file
  std::vector<std::pair<int, std::string>> candidates;  // segment id -> candidate file
  std::string run_dir;                                  // store, graphs, optimized/
  std::chrono::seconds timeout{1800};                   // load / capture deadline
  std::chrono::seconds gate_timeout{600};               // each gate request's deadline
  gate::Thresholds thresholds;
  bool each = false;  // check every candidate on its own (G1-G4 each), sharing one capture
  // The fields below are optimize's (optimize.hpp): the search's settings.
  search::BeamOptions beam;  // width, rounds, budget (for the whole problem), diversity
  bool memory = true;        // the summarizer (--no-memory: off)
  bool counters = true;      // the profiler's Nsight Compute counters (--no-profile: off)
  nlohmann::json baseline;   // bench: the baseline's show document, whose segment times are used
  // optimize: segments the search leaves alone, with why (from the baseline's timings: a tiny
  // share of the GPU time, or already at its floor); they keep the compiler's kernels.
  std::map<int, std::string> skip;
  // Off (--no-dispatch-aware, an ablation): vendor-library matrix products become segments of
  // their own that the gemm recipe may replace.
  bool dispatch_aware = true;
  // On (--split-segments): every Triton launch is a segment of its own.
  bool split_launches = false;
  // On (--vendor): after the Triton search, the vendor knobs that are settings alone (cuDNN's
  // algorithm by measurement, cuBLASLt), each on top of the chosen set (docs/vendor.md).
  bool vendor = false;
  // bench: when the problem's --timeout ends. The search's budget never runs past it (the worker
  // the watchdog kills there would otherwise be restarted by the gates, and the search go on).
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // The cache of verified segments (reuse.hpp): on by default, in cache_dir when it is set, else
  // in the user's cache folder; off with --no-cache.
  bool use_cache = true;
  std::string cache_dir;
};

// Runs verify; returns the result document (per candidate and per set: each gate's verdict with
// its numbers; the outcome class). Throws kernelopt::Error for bad input or a missing GPU.
nlohmann::json run_verify(const VerifyOptions& options,
                          worker::Worker& worker,
                          const Progress& progress);

// Parses "SEGMENT=FILE" (segment as "3" or "seg3"); throws Error (usage) when malformed.
std::pair<int, std::string> parse_candidate_spec(const std::string& spec);

// Writes one graph's recomposed module and its candidates' files into `dir`; returns the module's
// path. Graphs without replacements are copied unchanged.
std::string emit_graph(const std::string& dir,
                       int graph,
                       const std::string& source,
                       const inductor::OutputCode& code,
                       const std::vector<gate::Candidate>& replaced);

// Writes `dir` (RUN_DIR/optimized): every graph's module (recomposed where a candidate was
// accepted), the candidates, a copy of the problem file, manifest.json and the worker's runtime
// record (the capture document's `runtime` file), which `kernelopt.load(dir)` reads; `vendor`:
// the vendor knobs the accepted graphs were verified under. Returns the manifest.
nlohmann::json write_optimized(const std::filesystem::path& dir,
                               const std::string& problem,
                               const nlohmann::json& captured,
                               const std::vector<std::string>& texts,
                               const std::vector<analysis::GraphRun>& runs,
                               const std::vector<gate::Candidate>& accepted,
                               const std::vector<std::string>& vendor,
                               const nlohmann::json& verdicts);

}  // namespace kernelopt::engine
