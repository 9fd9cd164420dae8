// The dispatch map: every launch of the compiled model in call order with its GPU time, the
// segments of consecutive Triton launches (the unit kernelopt replaces), the one-pass roofline
// floor of each, and the problem's class.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::analysis {

// What a launch dispatches to.
enum class LaunchKind {
  kTriton,  // an Inductor-generated Triton kernel: replaceable
  kExtern,  // a vendor-library call (cuBLAS / cuDNN through extern_kernels): kept as is, unless
            // the analysis is not dispatch-aware (then a matrix product is replaceable too)
  kAten     // an ATen fallback op: kept as is
};

// A graph input's tensor as the worker saw it (dtype and layout the text does not state).
struct TensorInfo {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> stride;
  std::string dtype;  // "float32", "bfloat16", ... (torch's name without "torch.")
};

// A GPU kernel (or copy) one launch ran, as the profiler names it, and its time in the traced call.
struct RanKernel {
  std::string name;
  double ms = 0;
};

// One compiled graph with what the worker measured about it.
struct GraphRun {
  inductor::OutputCode code;
  std::vector<std::optional<TensorInfo>> args;         // per graph input; nullopt for non-tensors
  int calls = 1;                                       // how often one forward calls this graph
  std::vector<double> launch_ms;                       // median GPU time per launch step, in order
  std::vector<std::vector<RanKernel>> launch_kernels;  // per launch step, when traced
};

// One launch of the dispatch map.
struct Launch {
  int graph = 0;  // index of its graph
  int step = 0;   // index into that graph's OutputCode::steps
  LaunchKind kind = LaunchKind::kTriton;
  std::string kernel_kind;  // for Triton: pointwise / reduction / ...; else the extern op name
  std::string name;         // kernel name or op
  std::vector<std::string> aten_ops;
  double time_ms = 0;                 // median per forward (launch time x graph calls)
  double share = 0;                   // of the summed launch time
  std::optional<std::int64_t> bytes;  // fewest bytes it must move; nullopt when unknown
  std::optional<double> floor_ms;     // bytes / bandwidth, or the compute floor where larger
  std::optional<double> headroom;     // time / floor
  // A full-float32 matrix product (a max-autotune template): its multiply-adds at the GPU's peak
  // float32 rate on the CUDA cores (AnalysisOptions::fp32_gflops); nullopt for other kernels.
  std::optional<double> compute_floor_ms;
  std::vector<std::string> reads;   // root buffers
  std::vector<std::string> writes;  // root buffers
  bool replaceable = false;         // kernelopt may replace it: every Triton launch; with
                                    // dispatch_aware off also mm/addmm/bmm/baddbmm (out=)
  std::vector<RanKernel> kernels;   // an extern call's or ATen fallback's GPU work, when traced
};

// Consecutive Triton launches of one graph that no extern call or ATen fallback interrupts; or,
// with dispatch_aware off, one replaceable extern call on its own.
struct Segment {
  int id = 0;  // dense, over the whole model
  int graph = 0;
  std::vector<int> launches;         // indices into DispatchMap::launches
  std::vector<std::string> inputs;   // buffers read that were defined before the segment
  std::vector<std::string> outputs;  // buffers written that are read later, returned or inputs
  double time_ms = 0;
  double share = 0;
  bool extern_call = false;           // one vendor-library call (dispatch_aware off)
  std::optional<std::int64_t> bytes;  // inputs read once plus outputs written once
  // Bytes a correct algorithm reads a second time (a norm or softmax whose group does not fit on
  // chip); the floor then is the two-pass one: (bytes + reread_bytes) / bandwidth.
  std::optional<std::int64_t> reread_bytes;
  // The sum of its launches' compute floors, where any has one; the floor is the larger of it and
  // the memory floor (the products' arithmetic has to be done however the launches are fused).
  std::optional<double> compute_floor_ms;
  std::optional<double> floor_ms;
  std::optional<double> headroom;
};

// The problem's class (DESIGN section 3.2).
enum class ProblemClass { kNoTriton, kVendorDominated, kOptimizable };

struct DispatchMap {
  std::vector<Launch> launches;
  std::vector<Segment> segments;
  double total_ms = 0;          // sum of launch times
  double outside_ms = 0;        // GPU time outside the compiled graphs (AnalysisOptions)
  double triton_ms = 0;         // sum over Triton launches
  double triton_share = 0;      // triton_ms / whole_ms()
  double replaceable_ms = 0;    // sum over replaceable launches (triton_ms when dispatch-aware)
  bool dispatch_aware = true;   // AnalysisOptions::dispatch_aware
  bool split_launches = false;  // AnalysisOptions::split_launches
  ProblemClass problem_class = ProblemClass::kNoTriton;

  // What shares are of: the launches, and the time outside the graphs that no launch holds.
  double whole_ms() const { return total_ms + outside_ms; }
};

// Options of the analysis.
struct AnalysisOptions {
  double bandwidth_gbps = 0;  // measured copy bandwidth; 0 = no floors
  // The GPU's peak float32 rate on its CUDA cores (SMs x FMA lanes x 2 x the highest clock, the
  // worker's env `fp32_gflops`); 0 = no compute floors.
  double fp32_gflops = 0;
  double vendor_dominated_share = 0.10;  // Triton share under this: vendor-dominated
  // Off (the --no-dispatch-aware ablation): vendor-library matrix products (extern mm, addmm, bmm,
  // baddbmm writing into a preallocated out=) become replaceable segments of their own, and the
  // class counts them as replaceable time. Convolutions and ATen fallbacks stay as they are.
  bool dispatch_aware = true;
  // On (--split-segments): every Triton launch is a segment of its own, so the config and rewrite
  // proposers (one-launch segments) reach kernels that sit among others; recipes that span
  // several launches then match nothing.
  bool split_launches = false;
  // GPU time of the model outside its compiled graphs (outside_graphs_ms): eager code between
  // graph breaks. It counts in every share as time kernelopt cannot replace.
  double outside_ms = 0;
};

// The GPU time of a model outside its compiled graphs: the compiled model's GPU time
// (`compiled_gpu_ms`, host gaps left out) less the graphs' own calls replayed (`replay_ms`), where
// the graphs cover under 80% of it, else 0. Fully compiled problems measure 0.92-1.08 (102 problem
// documents of L1-L3); KernelBench's L3/35 LSTM and L3/39 GRU, whose cuDNN recurrences run eagerly
// between graph breaks, 0.001 (0.03 ms of graphs in a 23 ms model). Unknown times (<= 0) give 0.
double outside_graphs_ms(double replay_ms, double compiled_gpu_ms);

// A ratio measured over the compiled graphs (G4 replays them) as a ratio of the whole model, whose
// GPU time `outside_ms` outside the graphs does not change: whole / (outside + graphs / ratio),
// with whole = outside + graphs. Unchanged where outside_ms is 0.
double whole_model_ratio(double ratio, double graphs_ms, double outside_ms);

// Whether an extern call is one the --no-dispatch-aware ablation may replace.
bool replaceable_extern(const inductor::Step& step);

// Builds the dispatch map from the parsed graphs and their measured launch times.
DispatchMap build_dispatch_map(const std::vector<GraphRun>& graphs, const AnalysisOptions& options);

// Bytes of a tensor's storage: (1 + sum((size-1)*stride)) * itemsize; nullopt for an unknown
// dtype or a symbolic size.
std::optional<std::int64_t> storage_bytes(const std::vector<std::string>& shape,
                                          const std::vector<std::string>& stride,
                                          const std::string& dtype);

// Bytes per element of a dtype named "float32" or "torch.float32"; 0 when unknown.
int dtype_size(const std::string& dtype);

std::string to_string(LaunchKind kind);
std::string to_string(ProblemClass cls);
nlohmann::json to_json(const DispatchMap& map);

// Whether a launch's or segment's document (to_json) has its floor from a full-float32 product's
// arithmetic: a compute_floor_ms at least its floor_ms.
bool compute_floor_holds(const nlohmann::json& doc);

}  // namespace kernelopt::analysis
