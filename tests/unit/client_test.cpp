// The client's requests as the worker receives them and its reading of the answers: a recording
// transport stands in for the worker process, and one real process checks the plumbing.
#include "kernelopt/worker/client.hpp"

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kernelopt::worker {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;

constexpr milliseconds kDeadline{1234};

// Keeps every request and answers each with `answer` (or fails as `failure` says).
struct Recorder {
  std::vector<json> requests;
  std::vector<milliseconds> deadlines;
  json answer = {{"id", 1}, {"ok", true}};
  Failure failure = Failure::kNone;

  Client client() {
    return Client([this](const json& request, milliseconds deadline) {
      requests.push_back(request);
      deadlines.push_back(deadline);
      Reply reply;
      reply.failure = failure;
      if (failure == Failure::kNone) reply.response = answer;
      return reply;
    });
  }
};

TEST(ClientRequests, SetupAndTimingOps) {
  Recorder r;
  Client c = r.client();
  c.hello(kDeadline);
  c.env({}, kDeadline);
  c.env({true, true}, kDeadline);
  c.load({"/abs/p.py", "p.py", "cuda"}, kDeadline);
  c.load({"/abs/p.py", "p.py", "cpu", false}, kDeadline);
  c.load({"/abs/p.py", "p.py", ""}, kDeadline);
  c.capture({"/run", {0}, false}, kDeadline);
  c.time_launches({1, "/run/graph_1.timed.py", 7, 30}, kDeadline);
  c.time_launches({1, "/run/graph_1.timed.py", 7, 30, true}, kDeadline);
  c.time_model({"compiled", "queued", 20}, kDeadline);
  c.time_replay(25, kDeadline);
  c.segment_capture({0, "/run/graph_0.probed.py", {2, 5}}, kDeadline);
  c.shutdown(kDeadline);
  const std::vector<json> want = {
      {{"op", "hello"}},
      {{"op", "env"}},
      {{"op", "env"}, {"bandwidth", true}, {"ncu", true}},
      {{"op", "load"}, {"problem", "/abs/p.py"}, {"label", "p.py"}, {"device", "cuda"}},
      {{"op", "load"},
       {"problem", "/abs/p.py"},
       {"label", "p.py"},
       {"device", "cpu"},
       {"forward", false}},
      {{"op", "load"}, {"problem", "/abs/p.py"}, {"label", "p.py"}},
      {{"op", "capture"}, {"run_dir", "/run"}, {"seeds", {0}}, {"references", false}},
      {{"op", "time_launches"},
       {"graph", 1},
       {"path", "/run/graph_1.timed.py"},
       {"marks", 7},
       {"iters", 30},
       {"kernels", false}},
      {{"op", "time_launches"},
       {"graph", 1},
       {"path", "/run/graph_1.timed.py"},
       {"marks", 7},
       {"iters", 30},
       {"kernels", true}},
      {{"op", "time_model"}, {"variant", "compiled"}, {"mode", "queued"}, {"iters", 20}},
      {{"op", "time_replay"}, {"iters", 25}},
      {{"op", "segment_capture"},
       {"graph", 0},
       {"path", "/run/graph_0.probed.py"},
       {"segments", {2, 5}}},
      {{"op", "shutdown"}}};
  ASSERT_EQ(r.requests.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.requests[i], want[i]) << r.requests[i].dump();
    EXPECT_EQ(r.deadlines[i], kDeadline);
  }
}

TEST(ClientRequests, GateOps) {
  Recorder r;
  Client c = r.client();
  const json face = {{"inputs", {{"in_ptr0", {{"shape", {4}}}}}}, {"outputs", json::object()}};
  c.static_check({"/c.py", face, 90}, kDeadline);
  c.check_candidate({3, "/c.py", {0, 1, 2}, 1e-3, 2e-3, ""}, kDeadline);
  c.check_candidate({3, "/c.py", {0}, 1e-3, 2e-3, "memcheck"}, kDeadline);
  c.model_check({{{1, "/g1.py"}, {0, "/g0.py"}}, {0, 1}, {}}, kDeadline);
  c.model_check({{}, {0}, {}}, kDeadline);
  c.time_pair({{{0, "/g0.py"}}, 40, 5, {}, std::nullopt}, kDeadline);
  c.model_check({{}, {0}, {"cudnn_benchmark"}}, kDeadline);
  c.time_pair({{{0, "/g0.py"}}, 40, 5, {"cublaslt"}, RecomposedGraphs{{0, "/g0.py"}}}, kDeadline);
  c.time_pair({{}, 40, 5, {"cudnn_benchmark"}, RecomposedGraphs{}}, kDeadline);
  const std::vector<json> want = {
      {{"op", "static_check"}, {"candidate", "/c.py"}, {"interface", face}, {"arch", 90}},
      {{"op", "check_candidate"},
       {"segment", 3},
       {"candidate", "/c.py"},
       {"seeds", {0, 1, 2}},
       {"rtol", 1e-3},
       {"atol", 2e-3}},
      {{"op", "check_candidate"},
       {"segment", 3},
       {"candidate", "/c.py"},
       {"seeds", {0}},
       {"rtol", 1e-3},
       {"atol", 2e-3},
       {"sanitize", "memcheck"}},
      {{"op", "model_check"},
       {"recomposed", {{"0", "/g0.py"}, {"1", "/g1.py"}}},
       {"seeds", {0, 1}}},
      // no replacement is an empty object, never null: the worker iterates it
      {{"op", "model_check"}, {"recomposed", json::object()}, {"seeds", {0}}},
      {{"op", "time_pair"}, {"recomposed", {{"0", "/g0.py"}}}, {"samples", 40}, {"warmup", 5}},
      // vendor knobs travel only where named; a baseline set only where given (an empty one is
      // the compiled graphs, sent as an empty object)
      {{"op", "model_check"},
       {"recomposed", json::object()},
       {"seeds", {0}},
       {"vendor", {"cudnn_benchmark"}}},
      {{"op", "time_pair"},
       {"recomposed", {{"0", "/g0.py"}}},
       {"samples", 40},
       {"warmup", 5},
       {"vendor", {"cublaslt"}},
       {"baseline_recomposed", {{"0", "/g0.py"}}}},
      {{"op", "time_pair"},
       {"recomposed", json::object()},
       {"samples", 40},
       {"warmup", 5},
       {"vendor", {"cudnn_benchmark"}},
       {"baseline_recomposed", json::object()}}};
  ASSERT_EQ(r.requests.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.requests[i], want[i]) << r.requests[i].dump();
  }
}

TEST(ClientAnswers, TransportFailuresAndErrorAnswersAreData) {
  Recorder r;
  r.failure = Failure::kTimedOut;
  const Answer<ModelCheck> timed_out = r.client().model_check({{}, {0}, {}}, kDeadline);
  EXPECT_FALSE(timed_out.ok());
  EXPECT_EQ(timed_out.reply.failure, Failure::kTimedOut);
  EXPECT_TRUE(timed_out.value.seeds.empty());

  r.failure = Failure::kNone;
  r.answer = {{"id", 2},
              {"ok", false},
              {"error", {{"tag", "kernelopt.cuda"}, {"message", "illegal address"}}}};
  const Answer<Hello> refused = r.client().hello(kDeadline);
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().tag, "kernelopt.cuda");
  EXPECT_EQ(refused.error().message, "illegal address");
  EXPECT_EQ(refused.value.protocol, -1);  // nothing read from an error answer

  r.answer = {{"id", 3}, {"ok", false}};
  EXPECT_EQ(r.client().hello(kDeadline).error().tag, "kernelopt.worker");
  EXPECT_EQ(r.client().hello(kDeadline).error().message, "the worker reported an error");
  r.answer = {{"id", 4}, {"ok", "yes"}, {"protocol", 2}};  // only a true boolean is ok
  EXPECT_FALSE(r.client().hello(kDeadline).ok());
}

TEST(ClientAnswers, SetupReplies) {
  Recorder r;
  Client c = r.client();
  r.answer = {{"id", 1}, {"ok", true}, {"protocol", 2}, {"pid", 4321}};
  const Hello hello = *c.hello(kDeadline);
  EXPECT_EQ(hello.protocol, 2);
  EXPECT_EQ(hello.pid, 4321);

  r.answer = {{"id", 2},
              {"ok", true},
              {"cuda_available", true},
              {"gpu_count", 2},
              {"gpu", "H200"},
              {"free_memory_bytes", 1LL << 36},
              {"fp32_gflops", 6.7e4},
              {"bandwidth", {{"bandwidth_gbps", 4000.5}}}};
  const Environment env = *c.env({true, false}, kDeadline);
  EXPECT_TRUE(env.cuda_available);
  EXPECT_EQ(env.gpu_count, 2);
  EXPECT_EQ(env.gpu, "H200");
  EXPECT_EQ(env.free_memory_bytes, 1LL << 36);
  EXPECT_FALSE(env.peak_memory_bytes.has_value());
  EXPECT_EQ(env.bandwidth_gbps, 4000.5);
  EXPECT_DOUBLE_EQ(env.fp32_gflops, 6.7e4);
  EXPECT_FALSE(env.document.contains("id"));
  EXPECT_FALSE(env.document.contains("ok"));
  EXPECT_EQ(env.document.at("gpu"), "H200");

  r.answer = {{"id", 3},
              {"ok", true},
              {"device", "cuda"},
              {"parameters", 12},
              {"inputs",
               {{{"shape", {2, 3}}, {"stride", {3, 1}}, {"dtype", "float32"}, {"device", "cuda:0"}},
                {{"python", "int"}}}}};
  const Loaded loaded = *c.load({"/p.py", "p.py", ""}, kDeadline);
  EXPECT_EQ(loaded.device, "cuda");
  EXPECT_EQ(loaded.parameters, 12);
  ASSERT_EQ(loaded.inputs.size(), 2U);
  EXPECT_TRUE(loaded.inputs[0].is_tensor);
  EXPECT_EQ(loaded.inputs[0].shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(loaded.inputs[0].stride, (std::vector<std::int64_t>{3, 1}));
  EXPECT_EQ(loaded.inputs[0].dtype, "float32");
  EXPECT_FALSE(loaded.inputs[1].is_tensor);
  EXPECT_EQ(loaded.inputs[1].python, "int");
  EXPECT_TRUE(loaded.outputs.empty());
}

TEST(ClientAnswers, CaptureTimingAndSegments) {
  Recorder r;
  Client c = r.client();
  r.answer = {
      {"id", 1},
      {"ok", true},
      {"compile_s", 3.5},
      {"graphs",
       {{{"index", 1},
         {"path", "/run/graphs/graph_1.py"},
         {"calls", 2},
         {"args", {{{"shape", {8}}, {"stride", {1}}, {"dtype", "float16"}}, {{"python", "int"}}}},
         {"kernel_configs", {{"triton_poi_0", {{"XBLOCK", 256}}}}}}}}};
  const Captured captured = *c.capture({"/run"}, kDeadline);
  ASSERT_EQ(captured.graphs.size(), 1U);
  const CapturedGraph& g = captured.graphs[0];
  EXPECT_EQ(g.index, 1);
  EXPECT_EQ(g.path, "/run/graphs/graph_1.py");
  EXPECT_EQ(g.calls, 2);
  ASSERT_EQ(g.args.size(), 2U);
  EXPECT_EQ(g.args[0].dtype, "float16");
  EXPECT_FALSE(g.args[1].is_tensor);
  EXPECT_EQ(g.kernel_configs.at("triton_poi_0").at("XBLOCK"), 256);
  EXPECT_EQ(captured.document.at("compile_s"), 3.5);

  r.answer = {
      {"id", 2},
      {"ok", true},
      {"intervals", {{{"median_ms", 0.5}, {"samples_ms", {0.5, 0.6}}}, {{"median_ms", 1.5}}}},
      {"total", {{"median_ms", 2.0}, {"min_ms", 1.9}, {"max_ms", 2.2}}}};
  const LaunchTimes times = *c.time_launches({0, "/t.py", 3, 30}, kDeadline);
  ASSERT_EQ(times.intervals.size(), 2U);
  EXPECT_EQ(times.intervals[0].samples_ms, (std::vector<double>{0.5, 0.6}));
  EXPECT_EQ(times.intervals[1].median_ms, 1.5);
  EXPECT_EQ(times.total.max_ms, 2.2);
  EXPECT_TRUE(times.kernels.empty());

  // With `kernels`: each launch's GPU work; an entry that is not an object is skipped.
  r.answer["kernels"] = {{{{"name", "sm90_xmma_gemm_f32f32"}, {"ms", 0.4}}, 7},
                         nlohmann::json::array()};
  const LaunchTimes named = *c.time_launches({0, "/t.py", 3, 30, true}, kDeadline);
  ASSERT_EQ(named.kernels.size(), 2U);
  ASSERT_EQ(named.kernels[0].size(), 1U);
  EXPECT_EQ(named.kernels[0][0].name, "sm90_xmma_gemm_f32f32");
  EXPECT_EQ(named.kernels[0][0].ms, 0.4);
  EXPECT_TRUE(named.kernels[1].empty());

  r.answer = {{"id", 3}, {"ok", true}, {"median_ms", 1.0}, {"unavailable", nullptr}};
  EXPECT_EQ(*c.time_model({"eager", "synced", 5}, kDeadline),
            (json{{"median_ms", 1.0}, {"unavailable", nullptr}}));

  r.answer = {{"id", 4},
              {"ok", true},
              {"segments",
               {{{"id", 5},
                 {"seeds", {0, 1}},
                 {"inputs", {{"in_ptr0", {{"shape", {4}}}}}},
                 {"outputs", {{"out_ptr0", {{"shape", {4}}}}}},
                 {"in_place", {"in_ptr0"}}}}}};
  const std::vector<CapturedSegment> segments = *c.segment_capture({0, "/p.py", {5}}, kDeadline);
  ASSERT_EQ(segments.size(), 1U);
  EXPECT_EQ(segments[0].id, 5);
  EXPECT_EQ(segments[0].seeds, (std::vector<int>{0, 1}));
  EXPECT_TRUE(segments[0].inputs.contains("in_ptr0"));
  EXPECT_EQ(segments[0].in_place, (std::vector<std::string>{"in_ptr0"}));
}

std::string python() {
  const char* env = std::getenv("KERNELOPT_PYTHON");
  return env != nullptr && *env != '\0' ? env : "python3";
}

TEST(ClientProcess, AsksARealWorkerAndReportsItsDeath) {
  WorkerOptions options;
  options.argv = {python(), "-c", R"PY(
import json, os, sys
for line in sys.stdin:
    req = json.loads(line)
    if req["op"] == "hello":
        print(json.dumps({"id": req["id"], "ok": True, "protocol": 2, "pid": os.getpid()}), flush=True)
    else:
        sys.exit(5)
)PY"};
  Worker worker(options);
  Client client(worker);
  const Answer<Hello> hello = client.hello(milliseconds(10000));
  ASSERT_TRUE(hello.ok()) << hello.reply.detail;
  EXPECT_EQ(hello->protocol, 2);
  EXPECT_GT(hello->pid, 0);
  const Answer<PairTiming> died =
      client.time_pair({{{0, "/g.py"}}, 30, 5, {}, std::nullopt}, milliseconds(10000));
  EXPECT_FALSE(died.ok());
  EXPECT_EQ(died.reply.failure, Failure::kCrashed);
  EXPECT_EQ(died.reply.exit_status, 5);
  EXPECT_TRUE(client.hello(milliseconds(10000)).ok());  // a fresh worker for the next request
  EXPECT_EQ(worker.starts(), 2);
}

}  // namespace
}  // namespace kernelopt::worker
