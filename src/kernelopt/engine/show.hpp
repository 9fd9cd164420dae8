// `kernelopt show`: capture a problem with Inductor, time every launch, and build the dispatch
// map (launches, segments, floors, class). The stages, in order: handshake, environment, load,
// capture, per-graph launch timing, whole-model timings, analysis.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/worker/client.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::engine {

struct ShowOptions {
  std::string problem;                 // path of the problem file
  std::string run_dir;                 // where captured output code goes; empty: a temp dir
  int seeds = 1;                       // capture seeds 0..seeds-1
  int iters = 30;                      // timed calls per measurement
  std::chrono::seconds timeout{1800};  // deadline of each load / capture request
  double bandwidth_gbps = 0;           // 0: from doctor's cache, else measured now
  bool references = false;             // also run the float64 reference and report errors
  bool dispatch_aware = true;          // off: extern matrix products count as replaceable
  bool split_launches = false;         // on: every Triton launch is a segment of its own
  bool time_knobs = false;  // on: time each vendor knob that runs around the compiled graphs
};

// Progress lines ("capturing ...") for the terminal; may be empty.
using Progress = std::function<void(const std::string&)>;

// show --vendor: for each knob of a `vendor_knobs` reply (`knobs`) that applies and runs around the
// compiled graphs, times the captured graphs under it against the same graphs under the
// libraries' defaults (`time_pair`, judged as G4 judges) and adds `measured` to its entry: ratio,
// interval, speed_class, defaults_ms, knob_ms, saved_ms, samples; or `error`.
void time_knobs(worker::Worker& worker,
                const worker::Captured& captured,
                nlohmann::json& knobs,
                const ShowOptions& options,
                const Progress& progress);

// Runs the whole show pipeline and returns the result document (docs/show-json.md).
// Throws kernelopt::Error on bad input, a missing GPU, or a worker that crashed or hung.
nlohmann::json run_show(const ShowOptions& options,
                        worker::Worker& worker,
                        const Progress& progress);

// Puts the measurements and the dispatch map into the show document (schema kernelopt.show/1).
nlohmann::json assemble_show(const ShowOptions& options,
                             const nlohmann::json& env,
                             const nlohmann::json& loaded,
                             const nlohmann::json& captured,
                             const nlohmann::json& times,
                             const std::vector<analysis::GraphRun>& graphs,
                             const analysis::DispatchMap& map,
                             double bandwidth_gbps,
                             std::optional<int> level,
                             const std::string& date);

// A captured graph parsed from its output code `text`, with its arguments' tensor info, call count
// and the autotuner's launch settings; no times yet. The second form takes an entry of capture's
// "graphs" as the worker wrote it.
analysis::GraphRun parse_graph(const worker::CapturedGraph& graph, const std::string& text);
analysis::GraphRun parse_graph(const nlohmann::json& graph, const std::string& text);

// Times one variant of the whole model (the worker's time_model; "replay": time_replay, the
// compiled graphs' own calls in one CUDA graph) in `mode` ("synced" or "queued"), `options.iters`
// calls: the worker's summary without its samples.
nlohmann::json time_variant(worker::Worker& worker,
                            const std::string& variant,
                            const std::string& mode,
                            const ShowOptions& options,
                            const std::string& subject);

// Times every launch of a captured graph (an entry of capture's "graphs") on the GPU: the output
// code instrumented with a mark after each launch, `options.iters` timed calls.
analysis::GraphRun time_graph(worker::Worker& worker,
                              const nlohmann::json& graph,
                              const ShowOptions& options,
                              const std::string& subject);

// Checks the worker's protocol version (the `hello` handshake); throws on a mismatch.
void handshake(worker::Worker& worker);

// A client for the commands: its requests go through engine::ask, so that a timeout, a crash,
// bad output or the worker's error answer throws kernelopt::Error naming `subject` (the problem
// file, or "the worker"), and every Answer it returns is ok. `worker` must outlive it.
worker::Client raising_client(worker::Worker& worker, const std::string& subject);

}  // namespace kernelopt::engine
