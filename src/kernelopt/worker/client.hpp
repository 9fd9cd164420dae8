// The engine's typed side of the worker protocol (docs/protocol.md): one method per op, each
// taking its arguments as C++ values and returning the answer read into a struct (replies.hpp).
// The protocol's request fields are written in client.cpp.
//
// A Client does not decide what a failed request means. Each method returns an Answer: the
// transport's Reply (a timeout, a crash, bad output: the worker was killed and restarts on the
// next request) and, when the worker answered `ok: true`, the value read from its answer. A
// worker's error answer (`ok: false`) stays data as well. The gates turn a failed Answer into an
// Outcome; the commands build their Client on engine::ask, which throws instead, so that every
// Answer they see is ok.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/core/check.hpp"
#include "kernelopt/worker/replies.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::worker {

// Sends one request object and returns how it went, as Worker::request does.
using Transport =
    std::function<Reply(const nlohmann::json& request, std::chrono::milliseconds deadline)>;

// The worker's own error answer: `{"ok": false, "error": {"tag", "message"}}`.
struct WorkerError {
  std::string tag;      // "kernelopt.problem", "kernelopt.cuda", ...; "kernelopt.worker" if none
  std::string message;  // one line; a fixed sentence when the worker gave none
};

// How one request went, before its value is read.
struct Answered {
  Reply reply;  // the transport's result; `reply.response` is the worker's object as it came

  // A response arrived and says `ok: true`.
  bool ok() const;
  // The worker's error answer; meaningful when a response arrived and ok() is false.
  WorkerError error() const;
};

// An Answered with the value read from the response. The value is only there when ok(): reading
// it otherwise is a misuse of the client, and aborts.
template <typename T>
struct Answer : Answered {
  T value{};

  const T& operator*() const& {
    KO_CHECK(ok());
    return value;
  }

  T operator*() && {
    KO_CHECK(ok());
    return std::move(value);
  }

  const T* operator->() const {
    KO_CHECK(ok());
    return &value;
  }
};

// `env`'s optional probes, each seconds long.
struct EnvRequest {
  bool bandwidth = false;  // measure the device-to-device copy bandwidth
  bool ncu = false;        // check that Nsight Compute can read counters
};

struct LoadRequest {
  std::string problem;  // the problem file; the worker imports it as given
  std::string label;    // how the worker's errors name the problem
  std::string device;   // "cuda" or "cpu"; empty: the worker's choice (cuda where present)
  bool forward = true;  // run the model once, so that the answer describes its outputs
};

struct CaptureRequest {
  std::string run_dir;                 // where the worker writes the graphs' output code
  std::vector<int> seeds = {0, 1, 2};  // inputs made and kept for each
  bool references = true;              // also the float64 reference and the errors against it
};

struct LaunchTimingRequest {
  int graph = 0;     // the captured graph's index
  std::string path;  // its output code instrumented with `marks` marks
  int marks = 0;
  int iters = 30;
  bool kernels = false;  // also name each launch's kernels (one profiled call)
};

struct ModelTimingRequest {
  std::string variant;  // "eager", "compiled", "cudagraphs"
  std::string mode;     // "synced" or "queued" (timing.py says what each includes)
  int iters = 30;
};

struct SegmentCaptureRequest {
  int graph = 0;              // the captured graph's index
  std::string path;           // its output code with probes around the segments
  std::vector<int> segments;  // the segment ids whose tensors to keep
};

struct StaticCheckRequest {
  std::string candidate;     // the candidate file
  nlohmann::json interface;  // {"inputs": {root: {shape, stride, dtype}}, "outputs": ...}
  int arch = 90;             // the compute capability compiled for
};

struct IsolatedCheckRequest {
  int segment = 0;
  std::string candidate;
  std::vector<int> seeds;
  // The tolerance the worker counts `mismatched` elements at: a count, not a verdict (G2 fails a
  // count above zero and defers a small one).
  double rtol = 0;
  double atol = 0;
  std::string sanitize;  // "", "memcheck" or "racecheck": the first seed also run under the tool
};

// Graph index -> the recomposed output code that replaces the graph's own.
using RecomposedGraphs = std::map<int, std::string>;

struct ModelCheckRequest {
  RecomposedGraphs recomposed;  // empty: the compiled model's own check
  std::vector<int> seeds;
  std::vector<std::string> vendor;  // vendor knobs the recomposed forward runs under
};

struct PairTimingRequest {
  RecomposedGraphs recomposed;
  int samples = 30;  // per side, over all captured instances
  int warmup = 5;
  std::vector<std::string> vendor;  // vendor knobs the candidate side runs under
  // What the baseline side runs instead of the compiled graphs (a chosen set, against which a
  // vendor knob alone is timed); nullopt: the compiled graphs.
  std::optional<RecomposedGraphs> baseline;
};

class Client {
 public:
  // Requests go to `worker.request`; the worker must outlive the client.
  explicit Client(Worker& worker);
  explicit Client(Transport transport);

  Answer<Hello> hello(std::chrono::milliseconds deadline);
  Answer<Environment> env(const EnvRequest& request, std::chrono::milliseconds deadline);
  Answer<Loaded> load(const LoadRequest& request, std::chrono::milliseconds deadline);
  Answer<Captured> capture(const CaptureRequest& request, std::chrono::milliseconds deadline);
  Answer<LaunchTimes> time_launches(const LaunchTimingRequest& request,
                                    std::chrono::milliseconds deadline);
  // The whole model timed (median_ms, min_ms, max_ms, samples_ms and what the variant adds):
  // show's document keeps it as it came.
  Answer<nlohmann::json> time_model(const ModelTimingRequest& request,
                                    std::chrono::milliseconds deadline);
  // The compiled graphs' calls replayed in one CUDA graph, `iters` times; as time_model.
  Answer<nlohmann::json> time_replay(int iters, std::chrono::milliseconds deadline);
  Answer<std::vector<CapturedSegment>> segment_capture(const SegmentCaptureRequest& request,
                                                       std::chrono::milliseconds deadline);
  Answer<StaticCheck> static_check(const StaticCheckRequest& request,
                                   std::chrono::milliseconds deadline);
  Answer<IsolatedCheck> check_candidate(const IsolatedCheckRequest& request,
                                        std::chrono::milliseconds deadline);
  Answer<ModelCheck> model_check(const ModelCheckRequest& request,
                                 std::chrono::milliseconds deadline);
  Answer<PairTiming> time_pair(const PairTimingRequest& request,
                               std::chrono::milliseconds deadline);
  // Asks the worker to exit after answering.
  Answered shutdown(std::chrono::milliseconds deadline);

 private:
  template <typename T>
  Answer<T> call(const nlohmann::json& request,
                 std::chrono::milliseconds deadline,
                 T (*read)(const nlohmann::json&));

  Transport transport_;
};

}  // namespace kernelopt::worker
