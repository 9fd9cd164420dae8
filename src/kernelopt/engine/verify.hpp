// `kernelopt verify`: run the gate cascade on hand-written candidates and, when the recomposed
// model is accepted, write RUN_DIR/optimized/. Stages: handshake, environment, load, capture
// (3 seeds), parse + segments, probes (each segment's real inputs and outputs), the cascade,
// the outcome class, emission.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/show.hpp"
#include "kernelopt/gate/gate.hpp"
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
  // optimize: no hand-written candidates; the recipe proposer writes candidates for the segments
  // it matches (several launch settings each, into RUN_DIR/candidates/), every one goes through
  // the gates alone, and the fastest accepted candidate of each segment is then checked together
  // with the others and written to optimized/.
  bool propose = false;
  // optimize: segments the search leaves alone, with why (from the baseline's timings: a tiny
  // share of the GPU time, or already at its floor); they keep the compiler's kernels.
  std::map<int, std::string> skip;
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
// accepted), the candidates, a copy of the problem file and manifest.json, which
// `kernelopt.load(dir)` reads. Returns the manifest.
nlohmann::json write_optimized(const std::filesystem::path& dir,
                               const std::string& problem,
                               const nlohmann::json& captured,
                               const std::vector<std::string>& texts,
                               const std::vector<analysis::GraphRun>& runs,
                               const std::vector<gate::Candidate>& accepted,
                               const nlohmann::json& verdicts);

}  // namespace kernelopt::engine
