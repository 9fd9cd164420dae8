// The head's side of `bench --executor ray`: a Python driver (python -m kernelopt.ray_executor,
// started and framed like a worker) joins a Ray cluster, submits one Ray task per problem (one GPU
// each, or one CPU on a cluster without GPUs) and hands back each finished problem's document.
// On its node a task runs this engine's own `bench` on that one problem, the problem file's text
// shipped with it; the head alone writes the run folder and the store (bench.cpp).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/bench.hpp"
#include "kernelopt/engine/bench_spec.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::engine {

// Ray's attempts beyond the first for a task whose process or node died.
inline constexpr int kRayRetries = 2;

// A live node of the cluster.
struct RayNode {
  std::string name;         // its host name
  std::string address;      // its IP address
  int gpus = 0;             // GPUs Ray schedules on it
  int cpus = 0;             // CPUs Ray schedules on it
  std::string accelerator;  // Ray's accelerator type (e.g. "H100"), "" when unknown
};

// A finished problem: its document, or why none came back.
struct RayFinished {
  std::string key;          // BenchProblem::key()
  std::string node;         // the node that ran it ("" when unknown)
  nlohmann::json document;  // null when none came back
  std::string failure_tag;  // with no document: kernelopt.crash (lost), kernelopt.worker
  std::string failure;      // with no document: what happened
};

class RayDriver {
 public:
  // Starts the driver and checks that Ray imports. Throws Error("kernelopt.ray", exit 6) with the
  // install command when it does not.
  RayDriver();

  // Asks the driver to leave the cluster (a one-machine cluster it started stops), then ends it.
  ~RayDriver();
  RayDriver(const RayDriver&) = delete;
  RayDriver& operator=(const RayDriver&) = delete;
  RayDriver(RayDriver&&) = delete;
  RayDriver& operator=(RayDriver&&) = delete;

  // Joins the cluster at `address` ("" is Ray's default: $RAY_ADDRESS, else a new one-machine
  // cluster here) and returns its live nodes. Throws Error("kernelopt.ray", exit 6) when no
  // cluster can be reached.
  std::vector<RayNode> connect(const std::string& address);

  // Called with each finished problem and its document, in the order they finish.
  using Finish = std::function<void(const BenchProblem&, nlohmann::json)>;

  // Runs `problems` on the cluster, one task each (one GPU a task with `gpu`, else one CPU), the
  // nodes running the engine at this binary's path with the bench options of `command`. A problem
  // whose node returned no document (its task lost after kRayRetries retries, or the engine wrote
  // none) gets a failed document saying why. Each document names its node (cost.node) where
  // known; its files are in the run folder before `finish` sees it. Throws Error when the driver
  // fails, or when no problem finishes for longer than a problem may take (twice --timeout and
  // 15 minutes, for each try).
  void run(const std::vector<BenchProblem>& problems,
           const BenchCommand& command,
           bool gpu,
           const Finish& finish);

 private:
  void submit(const std::vector<BenchProblem>& problems, const BenchCommand& command, bool gpu);
  RayFinished next(std::chrono::milliseconds deadline);

  worker::Worker worker_;
};

// The `bench` arguments a node runs a problem with: --timeout, --iters and the search's flags.
std::vector<std::string> node_arguments(const BenchCommand& command);

// "2 nodes, 3 GPUs: gpu-a (2 x H100), gpu-b (1 GPU)" or, without GPUs, their CPUs.
std::string describe_cluster(const std::vector<RayNode>& nodes);

}  // namespace kernelopt::engine
