// The gates a candidate passes before it enters a model, cheapest first (DESIGN section 3.5).
// Each gate is one file: a pure `judge_*` function that turns the worker's numbers into an
// Outcome (unit-tested without a GPU), and a class whose `check()` asks the worker for them.
// G1 and G2 judge one candidate; G3 and G4 judge the recomposed model with a set of candidates.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/core/outcome.hpp"
#include "kernelopt/recompose/bindings.hpp"
#include "kernelopt/worker/client.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::gate {

// The thresholds of DESIGN section 3.5.
struct Thresholds {
  double isolated_rtol = 1e-3;  // G2 allclose
  double isolated_atol = 1e-3;
  double model_tol = 1e-4;          // G3 against eager
  double float64_factor = 10.0;     // G3 fallback: candidate error <= factor x baseline's
  double deferral_fraction = 1e-3;  // G2 deferral: at most this share of elements outside
  double min_ratio = 0.97;          // G4: slower than this is rejected
  int arch = 90;                    // G1 target (sm_90)
  long shared_limit = 232448;       // bytes of shared memory per block on sm_90 (227 KiB)
  int register_limit = 255;         // registers per thread
  int samples = 30;                 // G4 samples per side
  // G2 and G3: two draws of get_inputs(), the stress seeds (the worker's stress.py: shifted
  // inputs, non-finite ones, the model's parameters redrawn, discrete inputs), a third draw. A
  // problem whose seeds do not all fit in the device's memory keeps the first ones that do (the
  // first two always).
  std::vector<int> seeds = {0, 1, 101, 103, 104, 102, 2};
  // G3's float64 fallback also counts the elements off by more than 1% of float64's value: the
  // candidate's count may exceed float64_factor x the compiler's by this share of the elements.
  double float64_rel_share = 1e-5;
  // G2 also runs the candidate under compute-sanitizer on its first seed: "memcheck" (accesses
  // outside every allocation; found errors are out_of_bounds) or "racecheck" (shared-memory
  // hazards; nondeterministic). Empty: off (the default; a sanitized run costs seconds).
  std::string sanitize;
};

// One candidate for one segment.
// Who made a candidate, as the store records it.
struct Origin {
  std::string proposer = "user";  // "user" (verify), or the proposer's family: "recipe", ...
  std::string strategy;           // "recipe:scan", "config", ...; "" for a hand-written file
  nlohmann::json settings = nlohmann::json::object();  // its launch settings
};

struct Candidate {
  int segment = 0;                   // Segment::id
  std::string path;                  // the candidate file
  recompose::SegmentInterface face;  // the segment's interface (root -> live name)
  nlohmann::json tensors;            // {"inputs": {root: {shape, stride, dtype}}, "outputs": ...}
  Origin origin;                     // who made it
};

// What a gate needs to ask the worker.
struct GateContext {
  worker::Worker* worker = nullptr;
  std::string subject;                         // the problem file, for error messages
  std::chrono::milliseconds deadline{600000};  // per request
  Thresholds thresholds;
  // Called before every request: restores the worker's state (loaded problem, capture, segment
  // tensors) when an earlier candidate killed or hung it. May be empty.
  std::function<void()> ensure_ready;
  // The compiled model's own check against eager (model_check's answer with no replacement), asked
  // once, when a G2 failure could be a deferral (judge_isolated_deferral). Null until then; an
  // empty object when asking failed.
  nlohmann::json baseline_model;
};

// The recomposed model of a set of candidates: graph index -> path of its patched module.
using Recomposed = worker::RecomposedGraphs;

// `schedule_dependent_ok`: the compiler's segment itself adds floats atomically
// (SegmentInterface::schedule_dependent), so a kernel whose result depends on scheduling is no
// worse than it.
Outcome judge_static(const worker::StaticCheck& numbers,
                     const Thresholds& t,
                     bool schedule_dependent_ok = false);
// `scratch`: inputs the compiler's segment itself overwrites and nothing reads after it
// (SegmentInterface::scratch); a candidate changing them is not a mutated input.
Outcome judge_isolated(const worker::IsolatedCheck& numbers,
                       const Thresholds& t,
                       const std::vector<std::string>& scratch = {});
// G2's one deferral (DESIGN section 3.5): `failed`, judge_isolated's verdict on `numbers` of
// elements outside tolerance, becomes a pass judged by G3's float64 test when every seed's only
// failure is that tolerance (all written, in bounds, inputs kept, NaN/Inf in place,
// deterministic), at most `deferral_fraction` of the elements miss it, and the compiled model
// itself misses eager at `model_tol` on some seed (`baseline_model`: G3's numbers with no
// replacement): the model is ill-conditioned in float32, and the compiler's kernels at other
// launch settings would miss 1e-3 as well. Otherwise `failed` is returned unchanged.
Outcome judge_isolated_deferral(const Outcome& failed,
                                const worker::IsolatedCheck& numbers,
                                const worker::ModelCheck& baseline_model,
                                const Thresholds& t,
                                const std::vector<std::string>& scratch = {});
// G3's test against eager: allclose(out, eager, rtol=tol, atol=tol, equal_nan=True), decided from
// the smallest tolerance the worker measured and whether NaN and infinities sit alike.
bool matches_eager(const worker::Closeness& closeness, double tol);
Outcome judge_model(const worker::ModelCheck& numbers, const Thresholds& t);
Outcome judge_performance(const worker::PairTiming& numbers, const Thresholds& t);

// G1: imports, defines run(inputs, outputs), and every Triton kernel it launches compiles for the
// target with shared memory and registers that fit. Needs no GPU.
Outcome check_static(GateContext& ctx, const Candidate& candidate);

// G2: on the segment's captured inputs of every seed, outputs poisoned and guarded, compared with
// the compiler's segment outputs; inputs unchanged; deterministic; no side stream.
Outcome check_isolated(GateContext& ctx, const Candidate& candidate);

// G3: the recomposed model against eager at `model_tol`, else the float64 fallback; its forward
// runs under the `vendor` knobs' settings (none: the libraries' defaults).
Outcome check_model(GateContext& ctx,
                    const Recomposed& recomposed,
                    const std::vector<std::string>& vendor = {});

// G4: the recomposed model, under the `vendor` knobs' settings, against the baseline,
// interleaved CUDA-graph replays. The baseline is the compiled graphs, or `against` (a chosen
// set without the knobs) where given.
Outcome check_performance(GateContext& ctx,
                          const Recomposed& recomposed,
                          const std::vector<std::string>& vendor = {},
                          const std::optional<Recomposed>& against = std::nullopt);

// The client the gates ask through: every request first calls ctx.ensure_ready.
worker::Client gate_client(GateContext& ctx);

// The verdict on a request that brought no numbers (`!answer.ok()`): a timeout (kTimedOut) or a
// dead worker (kCrashed), which restarts on the next request, or the worker's error answer
// (kCrashed after a CUDA error, else kRaised). Never an exception.
Outcome refused(const GateContext& ctx, const worker::Answered& answer, const std::string& gate);

}  // namespace kernelopt::gate
