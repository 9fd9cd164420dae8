#include "kernelopt/worker/client.hpp"

#include <utility>

#include "kernelopt/worker/fields.hpp"

namespace kernelopt::worker {

namespace {

using nlohmann::json;
using std::chrono::milliseconds;

json recomposed_map(const RecomposedGraphs& recomposed) {
  json map = json::object();
  for (const auto& [graph, path] : recomposed) {
    map[std::to_string(graph)] = path;
  }
  return map;
}

}  // namespace

bool Answered::ok() const {
  if (reply.failure != Failure::kNone || !reply.response.is_object()) return false;
  const auto it = reply.response.find("ok");
  return it != reply.response.end() && it->is_boolean() && it->get<bool>();
}

WorkerError Answered::error() const {
  static const json none = json::object();
  const json& e = reply.response.is_object() && reply.response.contains("error")
                      ? reply.response.at("error")
                      : none;
  return WorkerError{detail::text(e, "tag", "kernelopt.worker"),
                     detail::text(e, "message", "the worker reported an error")};
}

Client::Client(Worker& worker)
    : transport_([&worker](const json& request, milliseconds deadline) {
        return worker.request(request, deadline);
      }) {}

Client::Client(Transport transport) : transport_(std::move(transport)) {}

template <typename T>
Answer<T> Client::call(const json& request, milliseconds deadline, T (*read)(const json&)) {
  Answer<T> answer;
  answer.reply = transport_(request, deadline);
  if (answer.ok()) answer.value = read(answer.reply.response);
  return answer;
}

Answer<Hello> Client::hello(milliseconds deadline) {
  return call({{"op", "hello"}}, deadline, read_hello);
}

Answer<Environment> Client::env(const EnvRequest& request, milliseconds deadline) {
  json message = {{"op", "env"}};
  if (request.bandwidth) message["bandwidth"] = true;
  if (request.ncu) message["ncu"] = true;
  return call(message, deadline, read_environment);
}

Answer<Loaded> Client::load(const LoadRequest& request, milliseconds deadline) {
  json message = {{"op", "load"}, {"problem", request.problem}, {"label", request.label}};
  if (!request.device.empty()) message["device"] = request.device;
  if (!request.forward) message["forward"] = false;
  return call(message, deadline, read_loaded);
}

Answer<Captured> Client::capture(const CaptureRequest& request, milliseconds deadline) {
  return call({{"op", "capture"},
               {"run_dir", request.run_dir},
               {"seeds", request.seeds},
               {"references", request.references}},
              deadline, read_captured);
}

Answer<LaunchTimes> Client::time_launches(const LaunchTimingRequest& request,
                                          milliseconds deadline) {
  return call({{"op", "time_launches"},
               {"graph", request.graph},
               {"path", request.path},
               {"marks", request.marks},
               {"iters", request.iters},
               {"kernels", request.kernels}},
              deadline, read_launch_times);
}

Answer<json> Client::time_model(const ModelTimingRequest& request, milliseconds deadline) {
  return call({{"op", "time_model"},
               {"variant", request.variant},
               {"mode", request.mode},
               {"iters", request.iters}},
              deadline, results_of);
}

Answer<json> Client::time_replay(int iters, milliseconds deadline) {
  return call({{"op", "time_replay"}, {"iters", iters}}, deadline, results_of);
}

Answer<std::vector<CapturedSegment>> Client::segment_capture(const SegmentCaptureRequest& request,
                                                             milliseconds deadline) {
  return call({{"op", "segment_capture"},
               {"graph", request.graph},
               {"path", request.path},
               {"segments", request.segments}},
              deadline, read_segments);
}

Answer<StaticCheck> Client::static_check(const StaticCheckRequest& request, milliseconds deadline) {
  return call({{"op", "static_check"},
               {"candidate", request.candidate},
               {"interface", request.interface},
               {"arch", request.arch}},
              deadline, read_static_check);
}

Answer<IsolatedCheck> Client::check_candidate(const IsolatedCheckRequest& request,
                                              milliseconds deadline) {
  nlohmann::json body = {{"op", "check_candidate"},        {"segment", request.segment},
                         {"candidate", request.candidate}, {"seeds", request.seeds},
                         {"rtol", request.rtol},           {"atol", request.atol}};
  if (!request.sanitize.empty()) body["sanitize"] = request.sanitize;
  return call(body, deadline, read_isolated_check);
}

Answer<ModelCheck> Client::model_check(const ModelCheckRequest& request, milliseconds deadline) {
  json body = {{"op", "model_check"},
               {"recomposed", recomposed_map(request.recomposed)},
               {"seeds", request.seeds}};
  if (!request.vendor.empty()) body["vendor"] = request.vendor;
  return call(body, deadline, read_model_check);
}

Answer<PairTiming> Client::time_pair(const PairTimingRequest& request, milliseconds deadline) {
  json body = {{"op", "time_pair"},
               {"recomposed", recomposed_map(request.recomposed)},
               {"samples", request.samples},
               {"warmup", request.warmup}};
  if (!request.vendor.empty()) body["vendor"] = request.vendor;
  if (request.baseline) body["baseline_recomposed"] = recomposed_map(*request.baseline);
  return call(body, deadline, read_pair_timing);
}

Answered Client::shutdown(milliseconds deadline) {
  Answered answered;
  answered.reply = transport_({{"op", "shutdown"}}, deadline);
  return answered;
}

}  // namespace kernelopt::worker
