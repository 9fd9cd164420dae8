#pragma once
// `kernelopt optimize`: the search loop. For each segment worth searching (largest first), the
// planner orders the strategies the proposers offer, the beam asks the proposers for candidates,
// the gates judge each one, and what they say is recorded (the result document, the store, the
// proposer's observe) and fed back to the beam and the summarizer. The fastest accepted
// candidate of each segment is then checked with the others on the whole model, timed again,
// and written to RUN_DIR/optimized/. A segment's verified replacement found by an earlier run
// (the cache, keyed by the segment's fingerprint) is re-checked by the gates before any search.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/verify.hpp"
#include "kernelopt/gate/cascade.hpp"
#include "kernelopt/propose/match.hpp"
#include "kernelopt/search/beam.hpp"

namespace kernelopt::engine {

// Seconds the search leaves before a deadline: for checking the chosen candidates together.
inline constexpr double kDeadlineMarginSeconds = 60;

// The search's budget from `now`: --budget, cut so that it ends kDeadlineMarginSeconds before the
// deadline when there is one (0 when that has passed).
double search_budget(const VerifyOptions& options, std::chrono::steady_clock::time_point now);

// How long Nsight Compute may read the counters when `left_s` seconds of the search's budget are
// left after profiling: at most half of that (and the problem's timeout, and 120 s); nullopt
// (skipped) under kMinCountersBudgetS, so that the counters never take what candidates need.
inline constexpr double kMinCountersBudgetS = 60;
std::optional<std::chrono::seconds> counters_limit(double left_s, std::chrono::seconds timeout);

// The search's switches as the command line gives them (optimize, and bench --search); the
// ablations of the paper's section 6.4 switch parts off.
struct SearchFlags {
  int beam_width = 3;
  int rounds = 5;
  double budget_s = 180;           // seconds of worker (GPU) time for a problem's search
  bool no_beam = false;            // ablation: a beam of one, no diversity (greedy)
  bool no_profile = false;         // ablation: no Nsight Compute counters for the analyst
  bool no_memory = false;          // ablation: the summarizer remembers nothing
  bool no_perf_gate = false;       // ablation: G4 measures every candidate but rejects none
  bool no_dispatch_aware = false;  // ablation: extern matrix products become replaceable too
  bool split_segments = false;     // every Triton launch a segment (config/rewrite reach all)
  bool no_cache = false;           // neither reuse nor record verified segments
  bool vendor = false;             // also try the vendor knobs around the compiler's vendor calls
  std::string cache_dir;           // the cache's folder ("": the user's, Cache::default_dir)
  // The llm proposer (docs/llm.md): off unless `llm` names PROVIDER:MODEL.
  std::string llm;           // "anthropic:MODEL" or "openai:MODEL"
  std::string llm_base_url;  // an OpenAI-compatible server's URL (a local vLLM, Ollama, ...)
  long llm_max_tokens = 0;   // tokens a problem's search may spend (0: no limit)
  std::string llm_record;    // keep every request and response in this folder
  std::string llm_replay;    // answer from this folder's recordings (no network, no key)
  std::string llm_price;     // "IN,OUT": USD per million input and output tokens
};

// Turns the llm proposer on from the flags (nothing when `flags.llm` is empty): parses them and
// checks, before any GPU work, that the key is in the environment (or a replay folder exists);
// a bad flag or a missing key is one line and ExitCode::kUsage.
void configure_llm_flags(const SearchFlags& flags);

// Sets the search's part of `options` (beam, memory, counters, G4's threshold) from `flags`.
void apply_search_flags(const SearchFlags& flags, VerifyOptions& options);

// The flags that differ from the defaults, as command-line text ("" when none): a bench run
// directory's mode.
std::string search_flags_text(const SearchFlags& flags);

// One candidate the search had judged, as the measure callbacks see it.
struct Measured {
  const propose::Match& match;        // what its proposer matched on the segment
  const search::Proposal& proposal;   // its strategy, settings and round
  const gate::Candidate& candidate;   // its file and the segment's interface
  const gate::CascadeResult& result;  // the gates' verdicts
  const search::Attempt& attempt;     // the verdicts as the summarizer records them
};

// Called, in order, after every judged candidate: the result document's list, the store's
// description of the search, the proposer's observe.
using MeasureCallback = std::function<void(const Measured&)>;

// Runs the search and the gates on a problem; returns the result document (optimize.json,
// docs/optimize-json.md). Throws kernelopt::Error for bad input or a missing GPU.
nlohmann::json run_optimize(const VerifyOptions& options,
                            worker::Worker& worker,
                            const Progress& progress);

}  // namespace kernelopt::engine
