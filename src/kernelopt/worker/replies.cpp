// The readers of the answers that set up and time a problem (hello, env, load, capture,
// time_launches, segment_capture); the gates' answers are read in gate_replies.cpp.
#include "kernelopt/worker/replies.hpp"

#include "kernelopt/worker/fields.hpp"

namespace kernelopt::worker {

namespace {

using detail::flag;
using detail::integer;
using detail::number;
using detail::text;

std::vector<std::int64_t> extents(const nlohmann::json& j, const char* key) {
  return detail::each(j, key, [](const nlohmann::json& n) {
    return n.is_number() ? n.get<std::int64_t>() : std::int64_t{0};
  });
}

TensorDescription read_tensor(const nlohmann::json& j) {
  TensorDescription t;
  t.is_tensor = j.is_object() && j.contains("shape");
  t.shape = extents(j, "shape");
  t.stride = extents(j, "stride");
  t.dtype = text(j, "dtype", "?");
  t.device = text(j, "device", "");
  t.python = text(j, "python", "?");
  return t;
}

std::optional<std::int64_t> bytes(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<std::int64_t>();
}

Timing read_timing(const nlohmann::json& j) {
  return Timing{number(j, "median_ms", 0), number(j, "min_ms", 0), number(j, "max_ms", 0),
                detail::numbers(j, "samples_ms")};
}

}  // namespace

nlohmann::json results_of(const nlohmann::json& response) {
  nlohmann::json out = response.is_object() ? response : nlohmann::json::object();
  out.erase("id");
  out.erase("ok");
  return out;
}

Hello read_hello(const nlohmann::json& response) {
  return Hello{static_cast<int>(integer(response, "protocol", -1)), integer(response, "pid", 0)};
}

Environment read_environment(const nlohmann::json& response) {
  Environment env;
  env.document = results_of(response);
  const nlohmann::json& d = env.document;
  env.cuda_available = flag(d, "cuda_available", false);
  env.gpu_count = static_cast<int>(integer(d, "gpu_count", 1));
  env.gpu = text(d, "gpu", "?");
  env.free_memory_bytes = bytes(d, "free_memory_bytes");
  env.peak_memory_bytes = bytes(d, "peak_memory_bytes");
  if (d.contains("bandwidth") && d.at("bandwidth").is_object()) {
    env.bandwidth_gbps = number(d.at("bandwidth"), "bandwidth_gbps", 0.0);
  }
  env.fp32_gflops = d.contains("fp32_gflops") && d.at("fp32_gflops").is_number()
                        ? d.at("fp32_gflops").get<double>()
                        : 0.0;
  return env;
}

Loaded read_loaded(const nlohmann::json& response) {
  Loaded loaded;
  loaded.document = results_of(response);
  const nlohmann::json& d = loaded.document;
  loaded.name = text(d, "name", "");
  loaded.device = text(d, "device", "?");
  loaded.parameters = integer(d, "parameters", 0);
  loaded.inputs = detail::each(d, "inputs", read_tensor);
  loaded.outputs = detail::each(d, "outputs", read_tensor);
  return loaded;
}

CapturedGraph read_captured_graph(const nlohmann::json& graph) {
  CapturedGraph g;
  g.index = static_cast<int>(integer(graph, "index", 0));
  g.path = text(graph, "path", "");
  g.calls = static_cast<int>(integer(graph, "calls", 1));
  g.args = detail::each(graph, "args", read_tensor);
  if (graph.contains("kernel_configs")) g.kernel_configs = graph.at("kernel_configs");
  return g;
}

Captured read_captured(const nlohmann::json& response) {
  Captured captured;
  captured.document = results_of(response);
  captured.graphs = detail::each(captured.document, "graphs", read_captured_graph);
  return captured;
}

LaunchTimes read_launch_times(const nlohmann::json& response) {
  LaunchTimes times;
  times.intervals = detail::each(response, "intervals", read_timing);
  if (response.contains("total")) times.total = read_timing(response.at("total"));
  times.kernels = detail::each(response, "kernels", [](const nlohmann::json& launch) {
    std::vector<LaunchKernel> ran;
    if (!launch.is_array()) return ran;
    for (const auto& k : launch) {
      if (k.is_object()) ran.push_back({text(k, "name", ""), number(k, "ms", 0)});
    }
    return ran;
  });
  return times;
}

std::vector<CapturedSegment> read_segments(const nlohmann::json& response) {
  return detail::each(response, "segments", [](const nlohmann::json& s) {
    CapturedSegment segment;
    segment.id = static_cast<int>(integer(s, "id", 0));
    for (const double seed : detail::numbers(s, "seeds")) {
      segment.seeds.push_back(static_cast<int>(seed));
    }
    segment.inputs = s.value("inputs", nlohmann::json::object());
    segment.outputs = s.value("outputs", nlohmann::json::object());
    segment.in_place = detail::names(s, "in_place");
    return segment;
  });
}

}  // namespace kernelopt::worker
