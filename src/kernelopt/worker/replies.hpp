// What the worker answers, read into structs: one per op whose fields the engine reads, with the
// whole answer kept as `document` where the engine passes it on (show's document, the gates'
// stored numbers). The answers' fields the engine decides on are read here (replies.cpp,
// gate_replies.cpp); the requests' fields are written in client.cpp. The readers are lenient as
// the engine always was: a missing field takes the default below, and a number the worker could
// not write as JSON ("nan", "inf", "-inf", or null) reads as +infinity where an error or a
// tolerance is meant.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::worker {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A value as the worker describes it (load's inputs and outputs, a captured graph's arguments).
struct TensorDescription {
  bool is_tensor = false;           // false: a Python value, `python` names its type
  std::vector<std::int64_t> shape;  // empty for a scalar tensor
  std::vector<std::int64_t> stride;
  std::string dtype;   // torch's name without the prefix: "float32"
  std::string device;  // "cuda:0", "cpu"; empty where the worker leaves it out (graph arguments)
  std::string python;  // the type of a value that is not a tensor ("int", "NoneType")
};

// `hello`: which protocol the worker speaks, and its process id (the watchdog kills its group).
struct Hello {
  int protocol = -1;
  long pid = 0;
};

// `env`: the facts the engine decides on; the rest travels in `document` (doctor's findings,
// show's environment block).
struct Environment {
  bool cuda_available = false;
  int gpu_count = 1;                              // GPUs torch sees; 1 where the worker is silent
  std::string gpu = "?";                          // the first GPU's name
  std::optional<std::int64_t> free_memory_bytes;  // on the first GPU, now
  std::optional<std::int64_t> peak_memory_bytes;  // torch's peak allocation in this worker
  std::optional<double> bandwidth_gbps;           // only when the request asked for it
  double fp32_gflops = 0;                         // peak float32 rate; 0 when unknown
  nlohmann::json document;                        // the whole answer without "id" and "ok"
};

// `load`: the problem as the worker instantiated it.
struct Loaded {
  std::string name;
  std::string device;
  long long parameters = 0;
  std::vector<TensorDescription> inputs;
  std::vector<TensorDescription> outputs;  // empty when the request skipped the forward pass
  nlohmann::json document;                 // show's document keeps the descriptions as they came
};

// One compiled graph of `capture`.
struct CapturedGraph {
  int index = 0;
  std::string path;                     // its output code, written under the run directory
  int calls = 1;                        // calls per forward of the model
  std::vector<TensorDescription> args;  // what its `call` receives, in order
  nlohmann::json kernel_configs;        // kernel name -> the autotuner's launch settings, or null
};

// `capture`: the compiled graphs; compile time and accuracy numbers travel in `document`.
struct Captured {
  std::vector<CapturedGraph> graphs;
  nlohmann::json document;
};

// One measurement of a timed call, in milliseconds.
struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  std::vector<double> samples_ms;
};

// One kernel (or copy) a launch ran, named by the profiler, and its time in the traced call.
struct LaunchKernel {
  std::string name;
  double ms = 0;
};

// `time_launches`: one timing per interval between marks (one per launch), and the whole call;
// with `kernels` requested, the GPU work of each launch (empty otherwise).
struct LaunchTimes {
  std::vector<Timing> intervals;
  Timing total;
  std::vector<std::vector<LaunchKernel>> kernels;
};

// One segment of `segment_capture`: the tensors its probes copied, kept in the worker.
struct CapturedSegment {
  int id = 0;
  std::vector<int> seeds;  // the seeds whose probes fired
  nlohmann::json inputs;   // root -> {shape, stride, dtype, device}: a candidate's interface
  nlohmann::json outputs;
  std::vector<std::string> in_place;  // roots in both
};

// A failure of the code the worker ran for a measurement (a candidate's run, the recomposed
// model): data, not a protocol error.
struct RunError {
  std::string kind;     // "exception", "cuda" (the worker's CUDA context is gone), "oom"
  std::string message;  // one line; empty where the worker gave none
};

// One kernel compile of `static_check`.
struct KernelCompile {
  std::string name;
  bool compiled = false;
  std::string error;                 // why it did not compile; empty when it did
  std::optional<long> shared_bytes;  // from the compiled metadata
  std::optional<int> registers;      // per thread, from ptxas; absent where ptxas failed
  // What in its PTX makes its result depend on where or when its blocks run ("a float atomic add
  // (red.global.gpu.add.f32)", "reads %smid"); empty when nothing does
  std::vector<std::string> schedule_dependent;
};

// `static_check` (G1's numbers).
struct StaticCheck {
  std::optional<std::string> import_error;  // the candidate does not import
  bool has_run = false;                     // defines run(inputs, outputs)
  std::optional<std::string> run_error;     // run() raised on meta tensors before any launch
  std::vector<KernelCompile> kernels;
  nlohmann::json document;
};

// One seed of `check_candidate` (G2's numbers); counts are totals over the output roots.
struct IsolatedSeed {
  int seed = -1;
  std::optional<RunError> error;            // run() raised: the numbers below were not measured
  std::optional<long> elements;             // output elements compared; absent from an older worker
  long mismatched = 0;                      // elements outside the tolerance the request named
  long unwritten = 0;                       // poisoned elements left where the reference is not NaN
  long nan_mismatch = 0;                    // positions where isnan differs
  long inf_mismatch = 0;                    // positions where signed isinf differs
  long out_of_bounds = 0;                   // guard elements changed
  double max_abs_err = 0;                   // over positions finite in both
  std::vector<std::string> inputs_mutated;  // input roots whose tensors changed bitwise
  std::vector<std::string> replaced_outputs;  // output entries replaced, removed or added
  std::vector<std::string> relaid_tensors;    // tensors re-strided or re-pointed in place
  std::vector<std::string> stray_writes;  // tensors the worker held and never handed over, changed
  bool side_stream = false;               // run() used a stream other than the current one
  bool deterministic = false;             // a second run gave bitwise the same outputs
  // compute-sanitizer's run of the candidate on this seed, when asked for: the tool, the errors
  // (hazards) it reported, nullopt where it could not run (`sanitizer_detail` says why), and its
  // first report lines.
  std::string sanitizer;
  std::optional<long> sanitizer_errors;
  std::string sanitizer_detail;
};

// `check_candidate`.
struct IsolatedCheck {
  std::optional<std::string> load_error;  // the candidate did not import: no seed was run
  std::vector<IsolatedSeed> seeds;
  nlohmann::json document;
};

// How close one model's outputs are to eager's: torch.allclose(out, eager, rtol=t, atol=t,
// equal_nan=True) holds exactly when `nonfinite_match` and t >= `tol`.
struct Closeness {
  double tol = kInfinity;        // max |out - eager| / (1 + |eager|) over positions finite in both
  bool nonfinite_match = false;  // NaN and infinities in the same places (and outputs alike)
};

// One seed of `model_check` (G3's numbers).
struct ModelSeed {
  int seed = -1;
  std::optional<RunError> error;       // the recomposed model raised
  std::optional<Closeness> candidate;  // the recomposed model against eager; absent: unknown
  std::optional<Closeness> baseline;   // the compiled model itself against eager
  double max_abs_vs_eager = 0;
  double baseline_max_abs_vs_eager = 0;
  double candidate_err_f64 = kInfinity;  // max abs error against float64; absent: infinite
  double baseline_err_f64 = 0;
  // Elements off by more than 1% of float64's own value (whatever their size); absent (a worker
  // that does not count them): no count to hold.
  std::optional<double> candidate_rel_f64;
  std::optional<double> baseline_rel_f64;
  double elements = 0;                       // output elements compared
  std::optional<std::string> float64_error;  // why the model has no float64 reference
  // What the forward pass changed besides its outputs (inputs, parameters, buffers by name), and
  // which outputs share an input's storage (by index): the recomposed model's and the compiler's.
  std::vector<std::string> state_changed;
  std::vector<std::string> baseline_state_changed;
  std::vector<std::string> outputs_sharing_inputs;
  std::vector<std::string> baseline_outputs_sharing_inputs;
};

// `model_check`.
struct ModelCheck {
  std::vector<ModelSeed> seeds;
  nlohmann::json document;
};

// After G4's timing, one seed's values replayed through a captured candidate instance and its
// baseline partner (the worst instance), and the same graphs called directly: the smallest
// tolerance at which the candidate's outputs match the baseline's, and whether NaN and
// infinities sit alike.
struct ReplayCheck {
  int seed = -1;
  std::optional<RunError> error;  // the replays or direct calls could not be run
  double replay_tol = kInfinity;
  bool replay_nonfinite_match = false;
  double direct_tol = kInfinity;
  bool direct_nonfinite_match = false;
};

// `time_pair`: interleaved replays of the baseline and the recomposed graphs.
struct PairTiming {
  std::optional<RunError> error;    // the recomposed graphs could not be captured or run
  int instances = 1;                // captures of each side timed
  std::vector<double> baseline_ms;  // each side's samples pooled over its instances
  std::vector<double> candidate_ms;
  std::vector<std::vector<double>> baseline_instance_ms;  // the same, one list per instance
  std::vector<std::vector<double>> candidate_instance_ms;
  std::vector<double> baseline_instance_median_ms;
  std::vector<double> candidate_instance_median_ms;
  double baseline_median_ms = 0;
  double candidate_median_ms = 0;
  std::vector<ReplayCheck> replay_checks;  // empty: a worker that does not check its replays
  nlohmann::json document;
};

// The readers, one per reply; each takes the worker's response object ("id" and "ok" may be in
// it, and are left out of `document`). Public for the gates' tests, which judge numbers built by
// hand.
Hello read_hello(const nlohmann::json& response);
Environment read_environment(const nlohmann::json& response);
Loaded read_loaded(const nlohmann::json& response);
CapturedGraph read_captured_graph(const nlohmann::json& graph);
Captured read_captured(const nlohmann::json& response);
LaunchTimes read_launch_times(const nlohmann::json& response);
std::vector<CapturedSegment> read_segments(const nlohmann::json& response);
StaticCheck read_static_check(const nlohmann::json& response);
IsolatedCheck read_isolated_check(const nlohmann::json& response);
ModelCheck read_model_check(const nlohmann::json& response);
PairTiming read_pair_timing(const nlohmann::json& response);

// The response without the protocol's own fields ("id", "ok"): what an op measured.
nlohmann::json results_of(const nlohmann::json& response);

}  // namespace kernelopt::worker
