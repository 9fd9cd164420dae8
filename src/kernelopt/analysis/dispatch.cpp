#include "kernelopt/analysis/dispatch.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "kernelopt/analysis/segments.hpp"

namespace kernelopt::analysis {

namespace {

using inductor::StepKind;

LaunchKind launch_kind(StepKind kind) {
  if (kind == StepKind::kTritonLaunch) return LaunchKind::kTriton;
  if (kind == StepKind::kExternCall) return LaunchKind::kExtern;
  return LaunchKind::kAten;
}

}  // namespace

std::optional<std::int64_t> buffer_bytes(const GraphRun& graph, const std::string& name) {
  const auto& inputs = graph.code.graph_inputs;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] != name) continue;
    if (i >= graph.args.size() || !graph.args[i]) return std::nullopt;
    const TensorInfo& t = *graph.args[i];
    std::vector<std::string> shape;
    std::vector<std::string> stride;
    for (auto v : t.shape) {
      shape.push_back(std::to_string(v));
    }
    for (auto v : t.stride) {
      stride.push_back(std::to_string(v));
    }
    return storage_bytes(shape, stride, t.dtype);
  }
  const inductor::Buffer* buffer = graph.code.buffer(name);
  if (buffer == nullptr || !buffer->shape_known) return std::nullopt;
  return storage_bytes(buffer->shape, buffer->stride, buffer->dtype);
}

std::optional<std::int64_t> sum_bytes(const GraphRun& graph,
                                      const std::vector<std::string>& names) {
  std::int64_t total = 0;
  std::set<std::string> seen;
  for (const auto& name : names) {
    if (!seen.insert(name).second) continue;
    auto bytes = buffer_bytes(graph, name);
    if (!bytes) return std::nullopt;
    total += *bytes;
  }
  return total;
}

std::optional<std::int64_t> moved_bytes(const GraphRun& graph,
                                        const std::vector<std::string>& reads,
                                        const std::vector<std::string>& writes) {
  auto in = sum_bytes(graph, reads);
  auto out = sum_bytes(graph, writes);
  if (!in || !out) return std::nullopt;
  return *in + *out;
}

void set_floor(std::optional<std::int64_t> bytes,
               double time_ms,
               double bandwidth_gbps,
               std::optional<double>& floor_ms,
               std::optional<double>& headroom) {
  if (!bytes || bandwidth_gbps <= 0) return;
  floor_ms = static_cast<double>(*bytes) / (bandwidth_gbps * 1e9) * 1e3;
  if (*floor_ms > 0) headroom = time_ms / *floor_ms;
}

namespace {

Launch make_launch(const GraphRun& graph,
                   int graph_index,
                   int step_index,
                   double time_ms,
                   const AnalysisOptions& options) {
  const double bandwidth_gbps = options.bandwidth_gbps;
  const inductor::Step& step = graph.code.steps[step_index];
  Launch launch;
  launch.graph = graph_index;
  launch.step = step_index;
  launch.kind = launch_kind(step.kind);
  launch.name = step.target;
  launch.aten_ops = step.aten_ops;
  launch.reads = step.reads;
  launch.writes = step.writes;
  launch.time_ms = time_ms * graph.calls;
  if (launch.kind == LaunchKind::kTriton) {
    const inductor::TritonKernel* kernel = graph.code.kernel(step.target);
    launch.kernel_kind = kernel != nullptr ? inductor::to_string(kernel->kind) : "unknown";
    launch.bytes = moved_bytes(graph, step.reads, step.writes);
    set_floor(launch.bytes, launch.time_ms, bandwidth_gbps, launch.floor_ms, launch.headroom);
    const auto flops = kernel != nullptr && options.fp32_gflops > 0
                           ? full_fp32_product_flops(*kernel)
                           : std::nullopt;
    if (flops) {
      launch.compute_floor_ms = *flops / (options.fp32_gflops * 1e9) * 1e3;
      raise_floor(launch.compute_floor_ms, launch.time_ms, launch.floor_ms, launch.headroom);
    }
  } else {
    launch.kernel_kind = launch.kind == LaunchKind::kExtern ? "extern" : "aten";
  }
  launch.replaceable =
      launch.kind == LaunchKind::kTriton ||
      (!options.dispatch_aware && launch.kind == LaunchKind::kExtern && replaceable_extern(step));
  return launch;
}

}  // namespace

bool replaceable_extern(const inductor::Step& step) {
  static const std::set<std::string> products = {"mm", "addmm", "bmm", "baddbmm"};
  if (step.kind != StepKind::kExternCall || products.count(step.target) == 0) return false;
  return step.writes.size() == 1 &&
         std::any_of(step.args.begin(), step.args.end(),
                     [](const std::string& arg) { return arg.rfind("out=", 0) == 0; });
}

DispatchMap build_dispatch_map(const std::vector<GraphRun>& graphs,
                               const AnalysisOptions& options) {
  DispatchMap map;
  map.dispatch_aware = options.dispatch_aware;
  map.split_launches = options.split_launches;
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    const GraphRun& graph = graphs[g];
    std::size_t launch_index = 0;
    for (std::size_t s = 0; s < graph.code.steps.size(); ++s) {
      if (!inductor::is_launch(graph.code.steps[s].kind)) continue;
      const double ms = launch_index < graph.launch_ms.size() ? graph.launch_ms[launch_index] : 0;
      map.launches.push_back(
          make_launch(graph, static_cast<int>(g), static_cast<int>(s), ms, options));
      if (map.launches.back().kind != LaunchKind::kTriton &&
          launch_index < graph.launch_kernels.size()) {
        map.launches.back().kernels = graph.launch_kernels[launch_index];
      }
      ++launch_index;
    }
  }
  for (const Launch& launch : map.launches) {
    map.total_ms += launch.time_ms;
    if (launch.kind == LaunchKind::kTriton) map.triton_ms += launch.time_ms;
    if (launch.replaceable) map.replaceable_ms += launch.time_ms;
  }
  map.outside_ms = std::max(0.0, options.outside_ms);
  const double whole = map.whole_ms();
  for (Launch& launch : map.launches) {
    launch.share = whole > 0 ? launch.time_ms / whole : 0;
  }
  map.triton_share = whole > 0 ? map.triton_ms / whole : 0;
  map.segments = find_segments(graphs, map, options.bandwidth_gbps, options.split_launches);
  // The class counts what kernelopt may replace: the Triton launches, and with dispatch_aware off
  // the replaceable extern calls too.
  if (map.replaceable_ms <= 0 && std::none_of(map.launches.begin(), map.launches.end(),
                                              [](const Launch& l) { return l.replaceable; })) {
    map.problem_class = ProblemClass::kNoTriton;
  } else if (map.total_ms > 0 && map.replaceable_ms / whole < options.vendor_dominated_share) {
    // Without launch times (verify does not time launches) the share is unknown: a graph with
    // Triton launches is optimizable until times say otherwise.
    map.problem_class = ProblemClass::kVendorDominated;
  } else {
    map.problem_class = ProblemClass::kOptimizable;
  }
  return map;
}

double outside_graphs_ms(double replay_ms, double compiled_gpu_ms) {
  constexpr double kCovered = 0.8;
  if (replay_ms <= 0 || compiled_gpu_ms <= 0 || replay_ms >= kCovered * compiled_gpu_ms) return 0;
  return compiled_gpu_ms - replay_ms;
}

double whole_model_ratio(double ratio, double graphs_ms, double outside_ms) {
  if (outside_ms <= 0 || graphs_ms <= 0 || ratio <= 0) return ratio;
  return (outside_ms + graphs_ms) / (outside_ms + graphs_ms / ratio);
}

}  // namespace kernelopt::analysis
